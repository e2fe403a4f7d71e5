"""`arena match run`, `arena replay verify|show` and `arena bot check` as a user runs them."""

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOW_BOT = ROOT / "sdk" / "examples" / "low_bot.py"
CRASH_BOT = ROOT / "tests" / "match" / "bots" / "crash_bot.py"

pytestmark = pytest.mark.timeout(180)


def arena(*args, check=True):
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", *map(str, args)],
        check=False,
        capture_output=True,
        text=True,
        timeout=150,
        cwd=ROOT,
    )
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def sandbox_available():
    if os.environ.get("CI"):
        return True  # CI installs bubblewrap: the sandboxed path must run there
    return shutil.which("bwrap") is not None and os.geteuid() == 0


def test_a_match_with_house_bots_writes_a_replay_that_verifies(tmp_path):
    out = tmp_path / "match.json.gz"
    done = arena(
        "match",
        "run",
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--seed",
        9,
        "--duplicate",
        "--out",
        out,
        "--quiet",
    )
    assert "rank" in done.stdout and "house:heuristic" in done.stdout
    replay = json.loads(gzip.decompress(out.read_bytes()))
    assert replay["match_format"] == "duplicate" and len(replay["games"]) == 4
    verified = arena("replay", "verify", out)
    assert "OK" in verified.stdout and "every score confirmed" in verified.stdout
    shown = arena("replay", "show", out, "--ascii")
    assert "trick  1:" in shown.stdout and "Game 4" in shown.stdout


def test_a_tampered_replay_fails_verification_naming_the_place(tmp_path):
    out = tmp_path / "match.json"
    arena(
        "match",
        "run",
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--hands",
        2,
        "--out",
        out,
        "--quiet",
    )
    assert json.loads(out.read_text())["version"] == 2  # the runner writes v2
    v1 = tmp_path / "match-v1.json"
    assert "replay v1" in arena("replay", "convert", out, v1, "--to", "1").stdout
    replay = json.loads(v1.read_text())
    replay["games"][0]["hands"][1]["tricks"][4]["winner"] ^= 1
    v1.write_text(json.dumps(replay))
    done = arena("replay", "verify", v1, check=False)
    assert done.returncode == 1
    assert "games[0].hands[1].tricks[4].winner" in done.stderr


def test_a_file_that_is_not_a_replay_is_refused_clearly(tmp_path):
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"hello": 1}')
    done = arena("replay", "verify", bogus, check=False)
    assert done.returncode == 2
    assert "not a Hearts Arena replay" in done.stderr


def test_a_bot_file_plays_unsandboxed_only_when_asked(tmp_path):
    done = arena(
        "match",
        "run",
        "--bot",
        LOW_BOT,
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--bot",
        "house:heuristic",
        "--hands",
        2,
        "--no-sandbox",
        "--quiet",
    )
    assert "low_bot" in done.stdout


@pytest.mark.skipif(not sandbox_available(), reason="needs bubblewrap and root (CI has both)")
def test_a_bot_file_plays_sandboxed_by_default(tmp_path):
    out = tmp_path / "m.json"
    done = arena(
        "match",
        "run",
        "--bot",
        LOW_BOT,
        "--bot",
        "house:heuristic",
        "--bot",
        "house:random",
        "--bot",
        "house:heuristic",
        "--hands",
        2,
        "--out",
        out,
        "--quiet",
    )
    assert "low_bot" in done.stdout
    assert json.loads(out.read_text())["faults"] == []


def test_bot_check_passes_a_sound_bot_and_fails_a_crashing_one():
    good = arena("bot", "check", LOW_BOT, "--no-sandbox")
    assert "passed" in good.stdout
    bad = arena("bot", "check", CRASH_BOT, "--no-sandbox", check=False)
    assert bad.returncode == 1
    assert "crash" in bad.stderr and "crash bot: goodbye" in bad.stderr


def test_unknown_bot_specs_are_usage_errors():
    done = arena(
        "match",
        "run",
        "--bot",
        "house:nobody",
        "--bot",
        "house:random",
        "--bot",
        "house:random",
        "--bot",
        "house:random",
        check=False,
    )
    assert done.returncode == 2
    assert "unknown house bot 'nobody'" in done.stderr


@pytest.mark.parametrize("rules", ["sweepstakes", "auction", "danger"])
def test_a_hand_limit_keeps_a_chip_games_stake_and_plays_every_variant(tmp_path, rules):
    # `--hands` replaces the target score, but a chip game cannot do without its stake
    # (docs/rules.md "Chips"): it keeps it, and the game still ends after the hands asked.
    out = tmp_path / "match.json"
    bots = ["--bot", "house:heuristic", "--bot", "house:random"] * 2
    arena(
        "match", "run", "--rules", rules, *bots, "--seed", 4, "--hands", 2, "--out", out, "--quiet"
    )
    replay = json.loads(out.read_text())
    kept = replay["rules"]["target_score"]
    assert replay["rules"]["max_hands"] == 2
    assert kept == (None if rules == "danger" else 100)
    assert len(replay["games"][0]["hands"]) >= 2
    assert "every score confirmed" in arena("replay", "verify", out).stdout


def test_a_replay_converts_to_v2_which_verifies_by_its_actions(tmp_path):
    written = tmp_path / "match.json"
    arena(
        "match",
        "run",
        *("--rules", "dealer_calls"),
        *("--bot", "house:heuristic") * 5,
        *("--hands", 2, "--out", written, "--quiet"),
    )
    v1 = tmp_path / "match-v1.json"
    arena("replay", "convert", written, v1, "--to", "1")
    assert json.loads(v1.read_text())["version"] == 1
    assert "every score confirmed" in arena("replay", "verify", v1).stdout
    v2 = tmp_path / "match-v2.json"
    assert "replay v2" in arena("replay", "convert", v1, v2).stdout
    document = json.loads(v2.read_text())
    assert document == json.loads(written.read_text())  # v2 -> v1 -> v2 is the same document
    kinds = [a["kind"] for a in document["games"][0]["hands"][0]["actions"]]
    assert kinds[0] == "call" and "pass" in kinds and kinds[-1] == "play"
    assert "every score confirmed" in arena("replay", "verify", v2).stdout
    document["games"][0]["hands"][1]["actions"][-1]["value"] = "ZZ"
    v2.write_text(json.dumps(document))
    done = arena("replay", "verify", v2, check=False)
    assert done.returncode == 1
    assert "games[0].hands[1].actions[" in done.stderr
