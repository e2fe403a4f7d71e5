"""The starter kits work once copied out of the repository (issue 31, item 11): the C++
kit regenerates its stubs from its own copy of the .proto files, and both kits' check and
local match find `hearts-bot` (on PATH, or named by HEARTS_BOT, its folder then first on
PATH so the `arena` beside it is found too) or say how to get it.

Each test copies a kit into a temporary folder (as a contestant does) and runs the kit's
own commands there; `hearts-bot` is a fake that prints what it was given. Building the
kits and their end-to-end run are tests/workers/test_languages.py's (slow stage).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
KITS = ROOT / "sdk" / "starters"
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
"""A PATH with the system's tools and no virtual environment (so no hearts-bot)."""
FAKE_HEARTS_BOT = """#!/bin/sh
echo "fake hearts-bot: $*"
echo "PATH=$PATH"
"""


def need(*tools: str) -> None:
    """Skip where a kit's tool is missing, except under CI (then fail)."""
    missing = [tool for tool in tools if shutil.which(tool, path=SYSTEM_PATH) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {', '.join(missing)}")
        pytest.skip(f"{', '.join(missing)} not installed here")


def copy_kit(name: str, destination: Path) -> Path:
    """The kit as a contestant copies it: its committed files, nothing built."""
    kit = destination / name
    shutil.copytree(
        KITS / name,
        kit,
        ignore=shutil.ignore_patterns("node_modules", "dist", "bot", "upload.tar.gz"),
    )
    return kit


def fake_hearts_bot(folder: Path) -> Path:
    folder.mkdir()
    program = folder / "hearts-bot"
    program.write_text(FAKE_HEARTS_BOT)
    program.chmod(0o755)
    return program


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env={"PATH": SYSTEM_PATH, "HOME": str(cwd), **env},
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )


def test_the_cpp_kit_makes_its_stubs_outside_the_repository(tmp_path: Path) -> None:
    need("make", "protoc", "grpc_cpp_plugin")
    kit = copy_kit("cpp", tmp_path)
    shutil.rmtree(kit / "generated")
    made = run(["make", "stubs"], kit)
    assert made.returncode == 0, made.stdout + made.stderr
    for committed in (KITS / "cpp" / "generated").rglob("*"):
        if committed.is_file():
            made_file = kit / "generated" / committed.relative_to(KITS / "cpp" / "generated")
            assert made_file.read_bytes() == committed.read_bytes(), made_file


def test_the_cpp_kits_protos_are_the_repositorys() -> None:
    for proto in (ROOT / "proto" / "hearts" / "v1").glob("*.proto"):
        copy = KITS / "cpp" / "proto" / "hearts" / "v1" / proto.name
        assert copy.read_bytes() == proto.read_bytes(), f"{copy} drifts: scripts/gen_kit_stubs.sh"


@pytest.mark.parametrize("goal", ["check", "play"])
def test_the_cpp_kit_says_how_to_get_hearts_bot(tmp_path: Path, goal: str) -> None:
    need("make")
    kit = copy_kit("cpp", tmp_path)
    done = run(["make", goal], kit)
    assert done.returncode == 2
    assert "the hearts-bot command is not on PATH" in done.stderr
    assert "pip install ./sdk ." in done.stderr
    assert f"make {goal} HEARTS_BOT=/path/to/venv/bin/hearts-bot" in done.stderr
    assert not (kit / "bot").exists()  # said before building anything


@pytest.mark.parametrize(("goal", "command"), [("check", "check"), ("play", "play")])
def test_the_cpp_kit_runs_the_hearts_bot_it_is_given(
    tmp_path: Path, goal: str, command: str
) -> None:
    need("make")
    kit = copy_kit("cpp", tmp_path)
    (kit / "bot").write_text("")  # `make -o bot`: taken as built
    program = fake_hearts_bot(tmp_path / "venv-bin")
    done = run(["make", "-o", "bot", goal, f"HEARTS_BOT={program}"], kit)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"fake hearts-bot: {command} --command ./bot" in done.stdout
    assert f"PATH={program.parent}/:" in done.stdout  # the arena beside it is found


def test_the_typescript_kit_says_how_to_get_hearts_bot(tmp_path: Path) -> None:
    kit = copy_kit("typescript", tmp_path)
    done = run(["sh", "scripts/hearts-bot.sh", "check", "--command", "node dist/bot.js"], kit)
    assert done.returncode == 2
    assert "the hearts-bot command is not on PATH" in done.stderr
    assert "HEARTS_BOT=/path/to/venv/bin/hearts-bot npm run check" in done.stderr


def test_the_typescript_kit_runs_the_hearts_bot_it_is_given(tmp_path: Path) -> None:
    kit = copy_kit("typescript", tmp_path)
    program = fake_hearts_bot(tmp_path / "venv-bin")
    done = run(
        ["sh", "scripts/hearts-bot.sh", "play", "--command", "node dist/bot.js"],
        kit,
        HEARTS_BOT=str(program),
    )
    assert done.returncode == 0, done.stderr
    assert "fake hearts-bot: play --command node dist/bot.js" in done.stdout
    assert f"PATH={program.parent}:" in done.stdout
    scripts = json.loads((kit / "package.json").read_text())["scripts"]
    for name in ("check", "play"):
        assert f"sh scripts/hearts-bot.sh {name} --command 'node dist/bot.js'" in scripts[name]
