"""House bots at one table, in-process: the loop every driver of house bots plays through.

`answer` is one decision: the hand says what it asks (`Hand.pending`), the house bot
answers through `InProcessSeat` (the runner's table of choosers, `seats.py`) and the answer
is judged as the runner judges it (`judging.py`). `play_game` is a whole game of them. The
runner's own loop asks the same seats and judges; `arena demo`, `arena bench bots`, the
rating benchmarks and the bots' test tables play here, so every rule the platform plays,
with whatever it asks, plays in each of them too. (It lived in `arena.demo`, named after
its first user; a new driver looks for it beside the seats.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.bots import HouseBot
from arena.engine import Game, Hand, Rules, SeatView
from arena.engine.decisions import Action, Decision

from .judging import judge
from .seats import DecisionContext, InProcessSeat


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
