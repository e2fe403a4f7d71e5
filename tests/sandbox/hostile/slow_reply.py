"""Never answers a play in time (sleeps through every deadline)."""

import time

from tests.sandbox.hostile._attack import AttackBot


class SlowReplyBot(AttackBot):
    def attack(self) -> None:
        time.sleep(3600)
