"""The flat, integer-only rules configuration that both engine backends consume.

Why: the C core and the pure-Python reference must not each interpret the rich
:class:`arena.engine.rules.Rules` value (two interpretations would drift); `Rules`
compiles once into this tuple of ints, and both backends implement exactly the
contract in docs/decisions/0001-engine-backend-contract.md on top of it.
"""

from __future__ import annotations

from typing import Final, NamedTuple

OPENING_LOWEST_CLUB = 0
OPENING_ANY_CLUB = 1
OPENING_LEFT_OF_DEALER = 2
OPENING_LOWEST_SPADE = 3
"""The holder of the lowest spade in the hands leads it (003 'HEARTLESS': "Otherwise it is the
Two of Spades"); error 5 as for the lowest club."""

FIRST_TRICK_ANY = 0
FIRST_TRICK_NO_PENALTY = 1
FIRST_TRICK_NO_POINTS = 2

LEAD_ANY = 0
LEAD_NOT_HEARTS = 1
LEAD_NOT_POINTS = 2

BROKEN_BY_HEARTS = 0
BROKEN_BY_HEARTS_OR_QUEEN = 1
BROKEN_BY_POINTS = 2
BROKEN_BY_HEARTS_OR_QUEEN_DISCARDED = 3
"""000 'The Play': "Hearts may not be led until a heart or the queen of spades has been
discarded": a heart breaks as with 1; the QS only when the trick's suit, once it is
played, is not spades (it was discarded on another suit; led or followed to a spade lead
it breaks nothing)."""

MOON_NONE = 0
MOON_OLD = 1
MOON_NEW = 2
MOON_SHOOTERS_CHOICE = 3
MOON_ADD_UNLESS_LOSING = 4
MOON_SUBTRACT_AFTER_SCORE = 5
"""004 'Shooting the moon': "a player may subtract after a predetermined score has been
reached by him or any other player" (the score is `moon_subtract_after`)."""

MOON_CHOICE_ENGINE = -1
"""`points(totals, target, choice)`: the engine's own pick where the shooter may choose."""
MOON_CHOICE_ADD = 0
"""The shooter adds the moon to the others' scores (where the rules let him choose)."""
MOON_CHOICE_SUBTRACT = 1
"""The shooter subtracts the moon from his own score (where the rules let him choose)."""

KITTY_TO_FIRST_TRICK = 0
KITTY_TO_FIRST_POINTS = 1
KITTY_TO_FIRST_HEART = 2
"""004 'Deal': the set-aside cards "go to whoever takes the first heart": the winner of the
first trick holding a heart (the suit in play, the 1911 joker included); the last trick's
winner if no trick holds one."""
KITTY_EACH_TRICK = 3
"""004 'The Kitty and the First Trick': "the first trick takes one card, and the second
trick takes the next, until the kitty is exhausted": the winner of trick t (0-based) takes
the kitty's t-th lowest card (index order) while t < kitty_size; `kitty_owner` is the first
trick's winner."""

PASS_HOLD = 0
PASS_SCATTER = 100
PASS_CENTER = 101
PASS_STAR = 102
"""Star passing for an odd table (004 'Passing cards'): two cards, one to each of the two
seats nearest the opposite side: card 0 to `(s + n // 2) % n`, card 1 to
`(s + (n + 1) // 2) % n`."""
PASS_SPLIT = 103
"""A split pass (003 'Simple variations': "Pass one card to the right and two cards to the
left"): card i of every pass goes its own offset to the left. A backend `HandState` is given
the offsets as a tuple in place of the int pass kind; it reports this kind."""

JOKER_NONE = 0
JOKER_WILD = 1
"""004 'Other Variations': jokers "can be played any time and count for zero points"; no
suit, never win a trick; a trick led with one takes the suit of its first suited card."""
JOKER_HEART = 2
"""004 (1911) 'Joker Hearts': the one joker (card 52) is a heart "ranking in value between
ten and knave", playable only once the trick holds the JH, QH, KH or AH (or as the only
legal card)."""
JOKER_FIRST = 52
"""Card indices 52, 53, 54 are the jokers (text JK1, JK2, JK3)."""
JOKERS_MASK = 0b111 << 52
ALL_CARDS = (1 << 55) - 1
"""Every card index a mask may hold: the pack and the three jokers."""

PHASE_PASSING = 0
PHASE_PLAYING = 1
PHASE_OVER = 2

# Error codes shared by both backends (see the contract for their precedence).
ERR_HAND_OVER = 1
ERR_PASSING = 2
ERR_BAD_CARD = 3
ERR_NOT_IN_HAND = 4
ERR_MUST_LEAD_OPENING_CARD = 5
ERR_MUST_LEAD_CLUB = 6
ERR_MUST_FOLLOW_SUIT = 7
ERR_FIRST_TRICK_POINTS = 8
ERR_NOT_BROKEN = 9
ERR_NOT_PASSING = 10
ERR_BAD_SEAT = 11
ERR_ALREADY_PASSED = 12
ERR_PASS_COUNT = 13
ERR_PASS_DUPLICATE = 14
ERR_PASS_NOT_IN_HAND = 15
ERR_PASS_FORBIDDEN = 16
"""A pass holding a card the rules forbid passing (004 'Passing cards': "Passing the Ace,
King and/or Queen of Spades may be allowed or prohibited")."""
ERR_JOKER_HELD = 18
"""The 1911 joker (004 'Joker Hearts': "It cannot be thrown away, excepting when hearts are
led and an ace or court card is played") played while the trick holds no JH, QH, KH or AH
and the seat has another legal card."""
ERR_BOOSTER_SUIT = 17
"""Booster Nines (004 'Other Variations': "if a nine is played then an extra round in the suit
is played"): the leader must lead the suit whose nine was played to the last trick."""
ERR_QUEEN_FIRST_CHANCE = 19
"""001 'VARIATION 1: BLACK MARIAH' (`CoreConfig.queen_at_first_chance`): the seat holds
the QS, may play it, and is discarding or sees the AS or KS in a spade trick: "a player
holding the Q of spades must get rid of it on the first trick they legitimately can"."""
ERR_EXPOSED_CARD = 20
"""Gong Zhu's exposed cards (`CoreConfig.exposed`; Wikipedia 'Gong Zhu': "An exposed card
may not be played the first time its suit is led, including the lead itself, unless it is
a singleton"): a card of `exposed` led, or played to the first trick led in its suit,
while the seat holds another card of that suit (checked last)."""
ERR_PASS_COPIES = 21
"""Cancellation Hearts (000; 003): a pass names a card more times than the seat holds it
(with two packs a card may be passed twice by a seat holding both copies)."""


class CoreConfig(NamedTuple):
    """Every rule the backends need, as plain ints (field order is part of the contract)."""

    players: int
    hand_size: int
    deck: int
    kitty_size: int
    pass_count: int
    opening: int
    first_trick: int
    lead_rule: int
    broken_by: int
    queen_hearts_lead: int
    values: tuple[int, ...]
    doubler: int
    moon: int
    moon_points: int
    moon_extra: int
    sun_points: int
    no_trick_bonus: int
    kitty_taker: int
    pass_forbidden: int = 0
    """Mask of cards that may not be passed (appended last, so older field positions hold;
    0, the default, forbids nothing and changes nothing)."""
    royal_queens: int = 0
    """1: 004 'Royal Hearts' scoring (the QH doubles its taker's hearts, the QC cancels the
    QS of the seat that took both, a hand scores at least 0, a moon is worth the shooter's
    own raw score instead of `moon_points`); 0, the default, changes nothing."""
    booster_nines: int = 0
    """1: Booster Nines (004 'Other Variations'): when a trick holds the nine of the suit led,
    the next trick's leader must lead that suit if he holds it (error 17), whatever the lead
    rule; 0, the default, changes nothing."""
    joker_kind: int = 0
    """What the jokers in `deck` (bits 52..54) are: JOKER_NONE (0, the default: a deck holds
    none), JOKER_WILD (004 'Other Variations') or JOKER_HEART (004 1911 'Joker Hearts', only
    card 52)."""
    joker_points: int = 0
    """Each joker's value to its taker (`values` lists the 52 cards of the pack only)."""
    queen_at_first_chance: int = 0
    """1: 001 'VARIATION 1: BLACK MARIAH' (`Rules.queen_at_first_chance`): a seat that may
    play the QS to another's lead must, when it is discarding or the trick holds the AS
    or KS (error 19, checked last); 0, the default, changes nothing."""
    first_trick_points: int = 0
    """Added to the score of the first trick's winner (004 'Slobberhannes'); 0 changes
    nothing. Trick points and the extra below are added after the card values (and the
    reversal), before the doubler; a moon or sun replaces them like the rest."""
    last_trick_points: int = 0
    """Added to the score of the last trick's winner (004 'Slobberhannes')."""
    every_penalty_extra: int = 0
    """Added for the seat that won the first trick (if `first_trick_points` is not 0), the
    last trick (if `last_trick_points` is not 0) and took every penalty card in the deck
    (004 'Slobberhannes': "If he takes all three he forfeits four points")."""
    doubler_alone_points: int = 0
    """When not 0: a seat that took the doubler and no other scoring card (a card worth
    anything, or a heart under `all_hearts_reversed`) adds this instead of doubling (Gong
    Zhu's lone ten of clubs)."""
    all_hearts_reversed: int = 0
    """1: a seat that took every heart in the deck scores its hearts' values negated (Gong
    Zhu's "all reds"), before the trick points and the doubler."""
    all_hearts_reverse_queen: int = 0
    """1 (with `all_hearts_reversed`): such a seat's QS value is negated too (Gong Zhu)."""
    moon_subtract_after: int = 0
    """With moon MOON_SUBTRACT_AFTER_SCORE (004 'Shooting the moon'): the total some seat
    must have reached before the hand for the shooter to choose; until then he adds. 0,
    the default, changes nothing under the other moon rules."""
    extra_cards_first_trick: int = 0
    """1 (002 'Alternatives to the "Kitty"'): no kitty (kitty_size 0); the deck's
    `deck_size - players * hand_size` cards left over (1..players-1) are dealt on round the
    table, one more to each of the first seats from the dealer's left, and those seats play
    that extra card to the first trick after the whole table has played to it once, in
    play order from the leader. The first trick then holds players + extra cards."""
    exposed: int = 0
    """Mask of the cards exposed before play (Gong Zhu, Pagat: "There are four cards which
    may be exposed by their holders before the start of play"; the hand sets it once every
    seat has answered): such a card may not be led, nor played to the first trick led in
    its suit, while its holder has another card of that suit (error 20, checked last;
    Wikipedia 'Gong Zhu'). 0, the default, changes nothing."""
    doubler_exposed: int = 0
    """1: the doubler was exposed (Gong Zhu: "The effect of exposing a card is basically to
    double its value"): it quadruples the other scoring cards of its taker instead of
    doubling them (its lone value is doubled in `doubler_alone_points` by the hand's
    rules). 0, the default, changes nothing."""


CONFIG_MASKS: Final = frozenset({"deck", "moon_extra", "pass_forbidden", "exposed"})
"""`CoreConfig` fields that are card masks (``uint64_t`` in C); the others are ints."""
CONFIG_FLAGS: Final = frozenset(
    {
        "queen_hearts_lead",
        "royal_queens",
        "booster_nines",
        "queen_at_first_chance",
        "all_hearts_reversed",
        "all_hearts_reverse_queen",
        "extra_cards_first_trick",
        "doubler_exposed",
    }
)
"""`CoreConfig` fields that are 0/1 switches: the C core refuses any other value
(HC_CFG_FLAG), so a new switch needs no range check of its own."""
CONFIG_VALUES: Final = "values"
"""The one tuple field: a value per card of the pack."""


def config_kind(field: str) -> str:
    """How the C core stores and checks a `CoreConfig` field: ``'MASK'``, ``'FLAG'``,
    ``'VALUES'`` or ``'INT'`` (arena/engine/_core/hc_config_fields.h is generated from it
    by `arena.engine.config_header`)."""
    if field in CONFIG_MASKS:
        return "MASK"
    if field in CONFIG_FLAGS:
        return "FLAG"
    return "VALUES" if field == CONFIG_VALUES else "INT"


FULL_DECK = (1 << 52) - 1


def standard_config(players: int = 4) -> CoreConfig:
    """The four-hand standard game's configuration, for backend tests that avoid `Rules`."""
    values = [0] * 52
    for index in range(39, 52):
        values[index] = 1
    values[36] = 13
    return CoreConfig(
        players=players,
        hand_size=52 // players,
        deck=FULL_DECK,
        kitty_size=52 % players,
        pass_count=3,
        opening=OPENING_LOWEST_CLUB,
        first_trick=FIRST_TRICK_NO_PENALTY,
        lead_rule=LEAD_NOT_HEARTS,
        broken_by=BROKEN_BY_HEARTS_OR_QUEEN,
        queen_hearts_lead=0,
        values=tuple(values),
        doubler=-1,
        moon=MOON_OLD,
        moon_points=26,
        moon_extra=0,
        sun_points=0,
        no_trick_bonus=0,
        kitty_taker=KITTY_TO_FIRST_TRICK,
        pass_forbidden=0,
        royal_queens=0,
        booster_nines=0,
        joker_kind=0,
        joker_points=0,
        queen_at_first_chance=0,
        first_trick_points=0,
        last_trick_points=0,
        every_penalty_extra=0,
        doubler_alone_points=0,
        all_hearts_reversed=0,
        all_hearts_reverse_queen=0,
        moon_subtract_after=0,
        extra_cards_first_trick=0,
        exposed=0,
        doubler_exposed=0,
    )
