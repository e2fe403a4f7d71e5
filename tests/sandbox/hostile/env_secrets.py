"""Looks for secrets in its environment and in every /proc entry's environ and cmdline."""

import glob
import os

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
        # PWD comes from bubblewrap's --chdir, LC_CTYPE from Python's own locale coercion.
        extra = {k: v for k, v in os.environ.items() if k not in ("PWD", "LC_CTYPE")}
        attempt("variables in os.environ", lambda: extra or 1 / 0)
        attempt(
            "the secret in os.environ",
            lambda: [v for v in os.environ.values() if PARAMS["secret"] in v] or 1 / 0,
        )
        attempt("secret in /proc", scan)
        attempt("read /proc/1/environ", lambda: read("/proc/1/environ", "rb") or 1 / 0)
