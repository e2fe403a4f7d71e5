"""A PostgreSQL server of the test's own, to stop and start at will.

Why not the machine's server: an outage test must take the database away, and stopping
the shared server would break every other test (and anything else) using it. The server
is the platform's own throwaway kind (`workers.scratch_servers.ScratchPostgres`: a
temporary folder, a free port of 127.0.0.1, gone at the end; its `stop()` cuts clients
off at once, as in a crash). It needs the PostgreSQL server binaries (Debian:
postgresql); without them the test is skipped with the reason, unless `CI` is set, when
it fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from arena.store import migrate
from workers.scratch_servers import (
    ScratchPostgres,
    ScratchServerError,
    postgres_binaries,
    postgres_user,
)

PrivatePostgres = ScratchPostgres
"""The tests' name for it: `url`, `stop()`, `start()`, `restart(down_for)`."""


def unavailable(reason: str) -> NoReturn:
    """Skip the test for want of a server, or fail it under CI (where it must run)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the PostgreSQL outage test must run)")
    pytest.skip(reason)


def require_postgres() -> Path:
    """The PostgreSQL binaries' folder, when a server can run here (else skip / fail)."""
    try:
        bin_dir = postgres_binaries()
        postgres_user()
    except ScratchServerError as error:
        unavailable(str(error))
    return bin_dir


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    """A started private server with a migrated `arena` database; removed afterwards."""
    bin_dir = require_postgres()
    # A new folder directly under the temporary directory: run as root, the server runs
    # as `postgres`, who cannot enter pytest's root-only folders.
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    try:
        server = PrivatePostgres(bin_dir, root)
        try:
            server.start()
            server.create_database()
            migrate.upgrade(server.url)
            yield server
        finally:
            # Already stopped, if a test stopped it and failed before starting it again.
            with contextlib.suppress(ScratchServerError):
                server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
