"""Makes new user (and other) namespaces, the usual first step of a kernel exploit."""

import subprocess

from tests.sandbox.hostile._attack import AttackBot, attempt, libc_call

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
CLONE_NEWNS = 0x00020000


def run(*command: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=5, check=False)
    if result.returncode != 0:
        raise PermissionError(f"status {result.returncode}: {result.stderr.strip()[:200]}")
    return result.stdout


class UserNamespaceBot(AttackBot):
    def attack(self) -> None:
        attempt("unshare(CLONE_NEWUSER)", lambda: libc_call("unshare", CLONE_NEWUSER))
        attempt("unshare(CLONE_NEWNET)", lambda: libc_call("unshare", CLONE_NEWNET))
        attempt("unshare(CLONE_NEWNS)", lambda: libc_call("unshare", CLONE_NEWNS))
        attempt("unshare -Ur id", lambda: run("/usr/bin/unshare", "-Ur", "id"))
        attempt("setns", lambda: libc_call("setns", 0, 0))
