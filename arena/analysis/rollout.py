"""Answers judged on sampled worlds (`worlds.Worlds`), played out by the house bots through
the engine's own decision loop (`arena.match.house.answer`).

For every sampled world each answer is applied and the hand played to its end with every
seat answering as the heuristic house bot does: the "fixed model of every seat" the C
playouts use elsewhere, here with every rule the engine plays (the auction's pot, the
pledges, the exposures' doubling, the penny-rounds). The model is deterministic, so one
playout per world and answer says all it can; every answer sees the same worlds.

An answer's score is the seat's result minus the mean of the others' at the hand's end, as
for plays (docs/analysis.md): the hand's points, or, under a settlement in chips (Auction
Hearts, the pot games), the chips the hand costs each seat (`game.settle_hand`, with the
pot of earlier deals left out: what stood in it is the same whatever the answer).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.bots import HeuristicBot
from arena.bots.belief import InconsistentBeliefError
from arena.engine import Hand, SeatView
from arena.engine.decisions import Action, Decision, DecisionKind
from arena.engine.game import settle_hand
from arena.engine.rules import Settlement
from arena.match.house import answer
from arena.match.seats import DecisionContext, InProcessSeat

from .evaluator import Evaluation, Tally, moon_total
from .worlds import RealDeal, Table, Worlds

REJECTED_PER_SAMPLE = 8
"""Worlds drawn per world kept, at most, before the decision is left unjudged (a record
that fits almost no deal: the inference is missing a fact)."""


class HouseModel:
    """Every seat answers as the heuristic house bot, through the engine's decision loop."""

    name = "house:heuristic"

    def __init__(self, table: Table) -> None:
        n = table.rules.players
        self.seats = [InProcessSeat(HeuristicBot(seat)) for seat in range(n)]
        self.context = DecisionContext(table.number, table.totals, 0.0, 0.0, 0)
        self.totals = table.totals

    def answer(self, decision: Decision, hand: Hand) -> Any:
        """The model's answer to `decision` in `hand`."""
        return answer(self.seats[decision.seat], decision, hand, self.context)

    def finish(self, hand: Hand) -> tuple[tuple[int, ...], bool | None]:
        """Play `hand` to its end; (each seat's result, whether a seat shot the moon: None
        where only the points' sum can say)."""
        while (decision := hand.pending()) is not None:
            hand.apply(Action(decision.kind, decision.seat, self.answer(decision, hand)))
        points = hand.points(self.totals)
        try:
            moon: bool | None = hand.shooter() >= 0
        except (AttributeError, ValueError):  # a family whose core does not say: by the sum
            moon = None
        if hand.base_rules.settlement is Settlement.POINTS:
            return points, moon
        return settle_hand(hand, points, 0).paid, moon


def evaluate_on_worlds(
    view: SeatView,
    table: Table,
    record: Sequence[Action],
    kind: DecisionKind,
    answers: Sequence[tuple[str, Any]],
    rng: random.Random,
    *,
    samples: int,
) -> Evaluation:
    """Each of `answers` ((text, value), the first winning ties) applied to `samples`
    sampled worlds of `view`'s decision of `kind` and played out by the model. Raises
    InconsistentBeliefError when the record fits no sampled world."""
    model = HouseModel(table)
    worlds = Worlds(view, table, record, kind, model)
    n, me = view.rules.players, view.seat
    tally = Tally(len(answers), me, n, moon_total(view))
    taken = tries = 0
    while taken < samples and tries < samples * REJECTED_PER_SAMPLE:
        tries += 1
        deal = worlds.sample(rng)
        results = []
        for _, value in answers:
            hand = worlds.build(deal)
            if hand is None:
                break
            hand.apply(Action(kind, me, value))
            results.append(model.finish(hand))
        else:
            for i, (points, moon) in enumerate(results):
                tally.add(i, points, moon)
            tally.count += 1
            taken += 1
    if not taken:
        raise InconsistentBeliefError(f"no sampled world fits the record of this {kind.value}")
    return tally.evaluation([text for text, _ in answers], taken)


def evaluate_on_real(
    view: SeatView,
    table: Table,
    deal: RealDeal,
    record: Sequence[Action],
    kind: DecisionKind,
    answers: Sequence[tuple[str, Any]],
    *,
    then: Sequence[Action] = (),
) -> Evaluation:
    """The hindsight of a decision judged on worlds: each of `answers` ((text, value), the
    first winning ties) applied on the one real world (`deal` with the real `record`
    before the decision, every hand known) and played out by the same model, once (it is
    deterministic). `then`: the other seats' real answers made at once with this one (the
    rest of a pass), applied after it while the hand asks for them. Raises ValueError when
    the real record does not re-play (our bug)."""
    model = HouseModel(table)
    tally = Tally(len(answers), view.seat, view.rules.players, moon_total(view))
    for i, (_, value) in enumerate(answers):
        hand = deal.build(table, record)
        decision = hand.pending()
        if decision is None or decision.kind is not kind or decision.seat != view.seat:
            raise ValueError(f"the real record does not come back to this {kind.value}")
        hand.apply(Action(kind, view.seat, value))
        for action in then:
            asked = hand.pending()
            if asked is None or asked.kind is not action.kind or asked.seat != action.seat:
                break
            hand.apply(action)
        points, moon = model.finish(hand)
        tally.add(i, points, moon)
    tally.count = 1
    return tally.evaluation([text for text, _ in answers], 1)


__all__ = ["HouseModel", "evaluate_on_real", "evaluate_on_worlds"]
