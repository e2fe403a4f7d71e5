"""Domino Hearts on the wire: HandState.domino and DominoTrickEnd give the SDK's views the
seats of short tricks, who is still in, the stock's size and the draws."""

from __future__ import annotations

from typing import Any

import pytest
from hearts_bot.convert import (
    ProtocolError,
    domino_trick_ended_from_proto,
    play_view_from_proto,
    rules_from_proto,
    rules_to_proto,
    rules_view_from_proto,
)
from hearts_bot.proto.hearts.v1 import bot_pb2
from hearts_bot.querycache import QueryCache

engine = pytest.importorskip("arena.engine")
domino = pytest.importorskip("arena.engine.variants.domino")
protocol = pytest.importorskip("arena.match.protocol")
seats = pytest.importorskip("arena.match.seats")


def _context() -> Any:
    return seats.DecisionContext(0, (0, 0, 0), 1.0, 5.0, 0, ())


def _hand_with_a_seat_out() -> Any:
    # Seat 2 holds one card: it wins the first trick with it and is out; seat 0 leads next.
    hands = ["3C QD KD 2S", "2C 9D TD 3S", "AC"]
    dealt = " ".join(hands).split()
    hand = domino.DominoHand.from_cards(
        engine.preset("domino", 3),
        hands,
        dealer=0,
        stock=[c for c in engine.CARDS[:52] if str(c) not in dealt],
    )
    for card in ("2C", "AC", "3C"):
        hand.play(card)
    return hand


@pytest.mark.timeout(60)
@pytest.mark.parametrize("players", [2, 3, 7])
def test_domino_rules_round_trip_through_the_wire(players: int) -> None:
    rules = engine.preset("domino", players)
    data = rules.to_dict()
    assert rules_from_proto(rules_to_proto(data)) == data
    view = rules_view_from_proto(rules_to_proto(data))
    assert view.domino and view.players == players and view.hand_size == 6


@pytest.mark.timeout(60)
def test_two_players_are_read_everywhere_and_one_is_refused() -> None:
    """Two seats were Domino's alone until two-player Hearts (004's 1911 text, issue 23)."""
    message = rules_to_proto(engine.preset("two_player").to_dict())
    assert rules_view_from_proto(message).players == 2
    message.players = 1
    with pytest.raises(ProtocolError, match=r"players is 1, expected 2\.\.7"):
        rules_view_from_proto(message)


@pytest.mark.timeout(60)
def test_a_play_view_knows_the_seats_of_short_tricks_and_who_is_out() -> None:
    hand = _hand_with_a_seat_out()
    hand.play("QD")  # seat 0 leads; seat 1 follows and is last to play
    query = protocol.play_query(hand.view(1), _context())
    view = play_view_from_proto(query)
    assert view.in_play == (True, True, False)
    assert view.tricks[0].seats == (1, 2, 0) and view.tricks[0].winner == 2
    assert view.current_trick.seats == (0,) and view.current_trick.cards == ("QD",)
    assert view.last_to_play
    assert view.stock_size == hand.stock_size and view.drawn == (0, 0, 0)
    assert QueryCache().play_view(query) == view  # the fast path leaves Domino to this one


@pytest.mark.timeout(60)
def test_a_play_query_for_a_seat_not_in_turn_is_refused() -> None:
    hand = _hand_with_a_seat_out()
    query = protocol.play_query(hand.view(0), _context())
    query.state.seat = 1
    with pytest.raises(ProtocolError, match="it is seat 0's turn"):
        play_view_from_proto(query)


@pytest.mark.timeout(60)
def test_trick_seats_must_match_the_tricks() -> None:
    hand = _hand_with_a_seat_out()
    query = protocol.play_query(hand.view(0), _context())
    del query.state.domino.trick_seats[:]
    with pytest.raises(ProtocolError, match="one entry per finished trick"):
        play_view_from_proto(query)
    query = protocol.play_query(hand.view(0), _context())
    query.state.domino.trick_seats[0].seats[:] = [1, 0, 0]
    with pytest.raises(ProtocolError, match="do not start with the leader once each"):
        play_view_from_proto(query)


@pytest.mark.timeout(60)
def test_domino_trick_end_says_who_played_each_card() -> None:
    hand = _hand_with_a_seat_out()
    hand.play("QD")
    hand.play("TD")
    trick = hand.tricks()[-1]
    message = protocol.domino_trick_end(0, 1, trick)
    request = bot_pb2.PlayMatchRequest(request_id=1, domino_trick_end=message)
    ended = domino_trick_ended_from_proto(request.domino_trick_end, 3)
    assert ended.trick.seats == (0, 1) and ended.trick.cards == ("QD", "TD")
    assert ended.trick.winner == 0 and ended.trick_number == 1
    message.seats[:] = [0]
    with pytest.raises(ProtocolError, match="2 cards for 1 seats"):
        domino_trick_ended_from_proto(message, 3)


@pytest.mark.timeout(60)
def test_a_bot_hears_of_each_domino_trick_with_its_seats() -> None:
    from hearts_bot import Bot
    from hearts_bot.session import MatchSession

    from arena.benchmarks.protocol import match_start_message

    heard = []

    class Listener(Bot):
        def pass_cards(self, view: Any) -> list[str]:
            return list(view.hand[: view.count])  # never asked: Domino has no pass

        def play_card(self, view: Any) -> str:
            return view.legal[0]

        def on_trick_end(self, event: Any) -> None:
            heard.append(event.trick)

    hand = _hand_with_a_seat_out()
    session = MatchSession(Listener())
    rules = rules_view_from_proto(rules_to_proto(engine.preset("domino", 3).to_dict()))
    start = bot_pb2.PlayMatchRequest(request_id=1, match_start=match_start_message(0, rules))
    answer = session.handle(start)
    assert answer is not None and answer.match_start.wants_notifications
    trick = protocol.domino_trick_end(0, 0, hand.tricks()[0])
    assert session.handle(bot_pb2.PlayMatchRequest(request_id=2, domino_trick_end=trick)) is None
    assert heard[0].seats == (1, 2, 0) and heard[0].cards == ("2C", "AC", "3C")
    query = protocol.play_query(hand.view(0), _context())
    answer = session.handle(bot_pb2.PlayMatchRequest(request_id=3, play_card=query))
    assert answer is not None and answer.play_card.card in {"QD", "KD", "2S"}
