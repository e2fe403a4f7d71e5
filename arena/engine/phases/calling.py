"""The dealer's call (003 'Simple variations': "The dealer chooses the passing rule"): a
direction, a split (one direction per passed card), or with `pass_call_counts` a count
too (004 'Passing cards': "The Dealer may choose how many cards and where to pass"). The
hand runs the call (it rebuilds its backend with the pass called); this room judges a
seat's answer, and keeps the codec and words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..decisions import CountedCall, DecisionKind
from ..rules import PassDirection
from .room import Room, Show, refused
from .tricks import asked


class IllegalCallError(ValueError):
    """A dealer's call (003 'Simple variations') that may not be made: none is due, or
    the pass is not one of the rules' `pass_call_options`."""

    def __init__(self, message: str, *, direction: str) -> None:
        super().__init__(message)
        self.direction = direction


def _refused(message: str, answer: object, fault: str) -> ValueError:
    return refused(IllegalCallError(message, direction=str(answer)), fault)


def _is_counted(value: Any) -> bool:
    """A call's JSON form with its count: [direction, count] (a split lists directions)."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    )


def _direction(answer: object, options: Sequence[PassDirection], what: str = "") -> PassDirection:
    try:
        called = PassDirection(str(answer))
    except ValueError:
        raise _refused(f"{answer!r}{what} is not a pass direction", answer, "malformed") from None
    if called not in options:
        allowed = ", ".join(d.value for d in options)
        raise _refused(f"called {called.value}; the options are {allowed}", answer, "illegal")
    return called


class CallRoom(Room):
    """One of the options; a split of one direction per passed card (each one of the
    rules' `split_directions`); or a `CountedCall` of an option and a count."""

    kinds = (DecisionKind.CALL,)

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        if isinstance(value, CountedCall):
            return [str(value.direction), value.size]  # 004 'Passing cards': where, how many
        if isinstance(value, (tuple, list)):
            return [str(d) for d in value]
        return str(value)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        if _is_counted(data):
            return CountedCall(data[0], data[1])
        return tuple(data) if isinstance(data, list) else data

    @classmethod
    def words(cls, kind: DecisionKind, seat: int, data: Any, show: Show = str) -> str:
        if _is_counted(data):
            how = f"{data[0]}, {data[1]} card{'' if data[1] == 1 else 's'}"
        elif isinstance(data, list):  # 003 'Simple variations': each card its own way
            how = "a split: " + ", ".join(f"card {i + 1} {way}" for i, way in enumerate(data))
        else:
            how = str(data)
        return f"the dealer calls {how}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        decision = asked(hand, kind, seat)
        options: Sequence[PassDirection] = decision.legal
        rules = hand.rules
        counts: Sequence[int] = hand.call_counts or (rules.pass_count,)
        if isinstance(answer, CountedCall):
            called = _direction(answer.direction, options)
            size = answer.size
            if not isinstance(size, int) or isinstance(size, bool) or size not in counts:
                allowed = ", ".join(str(c) for c in counts)
                raise _refused(
                    f"called {size!r} cards; the dealer may call {allowed}", answer, "illegal"
                )
            return CountedCall(called, size)
        if isinstance(answer, (list, tuple)):
            return cls._split(answer, rules.split_directions, counts, rules.pass_count)
        return _direction(answer, options)

    @classmethod
    def _split(
        cls,
        answer: Sequence[object],
        allowed: Sequence[PassDirection],
        counts: Sequence[int],
        count: int,
    ) -> tuple[PassDirection, ...]:
        """A split call: a count of directions (one of `counts`), each one of `allowed`."""
        if len(answer) in [c for c in counts if c >= 2]:
            count = len(answer)
        if not allowed:
            raise _refused("called a split; these rules allow none", answer, "illegal")
        split = [_direction(d, list(PassDirection), " in a split") for d in answer]
        if len(split) != count:
            raise _refused(
                f"a split of {len(split)} directions; {count} cards are passed", answer, "illegal"
            )
        wrong = [d.value for d in split if d not in allowed]
        if wrong:
            ways = ", ".join(d.value for d in allowed)
            raise _refused(
                f"a split card goes {wrong[0]}; a split's cards go {ways}", answer, "illegal"
            )
        return tuple(split)
