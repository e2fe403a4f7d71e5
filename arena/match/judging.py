"""Judging a bot's answer: the engine is the one judge (`Hand.check`, each kind's room in
`arena.engine.phases`); this module turns the engine's refusal into the runner's fault,
so no rule of a legal answer lives in arena/match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.engine import Card, Hand
from arena.engine.decisions import Action, Decision, DecisionKind
from arena.engine.phases import fault_of

from .faults import FaultKind, SeatFault

_Judge = Callable[[object, Decision, Hand], tuple[Any, "SeatFault | None"]]


def judge(answer: object, decision: Decision, hand: Hand) -> tuple[Any, SeatFault | None]:
    """A seat's answer to `decision`: (the answer in the engine's form for `Action.value`,
    None), or (None, the fault: malformed, not held or illegal, with the engine's reason)."""
    try:
        return hand.check(Action(decision.kind, decision.seat, answer)), None
    except (ValueError, TypeError) as error:
        kind = fault_of(error) if isinstance(error, ValueError) else "malformed"
        return None, SeatFault(FaultKind(kind), str(error))


def _judge_play(answer: object, decision: Decision, hand: Hand) -> tuple[Any, SeatFault | None]:
    """A play: a legal card is taken as it is (the common case: one set test)."""
    if answer.__class__ is Card and answer in decision.legal:
        return answer, None
    return judge(answer, decision, hand)


class _Judges(dict[DecisionKind, _Judge]):
    """Every kind's judge: the engine's (`judge`), a play's with its shortcut first."""

    def __missing__(self, kind: DecisionKind) -> _Judge:
        return judge


JUDGES: dict[DecisionKind, _Judge] = _Judges({DecisionKind.PLAY: _judge_play})
"""A decision kind's judge (the runner's table): any kind registered with the engine,
DRAW and PICKUP (the engine's own) refused as never asked."""
