"""Fills every writable place: /tmp, its socket folder, /dev/shm, the current folder."""

import os

from tests.sandbox.hostile._attack import AttackBot, report


def fill(folder: str) -> int:
    written = 0
    block = b"x" * (1 << 16)
    try:
        for index in range(1_000_000):
            with open(os.path.join(folder, f"fill-{index}"), "wb") as file:
                for _ in range(16):
                    file.write(block)
                    written += len(block)
    except OSError as error:
        report("INFO", f"{folder}: stopped after {written} bytes: {error}")
    return written


class DiskFillBot(AttackBot):
    def attack(self) -> None:
        for folder in ("/tmp", "/run/bot", "/dev/shm", "/dev", "/bot", "/"):
            written = fill(folder)
            limit = 64 * 1024 * 1024
            report("BLOCKED" if written < limit else "ESCAPED", f"fill {folder}: {written} bytes")
