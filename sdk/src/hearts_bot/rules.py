"""The rules of a match as a bot sees them: `RulesView` and its enumerations.

The enumerations' values are the platform's own text (``"left"``, ``"hearts_broken"``,
``"old"``), so `RulesView.to_dict()` has the shape of the arena's ``Rules.to_dict()``.

>>> rules = RulesView()
>>> rules.players, rules.hand_size, rules.value_of("QS"), rules.penalty_total
(4, 13, 13, 26)
>>> rules.pass_direction(2)
<PassDirection.ACROSS: 'across'>
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from .cards import DECK, HEARTS, JOKERS, QUEEN_OF_SPADES, Card, card_order

RULES_FORMAT_VERSION: Final = 1
DOMINO_HAND_SIZE: Final = 6
"""Domino Hearts: "Each player receives six cards" (the rest is the stock)."""


class PassDirection(StrEnum):
    """Where a hand's passed cards go (see docs/protocol.md for the seats)."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    LEFT2 = "left2"
    RIGHT2 = "right2"
    HOLD = "hold"
    SCATTER = "scatter"
    CENTER = "center"
    STAR = "star"  # two cards, to the two seats nearest the far side (odd tables)
    DEALER_CALLS = "dealer_calls"  # in a schedule: the dealer calls it (`Bot.call_pass`)
    SPLIT = "split"  # a call: each passed card its own way (`HandView.pass_split`)


class Settlement(StrEnum):
    """How hands are settled. With chips, `HandView.scores` are the chips each seat has
    paid in net (lower is still better) and `target_score` is the stake: a seat whose
    net payments reach it has run out and the match ends."""

    POINTS = "points"
    HOWELL = "howell"
    POT_LOWEST = "pot_lowest"
    SWEEPSTAKES = "sweepstakes"
    POOL_CLEAN = "pool_clean"
    AUCTION = "auction"  # the bid and a chip per card of the named suit into the pot


class ScoringSuitChoice(StrEnum):
    """How a hand's scoring suit is chosen: fixed by the rules, revealed after the pass
    (Heartless), or named by the highest bidder (Auction Hearts). Once chosen,
    `HandView.rules` are that hand's own values."""

    FIXED = "fixed"
    REVEALED = "revealed"
    AUCTION = "auction"


class DealerRule(StrEnum):
    """Who deals the next hand."""

    ROTATE = "rotate"
    QUEEN_OF_SPADES_TAKER = "queen_of_spades_taker"
    QUEEN_OF_SPADES_TAKER_LEADS = "queen_of_spades_taker_leads"


class Opening(StrEnum):
    """Who leads the first trick, and what."""

    LOWEST_CLUB = "lowest_club"
    ANY_CLUB = "any_club"
    LEFT_OF_DEALER = "left_of_dealer"
    LOWEST_SPADE = "lowest_spade"  # Heartless hands where clubs or diamonds score


class FirstTrick(StrEnum):
    """What may be played on the first trick."""

    ANY = "any"
    NO_PENALTY_CARDS = "no_penalty_cards"
    NO_POINT_CARDS = "no_point_cards"


class LeadRule(StrEnum):
    """What may not be led until broken."""

    ANY = "any"
    HEARTS_BROKEN = "hearts_broken"
    POINTS_BROKEN = "points_broken"


class BrokenBy(StrEnum):
    """What breaks the lead restriction."""

    HEARTS = "hearts"
    HEARTS_OR_QUEEN = "hearts_or_queen"
    POINT_CARDS = "point_cards"
    HEARTS_OR_QUEEN_DISCARDED = "hearts_or_queen_discarded"
    """A heart, or the QS played to a trick whose suit is not spades (000 'The Play');
    the QS led, or following a spade lead, breaks nothing."""


class MoonRule(StrEnum):
    """How shooting the moon scores."""

    NONE = "none"
    OLD = "old"
    NEW = "new"
    SHOOTERS_CHOICE = "shooters_choice"
    ADD_UNLESS_LOSING = "add_unless_losing"
    SUBTRACT_AFTER_SCORE = "subtract_after_score"
    """004 'Shooting the moon': add until some total has reached `moon_subtract_after`,
    then the shooter chooses (`Bot.choose_moon`)."""


class JokerKind(StrEnum):
    """What the jokers of `RulesView.jokers` are (Joker Hearts)."""

    WILD = "wild"
    """No suit; playable at any time (even holding the suit led, but not as the opening
    lead); never wins a trick; a trick led with one follows its first other card."""
    HEART_1911 = "heart_1911"
    """The 1911 joker: a heart between the ten and the jack (the 2H is out); playable only
    on a trick already holding the JH, QH, KH or AH, or as the only legal card."""


class PennyPlay(StrEnum):
    """How a hand's tricks are played (Four-Penny Hearts: several at once)."""

    NONE = "none"
    """One trick at a time (every other game)."""
    SIMPLE = "simple"
    """After `RulesView.penny_openings` regular tricks, multi-rounds of `players` tricks
    ("penny-rounds") at once; each player plays one card to each penny."""
    ADVANCED = "advanced"
    """As SIMPLE, but a player may play more than one card to a penny, provided each gets
    exactly `players` cards."""


class KittyTaker(StrEnum):
    """Who takes the kitty."""

    FIRST_TRICK = "first_trick"
    FIRST_POINTS = "first_points"
    FIRST_HEART = "first_heart"
    """The first seat to win a trick holding a heart (else the last trick's winner)."""
    EACH_TRICK = "each_trick"
    """A card a trick: trick t's winner takes the kitty's t-th lowest card (card order);
    the last trick's winner takes any rest. `kitty_owner`: the first trick's winner."""


class KittyVisibility(StrEnum):
    """Who may see the kitty."""

    HIDDEN = "hidden"
    FACE_UP = "face_up"
    AFTER_FIRST_TRICK = "after_first_trick"
    TAKER_ONLY = "taker_only"


def _standard_values() -> Mapping[Card, int]:
    values = {card: 1 for card in DECK if card[1] == HEARTS}
    values[QUEEN_OF_SPADES] = 13
    return MappingProxyType(dict(sorted(values.items(), key=lambda item: card_order(item[0]))))


@dataclasses.dataclass(frozen=True, kw_only=True)
class RulesView:
    """Every setting of the match's rules (docs/protocol.md, message Rules).

    The defaults are the standard four-player game.
    """

    name: str = "standard"
    players: int = 4
    removed_cards: frozenset[Card] = frozenset()
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
    opening: Opening = Opening.LOWEST_CLUB
    first_trick: FirstTrick = FirstTrick.NO_PENALTY_CARDS
    lead_rule: LeadRule = LeadRule.HEARTS_BROKEN
    broken_by: BrokenBy = BrokenBy.HEARTS_OR_QUEEN_DISCARDED
    queen_and_hearts_may_lead_heart: bool = False
    card_values: Mapping[Card, int] = dataclasses.field(default_factory=_standard_values)
    doubler: Card | None = None
    moon: MoonRule = MoonRule.OLD
    moon_points: int | None = None
    moon_requires: frozenset[Card] = frozenset()
    sun_points: int = 0
    no_trick_bonus: int = 0
    exact_score_adjustments: tuple[tuple[int, int], ...] = ()
    target_score: int | None = 100
    max_hands: int | None = None
    pass_forbidden: frozenset[Card] = frozenset()
    """Cards that may never be passed (the high spades, in some games)."""
    settlement: Settlement = Settlement.POINTS
    dealer_rule: DealerRule = DealerRule.ROTATE
    scoring_suit_choice: ScoringSuitChoice = ScoringSuitChoice.FIXED
    royal_queens: bool = False
    """Royal Hearts: the QH doubles its taker's hearts, the QC cancels the QS for a seat
    that took both, a hand never scores below 0, a moon is worth the shooter's score."""
    pass_call_options: tuple[PassDirection, ...] = ()
    """The passes a dealer may call where the schedule says DEALER_CALLS."""
    pass_call_split: bool = False
    """The dealer may also split the pass: each of the pass_count cards one of the
    directional `pass_call_options` (`split_directions`; `Bot.call_pass`)."""
    max_bid: int = 0
    """Auction Hearts: the highest bid allowed (0 without an auction)."""
    lives: int = 0
    """Danger Hearts: the lives each player starts with (0: none; see `HandView.lives`)."""
    danger_points: int = 0
    """Danger Hearts: the points in one hand that cost a life."""
    booster_nines: bool = False
    """Booster Nines: when a trick holds the nine of the suit led, the next trick must be
    led in that suit if its leader holds a card of it (`PlayView.legal` says so)."""
    jokers: int = 0
    """Jokers added to the pack ("JK1" .. "JK3"); their worth is in `card_values`."""
    joker_kind: JokerKind = JokerKind.WILD
    """What those jokers are."""
    cancellation: bool = False
    """Cancellation Hearts: two packs, so a hand, a trick or a pile may hold a card twice;
    two copies of one card in a trick cancel and neither wins; a trick nobody wins
    (`Trick.winner` None) goes to the winner of the next trick won, its leader leading
    again; an unwon last trick and the tricks waiting are discarded. `card_values` are per
    copy (`deck` lists a card twice when both packs hold it)."""
    second_pack_removed: frozenset[Card] = frozenset()
    """Cancellation Hearts: cards in the first pack only ("Remove the Twos from one deck")."""
    domino: bool = False
    """Domino Hearts: six cards each and a face-down stock; a seat that cannot follow
    draws until it can (the arena draws for it), seats drop out as their hands run dry,
    and a trick holds one card per seat still in (`HandView.in_play`, `stock_size`,
    `drawn`); the last seat left keeps its cards."""
    penny_play: PennyPlay = PennyPlay.NONE
    """Four-Penny Hearts: how the tricks are played (`PlayView.legal_moves`)."""
    penny_openings: int = 0
    """Four-Penny Hearts: the regular opening tricks before the first multi-round."""
    queen_at_first_chance: bool = False
    """Black Mariah as purists play it: a seat that may play the QS to another's lead
    must, when it is discarding or the trick holds the AS or KS (`PlayView.legal`)."""
    enfle: bool = False
    """Enfle (Schwellen): a piquet pack, 2..4 players; a seat that cannot follow takes up
    every trick won and the trick in progress (the arena does it: never a decision; the
    trick shows with `Trick.winner` None and the cards are in the seat's hand) and leads;
    the first seat out of cards wins, each seat scores its cards left."""
    first_trick_points: int = 0
    """Slobberhannes: points to the winner of the first trick (besides its cards)."""
    last_trick_points: int = 0
    """Slobberhannes: points to the winner of the last trick."""
    every_penalty_extra: int = 0
    """Slobberhannes: added for a seat that took the first trick, the last trick (each when
    it scores) and every penalty card ("If he takes all three he forfeits four points")."""
    doubler_alone_points: int = 0
    """Gong Zhu: when not 0, the doubler's taker who took no other scoring card (a card
    worth anything, or a heart under `all_hearts_reversed`) scores this instead of
    doubling (the lone ten of clubs: -50)."""
    all_hearts_reversed: bool = False
    """Gong Zhu's "all reds": a seat that takes every heart scores its hearts negated."""
    all_hearts_reverse_queen: bool = False
    """Gong Zhu: with `all_hearts_reversed`, that seat's QS is negated too."""
    moon_subtract_after: int = 0
    """With moon 'subtract_after_score': the total some seat must have reached before the
    hand for the shooter to choose to subtract (0 otherwise)."""
    no_hearts_pledge: bool = False
    """004 'Scoring variants': after the pass each seat, from the dealer's left, may pledge
    to take no hearts this hand (`Bot.pledge`): `pledge_points` off if kept, on if not."""
    pledge_points: int = 10
    """The no-hearts pledge's worth."""
    pass_call_counts: tuple[int, ...] = ()
    """004 'Passing cards' ("The Dealer may choose how many cards and where to pass"): the
    counts the dealer may call (`CallPassView.counts`); () calls `pass_count` only."""
    extra_cards_first_trick: bool = False
    """002 'Alternatives to the "Kitty"': no kitty; the cards that do not deal evenly go
    one more each to the first seats from the dealer's left (`HandView.extra_card_seats`),
    who each play that card to the first trick after the round, in play order from the
    leader. The first trick then holds more cards than seats (`Trick.plays` says who
    played each)."""
    queen_refusal: bool = False
    """Rickety Kate (M. Kerwin): "The receiving player has the right to refuse the Queen of
    Spades, in which case another card must be passed in its place": once every seat has
    passed, the seat the QS is passed to is asked `Bot.refuse_queen`, and on a refusal
    its giver `Bot.replace_pass` (`HandView.queen_offer`)."""
    exposures: bool = False
    """Gong Zhu: before the first card each seat, from the dealer's left, may expose the AH,
    QS, JD and TC it holds (`Bot.expose`), doubling their value (the AH doubles every
    heart; an exposed TC quadruples). An exposed card may not be played the first time its
    suit is led, the lead included, unless it is its holder's only card of that suit; the
    hand's `rules` then hold the doubled values (`HandView.exposed` the cards)."""

    def __hash__(self) -> int:
        return hash((self.name, self.players, tuple(self.card_values.items())))

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in card order."""
        kept = tuple(card for card in DECK if card not in self.removed_cards)
        if self.cancellation:  # two packs: a card twice, unless the second pack lacks it
            return tuple(
                copy
                for card in kept
                for copy in (card, card)[: 1 + (card not in self.second_pack_removed)]
            )
        return kept + JOKERS[: self.jokers]

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        if self.cancellation:
            return (len(self.deck) - self.kitty_size) // self.players
        if self.domino:
            return DOMINO_HAND_SIZE
        if self.enfle:  # the piquet pack dealt out
            return (52 - len(self.removed_cards)) // self.players
        return (52 + self.jokers - len(self.removed_cards) - self.kitty_size) // self.players

    @property
    def extra_cards(self) -> int:
        """How many cards are dealt one more each to the seats from the dealer's left under
        `extra_cards_first_trick` (the cards that do not deal evenly: 1 for 3 players, 2
        for 5, with a full pack); 0 otherwise."""
        if not self.extra_cards_first_trick:
            return 0
        return len(self.deck) - self.kitty_size - self.hand_size * self.players

    def value_of(self, card: Card) -> int:
        """Points `card` is worth to its taker (0 for most cards)."""
        return self.card_values.get(card, 0)

    @property
    def penalty_cards(self) -> frozenset[Card]:
        """Cards worth more than 0 points to their taker."""
        return frozenset(card for card, value in self.card_values.items() if value > 0)

    @property
    def penalty_total(self) -> int:
        """The sum of every penalty card's points (26 in the standard game; each copy with
        two packs)."""
        if self.cancellation:
            return sum(v for card in self.deck if (v := self.value_of(card)) > 0)
        return sum(value for value in self.card_values.values() if value > 0)

    @property
    def effective_moon_points(self) -> int:
        """What a moon is worth: `moon_points`, or by default every penalty point."""
        return self.penalty_total if self.moon_points is None else self.moon_points

    @property
    def split_directions(self) -> tuple[PassDirection, ...]:
        """The directions each card of a split call may take: the directional
        `pass_call_options`; () unless `pass_call_split`."""
        if not self.pass_call_split:
            return ()
        directional = (
            PassDirection.LEFT,
            PassDirection.RIGHT,
            PassDirection.ACROSS,
            PassDirection.LEFT2,
            PassDirection.RIGHT2,
        )
        return tuple(d for d in self.pass_call_options if d in directional)

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass of the `hand_number`-th hand (0-based)."""
        return self.pass_schedule[hand_number % len(self.pass_schedule)]

    def to_dict(self) -> dict[str, Any]:
        """The settings in the shape of the arena's ``Rules.to_dict()``."""
        return self._written() | self._later_dict()

    def _written(self) -> dict[str, Any]:
        """Every setting but the later switches (`LATER_SWITCHES`)."""
        return {
            "format": RULES_FORMAT_VERSION,
            "name": self.name,
            "players": self.players,
            "removed_cards": sorted(self.removed_cards, key=card_order),
            "kitty_size": self.kitty_size,
            "kitty_taker": self.kitty_taker.value,
            "kitty_visibility": self.kitty_visibility.value,
            "pass_count": self.pass_count,
            "pass_schedule": [d.value for d in self.pass_schedule],
            "opening": self.opening.value,
            "first_trick": self.first_trick.value,
            "lead_rule": self.lead_rule.value,
            "broken_by": self.broken_by.value,
            "queen_and_hearts_may_lead_heart": self.queen_and_hearts_may_lead_heart,
            "card_values": dict(self.card_values),
            "doubler": self.doubler,
            "moon": self.moon.value,
            "moon_points": self.moon_points,
            "moon_requires": sorted(self.moon_requires, key=card_order),
            "sun_points": self.sun_points,
            "no_trick_bonus": self.no_trick_bonus,
            "exact_score_adjustments": [list(pair) for pair in self.exact_score_adjustments],
            "target_score": self.target_score,
            "max_hands": self.max_hands,
            "pass_forbidden": sorted(self.pass_forbidden, key=card_order),
            "settlement": self.settlement.value,
            "dealer_rule": self.dealer_rule.value,
            "scoring_suit_choice": self.scoring_suit_choice.value,
            "royal_queens": self.royal_queens,
            "pass_call_options": [d.value for d in self.pass_call_options],
            "pass_call_split": self.pass_call_split,
            "max_bid": self.max_bid,
            "lives": self.lives,
            "danger_points": self.danger_points,
            "booster_nines": self.booster_nines,
            "jokers": self.jokers,
            "joker_kind": self.joker_kind.value,
            "domino": self.domino,
            **self._cancellation_dict(),
        } | self._penny_dict()

    def _later_dict(self) -> dict[str, Any]:
        """The later switches (`LATER_SWITCHES`), each only when set: as the arena writes
        them, so older rules keep their JSON and a new switch needs no line here (the
        dealer's counts too, a list, written when set)."""
        later = {
            name: getattr(self, name)
            for name, default in LATER_SWITCHES.items()
            if getattr(self, name) != default
        }
        if self.pass_call_counts:
            later["pass_call_counts"] = list(self.pass_call_counts)
        if self.pledge_points != PLEDGE_POINTS:  # the proto's unset means 10
            later["pledge_points"] = self.pledge_points
        return later

    def _cancellation_dict(self) -> dict[str, Any]:
        """As the arena writes them: the Cancellation settings only when used."""
        if not self.cancellation:
            return {}
        return {
            "cancellation": True,
            "second_pack_removed": sorted(self.second_pack_removed, key=card_order),
        }

    def _penny_dict(self) -> dict[str, Any]:
        """The penny settings, present only when used (as in the arena's ``to_dict``)."""
        if self.penny_play is PennyPlay.NONE:
            return {}
        return {"penny_play": self.penny_play.value, "penny_openings": self.penny_openings}


PLEDGE_POINTS: Final = 10
"""The no-hearts pledge's worth when the rules do not say (004 'Scoring variants')."""
_ALWAYS_WRITTEN: Final = frozenset(
    RulesView(penny_play=PennyPlay.SIMPLE, cancellation=True)._written()
) - {"format"}
LATER_SWITCHES: Final[Mapping[str, Any]] = MappingProxyType(
    {
        field.name: field.default
        for field in dataclasses.fields(RulesView)
        if field.type in ("bool", "int")
        and field.name not in _ALWAYS_WRITTEN
        and field.name != "pledge_points"  # its default is 10, the proto's unset
    }
)
"""The plain true/false and integer settings added since the protocol's first rules, by
name and default: `RulesView`, ``to_dict`` and hearts_bot.convert carry each one by its
name (the same in the proto's Rules message), so a new one is its `RulesView` field."""
