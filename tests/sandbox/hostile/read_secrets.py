"""Reads host secrets: a canary file, /etc/shadow, root's home, SSH keys."""

import functools
import os
import sys

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read


def list_host_folder(path: str) -> list[str]:
    """What is in `path` besides the way to the interpreter mirrored into the sandbox."""
    mirrored = {part for part in sys.base_prefix.split("/") if part}
    found = [name for name in os.listdir(path) if name not in mirrored]
    if not found:
        raise FileNotFoundError(f"nothing of the host's in {path}")
    return found


class ReadSecretsBot(AttackBot):
    def attack(self) -> None:
        for path in (
            PARAMS["canary"],
            "/etc/shadow",
            "/etc/passwd",
            "/root/.ssh/id_rsa",
            "/root/.bash_history",
            "/etc/ssh/ssh_host_ed25519_key",
        ):
            attempt(f"read {path}", functools.partial(read, path))
        attempt("list /root", lambda: list_host_folder("/root"))
        attempt("list /home", lambda: list_host_folder("/home"))
        attempt("list /etc", lambda: list_host_folder("/etc"))
