"""How likely a sampled deal makes the plays and the pass a seat has seen (the expert's model).

The strong bot samples deals uniformly among those that fit the facts (`Belief`). The
plays say more than the facts: a seat that follows with the ♠9 under the ♠K probably
holds no ♠10–♠Q (it would have ducked with the highest card that loses), a seat that
dumps the ♦A on a club trick probably holds neither the ♠Q nor a heart (it would have
dumped the card that hurts most), and a seat that passed the ♠A and ♠K probably kept no
♠Q. `PlayModel` scores a sampled deal by the likelihood of every play seen so far under a
model of how the other seats play: each seat plays the heuristic bot's card (the engine's
greedy playout policy, `greedy_card` in arena/engine/_core/hearts.c: duck with the
highest card that loses, win as last to play with the highest safe card, dump the card
worth most, lead the lowest card worth nothing) with probability 1 − ε, and a uniformly
random legal card with probability ε:

    P(card | holding) = (1 − ε)·[card is the greedy card] + ε / |legal cards|

A sampled deal's weight is the product over every play of the other seats (forced plays
and the seat's own plays carry no information), times δ per dangerous card (the ♠Q, the
♠A, ♠K and the top hearts) that the seat that passed to this one kept while passing only
cards less dangerous (`arena.bots.passing.danger_order`, how the house bots pass).

The seat's holding at a past play is its sampled cards now plus every card it played from
that play on, so the model needs no replay of the hand: a handful of integer operations per
play, on the masks of `arena.bots.belief`. ε by kind of play (lead, follow, dump) were
calibrated on the strong bot's own games (`arena bench expert-model`, docs/bots.md).
"""

from __future__ import annotations

import dataclasses

from arena.engine import SeatView
from arena.engine.config import PASS_CENTER, PASS_HOLD, PASS_SCATTER, PASS_STAR, CoreConfig

from .belief import QUEEN_OF_SPADES, SUIT_MASKS, RuleMasks, bits
from .passing import danger_order

LEAD, FOLLOW, DUMP = 0, 1, 2
"""Kinds of play, each with its own ε."""

RANK_MASKS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""Every card of one rank (index 0: the twos)."""

DEFAULT_EPSILON = (0.75, 0.4, 0.35)
"""ε for a lead, a follow and a dump: the chance the model gives a non-greedy card."""
DEFAULT_PASS_DELTA = 0.1
"""The factor per dangerous card the passer kept while passing less dangerous cards."""

_DANGEROUS = (1 << QUEEN_OF_SPADES | 1 << (QUEEN_OF_SPADES + 1) | 1 << (QUEEN_OF_SPADES + 2)) | (
    0b1111 << 48
)
"""The ♠Q, ♠K, ♠A and the ♥J–♥A: the cards a pass signal is read for."""


def _lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask, the lowest index among equals."""
    for rank_mask in RANK_MASKS:
        hit = mask & rank_mask
        if hit:
            return (hit & -hit).bit_length() - 1
    raise ValueError("no card in an empty mask")


def dump_groups(cfg: CoreConfig) -> tuple[int, ...]:
    """The deck's cards in the greedy dump order as masks of equals, most wanted first: by
    (max(value, 0), rank), the highest index breaking ties (the C core's key)."""
    keyed: dict[tuple[int, int], int] = {}
    for card in bits(cfg.deck & ((1 << 52) - 1)):
        key = (max(cfg.values[card], 0), card % 13)
        keyed[key] = keyed.get(key, 0) | 1 << card
    return tuple(keyed[key] for key in sorted(keyed, reverse=True))


@dataclasses.dataclass(frozen=True, slots=True)
class PlayModel:
    """The plays of the other seats, ready to be scored against sampled deals."""

    events: tuple[tuple[int, int, int, int, int, int, int], ...]
    """Per informative play: (seat, card mask, kind, suit mask or legal filter, cards
    below the trick's best, last to play (0/1), cards the seat played from then on)."""
    penalty: int
    point: int
    lead_ban: int
    groups: tuple[int, ...]
    epsilon: tuple[float, float, float]
    passer: int
    """The seat whose pass this seat received, or -1 when a pass says nothing usable."""
    pass_kept: int
    """Dangerous cards more dangerous than anything the passer gave (see `pass_factor`)."""
    pass_given: int
    pass_delta: float

    @classmethod
    def from_view(
        cls,
        view: SeatView,
        epsilon: tuple[float, float, float] = DEFAULT_EPSILON,
        pass_delta: float = DEFAULT_PASS_DELTA,
    ) -> PlayModel:
        """The model of `view`'s hand so far (one-pack, one-trick-at-a-time games)."""
        cfg = view.play_config()
        masks = RuleMasks.of(cfg)
        n, me = cfg.players, view.seat
        tricks = [(t.plays, i) for i, t in enumerate(view.tricks)]
        if view.current_trick:
            tricks.append((view.current_trick, len(view.tricks)))
        plays = [(seat, card.index) for trick, _ in tricks for seat, card in trick]
        # rest[i]: the cards plays[i]'s seat played at play i or later
        rest = [0] * len(plays)
        later = [0] * n
        for i in range(len(plays) - 1, -1, -1):
            seat, card = plays[i]
            later[seat] |= 1 << card
            rest[i] = later[seat]
        events = []
        broken = False
        at = 0
        plain = not masks.jokers and not masks.booster and not view.extra_card_seats
        for trick, number in tricks:
            led = -1
            best = -1
            for position, (seat, card_obj) in enumerate(trick):
                card = card_obj.index
                bit = 1 << card
                index = at
                at += 1
                if plain and seat != me:
                    if position == 0:
                        ban = masks.lead_ban if not broken else 0
                        events.append((seat, bit, LEAD, ban, 0, 0, rest[index]))
                    elif card // 13 == led:
                        under = (1 << best) - 1 & SUIT_MASKS[led]
                        last = int(position == len(trick) - 1 and position == n - 1)
                        events.append(
                            (seat, bit, FOLLOW, SUIT_MASKS[led], under, last, rest[index])
                        )
                    else:
                        ban = masks.first_ban if number == 0 else 0
                        events.append((seat, bit, DUMP, ban, 0, 0, rest[index]))
                if position == 0:
                    led, best = card // 13, card
                elif card // 13 == led and card > best:
                    best = card
                if bit & masks.breaking:
                    broken = True
        passer, kept, given = _pass_signal(view, cfg)
        return cls(
            tuple(events),
            masks.penalty,
            masks.point,
            masks.lead_ban,
            dump_groups(cfg),
            epsilon,
            passer,
            kept,
            given,
            pass_delta,
        )

    def greedy(self, event: tuple[int, ...], deal: tuple[int, ...]) -> tuple[int, int]:
        """(the greedy card's mask, the legal cards) of one play `event` under `deal`."""
        seat, _, kind, filt, under, last, rest = event
        holding = deal[seat] | rest
        if kind == FOLLOW:
            legal = holding & filt
            below = legal & under
            if below:
                return 1 << (below.bit_length() - 1), legal
            safe = legal & ~self.penalty or legal
            return (1 << (safe.bit_length() - 1) if last else safe & -safe), legal
        legal = holding & ~filt or holding
        if kind == DUMP:
            for group in self.groups:
                hit = legal & group
                if hit:
                    return 1 << (hit.bit_length() - 1), legal
            return 0, legal
        calm = legal & ~self.point
        return 1 << _lowest_rank(calm or legal), legal

    def weight(self, deal: tuple[int, ...]) -> float:
        """The likelihood of the plays and the pass seen, if `deal` (each holder's cards now,
        as `Belief.sample` gives them) is the truth, up to a constant factor."""
        epsilon, greedy = self.epsilon, self.greedy
        w = 1.0
        for event in self.events:
            chosen, legal = greedy(event, deal)
            eps = epsilon[event[2]]
            p = eps / legal.bit_count()
            if chosen == event[1]:
                p += 1.0 - eps
            w *= p
        if self.passer >= 0:
            w *= self.pass_factor(deal)
        return w

    def pass_factor(self, deal: tuple[int, ...]) -> float:
        """δ per dangerous card the passer holds (or played) that is more dangerous than
        every card it passed this seat: the house bots pass their most dangerous cards."""
        kept = (deal[self.passer] & self.pass_kept).bit_count()
        return self.pass_delta**kept if kept else 1.0


def _pass_signal(view: SeatView, cfg: CoreConfig) -> tuple[int, int, int]:
    """(passer, dangerous cards it would have passed before any it gave, the cards given),
    or (-1, 0, 0) when this seat received no directional pass from one seat."""
    n = cfg.players
    if not view.received or view.pass_split or cfg.kitty_size:
        return -1, 0, 0
    kind = view.core_pass_kind
    if not isinstance(kind, int) or kind in (PASS_HOLD, PASS_CENTER, PASS_SCATTER, PASS_STAR):
        return -1, 0, 0
    passer = (view.seat - kind) % n
    given = sum(card.mask for card in view.received)
    order = danger_order(cfg.deck & ((1 << 52) - 1), cfg)
    rank = {index: i for i, index in enumerate(order)}  # 0: the most dangerous
    most_given = min(rank[index] for index in bits(given))
    kept = 0
    for index in order[:most_given]:
        if 1 << index & _DANGEROUS:
            kept |= 1 << index
    # Cards this seat passed to the passer are there by this seat's hand, not the passer's.
    if (view.seat + kind) % n == passer:
        kept &= ~sum(card.mask for card in view.passed)
    return passer, kept & ~given, given
