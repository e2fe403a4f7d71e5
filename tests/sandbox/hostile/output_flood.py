"""Floods stdout and stderr with 64 MiB each."""

import os

from tests.sandbox.hostile._attack import AttackBot, report


class OutputFloodBot(AttackBot):
    def attack(self) -> None:
        line = b"flood " * 170 + b"\n"
        for fd in (1, 2):
            for _ in range((64 << 20) // len(line)):
                os.write(fd, line)
        report("INFO", "flooded 128 MiB")
