"""Helpers: play hands with house bots, with a hook at every decision to inspect the truth."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from arena.bots import HouseBot
from arena.bots.base import settle_queen_refusal
from arena.engine import Hand, Rules

Hook = Callable[[Hand, int], None]


def play_hand(
    rules: Rules,
    seed: int,
    bots: Sequence[HouseBot],
    *,
    index: int = 0,
    on_decision: Hook | None = None,
) -> Hand:
    """Deal hand `index` of the rules' schedule from `seed` and play it with `bots[s]` in
    seat s, through the checked API (an illegal pass or card raises). `on_decision(hand,
    seat)` runs before every play."""
    direction = rules.pass_schedule[index % len(rules.pass_schedule)]
    hand = Hand.deal(rules, seed, dealer=index % rules.players, pass_direction=direction)
    count = rules.pass_size(direction)
    for giver in hand.passes_pending:
        hand.apply_pass(giver, bots[giver].pass_cards(hand.view(giver), count))
    settle_queen_refusal(hand, bots)  # Rickety Kate
    while hand.exposures_pending:  # Gong Zhu's exposed cards
        shower = hand.exposures_pending[0]
        hand.apply_exposure(shower, bots[shower].expose(hand.view(shower), hand.exposable(shower)))
    while not hand.is_over:
        seat = hand.to_play
        assert seat is not None
        if on_decision is not None:
            on_decision(hand, seat)
        hand.play(bots[seat].play_card(hand.view(seat)), seat=seat)
    return hand
