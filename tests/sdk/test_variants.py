"""The SDK and the protocol's additions for variants: the reveal query of Heartless, the
pot, forbidden passes and the new rules fields, over a real served bot where it counts."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from hearts_bot import BidView, Bot, NameSuitView, PassView, PlayView, RevealView
from hearts_bot.cards import by_rank
from hearts_bot.convert import (
    ProtocolError,
    bid_view_from_proto,
    call_pass_view_from_proto,
    name_suit_view_from_proto,
    pass_direction_to_proto,
    play_view_from_proto,
    reveal_view_from_proto,
    rules_to_proto,
    rules_view_from_proto,
)
from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2, rules_pb2
from hearts_bot.rules import (
    DealerRule,
    PassDirection,
    RulesView,
    ScoringSuitChoice,
    Settlement,
)
from hearts_bot.session import MatchSession, StreamError

from arena.benchmarks.protocol import match_start_message

from .conftest import BOTS, HAND, end_kind, play_query, play_stream, requests, start_kind, state

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


def test_a_call_query_carries_the_directions_a_split_may_take() -> None:
    split = [pass_direction_to_proto("left"), pass_direction_to_proto("right")]
    view = call_pass_view_from_proto(call_query(split_directions=split))
    assert view.split_directions == (PassDirection.LEFT, PassDirection.RIGHT)
    assert call_pass_view_from_proto(call_query()).split_directions == ()  # an older arena


def test_a_hand_state_carries_the_split_called() -> None:
    split = [pass_direction_to_proto(d) for d in ("right", "left", "left")]
    query = play_query()
    query.state.pass_direction = pass_direction_to_proto("split")
    query.state.pass_split[:] = split
    view = play_view_from_proto(query)
    assert view.pass_direction is PassDirection.SPLIT
    assert view.pass_split == (PassDirection.RIGHT, PassDirection.LEFT, PassDirection.LEFT)
    query.state.pass_direction = pass_direction_to_proto("left")
    with pytest.raises(ProtocolError, match="pass_split is set, but pass_direction is not SPLIT"):
        play_view_from_proto(query)


@pytest.mark.timeout(60)
def test_a_served_dealer_may_split_the_pass(start_bot) -> None:
    bot = start_bot(str(BOTS / "splitting_bot.py"))
    split = [pass_direction_to_proto("left"), pass_direction_to_proto("right")]
    result = play_stream(
        bot.stub(),
        requests(start_kind(), {"call_pass": call_query(split_directions=split)}, end_kind()),
    )
    assert result.code == grpc.StatusCode.OK
    answer = result.responses[1].call_pass
    assert answer.direction == pass_direction_to_proto("split")
    assert list(answer.split) == [split[0], split[1], split[0]]  # pass_count 3


# -- Auction Hearts: the bid and name_suit queries -----------------------------------------

AUCTION = RulesView(
    name="auction",
    pass_schedule=(PassDirection.HOLD,),
    settlement=Settlement.AUCTION,
    scoring_suit_choice=ScoringSuitChoice.AUCTION,
    max_bid=13,
)


def bid_query(**changes: object) -> game_pb2.BidQuery:
    bids = [game_pb2.Bid(seat=1, chips=3)]
    fields: dict[str, object] = {
        "state": state(
            rules=rules_to_proto(AUCTION), pass_direction=pass_direction_to_proto("hold"), bids=bids
        ),
        "min_bid": 4,
        "max_bid": 13,
    }
    fields.update(changes)
    return game_pb2.BidQuery(**fields)  # type: ignore[arg-type]


def name_query(declarer: int = 2) -> game_pb2.NameSuitQuery:
    bids = [game_pb2.Bid(seat=1, chips=3), game_pb2.Bid(seat=2, chips=5), game_pb2.Bid(seat=3)]
    return game_pb2.NameSuitQuery(
        state=state(
            rules=rules_to_proto(AUCTION),
            pass_direction=pass_direction_to_proto("hold"),
            bids=bids,
            declarer=declarer,
        )
    )


def test_the_auction_rules_fields_round_trip() -> None:
    assert rules_view_from_proto(rules_to_proto(AUCTION)) == AUCTION
    assert rules_to_proto(AUCTION).max_bid == 13


def test_a_bid_query_reads_as_a_bid_view_with_its_range_and_the_bids_so_far() -> None:
    view = bid_view_from_proto(bid_query())
    assert (view.min_bid, view.max_bid) == (4, 13)
    assert view.bids == ((1, 3),)
    assert view.declarer is None
    with pytest.raises(ProtocolError, match="min_bid is 0"):
        bid_view_from_proto(bid_query(min_bid=0))
    with pytest.raises(ProtocolError, match=r"bids\[0\]\.seat is 7"):
        bid_view_from_proto(bid_query(state=state(bids=[game_pb2.Bid(seat=7)])))


def test_a_name_query_reads_as_a_name_view_for_the_declarer_only() -> None:
    view = name_suit_view_from_proto(name_query())
    assert view.bids == ((1, 3), (2, 5), (3, None))
    assert view.declarer == 2
    with pytest.raises(ProtocolError, match="declarer is 1, but seat 2 is asked"):
        name_suit_view_from_proto(name_query(declarer=1))


@pytest.mark.timeout(60)
def test_a_served_bot_passes_and_names_its_shortest_suit_by_default(random_bot) -> None:
    result = play_stream(
        random_bot.stub(),
        requests(start_kind(), {"bid": bid_query()}, {"name_suit": name_query()}, end_kind()),
    )
    assert result.code == grpc.StatusCode.OK, result.details
    assert result.responses[1].WhichOneof("kind") == "bid"
    assert not result.responses[1].bid.HasField("chips")  # a pass
    # HAND holds 3 clubs, 2 diamonds, 4 spades, 4 hearts: diamonds is the shortest.
    assert result.responses[2].name_suit.suit == "D"


class _Bidder(Bot):
    """A bot whose auction answers are fixed, to check what the session makes of them."""

    def __init__(self, chips: Any, suit: Any) -> None:
        super().__init__()
        self.chips, self.suit = chips, suit

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[:3])

    def play_card(self, view: PlayView) -> str:
        return view.legal[0]

    def bid(self, view: BidView) -> Any:
        return self.chips

    def name_suit(self, view: NameSuitView) -> Any:
        return self.suit


def _session_answer(bidder: _Bidder, kind: str, query: Any) -> Any:
    session = MatchSession(bidder)
    session.handle(bot_pb2.PlayMatchRequest(request_id=1, match_start=match_start_message(2)))
    request = bot_pb2.PlayMatchRequest(request_id=2)
    getattr(request, kind).CopyFrom(query)
    return session.handle(request)


def test_the_session_sends_a_bid_and_a_suit_name_as_its_letter() -> None:
    answer = _session_answer(_Bidder(6, "hearts"), "bid", bid_query())
    assert answer.bid.chips == 6
    answer = _session_answer(_Bidder(6, " hearts "), "name_suit", name_query())
    assert answer.name_suit.suit == "H"


@pytest.mark.parametrize(
    ("kind", "chips", "suit", "message"),
    [
        ("bid", "six", "H", "bid returned 'six', not a number of chips"),
        ("bid", -2, "H", "a bid cannot be negative"),
        ("name_suit", None, "stars", "name_suit returned 'stars', not a suit"),
        ("name_suit", None, 3, "name_suit returned 3, not a suit"),
    ],
)
def test_an_auction_answer_that_is_not_one_fails_the_stream_naming_it(
    kind: str, chips: object, suit: object, message: str
) -> None:
    query = bid_query() if kind == "bid" else name_query()
    with pytest.raises(StreamError, match=message) as raised:
        _session_answer(_Bidder(chips, suit), kind, query)
    assert raised.value.code == grpc.StatusCode.INTERNAL


# -- Danger Hearts: lives -----------------------------------------------------------------

DANGER = RulesView(name="danger", lives=3, danger_points=15, max_hands=10, target_score=None)


def test_lives_round_trip_and_reach_the_view() -> None:
    assert rules_view_from_proto(rules_to_proto(DANGER)) == DANGER
    query = play_query(state=state(rules=rules_to_proto(DANGER), lives=[3, 2, 0, 3]))
    query.state.current_trick.CopyFrom(game_pb2.Trick(leader=0, cards=["2C", "KC"]))
    view = play_view_from_proto(query)
    assert view.lives == (3, 2, 0, 3)
    assert view.rules.lives == 3 and view.rules.danger_points == 15


def test_lives_not_one_per_seat_are_a_protocol_error() -> None:
    query = play_query(state=state(lives=[3, 2]))
    query.state.current_trick.CopyFrom(game_pb2.Trick(leader=0, cards=["2C", "KC"]))
    with pytest.raises(ProtocolError, match="lives has 2 entries"):
        play_view_from_proto(query)
