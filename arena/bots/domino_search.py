"""The strong bot's play in Domino Hearts (000 'Domino Hearts'): sampled deals played out.

The main search (`arena.bots.belief`, the C core's playouts) assumes fixed hands and full
tricks; Domino has a stock and seats that drop out, so it searches here instead, on the
Domino core's positions (`arena.engine.variants.domino.search_position`). Each sample deals the
unseen cards to the other seats (as many as each holds: six, plus its draws, less its
plays) and to the stock in a random order, respecting the suits a seat has shown it lacks
(a seat that played off suit did so with the stock empty, so it stays void); every
candidate card is then played out on the same samples, by a greedy policy mixed with
random plays, and the card with the best mean outcome is chosen.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.engine import CARDS, Card, SeatView
from arena.engine.variants.domino import search_position

RANDOM_ODDS = 8
"""One playout decision in this many is random (the rest greedy), as the C core's 'mixed'
policy does: pure greed makes every sample play out the same way."""


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
    each outcome (every seat's points for the whole hand, the old moon applied: `final`)
    is told to `tell(candidate's place, points)`. The search of `search_domino` and the
    analysis of a Domino play (arena.analysis.families) share it. Returns the number of
    deals sampled; raises UnevenViewError when the view's card counts do not add up."""
    unseen, sizes, voids = _unknowns(view)
    if sum(sizes) + (view.stock_size or 0) != len(unseen):
        raise UnevenViewError("the Domino view's card counts do not add up")
    samples = 0
    while samples < max_samples and (samples == 0 or clock() < deadline):
        hands, stock = _sample(view, unseen, sizes, voids, rng)
        samples += 1
        play_out_deal(view, hands, stock, candidates, rng, playouts, tell)
    return samples


def play_out_deal(
    view: SeatView,
    hands: Sequence[int],
    stock: Sequence[int],
    candidates: Sequence[int],
    rng: random.Random,
    playouts: int,
    tell: Callable[[int, tuple[int, ...]], None],
) -> None:
    """Every card of `candidates` played out `playouts` times on one known deal (`hands`:
    every seat's cards now, as masks; `stock`: its card indices, top first), each outcome
    told as `play_out_candidates` tells it: a sampled deal, or the real one (the analysis'
    hindsight, arena.analysis.families)."""
    values = [view.rules.card_values.get(card, 0) for card in CARDS[:52]]
    penalty = sum(value for value in values if value > 0)
    for i, card in enumerate(candidates):
        for _ in range(playouts):
            state = search_position(
                view.rules,
                hands,
                stock,
                leader=view.current_trick[0][0] if view.current_trick else view.seat,
                broken=view.hearts_broken,
                trick=[(seat, c.index) for seat, c in view.current_trick],
            )
            state.push(card)
            _play_out(state, values, rng)
            tell(i, final(view, state, penalty))


def search_domino(
    view: SeatView,
    preferred: Card,
    rng: random.Random,
    deadline: float,
    max_samples: int,
    playouts: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Card, int]:
    """The legal card with the best mean outcome over sampled deals (`preferred` first,
    so it wins ties), and the number of deals sampled."""
    legal = list(view.legal)
    candidates = [preferred.index] + [c.index for c in legal if c is not preferred]
    if len(candidates) == 1:
        return preferred, 0
    n, me = view.rules.players, view.seat
    totals = [0] * len(candidates)

    def tell(i: int, points: tuple[int, ...]) -> None:
        # This seat's final points times (n - 1) minus everyone else's: lower is better.
        totals[i] += points[me] * (n - 1) - (sum(points) - points[me])

    try:
        samples = play_out_candidates(
            view, candidates, rng, deadline, max_samples, playouts, tell, clock
        )
    except UnevenViewError:
        return preferred, 0  # the view does not add up: our bug; play the heuristic's card
    best = min(range(len(candidates)), key=totals.__getitem__)
    return CARDS[candidates[best]], samples


def _unknowns(view: SeatView) -> tuple[list[int], list[int], list[set[int]]]:
    """The cards this seat has not seen, how many each seat holds, and the suits each seat
    is known to lack."""
    n = view.rules.players
    played_by = [0] * n
    seen = view.hand.mask
    voids: list[set[int]] = [set() for _ in range(n)]
    tricks = [trick.plays for trick in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for plays in tricks:
        led = plays[0][1].index // 13
        for seat, card in plays:
            played_by[seat] += 1
            seen |= card.mask
            if card.index // 13 != led:
                voids[seat].add(led)
    unseen = [c for c in range(52) if not seen >> c & 1]
    drawn = view.drawn or (0,) * n
    sizes = [0 if seat == view.seat else 6 + drawn[seat] - played_by[seat] for seat in range(n)]
    return unseen, sizes, voids


def _sample(
    view: SeatView,
    unseen: Sequence[int],
    sizes: Sequence[int],
    voids: Sequence[set[int]],
    rng: random.Random,
) -> tuple[list[int], list[int]]:
    """Hand masks by seat (this seat's own) and a stock order for the unseen cards."""
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [0] * view.rules.players
    hands[view.seat] = view.hand.mask
    # The most constrained seats first; a seat's void suits are kept from it when the
    # pool allows, else it gets any cards (the sample is then only less informed).
    for seat in sorted(range(len(sizes)), key=lambda s: -len(voids[s])):
        need = sizes[seat]
        if not need:
            continue
        allowed = [c for c in pool if c // 13 not in voids[seat]]
        chosen = allowed[:need] if len(allowed) >= need else pool[:need]
        for card in chosen:
            hands[seat] |= 1 << card
            pool.remove(card)
    return hands, pool


def _play_out(state: Any, values: Sequence[int], rng: random.Random) -> None:
    """Play the position to its end: duck under the card winning the trick, else win as
    low as possible (as high as possible when last to play); lead low; discard the most
    valuable card; one decision in RANDOM_ODDS at random."""
    while state.phase != 2:
        mask = state.legal_mask()
        cards = [c for c in range(52) if mask >> c & 1]
        if len(cards) == 1 or rng.randrange(RANDOM_ODDS) == 0:
            state.push(cards[rng.randrange(len(cards))])
            continue
        trick = state.current_trick()
        if not trick:
            card = min(cards, key=lambda c: (values[c] > 0, c % 13))
        else:
            led = trick[0][1] // 13
            following = [c for c in cards if c // 13 == led]
            if following:
                high = max(c for _, c in trick if c // 13 == led)
                ducks = [c for c in following if c < high]
                last = len(trick) == bin(state.active).count("1") - 1
                # Duck under the winning card; else win low, or high when last to play.
                winning = max(following) if last else min(following)
                card = max(ducks) if ducks else winning
            else:
                card = max(cards, key=lambda c: (values[c], c % 13))
        state.push(card)


def final(view: SeatView, state: Any, penalty: int) -> tuple[int, ...]:
    """Every seat's points for the whole hand: the view's before the position plus the
    position's, the old moon judged on the whole hand (the shooter 0, the others the
    `penalty`)."""
    n = view.rules.players
    future: tuple[int, ...] = state.points()
    points = [view.points_taken[s] + future[s] for s in range(n)]
    if view.rules.moon.value == "old" and penalty and penalty in points:
        shooter = points.index(penalty)
        points = [0 if s == shooter else penalty for s in range(n)]
    return tuple(points)
