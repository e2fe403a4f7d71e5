"""Replaces its socket with a plain file once the server listens."""

import os

from tests.sandbox.hostile._attack import AttackBot, before_ready_line


def swap() -> None:
    os.unlink("/run/bot/bot.sock")
    with open("/run/bot/bot.sock", "w") as file:
        file.write("not a socket")


before_ready_line(swap)


class SocketPlainFileBot(AttackBot):
    def attack(self) -> None:
        pass
