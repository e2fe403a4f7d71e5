"""The table of rule options (arena.engine.options) is the one declaration the rest is
checked against: Rules (at import), the proto's Rules message, the SDK's rules mapping,
and docs/engine.md."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hearts_bot.convert import rules_from_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import rules_pb2

from arena.engine import PRESETS, Rules, preset
from arena.engine.options import OPTIONS, check_rules

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
    assert {o.name for o in OPTIONS} == proto_fields


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
