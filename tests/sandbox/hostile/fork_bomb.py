"""A fork bomb: every process forks for ever (in a fresh child process, so that the
server's threads do not get in the way and the server keeps answering)."""

import os
import subprocess
import sys
import time

from tests.sandbox.hostile._attack import AttackBot, report

BOMB = """
import os, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
"""


class ForkBombBot(AttackBot):
    def attack(self) -> None:
        subprocess.Popen([sys.executable, "-c", BOMB], start_new_session=True)
        time.sleep(2)
        count = sum(1 for p in os.listdir("/proc") if p.isdigit())
        report("INFO", f"processes visible after 2 s: {count}")
        report("BLOCKED" if count <= 64 else "ESCAPED", f"fork bomb: {count} processes")
