"""Reads the worker's code and environment: the sandbox's source, the platform's venv."""

import importlib
import os

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt, read


class ReadWorkerCodeBot(AttackBot):
    def attack(self) -> None:
        attempt(f"read {PARAMS['worker_code']}", lambda: read(PARAMS["worker_code"]))
        attempt(f"list {PARAMS['platform_site']}", lambda: os.listdir(PARAMS["platform_site"]))
        attempt("import workers.sandbox", lambda: importlib.import_module("workers.sandbox"))
        attempt("import arena", lambda: importlib.import_module("arena"))
        for name in ("celery", "web", "flask", "sqlalchemy"):
            attempt(f"import {name}", lambda name=name: importlib.import_module(name))
        for path in PARAMS["platform_paths"]:
            attempt(f"list {path}", lambda path=path: os.listdir(path) or 1 / 0)
        attempt(f"see {PARAMS['worker_prefix']}", lambda: os.stat(PARAMS["worker_prefix"]))
