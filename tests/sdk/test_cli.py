"""The hearts-bot command: new writes a bot that plays; play and check map their arguments
onto the platform's `arena` command (a fake `arena` on PATH records what it was given)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hearts_bot.cli import bot_names, match_command
from hearts_bot.loader import load_bot

from .conftest import SDK

FAKE_ARENA = textwrap.dedent("""\
    #!{python}
    import json, os, sys
    with open(os.environ["FAKE_ARENA_LOG"], "a") as log:
        log.write(json.dumps(sys.argv[1:]) + "\\n")
    print("fake arena: progress 100% | score table")
    sys.exit(int(os.environ.get("FAKE_ARENA_STATUS", "0")))
""")


def hearts_bot(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "hearts_bot", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def fake_arena(tmp_path):
    """A PATH holding only a fake `arena`, and the log of its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    arena = bin_dir / "arena"
    arena.write_text(FAKE_ARENA.format(python=sys.executable))
    arena.chmod(0o755)
    log = tmp_path / "arena.log"
    env = {k: v for k, v in os.environ.items() if k != "HEARTS_ARENA"}
    env.update(PATH=str(bin_dir), FAKE_ARENA_LOG=str(log))

    def calls() -> list[list[str]]:
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    return env, calls


EXAMPLE = str(SDK / "examples" / "low_bot.py")


@pytest.mark.timeout(60)
def test_play_runs_an_arena_match_with_the_opponents_filling_the_table(fake_arena):
    env, calls = fake_arena
    done = hearts_bot(
        "play", EXAMPLE, "--vs", "random,heuristic", "--hands", "20", "--seed", "7", env=env
    )
    assert done.returncode == 0, done.stderr
    assert calls() == [
        [
            "match",
            "run",
            "--rules",
            "standard",
            "--bot",
            EXAMPLE,
            "--bot",
            "house:random",
            "--bot",
            "house:heuristic",
            "--bot",
            "house:random",
            "--seed",
            "7",
            "--hands",
            "20",
            "--no-sandbox",
        ]
    ]
    assert "fake arena: progress 100% | score table" in done.stdout  # the arena's own output
    assert "running arena match run" in done.stderr


@pytest.mark.timeout(60)
def test_play_passes_other_rules_and_table_sizes_and_bot_files(fake_arena, tmp_path):
    env, calls = fake_arena
    done = hearts_bot(
        "play",
        EXAMPLE,
        "--vs",
        f"house:strong,{EXAMPLE}",
        "--rules",
        "omnibus",
        "--players",
        "5",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert calls() == [
        [
            "match",
            "run",
            "--rules",
            "omnibus",
            "--bot",
            EXAMPLE,
            "--bot",
            "house:strong",
            "--bot",
            EXAMPLE,
            "--bot",
            "house:strong",
            "--bot",
            EXAMPLE,
            "--no-sandbox",
        ]
    ]


@pytest.mark.timeout(60)
def test_check_runs_the_platforms_checks_and_returns_their_status(fake_arena):
    env, calls = fake_arena
    env["FAKE_ARENA_STATUS"] = "3"
    done = hearts_bot("check", EXAMPLE, env=env)
    assert done.returncode == 3
    assert calls() == [["bot", "check", EXAMPLE, "--no-sandbox"]]


@pytest.mark.timeout(60)
def test_hearts_arena_env_names_the_arena_command(fake_arena, tmp_path):
    env, calls = fake_arena
    env["HEARTS_ARENA"] = str(tmp_path / "bin" / "arena")
    env["PATH"] = str(tmp_path)  # not on PATH any more
    assert hearts_bot("check", EXAMPLE, env=env).returncode == 0
    assert calls() == [["bot", "check", EXAMPLE, "--no-sandbox"]]


@pytest.mark.timeout(60)
def test_without_the_arena_command_play_and_check_say_how_to_get_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "HEARTS_ARENA"}
    env["PATH"] = str(tmp_path)
    for command in (["play", EXAMPLE], ["check", EXAMPLE]):
        done = hearts_bot(*command, env=env)
        assert done.returncode == 2
        assert "the `arena` command was not found" in done.stderr
        assert "pip install" in done.stderr


@pytest.mark.timeout(60)
def test_a_broken_bot_fails_before_the_arena_runs(fake_arena, tmp_path):
    env, calls = fake_arena
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('oops')\n")
    done = hearts_bot("play", str(broken), env=env)
    assert done.returncode == 2 and "raised RuntimeError: oops" in done.stderr
    assert hearts_bot("check", str(tmp_path / "nope.py"), env=env).returncode == 2
    assert calls() == []


@pytest.mark.timeout(60)
def test_bad_opponents_are_refused():
    with pytest.raises(Exception, match="3 other seats"):
        match_command("me.py", vs="a,b,c,d", players=4, rules="standard", hands=None, seed=None)
    with pytest.raises(Exception, match="not a house bot name"):
        match_command("me.py", vs="rand om", players=4, rules="standard", hands=None, seed=None)


@pytest.mark.timeout(60)
def test_new_writes_a_bot_that_loads_and_refuses_to_overwrite(tmp_path):
    done = hearts_bot("new", "cautious-player", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    path = tmp_path / "cautious_player.py"
    assert "class CautiousPlayerBot(Bot):" in path.read_text()
    assert type(load_bot(str(path))).__name__ == "CautiousPlayerBot"
    again = hearts_bot("new", "cautious-player", "--dir", str(tmp_path))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert hearts_bot("new", "9lives", "--dir", str(tmp_path)).returncode == 2


@pytest.mark.timeout(30)
def test_bot_names():
    assert bot_names("mybot") == ("mybot.py", "MybotBot")
    assert bot_names("ShootTheMoon") == ("shoot_the_moon.py", "ShootTheMoonBot")


@pytest.mark.timeout(60)
def test_replay_asks_the_arena_to_reask_a_recorded_decision(fake_arena, tmp_path):
    env, calls = fake_arena
    replay = tmp_path / "match-7.json"
    replay.write_text("{}")
    done = hearts_bot("replay", str(replay), "--seat", "2", "--decision", "12", EXAMPLE, env=env)
    assert done.returncode == 0, done.stderr
    env["FAKE_ARENA_STATUS"] = "1"  # the arena's verdict (answers differ) is the command's
    every = hearts_bot(
        "replay", str(replay), "--seat", "0", "--all", "--game", "3", "--request", EXAMPLE, env=env
    )
    assert every.returncode == 1
    assert calls() == [
        ["replay", "ask", str(replay), EXAMPLE, "--seat", "2", "--game", "1",
         "--decision", "12", "--no-sandbox"],
        ["replay", "ask", str(replay), EXAMPLE, "--seat", "0", "--game", "3", "--all",
         "--request", "--no-sandbox"],
    ]  # fmt: skip


@pytest.mark.timeout(60)
def test_replay_needs_one_choice_of_decisions_and_an_existing_file(fake_arena, tmp_path):
    env, calls = fake_arena
    replay = tmp_path / "match.json"
    replay.write_text("{}")
    neither = hearts_bot("replay", str(replay), "--seat", "0", EXAMPLE, env=env)
    both = hearts_bot(
        "replay", str(replay), "--seat", "0", "--all", "--decision", "1", EXAMPLE, env=env
    )
    missing = hearts_bot("replay", "nowhere.json", "--seat", "0", "--all", EXAMPLE, env=env)
    for done in (neither, both):
        assert done.returncode == 2 and "--decision K (one or more) or --all" in done.stderr
    assert missing.returncode == 2 and "no such replay file: nowhere.json" in missing.stderr
    assert calls() == []
