"""Never becomes ready: hangs while being imported."""

import time

from tests.sandbox.hostile._attack import AttackBot

time.sleep(3600)


class NeverReadyBot(AttackBot):
    def attack(self) -> None:
        pass
