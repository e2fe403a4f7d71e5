"""A small process supervisor for the one-command platform (`arena platform`).

Starts each child in a process group of its own (so the terminal's Ctrl-C reaches only
us), restarts a child that dies (with a growing pause, a few times), and on Ctrl-C or
SIGTERM stops them all: SIGTERM to each (a Celery worker finishes its current task: a
warm shutdown), then SIGKILL to the group of any still running after the grace period.
A child that exits with `EXIT_UNAVAILABLE` is not restarted (for instance the web site
when its package is not installed): its message is already printed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from types import FrameType

log = logging.getLogger(__name__)

EXIT_UNAVAILABLE = 78
"""A child's exit status meaning "cannot run here; do not restart me" (EX_CONFIG)."""
MAX_RESTARTS = 5


@dataclasses.dataclass
class Child:
    """One supervised process."""

    name: str
    argv: Sequence[str]
    env: Mapping[str, str]
    popen: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    next_start: float = 0.0
    given_up: bool = False

    def start(self) -> None:
        """Start (or restart) the process in a new process group."""
        self.popen = subprocess.Popen(
            list(self.argv), env=dict(self.env), start_new_session=True, stdin=subprocess.DEVNULL
        )
        log.info("started %s (pid %s)", self.name, self.popen.pid)

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.popen is not None and self.popen.poll() is None


class Supervisor:
    """Runs `children` until a signal (or `should_stop()`), then stops them cleanly."""

    def __init__(
        self,
        children: Sequence[Child],
        *,
        grace: float = 30.0,
        echo: Callable[[str], None] = print,
    ) -> None:
        self.children = list(children)
        self.grace = grace
        self.echo = echo
        self._stopping = False

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        if self._stopping:
            self.echo("stopping: once more to kill everything at once")
            self._kill_all()
        self._stopping = True

    def run(self, *, until: Callable[[], bool] = lambda: False) -> int:
        """Start every child and watch them; returns once stopped (0 when stopped on
        request, 1 when every child had to be given up)."""
        previous = {
            sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            for child in self.children:
                child.start()
            while not self._stopping and not until():
                self._watch()
                if all(child.given_up for child in self.children):
                    return 1
                time.sleep(0.2)
            return 0
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _watch(self) -> None:
        now = time.monotonic()
        for child in self.children:
            if child.given_up or child.running or child.popen is None:
                if child.popen is None and not child.given_up and now >= child.next_start:
                    child.start()
                continue
            code = child.popen.returncode
            if code == EXIT_UNAVAILABLE:
                self.echo(f"{child.name} cannot run here (exit {code}); going on without it")
                child.given_up = True
            elif child.restarts >= MAX_RESTARTS:
                self.echo(f"{child.name} exited ({code}) {child.restarts + 1} times; given up")
                child.given_up = True
            else:
                child.restarts += 1
                pause = min(2.0**child.restarts, 30.0)
                self.echo(f"{child.name} exited ({code}); restarting in {pause:.0f} s")
                child.popen = None
                child.next_start = now + pause

    def stop(self) -> None:
        """SIGTERM every child, wait up to the grace period, then SIGKILL what is left."""
        running = [child for child in self.children if child.running]
        for child in running:
            assert child.popen is not None
            with contextlib.suppress(ProcessLookupError):
                child.popen.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace
        for child in running:
            assert child.popen is not None
            try:
                child.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.echo(f"{child.name} did not stop within {self.grace:g} s: killing it")
        self._kill_all()

    def _kill_all(self) -> None:
        for child in self.children:
            if child.popen is None:
                continue
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.popen.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.popen.wait(timeout=5)
