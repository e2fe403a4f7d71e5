"""A PostgreSQL server of the test's own, to stop and start at will.

Why not the machine's server: an outage test must take the database away, and stopping
the shared server would break every other test (and anything else) using it. This one
lives in a temporary directory, listens on a free port of 127.0.0.1 and is gone at the
end. It needs the PostgreSQL server binaries (Debian: postgresql); without them the test
is skipped with the reason, unless `CI` is set, when it fails. Run as root, the server
runs as the `postgres` user, as PostgreSQL requires.
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

import pytest
from sqlalchemy.engine import URL

from arena.store import migrate


def _binaries() -> Path | None:
    """The newest installed PostgreSQL's bin directory holding initdb and pg_ctl."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path and shutil.which("initdb") else None


def _version(path: str) -> int:
    parts = Path(path).parts
    return int(parts[-3]) if parts[-3].isdigit() else 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PrivatePostgres:
    """One server: `url` of its `arena` database, `stop()` and `start()` (the data stays)."""

    def __init__(self, bin_dir: Path, root: Path) -> None:
        self.bin_dir = bin_dir
        self.data = root / "data"
        self.socket_dir = root / "socket"
        self.log = root / "server.log"
        self.port = _free_port()
        self.url = URL.create(
            "postgresql+psycopg",
            username="postgres",
            host="127.0.0.1",
            port=self.port,
            database="arena",
        )
        self._user = "postgres" if os.geteuid() == 0 else None
        self.socket_dir.mkdir()
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            for path in (root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin_dir / tool), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        """Stop the server at once (clients are cut off mid-transaction, as in a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def restart(self, down_for: float) -> None:
        """Away for `down_for` seconds, then back."""
        self.stop()
        time.sleep(down_for)
        self.start()

    def create_database(self) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "arena")


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the PostgreSQL outage test must run)")
    pytest.skip(reason)


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    """A started private server with a migrated `arena` database; removed afterwards."""
    bin_dir = _binaries()
    if bin_dir is None:
        _unavailable("the PostgreSQL server binaries are not installed (Debian: postgresql)")
    assert bin_dir is not None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root, and there is no `postgres` user to run a server as")
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    server = PrivatePostgres(bin_dir, root)
    try:
        server.start()
        server.create_database()
        migrate.upgrade(server.url)
        yield server
    finally:
        # Already stopped, if a test stopped it and failed before starting it again.
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop()
        shutil.rmtree(root, ignore_errors=True)
