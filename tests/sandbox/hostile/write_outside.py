"""Writes outside its own folders: the system, its own code, the venv, the host."""

import functools
import os
import sys

import hearts_bot

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt

RUNTIME = os.path.dirname(os.path.dirname(hearts_bot.__file__))


def write(path: str) -> str:
    with open(path, "w") as file:
        file.write("pwned")
    return path


class WriteOutsideBot(AttackBot):
    def attack(self) -> None:
        for path in (
            "/pwned",
            "/usr/pwned",
            "/etc/pwned",
            "/bot/pwned",
            "/bot/bot.py",
            sys.prefix + "/pwned",
            RUNTIME + "/pwned",
            PARAMS["host_target"],
            "/dev/pwned",
            "/proc/sys/kernel/hostname",
            "/proc/sysrq-trigger",
        ):
            attempt(f"write {path}", functools.partial(write, path))
        attempt("mkdir /run/pwned", lambda: os.mkdir("/run/pwned"))
        attempt("chmod /bot", lambda: os.chmod("/bot", 0o777))
