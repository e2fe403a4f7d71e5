"""`arena demo`: a game of house bots played in-process, printed hand by hand.

The real engine and the real house bots, no servers needed. Each decision goes through
the runner's own path: the hand says what it asks (`Hand.pending`), the house bot answers
through `InProcessSeat` (the runner's table of choosers) and the answer is judged as the
runner judges it (`arena.match.judging`), so every rule the platform plays, with whatever
it asks, plays here too (and the rating benchmarks that play their games here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.bots import HouseBot
from arena.engine import Game, Hand, Rules, SeatView
from arena.engine.decisions import Action, Decision
from arena.match.judging import judge
from arena.match.seats import DecisionContext, InProcessSeat


def play_game(
    rules: Rules,
    bots: Sequence[HouseBot],
    seed: int,
    on_hand: Callable[[Game, tuple[int, ...]], None] | None = None,
) -> Game:
    """Play one game to the rules' end; `on_hand` is told each finished hand's scores."""
    if len(bots) != rules.players:
        raise ValueError(f"{rules.name} needs {rules.players} bots, got {len(bots)}")
    seats = [InProcessSeat(bot) for bot in bots]
    game = Game(rules, seed)
    while not game.is_over:
        hand = game.hand
        context = DecisionContext(game.hand_number, tuple(game.totals), 0.0, 0.0, game.pot)
        while (decision := hand.pending()) is not None:
            value = answer(seats[decision.seat], decision, hand, context)
            hand.apply(Action(decision.kind, decision.seat, value))
        scores = game.finish_hand()
        if on_hand is not None:
            on_hand(game, scores)
    return game


def answer(
    seat: InProcessSeat,
    decision: Decision,
    hand: Hand,
    context: DecisionContext,
    view: SeatView | None = None,
) -> Any:
    """The house bot's answer to `decision`, judged (`view`: the seat's view, if the caller
    built it already). A house bot's chooser never waits (no transport, no clock), so its
    coroutine finishes on its first step; an answer the judge refuses is a bug in the bot,
    raised as such rather than replaced by the default."""
    if view is None:
        view = hand.view(decision.seat)
    step = seat.decide(decision, view, context, 0.0)
    try:
        step.send(None)
    except StopIteration as done:
        chosen = done.value
    else:
        step.close()
        raise RuntimeError(f"{seat.label}'s {decision.kind.value} waited: a house bot never does")
    value, fault = judge(chosen, decision, hand)
    if fault is not None:
        raise RuntimeError(f"{seat.label} answered {decision.kind.value} wrongly: {fault}")
    return value
