"""Uses the kernel keyrings (shared state across the host, often where secrets live)."""

from tests.sandbox.hostile._attack import AttackBot, attempt, syscall

KEYCTL_GET_KEYRING_ID = 0
KEY_SPEC_USER_KEYRING = -4


class KeyringBot(AttackBot):
    def attack(self) -> None:
        attempt("add_key", lambda: syscall("add_key", 248, 0, 0, 0, 0, 0))
        attempt("request_key", lambda: syscall("request_key", 249, 0, 0, 0, 0))
        attempt(
            "keyctl",
            lambda: syscall("keyctl", 250, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0),
        )
