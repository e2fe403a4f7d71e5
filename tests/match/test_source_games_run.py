"""Issue 23's games, each played as a user plays it: `arena match run` with house bots at the
preset's own table, then `arena replay verify` on what it wrote (quick size: two hands).

Why a subprocess per preset: this is the command the rulebook (docs/rules.md) tells a
contestant to run, so the test goes through the CLI's parsing, the runner's one loop, the
replay writer and the verifier, not through the engine's API alone."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine import preset

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(180)

# The presets issue 23 added, and a decision kind each must record when its rules ask for
# one (None: plays and passes only).
SOURCE_GAMES: dict[str, str | None] = {
    "heartsette": None,
    "black_maria_purist": None,
    "slobberhannes": None,
    "four_jacks": None,
    "gong_zhu": "expose",  # Gong Zhu: every seat is asked which cards it exposes
    # Rickety Kate: a QS passed, refused, and another card passed in its place.
    "rickety_kate": "replace_pass",
    "first_heart_kitty": "pass",
    "kitty_each_trick": "pass",
    "two_player": "pass",
    "enfle": "pickup",
    "pledge": "pledge",
    "dealer_counts": "call",
    # 002 'Alternatives to the "Kitty"': the extra cards played to the first trick.
    "extra_cards": "pass",
}


# A seed where the preset's decision happens with these bots (23 otherwise).
SEEDS: dict[str, int] = {"rickety_kate": 1}


def arena(*args: object) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", *map(str, args)],
        check=False,
        capture_output=True,
        text=True,
        timeout=150,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("name", sorted(SOURCE_GAMES))
def test_each_source_game_plays_a_match_that_verifies(tmp_path: Path, name: str) -> None:
    players = preset(name).players
    bots = [("house:strong" if seat == 0 else "house:heuristic") for seat in range(players)]
    out = tmp_path / f"{name}.json"
    arena(
        *("match", "run", "--rules", name),
        *(arg for bot in bots for arg in ("--bot", bot)),
        *("--seed", SEEDS.get(name, 23), "--hands", 2, "--out", out, "--quiet"),
    )
    replay = json.loads(out.read_text())
    assert replay["rules"]["name"] == name
    hands = replay["games"][0]["hands"]
    assert len(hands) >= 1
    kinds = {action["kind"] for hand in hands for action in hand["actions"]}
    assert "play" in kinds
    expected = SOURCE_GAMES[name]
    if expected is not None:
        assert expected in kinds, sorted(kinds)
    assert "every score confirmed" in arena("replay", "verify", out)
