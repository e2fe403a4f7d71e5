"""Spins in several processes, each under a per-process CPU limit, to add up past it."""

import subprocess
import sys

from tests.sandbox.hostile._attack import AttackBot, report

SPIN = """
import time
deadline = time.process_time() + 1.5  # below RLIMIT_CPU
while time.process_time() < deadline:
    pass
time.sleep(3600)
"""


class CpuSpinChildrenBot(AttackBot):
    def attack(self) -> None:
        for _ in range(4):
            subprocess.Popen([sys.executable, "-c", SPIN])
        report("INFO", "four children spinning 1.5 s each")
