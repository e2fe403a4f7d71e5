"""The house bots' play in Enfle (004 'Enfle'): a habit, and sampled deals played out.

In Enfle a seat that cannot follow takes up every trick won and the trick in progress, and
the first seat out of cards wins; so a seat wants to stay able to follow (keep every suit)
and to make the others take up. `enfle_habit` is the heuristic bot's play: lead the lowest
card of the longest suit (the suit least likely to leave us void), and when following take
the trick with the highest card if we play last (the lead is ours next), else play low.

`search_enfle` is the strong bot's: the other seats' hands are unknown, but how many cards
each holds is public (`SeatView.points_taken`), and so is every card on the table (the won
piles since the last pickup and the trick in progress). Each sample deals the unseen cards
to the others by those counts (a seat never discards in Enfle, so no suit is known to be
missing), every candidate card is played out on the same samples on the Enfle core's
positions (`arena.engine.variants.enfle.search_position`) by the habit mixed with random
plays, and the card with the best mean outcome (our cards left against the others') wins.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.engine import CARDS, Card, SeatView
from arena.engine.variants.enfle import search_position

RANDOM_ODDS = 6
"""One playout decision in this many is random (the rest the habit's)."""


def enfle_habit(view: SeatView) -> Card:
    """The heuristic bot's Enfle play (the module says why)."""
    legal = list(view.legal)
    if not view.current_trick:
        held = list(view.hand)
        return min(legal, key=lambda c: (-sum(1 for h in held if h.suit is c.suit), c.rank))
    led = view.current_trick[0][1].suit
    high = max(card.rank for _, card in view.current_trick if card.suit is led)
    last = len(view.current_trick) == view.rules.players - 1
    winners = [c for c in legal if c.rank > high]
    if last and winners:
        return max(winners, key=lambda c: c.rank)
    return min(legal, key=lambda c: c.rank)


def _table(view: SeatView) -> tuple[list[int], int]:
    """Each seat's won pile (the tricks won since the last pickup) and every card on the
    table (those piles and the trick in progress), as masks."""
    n = view.rules.players
    won = [0] * n
    for trick in view.tricks:
        if trick.winner < 0:  # a pickup took everything up
            won = [0] * n
            continue
        won[trick.winner] |= trick.cards.mask
    table = 0
    for pile in won:
        table |= pile
    for _, card in view.current_trick:
        table |= card.mask
    return won, table


class UnevenViewError(ValueError):
    """A view whose card counts do not add up (our bug, never a bot's fault)."""


def play_out_candidates(
    view: SeatView,
    candidates: Sequence[int],
    rng: random.Random,
    deadline: float,
    max_samples: int,
    playouts: int,
    tell: Callable[[int, tuple[int, ...]], None],
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """Every card of `candidates` (indices) played out `playouts` times on the same sampled
    deals, until `max_samples` deals or the `clock` passes `deadline` (one deal at least);
    each outcome (every seat's points) is told to `tell(candidate's place, points)`. The
    search of `search_enfle` and the analysis of an Enfle play (arena.analysis.families)
    share it. Returns the number of deals sampled; raises UnevenViewError when the view's
    card counts do not add up."""
    n = view.rules.players
    won, table = _table(view)
    unseen = [c.index for c in view.rules.deck if not (table | view.hand.mask) & c.mask]
    sizes = [0 if s == view.seat else view.points_taken[s] for s in range(n)]
    if sum(sizes) != len(unseen) or len(view.hand) != view.points_taken[view.seat]:
        raise UnevenViewError("the Enfle view's card counts do not add up")
    samples = 0
    while samples < max_samples and (samples == 0 or clock() < deadline):
        hands = _sample(view, unseen, sizes, rng)
        samples += 1
        _play_out_deal(view, hands, won, candidates, rng, playouts, tell)
    return samples


def play_out_deal(
    view: SeatView,
    hands: Sequence[int],
    candidates: Sequence[int],
    rng: random.Random,
    playouts: int,
    tell: Callable[[int, tuple[int, ...]], None],
) -> None:
    """Every card of `candidates` played out `playouts` times on one known deal (`hands`:
    every seat's cards now, as masks), each outcome told as `play_out_candidates` tells
    it: the same playouts on the real deal (the analysis' hindsight,
    arena.analysis.families)."""
    won, _ = _table(view)
    _play_out_deal(view, hands, won, candidates, rng, playouts, tell)


def _play_out_deal(
    view: SeatView,
    hands: Sequence[int],
    won: Sequence[int],
    candidates: Sequence[int],
    rng: random.Random,
    playouts: int,
    tell: Callable[[int, tuple[int, ...]], None],
) -> None:
    leader = view.current_trick[0][0] if view.current_trick else view.seat
    trick = [card.index for _, card in view.current_trick]
    for i, card in enumerate(candidates):
        for _ in range(playouts):
            state = search_position(view.rules, hands, won, leader=leader, trick=trick)
            state.push(card)
            _play_out(state, rng)
            tell(i, tuple(state.points()))


def search_enfle(
    view: SeatView,
    preferred: Card,
    rng: random.Random,
    deadline: float,
    max_samples: int,
    playouts: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Card, int]:
    """The legal card with the best mean outcome over sampled deals (`preferred` first, so
    it wins ties), and the number of deals sampled."""
    legal = list(view.legal)
    candidates = [preferred.index] + [c.index for c in legal if c is not preferred]
    if len(candidates) == 1:
        return preferred, 0
    n, me = view.rules.players, view.seat
    totals = [0.0] * len(candidates)

    def tell(i: int, points: tuple[int, ...]) -> None:
        totals[i] += points[me] - sum(points) / n

    try:
        samples = play_out_candidates(
            view, candidates, rng, deadline, max_samples, playouts, tell, clock
        )
    except UnevenViewError:
        return preferred, 0  # the view does not add up: our bug; play the habit's card
    best = min(range(len(candidates)), key=totals.__getitem__)
    return CARDS[candidates[best]], samples


def _sample(
    view: SeatView, unseen: Sequence[int], sizes: Sequence[int], rng: random.Random
) -> list[int]:
    """Hand masks by seat: ours, and the unseen cards dealt to the others by their counts."""
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [0] * view.rules.players
    hands[view.seat] = view.hand.mask
    at = 0
    for seat, need in enumerate(sizes):
        for card in pool[at : at + need]:
            hands[seat] |= 1 << card
        at += need
    return hands


def _play_out(state: Any, rng: random.Random) -> None:
    """Play the position to its end by the habit (on card indices), one decision in
    RANDOM_ODDS at random."""
    players = state.players
    while state.phase != 2:
        mask = state.legal_mask()
        cards = [c for c in range(52) if mask >> c & 1]
        if len(cards) == 1 or rng.randrange(RANDOM_ODDS) == 0:
            state.push(cards[rng.randrange(len(cards))])
            continue
        trick = state.current_trick()
        if not trick:
            held = state.hand(state.to_play)
            length = [bin(held >> (13 * s) & 0x1FFF).count("1") for s in range(4)]
            state.push(min(cards, key=lambda c: (-length[c // 13], c)))
            continue
        led = trick[0][1] // 13
        high = max(c for _, c in trick if c // 13 == led)
        winners = [c for c in cards if c > high]
        if len(trick) == players - 1 and winners:
            state.push(max(winners))
        else:
            state.push(min(cards))
