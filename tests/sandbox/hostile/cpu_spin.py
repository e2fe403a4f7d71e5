"""Spins on the CPU for ever (in a thread: the server stays up until the limit)."""

import threading

from tests.sandbox.hostile._attack import AttackBot, report


def spin() -> None:
    while True:
        pass


class CpuSpinBot(AttackBot):
    def attack(self) -> None:
        threading.Thread(target=spin, daemon=True).start()
        report("INFO", "spinning")
