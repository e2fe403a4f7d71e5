"""Crashes with a segmentation fault while deciding."""

import ctypes

from tests.sandbox.hostile._attack import AttackBot


class CrashSegfaultBot(AttackBot):
    def attack(self) -> None:
        ctypes.string_at(0)
