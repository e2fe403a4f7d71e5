"""Choosing a pass by sampling: a few sensible candidate passes, each judged by playouts.

Before the pass a seat knows only its own cards (and a face-up kitty). For each sampled
deal of the rest, the other seats are assumed to pass their most dangerous cards
(`danger_order`, the habits of the heuristic bot), every candidate pass is applied in the
engine together with theirs (so scatter and center passes exchange exactly as in play,
and under Rickety Kate's refusal a passed QS is refused or accepted as the house bots
would: `settle_queen_offers`), and the hand is played out with the engine's playout
policy. Every candidate sees the same deals, so their differences are measured, not
drowned in the deals' own variance.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.engine import CARDS, Card, SeatView
from arena.engine.backend import core
from arena.engine.config import CoreConfig
from arena.engine.reference import mask_of

from .base import guards_queen
from .belief import SUIT_MASKS, bits

_EXTRA_CANDIDATES = 3
"""Candidates are the passes drawn from the `count + 3` most dangerous cards (20 passes of
three), plus passes that empty a short suit."""


@functools.lru_cache(maxsize=64)
def _biggest_penalty(cfg: CoreConfig) -> int:
    """The card worth most to its taker if it is worth at least 5 (the QS), else -1."""
    best = max(range(52), key=lambda c: (cfg.values[c] if cfg.deck >> c & 1 else -1, c))
    return best if cfg.values[best] >= 5 else -1


def danger_order(hand: int, cfg: CoreConfig) -> list[int]:
    """`hand`'s cards, the most dangerous to keep first: the biggest penalty card, the cards
    above it in its suit, the other penalty cards, then by rank."""
    big = _biggest_penalty(cfg)
    values = (*cfg.values, *(cfg.joker_points,) * 3)  # the jokers (004 'Joker Hearts') last

    def danger(card: int) -> tuple[int, int, int]:
        if card == big:
            tier = 3
        elif big >= 0 and card // 13 == big // 13 and card > big:
            tier = 2
        else:
            tier = 1 if values[card] > 0 else 0
        return (tier, card % 13, card)

    return sorted(bits(hand), key=danger, reverse=True)


def candidate_passes(hand: int, count: int, cfg: CoreConfig) -> list[tuple[int, ...]]:
    """Passes worth judging: combinations of the most dangerous cards, and voids."""
    order = danger_order(hand, cfg)
    top = order[: count + _EXTRA_CANDIDATES]
    candidates = [tuple(c) for c in itertools.combinations(top, count)]
    seen = {frozenset(c) for c in candidates}
    for suit in SUIT_MASKS:
        held = hand & suit
        if suit == SUIT_MASKS[3] or not held or held.bit_count() > count:
            continue
        # Empty a short side suit, filling the pass with the most dangerous other cards.
        fill = [c for c in order if not held >> c & 1][: count - held.bit_count()]
        chosen = tuple(bits(held)) + tuple(fill)
        if frozenset(chosen) not in seen:
            seen.add(frozenset(chosen))
            candidates.append(chosen)
    # In danger order, so a scatter pass sends the worst card to the seat on the left.
    rank = {card: i for i, card in enumerate(order)}
    return [tuple(sorted(c, key=rank.__getitem__)) for c in candidates]


_QUEEN_OF_SPADES = Card.from_str("QS").index


def settle_queen_offers(
    passes: dict[int, tuple[int, ...]],
    dealt: tuple[int, ...],
    offset: int,
    forbidden: int,
    cfg: CoreConfig,
) -> dict[int, tuple[int, ...]]:
    """The passes as they are given under Rickety Kate's refusal (M. Kerwin: "The
    receiving player has the right to refuse the Queen of Spades, in which case another
    card must be passed in its place"), every seat settling as the house bots do: a
    receiver refuses a QS unless it keeps enough low spades beside it (`base.guards_queen`),
    and the giver then passes its next most dangerous card (`danger_order`) instead,
    keeping the QS. A giver with no card to spare passes the QS on, as `Hand` does.
    `offset` is the pass's (receiver = giver + offset); a pass without the QS is unchanged.
    """
    settled = dict(passes)
    n = len(dealt)
    for giver, cards in passes.items():
        if _QUEEN_OF_SPADES not in cards:
            continue
        receiver = (giver + offset) % n
        if guards_queen(dealt[receiver] & ~mask_of(passes[receiver])):
            continue
        spare = danger_order(dealt[giver] & ~mask_of(cards) & ~forbidden, cfg)
        if spare:
            settled[giver] = tuple(spare[0] if c == _QUEEN_OF_SPADES else c for c in cards)
    return settled


@dataclasses.dataclass(frozen=True)
class PassDeals:
    """Deals before the pass as one seat sees them: what every sampled deal shares, and
    how one is drawn and its passes exchanged in the engine. The pass search and the
    analysis of a pass (arena.analysis.evaluator) judge candidates on the same deals."""

    cfg: CoreConfig
    me: int
    dealer: int
    kind: int | tuple[int, ...]
    hand: int
    forbidden: int
    kitty: int
    hidden_kitty: int
    others: tuple[int, ...]
    extra_card_seats: frozenset[int]
    refusal_offset: int | None
    unseen: list[int]

    @classmethod
    def of(cls, view: SeatView, count: int) -> PassDeals:
        """The deals of `view`'s seat before it passes `count` cards."""
        rules = view.rules
        cfg = rules.core_config()
        if count != cfg.pass_count:
            # 004 'Passing cards': the dealer called another count (a scatter's or a
            # star's own size is the core's, whatever pass_count says).
            cfg = cfg._replace(pass_count=count)
        n, me = rules.players, view.seat
        hand = view.hand.mask
        kitty = view.kitty.mask if view.kitty is not None else 0
        return cls(
            cfg=cfg,
            me=me,
            dealer=view.dealer,
            kind=view.core_pass_kind,
            hand=hand,
            forbidden=rules.pass_forbidden.mask,  # 004: some games never pass the high spades
            kitty=kitty,
            hidden_kitty=cfg.kitty_size - kitty.bit_count(),
            others=tuple(s for s in range(n) if s != me),
            extra_card_seats=frozenset(view.extra_card_seats),
            # Rickety Kate: a passed QS may be refused and come back (`settle_queen_offers`).
            refusal_offset=view.pass_direction.offset(n) if rules.queen_refusal else None,
            unseen=bits(cfg.deck & ~hand & ~kitty),
        )

    def sample(self, rng: random.Random) -> tuple[tuple[int, ...], int, dict[int, tuple[int, ...]]]:
        """A deal of the unseen cards (every hand, the kitty) and the other seats' passes
        (their most dangerous cards, as the house bots pass). Shuffles `unseen` in place."""
        cfg, count = self.cfg, self.cfg.pass_count
        rng.shuffle(self.unseen)
        dealt = [0] * (len(self.others) + 1)
        dealt[self.me] = self.hand
        at = 0
        for seat in self.others:
            # 002 'Alternatives to the "Kitty"': an extra-card seat was dealt one more.
            size = cfg.hand_size + (seat in self.extra_card_seats)
            for card in self.unseen[at : at + size]:
                dealt[seat] |= 1 << card
            at += size
        deal_kitty = self.kitty
        for card in self.unseen[at : at + self.hidden_kitty]:
            deal_kitty |= 1 << card
        passes = {
            seat: tuple(danger_order(dealt[seat] & ~self.forbidden, cfg)[:count])
            for seat in self.others
        }
        return tuple(dealt), deal_kitty, passes

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.others) + 1

    def exchanged(
        self,
        hands: Sequence[int],
        kitty: int,
        passes: Mapping[int, tuple[int, ...]],
        candidate: tuple[int, ...],
        seed: int,
    ) -> Any:
        """The engine's hand after every seat passed (this seat `candidate`, a QS refused
        or accepted as the house bots would), ready to be played out with `seed`."""
        given = {**passes, self.me: candidate}
        if self.refusal_offset is not None:
            given = settle_queen_offers(
                given, tuple(hands), self.refusal_offset, self.forbidden, self.cfg
            )
        state = core.HandState(self.cfg, tuple(hands), kitty, self.dealer, self.kind, seed)
        for seat in range(len(hands)):
            state.apply_pass(seat, given[seat])
        return state  # the backend's HandState (C core or reference: `backend.core`)

    def points(
        self,
        hands: Sequence[int],
        kitty: int,
        passes: Mapping[int, tuple[int, ...]],
        candidate: tuple[int, ...],
        seeds: Sequence[int],
        policy: int,
    ) -> tuple[int, int]:
        """(the seat's points, its margin: points times (n - 1) minus the others') summed
        over one playout per seed, after `candidate` is passed with the others' `passes`."""
        state = self.exchanged(hands, kitty, passes, candidate, seeds[0])
        me, n = self.me, self.players
        mine = margin = 0
        for seed in seeds:
            out = state.playout(seed, policy)
            mine += out[me]
            margin += out[me] * (n - 1) - (sum(out) - out[me])
        return mine, margin


def search_pass(
    view: SeatView,
    count: int,
    rng: random.Random,
    deadline: float,
    max_samples: int,
    policy: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[Card], int]:
    """The candidate pass with the best mean playout outcome, and the deals sampled.

    Stops at `max_samples` deals or when the next would end after `deadline`
    (a `clock` value: the wall clock unless the bot budgets CPU time, `strong.CLOCKS`);
    always samples at least one deal.
    """
    started = clock()
    deals = PassDeals.of(view, count)
    candidates = candidate_passes(deals.hand & ~deals.forbidden, count, deals.cfg)
    if len(candidates) == 1:
        return [CARDS[c] for c in candidates[0]], 0
    totals = [0] * len(candidates)
    samples = 0
    while samples < max_samples:
        hands, kitty, passes = deals.sample(rng)
        seed = rng.getrandbits(64)
        for i, candidate in enumerate(candidates):
            totals[i] += deals.points(hands, kitty, passes, candidate, (seed,), policy)[1]
        samples += 1
        now = clock()
        if now + (now - started) / samples > deadline:
            break
    best = min(range(len(candidates)), key=lambda i: totals[i])
    return [CARDS[c] for c in candidates[best]], samples
