"""A thread bomb: threads until the system refuses."""

import threading
import time

from tests.sandbox.hostile._attack import AttackBot, report

stop = threading.Event()


class ThreadBombBot(AttackBot):
    def attack(self) -> None:
        started = 0
        try:
            while started < 100_000:
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except RuntimeError as error:
            report("BLOCKED", f"thread bomb stopped after {started} threads: {error}")
        else:
            report("ESCAPED", f"thread bomb: {started} threads")
        stop.set()
        time.sleep(0.5)
