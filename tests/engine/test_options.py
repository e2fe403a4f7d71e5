"""The table of rule options (arena.engine.options) is the one declaration the rest is
checked against: Rules (at import), the proto's Rules message, the SDK's RulesView and
mapping, the variant families' registry and docs/engine.md; and the C core's config
header is generated from `CoreConfig`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hearts_bot.convert import WIRE_QUALIFIERS, rules_from_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import rules_pb2
from hearts_bot.rules import LATER_SWITCHES, RulesView

from arena.engine import PRESETS, Rules, config_header, preset
from arena.engine.config import CoreConfig, config_kind
from arena.engine.hand import _FAMILIES
from arena.engine.options import FAMILY_READERS, OPTIONS, check_rules, family_of
from arena.engine.rules import _LATER_SWITCHES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_rules_match_the_table() -> None:
    check_rules(Rules)
    assert [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(Rules)]


def test_a_default_changed_in_one_place_fails_naming_the_option() -> None:
    fields = [
        (f.name, f.type, dataclasses.field(default=5 if f.name == "pass_count" else f.default))
        if f.default is not dataclasses.MISSING
        else (f.name, f.type, dataclasses.field(default_factory=f.default_factory))
        for f in dataclasses.fields(Rules)
    ]
    changed = dataclasses.make_dataclass("Changed", fields, frozen=True)
    with pytest.raises(ImportError, match="'pass_count'"):
        check_rules(changed)


def test_an_option_without_its_row_fails() -> None:
    fields = [(f.name, f.type, f) for f in dataclasses.fields(Rules)]
    extra = dataclasses.make_dataclass("Extra", [*fields, ("shiny", "bool", False)])
    with pytest.raises(ImportError, match="shiny"):
        check_rules(extra)


def test_every_option_is_a_field_of_the_protos_rules() -> None:
    proto_fields = {f.name for f in rules_pb2.Rules.DESCRIPTOR.fields}
    assert {o.name for o in OPTIONS} == proto_fields - set(WIRE_QUALIFIERS)
    assert set(WIRE_QUALIFIERS.values()) <= {o.name for o in OPTIONS}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_option_survives_the_sdks_mapping(name: str) -> None:
    sent = preset(name).to_dict()  # unused settings (Cancellation's, the pennies') left out
    received = rules_from_proto(rules_to_proto(sent))
    for option in OPTIONS:
        assert received.get(option.name) == sent.get(option.name), option.name


def test_every_option_is_documented_with_its_source() -> None:
    text = DOCS.read_text()
    for option in OPTIONS:
        assert f"`{option.name}`" in text, option.name


def test_the_c_cores_config_header_is_generated_from_coreconfig() -> None:
    """hc_config_fields.h (the C struct and the binding's table) is `CoreConfig` rendered:
    regenerate with `python -m arena.engine.config_header` after changing config.py."""
    assert config_header.HEADER.read_text() == config_header.render()


def test_the_header_lists_every_coreconfig_field_with_its_kind() -> None:
    text = config_header.render()
    for name in CoreConfig._fields:
        assert f"    {config_kind(name)}({name}) \\\n" in text, name
    assert f"#define HC_CONFIG_NFIELDS {len(CoreConfig._fields)}\n" in text


def test_the_sdks_rules_view_has_every_option_with_its_default() -> None:
    view = {f.name: f for f in dataclasses.fields(RulesView)}
    assert set(view) == {o.name for o in OPTIONS}
    for option in OPTIONS:
        if option.type in ("bool", "int"):
            assert view[option.name].default == option.default, option.name


def test_every_family_is_registered_under_its_options_reader() -> None:
    assert set(_FAMILIES) == FAMILY_READERS
    assert family_of(preset("standard")) is None
    assert family_of(preset("domino")) == "domino"
    assert family_of(preset("four_penny")) == "penny"
    assert family_of(preset("cancellation")) == "cancellation"


@pytest.mark.parametrize("switch", [name for name, _ in _LATER_SWITCHES])
def test_a_later_switch_is_written_only_when_set_and_crosses_the_protocol(switch: str) -> None:
    """A switch added after rules format 1 is carried by name alone (Rules.to_dict, the
    SDK's RulesView and conversion): unset it leaves the JSON as it was."""
    assert switch not in Rules().to_dict()
    assert switch in LATER_SWITCHES
    assert getattr(rules_pb2.Rules(), switch) == LATER_SWITCHES[switch]
