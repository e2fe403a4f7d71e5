"""Four-Penny Hearts in the SDK: the penny fields of a play query, `Bot.play_penny` and its
default, and what the session answers."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from hearts_bot import Bot, PassView, PlayView
from hearts_bot.convert import play_view_from_proto, rules_from_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2
from hearts_bot.rules import PennyPlay, RulesView
from hearts_bot.session import MatchSession, StreamError

from arena.benchmarks.protocol import match_start_message
from arena.engine import Hand, preset
from arena.engine.variants.penny import PennyHand
from arena.match import protocol
from arena.match.seats import DecisionContext


def penny_query(seat: int = 2) -> game_pb2.PlayCardQuery:
    """A real four_penny play query for `seat`, a few cards into the first multi-round."""
    hand = Hand.deal(preset("four_penny"), 12, pass_direction="hold")
    assert isinstance(hand, PennyHand)
    while hand.multi_round is None or hand.to_play != seat or not any(hand.pennies):
        hand.play(hand.legal_plays().first())
    view = hand.view(seat)
    return protocol.play_query(view, DecisionContext(0, (0, 0, 0, 0), 1.0, 5.0))


class Chooser(Bot):
    def __init__(self, answer: Any = None) -> None:
        super().__init__()
        self.answer = answer

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[:3])

    def play_card(self, view: PlayView) -> str:
        return view.legal[-1]


class PennyChooser(Chooser):
    def play_penny(self, view: PlayView) -> Any:
        return self.answer if self.answer is not None else view.legal_moves[-1]


def answer_to(bot: Bot, query: game_pb2.PlayCardQuery) -> Any:
    session = MatchSession(bot)
    session.handle(bot_pb2.PlayMatchRequest(request_id=1, match_start=match_start_message(2)))
    return session.handle(bot_pb2.PlayMatchRequest(request_id=2, play_card=query))


def test_the_penny_rules_round_trip_and_old_senders_read_as_none() -> None:
    view = RulesView(penny_play=PennyPlay.ADVANCED, penny_openings=1)
    assert rules_from_proto(rules_to_proto(view))["penny_play"] == "advanced"
    assert "penny_play" not in rules_from_proto(rules_to_proto(RulesView()))
    message = rules_to_proto(RulesView())
    message.ClearField("penny_play")
    assert play_view_from_proto(penny_query()).rules.penny_play is PennyPlay.SIMPLE
    assert rules_from_proto(message) == RulesView().to_dict()


def test_a_penny_query_reads_as_a_view_with_every_open_penny_and_the_moves() -> None:
    query = penny_query()
    view = play_view_from_proto(query)
    assert view.multi_round == 0 and len(view.pennies) == 4
    assert [len(p.cards) for p in view.pennies] == [len(p.cards) for p in query.state.pennies]
    assert view.legal_moves == tuple((m.penny, m.card) for m in query.legal_moves)
    assert set(view.legal) == {card for _, card in view.legal_moves}
    # A bot that knows nothing of pennies reads "you lead": the card goes to its default.
    assert view.leading and view.current_trick.leader == view.seat
    played = {c for p in view.pennies for c in p.cards}
    assert played <= view.played_cards()


def test_play_penny_names_the_penny() -> None:
    query = penny_query()
    view = play_view_from_proto(query)
    answer = answer_to(PennyChooser(), query)
    assert (answer.play_card.penny, answer.play_card.card) == view.legal_moves[-1]


def test_a_bot_without_play_penny_plays_its_card_to_the_lowest_legal_penny() -> None:
    query = penny_query()
    view = play_view_from_proto(query)
    answer = answer_to(Chooser(), query)
    card = view.legal[-1]
    assert answer.play_card.card == card
    assert answer.play_card.penny == min(p for p, c in view.legal_moves if c == card)


@pytest.mark.parametrize(
    ("answer", "message"),
    [("2C", "not a \\(penny, card\\) pair"), (("one", "2C"), "penny 'one', not an int")],
)
def test_a_play_penny_answer_that_is_not_one_fails_the_stream(answer: Any, message: str) -> None:
    with pytest.raises(StreamError, match=message) as raised:
        answer_to(PennyChooser(answer), penny_query())
    assert raised.value.code == grpc.StatusCode.INTERNAL


def test_a_query_outside_the_multi_rounds_asks_play_card() -> None:
    hand = Hand.deal(preset("four_penny"), 12, pass_direction="hold")
    seat = hand.to_play
    assert seat is not None
    query = protocol.play_query(hand.view(seat), DecisionContext(0, (0, 0, 0, 0), 1.0, 5.0))
    assert not query.legal_moves and not query.state.HasField("multi_round")
    session = MatchSession(PennyChooser(("never", "asked")))
    session.handle(bot_pb2.PlayMatchRequest(request_id=1, match_start=match_start_message(seat)))
    answer = session.handle(bot_pb2.PlayMatchRequest(request_id=2, play_card=query))
    assert answer is not None
    assert answer.play_card.card == "2C" and not answer.play_card.HasField("penny")
