"""`Rules`: one immutable, validated, serialisable value describing a Hearts variant.

Why one value: a season, a match and a replay each carry the full `Rules`, never just a
preset name, so a replay made today still verifies after a preset changes. Every option
cites the source text in ../shared/rules/ it comes from (by file name and section); the
presets live in `arena.engine.presets`. `Rules.core_config()` compiles the value into the
integer `CoreConfig` that the C core and the reference both play by.

>>> rules = Rules()
>>> rules.players, rules.hand_size, rules.penalty_total
(4, 13, 26)
>>> Rules.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from enum import StrEnum
from functools import cache, cached_property
from types import MappingProxyType
from typing import Any, Final, TypeVar

from . import config as core
from .cards import Card, CardLike, CardSet, Suit, to_card
from .multiset import CardMultiset

RULES_FORMAT_VERSION: Final = 1

_E = TypeVar("_E", bound=StrEnum)


class RulesError(ValueError):
    """Impossible or contradictory rules; the message names the setting and why."""


class PassDirection(StrEnum):
    """Where a hand's passed cards go (000 'The Pass'; 001 rotations; 002 'Passing variants')."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    LEFT2 = "left2"  # two seats to the left (001, five players)
    RIGHT2 = "right2"  # two seats to the right (001, five players)
    HOLD = "hold"  # keep: no passing this hand (000 'The Pass')
    SCATTER = "scatter"  # one card to each other player (002 'Passing variants')
    CENTER = "center"  # the center mixer / "smoosh" (002; 004 'Passing cards')
    # Odd tables: two cards, one to each of the two seats nearest the opposite side of the
    # table (004 'Passing cards', "star-passing").
    STAR = "star"
    # In a schedule: the dealer calls this hand's pass after looking at the deal, from
    # `Rules.pass_call_options` (003 'Simple variations': "The dealer chooses the passing
    # rule"; 004 'Passing cards': "The Dealer may choose how many cards and where to pass").
    DEALER_CALLS = "dealer_calls"
    # A call only (`Rules.pass_call_split`): each passed card goes its own direction, one of
    # the directional `pass_call_options` (003 'Simple variations': "Pass one card to the
    # right and two cards to the left"); the hand's `pass_split` says which.
    SPLIT = "split"

    def offset(self, players: int) -> int | None:
        """Seats to the left the cards go, or None for hold/scatter/center/star."""
        kind = _PASS_KINDS[self, players]
        return kind if 0 < kind < core.PASS_SCATTER else None

    def core_kind(self, players: int) -> int:
        """The backend's pass kind (contract: 0 hold, 1..n-1 offset, 100 scatter, 101 center,
        102 star)."""
        return _PASS_KINDS[self, players]


def _pass_kind(direction: PassDirection, players: int) -> int:
    return {
        PassDirection.LEFT: 1,
        PassDirection.RIGHT: players - 1,
        PassDirection.ACROSS: players // 2,
        PassDirection.LEFT2: 2 % players,
        PassDirection.RIGHT2: (players - 2) % players,
        PassDirection.HOLD: core.PASS_HOLD,
        PassDirection.SCATTER: core.PASS_SCATTER,
        PassDirection.CENTER: core.PASS_CENTER,
        PassDirection.STAR: core.PASS_STAR,
        PassDirection.DEALER_CALLS: -1,  # never reaches a backend: the call replaces it
        PassDirection.SPLIT: -2,  # never reaches a backend as one kind: one offset per card
    }[direction]


# Looked up once per hand on the hot path, so computed once for every table size.
_PASS_KINDS: Final = {(d, n): _pass_kind(d, n) for d in PassDirection for n in range(1, 11)}


class Opening(StrEnum):
    """Who leads the first trick, and what."""

    LOWEST_CLUB = "lowest_club"  # holder of 2C leads it; 3C when 2C is out (000 'The Play'; 001)
    ANY_CLUB = "any_club"  # holder of the lowest club leads any club
    LEFT_OF_DEALER = "left_of_dealer"  # any card (003 'Regular Hearts'; 004 1911; 002)
    # Holder of the lowest spade in play leads it: 003 'HEARTLESS', "Otherwise it is the Two
    # of Spades" (with a trimmed deck the lowest spade, as LOWEST_CLUB does for clubs).
    LOWEST_SPADE = "lowest_spade"


class FirstTrick(StrEnum):
    """What may be discarded on the first trick (000 'The Play'; 001; 002 'Play variants')."""

    ANY = "any"
    NO_PENALTY_CARDS = "no_penalty_cards"  # no card worth points (hearts, QS, 7C…)
    NO_POINT_CARDS = "no_point_cards"  # also no bonus card such as JD (001)


class LeadRule(StrEnum):
    """What may not be led until broken (000 'The Play'; 001 'How to play'; 003)."""

    ANY = "any"
    HEARTS_BROKEN = "hearts_broken"
    POINTS_BROKEN = "points_broken"  # no point card led until one is played (001, 003)


class BrokenBy(StrEnum):
    """What breaks (000: a heart or the QS discarded; 002: a heart; 001: any point card)."""

    HEARTS = "hearts"
    HEARTS_OR_QUEEN = "hearts_or_queen"  # any play of the QS (002 'Play variants'; 004)
    POINT_CARDS = "point_cards"
    # 000 'The Play': "Hearts may not be led until a heart or the queen of spades has been
    # discarded" (004 'The play of the game': "discarded on the lead of another suit"): a
    # heart breaks as before; the QS only when played to a trick of another suit.
    HEARTS_OR_QUEEN_DISCARDED = "hearts_or_queen_discarded"


PLEDGE_POINTS: Final = 10
"""004 'Scoring variants': the no-hearts pledge's worth ("subtract 10 penalty points ...
assessed 10 additional penalty points"), `Rules.pledge_points`' default."""

EXPOSABLE: Final = tuple(to_card(text) for text in ("AH", "QS", "JD", "TC"))
"""Gong Zhu's cards that may be exposed (Pagat: "ace of hearts, queen of spades, jack of
diamonds, ten of clubs"), in that order (`Rules.exposures`)."""


class MoonRule(StrEnum):
    """Shooting the moon (000 'Shooting the Moon'; 004 'Shooting the moon')."""

    NONE = "none"
    OLD = "old"  # shooter 0, everyone else + moon points
    NEW = "new"  # shooter - moon points
    SHOOTERS_CHOICE = "shooters_choice"  # 002: either; the engine picks the better for the shooter
    ADD_UNLESS_LOSING = "add_unless_losing"  # 004 sub-rule: add unless that loses the game
    # 004 sub-rule: "a player may subtract after a predetermined score has been reached by
    # him or any other player" (`Rules.moon_subtract_after`): add until then, then choose.
    SUBTRACT_AFTER_SCORE = "subtract_after_score"


class KittyTaker(StrEnum):
    """Who takes the kitty (002 'Kitty variants'; 001 'Winning the kitty'; 004)."""

    FIRST_TRICK = "first_trick"
    FIRST_POINTS = "first_points"
    # 004 'Deal' (three and five players): the set-aside cards "go to whoever takes the
    # first heart"; the last trick's winner when no trick holds a heart (our choice).
    FIRST_HEART = "first_heart"
    # 004 'The Kitty and the First Trick': "the first trick takes one card, and the second
    # trick takes the next, until the kitty is exhausted" (lowest card first, our choice).
    EACH_TRICK = "each_trick"


class KittyVisibility(StrEnum):
    """Who may see the kitty (002 'Kitty variants')."""

    HIDDEN = "hidden"
    FACE_UP = "face_up"
    AFTER_FIRST_TRICK = "after_first_trick"
    TAKER_ONLY = "taker_only"


class Settlement(StrEnum):
    """How a hand's points turn into what the totals count (lowest total still wins).

    With chips, a seat's total is the chips it has paid in net, so "lowest wins" and
    "the game ends when a total reaches `target_score`" keep their meaning: `target_score`
    is the stake each player sits down with, and a player whose net payments reach it has
    run out (docs/rules.md "Chips").
    """

    POINTS = "points"  # points go on the score sheet (000 'Scoring')
    # 000 'Hearts Without Black Lady', 004 (1911, "Howell's"): per point, one chip to
    # each other player's share; out, one chip per point not taken.
    HOWELL = "howell"
    # 000 'Scoring Variations' 1): pay a chip per point; the lowest score takes the pot,
    # ties split it, odd chips stay for the next deal.
    POT_LOWEST = "pot_lowest"
    # 000 'Scoring Variations' 2), Sweepstakes: pay a chip per point; only a score of
    # zero takes the pot (several split it); otherwise the pot stays.
    SWEEPSTAKES = "sweepstakes"
    # 004 'Scoring' (simplified chips): one chip each into the pool; split between the
    # players who took no penalty card; if everyone took one, the pool stays.
    POOL_CLEAN = "pool_clean"
    # 000 'Auction Hearts': the highest bidder puts his bid in the pot; each player then adds
    # a chip per card of the named suit taken; one or two players who took none share the
    # pot (an odd chip stays); otherwise it stays and the same player names again.
    AUCTION = "auction"


class ScoringSuitChoice(StrEnum):
    """Which suit scores (003 'HEARTLESS': "the suit that scores points can change from
    hand to hand").

    Why a setting and not a preset detail: under REVEALED a hand's card values and opening
    are only known once every seat has shown a card, so `Hand` needs a reveal phase and
    `Rules.for_scoring_suit` gives the rules the hand is then played by.
    """

    FIXED = "fixed"  # `card_values` and `opening` apply to every hand
    # Each seat shows a card after the pass; the suit of the highest scores, with its
    # scoring queen (003 'HEARTLESS'; `arena.engine.heartless.scoring_suit_of`).
    REVEALED = "revealed"
    # 000 'Auction Hearts' (and 004's 1911 text): the players bid once each, in turn from
    # the dealer's left, "for the privilege of naming the suit to be avoided"; the highest
    # bidder names it and leads first. Each card of that suit is worth 1, nothing else
    # (`arena.engine.auction`).
    AUCTION = "auction"


class DealerRule(StrEnum):
    """Who deals the next hand."""

    ROTATE = "rotate"  # the deal passes to the left (000 'The Deal')
    # 004 'Other Variations', Queens: the player who took the QS in the previous hand.
    QUEEN_OF_SPADES_TAKER = "queen_of_spades_taker"
    # Gong Zhu (Pagat, https://www.pagat.com/reverse/gongzhu.html): "in subsequent hands,
    # the player who took the pig (queen of spades) on the previous hand leads to the first
    # trick". The seat at his right deals, and every hand after a game's first is played by
    # `Rules.rules_for_hand`: opening 'left_of_dealer', so he leads any card.
    QUEEN_OF_SPADES_TAKER_LEADS = "queen_of_spades_taker_leads"


class JokerKind(StrEnum):
    """What the jokers added by `Rules.jokers` are: 004's two Joker Hearts."""

    # 'Other Variations': "adding the joker cards, which can be played any time and count for
    # zero points"; 'Deal': they "count as an off-suit, non-Heart card". No suit, never win.
    WILD = "wild"
    # The 1911 'Joker Hearts': "the deuce of hearts is discarded, and an extra card, called
    # the joker, takes its place, ranking in value between ten and knave", played only on a
    # trick holding the ace or a court card of hearts (or as the only legal card).
    HEART_1911 = "heart_1911"


class PennyPlay(StrEnum):
    """003 'FOUR-PENNY HEARTS': one trick at a time, or n penny-rounds at once."""

    NONE = "none"  # regular trick play
    # "In the simple version of Four-Penny Hearts, each player plays one card to each
    # penny-round during a multi-round."
    SIMPLE = "simple"
    # "In the advanced version of the game, a player can play more than one card to a
    # penny-round provided that exactly four cards are played to each."
    ADVANCED = "advanced"


_ENUM_FIELDS: Final[dict[str, type[StrEnum]]] = {
    "kitty_taker": KittyTaker,
    "kitty_visibility": KittyVisibility,
    "opening": Opening,
    "first_trick": FirstTrick,
    "lead_rule": LeadRule,
    "broken_by": BrokenBy,
    "moon": MoonRule,
    "settlement": Settlement,
    "dealer_rule": DealerRule,
    "scoring_suit_choice": ScoringSuitChoice,
    "joker_kind": JokerKind,
    "penny_play": PennyPlay,
}

QUEEN_OF_SPADES_POINTS: Final = 13
STAR_PASS_SIZE: Final = 2  # 004 'Passing cards': "The players choose only two cards"
DOMINO_HAND_SIZE: Final = 6  # 000 'Domino Hearts': "Each player receives six cards"
HEART_POINTS: Final = 1

SCORING_QUEENS: Final[Mapping[Suit, Card]] = MappingProxyType(
    {
        # 003 'HEARTLESS': "For the scoring suit of Hearts, the scoring Queen is the Queen of
        # Spades ... Spades, ... the Queen of Diamonds ... Diamonds, ... the Queen of Clubs.
        # And for the scoring suit of Clubs, the scoring Queen is the Queen of Hearts."
        Suit.HEARTS: Card.from_str("QS"),
        Suit.SPADES: Card.from_str("QD"),
        Suit.DIAMONDS: Card.from_str("QC"),
        Suit.CLUBS: Card.from_str("QH"),
    }
)


def standard_values() -> dict[Card, int]:
    """Each heart 1, the QS 13 (000 'Scoring')."""
    values = dict.fromkeys(CardSet.from_mask(Suit.HEARTS.mask), HEART_POINTS)
    values[Card.from_str("QS")] = QUEEN_OF_SPADES_POINTS
    return values


_ENFLE_READS: Final = frozenset(
    {
        "players",
        "removed_cards",
        "kitty_size",
        "jokers",
        "pass_schedule",
        "pass_call_options",
        "opening",
        "first_trick",
        "lead_rule",
        "card_values",
        "moon",
        "target_score",
        "max_hands",
        "enfle",
        "name",
    }
)
"""The options an Enfle hand reads or `Rules._validate_enfle` checks one by one."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rules:
    """A complete, validated Hearts variant. Build presets with `arena.engine.presets`.

    `royal_queens` (004 'Royal Hearts', the `royal` preset) changes how a hand is scored. A
    seat's score is: the values (`card_values`) of the hearts it took, doubled if it took the
    QH (which "doubles the point value of all Hearts captured by the player who takes it, and
    is itself also a Heart"); plus the QS's value if it took the QS, unless it also took the QC
    (which "negates the Q♠'s point value"); plus the values of every other card it took (the
    QD's -10, any other valued card); floored at 0 (the QD "cannot result in a negative score
    for the hand"). A moon (every penalty card, value > 0, and `moon_requires`) is worth the
    shooter's own such score without the floor ("based on the total point count of that
    player": 52 with neither helping queen, 42 with the QD, 26 with the QC, 16 with both),
    scored by `moon` 'old' (shooter 0, everyone else + it) or 'new' (shooter - it). So it needs
    the four queens in play, no doubler, `moon` 'none', 'old' or 'new' and `moon_points` None.
    `sun_points` and `no_trick_bonus` work as for any rules, after the royal score: a sun
    replaces the moon with its own worth, and the bonus is added last.

    `booster_nines` (004 'Other Variations': "Booster Nines - if a nine is played then an
    extra round in the suit is played", the `booster_nines` preset): when a trick holds the
    nine of the suit led, the next trick must be led in that suit if its leader holds a card
    of it, whatever the lead rule says (a heart may be led before hearts are broken); a leader
    without the suit leads by the usual rules. A nine played off-suit boosts nothing.

    `jokers` (0..3) adds the jokers JK1..JK3 to the pack (004 'Joker Hearts'); what they are
    is `joker_kind`, and what they are worth is `card_values` (every joker the same). 'wild'
    jokers (004 'Other Variations' and 'Deal') have no suit and may be played at any time,
    even by a player holding the suit led, but for the opening lead; they never win a trick:
    a trick led with one takes the suit of the first suited card played to it, and a trick
    of jokers only goes to its leader. A 'heart_1911' joker (one at most; the `joker_1911`
    preset removes the 2H for it) is a heart ranked between the 10 and the J; it may be
    played only to a trick that already holds the JH, QH, KH or AH (following a heart lead,
    or discarded after an opponent discarded one of them), unless it is the only card the
    player may play. docs/rules.md has the reasons.

    Raises RulesError on construction for impossible or contradictory settings.
    """

    players: int = 4
    removed_cards: CardSet = dataclasses.field(default_factory=CardSet)
    kitty_size: int = 0
    kitty_taker: KittyTaker = KittyTaker.FIRST_TRICK
    kitty_visibility: KittyVisibility = KittyVisibility.HIDDEN
    pass_count: int = 3
    pass_schedule: tuple[PassDirection, ...] = (
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.ACROSS,
        PassDirection.HOLD,
    )
    pass_forbidden: CardSet = dataclasses.field(default_factory=CardSet)
    opening: Opening = Opening.LOWEST_CLUB
    first_trick: FirstTrick = FirstTrick.NO_PENALTY_CARDS
    lead_rule: LeadRule = LeadRule.HEARTS_BROKEN
    broken_by: BrokenBy = BrokenBy.HEARTS_OR_QUEEN
    queen_and_hearts_may_lead_heart: bool = False
    card_values: Mapping[Card, int] = dataclasses.field(default_factory=standard_values)
    doubler: Card | None = None
    royal_queens: bool = False
    booster_nines: bool = False
    queen_at_first_chance: bool = False
    """001 'VARIATION 1: BLACK MARIAH': "Hearts purists argue that a player holding the Q
    of spades must get rid of it on the first trick they legitimately can (by playing it
    as the first discard in a voided suit, or by playing it when an opponent leads A of
    spades or K of spades)". Read as: whenever the QS is among a seat's legal plays to a
    trick someone else led, and the seat is discarding (the suit led is not spades) or
    the trick already holds the AS or KS, the QS is its only legal play. The first-trick
    rule comes first: where it bars the QS, that trick is no opportunity. The seat's
    legal plays say so (error 19 otherwise); docs/rules.md gives the reading."""
    jokers: int = 0
    joker_kind: JokerKind = JokerKind.WILD
    pass_call_options: tuple[PassDirection, ...] = ()
    pass_call_split: bool = False
    """003 'Simple variations': the dealer may also call a split pass, each of the
    pass_count cards to one of the directional `pass_call_options` ("Pass one card to the
    right and two cards to the left"); every player still "passes three cards and receives
    three cards"."""
    moon: MoonRule = MoonRule.OLD
    moon_points: int | None = None
    moon_requires: CardSet = dataclasses.field(default_factory=CardSet)
    sun_points: int = 0
    no_trick_bonus: int = 0
    exact_score_adjustments: tuple[tuple[int, int], ...] = ()
    target_score: int | None = 100
    max_hands: int | None = None
    settlement: Settlement = Settlement.POINTS
    dealer_rule: DealerRule = DealerRule.ROTATE
    scoring_suit_choice: ScoringSuitChoice = ScoringSuitChoice.FIXED
    max_bid: int = 0
    """The highest bid allowed under scoring_suit_choice 'auction' (0 otherwise). The
    sources set no limit; a bound keeps a bid within what a bot can be asked to stake."""
    lives: int = 0
    """Danger Hearts (004 'Other Variations'): the lives each player starts with (0: the
    game has none). A hand scoring `danger_points` or more costs a life; the game is
    `max_hands` hands, played on until one player leads on lives, then points."""
    danger_points: int = 0
    """Danger Hearts: the points in one hand that cost a life (0 without lives)."""
    cancellation: bool = False
    """Cancellation Hearts (000 'Cancellation Hearts'; 003 'CANCELLATION HEARTS'): two packs
    shuffled together (every card of `deck` twice, but `second_pack_removed`), "if two
    players lay down exactly the same card, the two cards cancel each other and neither card
    can win the trick"; an unwon trick is set aside for the next trick's winner. Played by
    `arena.engine.variants.cancellation` (3 to 10 players); docs/rules.md has every choice."""
    second_pack_removed: CardSet = dataclasses.field(default_factory=CardSet)
    """Cancellation Hearts: cards taken out of the second pack only (003's four-player
    deck: "Remove the Twos from one deck"); `removed_cards` leaves both packs."""
    domino: bool = False
    """000 'Domino Hearts': six cards each, the rest a stock; a seat that cannot follow
    draws until it can, seats drop out as their hands run dry, the last survivor keeps
    his cards (`arena.engine.variants.domino`). 2..7 players, the whole pack, no pass, the seat
    left of the dealer leads; docs/rules.md gives the choices where the source is silent."""
    penny_play: PennyPlay = PennyPlay.NONE
    """003 'FOUR-PENNY HEARTS' (and 'THREE-PENNY AND FIVE-PENNY HEARTS'): after
    `penny_openings` regular tricks the hand is played in multi-rounds of `players`
    penny-rounds at once (`arena.engine.variants.penny`); 'none' plays one trick at a time."""
    penny_openings: int = 0
    """The regular opening tricks before the first multi-round (003: one with four players,
    two with three, none with five); 0 without `penny_play`."""
    enfle: bool = False
    """004 'Enfle' (Schwellen): "A player must follow suit if he can, but if he cannot he may
    not discard, but must take up all tricks already won and add them to his hand. Play is
    continued until one player gets rid of all his cards and thus wins." Played by
    `arena.engine.variants.enfle` (2..4 players, a piquet pack, each seat scores its cards
    left); docs/rules.md 'Enfle' gives every choice where the source is silent."""
    first_trick_points: int = 0
    """Points to the winner of the first trick, on top of the cards he took (004
    'Slobberhannes': "one being forfeited to the pool if a player takes the first or last
    trick"). 0: the first trick carries nothing of its own."""
    last_trick_points: int = 0
    """Points to the winner of the last trick (004 'Slobberhannes'); 0: nothing."""
    every_penalty_extra: int = 0
    """Added for a seat that takes every penalty of the hand: the first trick (when
    `first_trick_points` is set), the last trick (when `last_trick_points` is set) and every
    penalty card in play (004 'Slobberhannes': "If he takes all three he forfeits four
    points", so 1 + 1 + 1 plus an extra 1). Needs first or last trick points."""
    doubler_alone_points: int = 0
    """With a `doubler`: what its taker scores, instead of doubling, when he took no other
    scoring card (a point card, or a heart under `all_hearts_reversed`). Gong Zhu (Pagat,
    https://www.pagat.com/reverse/gongzhu.html): "the ten of clubs counts +50 if the player
    who takes it takes no other scoring cards" (ours -50, lower being better). 0: off, the
    doubler doubles as before."""
    all_hearts_reversed: bool = False
    """A seat that takes every heart in play scores its hearts negated (Gong Zhu's "all
    reds": "If one player takes all the hearts, they score +200 instead of -200"; ours -200
    instead of 200). Needs no jokers, the hearts in play and `royal_queens` off."""
    all_hearts_reverse_queen: bool = False
    """With `all_hearts_reversed`: the seat that reverses the hearts and took the QS too has
    the QS's value negated (Gong Zhu: "If a player takes all the hearts and the pig as well,
    then the score for the pig becomes +100, making a total of +300")."""
    moon_subtract_after: int = 0
    """With moon 'subtract_after_score' (004 'Shooting the moon': "That a player may
    subtract after a predetermined score has been reached by him or any other player"): the
    total some seat must have reached before the hand for the shooter to choose; until then
    he adds. 0 with any other moon rule."""
    no_hearts_pledge: bool = False
    """004 'Scoring variants': "A player may declare before the first card is played that he
    or she will not take any hearts on the upcoming hand": after the pass each seat, from
    the dealer's left, pledges or not (`DecisionKind.PLEDGE`); `pledge_points` off for a
    pledge kept, on for one broken."""
    pledge_points: int = 10  # PLEDGE_POINTS (a literal: `check_rules` reads the default)
    """The no-hearts pledge's worth (004: "they may subtract 10 penalty points, but if they
    take any hearts they are assessed 10 additional penalty points")."""
    pass_call_counts: tuple[int, ...] = ()
    """004 'Passing cards': "The Dealer may choose how many cards and where to pass": the
    counts the dealer may call with a pass (`decisions.CountedCall`), `pass_count` among
    them (a call without a count, and the default on a fault, pass `pass_count`); () lets
    him call `pass_count` only. A split passes as many cards as it names directions."""
    extra_cards_first_trick: bool = False
    """002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards
    to players and allow the player with them to play an additional card on the first
    trick." The cards that do not deal evenly (`extra_cards`, fewer than `players`) go on
    round the table from the dealer's left, one more each to the first seats; the first
    trick is played round once, then each seat holding an extra card plays it to the same
    trick, in play order from the leader (our reading: 002 does not say when; after the
    round, every card of it is in sight). It follows the first trick's rules (follow suit,
    no points where they are barred), and after it every hand is `hand_size - 1`. Needs
    no kitty (`kitty_size` 0)."""
    queen_refusal: bool = False
    """Rickety Kate (M. Kerwin): "The receiving player has the right to refuse the Queen of
    Spades, in which case another card must be passed in its place". Once every seat has
    chosen its pass and before the exchange, the seat the QS is passed to is asked whether
    it refuses it (`DecisionKind.REFUSE_QUEEN`); if it does, the giver names another card
    of its hand (`DecisionKind.REPLACE_PASS`) that goes in the QS's place. Needs the one QS
    in play and a pass with one receiver per seat (directional or hold)."""
    exposures: bool = False
    """Gong Zhu (Pagat, https://www.pagat.com/reverse/gongzhu.html): "There are four cards
    which may be exposed by their holders before the start of play: ace of hearts, queen of
    spades, jack of diamonds, ten of clubs. The effect of exposing a card is basically to
    double its value." After the pass (Gong Zhu has none) each seat from the dealer's left
    says which of those it holds it exposes (`DecisionKind.EXPOSE`); the hand then plays
    by `for_exposures(cards)`, and an exposed card may not be played the first time its
    suit is led, unless it is a singleton (Wikipedia 'Gong Zhu'). Needs Gong Zhu's cards:
    the ♣10 as the doubler and the ♠Q, ♦J and ♥A worth something."""
    name: str = "custom"

    def __post_init__(self) -> None:
        # Normalise convenient inputs (text cards, lists) into the canonical immutable forms.
        set_ = object.__setattr__
        if not isinstance(self.removed_cards, CardSet):
            set_(self, "removed_cards", CardSet(self.removed_cards))
        if not isinstance(self.moon_requires, CardSet):
            set_(self, "moon_requires", CardSet(self.moon_requires))
        if not isinstance(self.pass_forbidden, CardSet):
            set_(self, "pass_forbidden", CardSet(self.pass_forbidden))
        if not isinstance(self.second_pack_removed, CardSet):
            set_(self, "second_pack_removed", CardSet(self.second_pack_removed))
        if self.doubler is not None and not isinstance(self.doubler, Card):
            set_(self, "doubler", to_card(self.doubler))
        for field, enum in _ENUM_FIELDS.items():
            set_(self, field, _coerce_enum(enum, field, getattr(self, field)))
        set_(
            self,
            "pass_schedule",
            tuple(_coerce_enum(PassDirection, "pass_schedule", d) for d in self.pass_schedule),
        )
        set_(
            self,
            "pass_call_options",
            tuple(
                _coerce_enum(PassDirection, "pass_call_options", d) for d in self.pass_call_options
            ),
        )
        if isinstance(self.pass_call_counts, list):
            set_(self, "pass_call_counts", tuple(self.pass_call_counts))
        set_(self, "card_values", _frozen_values(self.card_values))
        set_(
            self,
            "exact_score_adjustments",
            tuple((int(a), int(b)) for a, b in self.exact_score_adjustments),
        )
        self._validate()

    # -- derived facts ---------------------------------------------------------------

    @property
    def deck(self) -> CardSet:
        """The cards in play (the pack minus removed cards, plus the jokers)."""
        jokers = ((1 << self.jokers) - 1) << 52 if isinstance(self.jokers, int) else 0
        return CardSet.from_mask(((1 << 52) - 1) & ~self.removed_cards.mask | jokers)

    @property
    def deck_copies(self) -> CardMultiset:
        """Every copy in play: `deck` once, and with `cancellation` twice but for the cards
        of `second_pack_removed` (003 'CANCELLATION HEARTS')."""
        twice = self.deck.mask & ~self.second_pack_removed.mask if self.cancellation else 0
        return CardMultiset.from_masks(self.deck.mask, twice)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        if self.cancellation:  # two packs "dealt around as far as they will go evenly" (000)
            return (len(self.deck_copies) - self.kitty_size) // self.players
        if self.domino is True:
            return DOMINO_HAND_SIZE
        return (len(self.deck) - self.kitty_size) // self.players

    @property
    def extra_cards(self) -> int:
        """Cards dealt beyond `hand_size` each, one to each of the first seats from the
        dealer's left, and played to the first trick (`extra_cards_first_trick`); else 0."""
        if not self.extra_cards_first_trick:
            return 0
        return len(self.deck) % self.players

    @property
    def penalty_cards(self) -> CardSet:
        """Cards worth points to their taker (value > 0)."""
        return CardSet(card for card, value in self.card_values.items() if value > 0)

    @property
    def point_cards(self) -> CardSet:
        """Cards with any value, bonus cards included."""
        return CardSet(card for card, value in self.card_values.items() if value != 0)

    @property
    def penalty_total(self) -> int:
        """The sum of all positive card values (26 in the standard game; every copy counts
        under `cancellation`: 52 with two full packs, 003 'CANCELLATION HEARTS')."""
        if self.cancellation:
            copies = self.deck_copies
            return sum(v * copies.count(c) for c, v in self.card_values.items() if v > 0)
        return sum(value for value in self.card_values.values() if value > 0)

    @property
    def effective_moon_points(self) -> int:
        """What a moon is worth: `moon_points`, or by default every penalty point.

        With `royal_queens` the moon is worth the shooter's own score, so this is the most
        it can be worth: the penalty cards alone, the hearts doubled by the QH (52 in the
        `royal` preset; 42, 26 or 16 when the shooter also took the QD, the QC or both).
        """
        if self.moon_points is not None:
            return self.moon_points
        if self.royal_queens:
            hearts = sum(self.value_of(card) for card in self.deck.of_suit(Suit.HEARTS))
            others = sum(
                value
                for card, value in self.card_values.items()
                if value > 0 and card.suit is not Suit.HEARTS
            )
            return 2 * hearts + others
        return self.penalty_total

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass of the `hand_number`-th hand (0-based) in the rotation."""
        return self.pass_schedule[hand_number % len(self.pass_schedule)]

    def pass_size(self, direction: PassDirection) -> int:
        """How many cards each player passes in `direction`."""
        if direction is PassDirection.HOLD:
            return 0
        if direction is PassDirection.SCATTER:
            return self.players - 1
        if direction is PassDirection.STAR:
            return STAR_PASS_SIZE
        return self.pass_count

    def value_of(self, card: CardLike) -> int:
        """Points a card is worth to its taker."""
        return self.card_values.get(to_card(card), 0)

    @cached_property
    def _core(self) -> core.CoreConfig:
        if self.cancellation:
            raise RulesError(
                "two-pack rules (cancellation) are played by arena.engine.variants.cancellation: "
                "use cancellation_config(rules), not the one-pack core's config"
            )
        values = [0] * 52
        joker_points = 0
        for card, value in self.card_values.items():
            if card.is_joker:
                joker_points = value  # every joker is worth the same (validated)
            else:
                values[card.index] = value
        return core.CoreConfig(
            # A core field named after an option takes the option as an int (a new
            # switch needs no line here: `_SAME_NAMED`).
            **{name: int(getattr(self, name)) for name in _SAME_NAMED},
            hand_size=self.hand_size,
            deck=self.deck.mask,
            opening=list(Opening).index(self.opening),
            first_trick=list(FirstTrick).index(self.first_trick),
            lead_rule=list(LeadRule).index(self.lead_rule),
            broken_by=list(BrokenBy).index(self.broken_by),
            queen_hearts_lead=int(self.queen_and_hearts_may_lead_heart),
            values=tuple(values),
            doubler=-1 if self.doubler is None else self.doubler.index,
            moon=list(MoonRule).index(self.moon),
            moon_points=self.effective_moon_points,
            moon_extra=self.moon_requires.mask,
            kitty_taker=list(KittyTaker).index(self.kitty_taker),
            pass_forbidden=self.pass_forbidden.mask,
            joker_kind=(
                core.JOKER_NONE
                if not self.jokers
                else core.JOKER_WILD
                if self.joker_kind is JokerKind.WILD
                else core.JOKER_HEART
            ),
            joker_points=joker_points,
        )

    def __hash__(self) -> int:
        # Computed once: rules are hashed on hot paths (caches keyed by the rules).
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            self.__dict__["_hash"] = cached
        return cached

    def core_config(self) -> core.CoreConfig:
        """The integer configuration the engine backends play by (computed once).

        Raises RulesError for two-pack rules (`cancellation`): their own module plays them.
        Domino Hearts plays on its own core (`arena.engine.variants.domino`): its configuration
        here has six cards a seat and no kitty, which both main backends refuse."""
        return self._core

    # -- serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict holding every setting (the replay and season format)."""
        later = {
            name: getattr(self, name)
            for name, default in _LATER_SWITCHES
            if getattr(self, name) != default
        }
        if self.pass_call_counts:  # written when set, as the later switches
            later["pass_call_counts"] = list(self.pass_call_counts)
        if self.pledge_points != PLEDGE_POINTS:  # written when not the source's 10
            later["pledge_points"] = self.pledge_points
        return self._written() | later

    def _written(self) -> dict[str, Any]:
        """Every setting but the later switches (`_LATER_SWITCHES`, written when set)."""
        return {
            "format": RULES_FORMAT_VERSION,
            "name": self.name,
            "players": self.players,
            "removed_cards": [str(card) for card in self.removed_cards],
            "kitty_size": self.kitty_size,
            "kitty_taker": self.kitty_taker.value,
            "kitty_visibility": self.kitty_visibility.value,
            "pass_count": self.pass_count,
            "pass_schedule": [d.value for d in self.pass_schedule],
            "pass_forbidden": [str(card) for card in self.pass_forbidden],
            "opening": self.opening.value,
            "first_trick": self.first_trick.value,
            "lead_rule": self.lead_rule.value,
            "broken_by": self.broken_by.value,
            "queen_and_hearts_may_lead_heart": self.queen_and_hearts_may_lead_heart,
            "card_values": {str(card): value for card, value in self.card_values.items()},
            "doubler": None if self.doubler is None else str(self.doubler),
            "royal_queens": self.royal_queens,
            "booster_nines": self.booster_nines,
            "jokers": self.jokers,
            "joker_kind": self.joker_kind.value,
            "pass_call_options": [d.value for d in self.pass_call_options],
            "pass_call_split": self.pass_call_split,
            "moon": self.moon.value,
            "moon_points": self.moon_points,
            "moon_requires": [str(card) for card in self.moon_requires],
            "sun_points": self.sun_points,
            "no_trick_bonus": self.no_trick_bonus,
            "exact_score_adjustments": [list(pair) for pair in self.exact_score_adjustments],
            "target_score": self.target_score,
            "max_hands": self.max_hands,
            "settlement": self.settlement.value,
            "dealer_rule": self.dealer_rule.value,
            "scoring_suit_choice": self.scoring_suit_choice.value,
            "max_bid": self.max_bid,
            "lives": self.lives,
            "danger_points": self.danger_points,
            "domino": self.domino,
            **self._cancellation_dict(),
        } | self._penny_dict()

    def _cancellation_dict(self) -> dict[str, Any]:
        """The Cancellation settings, written only when used (older replays stay as they were)."""
        if not self.cancellation:
            return {}
        return {
            "cancellation": True,
            "second_pack_removed": [str(card) for card in self.second_pack_removed],
        }

    def _penny_dict(self) -> dict[str, Any]:
        """The penny settings, written only when in use (older rules keep their JSON)."""
        if self.penny_play is PennyPlay.NONE:
            return {}
        return {"penny_play": self.penny_play.value, "penny_openings": self.penny_openings}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild from `to_dict` output; RulesError names unknown or malformed keys."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be a JSON object, not {type(data).__name__}")
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields - {"format"})
        if unknown:
            raise RulesError(f"unknown rules setting(s): {', '.join(unknown)}")
        version = data.get("format", RULES_FORMAT_VERSION)
        if version != RULES_FORMAT_VERSION:
            raise RulesError(f"rules format {version!r} is not supported (expected 1)")
        kwargs = {key: value for key, value in data.items() if key != "format"}
        try:
            if "card_values" in kwargs:
                values = kwargs["card_values"]
                if not isinstance(values, Mapping):
                    raise RulesError("card_values must be an object of card -> points")
                kwargs["card_values"] = {to_card(card): value for card, value in values.items()}
            for key in (
                "pass_schedule",
                "exact_score_adjustments",
                "pass_call_options",
                "pass_call_counts",
            ):
                if key in kwargs:
                    kwargs[key] = tuple(kwargs[key])
            return cls(**kwargs)
        except RulesError:
            raise
        except (TypeError, ValueError) as error:
            raise RulesError(f"malformed rules: {error}") from error

    def to_json(self) -> str:
        """Canonical JSON (sorted keys), stable across runs."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Parse `to_json` output (RulesError for bad JSON too)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(f"rules are not valid JSON: {error}") from error
        return cls.from_dict(data)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def rules_for_hand(self, number: int) -> Rules:
        """The rules hand `number` (0-based) of a game is dealt and played by: these rules,
        except that under dealer rule 'queen_of_spades_taker_leads' every hand after the
        first opens left of the dealer (Gong Zhu: the pig's taker, whose right-hand
        neighbour `Game` makes the dealer, leads any card). Cached.

        >>> from arena.engine import preset
        >>> rules = preset("gong_zhu")
        >>> rules.rules_for_hand(0) is rules, rules.rules_for_hand(1).opening.value
        (True, 'left_of_dealer')
        """
        if number == 0 or self.dealer_rule is not DealerRule.QUEEN_OF_SPADES_TAKER_LEADS:
            return self
        later: Rules | None = self.__dict__.get("_later_hands")
        if later is None:
            later = self.replace(opening=Opening.LEFT_OF_DEALER)
            self.__dict__["_later_hands"] = later
        return later

    def for_scoring_suit(self, suit: Suit) -> Rules:
        """The rules a hand is played by once its scoring suit is known, for rules whose
        suit is chosen per hand: FIXED, every other setting, the name included, unchanged.
        Cached per suit (rules are immutable).

        - REVEALED (003 'HEARTLESS'): each card of `suit` in play worth 1 and the suit's
          scoring queen (`SCORING_QUEENS`) 13 if in play, nothing else; the 2C (lowest
          club) opens when the suit is hearts or spades, else the 2S (lowest spade).
        - AUCTION (000 'Auction Hearts'): each card of the named suit in play worth 1,
          nothing else ("each player adds one chip to the pot for each card he has taken of
          the forbidden suit"); the opening stays `left_of_dealer`, and `Hand` has the
          bidder lead ("He leads first").

        Raises ValueError for FIXED rules.

        >>> from arena.engine import preset
        >>> spades = preset("heartless").for_scoring_suit(Suit.SPADES)
        >>> spades.value_of("QD"), spades.value_of("QS"), spades.value_of("AH")
        (13, 1, 0)
        >>> spades.opening.value, spades.penalty_total
        ('lowest_club', 26)
        >>> preset("heartless").for_scoring_suit(Suit.CLUBS).opening.value
        'lowest_spade'
        >>> diamonds = preset("auction").for_scoring_suit(Suit.DIAMONDS)
        >>> diamonds.value_of("QD"), diamonds.value_of("QS"), diamonds.penalty_total
        (1, 0, 13)
        """
        if self.scoring_suit_choice is ScoringSuitChoice.FIXED:
            raise ValueError(
                "for_scoring_suit needs scoring_suit_choice 'revealed' or 'auction', not 'fixed'"
            )
        suit = Suit(suit)
        cache: dict[Suit, Rules] = self.__dict__.setdefault("_by_scoring_suit", {})
        rules = cache.get(suit)
        if rules is None:
            rules = cache[suit] = self._played_with(suit)
        return rules

    def _played_with(self, suit: Suit) -> Rules:
        deck = self.deck
        values = dict.fromkeys(deck.of_suit(suit), HEART_POINTS)
        if self.scoring_suit_choice is ScoringSuitChoice.AUCTION:
            return self.replace(card_values=values, scoring_suit_choice=ScoringSuitChoice.FIXED)
        queen = SCORING_QUEENS[suit]
        if queen in deck:
            values[queen] = QUEEN_OF_SPADES_POINTS
        # 003 'HEARTLESS': "The first card lead when the scoring suit is Hearts or Spades is
        # the Two of Clubs. Otherwise it is the Two of Spades."
        opening = (
            Opening.LOWEST_CLUB if suit in (Suit.HEARTS, Suit.SPADES) else Opening.LOWEST_SPADE
        )
        return self.replace(
            card_values=values, opening=opening, scoring_suit_choice=ScoringSuitChoice.FIXED
        )

    # -- validation ------------------------------------------------------------------

    def _validate(self) -> None:
        for field in _SWITCHES:  # every true/false option, a new one included
            if not isinstance(getattr(self, field), bool):
                raise RulesError(f"{field} must be true or false")
        self._validate_pledge()
        self._validate_queen_refusal()
        self._validate_trick_scoring()
        self._validate_pig_leads()
        self._validate_exposures()
        if self.extra_cards_first_trick and (
            self.cancellation or self.domino or self.enfle or self.penny_play is not PennyPlay.NONE
        ):
            raise RulesError(
                "extra_cards_first_trick (002 'Alternatives to the \"Kitty\"') is played by the "
                "hearts core only, not by a variant game"
            )
        if self.enfle is not False:
            self._validate_enfle()
            return
        if self.domino is not False:
            self._validate_domino()
            return
        # 004 (1911): "Hearts may be played by two, three, four or even more players";
        # Cancellation Hearts seats three to ten (its own module refuses two).
        _check_int(self, "players", 2, 10 if self.cancellation is True else 7)
        _check_int(self, "kitty_size", 0, 17)
        _check_int(self, "pass_count", 0, 13)
        _check_int(self, "sun_points", 0, 1000)
        _check_int(self, "no_trick_bonus", -1000, 1000)
        if not isinstance(self.queen_and_hearts_may_lead_heart, bool):
            raise RulesError("queen_and_hearts_may_lead_heart must be true or false")
        if not isinstance(self.royal_queens, bool):
            raise RulesError("royal_queens must be true or false")
        if not isinstance(self.booster_nines, bool):
            raise RulesError("booster_nines must be true or false")
        self._validate_jokers()
        self._validate_queen_first_chance()
        self._validate_cancellation()
        deck_size = len(self.deck_copies) if self.cancellation else len(self.deck)
        self._validate_extra_cards(deck_size)
        if (deck_size - self.kitty_size - self.extra_cards) % self.players:
            raise RulesError(
                f"{deck_size} cards in play minus a kitty of {self.kitty_size} do not deal evenly "
                f"to {self.players} players: remove cards or use a kitty (000 'The Deal')"
            )
        if self.hand_size < 1:
            raise RulesError("no cards left to deal to each player")
        if not self.pass_schedule:
            raise RulesError("pass_schedule needs at least one entry (use 'hold' for no passing)")
        forbidden_outside = [str(card) for card in self.pass_forbidden if card not in self.deck]
        if forbidden_outside:
            raise RulesError(
                f"pass_forbidden names card(s) not in play: {' '.join(forbidden_outside)}"
            )
        for direction in self.pass_schedule:
            if direction is PassDirection.SPLIT:
                raise RulesError(
                    "pass_schedule cannot hold 'split': a split is the dealer's call "
                    "(pass_schedule 'dealer_calls' with pass_call_split)"
                )
            self._validate_pass(direction)
        self._validate_pass_call()
        self._validate_kitty()
        values_outside = [str(card) for card in self.card_values if card not in self.deck]
        if values_outside:
            raise RulesError(
                f"card_values gives points to removed card(s): {' '.join(values_outside)}"
            )
        for card, value in self.card_values.items():
            if not isinstance(value, int) or isinstance(value, bool) or not -1000 <= value <= 1000:
                raise RulesError(
                    f"card_values[{card}] must be an int in -1000..1000, not {value!r}"
                )
        if self.doubler is not None and self.doubler not in self.deck:
            raise RulesError(f"the doubler {self.doubler} is not in play")
        if self.opening is not Opening.LEFT_OF_DEALER:
            suit = Suit.SPADES if self.opening is Opening.LOWEST_SPADE else Suit.CLUBS
            self._validate_opening_suit(f"opening {self.opening.value!r}", suit)
        self._validate_revealed()
        self._validate_auction()
        self._validate_moon()
        self._validate_royal()
        self._validate_end()
        self._validate_penny()

    def _validate_extra_cards(self, deck_size: int) -> None:
        """002's extra cards on the first trick replace the kitty and the removed cards
        (002 'Alternatives to the "Kitty"' lists them as alternatives): no kitty, and a
        pack that does not deal evenly, or there is nothing extra to play. The hearts core
        plays it; the variant families and the face-down scoring-suit cards, which count
        on equal hands, refuse it."""
        if not self.extra_cards_first_trick:
            return
        what = "extra_cards_first_trick (002 'Alternatives to the \"Kitty\"')"
        if self.kitty_size:
            raise RulesError(f"{what} deals the extra cards out instead of a kitty: kitty_size 0")
        if deck_size % self.players == 0:
            raise RulesError(
                f"{what}: {deck_size} cards deal evenly to {self.players} players, so no seat "
                "has an extra card to play"
            )
        if self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError(f"{what} needs scoring_suit_choice 'fixed'")

    def _validate_kitty(self) -> None:
        """`each_trick` (004 'The Kitty and the First Trick') hands the kitty out a card a
        trick, so no one seat is its taker: 'taker_only' would show it to nobody in
        particular, and is refused. (A kitty larger than the hand has its rest taken by
        the last trick's winner, as the backends do.)"""
        if (
            self.kitty_taker is KittyTaker.EACH_TRICK
            and self.kitty_visibility is KittyVisibility.TAKER_ONLY
        ):
            raise RulesError(
                "kitty_taker 'each_trick' gives the kitty to several seats, a card a trick: "
                "kitty_visibility 'taker_only' has no one taker (use hidden, face_up or "
                "after_first_trick)"
            )

    def _validate_trick_scoring(self) -> None:
        """004 'Slobberhannes' (penalties for the first and last trick, an extra for taking
        all) and Gong Zhu (the lone transformer, "all reds"): options of the hearts core's
        scoring, so no variant family plays them, and each needs what it speaks of."""
        for name in (
            "first_trick_points",
            "last_trick_points",
            "every_penalty_extra",
            "doubler_alone_points",
        ):
            _check_int(self, name, -1000, 1000)
        scoring = (
            self.first_trick_points
            or self.last_trick_points
            or self.every_penalty_extra
            or self.doubler_alone_points
            or self.all_hearts_reversed
            or self.all_hearts_reverse_queen
        )
        if not scoring:
            return
        if self.cancellation or self.domino or self.penny_play is not PennyPlay.NONE:
            raise RulesError(
                "first/last trick points, every_penalty_extra, doubler_alone_points and "
                "all_hearts_reversed are scored by the hearts core: not with cancellation, "
                "domino or penny play"
            )
        if self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError(
                "the trick and reversal scoring options need scoring_suit_choice 'fixed'"
            )
        if self.every_penalty_extra and not (self.first_trick_points or self.last_trick_points):
            raise RulesError(
                "every_penalty_extra needs first_trick_points or last_trick_points (004 "
                "'Slobberhannes': the first trick, the last trick and the QC); without them "
                "taking every penalty card is a moon"
            )
        if self.doubler_alone_points and self.doubler is None:
            raise RulesError("doubler_alone_points needs a doubler")
        if self.all_hearts_reverse_queen and not self.all_hearts_reversed:
            raise RulesError("all_hearts_reverse_queen needs all_hearts_reversed")
        if self.all_hearts_reversed:
            if self.jokers or self.royal_queens:
                raise RulesError("all_hearts_reversed allows no jokers and no royal_queens")
            if not any(card.suit is Suit.HEARTS for card in self.deck):
                raise RulesError("all_hearts_reversed needs hearts in play")
        if self.all_hearts_reverse_queen and to_card("QS") not in self.deck:
            raise RulesError("all_hearts_reverse_queen needs the QS in play")

    def _validate_pig_leads(self) -> None:
        """Gong Zhu's dealer rule: the QS's taker leads the next hand, so the QS must be in
        play, and once (one pack). A kitty holding it goes to someone too; were it never
        taken, the deal would rotate (`Game`)."""
        if self.dealer_rule is not DealerRule.QUEEN_OF_SPADES_TAKER_LEADS:
            return
        what = "dealer_rule 'queen_of_spades_taker_leads' (Gong Zhu)"
        if to_card("QS") not in self.deck or self.cancellation:
            raise RulesError(f"{what} needs the QS in play, in one pack")

    def _validate_call_counts(self) -> None:
        """004 'Passing cards' ("The Dealer may choose how many cards and where to pass"):
        distinct counts from 1 to the hand's size, `pass_count` among them (so a call
        without a count, a stored bare direction and the fault's default keep their
        meaning), only with a schedule the dealer calls; and every count must make a pass
        these rules allow (checked as the rules with that `pass_count`)."""
        counts = self.pass_call_counts
        if not counts:
            return
        if PassDirection.DEALER_CALLS not in self.pass_schedule:
            raise RulesError("pass_call_counts is set, but no hand's pass is 'dealer_calls'")
        if any(not isinstance(c, int) or isinstance(c, bool) for c in counts):
            raise RulesError("pass_call_counts must be whole numbers of cards")
        if len(set(counts)) != len(counts) or self.pass_count not in counts:
            raise RulesError(
                f"pass_call_counts must be distinct and hold pass_count ({self.pass_count}): a "
                "call without a count passes pass_count"
            )
        for count in counts:
            if count != self.pass_count:
                try:
                    self.replace(pass_count=count, pass_call_counts=())
                except RulesError as error:
                    raise RulesError(f"pass_call_counts: {count} cards: {error}") from None

    def _validate_pledge(self) -> None:
        """004 'Scoring variants', the no-hearts pledge: a pledge about hearts needs hearts
        in play and hearts as the suit to avoid, and is asked by the plain `Hand` between
        the pass and the first card, so no variant family (two packs, Domino, the
        pennies) and no scoring suit chosen per hand."""
        _check_int(self, "pledge_points", 1, 1000)
        if not self.no_hearts_pledge:
            return
        what = "no_hearts_pledge (004 'Scoring variants')"
        if not any(card.suit is Suit.HEARTS for card in self.deck):
            raise RulesError(f"{what} needs hearts in play")
        if (
            self.scoring_suit_choice is not ScoringSuitChoice.FIXED
            or self.cancellation
            or self.domino
            or self.penny_play is not PennyPlay.NONE
        ):
            raise RulesError(
                f"{what} needs a fixed scoring suit and the plain game: no cancellation, "
                "domino or penny play"
            )

    def _validate_queen_refusal(self) -> None:
        """Rickety Kate's refusal of a passed QS: the QS in play, once (one pack: a second
        QS would make "the Queen of Spades" two cards), and every pass of the schedule one
        whose giver has one receiver (left, right, across, two seats, or hold): a scatter or
        star pass sends the QS to one of several receivers with no rule for its
        replacement's way, a centre pass has no receiver, and a dealer's call may choose
        either. Asked by the plain `Hand` between the pass and the exchange, so no variant
        family and a fixed scoring suit (the QS's weight is the rules')."""
        if not self.queen_refusal:
            return
        what = "queen_refusal (Rickety Kate: the receiver's right to refuse the QS)"
        if Card.from_str("QS") not in self.deck or self.cancellation:
            raise RulesError(f"{what} needs the one QS in play (no second pack)")
        allowed = {
            PassDirection.LEFT,
            PassDirection.RIGHT,
            PassDirection.ACROSS,
            PassDirection.LEFT2,
            PassDirection.RIGHT2,
            PassDirection.HOLD,
        }
        for direction in self.pass_schedule:
            if direction not in allowed:
                raise RulesError(
                    f"{what} needs passes that go to one receiver (left, right, across, "
                    f"left2, right2) or hold, not {direction.value}: the refused QS is "
                    "replaced in the one pass it was in"
                )
        if (
            self.scoring_suit_choice is not ScoringSuitChoice.FIXED
            or self.domino
            or self.enfle
            or self.penny_play is not PennyPlay.NONE
        ):
            raise RulesError(
                f"{what} needs a fixed scoring suit and the plain game: no cancellation, "
                "domino, Enfle or penny play"
            )

    def _validate_exposures(self) -> None:
        """Gong Zhu's exposed cards: the four cards Pagat names keep their powers (the ♣10
        the doubler; the ♠Q, ♦J and ♥A, those in play, worth something), in the plain
        game (no variant family, a fixed scoring suit: the doubled values are these
        cards'), with no jokers (the play rule reads a trick's suit from its lead) and
        no pledge nor Rickety Kate's refusal of a passed QS (one decision between the deal
        and the first card at a time: ours, Gong Zhu has neither)."""
        if not self.exposures:
            return
        what = 'exposures (Gong Zhu, Pagat: "four cards which may be exposed")'
        if self.doubler != EXPOSABLE[3]:
            raise RulesError(f"{what} needs Gong Zhu's cards: the TC as the doubler")
        worthless = [
            str(card) for card in EXPOSABLE[:3] if card in self.deck and not self.value_of(card)
        ]
        if worthless:
            raise RulesError(
                f"{what} needs Gong Zhu's cards: {' '.join(worthless)} worth points (exposing "
                "doubles a card's value)"
            )
        if (
            self.scoring_suit_choice is not ScoringSuitChoice.FIXED
            or self.cancellation
            or self.domino
            or self.enfle
            or self.penny_play is not PennyPlay.NONE
            or self.jokers
            or self.no_hearts_pledge
            or self.queen_refusal
            or self.royal_queens
        ):
            raise RulesError(
                f"{what} needs Gong Zhu's plain game: a fixed scoring suit, no variant family, "
                "no jokers, no royal queens, no pledge and no refusal of a passed QS"
            )

    def for_exposures(self, cards: Iterable[CardLike]) -> Rules:
        """The rules a hand plays once `cards` (of `EXPOSABLE`) are exposed (Pagat: "The
        effect of exposing a card is basically to double its value"): the ♥A doubles
        every heart ("all hearts are worth double"), the ♠Q and ♦J their own value, the
        ♣10 its lone value (`doubler_alone_points`; its quadrupling is the core's
        `doubler_exposed`, set by the hand). The result keeps `exposures` and is
        validated like any rules."""
        shown = CardSet(cards)
        values = dict(self.card_values)
        if EXPOSABLE[0] in shown:  # the ♥A: "all hearts are worth double"
            values = {c: v * 2 if c.suit is Suit.HEARTS else v for c, v in values.items()}
        for card in EXPOSABLE[1:3]:
            if card in shown:
                values[card] = values[card] * 2
        alone = self.doubler_alone_points * (2 if EXPOSABLE[3] in shown else 1)
        if not shown:
            return self
        return self.replace(card_values=values, doubler_alone_points=alone)

    def _validate_queen_first_chance(self) -> None:
        """001's Black Mariah rule is about the one QS of a one-pack game whose tricks
        have a suit from their lead: so the QS in play, and no jokers (a wild-joker lead
        has no suit yet), no second pack and no scoring suit chosen per hand."""
        if not self.queen_at_first_chance:
            return
        what = "queen_at_first_chance (001 'VARIATION 1: BLACK MARIAH')"
        if to_card("QS") not in self.deck:
            raise RulesError(f"{what} needs the QS in play")
        if self.jokers or self.cancellation:
            raise RulesError(f"{what} allows no jokers and no second pack")
        if self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError(f"{what} needs scoring_suit_choice 'fixed'")

    def _validate_cancellation(self) -> None:
        """Cancellation Hearts (000; 003) is played by its own module: two packs, the
        standard play of Hearts with the widow to the first trick, scored by the cards.
        So nothing that names one copy of a card or changes the play may come with it."""
        if not isinstance(self.cancellation, bool):
            raise RulesError("cancellation must be true or false")
        if not self.cancellation:
            if self.second_pack_removed:
                raise RulesError("second_pack_removed needs cancellation (two packs)")
            return
        what = "cancellation (000 'Cancellation Hearts'; 003)"
        outside = self.second_pack_removed.mask & ~self.deck.mask
        if outside:
            raise RulesError(
                f"second_pack_removed names card(s) not in play: {CardSet.from_mask(outside)}"
            )
        if (
            self.jokers
            or self.royal_queens
            or self.booster_nines
            or self.doubler is not None
            or self.queen_and_hearts_may_lead_heart
            or self.moon_requires
            or self.pass_forbidden
            or self.sun_points
            or self.no_trick_bonus
            or self.lives
        ):
            raise RulesError(
                f"{what} plays the standard game with two packs: no jokers, royal queens, "
                "booster nines, doubler, queen-and-hearts lead, moon_requires, "
                "pass_forbidden, sun, no-trick bonus or lives"
            )
        if self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError(f"{what} needs scoring_suit_choice 'fixed'")
        if self.settlement is not Settlement.POINTS:
            raise RulesError(f"{what} needs settlement 'points'")
        if self.moon not in (MoonRule.NONE, MoonRule.OLD):
            raise RulesError(f"{what} needs moon 'none' or 'old'")
        if self.kitty_taker is not KittyTaker.FIRST_TRICK:
            raise RulesError(f"{what} needs kitty_taker 'first_trick': the widow is added to it")
        if self.players < 3 or self.broken_by is BrokenBy.HEARTS_OR_QUEEN_DISCARDED:
            raise RulesError(
                f"{what} is for three to ten players, and its core breaks hearts by the "
                "cards played: broken_by 'hearts_or_queen_discarded' is refused"
            )
        offsets = (PassDirection.HOLD, PassDirection.LEFT, PassDirection.RIGHT)
        if any(d not in (*offsets, PassDirection.ACROSS) for d in self.pass_schedule):
            raise RulesError(f"{what} passes hold, left, right or across only")
        if self.opening is Opening.LOWEST_CLUB:
            clubs = self.deck.of_suit(Suit.CLUBS)
            if self.kitty_size or not clubs or clubs.first() not in self.second_pack_removed:
                raise RulesError(
                    f"{what} with opening 'lowest_club' needs no widow and a lowest club "
                    "that is in play once (003's four-player deck: the 2C of one pack)"
                )
        elif self.opening is not Opening.LEFT_OF_DEALER:
            raise RulesError(f"{what} needs opening 'left_of_dealer' or 'lowest_club'")

    def _validate_domino(self) -> None:
        """000 'Domino Hearts': "Two to seven people can play", "The standard 52-card pack
        is used", six cards each and a stock. The engine (`arena.engine.variants.domino`) plays the
        whole pack with no pass, no kitty and the seat left of the dealer leading; it scores
        by `card_values` (hearts 1 each: "the QS is usually not scored"), with moon 'none'
        or 'old' (the moon's worth is every penalty point). Every other special rule is a
        different game and is refused rather than silently ignored."""
        if self.domino is not True:
            raise RulesError("domino must be true or false")
        if self.cancellation is not False or self.second_pack_removed:
            raise RulesError("Domino Hearts is played with one pack, not Cancellation's two")
        _check_int(self, "players", 2, 7)
        if self.removed_cards or self.kitty_size or self.jokers:
            raise RulesError(
                "Domino Hearts uses the whole 52-card pack: no removed cards, "
                "kitty or jokers (000 'Domino Hearts': 'The Pack')"
            )
        if self.pass_schedule != (PassDirection.HOLD,) or self.pass_call_options:
            raise RulesError("Domino Hearts has no pass: pass_schedule must be ['hold']")
        if self.opening is not Opening.LEFT_OF_DEALER:
            raise RulesError(
                "Domino Hearts opens left of the dealer (000 'Domino Hearts': "
                "'The player to the dealer's left leads first')"
            )
        if (
            self.first_trick is not FirstTrick.ANY
            or self.lead_rule is not LeadRule.HEARTS_BROKEN
            or self.broken_by is not BrokenBy.HEARTS
            or self.queen_and_hearts_may_lead_heart
        ):
            raise RulesError(
                "Domino Hearts plays first_trick 'any', lead_rule 'hearts_broken' and "
                "broken_by 'hearts' (docs/rules.md 'Domino Hearts' says why)"
            )
        if self.moon not in (MoonRule.NONE, MoonRule.OLD) or self.moon_points is not None:
            raise RulesError(
                "Domino Hearts scores a moon 'old' or not at all, worth every "
                "penalty point (moon_points null)"
            )
        if (
            self.doubler is not None
            or self.royal_queens
            or self.booster_nines
            or self.queen_at_first_chance
            or self.moon_requires
            or self.sun_points
            or self.no_trick_bonus
            or self.pass_forbidden
            or self.scoring_suit_choice is not ScoringSuitChoice.FIXED
            or self.lives
            or self.settlement is not Settlement.POINTS
        ):
            raise RulesError(
                "Domino Hearts takes none of the other variants' special rules "
                "(doubler, royal queens, booster nines, queen at first chance, sun, "
                "bonuses, scoring-suit choice, lives, chip settlement)"
            )
        for card, value in self.card_values.items():
            if (
                card.is_joker
                or not isinstance(value, int)
                or isinstance(value, bool)
                or not 0 <= value <= 1000
            ):
                raise RulesError(f"card_values[{card}] must be an int in 0..1000 in Domino Hearts")
        if self.target_score is None and self.max_hands is None:
            raise RulesError("the game needs an end: a target_score, max_hands, or both")
        if self.target_score is not None:
            _check_int(self, "target_score", 1, 100000)
        if self.max_hands is not None:
            _check_int(self, "max_hands", 1, 100000)
        if self.exact_score_adjustments:
            raise RulesError("Domino Hearts has no exact-score adjustments")

    def _validate_enfle(self) -> None:
        """004 'Enfle': "usually played by four persons with a piquet pack and for a pool.
        The cards rank as at Hearts, and there is no trump suit." The engine
        (`arena.engine.variants.enfle`) plays 2..4 players with the piquet pack (every 2..6
        removed; more cards may be removed so that it deals evenly, as the `enfle` preset
        does for three), no pass, no kitty, the seat left of the dealer leading any card, and
        scores each seat's cards left: so no card values and none of the other variants'
        rules, which would be silently ignored."""
        if self.domino or self.cancellation or self.penny_play is not PennyPlay.NONE:
            raise RulesError("Enfle is its own game: not with domino, cancellation or penny_play")
        _check_int(self, "players", 2, 4)
        low = CardSet(f"{rank}{suit}" for rank in "23456" for suit in "CDSH")
        if (low.mask & ~self.removed_cards.mask) or self.kitty_size or self.jokers:
            raise RulesError(
                "Enfle is played with a piquet pack (004 'Enfle'): removed_cards must hold "
                "every 2 to 6, and no kitty or jokers"
            )
        if not self.deck or len(self.deck) % self.players:
            raise RulesError(
                f"Enfle deals the whole pack: {len(self.deck)} cards do not deal evenly to "
                f"{self.players} players"
            )
        if self.pass_schedule != (PassDirection.HOLD,) or self.pass_call_options:
            raise RulesError("Enfle has no pass: pass_schedule must be ['hold']")
        if (
            self.opening is not Opening.LEFT_OF_DEALER
            or self.first_trick is not FirstTrick.ANY
            or self.lead_rule is not LeadRule.ANY
        ):
            raise RulesError(
                "Enfle opens left of the dealer with any card: opening 'left_of_dealer', "
                "first_trick 'any', lead_rule 'any' (docs/rules.md 'Enfle')"
            )
        # Every other option would be silently ignored by the Enfle engine: refused unless
        # it keeps its default, so a new option is covered the day it is added. The
        # defaults are the fields' own (options.check_rules keeps OPTIONS equal to them;
        # reading them here keeps this module below the option table).
        ignored = sorted(
            name
            for name, default in _field_defaults().items()
            if name not in _ENFLE_READS and getattr(self, name) != default
        )
        if self.card_values or self.moon is not MoonRule.NONE or ignored:
            raise RulesError(
                "Enfle scores one point per card left in hand and plays no other rule: no "
                "card_values, moon 'none', and every other option at its default"
                + (f" (not so: {', '.join(ignored)})" if ignored else "")
            )
        if self.target_score is None and self.max_hands is None:
            raise RulesError("the game needs an end: a target_score, max_hands, or both")
        if self.target_score is not None:
            _check_int(self, "target_score", 1, 100000)
        if self.max_hands is not None:
            _check_int(self, "max_hands", 1, 100000)

    def _validate_opening_suit(self, what: str, suit: Suit) -> None:
        """Some hand must hold a card of `suit` to open with, whatever the kitty holds."""
        held = self.deck.of_suit(suit)
        if len(held) <= self.kitty_size:
            name = suit.name.lower()[:-1]
            raise RulesError(
                f"{what} needs a {name} in someone's hand, but only "
                f"{len(held)} {name}(s) are in play with a kitty of {self.kitty_size}"
            )

    def _validate_revealed(self) -> None:
        """003 'HEARTLESS' rotates the standard table (hearts 1, QS 13) to the revealed
        suit and its queen, and opens with the 2C or the 2S: so the table must be exactly
        the standard one, and no rule may name the literal heart suit or a fixed card."""
        if self.scoring_suit_choice is not ScoringSuitChoice.REVEALED:
            return
        what = "scoring_suit_choice 'revealed' (003 'HEARTLESS')"
        standard = {card: value for card, value in standard_values().items() if card in self.deck}
        if dict(self.card_values) != standard:
            raise RulesError(
                f"{what} needs the standard card_values (each heart 1, the QS 13, for the cards "
                "in play): that is the table which moves to the revealed suit and its queen"
            )
        if self.doubler is not None or self.moon_requires:
            raise RulesError(
                f"{what} allows no doubler and no moon_requires: they name fixed cards"
            )
        if self.lead_rule not in (LeadRule.ANY, LeadRule.POINTS_BROKEN):
            raise RulesError(f"{what} needs lead_rule 'any' or 'points_broken', not hearts")
        if self.broken_by is not BrokenBy.POINT_CARDS or self.queen_and_hearts_may_lead_heart:
            raise RulesError(
                f"{what} needs broken_by 'point_cards' and no queen_and_hearts_may_lead_heart: "
                "hearts need not be the scoring suit"
            )
        if self.opening is not Opening.LOWEST_CLUB:
            raise RulesError(
                f"{what} needs opening 'lowest_club': the revealed suit picks the 2C or the 2S"
            )
        self._validate_opening_suit(what, Suit.CLUBS)
        self._validate_opening_suit(what, Suit.SPADES)

    def _validate_auction(self) -> None:
        """000 'Auction Hearts' is Hearts Without Black Lady with a suit named by the
        highest bidder: no pass ("players do not pass off three cards"), the named suit's
        cards 1 each and nothing else, a free lead by the bidder, settled into the pot.
        The auction needs its settlement: the pot is what the bid is for. (The rules a hand
        is played by once the suit is named are FIXED with that settlement.)"""
        auction = self.scoring_suit_choice is ScoringSuitChoice.AUCTION
        if auction and self.settlement is not Settlement.AUCTION:
            raise RulesError(
                "scoring_suit_choice 'auction' needs settlement 'auction' (000 'Auction "
                "Hearts': the bid is paid into the pot the hand settles)"
            )
        if not auction:
            if self.max_bid and self.settlement is not Settlement.AUCTION:
                raise RulesError("max_bid is set, but there is no auction to bid in")
            _check_int(self, "max_bid", 0, 1000)
            return
        what = "scoring_suit_choice 'auction' (000 'Auction Hearts')"
        _check_int(self, "max_bid", 1, 1000)
        if any(direction is not PassDirection.HOLD for direction in self.pass_schedule):
            raise RulesError(
                f"{what} needs pass_schedule ['hold']: the players play their original "
                "hands (000 'Hearts Without Black Lady')"
            )
        if self.kitty_size:
            raise RulesError(f"{what} allows no kitty")
        if self.opening is not Opening.LEFT_OF_DEALER:
            raise RulesError(
                f"{what} needs opening 'left_of_dealer': the highest bidder leads first"
            )
        if self.lead_rule not in (LeadRule.ANY, LeadRule.POINTS_BROKEN):
            raise RulesError(f"{what} needs lead_rule 'any' or 'points_broken', not hearts")
        if self.broken_by is not BrokenBy.POINT_CARDS or self.queen_and_hearts_may_lead_heart:
            raise RulesError(
                f"{what} needs broken_by 'point_cards' and no queen_and_hearts_may_lead_heart: "
                "the named suit need not be hearts"
            )
        if self.moon is not MoonRule.NONE or self.doubler is not None or self.royal_queens:
            raise RulesError(
                f"{what} needs moon 'none', no doubler and no royal_queens: only the named "
                "suit's cards count, one chip each"
            )
        if self.sun_points or self.no_trick_bonus or self.moon_requires:
            raise RulesError(f"{what} allows no sun, no no-trick bonus and no moon_requires")

    def _validate_pass_call(self) -> None:
        """The dealer's menu (003 'Simple variations'): needed exactly when the schedule
        lets the dealer call, and every option a pass this table could make."""
        calls = PassDirection.DEALER_CALLS in self.pass_schedule
        if calls and not self.pass_call_options:
            raise RulesError(
                "pass_schedule 'dealer_calls' needs pass_call_options: the passes the dealer "
                "may call (003 'Simple variations')"
            )
        if self.pass_call_options and not calls:
            raise RulesError("pass_call_options is set, but no hand's pass is 'dealer_calls'")
        if len(set(self.pass_call_options)) != len(self.pass_call_options):
            raise RulesError("pass_call_options lists a pass twice")
        for option in self.pass_call_options:
            if option in (PassDirection.DEALER_CALLS, PassDirection.SPLIT):
                raise RulesError(f"pass_call_options cannot hold '{option.value}' itself")
            self._validate_pass(option)
        if not isinstance(self.pass_call_split, bool):
            raise RulesError("pass_call_split must be true or false")
        self._validate_call_counts()
        if self.pass_call_split and (len(self.split_directions) < 2 or self.pass_count < 2):
            raise RulesError(
                "pass_call_split needs pass_count of at least 2 and two directional passes "
                "(left, right, across, left2, right2) among pass_call_options: each card of a "
                "split goes one of them (003 'Simple variations')"
            )

    @property
    def split_directions(self) -> tuple[PassDirection, ...]:
        """The directions a card of a split call may take: the directional
        `pass_call_options`, in their order; () unless `pass_call_split`."""
        if not self.pass_call_split:
            return ()
        return tuple(d for d in self.pass_call_options if d.offset(self.players))

    def _validate_pass(self, direction: PassDirection) -> None:
        size = self.pass_size(direction)
        if size > self.hand_size:
            raise RulesError(
                f"a {direction.value} pass of {size} cards exceeds the hand of {self.hand_size}"
            )
        if (
            direction not in (PassDirection.HOLD, PassDirection.SCATTER, PassDirection.STAR)
            and self.pass_count < 1
        ):
            raise RulesError(f"a {direction.value} pass needs pass_count of at least 1")
        if direction is PassDirection.ACROSS and self.players % 2:
            raise RulesError(
                f"no one sits across with {self.players} players: use left2/right2, scatter "
                "or star (001, five players; 004 'Passing cards', star passing)"
            )
        if direction is PassDirection.STAR and not self.players % 2:
            raise RulesError(
                f"pass_schedule 'star' needs an odd number of players (3, 5 or 7), not "
                f"{self.players}: with an even table someone sits across (004 'Passing cards')"
            )
        passable = self.hand_size - len(self.pass_forbidden)
        if size and passable < size:
            raise RulesError(
                f"pass_forbidden keeps {len(self.pass_forbidden)} card(s) from the pass, so a "
                f"hand of {self.hand_size} may have only {max(passable, 0)} to pass, fewer than a "
                f"{direction.value} pass of {size} (004 'Passing cards')"
            )
        if direction in (PassDirection.LEFT2, PassDirection.RIGHT2) and self.players < 5:
            raise RulesError(f"{direction.value} passes need at least five players (001)")

    def _validate_moon(self) -> None:
        outside = [str(card) for card in self.moon_requires if card not in self.deck]
        if outside:
            raise RulesError(f"moon_requires names card(s) not in play: {' '.join(outside)}")
        if self.moon_points is not None:
            _check_int(self, "moon_points", 1, 10000)
        if self.moon is not MoonRule.NONE and not self.penalty_cards:
            raise RulesError("shooting the moon needs at least one penalty card (value > 0)")
        if self.moon is MoonRule.NONE and (self.sun_points or self.moon_requires):
            raise RulesError("sun_points and moon_requires need a moon rule other than 'none'")
        if self.moon is MoonRule.ADD_UNLESS_LOSING and self.target_score is None:
            raise RulesError("moon 'add_unless_losing' needs a target_score to lose by (004)")
        if self.moon is MoonRule.SUBTRACT_AFTER_SCORE:
            _check_int(self, "moon_subtract_after", 1, 100000)
        elif self.moon_subtract_after != 0:
            raise RulesError(
                "moon_subtract_after is the score of moon 'subtract_after_score' (004): "
                "0 with any other moon rule"
            )

    def _validate_royal(self) -> None:
        """004 'Royal Hearts' scores by the four queens, and its moon is worth the shooter's
        own score: so the queens must be in play, nothing else may double a hand, and the
        moon is old, new or none with no fixed `moon_points`."""
        if not self.royal_queens:
            return
        what = "royal_queens (004 'Royal Hearts')"
        missing = [queen for queen in ("QC", "QD", "QH", "QS") if to_card(queen) not in self.deck]
        if missing:
            raise RulesError(f"{what} needs the four queens in play; removed: {' '.join(missing)}")
        if self.doubler is not None:
            raise RulesError(f"{what} allows no doubler: the QH doubles the hearts instead")
        if self.moon not in (MoonRule.NONE, MoonRule.OLD, MoonRule.NEW):
            raise RulesError(
                f"{what} needs moon 'none', 'old' or 'new', not {self.moon.value!r}: the "
                "moon is worth the shooter's own score, added to the others or subtracted"
            )
        if self.moon_points is not None:
            raise RulesError(
                f"{what} needs moon_points null: a moon is worth the shooter's own score "
                "(52, or 42, 26 or 16 with the QD, the QC or both)"
            )
        if self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError(f"{what} needs scoring_suit_choice 'fixed': the queens are fixed")

    def _validate_lives(self) -> None:
        """Danger Hearts plays a number of hands, then on until one player leads on lives
        (then points): so it needs `max_hands`, no target score, and the points sheet."""
        _check_int(self, "lives", 0, 100)
        _check_int(self, "danger_points", 0, 100000)
        if not self.lives:
            if self.danger_points:
                raise RulesError("danger_points is set, but the players have no lives")
            return
        what = "lives (004 'Other Variations', Danger Hearts)"
        if not self.danger_points:
            raise RulesError(f"{what} needs danger_points: the points in a hand that cost a life")
        if self.max_hands is None or self.target_score is not None:
            raise RulesError(
                f"{what} needs max_hands (the rounds to play) and no target_score: the game "
                "ends after those rounds, or later, once one player leads"
            )
        if self.settlement is not Settlement.POINTS:
            raise RulesError(f"{what} needs settlement 'points'")

    def _validate_jokers(self) -> None:
        """004 'Joker Hearts': up to three jokers ("two Jokers ... three Jokers (usually the
        two from one deck plus one from a similar deck)"), all worth the same; the 1911
        joker is one card; jokers are added by `jokers`, never named in removed_cards."""
        _check_int(self, "jokers", 0, 3)
        if self.removed_cards.mask >> 52:
            raise RulesError("removed_cards cannot hold a joker: set jokers to how many to add")
        if self.joker_kind is JokerKind.HEART_1911 and self.jokers > 1:
            raise RulesError(
                f"joker_kind 'heart_1911' is one joker (004 'Joker Hearts', 1911), not "
                f"{self.jokers}"
            )
        worth = {self.value_of(card) for card in self.deck if card.is_joker}
        if len(worth) > 1:
            raise RulesError("card_values must give every joker the same value")
        if self.jokers and self.scoring_suit_choice is not ScoringSuitChoice.FIXED:
            raise RulesError("jokers need scoring_suit_choice 'fixed'")

    def _validate_end(self) -> None:
        self._validate_lives()
        if self.target_score is None and self.max_hands is None:
            raise RulesError("the game needs an end: a target_score, max_hands, or both")
        if self.target_score is not None:
            _check_int(self, "target_score", 1, 100000)
        if self.max_hands is not None:
            _check_int(self, "max_hands", 1, 100000)
        for pair in self.exact_score_adjustments:
            if pair[0] == pair[1]:
                raise RulesError(f"exact_score_adjustments maps {pair[0]} to itself")
        self._validate_settlement()

    def _validate_settlement(self) -> None:
        """Chips only make sense when no hand can pay a negative amount, and Howell's
        count only balances when a hand's points are exactly the points in play."""
        if self.settlement is Settlement.POINTS:
            return
        name = self.settlement.value
        if self.target_score is None:
            raise RulesError(f"settlement {name!r} needs a target_score: the stake in chips")
        if self.exact_score_adjustments:
            raise RulesError(f"settlement {name!r} has no score sheet to adjust")
        if any(value < 0 for value in self.card_values.values()) or self.no_trick_bonus < 0:
            raise RulesError(f"settlement {name!r} cannot pay out negative points (bonus cards)")
        if self.moon not in (MoonRule.NONE, MoonRule.OLD):
            raise RulesError(f"settlement {name!r} needs moon 'none' or 'old' (no negative hands)")
        if self.settlement is Settlement.HOWELL and (
            self.moon is not MoonRule.NONE
            or self.doubler is not None
            or self.sun_points
            or self.no_trick_bonus
        ):
            raise RulesError(
                "Howell settlement counts the points in play: it needs moon 'none', no "
                "doubler, no sun and no no-trick bonus (000 'Hearts Without Black Lady')"
            )

    @property
    def penny_rounds(self) -> int:
        """The multi-rounds of a penny hand (003: three with four players, five with three,
        two with five); 0 without `penny_play`."""
        if self.penny_play is PennyPlay.NONE:
            return 0
        return (self.hand_size - self.penny_openings) // self.players

    def _validate_penny(self) -> None:
        """003 'FOUR-PENNY HEARTS' is dealt, passed and scored "as in standard Hearts":
        the multi-rounds take every card left after the opening tricks, n to a penny."""
        _check_int(self, "penny_openings", 0, 17)
        if self.penny_play is PennyPlay.NONE:
            if self.penny_openings:
                raise RulesError("penny_openings needs penny_play 'simple' or 'advanced'")
            return
        what = f"penny_play {self.penny_play.value!r} (003 'FOUR-PENNY HEARTS')"
        left = self.hand_size - self.penny_openings
        if left <= 0 or left % self.players:
            raise RulesError(
                f"{what} needs the {left} cards each player holds after {self.penny_openings} "
                f"opening trick(s) to make whole multi-rounds of {self.players} cards"
            )
        if self.penny_openings == 0 and self.opening is not Opening.LEFT_OF_DEALER:
            raise RulesError(
                f"{what} without opening tricks needs opening 'left_of_dealer' (003: \"the "
                'player to the left of the dealer is the lead player for the first multi-round")'
            )
        plain = (
            self.kitty_size == 0
            and self.jokers == 0
            and self.doubler is None
            and not self.royal_queens
            and not self.booster_nines
            and not self.queen_at_first_chance
            and not self.sun_points
            and not self.no_trick_bonus
            and not self.queen_and_hearts_may_lead_heart
            and self.scoring_suit_choice is ScoringSuitChoice.FIXED
            and self.moon in (MoonRule.NONE, MoonRule.OLD, MoonRule.NEW)
            and not self.moon_requires
        )
        if not plain:
            raise RulesError(
                f"{what} is scored as in standard Hearts: it needs no kitty, jokers, doubler, "
                "royal queens, booster nines, queen at first chance, sun, no-trick bonus, "
                "queen-and-hearts lead or moon_requires, a fixed scoring suit, and moon "
                "'none', 'old' or 'new'"
            )
        # The penny core breaks by a mask of cards: it cannot tell a discarded QS from a
        # followed one; and 003's penny games are for three to five players.
        if self.broken_by is BrokenBy.HEARTS_OR_QUEEN_DISCARDED or self.players < 3:
            raise RulesError(
                f"{what} needs at least three players and broken_by other than "
                "'hearts_or_queen_discarded'"
            )


def _check_int(rules: Rules, field: str, low: int, high: int) -> None:
    value = getattr(rules, field)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesError(f"{field} must be an integer in {low}..{high}, not {value!r}")


def _coerce_enum(enum: type[_E], field: str, value: object) -> _E:
    if isinstance(value, enum):
        return value
    try:
        return enum(str(value)) if isinstance(value, str) else enum(value)  # type: ignore[arg-type]
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        raise RulesError(f"{field} {value!r} is not one of: {choices}") from None


class _FrozenValues(dict[Card, int]):
    """A read-only, hashable card -> points mapping (keeps `Rules` immutable)."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted((card.index, value) for card, value in self.items())))

    def _readonly(self, *args: object, **kwargs: object) -> None:
        raise TypeError("Rules.card_values is read-only; use Rules.replace(card_values=...)")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _readonly  # type: ignore[assignment]


def _frozen_values(values: Mapping[Any, Any]) -> _FrozenValues:
    if not isinstance(values, Mapping):
        raise RulesError("card_values must be a mapping of card -> points")
    items = sorted(
        ((to_card(card), value) for card, value in values.items() if value != 0),
        key=lambda item: item[0].index,
    )
    frozen = _FrozenValues()
    for card, value in items:
        dict.__setitem__(frozen, card, value)
    return frozen


_SWITCHES: Final = tuple(field.name for field in dataclasses.fields(Rules) if field.type == "bool")
"""Every true/false option: `Rules` refuses anything but True or False for each."""

_SAME_NAMED: Final = tuple(
    field.name
    for field in dataclasses.fields(Rules)
    if field.name in core.CoreConfig._fields and field.type in ("bool", "int")
)
"""The `CoreConfig` fields that are a `Rules` option of the same name, as an int
(players, kitty_size, pass_count, sun_points, no_trick_bonus, royal_queens, ...)."""

_LATER_SWITCHES: Final = tuple(
    (field.name, field.default)
    for field in dataclasses.fields(Rules)
    if field.type in ("bool", "int")
    and field.name
    not in {
        *Rules()._written(),
        "cancellation",
        "second_pack_removed",
        "penny_openings",
        "pledge_points",  # defaults to 10, not the protocol's 0: written by `to_dict` itself
    }
)
"""The true/false and integer options added since rules format 1 was first written:
`to_dict` writes each by its name, only when set (older rules keep their JSON; the SDK's
`RulesView` and the protocol carry it by the same name), so a new switch needs no line
in `to_dict`."""


@cache
def _field_defaults() -> dict[str, Any]:
    """Every option's default, by name, as `Rules()` holds it (a field's default, or what
    its factory makes)."""
    defaults = Rules()
    return {field.name: getattr(defaults, field.name) for field in dataclasses.fields(Rules)}
