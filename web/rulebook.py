"""A `Rules` value told in plain words: the sentences a season page shows.

Everything comes from the full `Rules` the season stores, never from the preset's name,
so a season whose rules were changed by hand is described as it is played.

>>> from arena.engine import preset
>>> lines = describe(preset("standard"))
>>> lines[0]
('Players and deal', '4 players, 13 cards each from the full 52-card pack.')
>>> dict(lines)["Shooting the moon"]
'Taking every penalty card (26 points) scores 0 and adds 26 to everyone else.'
>>> "The queen at the first chance" in dict(lines)
False
>>> dict(describe(preset("black_maria_purist")))["The queen at the first chance"][:60]
'If you hold the queen of spades, you must play it on the fir'
>>> print(dict(describe(preset("extra_cards", 5)))["Extra cards"])  # doctest: +NORMALIZE_WHITESPACE
The 2 cards left over after the deal go one each to the first 2 players from the dealer's left,
instead of a kitty. On the first trick, once everyone has played a card, each of them plays that
extra card to the same trick, in turn from the leader: the first trick holds 7 cards and one
winner.
>>> print(dict(describe(preset("extra_cards")))["Extra cards"])  # doctest: +NORMALIZE_WHITESPACE
The card left over after the deal goes to the player on the dealer's left, instead of a kitty.
On the first trick, once everyone has played a card, that player plays it to the same trick: the
first trick holds 4 cards and one winner.
>>> "Extra cards" in dict(describe(preset("standard")))
False
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from arena.engine import Card, CardSet, Rules
from arena.engine.rules import (
    BrokenBy,
    DealerRule,
    FirstTrick,
    KittyTaker,
    KittyVisibility,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    PennyPlay,
    ScoringSuitChoice,
    Settlement,
)

from .templating import card_name

PASS_WORDS: Final = {
    PassDirection.LEFT: "left",
    PassDirection.RIGHT: "right",
    PassDirection.ACROSS: "across",
    PassDirection.LEFT2: "two seats left",
    PassDirection.RIGHT2: "two seats right",
    PassDirection.HOLD: "no pass (keep)",
    PassDirection.SCATTER: "one card to each other player",
    PassDirection.CENTER: "into the centre, shuffled and dealt back",
    PassDirection.STAR: "star: one card each to the two players farthest round the table",
    PassDirection.DEALER_CALLS: "as the dealer calls it",
    PassDirection.SPLIT: "split by the dealer, each card its own way",
}

SETTLEMENT_WORDS: Final = {
    Settlement.HOWELL: "Settled in chips by Howell's method: for each point taken a player "
    "pays one chip to each other player's share, and takes back a chip for each point "
    "not taken.",
    Settlement.POT_LOWEST: "Settled in chips: everyone pays a chip per point into the pot; "
    "the lowest score of the hand takes it, ties split it, odd chips stay for the next hand.",
    Settlement.SWEEPSTAKES: "Sweepstakes: everyone pays a chip per point into the pot; only "
    "a score of zero wins it (several zeros split it); otherwise it waits for a later hand.",
    Settlement.POOL_CLEAN: "Settled in chips: everyone puts one chip in the pool, shared by "
    "the players who took no penalty card; if everyone took one, it waits for a later hand.",
    Settlement.AUCTION: "The winning bid goes into the pot, and a chip for each card of the "
    "named suit a player takes. The one player, or the two, who took none of it share the "
    "pot (an odd chip waits); if more took none, one took them all, or everyone took some, "
    "the pot waits and the same player names the next hand's suit without bidding.",
}


OPTION_TOPICS: Final[dict[str, tuple[str, ...]]] = {
    "players": ("Players and deal",),
    "removed_cards": ("Players and deal",),
    "kitty_size": ("Kitty",),
    "kitty_taker": ("Kitty",),
    "kitty_visibility": ("Kitty",),
    "pass_count": ("Passing",),
    "pass_schedule": ("Passing",),
    "pass_forbidden": ("Passing",),
    "opening": ("First trick",),
    "first_trick": ("First trick",),
    "lead_rule": ("Leading",),
    "broken_by": ("Leading",),
    "queen_and_hearts_may_lead_heart": ("Leading",),
    "card_values": ("Points", "Scoring suit", "Auction"),
    "doubler": ("Doubler",),
    "royal_queens": ("Royal queens",),
    "booster_nines": ("Booster nines",),
    "queen_at_first_chance": ("The queen at the first chance",),
    "jokers": ("Players and deal", "Jokers", "The joker"),
    "joker_kind": ("Jokers", "The joker"),
    "pass_call_options": ("Passing",),
    "pass_call_split": ("Passing",),
    "moon": ("Shooting the moon",),
    "moon_points": ("Shooting the moon",),
    "moon_requires": ("Shooting the moon",),
    "sun_points": ("Shooting the sun",),
    "no_trick_bonus": ("No tricks",),
    "exact_score_adjustments": ("Exact score",),
    "target_score": ("End", "Lives"),
    "max_hands": ("End", "Lives"),
    "settlement": ("Chips",),
    "dealer_rule": ("Dealer", "Next lead"),
    "scoring_suit_choice": ("Scoring suit", "Auction"),
    "max_bid": ("Auction",),
    "lives": ("Lives",),
    "danger_points": ("Lives",),
    "cancellation": ("Players and deal", "Cancellation"),
    "second_pack_removed": ("Players and deal",),
    "domino": ("Stock",),
    "penny_play": ("Pennies",),
    "penny_openings": ("Pennies",),
    "enfle": ("Players and deal", "Taking up", "Points"),
    "first_trick_points": ("First and last tricks",),
    "last_trick_points": ("First and last tricks",),
    "every_penalty_extra": ("First and last tricks",),
    "doubler_alone_points": ("Doubler alone",),
    "all_hearts_reversed": ("All the hearts",),
    "all_hearts_reverse_queen": ("All the hearts",),
    "moon_subtract_after": ("Shooting the moon",),
    "no_hearts_pledge": ("The no-hearts pledge",),
    "pledge_points": ("The no-hearts pledge",),
    "pass_call_counts": ("Passing",),
    "extra_cards_first_trick": ("Extra cards",),
    "queen_refusal": ("Refusing the queen of spades",),
    "exposures": ("Exposed cards",),
}
"""Where `describe` tells each rule option of `arena.engine.options.OPTIONS` (all but the
label, `name`): the topics whose sentences change with it. tests/web/test_rulebook.py
holds this table to the option table (a row each) and to the presets (each option a
preset sets away from its default is told under one of its topics, and resetting it
changes those sentences unless it changes no game either)."""


def _cards(cards: Iterable[Card]) -> str:
    names = [card_name(str(card)) for card in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


_RANK_WORDS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens")


def _whole_ranks(cards: CardSet) -> str:
    """Cards as whole ranks where they are ("threes to eights", "twos"), else card by card."""
    ranks = sorted({card.rank for card in cards})
    if len(cards) != 4 * len(ranks) or ranks[-1] >= len(_RANK_WORDS):
        return _cards(cards)
    if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{_RANK_WORDS[ranks[0]]} to {_RANK_WORDS[ranks[-1]]}"
    words = [_RANK_WORDS[rank] for rank in ranks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _points(value: int) -> str:
    return f"{value} point" if abs(value) == 1 else f"{value} points"


def _values(rules: Rules) -> str:
    hearts = {str(c): v for c, v in rules.card_values.items() if str(c).endswith("H")}
    others = {str(c): v for c, v in rules.card_values.items() if not str(c).endswith("H")}
    parts = []
    spots = {f"{rank}H": value for value, rank in enumerate("23456789TJQKA", start=2)}
    if hearts == spots:
        parts.append(
            "each heart its spot value (two 2 … ten 10, jack 11, queen 12, king 13, ace 14)"
        )
    elif (
        hearts
        and len(set(hearts.values())) == 1
        and len(hearts) == sum(1 for c in rules.deck if str(c).endswith("H"))
    ):  # "each heart" only when every heart in play counts (not Four Jacks' lone JH)
        parts.append(f"each heart {_points(next(iter(hearts.values())))}")
    elif hearts:
        parts.extend(f"the {card_name(c)} {_points(v)}" for c, v in hearts.items())
    parts.extend(f"the {card_name(c)} {_points(v)}" for c, v in others.items())
    return "Points taken: " + ", ".join(parts) + "; every other card is worth nothing."


def _trick_points(rules: Rules) -> str:
    """004 'Slobberhannes': the first and the last trick, and the extra for all."""
    parts = []
    if rules.first_trick_points:
        parts.append(f"Taking the first trick costs {rules.first_trick_points}.")
    if rules.last_trick_points:
        parts.append(f"Taking the last trick costs {rules.last_trick_points}.")
    if rules.every_penalty_extra:
        parts.append(f"Taking them and every penalty card costs {rules.every_penalty_extra} more.")
    return " ".join(parts)


def _moon(rules: Rules) -> str:
    worth = rules.effective_moon_points
    take = f"Taking every penalty card ({worth} points)"
    if rules.moon_requires:
        take = f"Taking every penalty card and the {_cards(rules.moon_requires)}"
    return {
        MoonRule.NONE: "There is no shooting the moon.",
        MoonRule.OLD: f"{take} scores 0 and adds {worth} to everyone else.",
        MoonRule.NEW: f"{take} scores -{worth} for the shooter.",
        MoonRule.SHOOTERS_CHOICE: f"{take} lets the shooter choose: -{worth} for themselves, "
        f"or {worth} added to everyone else.",
        MoonRule.ADD_UNLESS_LOSING: f"{take} adds {worth} to everyone else, unless that would "
        f"end the game with the shooter not lowest; then the shooter may score -{worth} "
        "instead.",
        MoonRule.SUBTRACT_AFTER_SCORE: f"{take} adds {worth} to everyone else until some "
        f"player's total has reached {rules.moon_subtract_after}; from then on the shooter "
        f"chooses: -{worth} for themselves, or {worth} added to everyone else.",
    }[rules.moon]


def _passing(rules: Rules) -> str:
    if rules.pass_schedule == (PassDirection.HOLD,):
        return "No cards are passed: everyone plays the hand they were dealt."
    steps = []
    for direction in rules.pass_schedule:
        size = rules.pass_size(direction)
        words = PASS_WORDS[direction]
        steps.append(words if direction is PassDirection.HOLD else f"{size} cards {words}")
    text = "Before each hand: " + ", then ".join(steps) + ", in rotation."
    if rules.pass_call_options:
        options = ", ".join(PASS_WORDS[d] for d in rules.pass_call_options)
        text += f" The dealer calls the pass after the deal, from: {options}."
        if rules.split_directions:
            ways = ", ".join(PASS_WORDS[d] for d in rules.split_directions)
            text += (
                f" Or the dealer splits it, each of the {rules.pass_count} cards its own way"
                f" ({ways}): one card to the right and two to the left, say."
            )
    if rules.pass_call_counts:  # 004 'Passing cards': how many cards, too
        counts = ", ".join(str(c) for c in rules.pass_call_counts)
        text += f" The dealer also says how many cards each player passes: {counts}."
    if rules.pass_forbidden:
        text += f" The {_cards(rules.pass_forbidden)} may never be passed."
    return text


def describe(rules: Rules) -> list[tuple[str, str]]:
    """The rules as (topic, sentence) pairs, in the order a player needs them."""
    deck = "the full 52-card pack"
    if rules.removed_cards:
        deck = f"a pack without the {_cards(rules.removed_cards)}"
    if rules.jokers:
        deck += f" and {rules.jokers} joker{'s' if rules.jokers > 1 else ''}"
    if rules.enfle:  # 004 'Enfle': "a piquet pack"
        low = CardSet(card for card in rules.removed_cards if card.rank < 5)
        deck = f"a piquet pack (the 52 without the {_whole_ranks(low)})"
        if rules.removed_cards != low:
            deck += f", without the {_cards(rules.removed_cards - low)}"
    if rules.cancellation:  # 000/003 'Cancellation Hearts'
        deck = "two packs shuffled together"
        if rules.removed_cards:
            deck += f", without the {_whole_ranks(rules.removed_cards)} of either"
        if rules.second_pack_removed:
            deck += f" and the {_whole_ranks(rules.second_pack_removed)} of one"
    lines = [
        (
            "Players and deal",
            f"{rules.players} players, {rules.hand_size} cards each from {deck}.",
        )
    ]
    if rules.extra_cards_first_trick:  # 002 'Alternatives to the "Kitty" in 3 or 5 player games'
        lines.append(("Extra cards", _extra_cards(rules)))
    if rules.domino:
        lines.append(
            (
                "Stock",
                f"The {52 - rules.players * rules.hand_size} cards left over are the stock, "
                "face down. A player who cannot follow suit draws from it, one card at a time, "
                "until he can; once it is empty he may discard. A player whose cards run out "
                "drops out (a trick holds one card per player still in); when he wins a trick "
                "with his last card, the lead passes to the next player on his left still in. "
                "The last player left keeps the cards in his hand and what is left of the "
                "stock, and is charged for them; if the last trick empties every hand, the "
                "stock left goes to its winner.",
            )
        )
    if rules.enfle:  # 004 'Enfle' (Schwellen)
        lines.append(
            (
                "Taking up",
                "You must follow suit if you can. If you cannot, you may not discard: you take "
                "up every trick won so far and the cards played to this trick into your hand, "
                "and lead the next trick. A trick everyone followed goes to its highest card "
                "of the suit led, whose player leads next. The first player to get rid of all "
                "his cards wins the hand at once (after 200 tricks the hand stops).",
            )
        )
    if rules.kitty_size:
        taker = {
            KittyTaker.FIRST_TRICK: "the winner of the first trick",
            KittyTaker.FIRST_POINTS: "the first player to take a point card",
            KittyTaker.FIRST_HEART: "the first player to take a heart (the last trick's "
            "winner if no trick holds one)",
            KittyTaker.EACH_TRICK: "the winners of the first tricks, one card a trick, "
            "lowest first (the last trick takes any left)",
        }[rules.kitty_taker]
        seen = {
            KittyVisibility.HIDDEN: "face down",
            KittyVisibility.FACE_UP: "face up",
            KittyVisibility.AFTER_FIRST_TRICK: "face down, shown after the first trick",
            KittyVisibility.TAKER_ONLY: "seen only by its taker",
        }[rules.kitty_visibility]
        lines.append(("Kitty", f"{rules.kitty_size} cards left over, {seen}, go to {taker}."))
    if rules.cancellation:
        lines.append(
            (
                "Cancellation",
                "Two copies of the same card played to one trick cancel each other: neither "
                "can win it, and the highest other card of the suit led wins. When every card "
                "of the suit led is cancelled nobody wins: the trick is set aside, the same "
                "player leads again, and the next player to win a trick takes it too (the "
                "left-over cards go with the first trick). If nobody wins the last trick, it "
                "and any tricks set aside are discarded and score nothing. Every card's "
                "points count for each copy.",
            )
        )
    lines.append(("Passing", _passing(rules)))
    lines.append(
        (
            "First trick",
            {
                Opening.LOWEST_CLUB: "The holder of the lowest club leads it.",
                Opening.ANY_CLUB: "The holder of the lowest club leads any club.",
                Opening.LEFT_OF_DEALER: "The player left of the dealer leads any card.",
                Opening.LOWEST_SPADE: "The holder of the lowest spade leads it.",
            }[rules.opening]
            + " "
            + {
                FirstTrick.ANY: "Any card may be played on it.",
                FirstTrick.NO_PENALTY_CARDS: "No penalty card may be played on it "
                "(unless a player holds nothing else).",
                FirstTrick.NO_POINT_CARDS: "No card with any value may be played on it "
                "(unless a player holds nothing else).",
            }[rules.first_trick],
        )
    )
    broken = {
        BrokenBy.HEARTS: "a heart has been played",
        BrokenBy.HEARTS_OR_QUEEN: "a heart or the queen of spades has been played",
        BrokenBy.POINT_CARDS: "a point card has been played",
        BrokenBy.HEARTS_OR_QUEEN_DISCARDED: "a heart has been played or the queen of spades "
        "discarded on a trick of another suit",
    }[rules.broken_by]
    lead = {
        LeadRule.ANY: "Any card may be led.",
        LeadRule.HEARTS_BROKEN: f"Hearts may not be led until {broken}.",
        LeadRule.POINTS_BROKEN: f"No point card may be led until {broken}.",
    }[rules.lead_rule]
    if rules.queen_and_hearts_may_lead_heart:
        lead += " A player holding only hearts and the queen of spades may lead a heart."
    lines.append(
        ("Leading", "Follow suit if you can; the highest card of the suit led wins. " + lead)
    )
    if rules.scoring_suit_choice is ScoringSuitChoice.REVEALED:
        lines.append(
            (
                "Scoring suit",
                "After the pass everyone lays a card face down; turned over, the suit of the "
                "highest card scores this hand (ties: the suit shown most, then the first high "
                "card from the dealer's left). Its cards are worth 1 point each and its queen "
                "13: the queen of spades for hearts, of diamonds for spades, of clubs for "
                "diamonds, of hearts for clubs. When clubs or diamonds score, the lowest spade "
                "opens instead of the lowest club.",
            )
        )
    elif rules.scoring_suit_choice is ScoringSuitChoice.AUCTION:
        lines.append(
            (
                "Auction",
                "After the deal each player, from the dealer's left, bids once for the right "
                f"to name the suit to avoid: more chips than the last bid, up to "
                f"{rules.max_bid}, or a pass. The highest bidder names the suit and leads the "
                "first trick (if everyone passes, the first to bid names it for nothing). "
                "Each card of the named suit is worth 1 point.",
            )
        )
    elif rules.enfle:
        lines.append(("Points", "Each card left in your hand when the hand ends costs 1 point."))
    else:
        lines.append(("Points", _values(rules)))
    if rules.royal_queens:
        lines.append(
            (
                "Royal queens",
                "The queen of hearts doubles the hearts of the player who takes it; the queen "
                "of clubs cancels the queen of spades for a player who takes both; a hand "
                "never scores below 0, and a moon is worth the shooter's own score.",
            )
        )
    if rules.jokers and rules.joker_kind.value == "wild":
        lines.append(
            (
                "Jokers",
                f"{rules.jokers} jokers are dealt with the pack. A joker may be played at any "
                "time, even when you could follow suit; it belongs to no suit and never wins "
                "a trick (a trick led with a joker follows the first suited card played).",
            )
        )
    if rules.jokers and rules.joker_kind.value == "heart_1911":
        lines.append(
            (
                "The joker",
                "The joker replaces the two of hearts: a heart between the ten and the jack. "
                "It may be played only to a trick that already holds the ace or a court card "
                "of hearts, or when it is the only card you may play.",
            )
        )
    if rules.booster_nines:
        lines.append(
            (
                "Booster nines",
                "When a trick holds the nine of the suit led, its winner must lead that suit "
                "again if he can, even a heart before hearts are broken.",
            )
        )
    if rules.queen_at_first_chance:  # 001 'VARIATION 1: BLACK MARIAH', the purists' rule
        lines.append(
            (
                "The queen at the first chance",
                "If you hold the queen of spades, you must play it on the first trick you "
                "legitimately can: as your first discard when you cannot follow suit, or on "
                "a spade trick that already holds the ace or king of spades.",
            )
        )
    if rules.penny_play is not PennyPlay.NONE:
        lines.append(("Pennies", _pennies(rules)))
    if rules.doubler is not None:
        lines.append(("Doubler", f"Taking the {card_name(str(rules.doubler))} doubles your hand."))
    if rules.doubler_alone_points:  # Gong Zhu (Pagat): the lone transformer
        lines.append(
            (
                "Doubler alone",
                f"If it is the only scoring card you took, it counts {rules.doubler_alone_points} "
                "instead.",
            )
        )
    if rules.first_trick_points or rules.last_trick_points:  # 004 'Slobberhannes'
        lines.append(("First and last tricks", _trick_points(rules)))
    if rules.all_hearts_reversed:  # Gong Zhu (Pagat): "all reds"
        also = ""
        if rules.all_hearts_reverse_queen:
            also = " (and the queen of spades, if you took her too)"
        lines.append(
            (
                "All the hearts",
                f"Taking every heart turns their points{also} into a bonus of the same size.",
            )
        )
    lines.append(("Shooting the moon", _moon(rules)))
    if rules.no_hearts_pledge:  # 004 'Scoring variants'
        lines.append(
            (
                "The no-hearts pledge",
                "After the pass, each player in turn from the dealer's left may pledge to take "
                f"no hearts this hand: kept, it takes {rules.pledge_points} off; broken, it "
                f"adds {rules.pledge_points}.",
            )
        )
    if rules.queen_refusal:  # Rickety Kate (M. Kerwin)
        lines.append(
            (
                "Refusing the queen of spades",
                "A player passed the queen of spades may refuse it: the passer keeps it and "
                "passes another card of his hand in its place.",
            )
        )
    if rules.exposures:  # Gong Zhu (Pagat; Wikipedia)
        lines.append(
            (
                "Exposed cards",
                "Before the first card, each player in turn from the dealer's left may expose "
                "the ace of hearts, queen of spades, jack of diamonds or ten of clubs: an "
                "exposed card counts double (the ace doubles every heart; the ten of clubs "
                "quadruples instead of doubling), and may not be played the first time its "
                "suit is led, unless it is its holder's only card of that suit.",
            )
        )
    if rules.sun_points:
        lines.append(("Shooting the sun", f"Taking every trick is worth {rules.sun_points}."))
    if rules.no_trick_bonus:
        lines.append(("No tricks", f"Taking no trick adds {rules.no_trick_bonus}."))
    for hit, becomes in rules.exact_score_adjustments:
        lines.append(("Exact score", f"A total of exactly {hit} becomes {becomes}."))
    if rules.settlement is not Settlement.POINTS:
        lines.append(("Chips", SETTLEMENT_WORDS[rules.settlement]))
    if rules.dealer_rule is DealerRule.QUEEN_OF_SPADES_TAKER:
        lines.append(("Dealer", "Whoever took the queen of spades deals the next hand."))
    if rules.dealer_rule is DealerRule.QUEEN_OF_SPADES_TAKER_LEADS:  # Gong Zhu (Pagat)
        lines.append(
            (
                "Next lead",
                "Whoever took the queen of spades leads any card to the next hand's first trick.",
            )
        )
    if rules.lives:
        lines.append(
            (
                "Lives",
                f"Everyone starts with {rules.lives} lives; a hand of {rules.danger_points} "
                "points or more costs one. The most lives left wins, then the lowest total; "
                f"after {rules.max_hands} hands play goes on until that is one player, and "
                "the game ends early once at most one player has a life left.",
            )
        )
    ends = []
    if rules.target_score is not None and rules.settlement is not Settlement.POINTS:
        ends.append(f"someone has paid out the {rules.target_score} chips they started with")
    elif rules.target_score is not None:
        ends.append(f"someone reaches {rules.target_score} points")
    if rules.max_hands is not None:
        ends.append(f"{rules.max_hands} hands have been played")
    if not rules.lives:
        lines.append(
            (
                "End",
                "The game ends when " + " or ".join(ends) + "; the lowest total wins, ties share.",
            )
        )
    return lines


def _extra_cards(rules: Rules) -> str:
    """002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards
    to players and allow the player with them to play an additional card on the first
    trick." 002 does not say when in the trick; our reading (arena.engine.hand.play_order):
    after everyone has played once, in play order from the leader."""
    n, extra = rules.players, rules.extra_cards
    if extra == 1:
        dealt = "The card left over after the deal goes to the player on the dealer's left"
        played = "that player plays it to the same trick"
    else:
        dealt = (
            f"The {extra} cards left over after the deal go one each to the first {extra} "
            "players from the dealer's left"
        )
        played = "each of them plays that extra card to the same trick, in turn from the leader"
    return (
        f"{dealt}, instead of a kitty. On the first trick, once everyone has played a card, "
        f"{played}: the first trick holds {n + extra} cards and one winner."
    )


def _pennies(rules: Rules) -> str:
    """003 'FOUR-PENNY HEARTS': several tricks at once, in the simple or advanced version."""
    n, openings = rules.players, rules.penny_openings
    first = (
        f"After {openings} regular opening trick{'s' if openings > 1 else ''}, the winner of "
        "the last one leads"
        if openings
        else "The player to the dealer's left leads"
    )
    each = (
        "one card to each penny, in any order"
        if rules.penny_play is PennyPlay.SIMPLE
        else "to any penny with room (several of a player's cards may go to one penny)"
    )
    return (
        f"{first} the first of {rules.penny_rounds} multi-rounds: {n} tricks (pennies) played "
        f"at once, {n} cards to each; in turn round the table, each player plays {each}. "
        "Follow the suit led to the penny you play to if you can; no scoring card may "
        "be led to an empty penny until one has been played, unless you hold nothing else. "
        "Each penny goes to its high card of the suit led; whoever took the most pennies "
        "leads the next multi-round (a tie: the first tied player to the leader's left, the "
        "leader last)."
    )
