"""The "all hands known" view of a decision (docs/analysis.md, "With all hands known"): the
fair view's answers judged again on the real deal, by the same model, kept apart from the
fair view (never in its loss, its marks or its summary).

- a one-pack play: every legal card played out `HINDSIGHT_PLAYOUTS` times from the true
  hands and the kitty as dealt (`evaluator.evaluate_hindsight`);
- a one-pack pass: each judged pass exchanged on the real deal with the other seats' real
  passes, then played out as often (`evaluator.evaluate_pass_hindsight`);
- a play of two packs, Enfle or Domino Hearts: the family's own search's playouts on the
  real deal (`families.evaluate_family_hindsight`, `FAMILY_HINDSIGHT_PLAYOUTS`; Domino's
  stock in its real order);
- every kind judged on worlds (the dealer's call, bids, the suit named, a face-down card,
  a pledge, exposures, Rickety Kate's refusal and replacement, the penny games' and
  two-pack passes, a penny-round's card): the same rollout on the one real world
  (`rollout.evaluate_on_real`), once (the model is deterministic).

None for the shooter's choice alone: it is judged with every card known already (its fair
view is its hindsight)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from arena.engine import Card, CardSet
from arena.engine.decisions import Action, DecisionKind
from arena.engine.phases import room_of

from .evaluator import (
    ENGINE_PLAYOUTS,
    HINDSIGHT_PLAYOUTS,
    Evaluation,
    Playout,
    evaluate_hindsight,
    evaluate_pass_hindsight,
    passes_evaluable,
    plays_evaluable,
)
from .families import evaluate_family_hindsight, family_of
from .rollout import evaluate_on_real
from .worlds import RealDeal, Table

FAMILY_HINDSIGHT_PLAYOUTS = 8
"""A family's play's hindsight: playouts per card of the family's search on the real deal
(its playouts are Python loops; the fair view takes `samples // 4` deals of one, Domino
`samples`)."""

_PLAY = DecisionKind.PLAY
_PASS = DecisionKind.PASS


@dataclasses.dataclass(frozen=True)
class Real:
    """What the hindsight knows of a hand: its real deal, and its whole record (the other
    seats' passes among it)."""

    deal: RealDeal
    actions: Sequence[Any]
    """The hand's recorded actions (`replay_v2.ActionRecord`s)."""

    def passes(self, seat: int) -> dict[int, tuple[Card, ...]]:
        """Every other seat's real pass, by seat."""
        room = room_of(_PASS)
        return {
            a.seat: tuple(Card.from_str(str(c)) for c in room.decode(_PASS, a.value))
            for a in self.actions
            if a.kind == _PASS.value and a.seat != seat
        }


@dataclasses.dataclass(frozen=True)
class Asked:
    """A decision as the hindsight reads it."""

    hand: Any
    """The real hand before the answer."""
    table: Table
    view: Any
    decision: Any
    chosen: str


def judge_hindsight(
    asked: Asked,
    real: Real,
    fair: Evaluation,
    answers: list[tuple[str, Any]],
    rng: random.Random,
    playout: Playout = ENGINE_PLAYOUTS,
) -> dict[str, Any] | None:
    """The "all hands known" view of a decision, kept apart (`DecisionAnalysis.hindsight`):
    the fair view's answers judged again on the real deal, by the same model, or None
    for the shooter's choice (docs/analysis.md: it is judged with every card known
    already)."""
    view, kind, chosen, hand = asked.view, asked.decision.kind, asked.chosen, asked.hand
    n = view.rules.players
    playouts = HINDSIGHT_PLAYOUTS
    if kind is DecisionKind.MOON_CHOICE:
        return None
    if kind is _PLAY and family_of(view) is not None:
        playouts = FAMILY_HINDSIGHT_PLAYOUTS
        holdings = [hand.hand_of(s) for s in range(n)]
        rest = tuple(getattr(hand, "stock", ())) if view.rules.domino else real.deal.kitty
        known = evaluate_family_hindsight(
            view, holdings, rest, rng, playouts=playouts, first=chosen
        )
    elif kind is _PLAY and plays_evaluable(view):
        holdings = [hand.hand_of(s).mask for s in range(n)]
        kitty = CardSet(real.deal.kitty).mask
        known = evaluate_hindsight(view, holdings, rng, kitty=kitty, playout=playout, first=chosen)
    elif kind is _PASS and passes_evaluable(view):
        given = real.passes(view.seat)
        if set(given) != set(range(n)) - {view.seat}:
            return None
        names = [chosen] + [a.answer for a in fair.answers if a.answer != chosen]
        known = evaluate_pass_hindsight(
            view,
            asked.decision.size,
            names,
            [CardSet(cards).mask for cards in real.deal.hands],
            CardSet(real.deal.kitty).mask,
            {s: tuple(c.index for c in cards) for s, cards in given.items()},
            rng,
            playout=playout,
        )
    else:
        then = [Action(_PASS, s, cards) for s, cards in real.passes(view.seat).items()]
        later = then if kind is _PASS else []
        known = evaluate_on_real(
            view,
            asked.table,
            real.deal,
            hand.history,
            kind,
            answers,
            then=later,
        )
        playouts = 1
    mine = known.of(chosen).score - known.answers[0].score
    return {
        "best": known.answers[0].answer,
        "loss": round(max(mine, 0.0), 3),
        "answers": [dataclasses.asdict(a) for a in known.answers],
        "playouts": playouts,
    }
