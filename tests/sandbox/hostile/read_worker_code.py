"""Reads the worker's code and environment: the sandbox's source, the platform's venv."""

import functools
import importlib
import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read


def listing(path: str) -> list[str]:
    """The entries of `path`; an empty folder (a covering tmpfs) is a block: raises."""
    entries = os.listdir(path)
    if not entries:
        raise LookupError(f"{path} is empty")
    return entries


class ReadWorkerCodeBot(AttackBot):
    def attack(self) -> None:
        attempt(f"read {PARAMS['worker_code']}", lambda: read(PARAMS["worker_code"]))
        attempt(f"list {PARAMS['platform_site']}", lambda: os.listdir(PARAMS["platform_site"]))
        attempt("import workers.sandbox", lambda: importlib.import_module("workers.sandbox"))
        attempt("import arena", lambda: importlib.import_module("arena"))
        for name in ("celery", "web", "flask", "sqlalchemy"):
            attempt(f"import {name}", functools.partial(importlib.import_module, name))
        for path in PARAMS["platform_paths"]:
            attempt(f"list {path}", functools.partial(listing, path))
        attempt(f"see {PARAMS['worker_prefix']}", lambda: os.stat(PARAMS["worker_prefix"]))
