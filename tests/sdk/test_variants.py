"""The SDK and the protocol's additions for variants: the reveal query of Heartless, the
pot, forbidden passes and the new rules fields, over a real served bot where it counts."""

from __future__ import annotations

import grpc
import pytest
from hearts_bot import RevealView
from hearts_bot.cards import by_rank
from hearts_bot.convert import (
    ProtocolError,
    call_pass_view_from_proto,
    pass_direction_to_proto,
    play_view_from_proto,
    reveal_view_from_proto,
    rules_to_proto,
    rules_view_from_proto,
)
from hearts_bot.proto.hearts.v1 import game_pb2, rules_pb2
from hearts_bot.rules import (
    DealerRule,
    PassDirection,
    RulesView,
    ScoringSuitChoice,
    Settlement,
)

from .conftest import HAND, end_kind, play_query, play_stream, requests, start_kind, state

HEARTLESS = RulesView(
    name="heartless",
    scoring_suit_choice=ScoringSuitChoice.REVEALED,
    pass_forbidden=frozenset({"QS"}),
    settlement=Settlement.SWEEPSTAKES,
    dealer_rule=DealerRule.QUEEN_OF_SPADES_TAKER,
)


def reveal_query(**changes: object) -> game_pb2.RevealCardQuery:
    return game_pb2.RevealCardQuery(state=state(rules=rules_to_proto(HEARTLESS), **changes))


def test_the_new_rules_fields_round_trip_and_old_senders_read_as_before() -> None:
    assert rules_view_from_proto(rules_to_proto(HEARTLESS)) == HEARTLESS
    old = rules_to_proto(RulesView())
    for field in ("settlement", "dealer_rule", "scoring_suit_choice"):
        old.ClearField(field)  # a sender from before these fields existed
    view = rules_view_from_proto(old)
    assert view.settlement is Settlement.POINTS
    assert view.dealer_rule is DealerRule.ROTATE
    assert view.scoring_suit_choice is ScoringSuitChoice.FIXED


def test_an_unknown_settlement_is_a_protocol_error_naming_it() -> None:
    message = rules_to_proto(RulesView())
    message.settlement = 99  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match="settlement has unknown value 99"):
        rules_view_from_proto(message)
    assert rules_pb2.SETTLEMENT_HOWELL == 2


def test_a_reveal_query_reads_as_a_reveal_view() -> None:
    view = reveal_view_from_proto(reveal_query(reveals=["", "", "9D", ""]))
    assert isinstance(view, RevealView)
    assert view.reveals == (None, None, "9D", None)
    assert view.scoring_suit is None
    with pytest.raises(ProtocolError, match="reveals has 2 entries"):
        reveal_view_from_proto(reveal_query(reveals=["9D", ""]))
    with pytest.raises(ProtocolError, match="scoring_suit is 'X'"):
        reveal_view_from_proto(reveal_query(scoring_suit="X"))


def test_a_play_view_carries_the_pot_the_suit_and_the_passable_cards() -> None:
    query = play_query()
    query.state.pot = 7
    query.state.scoring_suit = "D"
    query.state.rules.CopyFrom(rules_to_proto(HEARTLESS))
    view = play_view_from_proto(query)
    assert view.pot == 7 and view.scoring_suit == "D"


@pytest.mark.timeout(60)
def test_a_served_bot_answers_a_reveal_with_its_lowest_card_by_default(random_bot) -> None:
    result = play_stream(
        random_bot.stub(),
        requests(start_kind(), {"reveal_card": reveal_query()}, end_kind()),
    )
    assert result.code == grpc.StatusCode.OK
    assert result.responses[1].WhichOneof("kind") == "reveal_card"
    assert result.responses[1].reveal_card.card == min(HAND, key=by_rank)


@pytest.mark.timeout(60)
def test_a_reveal_query_without_a_hand_is_rejected(random_bot) -> None:
    result = play_stream(
        random_bot.stub(),
        requests(start_kind(), {"reveal_card": reveal_query(hand=[])}),
    )
    assert result.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "reveal_card.state.hand is missing" in result.details


def call_query(**changes: object) -> game_pb2.CallPassQuery:
    rules = RulesView(
        pass_schedule=(PassDirection.DEALER_CALLS,),
        pass_call_options=(PassDirection.RIGHT, PassDirection.CENTER),
    )
    fields: dict[str, object] = {
        "state": state(
            rules=rules_to_proto(rules), pass_direction=pass_direction_to_proto("dealer_calls")
        ),
        "options": [pass_direction_to_proto("right"), pass_direction_to_proto("center")],
    }
    fields.update(changes)
    return game_pb2.CallPassQuery(**fields)  # type: ignore[arg-type]


def test_a_call_query_reads_as_a_call_view_with_its_options() -> None:
    view = call_pass_view_from_proto(call_query())
    assert view.options == (PassDirection.RIGHT, PassDirection.CENTER)
    assert view.rules.pass_call_options == view.options
    with pytest.raises(ProtocolError, match="options is empty"):
        call_pass_view_from_proto(call_query(options=[]))


@pytest.mark.timeout(60)
def test_a_served_dealer_calls_the_first_option_by_default(random_bot) -> None:
    result = play_stream(
        random_bot.stub(), requests(start_kind(), {"call_pass": call_query()}, end_kind())
    )
    assert result.code == grpc.StatusCode.OK
    assert result.responses[1].call_pass.direction == pass_direction_to_proto("right")
