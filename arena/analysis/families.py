"""The plays of the families with searches of their own, judged by those searches: two packs
(Cancellation Hearts, `arena.bots.cancellation`), Enfle (`arena.bots.enfle_search`) and
Domino Hearts (`arena.bots.domino_search`).

Each search samples the hidden cards from the seat's view in its own way (two packs and a
widow; the cards each Enfle seat holds; Domino's stock and the seats still in) and plays
candidates out on its family's core with its own playout policy; here every legal card is
a candidate, on the same samples, and the outcomes are tallied as every evaluation's
(`evaluator.Tally`: the seat's result minus the mean of the others'). The searches' pieces
are used as the bots use them, so the bot and the analysis judge a card alike.

Cancellation's search scores the seat's own points only (the others' are not kept by its
playout): its score is those points times n / (n - 1), the difference against the table
when the hand's points are shared out whole, as the expert's evaluation is scaled.
"""

from __future__ import annotations

import random

from arena.bots.belief import InconsistentBeliefError
from arena.bots.cancellation import CancellationSearch
from arena.bots.domino_search import _play_out as _domino_play_out
from arena.bots.domino_search import _sample as _domino_sample
from arena.bots.domino_search import _unknowns
from arena.bots.enfle_search import _play_out as _enfle_play_out
from arena.bots.enfle_search import _sample as _enfle_sample
from arena.bots.enfle_search import _table
from arena.engine import CARDS, Card, SeatView
from arena.engine.variants.domino import search_position as domino_position
from arena.engine.variants.enfle import search_position as enfle_position

from .evaluator import AnswerValue, Evaluation, Tally


def family_of(view: SeatView) -> str | None:
    """The family whose own search judges this view's plays, or None."""
    rules = view.rules
    if rules.cancellation:
        return "cancellation"
    if rules.enfle:
        return "enfle"
    if rules.domino:
        return "domino"
    return None


def evaluate_family_play(
    view: SeatView, rng: random.Random, *, samples: int, playouts: int, first: str
) -> Evaluation:
    """Every legal card of `view` judged by its family's search on `samples` sampled deals
    (`playouts` each where the search plays several), `first` listed first (it wins ties).
    Raises ValueError for a view with no family search, InconsistentBeliefError when the view
    does not add up."""
    names = [first] + [str(c) for c in dict.fromkeys(view.legal) if str(c) != first]
    cards = [Card.from_str(name).index for name in names]
    family = family_of(view)
    if family == "cancellation":
        return _cancellation(view, names, cards, rng, samples)
    if family == "enfle":
        return _enfle(view, names, cards, rng, samples, playouts)
    if family == "domino":
        return _domino(view, names, cards, rng, samples, playouts)
    raise ValueError("no family search for this view")


def _cancellation(
    view: SeatView, names: list[str], cards: list[int], rng: random.Random, samples: int
) -> Evaluation:
    search = CancellationSearch(view)
    n = view.rules.players
    totals = [0] * len(cards)
    for _ in range(samples):
        hands, widow = search.sample(rng)
        for i, card in enumerate(cards):
            totals[i] += search.score(hands, widow, card, rng)
    values = [
        AnswerValue(name, round(total / samples * n / (n - 1), 3), round(total / samples, 3), 0.0)
        for name, total in zip(names, totals, strict=True)
    ]
    return Evaluation(tuple(sorted(values, key=lambda v: v.score)), samples)


def _enfle(
    view: SeatView,
    names: list[str],
    cards: list[int],
    rng: random.Random,
    samples: int,
    playouts: int,
) -> Evaluation:
    n = view.rules.players
    won, table = _table(view)
    unseen = [c.index for c in view.rules.deck if not (table | view.hand.mask) & c.mask]
    sizes = [0 if s == view.seat else view.points_taken[s] for s in range(n)]
    if sum(sizes) != len(unseen) or len(view.hand) != view.points_taken[view.seat]:
        raise InconsistentBeliefError("the Enfle view's card counts do not add up")
    leader = view.current_trick[0][0] if view.current_trick else view.seat
    trick = [card.index for _, card in view.current_trick]
    tally = Tally(len(cards), view.seat, n, None)
    for _ in range(samples):
        hands = _enfle_sample(view, unseen, sizes, rng)
        for _ in range(playouts):
            seed = rng.getrandbits(64)
            for i, card in enumerate(cards):
                state = enfle_position(view.rules, hands, won, leader=leader, trick=trick)
                state.push(card)
                _enfle_play_out(state, random.Random(seed))
                tally.add(i, state.points(), False)
            tally.count += 1
    return tally.evaluation(names, samples)


def _domino(
    view: SeatView,
    names: list[str],
    cards: list[int],
    rng: random.Random,
    samples: int,
    playouts: int,
) -> Evaluation:
    n = view.rules.players
    unseen, sizes, voids = _unknowns(view)
    if sum(sizes) + (view.stock_size or 0) != len(unseen):
        raise InconsistentBeliefError("the Domino view's card counts do not add up")
    values = [view.rules.card_values.get(card, 0) for card in CARDS[:52]]
    penalty = sum(value for value in values if value > 0)
    tally = Tally(len(cards), view.seat, n, None)
    leader = view.current_trick[0][0] if view.current_trick else view.seat
    trick = [(seat, c.index) for seat, c in view.current_trick]
    for _ in range(samples):
        hands, stock = _domino_sample(view, unseen, sizes, voids, rng)
        for _ in range(playouts):
            seed = rng.getrandbits(64)
            for i, card in enumerate(cards):
                state = domino_position(
                    view.rules, hands, stock, leader=leader, broken=view.hearts_broken, trick=trick
                )
                state.push(card)
                _domino_play_out(state, values, random.Random(seed))
                future = state.points()
                final = [view.points_taken[s] + future[s] for s in range(n)]
                moon = view.rules.moon.value == "old" and penalty > 0 and penalty in final
                if moon:  # the old moon: the shooter scores 0, every other seat the penalty
                    shooter = final.index(penalty)
                    final = [0 if s == shooter else penalty for s in range(n)]
                tally.add(i, final, moon)
            tally.count += 1
    return tally.evaluation(names, samples)
