"""Allocates memory without end, touching every page."""

from tests.sandbox.hostile._attack import AttackBot, report

hoard: list[bytearray] = []


class MemoryHogBot(AttackBot):
    def attack(self) -> None:
        for megabytes in range(1, 100_000):
            hoard.append(bytearray(1 << 20))
            if megabytes % 64 == 0:
                report("INFO", f"holding {megabytes} MiB")
        report("ESCAPED", "allocated 100 GB")
