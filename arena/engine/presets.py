"""Named rule presets, each traced to the source text in ../shared/rules/ it implements.

`preset(name, players=None)` builds the full `Rules` value; seasons, matches and replays
store that value, not the name. The deck trims for 3, 5, 6 and 7 players differ by
source, so each preset uses its own source's table.

>>> preset("standard").players
4
>>> str(preset("standard", players=3).removed_cards)
'2D'
>>> sorted(PRESETS)[:3]
['auction', 'big_table', 'black_maria']
>>> preset("star").players  # a preset made for odd tables has its own default
5
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from .cards import Card, CardSet, Suit
from .rules import (
    BrokenBy,
    DealerRule,
    FirstTrick,
    JokerKind,
    KittyTaker,
    KittyVisibility,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    PennyPlay,
    Rules,
    RulesError,
    ScoringSuitChoice,
    Settlement,
    standard_values,
)

L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD
L2, R2 = PassDirection.LEFT2, PassDirection.RIGHT2

# 000 'The Deal': the cards removed so the pack deals evenly.
TRIMS_000: Final[Mapping[int, str]] = {3: "2D", 4: "", 5: "2D 2C", 6: "2D 3D 3C 4C", 7: "2S 3D 3C"}
# 003 'Deal': three players remove 2D; five remove 2D and 2S.
TRIMS_003: Final[Mapping[int, str]] = {3: "2D", 4: "", 5: "2D 2S"}
# 003 'Deal': "except in five-player Heartless remove the Two of Diamonds and the Two of
# Hearts" (so the 2S, which opens when clubs or diamonds score, stays in play).
TRIMS_003_HEARTLESS: Final[Mapping[int, str]] = {3: "2D", 4: "", 5: "2D 2H"}
# 002 'Alternatives to the Kitty': 3C for three; 3C and 2D for five (`omnibus_jack`).
TRIMS_002: Final[Mapping[int, str]] = {3: "3C", 4: "", 5: "3C 2D"}

# Pass rotations: 4 players 000/001/002 (left, right, across, hold); 3 players 001
# (left, right, keeper); 5 players 001 (left, two-left, right, two-right, keeper);
# more than five: 000 'The Pass' ("left and then right").
ROTATIONS: Final[Mapping[int, tuple[PassDirection, ...]]] = {
    3: (L, R, H),
    4: (L, R, A, H),
    5: (L, L2, R, R2, H),
    6: (L, R),
    7: (L, R),
}


def _trim(table: Mapping[int, str], players: int, preset_name: str) -> CardSet:
    if players not in table:
        supported = ", ".join(str(n) for n in sorted(table))
        raise RulesError(f"preset {preset_name!r} supports {supported} players, not {players}")
    return CardSet.parse(table[players])


def _values_without_removed(values: dict[Card, int], removed: CardSet) -> dict[Card, int]:
    return {card: value for card, value in values.items() if card not in removed}


def standard(players: int = 4) -> Rules:
    """000 'Hearts': pass L/R/A/hold, 2C leads, no points on trick 1, hearts broken by a
    heart or the QS discarded (000 'The Play': "Hearts may not be led until a heart or the
    queen of spades has been discarded"; the QS led or following a spade lead breaks
    nothing), hearts 1 and QS 13, old moon, game to 100. Every preset built on it keeps
    that play rule; 002's "Playing the Queen of Spades also breaks Hearts" is
    `BrokenBy.HEARTS_OR_QUEEN`, which no preset's source plays with 000's other rules."""
    removed = _trim(TRIMS_000, players, "standard")
    return Rules(
        name="standard",
        players=players,
        removed_cards=removed,
        pass_schedule=ROTATIONS[players],
        card_values=_values_without_removed(standard_values(), removed),
        broken_by=BrokenBy.HEARTS_OR_QUEEN_DISCARDED,
    )


def new_moon(players: int = 4) -> Rules:
    """Standard with 004's 'New Moon': the shooter subtracts 26 instead."""
    return standard(players).replace(name="new_moon", moon=MoonRule.NEW)


def sun(players: int = 4) -> Rules:
    """Standard plus 'Shooting the Sun' (002 'Hand scoring variants'; 004): all tricks = 52."""
    return standard(players).replace(name="sun", sun_points=52)


def omnibus(players: int = 4) -> Rules:
    """000 'Omnibus Hearts': the TD counts -10; a slam (all 13 hearts, the QS and the TD)
    scores 26 plus instead of 16 minus. Four to six players."""
    if players not in (4, 5, 6):
        raise RulesError("Omnibus Hearts is for four to six players (000 'Omnibus Hearts')")
    base = standard(players)
    values = dict(base.card_values)
    values[Card.from_str("TD")] = -10
    return base.replace(
        name="omnibus",
        card_values=values,
        moon=MoonRule.NEW,
        moon_requires=CardSet.parse("TD"),
        moon_points=26,
    )


def omnibus_jack(players: int = 4) -> Rules:
    """The JD instead of the TD (000 'some localities'; 002 preferred rules): -10, not
    needed to shoot, the shooter chooses old or new moon (002 'the Score'). Three and five
    players remove 002's own cards ('Alternatives to the "Kitty"': the 3C; the 3C and the
    2D), not 000's; larger tables, which 002 does not cover, keep 000's trims.

    >>> str(omnibus_jack(3).removed_cards), str(omnibus_jack(5).removed_cards)
    ('3C', '3C 2D')
    """
    base = standard(players)
    if players in TRIMS_002:
        removed = _trim(TRIMS_002, players, "omnibus_jack")
        base = base.replace(
            removed_cards=removed,
            card_values=_values_without_removed(standard_values(), removed),
        )
    values = dict(base.card_values)
    values[Card.from_str("JD")] = -10
    return base.replace(
        name="omnibus_jack",
        card_values=values,
        moon=MoonRule.SHOOTERS_CHOICE,
        broken_by=BrokenBy.HEARTS,  # 002 'the Play': "until a Heart was played"
        first_trick=FirstTrick.ANY,  # 002 lists "no bleeding" only as a variant
    )


def black_maria(players: int = 4) -> Rules:
    """001: JD -10; no point card (hearts, QS, JD) led until points are broken or played
    on the first trick; a 3/5-player kitty goes to the first player to take a point card;
    game ends when someone passes 100."""
    if players not in (3, 4, 5):
        raise RulesError("the 001 rules cover three, four and five players")
    values = standard_values()
    values[Card.from_str("JD")] = -10
    kitty = {3: 1, 4: 0, 5: 2}[players]
    return Rules(
        name="black_maria",
        players=players,
        kitty_size=kitty,
        kitty_taker=KittyTaker.FIRST_POINTS,
        pass_schedule=ROTATIONS[players],
        card_values=values,
        first_trick=FirstTrick.NO_POINT_CARDS,
        lead_rule=LeadRule.POINTS_BROKEN,
        broken_by=BrokenBy.POINT_CARDS,
        target_score=101,  # "until a player scores more than 100"
    )


def black_maria_purist(players: int = 4) -> Rules:
    """001's Black Mariah as "Hearts purists" play it (001 'VARIATION 1: BLACK MARIAH'):
    "a player holding the Q of spades must get rid of it on the first trick they
    legitimately can" (`Rules.queen_at_first_chance`); the rest is `black_maria`.

    >>> rules = black_maria_purist()
    >>> rules.queen_at_first_chance, rules.first_trick.value
    (True, 'no_point_cards')
    """
    return black_maria(players).replace(name="black_maria_purist", queen_at_first_chance=True)


def midwest(players: int = 4) -> Rules:
    """003 'Lakewood Junior College rules': L/R/A/hold (three-hand rotation for 3 or 5),
    2C leads, no scoring card led until one is taken, old moon, to 100."""
    removed = _trim(TRIMS_003, players, "midwest")
    rotation = (L, R, A, H) if players == 4 else (L, R, H)
    return Rules(
        name="midwest",
        players=players,
        removed_cards=removed,
        pass_schedule=rotation,
        card_values=_values_without_removed(standard_values(), removed),
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.POINTS_BROKEN,
        broken_by=BrokenBy.POINT_CARDS,
    )


def heartless(players: int = 4) -> Rules:
    """003 'HEARTLESS': "played like Regular Hearts, except that the suit that scores
    points can change from hand to hand": after the pass each player reveals a card, the
    suit of the highest scores 1 a card and its scoring queen 13, and the 2C or the 2S
    opens (`Hand.apply_reveal`, `Rules.for_scoring_suit`).

    "Regular Hearts" here is the document's own game, the `midwest` preset (its rotation,
    no scoring card led until one is taken, old moon, to 100), with 003's five-player trim
    for Heartless (2D and 2H, keeping the 2S). midwest's settings already satisfy the
    REVEALED checks (standard values, lead_rule 'points_broken', broken_by 'point_cards':
    none names the literal heart suit), so nothing else changes. Three to five players.

    >>> str(heartless(5).removed_cards)
    '2D 2H'
    """
    removed = _trim(TRIMS_003_HEARTLESS, players, "heartless")
    return midwest(players).replace(
        name="heartless",
        removed_cards=removed,
        card_values=_values_without_removed(standard_values(), removed),
        scoring_suit_choice=ScoringSuitChoice.REVEALED,
    )


def classic(players: int = 4) -> Rules:
    """003 'Regular Hearts' and 004's 1911 text: pass three left every deal, the player
    left of the dealer leads any card, hearts only (no QS), no moon."""
    removed = _trim(TRIMS_003, players, "classic")
    hearts = {card: 1 for card in CardSet.from_mask(Suit.HEARTS.mask) if card not in removed}
    return Rules(
        name="classic",
        players=players,
        removed_cards=removed,
        pass_schedule=(L,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        broken_by=BrokenBy.HEARTS,
        card_values=hearts,
        moon=MoonRule.NONE,
    )


def _heart_table(points_by_rank: str) -> dict[Card, int]:
    ranks = "23456789TJQKA"
    table = [int(p) for p in points_by_rank.split()]
    return {Card.from_str(rank + "H"): p for rank, p in zip(ranks, table, strict=True)}


def spot(players: int = 4) -> Rules:
    """Spot Hearts, 004 (1911 'Spot Hearts'): "the hearts count according to the number
    of spots on the cards, excepting that the ace counts 14, the king 13, queen 12 and
    knave 11, the combined score of the thirteen hearts being thus 104". Hearts only: the
    1911 game has no Black Lady (002 'Spot hearts' counts hearts only too, its ace 1)."""
    values = _heart_table("2 3 4 5 6 7 8 9 10 11 12 13 14")
    return standard(players).replace(name="spot", card_values=values)


def spot_midwest(players: int = 4) -> Rules:
    """003 'Simple variations': hearts at face value, J Q K 10 each, A 15, QS 25, play to
    500. The text says this totals 114; its own table sums to 124, which we implement."""
    values = _heart_table("2 3 4 5 6 7 8 9 10 10 10 10 15")
    values[Card.from_str("QS")] = 25
    return midwest(players).replace(name="spot_midwest", card_values=values, target_score=500)


def spot_face(players: int = 4) -> Rules:
    """004 'Scoring variants': numbered hearts at face value, faces and the ace 10 each,
    the QS 25: 119 per deal."""
    values = _heart_table("2 3 4 5 6 7 8 9 10 10 10 10 10")
    values[Card.from_str("QS")] = 25
    return standard(players).replace(name="spot_face", card_values=values)


def hooligan(players: int = 4) -> Rules:
    """Hooligan Hearts (004 'Scoring variants'): the 7C is a penalty card worth 7."""
    base = standard(players)
    values = dict(base.card_values)
    values[Card.from_str("7C")] = 7
    return base.replace(name="hooligan", card_values=values)


# The chips each player sits down with (`target_score` under a chip settlement): 004's
# Howell text ("each player begins with an equal number of chips, say 100"). The pool
# costs one chip a hand, so 100 would last hundreds of hands: it starts with 10.
STAKE: Final = 100
POOL_STAKE: Final = 10


def no_black_lady(players: int = 4) -> Rules:
    """Hearts Without Black Lady (000): the QS counts nothing, 13 points in play, no pass
    ("players ... play their original hands"), settled by the Howell method. No moon:
    neither source has one for this game, and Howell's count has no room for it."""
    removed = _trim(TRIMS_000, players, "no_black_lady")
    return Rules(
        name="no_black_lady",
        players=players,
        removed_cards=removed,
        pass_schedule=(H,),
        card_values=dict.fromkeys(CardSet.from_mask(Suit.HEARTS.mask), 1),
        broken_by=BrokenBy.HEARTS,
        moon=MoonRule.NONE,
        settlement=Settlement.HOWELL,
        target_score=STAKE,
    )


AUCTION_MAX_BID: Final = 13


def auction(players: int = 4) -> Rules:
    """Auction Hearts (000; 004's 1911 text): Hearts Without Black Lady, except that the
    players bid once each, from the dealer's left, for the right to name the suit to be
    avoided; the highest bidder puts his bid in the pot, names the suit and leads first.
    Each card of that suit taken puts a chip in the pot; one or two players who took none
    share it (an odd chip waits); otherwise the pot waits and the same player names the
    suit of the next deal without bidding (`arena.engine.auction`; docs/rules.md).

    Before the naming nothing scores (`card_values` is empty); the named suit's cards are
    1 each (`Rules.for_scoring_suit`). The named suit may not be led until one of its cards
    has been discarded ("play proceeds as in the regular game"), and the first trick is
    free, as the lead is (003 'Regular Hearts' plays the same way). Bids run from 1 to 13
    chips: the sources set no limit, and 13 is what one deal's suit can put into the pot.
    Three to seven players, 000's trims.

    >>> rules = auction()
    >>> rules.scoring_suit_choice.value, rules.settlement.value, rules.max_bid
    ('auction', 'auction', 13)
    """
    return Rules(
        name="auction",
        players=players,
        removed_cards=_trim(TRIMS_000, players, "auction"),
        pass_schedule=(H,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.POINTS_BROKEN,
        broken_by=BrokenBy.POINT_CARDS,
        card_values={},
        moon=MoonRule.NONE,
        settlement=Settlement.AUCTION,
        scoring_suit_choice=ScoringSuitChoice.AUCTION,
        max_bid=AUCTION_MAX_BID,
        target_score=STAKE,
    )


def danger(players: int = 4) -> Rules:
    """Danger Hearts (004 'Other Variations'): "10 rounds are played using standard
    scoring, yet each player has three lives. If a player receives 15 hearts (and over) in
    a round, they lose a life. Further rounds are played until an overall winner is
    decided."

    There are only 13 hearts, so "15 hearts" is read as 15 points in one hand (the ♠Q and
    two hearts, or a moon against you). The winner has the most lives left, then the lowest
    total; the game ends after ten hands if that is one player, else after the first hand
    that makes it one, or as soon as at most one player has a life left. A player without
    lives plays on (the table needs every seat) but cannot climb above those with lives.

    >>> rules = danger()
    >>> rules.lives, rules.danger_points, rules.max_hands, rules.target_score
    (3, 15, 10, None)
    """
    return standard(players).replace(
        name="danger", lives=3, danger_points=15, max_hands=10, target_score=None
    )


def chips(players: int = 4) -> Rules:
    """000 'Scoring Variations' 1): the standard game paid in chips, a chip a point; the
    lowest score of the deal takes the pot, ties split it, odd chips wait."""
    return standard(players).replace(
        name="chips", settlement=Settlement.POT_LOWEST, target_score=STAKE
    )


def sweepstakes(players: int = 4) -> Rules:
    """000 'Scoring Variations' 2), Sweepstakes: a chip a point; a lone zero takes the
    pot, several zeros split it, and with no zero the pot waits for a later deal."""
    return standard(players).replace(
        name="sweepstakes", settlement=Settlement.SWEEPSTAKES, target_score=STAKE
    )


def chip_pool(players: int = 4) -> Rules:
    """004 'Scoring', simplified chips: one chip each a deal, shared by the players who
    took no penalty card; if all took one, the pool carries over."""
    return standard(players).replace(
        name="chip_pool", settlement=Settlement.POOL_CLEAN, target_score=POOL_STAKE
    )


def queens(players: int = 4) -> Rules:
    """Queens (004 'Other Variations'): all four queens 13 each besides the hearts (64),
    no moon, game to 108, and the taker of the QS deals the next hand."""
    base = standard(players)
    values = dict(base.card_values)
    for queen in ("QC", "QD", "QH", "QS"):
        card = Card.from_str(queen)
        if card in base.deck:
            values[card] = 13
    return base.replace(
        name="queens",
        card_values=values,
        moon=MoonRule.NONE,
        target_score=108,
        dealer_rule=DealerRule.QUEEN_OF_SPADES_TAKER,
    )


def royal(players: int = 4) -> Rules:
    """Royal Hearts (004 'Royal Hearts'): the standard game (000's trims keep every queen)
    scored by the four queens: the QS 26, the QH a heart (1) that doubles its taker's hearts,
    the QD -10 but no hand below 0, the QC cancelling the QS of the seat that took both
    (`Rules.royal_queens`). 52 points in play; an old moon worth the shooter's own score:
    52, or 42, 26 or 16 when it also took the QD, the QC or both.

    >>> rules = royal()
    >>> rules.value_of("QS"), rules.value_of("QD"), rules.value_of("QH"), rules.value_of("QC")
    (26, -10, 1, 0)
    >>> rules.royal_queens, rules.moon.value, rules.effective_moon_points
    (True, 'old', 52)
    """
    base = standard(players)
    values = dict(base.card_values)
    values[Card.from_str("QS")] = 26  # "worth 26 points instead of 13"
    values[Card.from_str("QD")] = -10  # "subtracts 10 points from the score"
    return base.replace(name="royal", card_values=values, royal_queens=True, moon=MoonRule.OLD)


def star(players: int = 5) -> Rules:
    """Star passing (004 'Passing cards'): with three, five or seven players the across
    pass becomes a star pass, one card each to the two players nearest the far side.
    More than four players pass two cards, not three (004, same section)."""
    if players % 2 == 0:
        raise RulesError(f"preset 'star' is for 3, 5 or 7 players (004), not {players}")
    base = standard(players)
    return base.replace(
        name="star",
        pass_schedule=(L, R, PassDirection.STAR, H),
        pass_count=3 if players <= 4 else 2,
    )


def no_spade_pass(players: int = 4) -> Rules:
    """The standard game where the ace, king and queen of spades may not be passed
    (004 'Passing cards': "Passing the Ace, King and/or Queen of Spades may be allowed
    or prohibited"): whoever is dealt the black lady must defend her."""
    return standard(players).replace(name="no_spade_pass", pass_forbidden=CardSet.parse("QS KS AS"))


def big_table(players: int = 6) -> Rules:
    """Five to seven players (000's trims and its left-then-right rotation, 001's for
    five), passing two cards: 004 'Passing cards', "When there are more than four
    players, only two cards are passed"."""
    if players <= 4:
        raise RulesError(f"preset 'big_table' is for 5 to 7 players (004), not {players}")
    return standard(players).replace(name="big_table", pass_count=2)


def booster_nines(players: int = 4) -> Rules:
    """Booster Nines (004 'Other Variations': "if a nine is played then an extra round in
    the suit is played"): the standard game, where a trick holding the nine of the suit
    led obliges its winner to lead that suit again if he can (`Rules.booster_nines`; the
    interpretation is in docs/rules.md).

    >>> rules = booster_nines()
    >>> rules.booster_nines, rules.penalty_total
    (True, 26)
    """
    return standard(players).replace(name="booster_nines", booster_nines=True)


# 004 'Deal' and 'Jokers' (line 317): jokers instead of removed cards, so the pack deals evenly.
JOKERS_AT: Final[Mapping[int, tuple[int, str]]] = {
    3: (2, ""),  # "two Jokers can be added ... Each player then receives 18 cards"
    4: (2, "2D 2S"),  # not in the sources: two jokers, and two low cards out as 000 trims
    5: (3, ""),  # "three Jokers ... can be added, and each player receives 11"
    6: (2, ""),  # "if there are three or six players, the two Jokers can be added"
}


def joker(players: int = 3) -> Rules:
    """Joker Hearts (004 'Other Variations': "adding the joker cards, which can be played
    any time and count for zero points"; 004 'Deal': "two Jokers can be added, and count as
    an off-suit, non-Heart card. Each player then receives 18 cards", five players three
    jokers and 11 cards; 004 'Jokers': two for six players). The standard game's play and
    scoring with wild jokers (`Rules.jokers`, `JokerKind.WILD`) in place of 000's trims:
    three players (the default, the source's own table) and six add two, five add three;
    four add two and leave out the 2D and 2S (a choice: the sources give no four-hand
    joker deal). Seven: no joker count deals evenly, so RulesError.

    >>> rules = joker()
    >>> rules.players, rules.hand_size, str(rules.deck - CardSet.from_mask((1 << 52) - 1))
    (3, 18, 'JK1 JK2')
    """
    if players not in JOKERS_AT:
        raise RulesError(f"preset 'joker' is for 3 to 6 players (004 'Deal'), not {players}")
    count, removed = JOKERS_AT[players]
    return standard(players).replace(
        name="joker",
        removed_cards=CardSet.parse(removed),
        kitty_size=0,
        jokers=count,
        joker_kind=JokerKind.WILD,
    )


def joker_1911(players: int = 4) -> Rules:
    """The 1911 Joker Hearts (004 'Joker Hearts': "the deuce of hearts is discarded, and an
    extra card, called the joker, takes its place, ranking in value between ten and knave.
    It cannot be thrown away, excepting when hearts are led and an ace or court card is
    played, though if an opponent discards the ace or a court card of hearts, then the
    holder of the joker may discard it. The joker is usually considered worth five chips").
    The standard game (000's trims for other tables) with the 2H out and the joker in, a
    heart worth 5 to whoever takes it (`JokerKind.HEART_1911`): 30 points in play.

    >>> rules = joker_1911()
    >>> rules.value_of("JK1"), rules.penalty_total, "2H" in rules.deck, rules.hand_size
    (5, 30, False, 13)
    """
    base = standard(players)
    values = {card: value for card, value in base.card_values.items() if str(card) != "2H"}
    values[Card.from_str("JK1")] = 5  # "usually considered worth five chips"
    return base.replace(
        name="joker_1911",
        removed_cards=base.removed_cards | CardSet.parse("2H"),
        jokers=1,
        joker_kind=JokerKind.HEART_1911,
        card_values=values,
    )


def heartsette(players: int = 4) -> Rules:
    """Heartsette (004, 1911 'Heartsette'): "the deuce of spades is deleted and the three
    cards left after dealing twelve cards to each player are called the widow (or kitty),
    and are left face downward on the table. The winner of the first trick must take the
    widow without showing it to his opponents." The game it varies is 004's 1911 Hearts:
    hearts only, one each ("counts the hearts he has taken in"), no pass, "the player at
    the dealer's left begins by leading any card he chooses", a player void in the suit
    led "is privileged to throw away any card he likes" (no first-trick or lead limits),
    settled by Howell's method, no moon (as `no_black_lady`, 000's form of that game).
    Four players: the text's twelve cards each and a widow of three are 51 cards.

    >>> rules = heartsette()
    >>> rules.hand_size, rules.kitty_size, "2S" in rules.deck, rules.penalty_total
    (12, 3, False, 13)
    """
    _trim({4: ""}, players, "heartsette")
    return no_black_lady(4).replace(
        name="heartsette",
        removed_cards=CardSet.parse("2S"),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        kitty_size=3,
        kitty_taker=KittyTaker.FIRST_TRICK,
        kitty_visibility=KittyVisibility.TAKER_ONLY,
    )


# The table size of a preset made for other than four players (each builder's default).
# 003 'THREE-PENNY AND FIVE-PENNY HEARTS': each penny game has its own table size.
PENNY_TABLES: Final[Mapping[str, int]] = {
    "three_penny": 3,
    "three_penny_advanced": 3,
    "five_penny": 5,
    "five_penny_advanced": 5,
}
DEFAULT_PLAYERS: Final[Mapping[str, int]] = {
    "star": 5,
    "big_table": 6,
    "joker": 3,
    "cancellation": 8,
    **PENNY_TABLES,
    "first_heart_kitty": 3,
    "kitty_each_trick": 3,
    "two_player": 2,
    "extra_cards": 3,
}


def dealer_calls(players: int = 4) -> Rules:
    """003 'Simple variations': "The dealer chooses the passing rule, the only
    restriction being that each player passes three cards and receives three cards." The
    dealer calls every hand's pass after looking at the deal, from the passes that give
    and take three: left, right and the centre mixer ("Pass three cards to the center of
    the table. I will shuffle the cards, and redeal them"), across with an even table, two
    seats left or right with five or more, and one card to each other player with four.
    Or the dealer splits the pass, each of the three cards its own way among the
    directional options ("Pass one card to the right and two cards to the left";
    `Rules.pass_call_split`)."""
    base = midwest(players) if players in TRIMS_003 else standard(players)
    options = [L, R, PassDirection.CENTER]
    if players % 2 == 0:
        options.insert(2, A)
    if players >= 5:
        options[2:2] = [L2, R2]
    if players == 4:
        options.append(PassDirection.SCATTER)
    return base.replace(
        name="dealer_calls",
        pass_schedule=(PassDirection.DEALER_CALLS,),
        pass_count=3,
        pass_call_options=tuple(options),
        pass_call_split=True,
    )


def cancellation(players: int = 8) -> Rules:
    """000 'Cancellation Hearts': "Seven to ten people can play"; "Two standard packs of 52
    cards are shuffled together"; "dealt around as far as they will go evenly. Any
    remaining odd cards are placed face down for a widow"; "No cards are passed"; "The
    player to the dealer's left makes the opening lead"; otherwise Four-Hand Hearts (000:
    no heart or QS on the first trick, hearts not led until a heart or the QS is played,
    the old moon, to 100), plus "The widow is added to the first trick" and the
    cancellation of identical cards (003 'CANCELLATION HEARTS': "26 Hearts and two Queens
    of Spades for a total of 52 points"). Played by `arena.engine.variants.cancellation`.

    >>> rules = cancellation()
    >>> rules.players, rules.hand_size, rules.kitty_size, rules.penalty_total
    (8, 13, 0, 52)
    >>> [(n, cancellation(n).hand_size, cancellation(n).kitty_size) for n in (7, 9, 10)]
    [(7, 14, 6), (9, 11, 5), (10, 10, 4)]
    """
    if not 7 <= players <= 10:
        raise RulesError(
            f"cancellation is for 7 to 10 players (000 'Cancellation Hearts'), not {players}"
        )
    return Rules(
        name="cancellation",
        players=players,
        cancellation=True,
        kitty_size=104 % players,
        kitty_taker=KittyTaker.FIRST_TRICK,
        kitty_visibility=KittyVisibility.TAKER_ONLY,
        pass_schedule=(H,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.NO_PENALTY_CARDS,
        lead_rule=LeadRule.HEARTS_BROKEN,
        broken_by=BrokenBy.HEARTS_OR_QUEEN,
        moon=MoonRule.OLD,
    )


def cancellation_four(players: int = 4) -> Rules:
    """003 'CANCELLATION HEARTS' for four: "Remove the Twos from one deck, and the Threes,
    Fours, Fives, Sixes, Sevens, and Eights from both decks. Shuffle together the remaining
    52-cards. Then play Cancellation Hearts according to the above rules" -- 003's own
    Hearts (the `midwest` preset: left, right, across, hold; the 2C leads; no scoring card
    led until one is played; the old moon; to 100): "13 points for the 13 Hearts, and 26
    points for the two Queens of Spades" (39).

    >>> rules = cancellation_four()
    >>> len(rules.deck_copies), rules.hand_size, rules.penalty_total
    (52, 13, 39)
    """
    if players != 4:
        raise RulesError(f"cancellation_four is 003's four-player deck, not {players} players")
    low = CardSet(f"{rank}{suit}" for rank in "345678" for suit in "CDSH")
    return midwest(4).replace(
        name="cancellation_four",
        cancellation=True,
        removed_cards=low,
        second_pack_removed=CardSet.parse("2C 2D 2S 2H"),
        card_values=_values_without_removed(standard_values(), low),
    )


def domino(players: int = 4) -> Rules:
    """000 'Domino Hearts': "Two to seven people can play"; "Each player receives six
    cards, dealt one at a time. The remainder of the pack is ... the stock"; a player who
    cannot follow draws until he can; seats drop out as their cards run out; "The last
    survivor must keep all the cards remaining in his hand" (`arena.engine.variants.domino`).

    No pass; the seat left of the dealer leads any card; hearts may not be led until one
    has been played (unless the leader holds only hearts); no first-trick restriction.
    "the ♠Q is usually not scored": the hearts count one each. The moon is all 13 hearts,
    scored as in Four-Hand Hearts, and the game is to 100. docs/rules.md says why.
    """
    hearts = {card: value for card, value in standard_values().items() if card.suit is Suit.HEARTS}
    return Rules(
        name="domino",
        players=players,
        domino=True,
        pass_schedule=(H,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.HEARTS_BROKEN,
        broken_by=BrokenBy.HEARTS,
        card_values=hearts,
        moon=MoonRule.OLD,
        target_score=100,
    )


def enfle(players: int = 4) -> Rules:
    """004 'Enfle' (Schwellen): "usually played by four persons with a piquet pack and for a
    pool. The cards rank as at Hearts, and there is no trump suit. A player must follow suit
    if he can, but if he cannot he may not discard, but must take up all tricks already won
    and add them to his hand. Play is continued until one player gets rid of all his cards
    and thus wins." (`arena.engine.variants.enfle`).

    The piquet pack (7 to A, 32 cards): eight cards each with four, sixteen with two; with
    three the 7C and 7D also go (ten each, our choice). No pass; the seat left of the dealer
    leads any card. Each seat scores one point per card left in its hand (the winner 0: the
    pool paid by the cards held), and the game is one deal by each seat (`max_hands` =
    players), lowest total first. docs/rules.md 'Enfle' says why.
    """
    if not 2 <= players <= 4:
        raise RulesError(f"enfle is played by two to four players, not {players}")
    removed = CardSet(f"{rank}{suit}" for rank in "23456" for suit in "CDSH")
    if players == 3:
        removed |= CardSet.parse("7C 7D")
    return Rules(
        name="enfle",
        players=players,
        enfle=True,
        removed_cards=removed,
        pass_schedule=(H,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        card_values={},
        moon=MoonRule.NONE,
        target_score=None,
        max_hands=players,
    )


# -- the presets --------------------------------------------------------------------------

# 003 'FOUR-PENNY HEARTS': "one regular opening round of Hearts is played"; 'THREE-PENNY AND
# FIVE-PENNY HEARTS': "Two standard opening rounds" with three, "No standard opening round"
# with five.
PENNY_OPENINGS = {3: 2, 4: 1, 5: 0}


def penny_game(players: int, play: PennyPlay | str, name: str) -> Rules:
    """003's penny games on 003's own rules (the `midwest` preset: its deal with 003's
    trims, "These adjustments also apply to the three variations of Hearts discussed
    later", its pass rotation, no scoring card led until one is played, points broken by
    any scoring card, old moon, game to 100). Each is defined for one table size only:
    `name` is the preset asked for (its error names it)."""
    play = PennyPlay(play)
    own = {"four_penny": 4, "three_penny": 3, "five_penny": 5}[name.removesuffix("_advanced")]
    if players != own:
        raise RulesError(f"preset {name!r} supports {own} players, not {players}")
    removed = _trim(TRIMS_003, players, name)
    openings = PENNY_OPENINGS[players]
    return midwest(players).replace(
        name=name,
        removed_cards=removed,
        card_values=_values_without_removed(standard_values(), removed),
        opening=Opening.LOWEST_CLUB if openings else Opening.LEFT_OF_DEALER,
        penny_play=play,
        penny_openings=openings,
    )


def four_penny(players: int = 4) -> Rules:
    """003 'FOUR-PENNY HEARTS', the simple version: one opening trick, then three
    multi-rounds of four penny-rounds, each player one card to each penny."""
    return penny_game(players, PennyPlay.SIMPLE, "four_penny")


def four_penny_advanced(players: int = 4) -> Rules:
    """003 'FOUR-PENNY HEARTS', the advanced version: several cards of one player may go
    to a penny, exactly four cards to each."""
    return penny_game(players, PennyPlay.ADVANCED, "four_penny_advanced")


def three_penny(players: int = 3) -> Rules:
    """003 'THREE-PENNY AND FIVE-PENNY HEARTS': three players (003's trim: the 2D out),
    two opening tricks, five multi-rounds of three penny-rounds; simple version."""
    return penny_game(players, PennyPlay.SIMPLE, "three_penny")


def three_penny_advanced(players: int = 3) -> Rules:
    """Three-Penny Hearts, the advanced version."""
    return penny_game(players, PennyPlay.ADVANCED, "three_penny_advanced")


def five_penny(players: int = 5) -> Rules:
    """003 'THREE-PENNY AND FIVE-PENNY HEARTS': five players (003's trim: the 2D and 2S
    out), no opening trick, the player to the dealer's left leads the first of two
    multi-rounds of five penny-rounds; simple version."""
    return penny_game(players, PennyPlay.SIMPLE, "five_penny")


def five_penny_advanced(players: int = 5) -> Rules:
    """Five-Penny Hearts, the advanced version."""
    return penny_game(players, PennyPlay.ADVANCED, "five_penny_advanced")


def pledge(players: int = 4) -> Rules:
    """Standard with 004 'Scoring variants'' no-hearts pledge: "A player may declare before
    the first card is played that he or she will not take any hearts on the upcoming hand.
    If they succeed in their pledge, they may subtract 10 penalty points, but if they take
    any hearts they are assessed 10 additional penalty points." After the pass each seat,
    from the dealer's left, pledges or not."""
    return standard(players).replace(name="pledge", no_hearts_pledge=True)


def dealer_counts(players: int = 4) -> Rules:
    """004 'Passing cards': "The Dealer may choose how many cards and where to pass". The
    dealer calls every hand's pass after the deal: left, right, across (an even table) or
    two seats either way (five or more), with one to four cards (three when he names no
    count); the rest is the standard game. (003's `dealer_calls` keeps its "each player
    passes three cards".)"""
    options = [L, R]
    if players % 2 == 0:
        options.append(A)
    if players >= 5:
        options += [L2, R2]
    return standard(players).replace(
        name="dealer_counts",
        pass_schedule=(PassDirection.DEALER_CALLS,),
        pass_count=3,
        pass_call_options=tuple(options),
        pass_call_counts=(1, 2, 3, 4),
    )


PENNY_PRESETS = {
    "four_penny": four_penny,
    "four_penny_advanced": four_penny_advanced,
    "three_penny": three_penny,
    "three_penny_advanced": three_penny_advanced,
    "five_penny": five_penny,
    "five_penny_advanced": five_penny_advanced,
}
"""The penny presets by name (each builds for its own table size only)."""


def first_heart_kitty(players: int = 3) -> Rules:
    """004 'Deal': with three players "a randomly chosen card is set aside face down at the
    beginning of play; this card goes to whoever takes the first heart"; with five, "two
    randomly chosen cards". The standard game (000's play and scoring, 001's three- and
    five-hand rotations) with the whole pack: a hidden kitty of one card (three players) or
    two (five) taken by the winner of the first trick holding a heart
    (`KittyTaker.FIRST_HEART`; the last trick's winner if no trick holds one, which needs
    every heart in the kitty).

    >>> rules = first_heart_kitty()
    >>> rules.hand_size, rules.kitty_size, rules.kitty_taker.value
    (17, 1, 'first_heart')
    """
    if players not in (3, 5):
        raise RulesError(
            f"preset 'first_heart_kitty' is for 3 or 5 players (004 'Deal'), not {players}"
        )
    base = standard(players)
    return base.replace(
        name="first_heart_kitty",
        removed_cards=CardSet(),
        card_values=standard_values(),
        kitty_size=52 % players,
        kitty_taker=KittyTaker.FIRST_HEART,
        kitty_visibility=KittyVisibility.HIDDEN,
    )


def kitty_each_trick(players: int = 3) -> Rules:
    """004 'The Kitty and the First Trick': "If there aren't four players, there will be a
    'kitty' containing the remainder of the cards after the deal. These cards are taken
    with the first few tricks. At some tables, the first trick takes one card, and the
    second trick takes the next, until the kitty is exhausted." The standard game with the
    whole pack dealt at three, five, six or seven players, the rest a hidden kitty whose
    cards go one a trick, lowest first, to the winners of the first tricks
    (`KittyTaker.EACH_TRICK`). The first trick stays "safe" (no penalty card discarded), and
    as 004 says this "does not prevent the player who takes the first trick from taking
    ('eating') a heart, or even the queen of spades, if she takes one from the kitty".

    >>> rules = kitty_each_trick()
    >>> rules.hand_size, rules.kitty_size, rules.kitty_taker.value
    (17, 1, 'each_trick')
    >>> kitty_each_trick(7).kitty_size
    3
    """
    if players not in (3, 5, 6, 7):
        raise RulesError(
            f"preset 'kitty_each_trick' is for 3, 5, 6 or 7 players (004: \"If there aren't "
            f'four players"; four deal evenly), not {players}'
        )
    return standard(players).replace(
        name="kitty_each_trick",
        removed_cards=CardSet(),
        card_values=standard_values(),
        kitty_size=52 % players,
        kitty_taker=KittyTaker.EACH_TRICK,
        kitty_visibility=KittyVisibility.HIDDEN,
    )


def two_player(players: int = 2) -> Rules:
    """Two-hand Hearts: 004's 1911 text, "Hearts may be played by two, three, four or even
    more players", "the entire pack is dealt out": 26 cards each, no kitty. Played by 000's
    rules (2C leads, no penalty card on the first trick, hearts broken by a heart or the QS
    discarded, QS 13, old moon, to 100) with 000's pass rotation ("to the left", "to the
    right", "across", then a hold hand): at two seats each of the three reaches the other
    player, so three hands in four pass three cards to the opponent (our choice: 000's
    cycle kept as written rather than a new one).

    >>> rules = two_player()
    >>> rules.players, rules.hand_size, rules.kitty_size
    (2, 26, 0)
    """
    if players != 2:
        raise RulesError(f"preset 'two_player' is for 2 players, not {players}")
    return Rules(
        name="two_player",
        players=2,
        pass_schedule=(L, R, A, H),
        broken_by=BrokenBy.HEARTS_OR_QUEEN_DISCARDED,
    )


def extra_cards(players: int = 3) -> Rules:
    """002's game (`omnibus_jack`: the JD -10, the shooter's choice) with 002's third
    'Alternative to the "Kitty" in 3 or 5 player games': no card removed and no kitty, but
    "Deal out the extra cards to players and allow the player with them to play an
    additional card on the first trick. Most often, this will be an additional Club." The
    whole pack is dealt round from the dealer's left, so with three players the first seat
    holds 18 cards and the others 17, and with five the first two hold 11 and the others
    10; after the first trick has gone round, each of those seats plays its extra card to
    it (`Rules.extra_cards_first_trick`).

    >>> rules = extra_cards()
    >>> rules.hand_size, rules.extra_cards, rules.kitty_size, str(rules.removed_cards)
    (17, 1, 0, '')
    >>> extra_cards(5).extra_cards
    2
    """
    if players not in (3, 5):
        raise RulesError(
            f"preset 'extra_cards' is for 3 or 5 players (002 'Alternatives to the \"Kitty\" "
            f"in 3 or 5 player games'), not {players}"
        )
    return omnibus_jack(players).replace(
        name="extra_cards", removed_cards=CardSet(), extra_cards_first_trick=True
    )


# 004 'Slobberhannes' and 'Four Jacks': "A euchre pack (thirty two-cards, lacking all below
# the 7)"; the piquet pack is the same 32 cards (A K Q J 10 9 8 7 in each suit).
PIQUET_REMOVED: Final = CardSet.parse(" ".join(rank + suit for rank in "23456" for suit in "CDSH"))


def _older_form(name: str, players: int, values: dict[Card, int]) -> Rules:
    """004's older forms of Hearts (1911 text, introduction): the piquet pack dealt out,
    "the player at the dealer's left begins by leading any card he chooses", follow suit
    or "throw away any card he likes"; no pass, no moon, counters to the pool (points).
    Four players only: the 32 cards deal eight each, and the sources give no trim."""
    _trim({4: ""}, players, name)
    return Rules(
        name=name,
        players=4,
        removed_cards=PIQUET_REMOVED,
        pass_schedule=(H,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        card_values=values,
        moon=MoonRule.NONE,
        target_score=10,
    )


def slobberhannes(players: int = 4) -> Rules:
    """Slobberhannes (004 'Slobberhannes'): "avoid taking either the first or last trick
    or a trick containing the queen of clubs. A euchre pack (thirty two-cards, lacking all
    below the 7) is used, and each player is given 10 counters, one being forfeited to the
    pool if a player takes the first or last trick, or the [trick] containing the club
    queen. If he takes all three he forfeits four points." So the QC 1, the first and the
    last trick 1 each, and 1 more for taking all three; the game ends when a player has
    forfeited his 10 counters (`target_score` 10), lowest wins.

    >>> rules = slobberhannes()
    >>> len(rules.deck), rules.hand_size, rules.first_trick_points, rules.every_penalty_extra
    (32, 8, 1, 1)
    """
    return _older_form("slobberhannes", players, {Card.from_str("QC"): 1}).replace(
        first_trick_points=1,
        last_trick_points=1,
        every_penalty_extra=1,
    )


def four_jacks(players: int = 4) -> Rules:
    """Four Jacks, Polignac or Quatre-Valets (004 'Four Jacks'): the piquet pack, no trumps,
    "avoid taking any trick containing a knave, especially the knave of spades, called
    Polignac"; and 004's history: "avoiding any trick containing a Jack, which were worth
    one penalty point, and the Jack of Spades worth two". Read per jack (JC, JD, JH 1, JS
    2: docs/rules.md says why, against the 1911 text's "forfeits one counter" per trick).
    The sources give no end: to 10, as Slobberhannes's ten counters (same section).

    >>> rules = four_jacks()
    >>> rules.value_of("JS"), rules.value_of("JH"), rules.penalty_total
    (2, 1, 5)
    """
    values = {Card.from_str(jack): 1 for jack in ("JC", "JD", "JH")}
    values[Card.from_str("JS")] = 2
    return _older_form("four_jacks", players, values)


# Gong Zhu (Pagat, https://www.pagat.com/reverse/gongzhu.html): "When 5 play it is
# necessary to take out two cards - the twos of clubs and diamonds."
TRIMS_GONG_ZHU: Final[Mapping[int, str]] = {4: "", 5: "2C 2D"}


def gong_zhu(players: int = 4) -> Rules:
    """Gong Zhu, Chinese Hearts (004 'Other Variations' names it; rules from Pagat,
    https://www.pagat.com/reverse/gongzhu.html, and Wikipedia 'Gong Zhu'), its scores
    negated so that lower is better as everywhere here: the pig QS 100, the sheep JD -100,
    hearts A 50, K 40, Q 30, J 20, 10 to 5 10 each, 4 to 2 0; the transformer TC doubles its
    taker's score, or counts -50 alone ("the ten of clubs counts +50 if the player who takes
    it takes no other scoring cards"); "all reds": every heart to one seat scores them -200
    instead of 200, and its pig -100 ("the score for the pig becomes +100"). No pass ("there
    is no passing of cards"), any lead; "In the first hand the holder of the two of spades
    leads to the first trick; in subsequent hands, the player who took the pig" (any card:
    `DealerRule.QUEEN_OF_SPADES_TAKER_LEADS`); 4 players (5 without the 2C and 2D). The
    game ends past -1000 (a total above 1000 here). Before play each seat may expose its
    AH, QS, JD or TC, doubling its value, and an exposed card waits for the second time its
    suit is led unless it is a singleton (`Rules.exposures`, Pagat and Wikipedia).

    >>> rules = gong_zhu()
    >>> rules.value_of("QS"), rules.value_of("JD"), rules.value_of("AH"), str(rules.doubler)
    (100, -100, 50, 'TC')
    """
    removed = _trim(TRIMS_GONG_ZHU, players, "gong_zhu")
    values: dict[Card, int] = _heart_table("0 0 0 10 10 10 10 10 10 20 30 40 50")
    values[Card.from_str("QS")] = 100
    values[Card.from_str("JD")] = -100
    return Rules(
        name="gong_zhu",
        players=players,
        removed_cards=removed,
        pass_schedule=(H,),
        opening=Opening.LOWEST_SPADE,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        card_values={card: v for card, v in values.items() if v},
        doubler=Card.from_str("TC"),
        doubler_alone_points=-50,
        all_hearts_reversed=True,
        all_hearts_reverse_queen=True,
        moon=MoonRule.NONE,
        target_score=1001,
        dealer_rule=DealerRule.QUEEN_OF_SPADES_TAKER_LEADS,
        exposures=True,
    )


def rickety_kate(players: int = 4) -> Rules:
    """Rickety Kate (004 'Other Variations' names it; its reference whiteknucklecards is
    gone, so Matthew Kerwin's rules, https://matthew.kerwin.net.au/games/rickety-kate.html):
    "All Hearts have a value of 1 point, the Ace and King of Spades have a value of 10
    points each, and the Queen of Spades has a value of 13 points" (46); "Cards are dealt
    in turn until the number of cards left in the deck is less than or equal to the number
    of players" (four players: twelve each and four left), the rest "face down in the
    middle", collected with the first trick by its winner, "who is allowed to inspect"
    them; "Each player passes two cards to the player on eir left", and "The receiving player
    has the right to refuse the Queen of Spades, in which case another card must be passed
    in its place" (`queen_refusal`); the dealer's left leads; any
    lead, follow suit; "If one player has collected all 46 available points, e earns 0
    points and everyone else gets 46 points each". Kerwin plays a session; to 100 as
    000's standard game ("played to 100") and the Australian descriptions. 3 to 7 players.

    >>> rules = rickety_kate()
    >>> rules.hand_size, rules.kitty_size, rules.penalty_total, rules.effective_moon_points
    (12, 4, 46, 46)
    """
    _trim(dict.fromkeys(range(3, 8), ""), players, "rickety_kate")
    kitty = 52 % players or players
    values = dict.fromkeys(CardSet.from_mask(Suit.HEARTS.mask), 1)
    values |= {Card.from_str("AS"): 10, Card.from_str("KS"): 10, Card.from_str("QS"): 13}
    return Rules(
        name="rickety_kate",
        players=players,
        kitty_size=kitty,
        kitty_taker=KittyTaker.FIRST_TRICK,
        kitty_visibility=KittyVisibility.TAKER_ONLY,
        pass_count=2,
        pass_schedule=(L,),
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.ANY,
        lead_rule=LeadRule.ANY,
        card_values=values,
        moon=MoonRule.OLD,
        target_score=100,
        queen_refusal=True,
    )


PRESETS: Final[dict[str, Callable[[int], Rules]]] = {
    "standard": standard,
    "new_moon": new_moon,
    "sun": sun,
    "omnibus": omnibus,
    "omnibus_jack": omnibus_jack,
    "black_maria": black_maria,
    "midwest": midwest,
    "heartless": heartless,
    "classic": classic,
    "spot": spot,
    "spot_midwest": spot_midwest,
    "spot_face": spot_face,
    "hooligan": hooligan,
    "no_black_lady": no_black_lady,
    "auction": auction,
    "danger": danger,
    "chips": chips,
    "sweepstakes": sweepstakes,
    "chip_pool": chip_pool,
    "queens": queens,
    "royal": royal,
    "dealer_calls": dealer_calls,
    "star": star,
    "no_spade_pass": no_spade_pass,
    "big_table": big_table,
    "booster_nines": booster_nines,
    "black_maria_purist": black_maria_purist,
    "joker": joker,
    "joker_1911": joker_1911,
    "heartsette": heartsette,
    "cancellation": cancellation,
    "cancellation_four": cancellation_four,
    "domino": domino,
    "four_penny": four_penny,
    "four_penny_advanced": four_penny_advanced,
    "three_penny": three_penny,
    "three_penny_advanced": three_penny_advanced,
    "five_penny": five_penny,
    "five_penny_advanced": five_penny_advanced,
    "first_heart_kitty": first_heart_kitty,
    "kitty_each_trick": kitty_each_trick,
    "two_player": two_player,
    "extra_cards": extra_cards,
    "enfle": enfle,
    "slobberhannes": slobberhannes,
    "four_jacks": four_jacks,
    "gong_zhu": gong_zhu,
    "rickety_kate": rickety_kate,
    "pledge": pledge,
    "dealer_counts": dealer_counts,
}


def preset(name: str, players: int | None = None) -> Rules:
    """The named preset's full `Rules`, for `players` or the preset's own table size (four,
    except the odd-table and big-table presets).

    Raises RulesError for an unknown name or an unsupported number of players.
    """
    try:
        builder = PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset {name!r}; known: {', '.join(sorted(PRESETS))}"
        ) from None
    return builder(DEFAULT_PLAYERS.get(name, 4) if players is None else players)
