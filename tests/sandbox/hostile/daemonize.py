"""Daemonizes (double fork, new session, closed pipes) to outlive the match."""

import os
import time

from tests.sandbox.hostile._attack import AttackBot, report


class DaemonizeBot(AttackBot):
    def attack(self) -> None:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                devnull = os.open("/dev/null", os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(devnull, fd)
                while True:  # a daemon that would phone home if it could
                    time.sleep(0.2)
            os._exit(0)
        time.sleep(0.3)
        report("INFO", "daemon started")
