"""The decision kinds' rooms (arena.engine.phases): every kind has one, with its words and a
codec that round-trips what the engine applies; the registry refuses a kind twice."""

from __future__ import annotations

import json
import re
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
    for seat, data in _answers(kind):
        said = words(kind, seat, data)
        assert f"seat {seat} " in said or said.startswith("the dealer calls "), said


def _answers(kind: DecisionKind) -> list[tuple[int, Any]]:
    """(seat, JSON answer) pairs of `kind`: what the presets' hands gave, and the samples."""
    room = room_of(kind)
    answers = [(a.seat, room.encode(kind, a.value)) for a in PLAYED.get(kind, [])[:20]]
    return answers + [(1, data) for data in SAMPLES.get(kind, [])]


@pytest.mark.parametrize("kind", sorted(kinds(), key=str))
def test_every_registered_kind_speaks_to_the_person_in_its_seat(kind: DecisionKind) -> None:
    """A person at a table reads their own answers said to them (issue 34's gap): every
    room's words with `you` are in the second person, never "seat N" nor "the dealer",
    and differ from the third person the replay keeps, for every answer of every kind."""
    answers = _answers(kind)
    assert answers, f"{kind.value}: no answer to say (add a sample above)"
    for seat, data in answers:
        said = words(kind, seat, data, you=True)
        third = words(kind, seat, data)
        assert said.startswith("You "), said
        assert not re.search(r"\b(seat|dealer|his|her|to it)\b", said), said
        assert said != third, said
        assert f"seat {seat} " in third or third.startswith("the dealer calls "), third


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
