"""Signals every process it can, the sandbox's init, and the runner by its host pid."""

import os
import signal

from tests.sandbox.hostile._attack import PARAMS, AttackBot, attempt


class SignalOthersBot(AttackBot):
    def attack(self) -> None:
        attempt(
            "kill the runner by host pid", lambda: os.kill(PARAMS["runner_pid"], signal.SIGTERM)
        )
        attempt(
            "kill the honest bot's host pid", lambda: os.kill(PARAMS["other_pid"], signal.SIGKILL)
        )
        attempt("kill the sandbox's init", lambda: os.kill(1, signal.SIGKILL))
        attempt("kill every process (-1)", lambda: os.kill(-1, signal.SIGKILL))
