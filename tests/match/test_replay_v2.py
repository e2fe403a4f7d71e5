"""Replay v2: every v1 replay the runner writes converts to the typed action history,
matches its JSON Schema, survives a round trip, and verifies by `Hand.apply` alone; a
changed action is named. (Replays come from real matches of house bots, faults and a
disqualification included: no stored file is trusted.)"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import PRESETS, SeatView, preset
from arena.match.faults import FaultPolicy
from arena.match.replay_v2 import ReplayV2, from_v1, schema, verify_v2
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.match.verify import ReplayMismatchError, verify


class Wrong(InProcessSeat):
    """Plays a card it does not hold every third play: faults, then disqualification."""

    plays = 0

    async def choose_play(self, view: SeatView, context: DecisionContext, timeout: float) -> Any:
        self.plays += 1
        if self.plays % 3 == 0:
            return "ZZ"
        return await super().choose_play(view, context, timeout)


def _match(name: str, *, faulty: bool = False) -> dict[str, Any]:
    rules = preset(name).replace(max_hands=3)
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(rules.players)]
    if faulty:
        seats[0] = Wrong(HOUSE_BOTS["random"](0))
    entrants = [Entrant(f"e{i}", seat) for i, seat in enumerate(seats)]
    runner = MatchRunner(rules, entrants, 9, fault_policy=FaultPolicy(max_faults=3))
    replay = runner.run().v1
    verify(replay)  # the v1 replay stands on its own
    return replay


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_presets_replay_converts_and_verifies_by_its_actions(name: str) -> None:
    v1 = _match(name)
    document = from_v1(v1)
    data = json.loads(json.dumps(document.to_dict()))
    jsonschema.validate(data, schema())
    again = ReplayV2.from_dict(data)
    assert again == document
    checked = verify_v2(again)
    assert checked.hands == sum(len(g["hands"]) for g in v1["games"])
    kinds = {a.kind for g in document.games for h in g.hands for a in h.actions}
    assert "play" in kinds or "penny_play" in kinds


def test_faults_and_a_disqualification_keep_their_defaults() -> None:
    document = from_v1(_match("standard", faulty=True))
    actions = [a for g in document.games for h in g.hands for a in h.actions]
    assert any(a.fault == "malformed" for a in actions)
    assert any(a.auto for a in actions)
    verify_v2(document)


def _replace_first(document: ReplayV2, kind: str, value: Any) -> dict[str, Any]:
    data = document.to_dict()
    for hand in data["games"][0]["hands"]:
        for action in hand["actions"]:
            if action["kind"] == kind and action["value"] != value:
                action["value"] = value
                return data
    raise AssertionError(f"no {kind} action")


def test_a_changed_action_is_named() -> None:
    document = from_v1(_match("standard"))
    data = _replace_first(document, "pass", ["2C", "2C", "2C"])
    with pytest.raises(ReplayMismatchError, match=r"actions\[\d+\]"):
        verify_v2(ReplayV2.from_dict(data))


def test_a_changed_draw_is_named() -> None:
    document = from_v1(_match("domino"))
    data = _replace_first(document, "draw", "AS")
    with pytest.raises(ReplayMismatchError, match=r"actions\[\d+\]"):
        verify_v2(ReplayV2.from_dict(data))


def test_a_changed_score_is_named() -> None:
    data = from_v1(_match("standard")).to_dict()
    data["games"][0]["hands"][0]["points"][0] += 1
    with pytest.raises(ReplayMismatchError, match="points"):
        verify_v2(ReplayV2.from_dict(data))
