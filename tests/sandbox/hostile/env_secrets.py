"""Looks for secrets in its environment and in every /proc entry's environ and cmdline."""

import glob
import os

from hearts_bot.transport import GRPC_EXPERIMENTS

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read, report


def scan() -> str:
    found = []
    for path in glob.glob("/proc/*/environ") + glob.glob("/proc/*/cmdline"):
        try:
            with open(path, "rb") as file:
                if PARAMS["secret"].encode() in file.read():
                    found.append(path)
        except OSError:
            pass
    if not found:
        raise LookupError("the secret is in no /proc environ or cmdline")
    return ", ".join(found)


class EnvSecretsBot(AttackBot):
    def attack(self) -> None:
        report("INFO", f"environ: {dict(os.environ)!r}")
        # PWD comes from bubblewrap's --chdir, LC_CTYPE from Python's own locale coercion,
        # GRPC_EXPERIMENTS from the SDK itself at import (hearts_bot.transport), with its
        # own default value: anything else was handed in from outside.
        own = {"GRPC_EXPERIMENTS": GRPC_EXPERIMENTS}
        extra = {
            k: v for k, v in os.environ.items() if k not in ("PWD", "LC_CTYPE") and own.get(k) != v
        }
        attempt("variables in os.environ", lambda: extra or 1 / 0)
        attempt(
            "the secret in os.environ",
            lambda: [v for v in os.environ.values() if PARAMS["secret"] in v] or 1 / 0,
        )
        attempt("secret in /proc", scan)
        attempt("read /proc/1/environ", lambda: read("/proc/1/environ", "rb") or 1 / 0)
