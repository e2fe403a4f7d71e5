"""Fixtures of the sandbox tests: the sandbox itself, bot environments, host-side traps."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from workers.sandbox import BotEnvironment, Sandbox, SandboxUnavailableError, build_environment

HOSTILE = Path(__file__).parent / "hostile"


def sandbox_or_skip() -> Sandbox:
    """A Sandbox; skips when the machine cannot sandbox, except under CI (then it fails)."""
    try:
        return Sandbox()
    except SandboxUnavailableError as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the sandbox is unavailable here: {error}")


@pytest.fixture(scope="session")
def sandbox() -> Sandbox:
    return sandbox_or_skip()


@pytest.fixture(scope="session")
def env_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("sandbox-envs")


MakeEnv = Callable[..., BotEnvironment]


@pytest.fixture(scope="session")
def make_env(env_root: Path) -> MakeEnv:
    """Build the environment of a bot made of hostile/<name>.py (as bot.py's entry)."""
    counter = itertools.count()

    def make(
        name: str, params: dict[str, Any] | None = None, extra: dict[str, str] | None = None
    ) -> BotEnvironment:
        number = next(counter)
        upload = env_root / "uploads" / f"{name}-{number}"
        upload.mkdir(parents=True)
        shutil.copy(HOSTILE / f"{name}.py", upload / f"{name}.py")
        package = upload / "tests" / "sandbox" / "hostile"
        package.mkdir(parents=True)
        for folder in (upload / "tests", upload / "tests" / "sandbox", package):
            (folder / "__init__.py").write_text("")
        shutil.copy(HOSTILE / "_attack.py", package / "_attack.py")
        (upload / "params.json").write_text(json.dumps(params or {}))
        for file_name, text in (extra or {}).items():
            (upload / file_name).write_text(text)
        return build_environment(
            upload,
            env_root / "versions" / f"{name}-{number}",
            runtime_root=env_root,
            entry=f"{name}.py",
            offline=True,
        )

    return make


class HostTraps:
    """Listeners on the host that a contained bot must never reach, and a canary file."""

    def __init__(self, folder: Path) -> None:
        self.connections: list[str] = []
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.tcp_port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp_port = self.udp.getsockname()[1]
        self.abstract_name = f"hearts-arena-trap-{os.getpid()}"
        self.abstract = socket.socket(socket.AF_UNIX)
        self.abstract.bind("\0" + self.abstract_name)
        self.abstract.listen()
        self.unix_path = str(folder / "trap.sock")
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind(self.unix_path)
        self.unix.listen()
        os.chmod(self.unix_path, 0o777)
        self.secret = "hearts-arena-canary-" + os.urandom(8).hex()
        self.canary = folder / "canary.txt"
        self.canary.write_text(self.secret)
        self.canary.chmod(0o644)
        self.write_target = folder / "written-by-a-bot"
        for name, listener in (("tcp", self.tcp), ("abstract", self.abstract), ("unix", self.unix)):
            threading.Thread(target=self._accept, args=(name, listener), daemon=True).start()
        threading.Thread(target=self._receive, daemon=True).start()

    def _accept(self, name: str, listener: socket.socket) -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            self.connections.append(name)
            connection.close()

    def _receive(self) -> None:
        while True:
            try:
                self.udp.recvfrom(65536)
            except OSError:
                return
            self.connections.append("udp")

    def untouched(self) -> bool:
        return (
            not self.connections
            and self.canary.read_text() == self.secret
            and not self.write_target.exists()
        )

    def close(self) -> None:
        for listener in (self.tcp, self.udp, self.abstract, self.unix):
            listener.close()


@pytest.fixture(scope="session")
def traps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostTraps]:
    traps = HostTraps(tmp_path_factory.mktemp("traps"))
    os.environ["HEARTS_ARENA_TEST_SECRET"] = traps.secret  # in the runner's environment
    yield traps
    del os.environ["HEARTS_ARENA_TEST_SECRET"]
    traps.close()


def processes_of(uid: int) -> list[int]:
    """Host pids whose real uid is `uid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as status:
                for line in status:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            found.append(int(entry))
                        break
        except OSError:
            continue
    return found
