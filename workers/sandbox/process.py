"""`BotProcess`: one started bot, from readiness to its exit reason and full teardown.

A `BotProcess` is made by `Sandbox.start` (sandboxed) or `start_unsandboxed`; the runner
calls `wait_ready`, dials `address`, and calls `stop` when the match ends (also done on
context-manager exit and at interpreter exit). Whatever the bot did, `exit_reason`
then says, specifically, how it ended: a bot's failure is data for the runner's fault
policy, never an exception.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import enum
import os
import select
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Protocol

from .cgroups import BotCgroup
from .endpoint import BotSocket, SocketRefusedError, open_socket
from .logs import CapturedStream
from .policy import MIB, SandboxPolicy
from .uids import Uid

READY_PREFIX = b"HEARTS-BOT READY"
"""The SDK's readiness line (``hearts_bot.READY_PREFIX``), followed by the address."""
WATCHDOG_PERIOD = 0.1


class ExitKind(enum.StrEnum):
    """How a bot ended, from the runner's point of view."""

    STOPPED = "stopped"
    """Stopped by the runner (the normal end of a match)."""
    MEMORY = "memory"
    """Killed for going over its memory limit."""
    CPU_TIME = "cpu_time"
    """Killed for reaching its CPU time limit."""
    CRASHED = "crashed"
    """Exited with an error status or was killed by a signal, on its own."""
    EXITED = "exited"
    """Exited with status 0 by itself (a server should not)."""
    NEVER_READY = "never_ready"
    """Did not become ready in time, or offered something other than its own socket."""


@dataclasses.dataclass(frozen=True)
class ExitReason:
    """How a bot ended: a kind, and a specific message for the replay and the bot's owner."""

    kind: ExitKind
    message: str
    exit_code: int | None = None
    """The exit status, when it exited (not for a signal)."""
    signal: int | None = None
    """The signal that ended it, if one did."""
    output_truncated: bool = False
    """Whether its stdout or stderr went over the cap (the message says so too)."""

    def __str__(self) -> str:
        return self.message


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class _Watchdog:
    """One thread for all bots: enforces the CPU time of whole trees (from their cgroups)."""

    def __init__(self) -> None:
        self.bots: weakref.WeakSet[BotProcess] = weakref.WeakSet()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def watch(self, bot: BotProcess) -> None:
        with self.lock:
            self.bots.add(bot)
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="sandbox-watchdog", daemon=True
                )
                self.thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(WATCHDOG_PERIOD)
            with self.lock:
                bots = list(self.bots)
            for bot in bots:
                bot._check_cpu()


_WATCHDOG = _Watchdog()
_LIVE: weakref.WeakSet[BotProcess] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    for bot in list(_LIVE):
        with contextlib.suppress(Exception):
            bot.stop()


class ProcessHandle(Protocol):
    """The started process a `BotProcess` watches: the `subprocess.Popen` of a cold start
    (bubblewrap, or the bot itself unsandboxed), or a warm start's `warm.WarmChild`."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


class BotProcess:
    """A started bot (sandboxed or not); made by `Sandbox.start` / `start_unsandboxed`."""

    def __init__(
        self,
        *,
        seat: int,
        policy: SandboxPolicy,
        popen: ProcessHandle,
        stdout_fd: int,
        stderr_fd: int,
        root: Callable[[], int],
        socket_path: str,
        owner_uid: int,
        sandboxed: bool,
        init_pidfd: int | None = None,
        init_pid: int | None = None,
        cgroup: BotCgroup | None = None,
        uid: Uid | None = None,
        cleanup: Callable[[], None] | None = None,
        started: float | None = None,
    ) -> None:
        self.seat = seat
        self.policy = policy
        self.sandboxed = sandboxed
        """False only for the developer-only mode of `start_unsandboxed`."""
        self.uid = owner_uid
        """The uid the bot runs as."""
        self.started = started if started is not None else time.perf_counter()
        self.warm = not isinstance(popen, subprocess.Popen)
        """Whether the bot was forked from a warm template (else started cold)."""
        self.cold_reason: str | None = None
        """Why a sandboxed bot started cold (no template for its kind, warm starts off, a
        template that failed: said by `Sandbox.start`); None when warm."""
        self.setup_cpu_outside: float = getattr(popen, "setup_cpu", 0.0)
        """CPU seconds its start cost outside its cgroup (a warm start's forking child)."""
        self.ready_at: float | None = None
        """perf_counter() when the bot was seen ready."""
        self.cpu_at_ready: float | None = None
        """CPU seconds the whole tree had used when it was seen ready (its cgroup's
        ``cpu.stat``: bubblewrap, the interpreter, the imports; a warm start's fork by
        the template too, `setup_cpu_outside`; None without a cgroup)."""
        self.cpu_at_stop: float | None = None
        """CPU seconds the whole tree used from start to `stop`, counted as `cpu_at_ready`
        is (None without a cgroup)."""
        self.init_pid = init_pid
        """The host pid of the sandbox's pid 1 (None unsandboxed)."""
        self._popen = popen
        self._open_root = root
        self._root_fd: int | None = None
        self._socket_path = socket_path
        self._init_pidfd = init_pidfd
        self._cgroup = cgroup
        self._uid = uid
        self._cleanup = cleanup
        self._freezable = policy.freeze_off_turn and cgroup is not None and cgroup.can_freeze
        self._lock = threading.RLock()
        self._ready_line = False
        self._stdout_event = threading.Event()  # the readiness line, or the end of stdout
        self._socket: BotSocket | None = None
        # The address names a descriptor slot from the start: /dev/null until the socket is
        # pinned, then (dup2) the pinned socket, then /dev/null again once stopped. So the
        # address is known at once and never names anything else while this object lives.
        self._slot = os.open("/dev/null", os.O_PATH | os.O_CLOEXEC)
        self.address = f"unix:/proc/self/fd/{self._slot}"
        """The gRPC target to dial (``unix:/proc/self/fd/N``): it reaches the bot once
        `wait_ready` said True, and nothing before that or after `stop`."""
        self._forced: ExitReason | None = None
        self._stop_requested = False
        self._reason: ExitReason | None = None
        self._finished = False
        self.stdout = CapturedStream(
            stdout_fd, policy.log_bytes, "stdout", self._on_stdout_line, self._stdout_event.set
        )
        """The bot's standard output (capped; `stdout.text()` for the owner)."""
        self.stderr = CapturedStream(stderr_fd, policy.log_bytes, "stderr")
        """The bot's standard error (capped)."""
        _LIVE.add(self)
        if cgroup is not None:
            _WATCHDOG.watch(self)

    # -- readiness -------------------------------------------------------------------------

    def _on_stdout_line(self, line: bytes) -> None:
        if line.startswith(READY_PREFIX):
            self._ready_line = True
            self._stdout_event.set()

    @property
    def pid(self) -> int:
        """The pid of the process we started (bubblewrap's when sandboxed cold, the bot's
        own when warm)."""
        return self._popen.pid

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait for the readiness line and pin the bot's socket; True when ready.

        False when the bot exited, stayed silent for `timeout` seconds (default: the
        policy's), or offered something other than a socket of its own: the bot is then
        stopped and `exit_reason()` says which.
        """
        if self._socket is not None:
            return True
        waited = self.policy.ready_timeout if timeout is None else timeout
        deadline = time.monotonic() + waited
        while not self._ready_line:
            if self._popen.poll() is not None:
                self.stop()
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail_ready(f"never ready: printed no readiness line within {waited:g} s")
                return False
            if self._stdout_event.wait(min(left, 0.5)) and not self._ready_line:
                self._popen.wait(min(max(left, 0.01), 2.0))  # stdout ended: it is exiting
        refusal = ""
        while True:
            try:
                if self._root_fd is None:
                    self._root_fd = self._open_root()
                self._socket = open_socket(self._root_fd, self._socket_path, self.uid)
                os.dup2(self._socket.fd, self._slot, inheritable=False)
                break
            except SocketRefusedError as error:
                refusal = str(error)
                if error.final:  # only the bot could have put it there: no waiting
                    self._fail_ready(f"never ready: it said it was, but {refusal}")
                    return False
            except ProcessLookupError as error:
                refusal = str(error)
            if self._popen.poll() is not None or time.monotonic() > deadline:
                self._fail_ready(
                    f"never ready: it said it was, but {refusal} (still so after {waited:g} s)"
                )
                return False
            time.sleep(0.01)
        if self._popen.poll() is not None:
            self.stop()
            return False
        self.ready_at = time.perf_counter()
        self.cpu_at_ready = self._start_and_tree_cpu()
        return True

    def _fail_ready(self, message: str) -> None:
        with self._lock:
            if self._forced is None:
                self._forced = ExitReason(ExitKind.NEVER_READY, message)
        self.stop()

    # -- limits enforced from outside --------------------------------------------------------

    def _check_cpu(self) -> None:
        if self._finished or self._cgroup is None:
            return
        used = self._cgroup.cpu_seconds()
        if used is not None and used >= self.policy.cpu_seconds:
            with self._lock:
                if self._forced is None:
                    self._forced = ExitReason(
                        ExitKind.CPU_TIME,
                        f"killed: CPU time limit reached ({used:.1f} s used, "
                        f"limit {self.policy.cpu_seconds:g} s)",
                    )
            self.stop()

    # -- frozen off-turn ---------------------------------------------------------------------

    @property
    def freezable(self) -> bool:
        """Whether `freeze` really stops the bot (a v2 cgroup, and the policy wants it)."""
        return self._freezable

    def thaw(self) -> None:
        """Let the bot run: a request (or a notification) is on its way to it."""
        self._set_frozen(False)

    def freeze(self) -> None:
        """Stop the bot until the next `thaw`: it has answered, its turn is over. Every
        task of the bot stops where it is (in a system call too) and resumes on `thaw`,
        as if the machine had been busy. A no-op where the bot cannot be frozen."""
        self._set_frozen(True)

    def _set_frozen(self, frozen: bool) -> None:
        if self._finished or not self._freezable:
            return
        assert self._cgroup is not None
        with contextlib.suppress(OSError):  # the group is being removed: nothing to stop
            self._cgroup.freeze(frozen)

    # -- state -----------------------------------------------------------------------------

    def alive(self) -> bool:
        """Whether the bot is still running."""
        return not self._finished and self._popen.poll() is None

    def exit_reason(self) -> ExitReason | None:
        """How the bot ended; None while it runs."""
        if self._finished:
            return self._reason
        if self._popen.poll() is None:
            return None
        return self._classify()

    def cpu_seconds(self) -> float | None:
        """CPU time of the whole tree so far (None without a cgroup)."""
        return None if self._cgroup is None else self._cgroup.cpu_seconds()

    def _start_and_tree_cpu(self) -> float | None:
        """`cpu_seconds`, plus what the start cost outside the tree (the accounting's
        figures: a warm start's fork is paid by the template, not the bot's cgroup)."""
        used = self.cpu_seconds()
        return None if used is None else used + self.setup_cpu_outside

    def memory_bytes(self) -> int | None:
        """Memory the whole tree holds now (None without a memory cgroup)."""
        return None if self._cgroup is None else self._cgroup.memory_current()

    def processes(self) -> set[int]:
        """Host pids of the tree (from its cgroup; just the started process without one)."""
        if self._cgroup is not None and not self._finished:
            return self._cgroup.processes()
        return {self._popen.pid} if self._popen.poll() is None else set()

    def _classify(self) -> ExitReason:
        code = self._popen.returncode
        truncated = self.stdout.truncated or self.stderr.truncated
        notes = []
        for stream in (self.stdout, self.stderr):
            if stream.truncated:
                notes.append(
                    f"{stream.name} truncated: {stream.total:,} bytes written, {stream.cap:,} kept"
                )
        if self._cgroup is not None and self._cgroup.pids_limit_hits():
            notes.append(
                f"the process limit ({self.policy.max_processes}) refused "
                f"{self._cgroup.pids_limit_hits()} forks"
            )
        suffix = "".join(f"; {note}" for note in notes)
        signal_number = code - 128 if code is not None and code > 128 else None
        if code is not None and code < 0:
            signal_number = -code
        exit_code = None if signal_number is not None else code
        memory_mib = self.policy.memory_bytes / MIB
        reason: ExitReason
        if self._forced is not None:
            reason = self._forced
        elif self._cgroup is not None and self._cgroup.oom_kills():
            reason = ExitReason(
                ExitKind.MEMORY, f"killed: out of memory (limit {memory_mib:g} MiB)"
            )
        elif signal_number == signal.SIGXCPU or (
            signal_number == signal.SIGKILL and self._rlimit_cpu_reached()
        ):
            reason = ExitReason(
                ExitKind.CPU_TIME,
                "killed: CPU time limit of one process "
                f"reached (limit {self.policy.cpu_seconds:g} s)",
            )
        elif "MemoryError" in self.stderr.text()[-4096:]:
            reason = ExitReason(
                ExitKind.MEMORY,
                f"crashed: out of memory (a MemoryError at its limit of {memory_mib:g} MiB)",
            )
        elif self._stop_requested:
            reason = ExitReason(ExitKind.STOPPED, "stopped at the end of the match")
        elif signal_number is not None:
            reason = ExitReason(
                ExitKind.CRASHED, f"crashed: killed by {_signal_name(signal_number)}"
            )
        elif code:
            reason = ExitReason(ExitKind.CRASHED, f"crashed: exited with status {code}")
        else:
            reason = ExitReason(ExitKind.EXITED, "exited by itself (status 0)")
        if self.ready_at is None and reason.kind in (ExitKind.CRASHED, ExitKind.EXITED):
            reason = dataclasses.replace(reason, message=reason.message + " before it was ready")
        return dataclasses.replace(
            reason,
            message=reason.message + suffix,
            exit_code=exit_code,
            signal=signal_number,
            output_truncated=truncated,
        )

    def _rlimit_cpu_reached(self) -> bool:
        used = self.cpu_seconds()
        return used is not None and used >= self.policy.cpu_seconds

    # -- teardown --------------------------------------------------------------------------

    def stop(self) -> ExitReason:
        """Kill everything the bot started, remove its cgroup and directories, and return
        how it ended. Idempotent; safe from any thread."""
        with self._lock:
            if self._finished:
                assert self._reason is not None
                return self._reason
            if self._popen.poll() is None:
                self._stop_requested = True
            self._set_frozen(False)  # a v1-style freezer would hold SIGKILL back
            self._kill_tree()
            self.cpu_at_stop = self._start_and_tree_cpu()  # before the group is removed
            self._reason = self._classify()
            self._finished = True
            self._release()
            return self._reason

    def _kill_tree(self) -> None:
        if self._init_pidfd is not None:
            # The sandbox's pid 1: when it dies the kernel kills its whole PID namespace.
            with contextlib.suppress(ProcessLookupError, OSError):
                signal.pidfd_send_signal(self._init_pidfd, signal.SIGKILL)
            select.select([self._init_pidfd], [], [], 2.0)
        elif self._popen.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._popen.pid, signal.SIGKILL)
        if self._cgroup is not None:
            self._cgroup.kill()
        try:
            self._popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._popen.kill()
            self._popen.wait(timeout=5)
        if not self.sandboxed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._popen.pid, signal.SIGKILL)

    def _release(self) -> None:
        self.stdout.join(2.0)
        self.stderr.join(2.0)
        if self._socket is not None:
            self._socket.close()
        null = os.open("/dev/null", os.O_PATH | os.O_CLOEXEC)
        os.dup2(null, self._slot, inheritable=False)
        os.close(null)
        for fd in (self._root_fd, self._init_pidfd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._cgroup is not None:
            self._cgroup.kill()
            self._cgroup.remove()
        if self._uid is not None:
            self._uid.release()
        if self._cleanup is not None:
            self._cleanup()
        _LIVE.discard(self)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            os.close(self._slot)

    def log_excerpt(self) -> str:
        """The bot's captured stdout and stderr (each capped), for its owner."""
        parts = []
        for stream in (self.stdout, self.stderr):
            text = stream.text()
            if text.strip():
                parts.append(f"--- {stream.name} ---\n{text}")
        return "\n".join(parts)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.alive() else "ended"
        kind = "sandboxed" if self.sandboxed else "UNSANDBOXED"
        return f"<BotProcess seat {self.seat} {kind} pid {self.pid} uid {self.uid} {state}>"


def remove_tree(path: Path) -> Callable[[], None]:
    """A cleanup that removes `path` (for the unsandboxed mode's socket folder)."""
    return lambda: shutil.rmtree(path, ignore_errors=True)
