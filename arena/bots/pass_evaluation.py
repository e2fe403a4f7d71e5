"""The expert's pass: a race among many passes, and the expected points of given passes.

`arena.bots.passing.search_pass` picks the strong bot's pass among its own candidates;
this module scores any passes a caller names (a contestant's pass, in an analysis), the
same way: each sampled deal of the unseen cards is given the other seats' passes (their
most dangerous cards, `danger_order`, as the house bots pass), each named pass is applied
in the engine with theirs (a refused ♠Q settled as the house bots settle it under Rickety
Kate, `settle_queen_offers`), and the hand is played out with the engine's playout
policy. Every pass sees the same deals and playout seeds.

`race_pass` is the expert's own pass search: more passes than the strong bot weighs (every
choice among the `count + 4` most dangerous cards, 35 passes of three, and the voids),
raced: a pass far behind the best stops, so the time goes to the passes in contention.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence

from arena.engine import CARDS, Card, SeatView
from arena.engine.config import CoreConfig

from .belief import SUIT_MASKS, bits
from .passing import PassDeals, danger_order


def wide_candidates(hand: int, count: int, cfg: CoreConfig) -> list[tuple[int, ...]]:
    """Passes worth racing: every choice among the `count + 4` most dangerous cards, and
    passes that empty one short side suit (filled with the most dangerous other cards), in
    danger order (a scatter pass sends the worst card to the left)."""
    order = danger_order(hand, cfg)
    top = order[: count + 4]
    found = {frozenset(c) for c in itertools.combinations(top, count)}
    for suit in SUIT_MASKS[:3]:
        held = hand & suit
        if not held or held.bit_count() > count:
            continue
        fill = [c for c in order if not held >> c & 1][: count - held.bit_count()]
        found.add(frozenset((*bits(held), *fill)))
    rank = {card: i for i, card in enumerate(order)}
    return sorted(
        (tuple(sorted(c, key=rank.__getitem__)) for c in found),
        key=lambda c: [rank[x] for x in c],
    )


RACE_AFTER = 12
RACE_ROUND = 6
RACE_MARGIN = 3.0
"""The pass race: after 12 deals and every 6 after, a pass whose mean margin is behind the
best's by as much as 3 points moved from the others to this seat stops. (Halving the field
every 6 deals, the first version, judged 35 passes on 6 deals, where a hand's own luck
swamps the passes' differences.)"""


def race_pass(
    view: SeatView,
    count: int,
    rng: random.Random,
    deadline: float,
    max_samples: int,
    policy: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[Card], int]:
    """The pass with the best mean margin in a race among `wide_candidates`:
    every pass still running sees the same deals; a pass far behind the best stops
    (`RACE_MARGIN`). Stops at `max_samples` deals or when the next would end after
    `deadline` (a `clock` value); returns the pass and the deals sampled."""
    started = clock()
    table = PassDeals.of(view, count)
    candidates = wide_candidates(table.hand & ~table.forbidden, count, table.cfg)
    if len(candidates) == 1:
        return [CARDS[c] for c in candidates[0]], 0
    alive = list(range(len(candidates)))
    totals = [0] * len(candidates)
    samples = 0
    while samples < max_samples:
        hands, kitty, passes = table.sample(rng)
        seeds = (rng.getrandbits(64), rng.getrandbits(64))
        for i in alive:
            totals[i] += table.points(hands, kitty, passes, candidates[i], seeds, policy)[1]
        samples += 1
        if samples >= RACE_AFTER and samples % RACE_ROUND == 0 and len(alive) > 1:
            best = min(totals[i] for i in alive)
            cut = best + RACE_MARGIN * table.players * 2 * samples  # two playouts a deal
            alive = [i for i in alive if totals[i] < cut]
        now = clock()
        if now + (now - started) / samples > deadline:
            break
    best = min(alive, key=totals.__getitem__)
    return [CARDS[c] for c in candidates[best]], samples


def evaluate_passes(
    view: SeatView,
    candidates: Sequence[tuple[int, ...]],
    rng: random.Random,
    samples: int,
    policy: int,
    playouts: int = 2,
) -> list[float]:
    """Each candidate pass's (card indices, in pass order) mean points for `view.seat`
    over `samples` sampled deals and `playouts` playouts each.

    Raises ValueError for a pass of the wrong size or of a card the seat does not hold.
    """
    hand = view.hand.mask
    count = len(candidates[0]) if candidates else 0
    for candidate in candidates:
        if len(candidate) != count or len(set(candidate)) != count:
            raise ValueError(f"passes of different sizes or repeated cards: {candidates}")
        if any(not hand >> c & 1 for c in candidate):
            raise ValueError(f"a pass of a card seat {view.seat} does not hold: {candidate}")
    table = PassDeals.of(view, count)
    totals = [0] * len(candidates)
    for _ in range(samples):
        hands, kitty, passes = table.sample(rng)
        seeds = [rng.getrandbits(64) for _ in range(playouts)]
        for i, candidate in enumerate(candidates):
            totals[i] += table.points(hands, kitty, passes, candidate, seeds, policy)[0]
    scale = 1.0 / (samples * playouts) if samples else 0.0
    return [t * scale for t in totals]
