"""The wire mapping: rules to and from protobuf, enum coverage, and views from queries."""

from __future__ import annotations

import pytest
from hearts_bot import convert, rules
from hearts_bot.convert import (
    ProtocolError,
    play_view_from_proto,
    rules_from_proto,
    rules_to_proto,
    rules_view_from_proto,
)
from hearts_bot.proto.hearts.v1 import game_pb2, rules_pb2
from hearts_bot.rules import MoonRule, PassDirection, RulesView

from .conftest import HAND, play_query, state


@pytest.mark.timeout(60)
def test_every_preset_round_trips_through_the_wire_exactly():
    """The arena's Rules.to_dict() -> Rules message -> dict is the identity (all presets)."""
    presets = pytest.importorskip("arena.engine.presets")
    from arena.engine.rules import Rules

    checked = 0
    for name in sorted(presets.PRESETS):
        for players in range(2, 11):
            try:
                rules = presets.preset(name, players)
            except ValueError:
                continue
            data = rules.to_dict()
            assert rules_from_proto(rules_to_proto(data)) == data, (name, players)
            assert Rules.from_dict(rules_from_proto(rules_to_proto(data))) == rules
            checked += 1
    assert checked >= len(presets.PRESETS)


@pytest.mark.timeout(60)
def test_the_default_view_is_the_arenas_standard_game():
    presets = pytest.importorskip("arena.engine.presets")
    standard = presets.preset("standard").to_dict()
    assert RulesView().to_dict() == standard


@pytest.mark.timeout(60)
def test_optional_settings_stay_unset_on_the_wire():
    message = rules_to_proto(RulesView(target_score=None, max_hands=10, moon_points=None))
    assert not message.HasField("target_score") and message.max_hands == 10
    assert not message.HasField("moon_points") and not message.HasField("doubler")
    view = rules_view_from_proto(message)
    assert view.target_score is None and view.max_hands == 10 and view.doubler is None


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("wrapper", "enum"),
    [
        (rules_pb2.PassDirection, rules.PassDirection),
        (rules_pb2.Opening, rules.Opening),
        (rules_pb2.FirstTrick, rules.FirstTrick),
        (rules_pb2.LeadRule, rules.LeadRule),
        (rules_pb2.BrokenBy, rules.BrokenBy),
        (rules_pb2.MoonRule, rules.MoonRule),
        (rules_pb2.KittyTaker, rules.KittyTaker),
        (rules_pb2.KittyVisibility, rules.KittyVisibility),
    ],
)
def test_every_enum_value_maps_to_the_platforms_text(wrapper, enum):
    # The one member that travels as another value plus a field of its own (see
    # test_the_discarded_queen_travels_as_a_value_every_receiver_knows).
    off_wire = OFF_WIRE.get(enum, frozenset())
    to_view, to_wire = convert._enum_maps(wrapper, enum, off_wire)
    assert sorted(to_view.values()) == sorted(set(enum) - off_wire)
    zero = wrapper.DESCRIPTOR.values[0]
    assert zero.number == 0 and zero.name.endswith("_UNSPECIFIED")
    for member in set(enum) - off_wire:
        assert wrapper.Name(to_wire[member]).lower().endswith("_" + member.value)
    with pytest.raises(RuntimeError, match="differ"):
        convert._enum_maps(wrapper, enum, off_wire | {object()})


OFF_WIRE = {rules.BrokenBy: frozenset({rules.BrokenBy.HEARTS_OR_QUEEN_DISCARDED})}


@pytest.mark.timeout(60)
def test_the_platform_enums_match_the_sdks():
    engine_rules = pytest.importorskip("arena.engine.rules")
    for name in (
        "PassDirection",
        "Opening",
        "FirstTrick",
        "LeadRule",
        "BrokenBy",
        "MoonRule",
        "KittyTaker",
        "KittyVisibility",
    ):
        platform, sdk = getattr(engine_rules, name), getattr(rules, name)
        assert [m.value for m in platform] == [m.value for m in sdk]


@pytest.mark.timeout(60)
def test_the_discarded_queen_travels_as_a_value_every_receiver_knows():
    """000's breaking (`standard`'s since issue 23) is BROKEN_BY_HEARTS_OR_QUEEN on the wire,
    qualified by queen_breaks_only_discarded: a bot built before the field still reads the
    standard game's rules (as the nearest rule it knows) instead of refusing them."""
    presets = pytest.importorskip("arena.engine.presets")
    message = rules_to_proto(presets.preset("standard").to_dict())
    assert message.broken_by == rules_pb2.BROKEN_BY_HEARTS_OR_QUEEN
    assert message.queen_breaks_only_discarded
    assert rules_view_from_proto(message).broken_by is rules.BrokenBy.HEARTS_OR_QUEEN_DISCARDED
    # What an older receiver sees: the same bytes without the field it does not know.
    older = rules_pb2.Rules()
    older.CopyFrom(message)
    older.ClearField("queen_breaks_only_discarded")
    assert rules_view_from_proto(older).broken_by is rules.BrokenBy.HEARTS_OR_QUEEN
    plain = rules_to_proto(presets.preset("standard").replace(broken_by="hearts").to_dict())
    assert not plain.queen_breaks_only_discarded
    plain.queen_breaks_only_discarded = True
    with pytest.raises(ProtocolError, match="qualifies 'hearts_or_queen' only"):
        rules_view_from_proto(plain)


@pytest.mark.timeout(60)
def test_rules_to_proto_names_a_bad_setting():
    with pytest.raises(ProtocolError, match="unknown rules setting"):
        rules_to_proto({"players": 4, "wildcards": 2})
    with pytest.raises(ProtocolError, match="moon 'sideways' is not one of"):
        rules_to_proto({"moon": "sideways"})
    with pytest.raises(ProtocolError, match="unknown card 'ZZ'"):
        rules_to_proto({"card_values": {"ZZ": 3}})


@pytest.mark.timeout(60)
def test_a_play_view_holds_the_whole_state():
    trick = game_pb2.Trick(leader=3, cards=["2D", "3D", "5D", "6D"], winner=2)
    query = play_query(
        state=state(
            hand=HAND,
            tricks=[trick],
            passed=["AD", "KD", "QD"],
            received=["3C", "7C", "QC"],
            current_trick=game_pb2.Trick(leader=0, cards=["6C", "KC"]),
            broken=False,
            kitty=[],
            scores=[10, 0, 5, 3],
        )
    )
    view = play_view_from_proto(query)
    assert view.hand == tuple(HAND) and view.legal == ("3C", "7C", "QC")
    assert view.rules.moon is MoonRule.OLD and view.pass_direction is PassDirection.LEFT
    assert view.tricks[0].plays == ((3, "2D"), (0, "3D"), (1, "5D"), (2, "6D"))
    assert view.tricks[0].winner == 2
    assert view.current_trick.plays == ((0, "6C"), (1, "KC"))
    assert view.current_trick.winning_card() == "KC"
    assert view.led_suit == "C" and not view.leading and not view.last_to_play
    assert view.trick_number == 1 and view.scores == (10, 0, 5, 3)
    assert view.passed == ("AD", "KD", "QD") and view.received == ("3C", "7C", "QC")
    assert view.time_left == pytest.approx(6.0) and view.clock.per_decision == pytest.approx(1)
    assert view.points_taken() == (0, 0, 0, 0)
    assert view.played_cards() == {"2D", "3D", "5D", "6D", "6C", "KC"}


@pytest.mark.timeout(60)
def test_views_are_frozen():
    view = play_view_from_proto(play_query())
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.rules.card_values["2C"] = 5  # type: ignore[index]
