"""One way to read a stored replay: `arena.match.replay` reads v1 and v2 alike, and what
both versions keep under the same keys (the scores, who shot the moon) is read without
rebuilding v1's layout."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import PRESETS, preset
from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.replay_v2 import REPLAY_V2
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import InProcessSeat

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("v1-*.json.gz"))


def play(name: str, seed: int, hands: int | None = 3, kind: str = "random") -> MatchOutcome:
    rules = preset(name)
    if hands is not None:
        rules = rules.replace(max_hands=hands)
    entrants = [
        Entrant(name=f"bot{i}", seat=InProcessSeat(HOUSE_BOTS[kind](seed * 10 + i)))
        for i in range(rules.players)
    ]
    return MatchRunner(rules, entrants, seed).run()


def test_the_reader_reads_both_versions_by_default_and_names_what_it_refuses(tmp_path) -> None:
    assert replay_io.VERSIONS == (replay_io.REPLAY_VERSION, REPLAY_V2) == (1, 2)
    outcome = play("standard", 1)
    stored = replay_io.dumps(outcome.replay)
    assert replay_io.loads(stored)["version"] == 2  # what the runner writes
    assert replay_io.load(FIXTURES[0])["version"] == 1  # what it wrote before v2
    newer = gzip.compress(json.dumps({**outcome.replay, "version": 3}).encode())
    with pytest.raises(replay_io.ReplayError, match=r"version 3 is not supported .*1 or 2"):
        replay_io.loads(newer)
    path = tmp_path / "v2.json"
    replay_io.save(outcome.replay, path)
    assert replay_io.load(path) == outcome.replay


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_scores_and_moons_read_from_v2_are_v1s(name: str) -> None:
    """Both versions' hand scores are the same rows; the moons of a v2 document, re-played
    only when its result counts one (forced here by counting one), are v1's."""
    outcome = play(name, 5)
    v2, v1 = outcome.replay, outcome.v1
    assert replay_io.hand_scores(v2) == replay_io.hand_scores(v1)
    assert replay_view.shooters(v2) == replay_view.shooters(v1)
    counted = copy.deepcopy(v2)
    counted["result"]["entrants"][0]["moons"] += 1  # makes the reader ask the engine
    assert replay_view.shooters(counted) == replay_view.shooters(v1)


def test_a_moon_is_found_in_a_v2_document_by_the_engine() -> None:
    outcome = play("standard", 3, hands=None, kind="heuristic")  # a game to 100, one moon
    assert [r.moons for r in outcome.results] == [0, 0, 1, 0]
    moons = replay_view.shooters(outcome.replay)
    assert moons == replay_view.shooters(outcome.v1)
    assert sum(seat is not None for game in moons for seat in game) == 1


def test_no_moon_counted_means_no_hand_re_played(monkeypatch) -> None:
    outcome = play("standard", 1)
    assert not any(r.moons for r in outcome.results)

    def engine(*args: object) -> None:
        raise AssertionError("the replay was re-played through the engine")

    monkeypatch.setattr(replay_view, "Game", engine)
    assert replay_view.shooters(outcome.replay) == [[None] * 3]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_a_v1_fixture_is_read_with_its_moons_without_the_engine(path: Path, monkeypatch) -> None:
    stored = replay_io.load(path)
    monkeypatch.setattr(replay_view, "Game", None)  # v1 records the moon: no engine at all
    moons = replay_view.shooters(stored)
    assert moons == [[hand.get("moon") for hand in game["hands"]] for game in stored["games"]]
    assert len(replay_io.hand_scores(stored)) == sum(len(g["hands"]) for g in stored["games"])


def test_a_v2_document_that_does_not_re_play_is_a_replay_error() -> None:
    outcome = play("standard", 3, hands=None, kind="heuristic")
    broken = copy.deepcopy(outcome.replay)
    actions = broken["games"][0]["hands"][0]["actions"]
    actions[5], actions[6] = actions[6], actions[5]
    with pytest.raises(replay_io.ReplayError, match="does not re-play"):
        replay_view.shooters(broken)
