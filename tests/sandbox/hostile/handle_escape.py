"""The classic container escape: open_by_handle_at on a guessed handle of the host's root."""

import ctypes

from tests.sandbox.hostile._attack import AttackBot, attempt, syscall


class HandleEscapeBot(AttackBot):
    def attack(self) -> None:
        handle = ctypes.create_string_buffer(bytes([8, 0, 0, 0, 1, 0, 0, 0, 2]) + bytes(7))
        attempt(
            "open_by_handle_at",
            lambda: syscall("open_by_handle_at", 304, 0, ctypes.addressof(handle), 0),
        )
        attempt("name_to_handle_at", lambda: syscall("name_to_handle_at", 303, -100, 0, 0, 0, 0))
