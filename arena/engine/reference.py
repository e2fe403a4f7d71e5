"""The pure-Python reference backend: the Hearts rules written out plainly, as the oracle.

Why: the C core (`arena.engine._hearts`) is fast but hard to read; this module implements
the same contract (docs/decisions/0001-engine-backend-contract.md) from the text alone, so
the two can be compared card by card, and `ARENA_PUREPYTHON=1` can run without a compiler.
Clarity beats speed here, but cards are still bits of an int so that random play stays in
the thousands of hands per second.

Rule sources are quoted by file name and section, from /work/shared/rules/:
000 (standard Hearts), 001 (kitty, points broken), 002 (Omnibus and its variant list),
003 (Heartless: the two of spades may open), 004 (encyclopedic summary: moon variants,
center mixer, star passing, cards that may not be passed, Royal Hearts' queens).
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import Any, NamedTuple

from arena.engine.config import (
    BROKEN_BY_HEARTS,
    BROKEN_BY_HEARTS_OR_QUEEN,
    BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED,
    CONFIG_FLAGS,
    ERR_ALREADY_PASSED,
    ERR_BAD_CARD,
    ERR_BAD_SEAT,
    ERR_BOOSTER_SUIT,
    ERR_EXPOSED_CARD,
    ERR_FIRST_TRICK_POINTS,
    ERR_HAND_OVER,
    ERR_JOKER_HELD,
    ERR_MUST_FOLLOW_SUIT,
    ERR_MUST_LEAD_CLUB,
    ERR_MUST_LEAD_OPENING_CARD,
    ERR_NOT_BROKEN,
    ERR_NOT_IN_HAND,
    ERR_NOT_PASSING,
    ERR_PASS_COUNT,
    ERR_PASS_DUPLICATE,
    ERR_PASS_FORBIDDEN,
    ERR_PASS_NOT_IN_HAND,
    ERR_PASSING,
    ERR_QUEEN_FIRST_CHANCE,
    FIRST_TRICK_ANY,
    FIRST_TRICK_NO_PENALTY,
    JOKER_HEART,
    JOKER_NONE,
    JOKER_WILD,
    KITTY_EACH_TRICK,
    KITTY_TO_FIRST_HEART,
    KITTY_TO_FIRST_TRICK,
    LEAD_ANY,
    LEAD_NOT_HEARTS,
    MOON_ADD_UNLESS_LOSING,
    MOON_CHOICE_ADD,
    MOON_CHOICE_ENGINE,
    MOON_CHOICE_SUBTRACT,
    MOON_NEW,
    MOON_NONE,
    MOON_OLD,
    MOON_SHOOTERS_CHOICE,
    MOON_SUBTRACT_AFTER_SCORE,
    OPENING_ANY_CLUB,
    OPENING_LOWEST_CLUB,
    OPENING_LOWEST_SPADE,
    PASS_CENTER,
    PASS_HOLD,
    PASS_SCATTER,
    PASS_SPLIT,
    PASS_STAR,
    PHASE_OVER,
    PHASE_PASSING,
    PHASE_PLAYING,
    CoreConfig,
)

__all__ = ["HandState", "SplitMix64", "deal", "play_random_hands"]

# --- Cards as bits (contract "Cards"): index = suit * 13 + rank, suits C, D, S, H. ---

RANKS = 13
CLUBS = 0x1FFF
HEARTS_SUIT = CLUBS << 39
SPADES = CLUBS << 26
SPADES_INDEX = 2
SUIT_MASKS = (CLUBS, CLUBS << 13, SPADES, HEARTS_SUIT)
QUEEN_OF_SPADES = 2 * RANKS + 10
# 004 'Royal Hearts': the QC (cancels its taker's QS) and the QH (doubles its taker's hearts).
QUEEN_OF_CLUBS = 0 * RANKS + 10
QUEEN_OF_HEARTS = 3 * RANKS + 10
ALL_CARDS = (1 << 55) - 1
"""Every card a mask may hold: the pack (0..51) and the jokers (52..54)."""
JOKERS = 0b111 << 52
FIRST_JOKER = 52
HIGH_HEARTS = 0b1111 << 48
"""The JH, QH, KH and AH: 004 (1911) 'Joker Hearts', "an ace or court card" of hearts."""
JOKER_ORDER = 2 * 47 + 1
"""The 1911 joker's place in the order of the hearts (card * 2): "between ten and knave"."""
NINE = 7
"""The rank index of the nine (2 is 0): Booster Nines."""
SPADE_SUIT = 2
HIGH_SPADES = 0b11 << 37
"""The KS and AS: 001 'VARIATION 1: BLACK MARIAH', a chance to get rid of the QS."""

# --- Randomness constants (contract "Randomness"). ---

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
CENTER_MIXER_SALT = 0xC3A5C85C97CB3127
POLICY_SALT = 0x5851F42D4C957F2D
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3

# --- Playout policies (contract "Playouts"). ---

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_MIXED = 2
MIXED_ODDS = 8
"""The mixed policy plays a random card at one decision in 8 on average, greedy otherwise."""
POLICY_SHOOT = 16
"""Policy `POLICY_SHOOT + s`: seat s plays the shooter's plan while it can still take every
penalty card, every other decision is mixed (a search that plans a moon for seat s)."""

Trick = tuple[int, tuple[int, ...], int]


def cards_of(mask: int) -> list[int]:
    """The card indices in `mask`, lowest first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def nth_lowest(mask: int, k: int) -> int:
    """The `k`-th lowest card (0-based) of a mask with more than `k` cards."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def mask_of(cards: tuple[int, ...] | list[int]) -> int:
    """The set of the given card indices as a mask."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class SplitMix64:
    """The contract's PRNG: SplitMix64 with 64-bit wrapping arithmetic.

    Why this generator: it is tiny, has no platform-dependent parts, and is trivially
    identical in C and Python, so a seed names one deal everywhere.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def bounded(self, m: int) -> int:
        """A value in `0..m-1`: the high word of the 128-bit product (no modulo bias loop)."""
        return (self.next() * m) >> 64

    def shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates from the top, in place, exactly as the contract spells it."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.bounded(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


# --- The configuration, checked once and with its derived masks. ---


class Derived(NamedTuple):
    """The masks each backend derives from a `CoreConfig` (contract "Derived masks")."""

    penalty: int
    """Cards worth more than 0: what "no bleeding on the first trick" forbids."""
    point: int
    """Cards worth anything but 0."""
    hearts: int
    """The hearts in play."""
    breaking: int
    """Cards whose play breaks hearts/points (`broken_by`)."""
    lead_restricted: int
    """Cards that may not be led before breaking (`lead_rule`); 0 when any lead goes."""
    first_trick_banned: int
    """Cards the first-trick filter removes (`first_trick`); 0 when anything goes."""
    shoot_required: int
    """Cards a moon shooter must take: every penalty card plus `moon_extra`, in the deck."""
    values: tuple[int, ...]
    """Each card's value, 55 of them: the config's 52 and `joker_points` for each joker."""
    suits: tuple[int, int, int, int]
    """Each suit's cards in play; the hearts hold the 1911 joker (`JOKER_HEART`)."""
    jokers: int
    """The jokers in the deck."""
    wild: int
    """The jokers when they are `JOKER_WILD` (playable at any time), else 0."""
    extra: int
    """Cards dealt beyond `hand_size` to the first seats from the dealer's left and played
    to the first trick (`extra_cards_first_trick`), else 0."""


def _check_config(cfg: CoreConfig) -> None:
    """Raise ValueError when `cfg` is not internally consistent (the backends trust `Rules`
    to compile sensible options, but a tuple of ints can say anything)."""
    # 004 (1911): "Hearts may be played by two, three, four or even more players".
    if not 2 <= cfg.players <= 7:
        raise ValueError(f"players must be 2..7, got {cfg.players}")
    if len(cfg.values) != 52:
        raise ValueError(f"values must list 52 cards, got {len(cfg.values)}")
    if not 0 <= cfg.deck <= ALL_CARDS:
        raise ValueError(f"deck {cfg.deck:#x} is not a mask of cards 0..54")
    if cfg.hand_size < 1 or cfg.kitty_size < 0:
        raise ValueError(f"bad hand_size {cfg.hand_size} or kitty_size {cfg.kitty_size}")
    extra = _extra_cards(cfg)
    if cfg.extra_cards_first_trick and (cfg.kitty_size or not 0 < extra < cfg.players):
        raise ValueError(
            f"extra_cards_first_trick needs no kitty and 1..{cfg.players - 1} cards left over "
            f"after {cfg.players} hands of {cfg.hand_size}, not a kitty of {cfg.kitty_size} and "
            f"{extra} over"
        )
    if cfg.players * cfg.hand_size + cfg.kitty_size + extra != cfg.deck.bit_count():
        raise ValueError(
            f"{cfg.players} hands of {cfg.hand_size} plus a kitty of {cfg.kitty_size} "
            f"do not make the deck's {cfg.deck.bit_count()} cards"
        )
    if not 0 <= cfg.pass_count <= cfg.hand_size:
        raise ValueError(f"pass_count must be 0..hand_size ({cfg.hand_size}), got {cfg.pass_count}")
    if not -1 <= cfg.doubler < 52:
        raise ValueError(f"doubler must be a card index or -1, got {cfg.doubler}")
    if not 0 <= cfg.pass_forbidden <= ALL_CARDS:
        raise ValueError(f"pass_forbidden {cfg.pass_forbidden:#x} is not a mask of cards 0..54")
    if cfg.royal_queens not in (0, 1):
        raise ValueError(f"royal_queens must be 0 or 1, got {cfg.royal_queens}")
    if cfg.booster_nines not in (0, 1):
        raise ValueError(f"booster_nines must be 0 or 1, got {cfg.booster_nines}")
    for name in CONFIG_FLAGS:  # every 0/1 switch, a new one included
        if getattr(cfg, name) not in (0, 1):
            raise ValueError(f"{name} must be 0 or 1, got {getattr(cfg, name)}")
    if cfg.joker_kind not in (JOKER_NONE, JOKER_WILD, JOKER_HEART):
        raise ValueError(f"joker_kind must be 0, 1 or 2, got {cfg.joker_kind}")
    if cfg.deck & JOKERS and cfg.joker_kind == JOKER_NONE:
        raise ValueError("the deck holds jokers (cards 52..54) but joker_kind is 0")
    if cfg.joker_kind == JOKER_HEART and cfg.deck & JOKERS & ~(1 << FIRST_JOKER):
        raise ValueError("the 1911 joker (joker_kind 2) is the one card 52")


@lru_cache(maxsize=256)
def derive(cfg: CoreConfig) -> Derived:
    """Check `cfg` and compute its derived masks (cached: a match reuses one config).

    Raises ValueError if the configuration is inconsistent.
    """
    _check_config(cfg)
    in_deck = cards_of(cfg.deck)
    values = (*cfg.values, *(cfg.joker_points,) * 3)
    penalty = mask_of([c for c in in_deck if values[c] > 0])
    point = mask_of([c for c in in_deck if values[c] != 0])
    jokers = cfg.deck & JOKERS
    suits = [mask & cfg.deck for mask in SUIT_MASKS]
    if cfg.joker_kind == JOKER_HEART:
        # 004 (1911) 'Joker Hearts': "an extra card, called the joker, takes its place" (the
        # deuce of hearts').
        suits[3] |= jokers
    hearts = suits[3]
    # 000 'The Play': "Hearts may not be led until a heart or the queen of spades has been
    # discarded"; 002 'Play variants': "Playing the Queen of Spades also breaks Hearts";
    # 001 'HOW TO PLAY': "Points are broken when a point card is legitimately played".
    # The QS of `BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED` breaks only when discarded, which no
    # mask can say: `HandState._advance` checks it.
    if cfg.broken_by in (BROKEN_BY_HEARTS, BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED):
        breaking = hearts
    elif cfg.broken_by == BROKEN_BY_HEARTS_OR_QUEEN:
        breaking = hearts | (1 << QUEEN_OF_SPADES & cfg.deck)
    else:
        breaking = point
    if cfg.lead_rule == LEAD_ANY:
        lead_restricted = 0
    elif cfg.lead_rule == LEAD_NOT_HEARTS:
        lead_restricted = hearts
    else:
        lead_restricted = point
    # 000 'The Play': no heart or queen on the first trick; 001 'HOW TO PLAY': no point card
    # "on the very first round".
    if cfg.first_trick == FIRST_TRICK_ANY:
        first_trick_banned = 0
    elif cfg.first_trick == FIRST_TRICK_NO_PENALTY:
        first_trick_banned = penalty
    else:
        first_trick_banned = point
    # 002 'Individual card variants': "The Jack (or Ten) of Diamonds is required to Shoot".
    shoot_required = (penalty | cfg.moon_extra) & cfg.deck
    return Derived(
        penalty,
        point,
        hearts,
        breaking,
        lead_restricted,
        first_trick_banned,
        shoot_required,
        values,
        (suits[0], suits[1], suits[2], suits[3]),
        jokers,
        jokers if cfg.joker_kind == JOKER_WILD else 0,
        _extra_cards(cfg),
    )


def _order(card: int) -> int:
    """A card's rank order within its suit: index order, with the 1911 joker "ranking in
    value between ten and knave" of hearts (004 'Joker Hearts')."""
    return 2 * card if card < FIRST_JOKER else JOKER_ORDER


def _check_seed(seed: int) -> None:
    if not 0 <= seed <= MASK64:
        raise ValueError(f"seed must be a 64-bit unsigned int, got {seed}")


def as_config(cfg: CoreConfig | tuple[Any, ...]) -> CoreConfig:
    """`cfg` as a CoreConfig (a plain tuple of the same 21 fields is accepted too).

    Raises ValueError if it has the wrong number of fields.
    """
    if isinstance(cfg, CoreConfig):
        return cfg
    if len(cfg) != len(CoreConfig._fields):
        raise ValueError(f"a CoreConfig has {len(CoreConfig._fields)} fields, got {len(cfg)}")
    return CoreConfig(*cfg)


STAR_PASS_SIZE = 2
"""004 'Passing cards': in star passing "The players choose only two cards"."""


def pass_size(pass_kind: int, cfg: CoreConfig) -> int:
    """How many cards each seat passes in a pass of `pass_kind`."""
    if pass_kind == PASS_HOLD:
        return 0
    # 002 'Passing variants': scatter passes "1 card to each other player".
    if pass_kind == PASS_SCATTER:
        return cfg.players - 1
    if pass_kind == PASS_STAR:
        return STAR_PASS_SIZE
    return cfg.pass_count


def _check_pass_kind(pass_kind: int, cfg: CoreConfig) -> None:
    players = cfg.players
    # A scatter pass gives one card to each other seat, so it needs that many cards.
    scatter_fits = cfg.hand_size >= players - 1
    # 004 'Passing cards': star passing is for "three or five players" -- an odd table,
    # where nobody sits across -- and passes two cards.
    star_fits = players % 2 == 1 and cfg.hand_size >= STAR_PASS_SIZE
    if not (
        0 <= pass_kind < players
        or pass_kind == PASS_CENTER
        or (pass_kind == PASS_SCATTER and scatter_fits)
        or (pass_kind == PASS_STAR and star_fits)
    ):
        raise ValueError(
            f"pass kind {pass_kind} is not valid for {players} players with hands of "
            f"{cfg.hand_size} (0 hold, 1..{players - 1} directional, {PASS_SCATTER} scatter "
            f"if hands hold at least {players - 1} cards, {PASS_CENTER} center, {PASS_STAR} "
            f"star for an odd number of players)"
        )
    # Every hand must be able to pass: at worst one hand holds every forbidden card.
    banned = min((cfg.pass_forbidden & cfg.deck).bit_count(), cfg.hand_size)
    size = pass_size(pass_kind, cfg)
    if banned > cfg.hand_size - size:
        raise ValueError(
            f"pass kind {pass_kind} passes {size} cards, but a hand of {cfg.hand_size} may "
            f"hold all {banned} cards that pass_forbidden keeps from the pass"
        )


def _check_split(offsets: tuple[int, ...], cfg: CoreConfig) -> None:
    """003 'Simple variations': "each player passes three cards and receives three cards",
    so a split names pass_count offsets, each a seat other than the giver's."""
    players = cfg.players
    if len(offsets) != cfg.pass_count or not offsets:
        raise ValueError(
            f"a split pass names one offset per passed card ({cfg.pass_count}), got {len(offsets)}"
        )
    for offset in offsets:
        if not isinstance(offset, int) or not 1 <= offset < players:
            raise ValueError(f"split offset {offset!r} is not a seat offset 1..{players - 1}")
    banned = min((cfg.pass_forbidden & cfg.deck).bit_count(), cfg.hand_size)
    if banned > cfg.hand_size - len(offsets):
        raise ValueError(
            f"a split passes {len(offsets)} cards, but a hand of {cfg.hand_size} may hold "
            f"all {banned} cards that pass_forbidden keeps from the pass"
        )


# --- The deal. ---


def _extra_cards(cfg: CoreConfig) -> int:
    """002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards
    to players": the cards left over after `players` hands of `hand_size` when the rule is
    on (none go to a kitty), else 0."""
    if not cfg.extra_cards_first_trick:
        return 0
    return int(cfg.deck.bit_count() - cfg.players * cfg.hand_size)


def deal(cfg: CoreConfig, seed: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """Shuffle the deck with `seed` and deal it from the dealer's left; return (hands, kitty).

    000 'The Deal': "distributes the cards one at a time, face down, clockwise"; the cards
    left over form the kitty (002 '"Kitty" variants'), or with `extra_cards_first_trick`
    are dealt on, one more to each of the first seats (002 'Alternatives to the "Kitty"').
    Raises ValueError for a bad config, seed or dealer.
    """
    cfg = as_config(cfg)
    derive(cfg)
    _check_seed(seed)
    n = cfg.players
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    cards = cards_of(cfg.deck)
    SplitMix64(seed).shuffle(cards)
    hands = [0] * n
    dealt = n * cfg.hand_size + _extra_cards(cfg)
    for k in range(dealt):
        hands[(dealer + 1 + k) % n] |= 1 << cards[k]
    return tuple(hands), mask_of(cards[dealt:])


# --- One hand. ---


class HandState:
    """One hand from the pass to the last trick: passing, legal plays, tricks, scoring.

    `play` validates and answers an error code; `push` trusts its caller (a search that
    already knows the card is legal) and `pop` undoes either. Nothing here raises for a bad
    card index: a bot's wrong card is data, and the public API turns codes into messages.
    """

    __slots__ = (
        "_booster",
        "_broken",
        "_cfg",
        "_dealer",
        "_derived",
        "_extra_seats",
        "_hands",
        "_history",
        "_kitty",
        "_kitty_given",
        "_kitty_owner",
        "_leader",
        "_n",
        "_opening_card",
        "_pass_kind",
        "_passes",
        "_phase",
        "_received",
        "_seed",
        "_split",
        "_taken",
        "_to_play",
        "_trick",
        "_trick_number",
        "_tricks_won",
        "_undo",
    )

    def __init__(
        self,
        cfg: CoreConfig,
        hands: tuple[int, ...],
        kitty: int,
        dealer: int,
        pass_kind: int | tuple[int, ...],
        seed: int,
    ) -> None:
        """Start a hand from dealt `hands` and `kitty`.

        Raises ValueError if the config is inconsistent, the hands are not `players` disjoint
        masks of `hand_size` cards that with the kitty make up the deck, the dealer is not a
        seat, the pass kind is not valid for the number of players (scatter also needs
        hands of at least `players - 1` cards, star an odd table and two cards, and any pass
        enough cards outside `pass_forbidden` in every hand), the seed is not 64-bit, or the
        opening needs a club (a spade, for the lowest-spade opening) and no hand holds one.
        """
        cfg = self._cfg = as_config(cfg)
        self._derived = derive(cfg)
        n = self._n = cfg.players
        hands = tuple(hands)
        if len(hands) != n:
            raise ValueError(f"expected {n} hands, got {len(hands)}")
        union = 0
        extra = self._derived.extra
        for seat, hand in enumerate(hands):
            if not 0 <= hand <= ALL_CARDS:
                raise ValueError(f"hand {seat} ({hand:#x}) is not a mask of cards 0..51")
            if hand.bit_count() not in (cfg.hand_size, cfg.hand_size + (extra > 0)):
                raise ValueError(
                    f"hand {seat} has {hand.bit_count()} cards, expected {cfg.hand_size}"
                    + (f" or {cfg.hand_size + 1}" if extra else "")
                )
            if union & hand:
                raise ValueError(f"hand {seat} shares cards {cards_of(union & hand)}")
            union |= hand
        # 002's extra cards: any `extra` seats may hold them in a hand-built deal.
        self._extra_seats = tuple(
            seat for seat, hand in enumerate(hands) if hand.bit_count() > cfg.hand_size
        )
        if len(self._extra_seats) != extra:
            raise ValueError(
                f"{len(self._extra_seats)} hands hold an extra card, expected {extra} "
                f"(extra_cards_first_trick)"
            )
        if not 0 <= kitty <= ALL_CARDS or kitty & union:
            raise ValueError(f"kitty {kitty:#x} is not a mask disjoint from the hands")
        if union | kitty != cfg.deck:
            raise ValueError(
                f"hands and kitty do not make up the deck (extra "
                f"{cards_of((union | kitty) & ~cfg.deck)}, missing "
                f"{cards_of(cfg.deck & ~(union | kitty))})"
            )
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
        # A tuple of offsets is a split pass (003 'Simple variations').
        split: tuple[int, ...] = ()
        if isinstance(pass_kind, tuple):
            _check_split(pass_kind, cfg)
            split, pass_kind = pass_kind, PASS_SPLIT
        else:
            _check_pass_kind(pass_kind, cfg)
        _check_seed(seed)
        if cfg.opening in (OPENING_LOWEST_CLUB, OPENING_ANY_CLUB) and not union & CLUBS:
            raise ValueError("the opening rule needs a club, and no hand holds one")
        if cfg.opening == OPENING_LOWEST_SPADE and not union & SPADES:
            raise ValueError("the opening rule needs a spade, and no hand holds one")

        self._hands = list(hands)
        self._kitty = kitty
        self._kitty_owner = -1
        # Per finished trick: the kitty cards its winner took with it (to undo them).
        self._kitty_given: list[int] = []
        self._dealer = dealer
        self._pass_kind = pass_kind
        self._split = split
        self._seed = seed
        self._passes: list[tuple[int, ...] | None] = [None] * n
        self._received: list[tuple[int, ...]] = [()] * n
        self._taken = [0] * n
        self._tricks_won = [0] * n
        self._history: list[Trick] = []
        self._trick: list[int] = []
        self._trick_number = 0
        self._broken = False
        self._booster = -1
        self._opening_card = -1
        self._leader = -1
        self._to_play = -1
        self._undo: list[tuple[int, ...]] = []
        # 000 'The Pass': "a keep or hold hand where no cards are passed".
        if pass_kind == PASS_HOLD:
            self._passes = [()] * n
            self._start_play()
        else:
            self._phase = PHASE_PASSING

    # --- Read-only views. ---

    @property
    def phase(self) -> int:
        """0 passing, 1 playing, 2 over."""
        return self._phase

    @property
    def to_play(self) -> int:
        """The seat to play, or -1 while passing and when the hand is over."""
        return self._to_play

    @property
    def trick_number(self) -> int:
        """The 0-based trick being played; `hand_size` once the hand is over."""
        return self._trick_number

    @property
    def broken(self) -> bool:
        """Whether hearts (or points, per `broken_by`) have been broken."""
        return self._broken

    @property
    def booster(self) -> int:
        """Booster Nines: the suit (0..3) the current trick must be led in if the leader holds
        it, because the last trick held the nine of its led suit; -1 for none (always -1
        while passing and once the hand is over)."""
        return self._booster if self._phase == PHASE_PLAYING else -1

    @property
    def leader(self) -> int:
        """The seat that led (or will lead) the current trick; -1 while passing.

        Once the hand is over this is the winner of the last trick, the seat that would
        lead next.
        """
        return self._leader

    @property
    def kitty(self) -> int:
        """The kitty as dealt."""
        return self._kitty

    @property
    def kitty_owner(self) -> int:
        """The seat that has taken the kitty, or -1 (also set when the kitty is empty)."""
        return self._kitty_owner

    def current_trick(self) -> tuple[int, ...]:
        """The cards played to the current trick, in order (empty between tricks)."""
        return tuple(self._trick)

    def hand(self, seat: int) -> int:
        """The seat's cards now (its dealt hand while passing). Raises IndexError for a bad seat."""
        return self._hands[self._seat(seat)]

    def taken(self, seat: int) -> int:
        """The cards the seat has taken in tricks, plus the kitty once it owns it."""
        return self._taken[self._seat(seat)]

    def tricks_won(self, seat: int) -> int:
        """How many tricks the seat has won (the kitty is not a trick)."""
        return self._tricks_won[self._seat(seat)]

    def passed(self, seat: int) -> tuple[int, ...]:
        """The cards the seat gave, in the order given; () until it has passed."""
        return self._passes[self._seat(seat)] or ()

    def received(self, seat: int) -> tuple[int, ...]:
        """The cards the seat received, in giver-seat order; () until the exchange.

        For the center mixer, the order is the order of the redeal.
        """
        return self._received[self._seat(seat)]

    def history(self) -> tuple[Trick, ...]:
        """(leader, cards, winner) for each finished trick."""
        return tuple(self._history)

    def _seat(self, seat: int) -> int:
        # IndexError, as for any sequence: a seat indexes the table.
        if not 0 <= seat < self._n:
            raise IndexError(f"seat must be 0..{self._n - 1}, got {seat}")
        return seat

    # --- Passing (000 'The Pass'; 002 'Passing variants'; 004 'Passing cards'). ---

    def apply_pass(self, seat: int, cards: tuple[int, ...]) -> int:
        """Record `seat`'s pass; exchange all passes once the last seat has passed.

        Returns 0, or the first error code that applies: 10 not passing, 11 bad seat,
        12 already passed, 13 wrong number of cards, 14 a card given twice, 15 a card not in
        the seat's hand (or out of range), 16 a card the rules forbid passing. Nothing
        changes on an error.
        """
        if self._phase != PHASE_PASSING:
            return ERR_NOT_PASSING
        if not 0 <= seat < self._n:
            return ERR_BAD_SEAT
        if self._passes[seat] is not None:
            return ERR_ALREADY_PASSED
        cards = tuple(cards)
        if len(cards) != self._pass_size():
            return ERR_PASS_COUNT
        if len(set(cards)) != len(cards):
            return ERR_PASS_DUPLICATE
        hand = self._hands[seat]
        for card in cards:
            if not 0 <= card < 55 or not hand >> card & 1:
                return ERR_PASS_NOT_IN_HAND
        # 004 'Passing cards': "Passing the Ace, King and/or Queen of Spades may be allowed
        # or prohibited."
        if mask_of(cards) & self._cfg.pass_forbidden:
            return ERR_PASS_FORBIDDEN
        self._passes[seat] = cards
        # "Nothing moves until the last seat has passed" (contract "Passing").
        if all(given is not None for given in self._passes):
            self._exchange()
        return 0

    def _pass_size(self) -> int:
        if self._pass_kind == PASS_SPLIT:
            return len(self._split)
        return pass_size(self._pass_kind, self._cfg)

    def _exchange(self) -> None:
        """Move every pass at once, then start the play."""
        n = self._n
        passes = [given or () for given in self._passes]
        if self._pass_kind == PASS_SCATTER:
            # The giver's i-th card goes to the seat i + 1 places on its left.
            received = [
                tuple(passes[giver][(seat - giver - 1) % n] for giver in range(n) if giver != seat)
                for seat in range(n)
            ]
        elif self._pass_kind == PASS_STAR:
            # 004 'Passing cards': "pass one each to the two players situated closest to the
            # exact opposite side of the table": card 0 goes n // 2 seats left, card 1
            # (n + 1) // 2; a seat receives the near giver's card first.
            near, far = n // 2, (n + 1) // 2
            received = [
                (passes[(seat - near) % n][0], passes[(seat - far) % n][1]) for seat in range(n)
            ]
        elif self._pass_kind == PASS_SPLIT:
            # 003 'Simple variations': "Pass one card to the right and two cards to the
            # left": card i goes split[i] seats left, so seat t receives card i of t - split[i].
            received = [
                tuple(passes[(seat - offset) % n][i] for i, offset in enumerate(self._split))
                for seat in range(n)
            ]
        elif self._pass_kind == PASS_CENTER:
            # 004 'Passing cards': "discard them to a central pile. The Dealer will gather,
            # shuffle, and re-deal these cards" (the "smoosh" of 002 'Passing variants').
            pool = [card for given in passes for card in given]
            SplitMix64(self._seed ^ CENTER_MIXER_SALT).shuffle(pool)
            dealt: list[list[int]] = [[] for _ in range(n)]
            for k, card in enumerate(pool):
                dealt[(self._dealer + 1 + k) % n].append(card)
            received = [tuple(cards) for cards in dealt]
        else:
            # A directional pass by k: seat s gives to s + k, so receives from s - k.
            received = [passes[(seat - self._pass_kind) % n] for seat in range(n)]
        for seat in range(n):
            self._hands[seat] = (self._hands[seat] & ~mask_of(passes[seat])) | mask_of(
                received[seat]
            )
        self._received = received
        self._start_play()

    def _start_play(self) -> None:
        """Find the opening leader: 000 'The Play' ("The player holding the 2C after the pass
        makes the opening lead"), 001 'HOW TO PLAY' (the 3C when the 2C is in the kitty),
        002 'Play variants' ("the player to the left of the dealer may lead any card"),
        003 'HEARTLESS' ("Otherwise it is the Two of Spades": the lowest spade held)."""
        self._phase = PHASE_PLAYING
        opening = self._cfg.opening
        if opening in (OPENING_LOWEST_CLUB, OPENING_ANY_CLUB, OPENING_LOWEST_SPADE):
            held = 0
            for hand in self._hands:
                held |= hand
            suit = held & (SPADES if opening == OPENING_LOWEST_SPADE else CLUBS)
            self._opening_card = (suit & -suit).bit_length() - 1
            opening_bit = 1 << self._opening_card
            self._leader = next(s for s, hand in enumerate(self._hands) if hand & opening_bit)
        else:
            self._leader = (self._dealer + 1) % self._n
        self._to_play = self._leader

    # --- Legal plays (contract "Legal plays"). ---

    def _narrowing(self) -> list[tuple[int, int]]:
        """The filters from the seat's hand down to its legal plays, as (error code, cards
        left after that filter); the last entry's cards are the legal plays.

        Why one list: `legal_mask` and `check_play` read the same steps, so the error code
        always names the first filter that removed the card.
        """
        cfg = self._cfg
        derived = self._derived
        hand = self._hands[self._to_play]
        steps: list[tuple[int, int]] = []
        if self._trick:
            # 000 'The Play': "Each player must follow suit if possible. If a player is void
            # in the suit led, a card of any other suit may be discarded."
            led = self._led_suit()
            follow = hand & derived.suits[led] if led >= 0 else 0
            # 004 'Other Variations': wild jokers "can be played any time".
            steps.append((ERR_MUST_FOLLOW_SUIT, follow | hand & derived.wild if follow else hand))
        elif self._trick_number == 0 and cfg.opening in (OPENING_LOWEST_CLUB, OPENING_LOWEST_SPADE):
            steps.append((ERR_MUST_LEAD_OPENING_CARD, 1 << self._opening_card))
        elif self._trick_number == 0 and cfg.opening == OPENING_ANY_CLUB:
            steps.append((ERR_MUST_LEAD_CLUB, hand & CLUBS))
        elif self._booster >= 0 and hand & derived.suits[self._booster]:
            # 004 'Other Variations': "Booster Nines - if a nine is played then an extra round
            # in the suit is played": the suit must be led again, whatever the lead rule (a
            # wild joker still goes "any time").
            boosted = hand & derived.suits[self._booster] | hand & derived.wild
            steps.append((ERR_BOOSTER_SUIT, boosted))
        else:
            steps.append((ERR_NOT_BROKEN, self._lead_filter(hand)))
        banned = derived.first_trick_banned
        if self._trick_number == 0 and banned:
            # 004 'The play of the game': no penalty card on the first trick, "however the
            # player must follow suit and can play a penalty card if they would otherwise
            # renege" -- so the filter only applies when something else is left.
            allowed = steps[-1][1]
            steps.append((ERR_FIRST_TRICK_POINTS, allowed & ~banned or allowed))
        allowed = steps[-1][1]
        # 004 (1911) 'Joker Hearts': "It cannot be thrown away, excepting when hearts are led
        # and an ace or court card is played, though if an opponent discards the ace or a
        # court card of hearts, then the holder of the joker may discard it" -- so only once
        # the trick holds one of them, unless nothing else may be played.
        held = cfg.joker_kind == JOKER_HEART and allowed & derived.jokers
        if held and not mask_of(self._trick) & HIGH_HEARTS:
            steps.append((ERR_JOKER_HELD, allowed & ~derived.jokers or allowed))
        # 001 'VARIATION 1: BLACK MARIAH': "a player holding the Q of spades must get rid of
        # it on the first trick they legitimately can (by playing it as the first discard in
        # a voided suit, or by playing it when an opponent leads A of spades or K of
        # spades)" -- once the QS may be played to another's lead (the first-trick rule
        # has had its say), and the seat discards or the trick holds the AS or KS.
        queen = 1 << QUEEN_OF_SPADES
        if cfg.queen_at_first_chance and self._trick and steps[-1][1] & queen:
            chance = self._led_suit() != SPADE_SUIT or mask_of(self._trick) & HIGH_SPADES
            if chance:
                steps.append((ERR_QUEEN_FIRST_CHANCE, queen))
        if cfg.exposed and steps[-1][1] & cfg.exposed:
            steps.append((ERR_EXPOSED_CARD, self._exposed_filter(hand, steps[-1][1])))
        return steps

    def _exposed_filter(self, hand: int, allowed: int) -> int:
        """Gong Zhu's exposed cards (Wikipedia 'Gong Zhu': "An exposed card may not be
        played the first time its suit is led, including the lead itself, unless it is a
        singleton"): a card of `exposed` whose suit no finished trick of this hand was of
        may not be led, nor followed to the trick of its suit, while the seat holds another
        card of that suit; a discard is free, and nothing is barred if nothing is left."""
        led_before = set()
        for _, cards, _ in self._history:
            suit = next((s for s in map(self._suit_of, cards) if s >= 0), -1)
            led_before.add(suit)
        current = self._led_suit() if self._trick else -1
        barred = 0
        for card in cards_of(allowed & self._cfg.exposed):
            suit = card // RANKS
            if suit in led_before or (self._trick and suit != current):
                continue
            if hand & self._derived.suits[suit] & ~(1 << card):
                barred |= 1 << card
        return allowed & ~barred or allowed

    def _suit_of(self, card: int) -> int:
        """A card's suit; the 1911 joker is a heart, a wild joker has none (-1)."""
        if card < FIRST_JOKER:
            return card // RANKS
        return 3 if self._cfg.joker_kind == JOKER_HEART else -1

    def _led_suit(self) -> int:
        """The suit of the current trick: its first suited card's (a trick led with a wild
        joker takes the suit of the next suited card); -1 while it has none."""
        for card in self._trick:
            suit = self._suit_of(card)
            if suit >= 0:
                return suit
        return -1

    def _lead_filter(self, hand: int) -> int:
        """The cards `hand` may lead given the lead rule and whether hearts are broken."""
        restricted = self._derived.lead_restricted
        if not restricted or self._broken:
            return hand
        # 002 'Play variants' and 004 'The play of the game': a leader holding only hearts
        # and the QS "may elect not to throw the Queen on himself and instead still play a
        # Heart".
        if self._cfg.queen_hearts_lead and not hand & ~(
            self._derived.hearts | 1 << QUEEN_OF_SPADES
        ):
            return hand
        # 000 'The Play' / 001 'HOW TO PLAY': not until broken, unless "you have nothing but
        # point cards in your hand".
        return hand & ~restricted or hand

    def legal_mask(self) -> int:
        """The cards the seat to play may play; 0 while passing and when the hand is over."""
        if self._phase != PHASE_PLAYING:
            return 0
        return self._narrowing()[-1][1]

    def check_play(self, card: int) -> int:
        """0 if the seat to play may play `card`, else the error code that says why not.

        Codes, first applying wins: 1 hand over, 2 still passing, 3 not a card in the deck,
        4 not in the hand, then the filter that removed it (5, 6, 9 or 7, then 8).
        """
        if self._phase == PHASE_OVER:
            return ERR_HAND_OVER
        if self._phase == PHASE_PASSING:
            return ERR_PASSING
        if not 0 <= card < 55 or not self._cfg.deck >> card & 1:
            return ERR_BAD_CARD
        if not self._hands[self._to_play] >> card & 1:
            return ERR_NOT_IN_HAND
        for code, allowed in self._narrowing():
            if not allowed >> card & 1:
                return code
        return 0

    # --- Playing and undoing. ---

    def play(self, card: int) -> int:
        """Play `card` for the seat to play if it is legal (0); else return the error code
        and change nothing. Undo with `pop`."""
        code = self.check_play(card)
        if code == 0:
            self.push(card)
        return code

    def push(self, card: int) -> None:
        """Play `card` without checking the rules (the caller knows it is legal); `pop`
        undoes it.

        Only the bookkeeping is guarded, so that a misuse cannot corrupt the state: raises
        ValueError if the hand is not being played or the card is not in the hand of the
        seat to play (codes 1 to 4 of `check_play`).
        """
        if self._phase != PHASE_PLAYING or not (
            0 <= card < 55 and self._hands[self._to_play] >> card & 1
        ):
            code = self.check_play(card)
            raise ValueError(f"push({card}): cannot play that card now (error {code})")
        self._undo.append(
            (
                self._to_play,
                card,
                self._leader,
                self._trick_number,
                self._broken,
                self._booster,
                self._phase,
                self._kitty_owner,
                len(self._history),
                *self._trick,
            )
        )
        self._advance(card)

    def pop(self) -> None:
        """Undo the last `push` or `play`. Raises IndexError when there is nothing to undo."""
        if not self._undo:
            raise IndexError("pop from a hand with no plays to undo")
        seat, card, leader, trick_number, broken, booster, phase, kitty_owner, finished, *trick = (
            self._undo.pop()
        )
        if len(self._history) > finished:
            # The card completed a trick: give the trick (and perhaps the kitty) back.
            _, _, winner = self._history.pop()
            self._tricks_won[winner] -= 1
            self._taken[winner] &= ~(mask_of([*trick, card]) | self._kitty_given.pop())
        self._hands[seat] |= 1 << card
        self._trick = trick
        self._to_play = seat
        self._leader = leader
        self._trick_number = trick_number
        self._broken = bool(broken)
        self._booster = booster
        self._phase = phase
        self._kitty_owner = kitty_owner

    def _advance(self, card: int) -> None:
        """Move `card` from the seat to play into the trick, and finish the trick if full."""
        seat = self._to_play
        bit = 1 << card
        self._hands[seat] &= ~bit
        self._trick.append(card)
        # Contract "Broken": the moment a breaking card is played, led or followed.
        if bit & self._derived.breaking:
            self._broken = True
        # 000 'The Play': "until a heart or the queen of spades has been discarded": the QS
        # breaks when the trick's suit (its lead's, or with a wild joker led its first
        # suited card's) is not spades; led, or following a spade lead, it does not.
        if (
            card == QUEEN_OF_SPADES
            and self._cfg.broken_by == BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED
            and self._led_suit() != SPADES_INDEX
        ):
            self._broken = True
        played = len(self._trick)
        if played < self._n:
            self._to_play = (seat + 1) % self._n
        elif played < self._trick_size():
            self._to_play = self._trick_seats()[played]
        else:
            self._finish_trick()

    def _trick_size(self) -> int:
        """Cards the current trick will hold: one a seat, and on the first trick one more
        for each seat dealt an extra card (002 'Alternatives to the "Kitty"')."""
        return self._n + (self._derived.extra if self._trick_number == 0 else 0)

    def _trick_seats(self) -> tuple[int, ...]:
        """Who plays the current trick's cards, in order: round the table from the leader,
        then (first trick, 002's extra cards) each seat holding an extra card again, in
        the same order ("allow the player with them to play an additional card on the
        first trick")."""
        n, leader = self._n, self._leader
        round_ = tuple((leader + i) % n for i in range(n))
        if self._trick_number or not self._extra_seats:
            return round_
        return round_ + tuple(seat for seat in round_ if seat in self._extra_seats)

    def _finish_trick(self) -> None:
        """000 'The Play': "The highest card of the suit led wins a trick and the winner of
        that trick leads next." Also hand over the kitty when its rule says so."""
        cfg = self._cfg
        trick = self._trick
        led_suit = self._led_suit()
        # A wild joker never wins; a trick of wild jokers only goes to its leader.
        best = max(
            range(len(trick)),
            key=lambda i: _order(trick[i]) if self._suit_of(trick[i]) == led_suit else -1,
        )
        winner = self._trick_seats()[best]
        cards = mask_of(trick)
        self._taken[winner] |= cards
        self._tricks_won[winner] += 1
        self._history.append((self._leader, tuple(trick), winner))
        self._trick = []
        self._trick_number += 1
        # Booster Nines: the nine of the suit led calls for "an extra round in the suit".
        nine = led_suit * RANKS + NINE
        last = self._trick_number == cfg.hand_size
        boost = cfg.booster_nines and led_suit >= 0 and cards >> nine & 1 and not last
        self._booster = led_suit if boost else -1
        given = 0
        if cfg.kitty_taker == KITTY_EACH_TRICK:
            # 004 'The Kitty and the First Trick': "the first trick takes one card, and the
            # second trick takes the next, until the kitty is exhausted": the lowest card
            # still there (index order); the last trick takes any rest. The kitty's "owner"
            # is the first trick's winner.
            rest = self._kitty & ~sum(self._kitty_given)
            given = rest if last else rest & -rest
            if self._kitty_owner == -1:
                self._kitty_owner = winner
        elif self._kitty_owner == -1:
            # 002 '"Kitty" variants': "The kitty is taken by the person who takes the first
            # trick"; 001 'WINNING THE KITTY': "award them to the first player who takes a
            # point card"; 004 'Deal': "goes to whoever takes the first heart" -- and, if
            # nobody ever does, the winner of the last trick.
            if cfg.kitty_taker == KITTY_TO_FIRST_TRICK:
                takes = self._trick_number == 1
            elif cfg.kitty_taker == KITTY_TO_FIRST_HEART:
                takes = bool(cards & self._derived.hearts) or last
            else:
                takes = bool(cards & self._derived.point) or last
            if takes:
                self._kitty_owner = winner
                given = self._kitty
        self._taken[winner] |= given
        self._kitty_given.append(given)
        self._leader = winner
        if self._trick_number == cfg.hand_size:
            self._phase = PHASE_OVER
            self._to_play = -1
        else:
            self._to_play = winner

    # --- Scoring (contract "Scoring"). ---

    def points(
        self, totals: tuple[int, ...], target: int, choice: int = MOON_CHOICE_ENGINE
    ) -> tuple[int, ...]:
        """Each seat's score for this hand, given the game totals before it and the target.

        `totals` and `target` only matter for the add-unless-losing, shooter's-choice and
        subtract-after-a-score moons; `choice` is the shooter's own (MOON_CHOICE_ADD or
        MOON_CHOICE_SUBTRACT) where the rule lets him choose, MOON_CHOICE_ENGINE (-1) for
        the engine's pick. Raises ValueError unless the hand is over, or if `totals` has
        the wrong length or `choice` is not -1, 0 or 1.
        """
        if self._phase != PHASE_OVER:
            raise ValueError("points() needs a finished hand")
        if choice not in (-1, 0, 1):
            raise ValueError(f"points: choice must be -1, 0 or 1, got {choice}")
        n = self._n
        totals = tuple(totals)
        if len(totals) != n:
            raise ValueError(f"expected {n} totals, got {len(totals)}")
        cfg = self._cfg
        raw = self._raw_scores()
        shooter, worth = self._shooter()
        if cfg.royal_queens:
            # 004 'Royal Hearts': "the bonus to the player who shoots the moon, or the penalty
            # to all others, is based on the total point count of that player" (a sun keeps
            # its own worth), and the QD "cannot result in a negative score for the hand".
            if shooter >= 0 and not self._shot_the_sun(shooter):
                worth = raw[shooter]
            raw = [max(score, 0) for score in raw]
        scores = raw
        if cfg.moon != MOON_NONE and shooter >= 0:
            scores = self._moon_scores(raw, shooter, worth, totals, target, choice)
        # 002 'Hand scoring variants': "Players who take no tricks in a round get -5 points"
        # (or +10 "for being such a wimp").
        return tuple(
            score + (cfg.no_trick_bonus if self._tricks_won[seat] == 0 else 0)
            for seat, score in enumerate(scores)
        )

    def _raw_scores(self) -> list[int]:
        """Each seat's score before the royal floor and the moon: the card values (or
        Royal Hearts' scoring), the trick points, then the doubler (contract "Scoring"; the
        C core's raw_scores). `points` and `shooter` (a royal moon is worth the shooter's
        own score) both read it, so they cannot differ."""
        cfg = self._cfg
        values = self._derived.values
        raw = []
        for seat in range(self._n):
            taken = self._taken[seat]
            if cfg.royal_queens:
                score = self._royal_score(taken)
            else:
                score = sum(values[card] for card in cards_of(taken))
            score += self._trick_extra(seat, taken)
            # 002 'Individual card variants': "The 10 of Clubs doubles the value of the
            # current hand for whoever takes it".
            if cfg.doubler >= 0 and taken >> cfg.doubler & 1:
                score = self._doubled(score, taken)
            raw.append(score)
        return raw

    # --- Playouts for search (contract "Playouts"). ---

    def playout(self, seed: int, policy: int) -> tuple[int, ...]:
        """Play the hand out from here with `policy` for every seat (0 random from
        SplitMix64(seed), 1 greedy, 2 mixed: random at one decision in 8; 16 + s: seat s
        plays the shooter's plan while no other seat has taken a penalty card, every other
        decision mixed), score it with zero totals and target 0, and put every play back:
        the state is left as it was. Why: a search bot evaluates a position by many whole
        playouts, and one call per playout keeps the loop out of Python.

        Raises ValueError for a seed outside 0..2**64-1, an unknown policy, or a hand that
        is still passing.
        """
        seed = operator.index(seed)
        _check_seed(seed)
        policy = operator.index(policy)
        shooter = -1
        if POLICY_SHOOT <= policy < POLICY_SHOOT + self._n:
            shooter, policy = policy - POLICY_SHOOT, POLICY_MIXED
        if policy not in (POLICY_RANDOM, POLICY_GREEDY, POLICY_MIXED):
            raise ValueError(
                f"playout: unknown policy {policy} (0 random, 1 greedy, 2 mixed, "
                "16 + seat: that seat shoots)"
            )
        if self._phase == PHASE_PASSING:
            raise ValueError("playout: the hand is still in the passing phase")
        rng = SplitMix64(seed)
        pushed = 0
        while self._phase == PHASE_PLAYING:
            legal = self.legal_mask()
            if self._to_play == shooter and self._still_shooting(shooter):
                card = self._shoot_card(legal)
            elif policy == POLICY_RANDOM or (
                policy == POLICY_MIXED and rng.bounded(MIXED_ODDS) == 0
            ):
                card = nth_lowest(legal, rng.bounded(legal.bit_count()))
            else:
                card = self._greedy_card(legal)
            self.push(card)
            pushed += 1
        scores = self.points((0,) * self._n, 0)
        for _ in range(pushed):
            self.pop()
        return scores

    def solve(self, limit: int) -> tuple[int, ...] | None:
        """The exact endgame (contract "Playouts", solve): every legal card played at every
        decision to the hand's end with every hand known, each seat choosing the card that
        minimises its margin (players times its score minus the sum of all scores, as
        `points` with zero totals and target 0 scores them), the lowest card among equals;
        the scores of that line, or None when more than `limit` decisions would be searched.
        Where rank and value alone decide (`_solve_groups`), a legal card with no live card
        (in a hand or the current trick) between it and the legal card below it of its
        suit, of the same value and moon_extra membership, is not searched: it gives the
        same line. The state is left as it was. Why: once few cards remain, a search's
        sampled deals are solved exactly instead of played out by a policy.

        Raises ValueError for a hand that is still passing.
        """
        limit = operator.index(limit)
        if self._phase == PHASE_PASSING:
            raise ValueError("solve: the hand is still in the passing phase")
        budget = [limit]
        return self._solve_node(self._solve_groups(), budget)

    def _solve_groups(self) -> bool:
        """Whether equal neighbouring cards may be searched once (`solve`): never with the
        jokers, Royal Hearts, Booster Nines, a doubler, the QS at the first chance, exposed
        cards, the trick and reversal scores, or cards beyond the one pack."""
        cfg = self._cfg
        return not (
            cfg.joker_kind
            or cfg.royal_queens
            or cfg.booster_nines
            or cfg.doubler >= 0
            or cfg.queen_at_first_chance
            or cfg.first_trick_points
            or cfg.last_trick_points
            or cfg.exposed
            or cfg.doubler_exposed
            or cfg.all_hearts_reversed
            or cfg.every_penalty_extra
            or cfg.doubler_alone_points
            or cfg.deck >> 52
        )

    def _solve_node(self, groups: bool, budget: list[int]) -> tuple[int, ...] | None:
        if self._phase != PHASE_PLAYING:
            return self.points((0,) * self._n, 0)
        budget[0] -= 1
        if budget[0] < 0:
            return None
        cfg, n, seat = self._cfg, self._n, self._to_play
        live = mask_of(self._trick)
        for hand in self._hands:
            live |= hand
        best: tuple[int, ...] | None = None
        best_key = 0
        prev = -1
        for card in cards_of(self.legal_mask()):
            same = (
                groups
                and prev >= 0
                and prev // 13 == card // 13
                and cfg.values[prev] == cfg.values[card]
                and (cfg.moon_extra >> prev & 1) == (cfg.moon_extra >> card & 1)
                and not live & ((1 << card) - (1 << (prev + 1)))
            )
            prev = card
            if same:
                continue
            self.push(card)
            scores = self._solve_node(groups, budget)
            self.pop()
            if scores is None:
                return None
            key = n * scores[seat] - sum(scores)
            if best is None or key < best_key:
                best, best_key = scores, key
        return best

    def _still_shooting(self, seat: int) -> bool:
        """Whether `seat` may still take every penalty card (no other seat took one), in a
        deck without jokers (their order is the greedy policy's alone)."""
        if self._derived.jokers:
            return False
        penalty = self._derived.penalty
        return not any(t != seat and taken & penalty for t, taken in enumerate(self._taken))

    def _shoot_card(self, legal: int) -> int:
        """The shooter's plan: win every trick. Lead a master card (the highest of its suit
        still in a hand) of the suit it holds most of, else its highest rank; follow with
        the highest card that beats the trick (the lowest such as the last to play), else
        the lowest of the suit; when void, throw the lowest rank worth no penalty."""
        mine = self._hands[self._to_play]
        if not self._trick:
            live = 0
            for hand in self._hands:
                live |= hand
            masters = [
                (-(mine & SUIT_MASKS[suit]).bit_count(), suit, top)
                for suit in range(4)
                if (in_suit := live & SUIT_MASKS[suit])
                and legal >> (top := in_suit.bit_length() - 1) & 1
            ]
            if masters:
                return min(masters)[2]
            return max(cards_of(legal), key=lambda card: (card % RANKS, card))
        led = self._led_suit()
        best = max(c for c in self._trick if self._suit_of(c) == led)
        suit = SUIT_MASKS[led]
        if legal & suit:
            above = legal & suit & ~((1 << (best + 1)) - 1)
            if above:
                if len(self._trick) == self._trick_size() - 1:
                    return (above & -above).bit_length() - 1
                return above.bit_length() - 1
            low = legal & suit
            return (low & -low).bit_length() - 1
        calm = legal & ~self._derived.penalty or legal
        return min(cards_of(calm), key=lambda card: (card % RANKS, card))

    def _greedy_card(self, legal: int) -> int:
        """The contract's greedy policy: a cheap imitation of a careful player."""
        values = self._derived.values
        jokers = legal & self._derived.jokers
        if jokers == legal:
            return (legal & -legal).bit_length() - 1
        # Never a joker while another card is legal.
        legal &= ~jokers
        led = self._led_suit()
        if not self._trick or led < 0:
            # Lead the lowest rank, preferring a card worth nothing; lowest index on ties.
            calm = legal & ~self._derived.point or legal
            return min(cards_of(calm), key=lambda card: (card % RANKS, card))
        best = max((c for c in self._trick if self._suit_of(c) == led), key=_order)
        suit = SUIT_MASKS[led]
        if legal & suit:
            # Duck: the highest card that still loses to the trick's best (the 1911 joker
            # ranks between the TH and the JH).
            below = legal & suit & ((1 << best) - 1 if best < FIRST_JOKER else (1 << 48) - 1)
            if below:
                return below.bit_length() - 1
            # Must win: as the last to play, the highest card worth no penalty; else the lowest.
            safe = legal & ~self._derived.penalty or legal
            if len(self._trick) == self._trick_size() - 1:
                return safe.bit_length() - 1
            return (safe & -safe).bit_length() - 1
        # Void: dump the card that hurts most, then the highest rank.
        return max(cards_of(legal), key=lambda card: (max(values[card], 0), card % RANKS, card))

    def _trick_extra(self, seat: int, taken: int) -> int:
        """What the trick and reversal options add to `seat`'s card values, before the
        doubler: Gong Zhu's "all reds" (Pagat: "If one player takes all the hearts, they
        score +200 instead of -200"; with the pig too "the score for the pig becomes
        +100"), and 004 'Slobberhannes': a counter "if a player takes the first or last
        trick", and "If he takes all three he forfeits four points"."""
        cfg = self._cfg
        values = self._derived.values
        extra = 0
        hearts = self._derived.hearts
        if cfg.all_hearts_reversed and hearts and taken & hearts == hearts:
            reversed_cards = hearts
            if cfg.all_hearts_reverse_queen:
                reversed_cards |= taken & 1 << QUEEN_OF_SPADES
            extra -= 2 * sum(values[card] for card in cards_of(reversed_cards))
        history = self._history
        took_all = True
        if cfg.first_trick_points:
            first = bool(history) and history[0][2] == seat
            extra += cfg.first_trick_points if first else 0
            took_all = took_all and first
        if cfg.last_trick_points:
            last = bool(history) and history[-1][2] == seat
            extra += cfg.last_trick_points if last else 0
            took_all = took_all and last
        penalty = self._derived.penalty
        if cfg.every_penalty_extra and took_all and taken & penalty == penalty:
            extra += cfg.every_penalty_extra
        return extra

    def _doubled(self, score: int, taken: int) -> int:
        """The score of a seat that took the doubler: twice `score`, or, under
        `doubler_alone_points`, `score` plus those points when the seat took no other
        scoring card (Pagat's Gong Zhu: the ten of clubs "counts +50 if the player who
        takes it takes no other scoring cards"; "the 4, 3 and 2 of hearts are scoring
        cards, even though they score zero")."""
        cfg = self._cfg
        scoring = self._derived.point
        if cfg.all_hearts_reversed:
            scoring |= self._derived.hearts
        if cfg.doubler_alone_points and not taken & scoring & ~(1 << cfg.doubler):
            return score + cfg.doubler_alone_points
        # Gong Zhu: "The effect of exposing a card is basically to double its value"
        return score * (4 if cfg.doubler_exposed else 2)

    def _royal_score(self, taken: int) -> int:
        """004 'Royal Hearts' before the doubler and the floor: the hearts' values, doubled
        when the QH is among them; the QS's value unless the QC was taken with it; and the
        value of every other card taken (the QD's -10)."""
        values = self._derived.values
        hearts = taken & self._derived.hearts
        # The QH "doubles the point value of all Hearts captured by the player who takes it,
        # and is itself also a Heart".
        score = sum(values[card] for card in cards_of(hearts))
        if taken >> QUEEN_OF_HEARTS & 1:
            score *= 2
        others = taken & ~hearts
        # The QC, "when captured by a player who has also taken the Queen of Spades, negates
        # the Q♠'s point value".
        if taken >> QUEEN_OF_CLUBS & 1 and taken >> QUEEN_OF_SPADES & 1:
            others &= ~(1 << QUEEN_OF_SPADES)
        return score + sum(values[card] for card in cards_of(others))

    def _shot_the_sun(self, shooter: int) -> bool:
        """Whether `shooter` (as `_shooter` found it) shot the sun rather than the moon."""
        return self._cfg.sun_points > 0 and self._tricks_won[shooter] == self._cfg.hand_size

    def _shooter(self) -> tuple[int, int]:
        """(seat, M) for the seat that shot the sun or the moon, or (-1, 0)."""
        cfg = self._cfg
        # 002 'Hand scoring variants': "'Shooting the Sun' is taking all the tricks ... 52
        # points are distributed"; it takes the moon's place.
        if cfg.sun_points > 0:
            for seat in range(self._n):
                if self._tricks_won[seat] == cfg.hand_size:
                    return seat, cfg.sun_points
        # 000 'Shooting the Moon': "takes all 13 hearts and the queen of spades".
        required = self._derived.shoot_required
        if self._derived.penalty:
            for seat in range(self._n):
                if self._taken[seat] & required == required:
                    return seat, cfg.moon_points
        return -1, 0

    def shooter(self) -> tuple[int, int]:
        """(seat, worth) of the moon (or sun) shot in this finished hand; (-1, 0) when
        nobody shot or the rules have no moon. Why: the shooter's choice (004 'Shooting the
        moon') is asked of the shooter, so the hand must know who he is."""
        if self._phase != PHASE_OVER:
            raise ValueError("shooter: the hand is not over")
        if self._cfg.moon == MOON_NONE:
            return -1, 0
        seat, worth = self._shooter()
        if seat >= 0 and self._cfg.royal_queens and not self._shot_the_sun(seat):
            worth = self._raw_scores()[seat]  # as `points` has it
        return (seat, worth) if seat >= 0 else (-1, 0)

    def _moon_scores(
        self,
        raw: list[int],
        shooter: int,
        worth: int,
        totals: tuple[int, ...],
        target: int,
        choice: int = MOON_CHOICE_ENGINE,
    ) -> list[int]:
        """Replace the scores for a shot moon (or sun) worth `worth`, per 004 'Shooting the
        moon': old moon, new moon, shooter's choice, add-unless-losing and subtract after a
        score; `choice` is the shooter's where the rule offers one."""
        n = self._n
        # Old moon: "that player's score remains unchanged while 26 penalty points are added
        # to the scores of each of the other three players" (000: "that player scores zero").
        old = [0 if seat == shooter else raw[seat] + worth for seat in range(n)]
        # New moon: "subtracting 26 points from his own score instead".
        new = [-worth if seat == shooter else raw[seat] for seat in range(n)]
        moon = self._cfg.moon
        if moon == MOON_OLD:
            return old
        if moon == MOON_NEW:
            return new

        def after(scores: list[int]) -> list[int]:
            return [totals[seat] + scores[seat] for seat in range(n)]

        if moon == MOON_SUBTRACT_AFTER_SCORE and not any(
            total >= self._cfg.moon_subtract_after for total in totals
        ):
            # 004: "a player may subtract after a predetermined score has been reached by
            # him or any other player": until a total (before this hand) reaches it, add.
            return old
        if moon in (MOON_SHOOTERS_CHOICE, MOON_SUBTRACT_AFTER_SCORE):
            if choice != MOON_CHOICE_ENGINE:  # the shooter's own choice
                return new if choice == MOON_CHOICE_SUBTRACT else old
            # 002 "may either subtract 26 ... or add 26": against the others both are worth
            # the same, so the engine's pick (a bot that does not choose) is about the game's
            # end: add while strictly ahead (hastening an end the shooter leads), subtract
            # otherwise.
            finals = after(old)
            ahead = all(finals[shooter] < finals[seat] for seat in range(n) if seat != shooter)
            return old if ahead else new
        assert moon == MOON_ADD_UNLESS_LOSING
        # "must add unless doing so would end the game with the shooter losing".
        finals = after(old)
        game_ends = target > 0 and max(finals) >= target
        shooter_losing = finals[shooter] > min(finals)
        if not (game_ends and shooter_losing):
            return old
        # "In such a case, he may subtract": the shooter chooses; the engine subtracts.
        return old if choice == MOON_CHOICE_ADD else new


# --- Many random hands at once (contract "Random batch"). ---


def play_random_hands(
    cfg: CoreConfig, seed: int, count: int, schedule: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """Deal and play `count` hands with the contract's seeded random policy.

    Returns (FNV-1a digest of every decision, each seat's summed hand scores). Why: a
    cheap fingerprint that C and Python play the very same hands, and a benchmark.
    Raises ValueError for a bad config, seed, count or schedule.
    """
    cfg = as_config(cfg)
    derive(cfg)
    _check_seed(seed)
    n = cfg.players
    if count < 0:
        raise ValueError(f"count must not be negative, got {count}")
    schedule = tuple(schedule)
    if not schedule:
        raise ValueError("the pass schedule must not be empty")
    for index, kind in enumerate(schedule):
        try:
            _check_pass_kind(kind, cfg)
        except ValueError as error:
            raise ValueError(f"schedule[{index}]: {error}") from None
    master = SplitMix64(seed)
    digest = FNV_OFFSET
    sums = [0] * n
    zeros = (0,) * n
    for i in range(count):
        hand_seed = master.next()
        dealer = i % n
        pass_kind = schedule[i % len(schedule)]
        hands, kitty = deal(cfg, hand_seed, dealer)
        state = HandState(cfg, hands, kitty, dealer, pass_kind, hand_seed)
        policy = SplitMix64(hand_seed ^ POLICY_SALT)
        if state.phase == PHASE_PASSING:
            size = state._pass_size()
            for seat in range(n):
                rest = hands[seat]
                chosen = []
                for _ in range(size):
                    # Only cards the seat may pass (all of `rest` when nothing is forbidden).
                    allowed = rest & ~cfg.pass_forbidden
                    card = nth_lowest(allowed, policy.bounded(allowed.bit_count()))
                    rest &= ~(1 << card)
                    chosen.append(card)
                    digest = ((digest ^ card) * FNV_PRIME) & MASK64
                state.apply_pass(seat, tuple(chosen))
        while state.phase == PHASE_PLAYING:
            legal = state.legal_mask()
            card = nth_lowest(legal, policy.bounded(legal.bit_count()))
            digest = ((digest ^ card) * FNV_PRIME) & MASK64
            state._advance(card)
        for seat, score in enumerate(state.points(zeros, 0)):
            sums[seat] += score
    return digest, tuple(sums)
