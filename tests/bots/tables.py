"""Helpers: play hands with house bots, with a hook at every decision to inspect the truth."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.bots import HouseBot
from arena.engine import Hand, Rules
from arena.engine.decisions import Action, DecisionKind
from arena.match.house import answer
from arena.match.seats import DecisionContext, InProcessSeat

Hook = Callable[[Hand, int], None]


def play_hand(
    rules: Rules,
    seed: int,
    bots: Sequence[HouseBot],
    *,
    index: int = 0,
    on_decision: Hook | None = None,
) -> Hand:
    """Deal hand `index` of the rules' schedule from `seed` and play it with `bots[s]` in
    seat s, through the checked API (an illegal pass or card raises). `on_decision(hand,
    seat)` runs before every play."""
    direction = rules.pass_schedule[index % len(rules.pass_schedule)]
    hand = Hand.deal(rules, seed, dealer=index % rules.players, pass_direction=direction)
    seats = [InProcessSeat(bot) for bot in bots]
    context = DecisionContext(index, (0,) * rules.players, 0.0, 0.0)
    # The one loop, as the runner: every decision the rules ask (`arena.match.house.answer`).
    while (decision := hand.pending()) is not None:
        if on_decision is not None and decision.kind is DecisionKind.PLAY:
            on_decision(hand, decision.seat)
        value = answer(seats[decision.seat], decision, hand, context)
        hand.apply(Action(decision.kind, decision.seat, value))
    return hand
