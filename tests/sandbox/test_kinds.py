"""Bots of other kinds in the sandbox (workers/sandbox/kinds.py): a hostile native binary
and a hostile Node.js program run the battery's attacks (network, files, other seats, a
fork bomb) beside the honest seat of test_hostile, and are contained like a Python bot;
and each kind gets its own files and runtime only, no Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from arena.match.manifest import Manifest
from tests.sandbox.conftest import HostTraps, MakeEnv
from tests.sandbox.test_hostile import (  # noqa: F401 (the honest seat is a fixture)
    TIGHT,
    Arena,
    Seat,
    assert_all_blocked,
    honest,
    params,
)
from workers.sandbox import ExitKind, Sandbox
from workers.sandbox.kinds import KindEnvironment, build_kind_environment, find_node

pytestmark = pytest.mark.timeout(120)

HOSTILE = Path(__file__).parent / "hostile_kinds"


@pytest.fixture(scope="module")
def native_attack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile native bot, compiled here (statically, so it needs no library)."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is needed to build the hostile native bot")
    binary = tmp_path_factory.mktemp("native") / "bot"
    subprocess.run(
        ["gcc", "-O1", "-static", "-o", str(binary), str(HOSTILE / "attack.c")], check=True
    )
    return binary


def node_or_skip() -> None:
    try:
        find_node()
    except Exception as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(str(error))


class KindArena(Arena):
    """Starts a hostile bot of another kind at seat 1, beside the honest Python seat."""

    def start_kind(self, kind: str, entry: str, files: dict[str, Path | bytes]) -> Any:
        honest_env = next((self.env_root / "versions").glob("honest-*"))
        targets = {
            **params(self.honest, self.traps, honest_env),
            "python_file": os.path.realpath(os.__file__),
            "max_processes": TIGHT.max_processes,
        }
        upload = self.env_root / "uploads" / f"{kind}-{time.monotonic_ns()}"
        upload.mkdir(parents=True)
        for name, content in files.items():
            if isinstance(content, Path):
                shutil.copy(content, upload / name)
            else:
                (upload / name).write_bytes(content)
        (upload / "params.json").write_text(json.dumps(targets))
        (upload / "params.txt").write_text("".join(f"{k}={v}\n" for k, v in targets.items()))
        env = build_kind_environment(
            upload, self.env_root / "versions" / upload.name, Manifest(kind, entry, "hearts.v1")
        )
        bot = self.sandbox.start(env, seat=1, policy=TIGHT)
        self.started.append(bot)
        return bot

    def attack_kind(self, kind: str, entry: str, files: dict[str, Path | bytes]) -> Any:
        bot = self.start_kind(kind, entry, files)
        try:
            # The attacks run before the readiness line; the honest seat plays meanwhile.
            self.honest_answers()
            assert bot.wait_ready(), (bot.exit_reason(), bot.stderr.text()[-2000:])
            deadline = time.monotonic() + 30
            while "ATTACK DONE" not in bot.stderr.text():
                assert time.monotonic() < deadline, bot.stderr.text()[-2000:]
                time.sleep(0.05)
        finally:
            run = self.finish(bot)
        return run


@pytest.fixture
def arena(
    sandbox: Sandbox,
    make_env: MakeEnv,
    honest: Seat,  # noqa: F811 (test_hostile's fixture, imported above)
    traps: HostTraps,
    env_root: Path,
) -> Any:
    arena = KindArena(sandbox, make_env, honest, traps, env_root)
    yield arena
    for bot in arena.started:
        bot.stop()


EXPECTED = {
    "tcp connect 127.0.0.1",
    "udp send 127.0.0.1",
    "host unix socket",
    "host abstract socket",
    "another seat's socket",
    "read the host's canary",
    "read the worker's code",
    "read another seat's files",
    "read the python runtime",
    "write a host file",
    "write /bot",
    "kill another seat",
    "kill the runner",
    "fork bomb",
}


def _attempted(run: Any) -> set[str]:
    return {text.split(":", 1)[0] for outcome, text in run.reports if outcome == "BLOCKED"}


@pytest.mark.slow
def test_a_hostile_native_binary_is_contained(arena: KindArena, native_attack: Path) -> None:
    run = arena.attack_kind("native", "bot", {"bot": native_attack})
    assert not run.bot.warm and run.bot.cold_reason == "a native bot has no template"
    assert_all_blocked(run)
    assert _attempted(run) >= EXPECTED, run.stderr[-2000:]
    assert run.reason.kind is ExitKind.STOPPED, run.reason


@pytest.mark.slow
def test_a_hostile_node_program_is_contained(arena: KindArena) -> None:
    node_or_skip()
    run = arena.attack_kind("node", "attack.js", {"attack.js": HOSTILE / "attack.js"})
    assert not run.bot.warm and run.bot.cold_reason == "a node bot has no template"
    assert_all_blocked(run)
    assert _attempted(run) >= EXPECTED, run.stderr[-2000:]
    assert run.reason.kind is ExitKind.STOPPED, run.reason


def test_each_kind_gets_its_files_and_runtime_but_no_python(tmp_path: Path) -> None:
    upload = tmp_path / "upload"
    upload.mkdir()
    (upload / "bot").write_bytes(b"\x7fELF")
    native = build_kind_environment(upload, tmp_path / "native", Manifest("native", "bot", "v"))
    assert native.serve_argv("/bot", "/run/bot/bot.sock") == [
        "/bot/bot",
        "--address",
        "unix:/run/bot/bot.sock",
    ]
    assert os.access(native.bot_dir / "bot", os.X_OK)
    assert native.host_mounts() == []  # no interpreter, no SDK runtime, no venv
    hidden = native.hidden_paths()
    for path in Path("/usr/lib").glob("python3*"):
        assert any(path.resolve() == h or h in path.resolve().parents for h in hidden), path
    assert KindEnvironment.load(tmp_path / "native") == native


def test_a_node_bot_is_run_by_the_workers_node(tmp_path: Path) -> None:
    node_or_skip()
    upload = tmp_path / "upload"
    (upload / "dist").mkdir(parents=True)
    (upload / "dist" / "bot.js").write_text("")
    env = build_kind_environment(upload, tmp_path / "env", Manifest("node", "dist/bot.js", "v"))
    argv = env.serve_argv("/bot", "/run/bot/bot.sock")
    assert argv[0] == str(find_node()) and argv[-3:] == [
        "/bot/dist/bot.js",
        "--address",
        "unix:/run/bot/bot.sock",
    ]
