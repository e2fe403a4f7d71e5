"""The decision kinds' rooms (arena.engine.phases): every kind has one, with its words and a
codec that round-trips what the engine applies; the registry refuses a kind twice."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.engine import Hand, preset
from arena.engine.decisions import Action, DecisionKind
from arena.engine.phases import PledgeRoom, Room, kinds, register, room_of, rooms, words
from arena.engine.presets import PRESETS


def _played_actions() -> dict[DecisionKind, list[Action]]:
    """Every action of a hand of every preset, answered with the defaults (a Four-Penny,
    Domino or Enfle hand's own kinds among them)."""
    seen: dict[DecisionKind, list[Action]] = {}
    for name in sorted(PRESETS):
        for seed in (1, 2):
            hand = Hand.deal(preset(name), seed)
            while (decision := hand.pending()) is not None:
                hand.apply(Action(decision.kind, decision.seat, decision.default))
            for action in hand.history:
                seen.setdefault(action.kind, []).append(action)
    return seen


PLAYED = _played_actions()
SAMPLES: dict[
    DecisionKind, list[Any]
] = {  # answers the defaults never give: a refusal, its replacement, a moon's choice
    DecisionKind.REFUSE_QUEEN: [True, False],
    DecisionKind.REPLACE_PASS: ["3C"],
    DecisionKind.MOON_CHOICE: ["add", "subtract"],
}


def test_every_kind_of_decision_has_one_room() -> None:
    assert set(DecisionKind) <= set(kinds())
    assert all(kind in room.kinds for room in rooms() for kind in room.kinds)


@pytest.mark.parametrize("kind", sorted(kinds(), key=str))
def test_every_registered_kind_has_words(kind: DecisionKind) -> None:
    """A test that fails when a kind has no words: each room says, in a sentence of its
    own (not the base class's refusal), what a seat did; the kinds the presets ask are
    said for every answer they gave."""
    room = room_of(kind)
    assert room.words.__func__ is not Room.words.__func__, f"{kind.value} has no words"  # type: ignore[attr-defined]
    answers = [(a.seat, room.encode(kind, a.value)) for a in PLAYED.get(kind, [])[:20]]
    answers += [(1, data) for data in SAMPLES.get(kind, [])]
    for seat, data in answers:
        said = words(kind, seat, data)
        assert f"seat {seat} " in said or said.startswith("the dealer calls "), said


@pytest.mark.parametrize("kind", sorted(PLAYED, key=str))
def test_a_kinds_codec_round_trips_what_the_engine_applied(kind: DecisionKind) -> None:
    room = room_of(kind)
    for action in PLAYED[kind][:50]:
        data: Any = json.loads(json.dumps(room.encode(kind, action.value)))
        assert room.encode(kind, room.decode(kind, data)) == data


def test_every_kind_of_the_engine_is_said_here() -> None:
    assert set(PLAYED) | set(SAMPLES) == set(DecisionKind)


def test_a_kind_has_one_room() -> None:
    with pytest.raises(ValueError, match="already has a room"):
        register(PledgeRoom)
