"""A bot file run as a local process through the SDK's server (unsandboxed: trusted code only).

This is the explicit opt-in for a developer's own bot on their own machine
(`arena match run --no-sandbox`); uploads always run inside `workers.sandbox`. Either
way the process's stdout and stderr are captured, capped, and kept for the bot's owner.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from .manifest import manifest_environ

READY_PREFIX = "HEARTS-BOT READY"
LOG_CAP_BYTES = 64 * 1024


class CappedLog:
    """Keeps the first and last `cap` / 2 bytes of a stream, counting what was dropped."""

    def __init__(self, cap: int = LOG_CAP_BYTES) -> None:
        self.cap = cap
        self._head = bytearray()
        self._tail = bytearray()
        self.dropped = 0
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        """Append bytes, keeping memory bounded whatever the bot writes."""
        with self._lock:
            room = self.cap // 2 - len(self._head)
            if room > 0:
                self._head += data[:room]
                data = data[room:]
            if data:
                self._tail += data
                excess = len(self._tail) - self.cap // 2
                if excess > 0:
                    del self._tail[:excess]
                    self.dropped += excess

    def text(self) -> str:
        """The kept text, with the cut marked."""
        with self._lock:
            head = self._head.decode("utf-8", "replace")
            tail = self._tail.decode("utf-8", "replace")
            if self.dropped:
                return f"{head}\n[… {self.dropped} bytes cut …]\n{tail}"
            return head + tail


def describe_exit(returncode: int) -> str:
    """`-9` → 'killed by signal 9 (SIGKILL)'; `1` → 'exited with status 1'."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown"
        return f"killed by signal {-returncode} ({name})"
    return f"exited with status {returncode}"


class BotProcess:
    """`python -m hearts_bot serve SPEC --address unix:SOCKET` in its own process group.

    `spec` is a bot file, or ``package.module:Class`` (as `hearts-bot serve` takes it).
    With `command` (a bot in any language, e.g. ``["./bot"]`` or ``["node",
    "dist/bot.js"]``), that command is run instead, with ``--address unix:SOCKET``
    appended, in the current folder; it must print the readiness line as the SDK does
    (docs/protocol.md, "Starting a bot").

    The bot gets `PATH` (this process's), `HOME` (a fresh empty folder, removed with the
    socket's), `PYTHONUNBUFFERED=1`, and the ``[env]`` of the ``hearts-bot.toml`` in its
    working folder (the bot file's folder, or the current one for a command), as the
    sandbox gives them (docs/languages.md, "What a bot gets"). Raises ManifestError for
    a manifest there that an upload would be refused for, OSError for a command that
    cannot be run.
    """

    def __init__(
        self,
        spec: Path | str,
        *,
        python: str = sys.executable,
        command: Sequence[str] | None = None,
    ) -> None:
        self.spec = str(spec)
        is_file = command is None and Path(self.spec).is_file()
        folder = Path(self.spec).resolve().parent if is_file else Path.cwd()
        own = manifest_environ(folder)  # before anything is made: it may raise
        self._dir = Path(tempfile.mkdtemp(prefix="arena-bot-"))
        os.chmod(self._dir, 0o700)
        self.address = f"unix:{self._dir / 'bot.sock'}"
        self.stdout = CappedLog()
        self.stderr = CappedLog()
        self._ready = threading.Event()
        self._settled = threading.Event()  # the readiness line, or the process's exit
        env = {
            **own,  # a manifest cannot set the three below (arena.match.manifest.check_env)
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONUNBUFFERED": "1",
            "HOME": str(self._dir),
        }
        argv = (
            [python, "-m", "hearts_bot", "serve", self.spec, "--address", self.address]
            if command is None
            else [*command, "--address", self.address]
        )
        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=folder if is_file else None,
            env=env,
            start_new_session=True,
        )
        assert self._process.stdout is not None
        assert self._process.stderr is not None
        self._threads = [
            threading.Thread(
                target=self._pump, args=(self._process.stdout, self.stdout, True), daemon=True
            ),
            threading.Thread(
                target=self._pump, args=(self._process.stderr, self.stderr, False), daemon=True
            ),
            threading.Thread(target=self._watch_exit, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _pump(self, stream: IO[bytes], log: CappedLog, watch_ready: bool) -> None:
        for line in iter(stream.readline, b""):
            if watch_ready and not self._ready.is_set() and line.startswith(READY_PREFIX.encode()):
                self._ready.set()
                self._settled.set()
            log.write(line)
        stream.close()

    def _watch_exit(self) -> None:
        """Settle the readiness wait when the process exits, without reaping it (`poll`
        does): a bot that dies before its readiness line ends the wait at once, even when a
        process it left behind still holds its stdout open."""
        with contextlib.suppress(ChildProcessError, OSError):  # already reaped: it exited
            os.waitid(os.P_PID, self._process.pid, os.WEXITED | os.WNOWAIT)
        self._settled.set()

    @property
    def pid(self) -> int:
        """The bot process's id (it leads its own process group)."""
        return self._process.pid

    def wait_ready(self, timeout: float) -> bool:
        """True once the server printed its readiness line; False after `timeout` seconds,
        or as soon as the process exits (`exit_reason` then says how)."""
        self._settled.wait(timeout)
        if self._ready.is_set():
            return self._process.poll() is None
        if self._settled.is_set():  # it exited: reap it, so that exit_reason says how
            self._process.wait()
        return False

    @property
    def returncode(self) -> int | None:
        """The exit status, or None while running."""
        return self._process.poll()

    def exit_reason(self) -> str | None:
        """How the process ended, and whether before its readiness line ('exited with
        status 2 before it was ready'), or None while it runs."""
        code = self.returncode
        if code is None:
            return None
        return describe_exit(code) + ("" if self._ready.is_set() else " before it was ready")

    def log_excerpt(self) -> str:
        """stderr then stdout, each capped."""
        parts = []
        if err := self.stderr.text():
            parts.append(f"--- stderr ---\n{err}")
        if out := self.stdout.text():
            parts.append(f"--- stdout ---\n{out}")
        return "\n".join(parts)

    def stop(self, grace: float = 1.0) -> None:
        """SIGTERM the process group, SIGKILL it after `grace`, remove the socket directory."""
        if self._process.poll() is None:
            try:
                os.killpg(self._process.pid, signal.SIGTERM)
                self._process.wait(grace)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, signal.SIGKILL)
                self._process.wait()
            except ProcessLookupError:
                pass
        else:
            # the leader exited; anything it left in its group goes too
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
        for thread in self._threads:
            thread.join(timeout=1.0)
        shutil.rmtree(self._dir, ignore_errors=True)
