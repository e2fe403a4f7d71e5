"""Warm starts: the worker's side of the template (`zygote.py`) that forks Python bots.

A `Template` is one running ``zygote.py`` per SDK runtime, started by the worker, with a
control socket only the worker holds. `Template.spawn` hands it one bot: a fresh socket
pair, a request with the descriptors the bot needs, and back comes a `WarmChild` that
stands where a cold start's `subprocess.Popen` stands in `BotProcess` (pid, poll, wait,
kill, returncode), its exit status reported by the child that forked the bot.

`Templates` keeps one template per runtime, replaces one that died or misbehaved, and
says why whenever a start has to be cold instead (the caller logs it and starts cold:
no match is lost or faulted for a template's failure).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from .environment import BotEnvironment

log = logging.getLogger(__name__)

ZYGOTE = Path(__file__).with_name("zygote.py")
TEMPLATE_START_TIMEOUT = 30.0
SPAWN_TIMEOUT = 10.0
RETRY_AFTER_FAILURES = 60.0
"""Seconds during which a runtime whose template failed to start is started cold."""


class TemplateError(Exception):
    """The template could not start a bot (it died, refused or timed out): start cold."""


class WarmChild:
    """A bot forked by the template, shaped as the `subprocess.Popen` of a cold start.

    Its exit status comes from the template's child that forked it (over `channel`); if
    that child is gone without a word (killed with the bot's cgroup), the bot was killed.
    """

    def __init__(self, channel: socket.socket, pid: int, setup_cpu: float) -> None:
        self.pid = pid
        """The bot's host pid."""
        self.setup_cpu = setup_cpu
        """CPU seconds the template's child spent joining the sandbox and forking."""
        self.returncode: int | None = None
        self._channel = channel
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        """The bot's exit status (as Popen's: minus the signal when killed), or None."""
        return self._read(0.0)

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the bot's end; raises subprocess.TimeoutExpired like Popen.wait."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            code = self._read(left)
            if code is not None:
                return code
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"warm bot {self.pid}", timeout or 0.0)

    def kill(self) -> None:
        """SIGKILL the bot (its sandbox's cgroup and init are killed by `BotProcess`)."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)

    def _read(self, timeout: float | None) -> int | None:
        with self._lock:
            if self.returncode is not None:
                return self.returncode
            if not select.select([self._channel], [], [], timeout)[0]:
                return None
            try:
                data = self._channel.recv(4096)
            except OSError:
                data = b""
            status = json.loads(data).get("status") if data else None
            if isinstance(status, int) and status >= 0:
                self.returncode = (
                    -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                )
            else:  # the forking child died with the bot (its cgroup was killed)
                self.returncode = -signal.SIGKILL
            self._channel.close()
            return self.returncode


class Template:
    """One running ``zygote.py`` for `runtime`; `spawn` starts a bot from it.

    Raises TemplateError from the constructor if it does not come up.
    """

    def __init__(self, runtime: Path, python: Path, spawn_timeout: float = SPAWN_TIMEOUT) -> None:
        self.runtime = runtime
        self.spawn_timeout = spawn_timeout
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        self._lock = threading.Lock()
        try:
            self._popen = subprocess.Popen(
                [
                    str(python),
                    "-I",
                    "-S",
                    "-B",
                    str(ZYGOTE),
                    str(theirs.fileno()),
                    str(runtime),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env={},
                cwd="/",
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )
        except OSError as error:
            ours.close()
            raise TemplateError(f"the template could not be run: {error}") from None
        finally:
            theirs.close()
        try:
            hello = self._receive(TEMPLATE_START_TIMEOUT, "start")
        except TemplateError:
            self.close()
            raise
        modules = hello.get("modules")
        self.modules: frozenset[str] = frozenset(
            str(name) for name in (modules if isinstance(modules, list) else [])
        )
        """Top-level modules the template imported (a version that ships its own copy of
        one is started cold: the template's would shadow it)."""

    def _receive(self, timeout: float, what: str) -> dict[str, object]:
        if not select.select([self._control], [], [], timeout)[0]:
            raise TemplateError(f"the template did not {what} within {timeout:g} s")
        data = self._control.recv(65536)
        if not data:
            ended = self.describe_end()
            raise TemplateError(f"the template exited before it would {what}: {ended}")
        message = json.loads(data)
        if not isinstance(message, dict):
            raise TemplateError(f"the template said something else than a {what}: {data!r}")
        return message

    def describe_end(self) -> str:
        """How the template ended (its status and the end of its stderr)."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(1.0)
        if self._popen.poll() is None or self._popen.stderr is None:
            return "(still running)"
        text = self._popen.stderr.read(8192).decode("utf-8", "replace").strip()
        status = f"status {self._popen.returncode}"
        return f"{status}: {text[-2000:]}" if text else status

    def cpu_seconds(self) -> float:
        """CPU seconds the template itself has used (0 once gone): the scheduler's own
        count in nanoseconds (``schedstat``), where ``stat``'s clock ticks would be too
        coarse for a fork's millisecond."""
        try:
            with open(f"/proc/{self._popen.pid}/schedstat") as file:
                return int(file.read().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            return 0.0

    @property
    def pid(self) -> int:
        """The template's host pid."""
        return self._popen.pid

    def alive(self) -> bool:
        """Whether the template still runs."""
        return self._popen.poll() is None

    def spawn(self, request: dict[str, object], fds: Sequence[int]) -> WarmChild:
        """Start one bot (see zygote.py for `request` and `fds`). Raises TemplateError."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        before = self.cpu_seconds()
        try:
            with self._lock:
                if not self.alive():
                    raise TemplateError(f"the template has exited ({self.describe_end()})")
                try:
                    socket.send_fds(self._control, [b"s"], [theirs.fileno()])
                except OSError as error:
                    raise TemplateError(f"the template does not listen: {error}") from None
            theirs.close()
            socket.send_fds(ours, [json.dumps(request).encode()], list(fds))
            if not select.select([ours], [], [], self.spawn_timeout)[0]:
                raise TemplateError(f"the template started no bot within {self.spawn_timeout:g} s")
            data = ours.recv(65536)
            answer = json.loads(data) if data else {}
            if "error" in answer:
                raise TemplateError(f"the template could not start the bot: {answer['error']}")
            pid, cpu = answer.get("pid"), answer.get("cpu", 0.0)
            if not isinstance(pid, int) or not isinstance(cpu, int | float):
                raise TemplateError(f"the template's child said {data!r}, not a pid")
            # What this start cost outside the bot's cgroup: the child's work, and the
            # template's own (receiving the request and forking the child).
            return WarmChild(ours, pid, float(cpu) + max(0.0, self.cpu_seconds() - before))
        except BaseException:
            ours.close()
            with contextlib.suppress(OSError):
                theirs.close()
            raise

    def close(self) -> None:
        """Stop the template (bots it started are not affected: they live in their own
        sandboxes, each reported by its own child)."""
        self._control.close()
        if self._popen.poll() is None:
            self._popen.kill()
        self._popen.wait()
        if self._popen.stderr is not None:
            self._popen.stderr.close()


def template_python() -> Path:
    """The base interpreter bots run on (each version's venv is one of it)."""
    base = Path(os.path.realpath(sys.base_prefix))
    return base / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def shadowed(env: BotEnvironment, modules: Iterable[str]) -> list[str]:
    """The template's modules that `env`'s own venv ships a copy of (sorted)."""
    names: set[str] = set()
    for site in (env.venv / "lib").glob("python*/site-packages"):
        for entry in site.iterdir():
            if entry.suffix in (".dist-info", ".pth", ".egg-info"):
                continue
            names.add(entry.name.split(".")[0])
    return sorted(names & set(modules))


class Templates:
    """One template per runtime, started on first use and replaced when it fails."""

    def __init__(self, python: Path | None = None, spawn_timeout: float = SPAWN_TIMEOUT) -> None:
        self._python = python or template_python()
        self.spawn_timeout = spawn_timeout
        self._running: dict[Path, Template] = {}
        self._failed: dict[Path, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def get(self, runtime: Path) -> Template:
        """The running template for `runtime` (started now if needed). Raises
        TemplateError, naming the reason, when there is none to use."""
        with self._lock:
            template = self._running.get(runtime)
            if template is not None and template.alive():
                return template
            if template is not None:
                reason = (
                    f"the template for {runtime} died ({template.describe_end()}); replacing it"
                )
                log.warning("%s", reason)
                template.close()
                del self._running[runtime]
            failed = self._failed.get(runtime)
            if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER_FAILURES:
                raise TemplateError(f"{failed[1]} (retried after {RETRY_AFTER_FAILURES:g} s)")
            try:
                template = Template(runtime, self._python, self.spawn_timeout)
            except TemplateError as error:
                self._failed[runtime] = (time.monotonic(), str(error))
                raise
            self._failed.pop(runtime, None)
            self._running[runtime] = template
            return template

    def running(self) -> list[Template]:
        """The templates running now (for the status page and tests)."""
        with self._lock:
            return [template for template in self._running.values() if template.alive()]

    def discard(self, template: Template, reason: str) -> None:
        """Stop using `template` (it misbehaved); the next start makes a new one."""
        log.warning("discarding the warm template for %s: %s", template.runtime, reason)
        with self._lock:
            if self._running.get(template.runtime) is template:
                del self._running[template.runtime]
        template.close()

    def close(self) -> None:
        """Stop every template."""
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for template in running:
            template.close()
