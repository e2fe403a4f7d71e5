"""Runs setuid-root programs hoping to become root."""

import os
import subprocess

from tests.sandbox.hostile._attack import AttackBot, attempt


def run(*command: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=5, check=False)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise PermissionError(f"status {result.returncode}: {output.strip()[:200]}")
    return output


def become_root_via_mount() -> str:
    os.makedirs("/tmp/m", exist_ok=True)
    return run("/usr/bin/mount", "-t", "tmpfs", "none", "/tmp/m")


class SetuidBinaryBot(AttackBot):
    def attack(self) -> None:
        attempt("setuid mount", become_root_via_mount)
        attempt("setuid passwd -S root", lambda: run("/usr/bin/passwd", "-S", "root"))
        attempt("setuid newgrp root", lambda: run("/usr/bin/newgrp", "root"))
        attempt("setuid(0)", lambda: os.setuid(0))
