"""A bot in any language plays local matches and is named after its program (issue 31,
items 4 and 11): `hearts-bot play --command "./bot"` runs `arena match run --bot
command:./bot`, whose seat is the command run here with ``--address unix:PATH`` appended
(the same local host as `hearts-bot check --command`).

The bot here is a program of its own: a shell script that serves the SDK's random bot,
as a kit's ``./bot`` serves its own. The commands run from this checkout's code (the
arena through ``python -m arena.cli``, the SDK from its source folder).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.spec import BotSpecError, parse_bot_spec

pytestmark = pytest.mark.timeout(120)

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A bot's folder: `./mybot` serves the SDK's random bot, `./dies.sh` exits 2, and
    `bin/arena` runs this checkout's arena."""
    mybot = tmp_path / "mybot"
    mybot.write_text(f'#!/bin/sh\nexec {sys.executable} -m hearts_bot serve starter:random "$@"\n')
    mybot.chmod(0o755)
    dies = tmp_path / "dies.sh"
    dies.write_text("#!/bin/sh\necho 'cannot start' >&2\nexit 2\n")
    dies.chmod(0o755)
    (tmp_path / "bin").mkdir()
    arena = tmp_path / "bin" / "arena"
    arena.write_text(f'#!/bin/sh\nexec {sys.executable} -m arena.cli "$@"\n')
    arena.chmod(0o755)
    return tmp_path


def run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    python_path = os.pathsep.join([str(REPOSITORY), str(REPOSITORY / "sdk" / "src")])
    env = {
        **os.environ,
        "PYTHONPATH": python_path,
        "PATH": f"{cwd / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "200",
    }
    env.pop("HEARTS_ARENA", None)
    return subprocess.run(
        list(command), cwd=cwd, env=env, capture_output=True, text=True, timeout=100, check=False
    )


def hearts_bot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "hearts_bot", *args, cwd=cwd)


def test_hearts_bot_play_plays_a_local_match_of_a_command_bot(folder: Path) -> None:
    done = hearts_bot(
        "play", "--command", "./mybot", "--hands", "2", "--seed", "4", "--out", "m.json",
        cwd=folder,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "running arena match run --rules standard --bot command:./mybot" in done.stderr
    replay = json.loads((folder / "m.json").read_text())
    assert [entrant["name"] for entrant in replay["entrants"]] == [
        "mybot",
        "house:heuristic",
        "house:heuristic",
        "house:heuristic",
    ]
    assert replay["faults"] == []
    assert sum(len(game["hands"]) for game in replay["games"]) == 2


def test_a_command_bot_that_dies_is_a_fault_named_after_its_program(folder: Path) -> None:
    done = hearts_bot("play", "--command", "./dies.sh", "--hands", "1", cwd=folder)
    assert done.returncode == 0, done.stdout + done.stderr  # the match itself went well
    assert "dies (disqualified)" in done.stdout
    assert "fault dies: crash — the bot exited with status 2 before it was ready" in done.stdout


def test_the_check_names_a_command_bot_after_its_program(folder: Path) -> None:
    done = run(sys.executable, "-m", "arena.cli", "bot", "check", "--command", "sh ./dies.sh",
               cwd=folder)  # fmt: skip
    assert done.returncode == 1
    assert "✗ dies: failed: crash" in done.stderr
    passed = hearts_bot("check", "--command", "./mybot", cwd=folder)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "✓ mybot: passed" in passed.stdout


def test_a_command_bot_never_runs_in_the_sandbox(folder: Path) -> None:
    done = hearts_bot("play", "--command", "./mybot", "--sandbox", cwd=folder)
    assert done.returncode == 2
    assert "never in the sandbox" in done.stderr
    done = run(sys.executable, "-m", "arena.cli", "match", "run", "--bot", "command:./mybot",
               "--bot", "house:random", "--bot", "house:random", "--bot", "house:random",
               "--sandbox", cwd=folder)  # fmt: skip
    assert done.returncode == 2
    assert "never in the sandbox" in done.stderr


def test_a_command_that_cannot_run_is_named(folder: Path) -> None:
    done = run(sys.executable, "-m", "arena.cli", "match", "run", "--bot", "command:./absent",
               "--bot", "house:random", "--bot", "house:random", "--bot", "house:random",
               cwd=folder)  # fmt: skip
    assert done.returncode == 2
    assert "cannot run './absent'" in done.stderr
    assert "No such file or directory" in done.stderr


def test_the_command_spec_is_read_as_a_shell_would() -> None:
    spec = parse_bot_spec("command:node 'dist/my bot.js' --fast")
    assert (spec.kind, spec.argv, spec.name) == (
        "command",
        ["node", "dist/my bot.js", "--fast"],
        "my bot",
    )
    with pytest.raises(BotSpecError, match="needs the command"):
        parse_bot_spec("command:  ")
    with pytest.raises(BotSpecError, match="cannot read the command"):
        parse_bot_spec("command:./bot 'unclosed")
