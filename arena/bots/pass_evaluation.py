"""Expected points of given passes, by sampled deals and playouts (the expert's evaluation).

`arena.bots.passing.search_pass` picks the strong bot's pass among its own candidates;
this module scores any passes a caller names (a contestant's pass, in an analysis), the
same way: each sampled deal of the unseen cards is given the other seats' passes (their
most dangerous cards, `danger_order`, as the house bots pass), each named pass is applied
in the engine with theirs (a refused ♠Q settled as the house bots settle it under Rickety
Kate, `settle_queen_offers`), and the hand is played out with the engine's playout
policy. Every pass sees the same deals and playout seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.engine import SeatView
from arena.engine.backend import core

from .belief import bits
from .passing import danger_order, settle_queen_offers


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
    rules = view.rules
    cfg = rules.core_config()
    hand = view.hand.mask
    count = len(candidates[0]) if candidates else 0
    for candidate in candidates:
        if len(candidate) != count or len(set(candidate)) != count:
            raise ValueError(f"passes of different sizes or repeated cards: {candidates}")
        if any(not hand >> c & 1 for c in candidate):
            raise ValueError(f"a pass of a card seat {view.seat} does not hold: {candidate}")
    if count != cfg.pass_count:
        cfg = cfg._replace(pass_count=count)
    n, me, dealer = rules.players, view.seat, view.dealer
    kind = view.core_pass_kind
    forbidden = rules.pass_forbidden.mask
    kitty = view.kitty.mask if view.kitty is not None else 0
    unseen = bits(cfg.deck & ~hand & ~kitty)
    hidden_kitty = cfg.kitty_size - kitty.bit_count()
    others = [s for s in range(n) if s != me]
    refusal_offset = view.pass_direction.offset(n) if rules.queen_refusal else None
    totals = [0] * len(candidates)
    for _ in range(samples):
        rng.shuffle(unseen)
        dealt = [0] * n
        dealt[me] = hand
        at = 0
        for seat in others:
            size = cfg.hand_size + (seat in view.extra_card_seats)
            for card in unseen[at : at + size]:
                dealt[seat] |= 1 << card
            at += size
        deal_kitty = kitty
        for card in unseen[at : at + hidden_kitty]:
            deal_kitty |= 1 << card
        hands = tuple(dealt)
        passes = {
            seat: tuple(danger_order(dealt[seat] & ~forbidden, cfg)[:count]) for seat in others
        }
        seeds = [rng.getrandbits(64) for _ in range(playouts)]
        for i, candidate in enumerate(candidates):
            given = {**passes, me: candidate}
            if refusal_offset is not None:
                given = settle_queen_offers(given, hands, refusal_offset, forbidden, cfg)
            state = core.HandState(cfg, hands, deal_kitty, dealer, kind, seeds[0])
            for seat in range(n):
                state.apply_pass(seat, given[seat])
            for seed in seeds:
                totals[i] += state.playout(seed, policy)[me]
    scale = 1.0 / (samples * playouts) if samples else 0.0
    return [t * scale for t in totals]
