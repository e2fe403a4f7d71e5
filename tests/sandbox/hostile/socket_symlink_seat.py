"""Swaps its socket for a symbolic link to the other seat's socket (as the host sees it)."""

import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, before_ready_line


def swap() -> None:
    os.rename("/run/bot/bot.sock", "/run/bot/real.sock")
    os.symlink(PARAMS["other_socket"], "/run/bot/bot.sock")


before_ready_line(swap)


class SocketSymlinkSeatBot(AttackBot):
    def attack(self) -> None:
        pass
