"""`SandboxHost`: a sandboxed `BotProcess` as the match runner's `BotHost`.

It lives with the sandbox (not with the match task) because it is the sandbox's face to
the runner: readiness, the typed exit (`ExitReason`, whose kind the runner turns into an
`out_of_memory` or `cpu_limit` fault), the scrubbed log, and the freezing between turns.
"""

from __future__ import annotations

from collections.abc import Callable

from .process import BotProcess, ExitReason


class SandboxHost:
    """A sandboxed `BotProcess` as the runner's `BotHost` (the environment is kept)."""

    def __init__(self, process: BotProcess, scrub: Callable[[str], str] = str) -> None:
        self.process = process
        self.address = process.address
        self.scrub = scrub  # hides the worker's folders (`workers.environments.host_paths`)

    def wait_ready(self, timeout: float) -> bool:
        """True once the bot listens on its own socket."""
        return self.process.wait_ready(timeout)

    def exit_reason(self) -> ExitReason | None:
        """Why the bot ended (its text is the message; its `kind` types the fault), or
        None while it runs."""
        return self.process.exit_reason()

    def log_excerpt(self) -> str:
        """The bot's capped stdout and stderr, naming folders as the sandbox does."""
        return self.scrub(self.process.log_excerpt())

    def thaw(self) -> None:
        """The runner is about to ask (or tell) the bot something: let it run."""
        self.process.thaw()

    def freeze(self) -> None:
        """The bot has answered: stop it until its next turn (see `BotProcess.freeze`)."""
        self.process.freeze()

    def stop(self) -> None:
        """Stop the bot (idempotent)."""
        self.process.stop()
