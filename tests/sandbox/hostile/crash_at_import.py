"""Raises while being imported."""

from tests.sandbox.hostile._attack import AttackBot

raise RuntimeError("this bot is broken on purpose")


class CrashAtImportBot(AttackBot):
    def attack(self) -> None:
        pass
