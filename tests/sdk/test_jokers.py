"""Jokers (004 'Joker Hearts') in the SDK: card text, the rules message, tricks with a
joker, and the replay schema's card pattern."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hearts_bot.cards import (
    DECK,
    JOKERS,
    CardError,
    by_rank,
    card_index,
    card_order,
    highest,
    is_card,
    is_joker,
    lowest,
    of_suit,
    parse_card,
    pretty,
    rank_of,
    suit_of,
)
from hearts_bot.convert import rules_from_proto, rules_to_proto, rules_view_from_proto
from hearts_bot.rules import JokerKind, RulesView
from hearts_bot.views import Trick

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "arena/match/replay-v1.schema.json").read_text()
)


def test_the_sdk_parses_and_prints_joker_cards():
    assert JOKERS == ("JK1", "JK2", "JK3")
    assert [parse_card(text) for text in ("jk1", " JK2 ", "Jk3")] == list(JOKERS)
    assert all(is_card(joker) and is_joker(joker) for joker in JOKERS)
    assert not is_joker("JH") and not is_card("JK4")
    with pytest.raises(CardError, match="JK4"):
        parse_card("JK4")
    assert [card_index(joker) for joker in JOKERS] == [52, 53, 54]
    assert [pretty(card) for card in ("QS", "TH", "JK1")] == ["Q♠", "10♥", "🃏1"]
    assert (suit_of("JK2"), rank_of("JK2")) == ("", -1)
    assert sorted(["JK1", "AH", "2C"], key=card_order) == ["2C", "AH", "JK1"]
    assert lowest(["3C", "JK1"]) == "JK1" and highest(["3C", "JK1"]) == "3C"
    assert by_rank("JK1") < by_rank("2C")
    assert of_suit(["JK1", "JC", "KC"], "K") == []


def test_sdk_and_arena_share_the_joker_text():
    engine = pytest.importorskip("arena.engine")
    CARDS, Card = engine.CARDS, engine.Card  # noqa: N806
    assert [str(card) for card in CARDS[52:]] == list(JOKERS)
    assert [str(card) for card in CARDS[:52]] == list(DECK)
    assert Card.from_str("JK3").index == card_index("JK3")


@pytest.mark.parametrize(("name", "players"), [("joker", 3), ("joker", 5), ("joker_1911", 4)])
def test_joker_rules_round_trip_through_the_protocol(name, players):
    engine = pytest.importorskip("arena.engine")
    rules, Rules = engine.preset(name, players), engine.Rules  # noqa: N806
    message = rules_to_proto(rules.to_dict())
    assert Rules.from_dict(rules_from_proto(message)) == rules
    view = rules_view_from_proto(message)
    assert view.jokers == rules.jokers
    assert view.hand_size == rules.hand_size
    assert view.deck == tuple(str(card) for card in rules.deck)
    if name == "joker_1911":
        assert view.joker_kind is JokerKind.HEART_1911
        assert view.card_values["JK1"] == 5


def test_an_old_sender_without_jokers_reads_as_none():
    view = rules_view_from_proto(rules_to_proto(RulesView()))
    assert (view.jokers, view.joker_kind) == (0, JokerKind.WILD)
    assert len(view.deck) == 52


def test_a_trick_led_with_a_joker_follows_its_first_suited_card():
    trick = Trick(leader=2, cards=("JK1", "5D", "2S"), seats=(2, 0, 1))
    assert trick.led_suit == "D"
    assert trick.winning_card() == "5D"
    only = Trick(leader=0, cards=("JK2",), seats=(0,))
    assert only.led_suit is None
    assert only.winning_card() == "JK2"


def test_the_replay_schema_accepts_joker_cards():
    validator = jsonschema.Draft202012Validator(
        {**SCHEMA["$defs"]["card"], "$schema": SCHEMA.get("$schema", "")}
    )
    for text in ("QS", "TH", "JK1", "JK2", "JK3"):
        assert validator.is_valid(text), text
    for text in ("JK0", "JK4", "JK", "1H", "QX"):
        assert not validator.is_valid(text), text
