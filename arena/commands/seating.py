"""`SeatFactory`: makes seats from `--bot` specs and owns whatever it started for them."""

from __future__ import annotations

import contextlib
from pathlib import Path
from types import TracebackType

import click

from arena.match.clock import TimePolicy
from arena.match.manifest import ManifestError
from arena.match.process import BotProcess
from arena.match.remote import BotHost, GrpcSeat
from arena.match.seats import Seat
from arena.match.spec import BotSpec, house_seat


class SandboxRequiredError(RuntimeError):
    """Untrusted code would run without a sandbox; says how to proceed."""


class SeatFactory(contextlib.AbstractContextManager["SeatFactory"]):
    """Builds seats; closing it stops every process it started, whatever happened.

    Bot files run in the sandbox unless `sandbox=False` is asked for explicitly (a
    developer's own code on their own machine). A command bot (``command:./bot``, a
    program in any language) is always a plain local process: it is the developer's own.
    """

    def __init__(self, *, sandbox: bool = True, time_policy: TimePolicy | None = None) -> None:
        self.sandbox = sandbox
        self.time_policy = time_policy or TimePolicy()
        self._hosts: list[BotHost] = []

    def seat(self, spec: BotSpec, seed: int, names: tuple[str, ...] = ()) -> Seat:
        """A seat for `spec` (house bots get `seed`)."""
        if spec.kind == "house":
            return house_seat(spec, seed)
        if spec.kind == "address":
            return GrpcSeat(spec.value, spec.name, names=names)
        if spec.kind == "command":
            host = self._start_command(spec)
        else:
            host = self._start_file(Path(spec.value), len(self._hosts))
        return GrpcSeat(host.address, spec.name, host=host, names=names)

    def _start_command(self, spec: BotSpec) -> BotHost:
        """Run a command bot here (`arena.match.process.BotProcess`); a command that
        cannot be run at all is a usage error naming it."""
        argv = spec.argv
        try:
            host = BotProcess(spec.name, command=argv)
        except ManifestError as error:  # the hearts-bot.toml of the current folder
            raise click.UsageError(str(error)) from None
        except OSError as error:
            raise click.UsageError(
                f"cannot run {argv[0]!r} (from the command {spec.value!r}): "
                f"{error.strerror or error}"
            ) from None
        self._hosts.append(host)
        return host

    def _start_file(self, path: Path, index: int) -> BotHost:
        host: BotHost
        try:
            host = self._sandboxed(path, index) if self.sandbox else BotProcess(path)
        except ManifestError as error:  # the hearts-bot.toml beside the bot file
            raise click.UsageError(str(error)) from None
        self._hosts.append(host)
        return host

    def _sandboxed(self, path: Path, index: int) -> BotHost:
        # The sandbox belongs to the workers; only the command-line shell reaches for it.
        from workers.sandbox import SandboxError, SandboxUnavailableError, start_bot_file

        try:
            host: BotHost = start_bot_file(path, seat=index)
        except SandboxUnavailableError as error:
            raise SandboxRequiredError(
                f"the sandbox is not available here: {error}. Install bubblewrap, or pass "
                "--no-sandbox to run your own bot as a plain local process"
            ) from None
        except SandboxError as error:  # its environment, or an unsafe cache folder
            raise SandboxRequiredError(f"cannot start {path} in the sandbox: {error}") from None
        return host

    def close(self) -> None:
        """Stop every bot process started here (idempotent)."""
        for host in self._hosts:
            host.stop()
        self._hosts.clear()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
