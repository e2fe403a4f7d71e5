"""A small process supervisor for the one-command platform (`arena platform`).

Starts each child in a process group of its own (so the terminal's Ctrl-C reaches only
us), restarts a child that dies (with a growing pause, a few times), and on Ctrl-C or
SIGTERM stops them all: SIGTERM to each (a Celery worker finishes its current task: a
warm shutdown), then SIGKILL to the group of any still running after the grace period.
A child that exits with `EXIT_UNAVAILABLE` is not restarted (for instance the web site
when its package is not installed): its message is already printed.

A `Service` is a process the platform started before its children and stops after them
(the embedded broker, `workers.embedded_broker`): the supervisor watches it the same way
(reaps it when it ends, says so, starts it again after a growing pause, a few times) but
never stops it. Its `info()` is what the status pages show of it.
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
from typing import Any

from arena.match.process import describe_exit

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


def restart_pause(restarts: int) -> float:
    """Seconds before the `restarts`-th restart of a child or a service.

    >>> [restart_pause(n) for n in (1, 2, 3, 4, 5, 6)]
    [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    """
    return min(2.0**restarts, 30.0)


@dataclasses.dataclass
class Service:
    """A process kept running by the supervisor that it neither starts first nor stops
    (the embedded broker): `poll()` its exit status once it ended, reaping it (None while
    it runs), `restart()` starts it again (raising when it cannot), `pid()` its pid."""

    name: str
    poll: Callable[[], int | None]
    restart: Callable[[], None]
    pid: Callable[[], int | None]
    restarts: int = 0
    next_start: float | None = None
    """When a restart is due (None: it runs)."""
    given_up: bool = False
    last_exit: str | None = None
    """How it ended last ('killed by signal 9 (SIGKILL)'), or why it could not restart."""

    @property
    def state(self) -> str:
        """'running', 'restarting' or 'given up'."""
        if self.given_up:
            return "given up"
        return "running" if self.next_start is None else "restarting"

    def info(self) -> dict[str, Any]:
        """What the status pages show of it (its heartbeat's info)."""
        return {
            "state": self.state,
            "pid": None if self.next_start is not None or self.given_up else self.pid(),
            "restarts": self.restarts,
            "last_exit": self.last_exit,
        }


class Supervisor:
    """Runs `children` until a signal (or `should_stop()`), then stops them cleanly;
    keeps `services` running meanwhile."""

    def __init__(
        self,
        children: Sequence[Child],
        *,
        services: Sequence[Service] = (),
        grace: float = 30.0,
        echo: Callable[[str], None] = print,
    ) -> None:
        self.children = list(children)
        self.services = list(services)
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
        for service in self.services:
            self._watch_service(service, now)
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
                pause = restart_pause(child.restarts)
                self.echo(f"{child.name} exited ({code}); restarting in {pause:.0f} s")
                child.popen = None
                child.next_start = now + pause

    def _watch_service(self, service: Service, now: float) -> None:
        """Reap a service that ended and start it again when its pause is over."""
        if service.given_up:
            return
        if service.next_start is None:
            code = service.poll()  # reaps it: no zombie is left
            if code is None:
                return
            self._schedule(service, now, describe_exit(code))
            return
        if now < service.next_start:
            return
        try:
            service.restart()
        except Exception as error:  # it could not come up: another pause, or give up
            self._schedule(service, time.monotonic(), f"could not restart: {error}")
            return
        service.next_start = None
        self.echo(f"{service.name} restarted (pid {service.pid()})")
        log.info("%s restarted", service.name, extra={"restarts": service.restarts})

    def _schedule(self, service: Service, now: float, why: str) -> None:
        service.last_exit = why
        if service.restarts >= MAX_RESTARTS:
            service.given_up = True
            service.next_start = None
            self.echo(f"{service.name} {why}, {service.restarts + 1} times; given up")
            log.error("%s given up: %s", service.name, why)
            return
        service.restarts += 1
        pause = restart_pause(service.restarts)
        service.next_start = now + pause
        self.echo(f"{service.name} {why}; restarting it in {pause:.0f} s")
        log.warning("%s %s; restarting it in %.0f s", service.name, why, pause)

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
