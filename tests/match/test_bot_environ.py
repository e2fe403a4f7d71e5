"""What a bot gets locally (issue 31, item 3): `hearts-bot check` and `hearts-bot play` run
it with PATH, a fresh HOME, PYTHONUNBUFFERED and the ``[env]`` of the ``hearts-bot.toml``
in its working folder, nothing else of the caller's environment; a manifest an upload
would be refused for is refused here too, naming why.

The bots are real programs that write their environment to stderr before serving: a
command (a shell script in the current folder) and a Python bot file (its folder).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.manifest import ManifestError
from arena.match.process import BotProcess

pytestmark = pytest.mark.timeout(60)

REPOSITORY = Path(__file__).resolve().parents[2]
MANIFEST = """kind = "native"
entry = "mybot"
protocol = "hearts.v1"

[env]
SEARCH_DEPTH = "3"
GREETING = "hello world"
"""
SECRET = "HEARTS_ARENA_TEST_SECRET"


def environ_of(host: BotProcess) -> dict[str, str]:
    """The environment the bot printed (``ENV NAME=value`` lines on its stderr)."""
    assert host.wait_ready(30), host.log_excerpt()
    lines = host.stderr.text().splitlines()
    return dict(
        line.removeprefix("ENV ").split("=", 1) for line in lines if line.startswith("ENV ")
    )


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder: a command bot, its manifest, and a secret in our environment."""
    script = tmp_path / "mybot"
    script.write_text(
        "#!/bin/sh\n"
        'for name in $(env | cut -d= -f1); do echo "ENV $name=$(printenv $name)" >&2; done\n'
        f'exec {sys.executable} -m hearts_bot serve starter:random "$@"\n'
    )
    script.chmod(0o755)
    (tmp_path / "hearts-bot.toml").write_text(MANIFEST)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(SECRET, "the worker's own, never the bot's")
    return tmp_path


def test_a_command_bot_gets_its_manifests_variables_and_nothing_of_ours(folder: Path) -> None:
    host = BotProcess("mybot", command=["./mybot"])
    try:
        environ = environ_of(host)
    finally:
        host.stop()
    assert environ["SEARCH_DEPTH"] == "3" and environ["GREETING"] == "hello world"
    assert environ["PATH"] == os.environ["PATH"] and environ["PYTHONUNBUFFERED"] == "1"
    assert Path(environ["HOME"]).name.startswith("arena-bot-")  # fresh, and removed
    assert not Path(environ["HOME"]).exists()
    assert SECRET not in environ
    assert set(environ) - {"PWD", "SHLVL", "_"} == {  # what the shell adds itself
        "PATH",
        "HOME",
        "PYTHONUNBUFFERED",
        "SEARCH_DEPTH",
        "GREETING",
    }


def test_a_bot_file_gets_the_variables_of_the_manifest_beside_it(folder: Path) -> None:
    bot = folder / "sub" / "reporter.py"
    bot.parent.mkdir()
    bot.write_text(
        "import os, sys\n"
        "for name, value in os.environ.items():\n"
        "    print(f'ENV {name}={value}', file=sys.stderr)\n"
        "from hearts_bot.starters.random_bot import RandomBot\n\n\n"
        "class Reporter(RandomBot):\n    pass\n"
    )
    (bot.parent / "hearts-bot.toml").write_text(
        'kind = "python"\nentry = "reporter.py"\nprotocol = "hearts.v1"\n[env]\nMODE = "careful"\n'
    )
    host = BotProcess(bot)
    try:
        environ = environ_of(host)
    finally:
        host.stop()
    assert environ["MODE"] == "careful"
    assert "SEARCH_DEPTH" not in environ  # the current folder's manifest is not its own
    assert SECRET not in environ


def test_a_manifest_an_upload_would_refuse_is_refused_here(folder: Path) -> None:
    (folder / "hearts-bot.toml").write_text(MANIFEST + 'LD_PRELOAD = "/tmp/x.so"\n')
    with pytest.raises(ManifestError, match="may not set LD_PRELOAD"):
        BotProcess("mybot", command=["./mybot"])
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "bot", "check", "--command", "./mybot"],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=50,
        check=False,
    )
    assert done.returncode == 2
    assert "hearts-bot.toml: [env] may not set LD_PRELOAD" in done.stderr
