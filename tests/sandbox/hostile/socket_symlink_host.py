"""Swaps its socket for a symbolic link to a socket of the host's (a listener of ours)."""

import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, before_ready_line


def swap() -> None:
    os.rename("/run/bot/bot.sock", "/run/bot/real.sock")
    os.symlink(PARAMS["unix_path"], "/run/bot/bot.sock")


before_ready_line(swap)


class SocketSymlinkHostBot(AttackBot):
    def attack(self) -> None:
        pass
