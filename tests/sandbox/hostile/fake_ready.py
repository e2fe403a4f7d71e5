"""Prints the readiness line but never listens."""

import time

from tests.sandbox.hostile._attack import AttackBot

print("HEARTS-BOT READY unix:/run/bot/bot.sock", flush=True)
time.sleep(3600)


class FakeReadyBot(AttackBot):
    def attack(self) -> None:
        pass
