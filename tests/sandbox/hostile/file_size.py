"""Writes one file past the file size limit."""

from tests.sandbox.hostile._attack import AttackBot, attempt


def write() -> int:
    with open("/tmp/big", "wb") as file:
        for _ in range(64):
            file.write(b"y" * (1 << 20))
    return 64 << 20


class FileSizeBot(AttackBot):
    def attack(self) -> None:
        attempt("write a 64 MiB file", write)
