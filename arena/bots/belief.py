"""What one seat can infer about the cards it cannot see, and deals sampled consistently with it.

A search bot imagines the hidden hands many times over (a determinization per sample) and
plays each imagined hand out. Each imagined deal must be one the seat could be facing:

- the seat's own cards, every card already played, and a visible kitty are fixed;
- the cards this seat passed are still held by the seat they went to, unless played since
  (a center pass hides where they went, but not that they are in someone's hand);
- every other seat holds exactly as many cards as it has left;
- a seat that did not follow suit holds none of the suit led, and the rules' other filters
  reveal more: a heart led before hearts were broken means the leader held nothing else,
  and a point card played on the first trick means its player had no other legal card.

Cards are engine indices and sets are int masks (the backend contract's form), because a
bot samples hundreds of deals per decision. The `Belief` is built once per decision from
the `SeatView`; `sample` then costs a few microseconds.
"""

from __future__ import annotations

import array
import dataclasses
import functools
import random

from arena.engine import Card, SeatView
from arena.engine.config import (
    BROKEN_BY_HEARTS,
    BROKEN_BY_HEARTS_OR_QUEEN,
    BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED,
    FIRST_TRICK_ANY,
    FIRST_TRICK_NO_PENALTY,
    JOKER_HEART,
    JOKERS_MASK,
    LEAD_ANY,
    LEAD_NOT_HEARTS,
    OPENING_ANY_CLUB,
    OPENING_LEFT_OF_DEALER,
    OPENING_LOWEST_CLUB,
    OPENING_LOWEST_SPADE,
    PASS_CENTER,
    PASS_HOLD,
    PASS_SCATTER,
    PASS_STAR,
    CoreConfig,
)

SUIT_MASKS = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
HEARTS = SUIT_MASKS[3]
CLUBS = SUIT_MASKS[0]
SPADES = SUIT_MASKS[2]
QUEEN_OF_SPADES = 36
HIGH_HEARTS = 0b1111 << 48  # JH QH KH AH: what lets the 1911 joker go (004 'Joker Hearts')
_QS = 1 << QUEEN_OF_SPADES
_KS_AS = 0b11 << 37  # KS AS: a chance to get rid of the QS (001 'VARIATION 1: BLACK MARIAH')
_GREEDY_ATTEMPTS = 24


class InconsistentBeliefError(ValueError):
    """No deal fits what the seat has seen (a bug in the inference, never a bot's fault)."""


_BYTE_BITS = tuple(
    tuple(tuple(8 * byte + i for i in range(8) if value >> i & 1) for value in range(256))
    for byte in range(7)
)


def bits(mask: int) -> list[int]:
    """The card indices in `mask`, lowest first.

    >>> bits(0b1011 | 1 << 51)
    [0, 1, 3, 51]
    """
    table = _BYTE_BITS
    return [
        *table[0][mask & 255],
        *table[1][mask >> 8 & 255],
        *table[2][mask >> 16 & 255],
        *table[3][mask >> 24 & 255],
        *table[4][mask >> 32 & 255],
        *table[5][mask >> 40 & 255],
        *table[6][mask >> 48 & 255],
    ]


@dataclasses.dataclass(frozen=True, slots=True)
class RuleMasks:
    """The rule sets the inference reads, derived from a `CoreConfig` as the contract does."""

    penalty: int
    point: int
    first_ban: int
    lead_ban: int
    breaking: int
    lead_escape: int
    opening: int
    jokers: int = 0
    """The jokers in play (004 'Joker Hearts'): no inference is drawn from playing one."""
    heart_joker: bool = False
    """The 1911 joker, a heart: a trick led with it is a heart trick."""
    booster: bool = False
    """Booster Nines: a lead may be forced, so a banned lead proves nothing."""
    queen_first: bool = False
    """001 'VARIATION 1: BLACK MARIAH': another card played where the QS was a chance
    proves the seat held no QS."""
    queen_discard: int = 0
    """000 'The Play' (`broken_by` 'hearts_or_queen_discarded'): the QS, which breaks only
    when played to a trick whose suit is not spades (0 under the other rules)."""
    exposed: int = 0
    """Gong Zhu's exposed cards (`CoreConfig.exposed`): one played to the first trick of
    its suit (led or followed) was its holder's only card of that suit."""

    @classmethod
    def of(cls, cfg: CoreConfig) -> RuleMasks:
        """Derive the masks (contract "Derived masks" and "Legal plays"), once per config."""
        return _rule_masks(cfg)

    @classmethod
    def _derive(cls, cfg: CoreConfig) -> RuleMasks:
        deck = cfg.deck
        values = (*cfg.values, *(cfg.joker_points,) * 3)
        penalty = sum(1 << c for c in range(55) if deck >> c & 1 and values[c] > 0)
        point = sum(1 << c for c in range(55) if deck >> c & 1 and values[c] != 0)
        jokers = deck & JOKERS_MASK
        hearts = HEARTS & deck | (jokers if cfg.joker_kind == JOKER_HEART else 0)
        first_ban = (
            0
            if cfg.first_trick == FIRST_TRICK_ANY
            else penalty
            if cfg.first_trick == FIRST_TRICK_NO_PENALTY
            else point
        )
        lead_ban = (
            0
            if cfg.lead_rule == LEAD_ANY
            else hearts
            if cfg.lead_rule == LEAD_NOT_HEARTS
            else point
        )
        queen = deck & (1 << QUEEN_OF_SPADES)
        breaking = (
            hearts
            if cfg.broken_by in (BROKEN_BY_HEARTS, BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED)
            else hearts | queen
            if cfg.broken_by == BROKEN_BY_HEARTS_OR_QUEEN
            else point
        )
        # A leader holding only hearts and the QS may lead a heart (002 'Play variants').
        lead_escape = hearts | queen if cfg.queen_hearts_lead else 0
        return cls(
            penalty,
            point,
            first_ban,
            lead_ban,
            breaking,
            lead_escape,
            cfg.opening,
            jokers,
            cfg.joker_kind == JOKER_HEART,
            bool(cfg.booster_nines),
            bool(cfg.queen_at_first_chance),
            queen if cfg.broken_by == BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED else 0,
            cfg.exposed,
        )


@functools.lru_cache(maxsize=64)
def _rule_masks(cfg: CoreConfig) -> RuleMasks:
    return RuleMasks._derive(cfg)


@dataclasses.dataclass(frozen=True, slots=True)
class Belief:
    """Where the unseen cards may be, from one seat's point of view.

    Index `players` of `need`, `known` and `allowed` is the kitty (treated as one more
    holder that never plays).
    """

    seat: int
    players: int
    history: tuple[int, ...]
    """Every card played this hand, in order (finished tricks, then the current one)."""
    played: tuple[int, ...]
    """Per seat: the cards it has played this hand."""
    need: tuple[int, ...]
    """Per holder: how many cards it holds now."""
    known: tuple[int, ...]
    """Per holder: cards it certainly holds now (the seat's own hand; passed cards)."""
    allowed: tuple[int, ...]
    """Per holder: every card it may hold now (known cards included)."""
    unseen: int
    """The cards to share out: not in `known` of anyone and not played."""

    @classmethod
    def from_view(cls, view: SeatView) -> Belief:
        """Everything `view` reveals about the other hands (and a hidden kitty)."""
        cfg = view.play_config()  # Gong Zhu's exposed cards included
        masks = RuleMasks.of(cfg)
        n, me, deck = cfg.players, view.seat, cfg.deck
        plays: list[tuple[int, int]] = []
        for trick in view.tricks:
            plays.extend((seat, card.index) for seat, card in trick.plays)
        plays.extend((seat, card.index) for seat, card in view.current_trick)
        played = [0] * n
        for seat, card in plays:
            played[seat] |= 1 << card
        played_all = 0
        for mask in played:
            played_all |= mask
        # 002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra
        # cards to players": each seat of `extra_card_seats` was dealt one card more.
        extra = view.extra_card_seats
        need = [
            cfg.hand_size + (seat in extra) - mask.bit_count() for seat, mask in enumerate(played)
        ] + [cfg.kitty_size]
        known = [0] * (n + 1)
        allowed = [deck & ~played_all] * (n + 1)
        known[me] = allowed[me] = view.hand.mask
        need[me] = len(view.hand)
        if view.kitty is not None:
            known[n] = allowed[n] = view.kitty.mask
        _infer_from_passes(view, n, played_all, known, allowed)
        _infer_from_refusal(view, n, played_all, known, allowed)
        _infer_from_reveals(view, n, played_all, known, allowed)
        _infer_from_exposures(view, n, played_all, known, allowed)
        _infer_opener(view, masks, played_all | known[me], known)
        _infer_from_play(plays, n, masks, allowed, n + len(extra))
        unseen = deck & ~played_all
        for mask in known:
            unseen &= ~mask
        for holder in range(n + 1):
            allowed[holder] = (allowed[holder] & unseen) | known[holder]
        return cls(
            me,
            n,
            tuple(c for _, c in plays),
            tuple(played),
            tuple(need),
            tuple(known),
            tuple(allowed),
            unseen,
        )

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One deal of the unseen cards: each holder's cards now (kitty last).

        Raises InconsistentBeliefError when no deal fits (which the inference never
        allows for a real hand).
        """
        for _ in range(_GREEDY_ATTEMPTS):
            deal = self._sample_greedy(rng)
            if deal is not None:
                return deal
        return self._sample_matching(rng)

    def _open_holders(self) -> list[tuple[int, int]]:
        """(holder, cards still to receive) for every holder short of cards."""
        return [
            (holder, self.need[holder] - self.known[holder].bit_count())
            for holder in range(self.players + 1)
            if self.need[holder] > self.known[holder].bit_count()
        ]

    def _sample_greedy(self, rng: random.Random) -> tuple[int, ...] | None:
        """Fill the most constrained holder first with a uniform choice from what it may
        hold; exact when at most one holder is constrained, and fast. None on a dead end.

        A holder first takes the cards no other open holder may hold, and a choice that
        would leave the others unable to fill their hands (Hall's condition) is drawn
        again, so dead ends are rare even when several seats have shown voids.

        Why random keys: one C-level sort of the unseen cards by random 16-bit keys is a
        random order, and the first cards of it that a holder may hold are a uniform
        choice; far cheaper than `random.sample` per holder.
        """
        # A key per card index: 52, or 55 with jokers (004 'Joker Hearts'); without jokers
        # the stream is what it always was.
        keys = array.array("H", rng.randbytes(110 if self.unseen >> 52 else 104))
        order = sorted(bits(self.unseen), key=keys.__getitem__)
        deal = list(self.known)
        left = self.unseen
        open_holders = self._open_holders()
        allowed = self.allowed
        while open_holders:
            best = 0
            best_slack = 99
            for i, (holder, count) in enumerate(open_holders):
                slack = (allowed[holder] & left).bit_count() - count
                if slack < best_slack:
                    best, best_slack = i, slack
            if best_slack < 0:
                return None
            holder, count = open_holders.pop(best)
            room = allowed[holder] & left
            if best_slack == 0:
                taken: int | None = room
            elif open_holders:
                taken = _choose(room, count, order, open_holders, allowed, left, rng)
            else:
                taken = None  # the last holder has exactly what is left, or the counts are off
            if taken is None:
                return None
            deal[holder] |= taken
            left &= ~taken
        return tuple(deal)

    def _sample_matching(self, rng: random.Random) -> tuple[int, ...]:
        """A random complete matching of unseen cards to open places (augmenting paths):
        slower, but finds a deal whenever one exists."""
        places = [holder for holder, count in self._open_holders() for _ in range(count)]
        cards = bits(self.unseen)
        rng.shuffle(cards)
        rng.shuffle(places)
        owner: list[int | None] = [None] * len(places)  # place -> card

        def augment(card: int, seen: set[int]) -> bool:
            for p, holder in enumerate(places):
                if p in seen or not self.allowed[holder] >> card & 1:
                    continue
                seen.add(p)
                current = owner[p]
                if current is None or augment(current, seen):
                    owner[p] = card
                    return True
            return False

        for card in cards:
            if not augment(card, set()):
                raise InconsistentBeliefError(
                    f"seat {self.seat}: no deal places card {card} consistently"
                )
        deal = list(self.known)
        for p, placed in enumerate(owner):
            assert placed is not None  # every place was filled: as many places as cards
            deal[places[p]] |= 1 << placed
        return tuple(deal)


_REDRAWS = 4


def _choose(
    room: int,
    count: int,
    order: list[int],
    others: list[tuple[int, int]],
    allowed: tuple[int, ...],
    left: int,
    rng: random.Random,
) -> int | None:
    """`count` cards from `room` for one holder: those only it may hold, then the first
    others in the random `order`, redrawn while the `others` could not be filled."""
    elsewhere = 0
    for holder, _ in others:
        elsewhere |= allowed[holder]
    forced = room & ~elsewhere
    free = count - forced.bit_count()
    if free < 0:
        return None
    pool = [c for c in order if (room & ~forced) >> c & 1]
    for attempt in range(_REDRAWS):
        taken = forced
        for card in pool[:free] if attempt == 0 else rng.sample(pool, free):
            taken |= 1 << card
        if _fillable(others, allowed, left & ~taken):
            return taken
    return None


def _fillable(holders: list[tuple[int, int]], allowed: tuple[int, ...], left: int) -> bool:
    """Hall's condition: every group of holders may hold at least as many of the cards
    `left` as the group still needs."""
    k = len(holders)
    for group in range(1, 1 << k):
        union = need = 0
        for i in range(k):
            if group >> i & 1:
                holder, count = holders[i]
                union |= allowed[holder]
                need += count
        if (union & left).bit_count() < need:
            return False
    return True


def _infer_from_reveals(
    view: SeatView, n: int, played_all: int, known: list[int], allowed: list[int]
) -> None:
    """Heartless (003): a card shown face up went back to its holder's hand, so it is
    there until played."""
    for holder, card in enumerate(view.reveals):
        if card is None or holder == view.seat or played_all & card.mask:
            continue
        known[holder] |= card.mask
        for other in range(n + 1):
            if other != holder:
                allowed[other] &= ~card.mask


def _infer_from_refusal(
    view: SeatView, n: int, played_all: int, known: list[int], allowed: list[int]
) -> None:
    """Rickety Kate: a seat that refused the QS passed to it knows its giver kept it (until
    played)."""
    offer = view.queen_offer
    if offer is None or not view.queen_refused or view.seat != offer[1]:
        return
    queen = Card.from_str("QS").mask
    if played_all & queen:
        return
    giver = offer[0]
    known[giver] |= queen
    for holder in range(n + 1):
        if holder != giver:
            allowed[holder] &= ~queen


def _infer_from_passes(
    view: SeatView, n: int, played_all: int, known: list[int], allowed: list[int]
) -> None:
    """The cards this seat passed are held by their receivers until played."""
    if not view.passed:
        return
    kind = view.pass_direction.core_kind(n)
    me = view.seat
    if kind == PASS_HOLD:
        return
    if kind == PASS_CENTER:
        # Pooled and redealt: each is in some hand (or this seat's own), never the kitty.
        for card in view.passed:
            allowed[n] &= ~card.mask
        return
    for i, card in enumerate(view.passed):
        if view.pass_split:  # 003's split call: card i went pass_split[i]
            target = (me + view.pass_split[i].core_kind(n)) % n
        elif kind == PASS_SCATTER:
            target = (me + 1 + i) % n
        elif kind == PASS_STAR:  # card 0 to the seat n // 2 along, card 1 to (n + 1) // 2
            target = (me + (n + i) // 2) % n
        else:
            target = (me + kind) % n
        if not played_all & card.mask:
            known[target] |= card.mask
            for holder in range(n + 1):
                if holder != target:
                    allowed[holder] &= ~card.mask


def _infer_from_exposures(
    view: SeatView, n: int, played_all: int, known: list[int], allowed: list[int]
) -> None:
    """Gong Zhu: an exposed card lies face up in its holder's hand ("exposed by their
    holders before the start of play") until played."""
    for holder, cards in enumerate(view.exposed):
        if not cards or holder == view.seat:
            continue
        shown = cards.mask & ~played_all
        known[holder] |= shown
        for other in range(n + 1):
            if other != holder:
                allowed[other] &= ~shown


def _infer_opener(view: SeatView, masks: RuleMasks, seen: int, known: list[int]) -> None:
    """Before the opening lead, the seat to play holds the lowest club in any hand (the
    lowest spade under opening 'lowest_spade': 003 'HEARTLESS', Gong Zhu's 2S).

    With no hidden kitty that is the lowest club this seat cannot see; with a hidden kitty
    it might be any club the kitty does not hold, which one mask cannot say, so nothing
    is inferred then (the fact is settled anyway as soon as the club is played).
    """
    if (
        view.tricks
        or view.current_trick
        or view.to_play is None
        or view.to_play == view.seat
        or masks.opening == OPENING_LEFT_OF_DEALER
        or (view.rules.kitty_size and view.kitty is None)
    ):
        return
    suit = SPADES if masks.opening == OPENING_LOWEST_SPADE else CLUBS
    clubs = view.rules.deck.mask & suit & ~seen
    if view.kitty is not None:
        clubs &= ~view.kitty.mask
    if clubs:
        known[view.to_play] |= clubs & -clubs


def _infer_from_play(
    plays: list[tuple[int, int]],
    n: int,
    masks: RuleMasks,
    allowed: list[int],
    first_size: int | None = None,
) -> None:
    """Voids and the narrower facts the rules' filters reveal, trick by trick.

    Each fact says a seat's hand *at that moment* lay inside some set; its hand now is a
    subset of that hand, so the fact still holds. The first trick holds `first_size`
    cards (more than `n` under 002's extra cards, 'Alternatives to the "Kitty" in 3 or 5
    player games': the extra-card seats play again after the round), every other `n`.
    """
    first_size = n if first_size is None else first_size
    broken = False
    led = in_trick = obliged = 0
    led_suit = -1
    done = 0  # Gong Zhu's exposed cards: the suits of the finished tricks
    # The suits as the rules see them: the 1911 joker is a heart (004 'Joker Hearts').
    suits = list(SUIT_MASKS)
    if masks.heart_joker:
        suits[3] |= masks.jokers
    for i, (seat, card) in enumerate(plays):
        if i < first_size:
            trick, position = 0, i
        else:
            trick, position = divmod(i - first_size, n)
            trick += 1
        first = trick == 0
        bit = 1 << card
        if position == 0:
            if led_suit >= 0:
                done |= 1 << led_suit
            # Booster Nines (004 'Other Variations'): the last trick's nine of its led suit
            # obliged this leader to lead that suit if he held one.
            nine = 1 << (13 * led_suit + 7) if led_suit >= 0 else 0
            obliged = suits[led_suit] if masks.booster and in_trick & nine else 0
            led, led_suit, in_trick = 0, -1, 0
        before, in_trick = in_trick, in_trick | bit
        if bit & masks.jokers:
            # A wild joker proves nothing: it goes "any time". A trick led with the 1911
            # joker is a heart trick; one led with a wild joker takes the suit of its first
            # suited card. The 1911 joker played to a trick without the JH, QH, KH or AH was
            # the seat's only legal card: it held no other heart (nor, on another suit's
            # lead, any card of that suit).
            if masks.heart_joker:
                if position == 0:
                    led, led_suit = suits[3], 3
                    if obliged and not bit & obliged:
                        allowed[seat] &= ~obliged
                if not before & HIGH_HEARTS:
                    allowed[seat] &= ~(SUIT_MASKS[3] | (led if position else 0))
            if bit & masks.breaking:
                broken = True
            continue
        if not led and position:
            led, led_suit = suits[card // 13], card // 13  # the first suited card: free
        elif position == 0:
            led, led_suit = suits[card // 13], card // 13
            if obliged and not bit & obliged:
                allowed[seat] &= ~obliged  # not the boosted suit: held none of it
            may_filter = not first or masks.opening == OPENING_LEFT_OF_DEALER
            may_filter = may_filter and not bit & obliged  # a boosted lead was forced
            if may_filter and masks.lead_ban and not broken and bit & masks.lead_ban:
                # Led a banned card before breaking: held nothing else (or hearts and the QS).
                allowed[seat] &= masks.lead_ban | masks.lead_escape
            if first and masks.opening == OPENING_ANY_CLUB and bit & masks.first_ban:
                allowed[seat] &= ~(CLUBS & ~masks.first_ban)
            if first and masks.opening in (OPENING_LOWEST_CLUB, OPENING_LOWEST_SPADE):
                # The lowest club (spade) in any hand opens: lower ones are in the kitty.
                suit = CLUBS if masks.opening == OPENING_LOWEST_CLUB else SPADES
                for holder in range(n):
                    allowed[holder] &= ~(suit & (bit - 1))
        elif not bit & led:
            allowed[seat] &= ~led  # did not follow suit: void
            if first and bit & masks.first_ban:
                allowed[seat] &= masks.first_ban  # nothing else was legal
        elif first and bit & masks.first_ban:
            allowed[seat] &= ~(led & ~masks.first_ban)
        suit = card // 13
        # Gong Zhu (Wikipedia): "An exposed card may not be played the first time its suit
        # is led, including the lead itself, unless it is a singleton" (where no other
        # filter could have barred the seat's other cards of the suit).
        first_of_suit = not done >> suit & 1 and (position == 0 or suit == led_suit)
        plain = not (masks.lead_ban or masks.first_ban or obliged)
        if bit & masks.exposed and first_of_suit and plain:
            allowed[seat] &= ~SUIT_MASKS[suit]
        if masks.queen_first and position and not bit & _QS:
            # 001 'VARIATION 1: BLACK MARIAH': the QS goes at the first chance (a discard,
            # or a spade trick holding the AS or KS), unless the first-trick rule barred it
            # (the seat then had, and played, a card the rule allows): another card played
            # at a chance proves the seat held no QS.
            chance = not bit & led or (led_suit == 2 and before & _KS_AS)
            barred = first and masks.first_ban & _QS and not bit & masks.first_ban
            if chance and not barred:
                allowed[seat] &= ~_QS
        if bit & masks.breaking or (bit & masks.queen_discard and led_suit != 2):
            broken = True
