"""Enfle through the runner: the pickups are recorded (replay v2 as the engine's own
actions, v1 on the trick taken up), the replay is valid and verifies in both versions,
verify names a tampered pickup, and `arena replay show` says who took up what."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from arena.bots import HeuristicBot, RandomBot, StrongBot
from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.render import render
from arena.match.replay_v2 import ReplayV2, verify_v2
from arena.match.replay_view import to_v1
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import ReplayMismatchError, verify


def _outcome(players: int, seed: int = 4, strong: bool = False) -> Any:
    entrants = [
        Entrant(f"b{i}", InProcessSeat(HeuristicBot(i) if i % 2 else RandomBot(i)))
        for i in range(players)
    ]
    if strong:
        entrants[0] = Entrant("strong", InProcessSeat(StrongBot(seed=1, max_samples=4)))
    outcome = MatchRunner(preset("enfle", players), entrants, seed).run()
    assert not outcome.void, outcome.void_reason
    jsonschema.validate(outcome.v1, replay_io.schema())
    return outcome


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_enfle_match_is_recorded_and_verifies(players: int) -> None:
    outcome = _outcome(players)
    replay = outcome.v1
    checked = verify(replay)
    hands = replay["games"][0]["hands"]
    assert checked.hands == len(hands) == players  # one deal by each seat
    assert all(hand["pass_direction"] == "hold" and hand["passes"] == [] for hand in hands)
    pickups = [trick["pickup"] for hand in hands for trick in hand["tricks"] if "pickup" in trick]
    assert pickups and all(up["cards"] for up in pickups)
    for hand in hands:
        out = hand["went_out"]
        assert out is None or hand["points"][out] == 0
        assert all(points >= 0 for points in hand["points"])


def test_the_v2_document_holds_the_pickups_and_reads_back_as_v1() -> None:
    outcome = _outcome(4, seed=7)
    document = ReplayV2.from_dict(outcome.replay)
    verify_v2(document)
    actions = [a for g in document.games for h in g.hands for a in h.actions]
    pickups = [a for a in actions if a.kind == "pickup"]
    assert pickups and all(isinstance(a.value, list) for a in pickups)
    assert to_v1(document)["games"] == outcome.v1["games"]


def _first_pickup(replay: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for h, hand in enumerate(replay["games"][0]["hands"]):
        for t, trick in enumerate(hand["tricks"]):
            if "pickup" in trick:
                return f"games[0].hands[{h}].tricks[{t}].pickup", trick
    raise AssertionError("no pickup in the match")


def test_verify_names_a_tampered_pickup() -> None:
    replay = _outcome(4).v1
    tampered = copy.deepcopy(replay)
    where, trick = _first_pickup(tampered)
    trick["pickup"]["cards"] = trick["pickup"]["cards"][1:]
    with pytest.raises(ReplayMismatchError) as caught:
        verify(tampered)
    assert caught.value.where == where


def test_verify_v2_names_a_tampered_pickup() -> None:
    outcome = _outcome(4)
    data = copy.deepcopy(outcome.replay)
    actions = data["games"][0]["hands"][0]["actions"]
    at = next(i for i, a in enumerate(actions) if a["kind"] == "pickup")
    actions[at]["seat"] = (actions[at]["seat"] + 1) % 4
    with pytest.raises(ReplayMismatchError) as caught:
        verify_v2(ReplayV2.from_dict(data))
    assert caught.value.where == f"games[0].hands[0].actions[{at}]"


def test_replay_show_says_who_takes_up_what_and_who_went_out() -> None:
    lines = list(render(_outcome(4).v1, pretty=False))
    assert any("cannot follow and takes up" in line for line in lines)
    assert any("is out of cards and wins" in line for line in lines)


def test_the_strong_bot_plays_enfle_legally() -> None:
    outcome = _outcome(4, seed=3, strong=True)
    assert not outcome.v1["faults"]
    verify(outcome.v1)
