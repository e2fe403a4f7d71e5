"""Sets up io_uring (a large kernel attack surface, and I/O the filter cannot see)."""

import ctypes

from tests.sandbox.hostile._attack import AttackBot, attempt, syscall


class IoUringBot(AttackBot):
    def attack(self) -> None:
        params = ctypes.create_string_buffer(120)
        attempt(
            "io_uring_setup", lambda: syscall("io_uring_setup", 425, 8, ctypes.addressof(params))
        )
        attempt("io_setup", lambda: syscall("io_setup", 206, 8, ctypes.addressof(params)))
