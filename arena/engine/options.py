"""Every rule option, declared in one table: its name, type, default, source and reader.

Why a table: an option lived in seven places (the C config, `Rules`, presets, the
reference, the proto, the SDK's `RulesView`, the site's rulebook) kept equal by tests
written one option at a time. OpenSpiel lists each game parameter once with its default.
Here `OPTIONS` is that list, and `Rules` is checked against it when `arena.engine` is
imported (`check_rules`): a field added to `Rules` without its row here, or a default
changed in one place only, fails at import, naming it. tests/engine/test_options.py
checks the rest against it (docs/engine.md's option table, the proto's Rules message).

`reader` says which component acts on the option: ``core`` (the C core and the
reference, through `Rules.core_config`), ``hand`` (the Python `Hand` layer), ``game``
(`Game`), a variant family (``cancellation``, ``domino``, ``penny``, ``enfle``), or
``label``.
`source` cites the rules texts in ../shared/rules (file and section).
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from .cards import CardSet
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
    ScoringSuitChoice,
    Settlement,
    standard_values,
)

FAMILY_READERS = frozenset({"cancellation", "domino", "penny", "enfle"})
"""The variant families (arena.engine.variants): a `Rules` whose options read by one of
them differ from their defaults is played by that family's Hand (`family_of`)."""
READERS = frozenset({"core", "hand", "game", "label"}) | FAMILY_READERS


class RuleOption(NamedTuple):
    """One option: `name` (the `Rules` field), `type` (its annotation), `default`,
    `source` (file and section in ../shared/rules) and `reader` (see the module)."""

    name: str
    type: str
    default: Any
    source: str
    reader: str


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        "players",
        "int",
        4,
        (
            "000 'Number of Players'; 000 'Cancellation Hearts' (\"Seven to ten people can "
            'play"); 004 (1911: "Hearts may be played by two, three, four or even more")'
        ),
        "core",
    ),
    RuleOption(
        "removed_cards",
        "CardSet",
        CardSet(),
        (
            "000 'The Deal' (3: 2D; 5: 2D 2C; 6: 2D 3D 3C 4C; 7: 2S 3D 3C); 003 'Deal' (3: 2D; "
            "5: 2D 2S); 002 'Alternatives to the Kitty' (3: 3C; 5: 3C 2D); …"
        ),
        "core",
    ),
    RuleOption(
        "kitty_size",
        "int",
        0,
        (
            "001 'Winning the kitty'; 002 'Kitty variants' (including the 4-card kitty with "
            "12-card hands); 004"
        ),
        "core",
    ),
    RuleOption(
        "kitty_taker",
        "KittyTaker",
        KittyTaker.FIRST_TRICK,
        (
            "002 ('taken by the person who takes the first trick'); 001 ('the first player who "
            "takes a point card'); 004 'Deal' ('whoever takes the first heart'); 004 'The "
            "Kitty and the First Trick' ('the first trick takes one card, and the second …"
        ),
        "core",
    ),
    RuleOption(
        "kitty_visibility",
        "KittyVisibility",
        KittyVisibility.HIDDEN,
        "002 'Kitty variants'",
        "core",
    ),
    RuleOption(
        "pass_count",
        "int",
        3,
        "000 'The Pass' (three); 004 (two with more than four players)",
        "core",
    ),
    RuleOption(
        "pass_schedule",
        "tuple[PassDirection, ...]",
        (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD),
        (
            "000 'The Pass' (left, right, across; hold); 001 (3: left, right, keeper; 5: left, "
            "two-left, right, two-right, keeper); 002 'Passing variants' …"
        ),
        "core",
    ),
    RuleOption(
        "pass_forbidden",
        "CardSet",
        CardSet(),
        (
            "004 'Passing cards' (\"Passing the Ace, King and/or Queen of Spades may be allowed "
            'or prohibited")'
        ),
        "core",
    ),
    RuleOption(
        "opening",
        "Opening",
        Opening.LOWEST_CLUB,
        (
            "000 'The Play'; 001 'How to play'; 003 'Regular Hearts'; 002 'Play variants'; 004 "
            "1911; 003 'HEARTLESS' (\"Otherwise it is the Two of Spades\")"
        ),
        "core",
    ),
    RuleOption(
        "first_trick",
        "FirstTrick",
        FirstTrick.NO_PENALTY_CARDS,
        (
            "000 'The Play'; 001 (no point card, the JD included); 002 'Play variants'; 004 ('no "
            "bleeding')"
        ),
        "core",
    ),
    RuleOption(
        "lead_rule",
        "LeadRule",
        LeadRule.HEARTS_BROKEN,
        "000 'The Play'; 001 'How to play'; 003 'Play'",
        "core",
    ),
    RuleOption(
        "broken_by",
        "BrokenBy",
        BrokenBy.HEARTS_OR_QUEEN,
        (
            "002 'the Play' (a heart); 000 'The Play' (a heart or the QS discarded: "
            "`hearts_or_queen_discarded`); 002/004 (QS breaks); 001 (any point card)"
        ),
        "core",
    ),
    RuleOption(
        "queen_and_hearts_may_lead_heart",
        "bool",
        False,
        "002 'Play variants'; 004 'The play of the game'",
        "core",
    ),
    RuleOption(
        "card_values",
        "Mapping[Card, int]",
        standard_values(),
        (
            "000 'Scoring' (hearts 1, QS 13); 000 'Omnibus' (TD -10); 001/002 (JD -10); 002 (AH "
            "5; QS 5 or 0; Spot Hearts); 003 (face values, QS 25); 004 (7C 7 …"
        ),
        "core",
    ),
    RuleOption(
        "doubler",
        "Card | None",
        None,
        "002 'Individual card variants' (10C)",
        "core",
    ),
    RuleOption(
        "royal_queens",
        "bool",
        False,
        (
            "004 'Royal Hearts' (\"doubles the point value of all Hearts captured by the player "
            'who takes it, and is itself also a Heart"; "this cannot result …'
        ),
        "core",
    ),
    RuleOption(
        "booster_nines",
        "bool",
        False,
        (
            "004 'Other Variations' (\"Booster Nines – if a nine is played then an extra round "
            'in the suit is played"); docs/rules.md'
        ),
        "core",
    ),
    RuleOption(
        "queen_at_first_chance",
        "bool",
        False,
        (
            "001 'VARIATION 1: BLACK MARIAH' (\"a player holding the Q of spades must get rid of "
            'it on the first trick they legitimately can"); docs/rules.md'
        ),
        "core",
    ),
    RuleOption(
        "jokers",
        "int",
        0,
        "004 'Other Variations', 'Deal'; 004 'Joker Hearts' (1911); docs/rules.md",
        "core",
    ),
    RuleOption(
        "joker_kind",
        "JokerKind",
        JokerKind.WILD,
        "004 'Other Variations', 'Deal'; 004 'Joker Hearts' (1911); docs/rules.md",
        "core",
    ),
    RuleOption(
        "pass_call_options",
        "tuple[PassDirection, ...]",
        (),
        "003 'Simple variations' (\"The dealer chooses the passing rule\"), 004 'Passing cards'",
        "core",
    ),
    RuleOption(
        "pass_call_split",
        "bool",
        False,
        "003 'Simple variations' (\"Pass one card to the right and two cards to the left\")",
        "core",
    ),
    RuleOption(
        "moon",
        "MoonRule",
        MoonRule.OLD,
        (
            "000 'Shooting the Moon'; 002 'the Score' (either); 004 'Shooting the moon' (old, "
            "new, the sub-rules)"
        ),
        "core",
    ),
    RuleOption(
        "moon_points",
        "int | None",
        None,
        "000 'Omnibus' slam (26 plus)",
        "core",
    ),
    RuleOption(
        "moon_requires",
        "CardSet",
        CardSet(),
        "002 (JD or TD required); 003 (TD); 000 Omnibus slam (all fifteen counting cards)",
        "core",
    ),
    RuleOption(
        "sun_points",
        "int",
        0,
        "002 'Hand scoring variants'; 004 'Shooting the Sun' (52)",
        "core",
    ),
    RuleOption(
        "no_trick_bonus",
        "int",
        0,
        "002 'Hand scoring variants' (-5 or +10); 004 (-5)",
        "core",
    ),
    RuleOption(
        "exact_score_adjustments",
        "tuple[tuple[int, int], ...]",
        (),
        (
            "002 (exactly 100 halves: `[[100, 50]]`); 004 (exactly 50 or 100 subtracts 50: "
            "`[[50, 0], [100, 50]]`)"
        ),
        "core",
    ),
    RuleOption(
        "target_score",
        "int | None",
        100,
        (
            "000 ('played to 100 (some play to 50)'); 001 (more than 100, or 250: `101`, `251`); "
            "003 (500 with face values); 004 (a number of deals)"
        ),
        "core",
    ),
    RuleOption(
        "max_hands",
        "int | None",
        None,
        (
            "000 ('played to 100 (some play to 50)'); 001 (more than 100, or 250: `101`, `251`); "
            "003 (500 with face values); 004 (a number of deals)"
        ),
        "core",
    ),
    RuleOption(
        "settlement",
        "Settlement",
        Settlement.POINTS,
        "000 'Scoring Variations'; 004 'Scoring' (chips: the pot, a zero takes it, one chip each)",
        "core",
    ),
    RuleOption(
        "dealer_rule",
        "DealerRule",
        DealerRule.ROTATE,
        "004 'Other Variations' (queens: the QS taker deals next)",
        "core",
    ),
    RuleOption(
        "scoring_suit_choice",
        "ScoringSuitChoice",
        ScoringSuitChoice.FIXED,
        "003 'HEARTLESS'",
        "hand",
    ),
    RuleOption(
        "max_bid",
        "int",
        0,
        "000 'Auction Hearts' (the bid's ceiling in chips)",
        "hand",
    ),
    RuleOption(
        "lives",
        "int",
        0,
        "004 'Other Variations' (Danger Hearts: lives)",
        "game",
    ),
    RuleOption(
        "danger_points",
        "int",
        0,
        "004 'Other Variations' (Danger Hearts: the score that costs a life)",
        "game",
    ),
    RuleOption(
        "cancellation",
        "bool",
        False,
        (
            "000 'Cancellation Hearts'; 003 'CANCELLATION HEARTS' (the four-player deck: "
            '"Remove the Twos from one deck"); docs/rules.md'
        ),
        "cancellation",
    ),
    RuleOption(
        "second_pack_removed",
        "CardSet",
        CardSet(),
        (
            "000 'Cancellation Hearts'; 003 'CANCELLATION HEARTS' (the four-player deck: "
            '"Remove the Twos from one deck"); docs/rules.md'
        ),
        "cancellation",
    ),
    RuleOption(
        "domino",
        "bool",
        False,
        "000 'Domino Hearts'",
        "domino",
    ),
    RuleOption(
        "penny_play",
        "PennyPlay",
        PennyPlay.NONE,
        "003 'FOUR-PENNY HEARTS', 'THREE-PENNY AND FIVE-PENNY HEARTS'",
        "penny",
    ),
    RuleOption(
        "penny_openings",
        "int",
        0,
        "003 'FOUR-PENNY HEARTS' (the opening tricks before the multi-rounds)",
        "penny",
    ),
    RuleOption(
        "enfle",
        "bool",
        False,
        (
            "004 'Enfle' (\"if he cannot he may not discard, but must take up all tricks "
            'already won and add them to his hand"); docs/rules.md'
        ),
        "enfle",
    ),
    RuleOption(
        "first_trick_points",
        "int",
        0,
        (
            "004 'Slobberhannes' (\"one being forfeited to the pool if a player takes the first "
            'or last trick")'
        ),
        "core",
    ),
    RuleOption(
        "last_trick_points",
        "int",
        0,
        (
            "004 'Slobberhannes' (\"one being forfeited to the pool if a player takes the first "
            'or last trick")'
        ),
        "core",
    ),
    RuleOption(
        "every_penalty_extra",
        "int",
        0,
        "004 'Slobberhannes' (\"If he takes all three he forfeits four points\")",
        "core",
    ),
    RuleOption(
        "doubler_alone_points",
        "int",
        0,
        (
            'Gong Zhu, https://www.pagat.com/reverse/gongzhu.html (the ten of clubs "counts +50 '
            'if the player who takes it takes no other scoring cards")'
        ),
        "core",
    ),
    RuleOption(
        "all_hearts_reversed",
        "bool",
        False,
        (
            'Gong Zhu, https://www.pagat.com/reverse/gongzhu.html ("If one player takes all the '
            'hearts, they score +200 instead of -200")'
        ),
        "core",
    ),
    RuleOption(
        "all_hearts_reverse_queen",
        "bool",
        False,
        (
            'Gong Zhu, https://www.pagat.com/reverse/gongzhu.html ("all the hearts and the pig '
            'as well, then the score for the pig becomes +100")'
        ),
        "core",
    ),
    RuleOption(
        "moon_subtract_after",
        "int",
        0,
        (
            "004 'Shooting the moon' (\"That a player may subtract after a predetermined score "
            'has been reached by him or any other player")'
        ),
        "core",
    ),
    RuleOption(
        "no_hearts_pledge",
        "bool",
        False,
        (
            "004 'Scoring variants' (\"A player may declare before the first card is played "
            'that he or she will not take any hearts on the upcoming hand")'
        ),
        "hand",
    ),
    RuleOption(
        "pledge_points",
        "int",
        10,
        (
            "004 'Scoring variants' (\"they may subtract 10 penalty points, but if they take "
            'any hearts they are assessed 10 additional penalty points")'
        ),
        "hand",
    ),
    RuleOption(
        "pass_call_counts",
        "tuple[int, ...]",
        (),
        "004 'Passing cards' (\"The Dealer may choose how many cards and where to pass\")",
        "hand",
    ),
    RuleOption(
        "extra_cards_first_trick",
        "bool",
        False,
        (
            '002 \'Alternatives to the "Kitty" in 3 or 5 player games\' ("Deal out the extra '
            "cards to players and allow the player with them to play an additional card on the "
            'first trick")'
        ),
        "core",
    ),
    RuleOption(
        "queen_refusal",
        "bool",
        False,
        (
            "M. Kerwin's Rickety Kate (\"The receiving player has the right to refuse the Queen "
            'of Spades, in which case another card must be passed in its place")'
        ),
        "hand",
    ),
    RuleOption(
        "exposures",
        "bool",
        False,
        (
            "Pagat's Gong Zhu, cited by 004 'Other Variations' (\"There are four cards which "
            'may be exposed by their holders before the start of play")'
        ),
        "hand",
    ),
    RuleOption(
        "name",
        "str",
        "custom",
        "ours: the preset's name, for people",
        "label",
    ),
)
"""Every option, in `Rules`' field order."""


_FAMILY_OPTIONS: tuple[tuple[str, Any, str], ...] = tuple(
    (option.name, option.default, option.reader)
    for option in OPTIONS
    if option.reader in FAMILY_READERS
)


def family_of(rules: Rules) -> str | None:
    """The variant family that plays `rules` (a name of `FAMILY_READERS`), or None for
    the hearts engine itself: the family whose options are set (cached on the rules;
    `Rules` validation keeps two families from being set at once).

    >>> from arena.engine import preset
    >>> family_of(preset("standard")), family_of(preset("cancellation"))
    (None, 'cancellation')
    """
    cached: str | None = rules.__dict__.get("_family", "")
    if cached != "":
        return cached
    family = next(
        (reader for name, default, reader in _FAMILY_OPTIONS if getattr(rules, name) != default),
        None,
    )
    rules.__dict__["_family"] = family
    return family


def check_rules(rules_class: type[Rules] = Rules) -> None:
    """Raise ImportError naming the first option where `rules_class` and `OPTIONS`
    disagree (a missing row, a type or a default changed in one place only)."""
    fields = dataclasses.fields(rules_class)
    declared = [option.name for option in OPTIONS]
    if [f.name for f in fields] != declared:
        missing = {f.name for f in fields} ^ set(declared)
        raise ImportError(f"arena.engine.options.OPTIONS and Rules differ: {sorted(missing)}")
    for field, option in zip(fields, OPTIONS, strict=True):
        default = (
            field.default_factory()
            if field.default is dataclasses.MISSING
            and field.default_factory is not dataclasses.MISSING
            else field.default
        )
        if str(field.type) != option.type or default != option.default:
            raise ImportError(
                f"option {option.name!r}: Rules says {field.type} = {default!r}, "
                f"OPTIONS says {option.type} = {option.default!r}"
            )
        if option.reader not in READERS or not option.source:
            raise ImportError(f"option {option.name!r}: a reader of {sorted(READERS)} and a source")


check_rules()
