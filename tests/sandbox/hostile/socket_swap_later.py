"""Swaps its socket for a link to the other seat's socket *after* the runner has dialled."""

import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, report


class SocketSwapLaterBot(AttackBot):
    def attack(self) -> None:
        os.rename("/run/bot/bot.sock", "/run/bot/real.sock")
        os.symlink(PARAMS["other_socket"], "/run/bot/bot.sock")
        report("INFO", "socket swapped for a link")
