"""The plays of the families with searches of their own, judged by those searches: two packs
(Cancellation Hearts, `arena.bots.cancellation`), Enfle (`arena.bots.enfle_search`) and
Domino Hearts (`arena.bots.domino_search`).

Each search samples the hidden cards from the seat's view in its own way (two packs and a
widow; the cards each Enfle seat holds; Domino's stock and the seats still in) and plays
candidates out on its family's core with its own playout policy. Each module's
`play_out_candidates` is the one search: the bot keeps the card with the best total, and
the analysis tallies every outcome of every legal card (`evaluator.Tally`: the seat's
result minus the mean of the others'), so the bot and the analysis judge a card alike.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from arena.bots import cancellation, domino_search, enfle_search
from arena.bots.belief import InconsistentBeliefError
from arena.engine import Card, CardSet, SeatView

from .evaluator import Evaluation, Tally

_SEARCHES: dict[str, Callable[..., int]] = {
    "cancellation": cancellation.play_out_candidates,
    "enfle": enfle_search.play_out_candidates,
    "domino": domino_search.play_out_candidates,
}


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


Tell = Callable[[int, tuple[int, ...]], None]
"""What a search tells of each play-out: the candidate's position and every seat's points."""


def _candidates(view: SeatView, first: str) -> tuple[str, list[str], list[int], Tally, Tell]:
    """The view's family, its legal cards' names (`first` first: it wins ties) and indices,
    the tally of their outcomes, and the `tell` a search reports each play-out to (a deal
    is counted once its last candidate is told). Raises ValueError for a view with no
    family search."""
    family = family_of(view)
    if family is None:
        raise ValueError("no family search for this view")
    names = [first] + [str(c) for c in dict.fromkeys(view.legal) if str(c) != first]
    cards = [Card.from_str(name).index for name in names]
    tally = Tally(len(cards), view.seat, view.rules.players, None)

    def tell(i: int, points: tuple[int, ...]) -> None:
        tally.add(i, points, False)
        if i == len(cards) - 1:
            tally.count += 1

    return family, names, cards, tally, tell


def evaluate_family_play(
    view: SeatView, rng: random.Random, *, samples: int, playouts: int, first: str
) -> Evaluation:
    """Every legal card of `view` judged by its family's search on `samples` sampled deals
    (`playouts` each where the search plays several), `first` listed first (it wins ties).
    Raises ValueError for a view with no family search, InconsistentBeliefError when the view
    does not add up."""
    family, names, cards, tally, tell = _candidates(view, first)

    depth = () if family == "cancellation" else (playouts,)
    try:
        taken = _SEARCHES[family](view, cards, rng, float("inf"), samples, *depth, tell)
    except (enfle_search.UnevenViewError, domino_search.UnevenViewError) as error:
        raise InconsistentBeliefError(str(error)) from None
    return tally.evaluation(names, taken)


def evaluate_family_hindsight(
    view: SeatView,
    holdings: Sequence[Iterable[Card]],
    rest: Iterable[Card],
    rng: random.Random,
    *,
    playouts: int,
    first: str,
) -> Evaluation:
    """The hindsight of a family's play: every legal card played out `playouts` times by
    the family's own search on the real deal (`holdings`: every seat's cards now, a card
    twice when held twice; `rest`: the two-pack widow as dealt, or Domino's stock now, top
    first): the playouts the fair view runs on sampled deals (`cancellation.
    CancellationSearch.outcome`, `enfle_search.play_out_deal`, `domino_search.
    play_out_deal`). Raises ValueError for a view with no family search."""
    family, names, cards, tally, tell = _candidates(view, first)

    if family == "cancellation":
        search = cancellation.CancellationSearch(view)
        hands = [Counter(card.index for card in cards_now) for cards_now in holdings]
        widow = Counter(card.index for card in rest)
        for _ in range(playouts):
            for i, card in enumerate(cards):
                tell(i, search.outcome(hands, widow, card, rng))
        return tally.evaluation(names, 1)
    masks = [CardSet(cards_now).mask for cards_now in holdings]
    if family == "enfle":
        enfle_search.play_out_deal(view, masks, cards, rng, playouts, tell)
    else:
        stock = [card.index for card in rest]
        domino_search.play_out_deal(view, masks, stock, cards, rng, playouts, tell)
    tally.count = playouts
    return tally.evaluation(names, 1)
