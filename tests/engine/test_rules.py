"""`Rules`: validation, serialisation and compilation, one test per option family."""

import json

import pytest

from arena.engine import (
    BrokenBy,
    Card,
    CardSet,
    FirstTrick,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    Rules,
    RulesError,
    preset,
)
from arena.engine import config as core
from arena.engine.presets import PRESETS


def test_default_rules_are_the_standard_four_hand_game():
    rules = Rules()
    assert (rules.players, rules.hand_size, rules.kitty_size) == (4, 13, 0)
    assert rules.penalty_total == 26
    assert rules.value_of("QS") == 13 and rules.value_of("2H") == 1 and rules.value_of("AS") == 0
    assert rules.pass_schedule == (
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.ACROSS,
        PassDirection.HOLD,
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_preset_round_trips_through_json(name, players):
    try:
        rules = preset(name, players)
    except RulesError as error:
        assert "player" in str(error)
        return
    again = Rules.from_json(rules.to_json())
    assert again == rules
    assert hash(again) == hash(rules)
    if rules.cancellation:  # two packs: their own module's config
        from arena.engine.variants.cancellation import cancellation_config

        assert cancellation_config(again) == cancellation_config(rules)
    else:
        assert again.core_config() == rules.core_config()
    assert json.loads(rules.to_json())["format"] == 1


def test_rules_are_immutable():
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.players = 5  # type: ignore[misc]
    with pytest.raises(TypeError, match="read-only"):
        rules.card_values[Card.from_str("AS")] = 3  # type: ignore[index]


def test_replace_revalidates():
    with pytest.raises(RulesError, match="deal evenly"):
        Rules().replace(players=5)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": 1}, "players must be an integer in 2..7"),
        ({"players": 8}, "players must be an integer in 2..7"),
        ({"players": 5}, "do not deal evenly"),
        ({"players": 5, "removed_cards": "2C 2D", "pass_schedule": ("across",)}, "across"),
        ({"pass_schedule": ("left2",)}, "five players"),
        ({"pass_schedule": ()}, "at least one entry"),
        ({"pass_schedule": ("sideways",)}, "pass_schedule 'sideways' is not one of"),
        ({"pass_count": 14}, "pass_count"),
        (
            {
                "removed_cards": "2D",
                "players": 3,
                "pass_schedule": ("left",),
                "card_values": {"2D": 1, "QS": 13},
            },
            "removed card",
        ),
        ({"moon": "bogus"}, "moon 'bogus' is not one of"),
        ({"card_values": {}, "moon": "old"}, "needs at least one penalty card"),
        ({"moon": "none", "sun_points": 52}, "need a moon rule"),
        ({"moon_requires": "JD", "moon": "none"}, "need a moon rule"),
        ({"target_score": None, "max_hands": None}, "needs an end"),
        ({"target_score": None, "moon": "add_unless_losing", "max_hands": 5}, "target_score"),
        ({"kitty_size": 1}, "do not deal evenly"),
        (
            {"doubler": "TC", "removed_cards": "TC", "players": 3, "pass_schedule": ("left",)},
            "doubler",
        ),
        ({"exact_score_adjustments": ((100, 100),)}, "to itself"),
        ({"card_values": {"QS": "13"}}, "must be an int"),
        ({"queen_and_hearts_may_lead_heart": "yes"}, "true or false"),
        (
            {
                "opening": "lowest_club",
                "removed_cards": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                "card_values": {"QS": 13},
                "players": 3,
                "pass_schedule": ("left",),
            },
            "needs a club",
        ),
    ],
)
def test_impossible_rules_raise_a_specific_error(settings, message):
    with pytest.raises(RulesError, match=message):
        Rules(**settings)


def test_from_dict_rejects_unknown_and_malformed_settings():
    with pytest.raises(RulesError, match="unknown rules setting"):
        Rules.from_dict({"players": 4, "trumps": "spades"})
    with pytest.raises(RulesError, match="format"):
        Rules.from_dict({"format": 99})
    with pytest.raises(RulesError, match="not valid JSON"):
        Rules.from_json("{nope")
    with pytest.raises(RulesError, match="JSON object"):
        Rules.from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown card"):
        Rules.from_dict({"card_values": {"ZZ": 1}})


def test_options_compile_to_the_backend_contract():
    rules = Rules(
        opening=Opening.LEFT_OF_DEALER,
        first_trick=FirstTrick.NO_POINT_CARDS,
        lead_rule=LeadRule.POINTS_BROKEN,
        broken_by=BrokenBy.POINT_CARDS,
        queen_and_hearts_may_lead_heart=True,
        moon=MoonRule.ADD_UNLESS_LOSING,
        moon_requires=CardSet.parse("JD"),
        card_values={
            **{Card.from_str(f"{r}H"): 1 for r in "23456789TJQKA"},
            Card.from_str("QS"): 13,
            Card.from_str("JD"): -10,
        },
        doubler=Card.from_str("TC"),
        sun_points=52,
        no_trick_bonus=-5,
    )
    cfg = rules.core_config()
    assert cfg.opening == core.OPENING_LEFT_OF_DEALER
    assert cfg.first_trick == core.FIRST_TRICK_NO_POINTS
    assert cfg.lead_rule == core.LEAD_NOT_POINTS
    assert cfg.broken_by == core.BROKEN_BY_POINTS
    assert cfg.queen_hearts_lead == 1
    assert cfg.moon == core.MOON_ADD_UNLESS_LOSING
    assert cfg.moon_extra == Card.from_str("JD").mask
    assert cfg.values[Card.from_str("JD").index] == -10
    assert cfg.doubler == Card.from_str("TC").index
    assert (cfg.sun_points, cfg.no_trick_bonus, cfg.moon_points) == (52, -5, 26)


def test_pass_directions_map_to_seat_offsets():
    assert PassDirection.LEFT.core_kind(4) == 1
    assert PassDirection.RIGHT.core_kind(4) == 3
    assert PassDirection.ACROSS.core_kind(4) == 2
    assert PassDirection.LEFT2.core_kind(5) == 2
    assert PassDirection.RIGHT2.core_kind(5) == 3
    assert PassDirection.HOLD.core_kind(4) == core.PASS_HOLD
    assert PassDirection.SCATTER.core_kind(4) == core.PASS_SCATTER
    assert PassDirection.CENTER.core_kind(4) == core.PASS_CENTER
    assert Rules().pass_size(PassDirection.SCATTER) == 3


def test_star_passing_is_two_cards_at_an_odd_table():
    # 004 'Passing cards': "The players choose only two cards".
    rules = preset("standard", players=5).replace(pass_schedule=("star", "left"), pass_count=3)
    assert rules.pass_schedule[0] is PassDirection.STAR
    assert rules.pass_size(PassDirection.STAR) == 2
    assert PassDirection.STAR.core_kind(5) == core.PASS_STAR == 102
    assert PassDirection.STAR.core_kind(3) == 102
    assert PassDirection.STAR.offset(5) is None
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.to_dict()["pass_schedule"] == ["star", "left"]


@pytest.mark.parametrize("players", [4, 6])
def test_star_passing_is_refused_at_an_even_table(players):
    with pytest.raises(RulesError, match="pass_schedule 'star' needs an odd number of players"):
        preset("standard", players=players).replace(pass_schedule=(PassDirection.STAR,))


def test_pass_forbidden_is_normalised_compiled_and_serialised():
    rules = Rules(pass_forbidden="AS KS QS")  # type: ignore[arg-type]
    assert rules.pass_forbidden == CardSet.parse("QS KS AS")
    assert Rules(pass_forbidden=["QS", "KS", "AS"]) == rules  # type: ignore[arg-type]
    assert rules.core_config().pass_forbidden == CardSet.parse("QS KS AS").mask
    assert Rules().core_config().pass_forbidden == 0
    assert Rules().pass_forbidden == CardSet()
    data = rules.to_dict()
    assert data["pass_forbidden"] == ["QS", "KS", "AS"]
    again = Rules.from_json(rules.to_json())
    assert again == rules and hash(again) == hash(rules)
    assert again.core_config() == rules.core_config()
    assert Rules.from_dict(Rules().to_dict()).pass_forbidden == CardSet()


def test_rules_saved_before_pass_forbidden_still_load():
    data = Rules().to_dict()
    del data["pass_forbidden"]
    assert Rules.from_dict(data) == Rules()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {
                "players": 3,
                "removed_cards": "2D",
                "pass_schedule": ("left",),
                "pass_forbidden": "2D QS",
            },
            "pass_forbidden names card.s. not in play: 2D",
        ),
        (
            {"pass_forbidden": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"},
            "only 2 to pass, fewer than a left pass of 3",
        ),
        ({"pass_forbidden": "ZZ"}, "unknown card"),
    ],
)
def test_impossible_pass_forbidden_is_refused(settings, message):
    with pytest.raises((RulesError, ValueError), match=message):
        Rules(**settings)


def test_pass_forbidden_leaves_enough_cards_for_the_largest_pass():
    seven = preset("standard", players=7)  # hands of seven
    # A scatter pass is six cards: one forbidden card leaves six, two leave five.
    seven.replace(pass_schedule=("scatter",), pass_forbidden="QS")
    with pytest.raises(RulesError, match="scatter pass of 6"):
        seven.replace(pass_schedule=("left", "scatter"), pass_forbidden="QS KS")
    # A hold-only game passes nothing, so nothing is too many.
    Rules(pass_schedule=(PassDirection.HOLD,), pass_forbidden=CardSet.parse("QS KS AS"))


def test_kitty_instead_of_removed_cards():
    # Text is accepted for enum settings (as from JSON) and normalised to the enum.
    rules = Rules(players=3, kitty_size=1, pass_schedule=("left", "right", "hold"))  # type: ignore[arg-type]
    assert rules.pass_schedule[0] is PassDirection.LEFT
    assert (rules.hand_size, rules.kitty_size, len(rules.deck)) == (17, 1, 52)
    four_card_kitty = Rules(kitty_size=4)  # 002 'Kitty variants': 12-card hands
    assert four_card_kitty.hand_size == 12


# --- Royal Hearts (004 'Royal Hearts'): `royal_queens`. ---


def test_royal_queens_is_compiled_and_serialised():
    rules = preset("royal")
    assert rules.royal_queens is True
    assert rules.core_config().royal_queens == 1
    assert Rules().royal_queens is False and Rules().core_config().royal_queens == 0
    data = rules.to_dict()
    assert data["royal_queens"] is True
    again = Rules.from_json(rules.to_json())
    assert again == rules and hash(again) == hash(rules)
    assert again.core_config() == rules.core_config()
    assert Rules().to_dict()["royal_queens"] is False


def test_rules_saved_before_royal_queens_still_load():
    data = Rules().to_dict()
    del data["royal_queens"]
    assert Rules.from_dict(data) == Rules()
    assert Rules.from_dict(data).core_config() == Rules().core_config()


def test_royal_moon_is_worth_at_most_52():
    rules = preset("royal")
    assert rules.moon_points is None
    assert rules.effective_moon_points == 52  # 13 hearts doubled by the QH, the QS 26
    assert rules.penalty_total == 39


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"royal_queens": 1}, "royal_queens must be true or false"),
        ({"doubler": "TC"}, "allows no doubler"),
        ({"moon": MoonRule.SHOOTERS_CHOICE}, "needs moon 'none', 'old' or 'new'"),
        ({"moon": MoonRule.ADD_UNLESS_LOSING}, "needs moon 'none', 'old' or 'new'"),
        ({"moon_points": 26}, "needs moon_points null"),
        (
            {"players": 3, "removed_cards": CardSet.parse("QC"), "pass_schedule": ("left",)},
            "needs the four queens in play; removed: QC",
        ),
    ],
)
def test_impossible_royal_rules_are_refused(changes, message):
    rules = preset("royal")
    if "removed_cards" in changes:
        values = {c: v for c, v in rules.card_values.items() if c not in changes["removed_cards"]}
        changes = {**changes, "card_values": values}
    with pytest.raises(RulesError, match=message):
        rules.replace(**changes)


def test_royal_keeps_the_sun_the_bonus_and_the_moonless_game():
    rules = preset("royal")
    assert rules.replace(sun_points=52, no_trick_bonus=-5).royal_queens
    assert rules.replace(moon=MoonRule.NEW).core_config().moon == core.MOON_NEW
    assert rules.replace(moon=MoonRule.NONE).core_config().moon == core.MOON_NONE
