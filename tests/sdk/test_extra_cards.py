"""002's extra cards on the wire ('Alternatives to the "Kitty" in 3 or 5 player games':
"Deal out the extra cards to players and allow the player with them to play an additional
card on the first trick"): HandState.extra_card_seats and Trick.seats give the SDK's views
who plays the first trick's extra cards, and a malformed `seats` is a clear ProtocolError."""

from __future__ import annotations

from typing import Any

import pytest
from hearts_bot.convert import (
    ProtocolError,
    play_view_from_proto,
    rules_view_from_proto,
    trick_ended_from_proto,
)
from hearts_bot.proto.hearts.v1 import game_pb2
from hearts_bot.querycache import QueryCache
from hearts_bot.views import play_order

engine = pytest.importorskip("arena.engine")
protocol = pytest.importorskip("arena.match.protocol")
seats = pytest.importorskip("arena.match.seats")


def _context(players: int) -> Any:
    return seats.DecisionContext(0, (0,) * players, 1.0, 5.0, 0, ())


def _first_trick(players: int) -> Any:
    """A hand of preset `extra_cards` (no pass) whose first trick's extra cards are not
    played by the consecutive seats from the leader, so Trick.seats is set."""
    rules = engine.preset("extra_cards", players)
    for seed in range(50):
        hand = engine.Hand.deal(rules, seed, pass_direction="hold")
        order = play_order(hand.to_play, players, hand.extra_card_seats)
        if any(seat != (hand.to_play + i) % players for i, seat in enumerate(order)):
            return hand
    raise AssertionError("no deal with a non-consecutive first trick")


def _play_first(hand: Any, count: int) -> None:
    for _ in range(count):
        hand.play(min(hand.legal_plays()), seat=hand.to_play)


def test_rules_view_counts_the_extra_cards() -> None:
    for players, extra in ((3, 1), (5, 2)):
        message = protocol.rules_message(engine.preset("extra_cards", players))
        view = rules_view_from_proto(message)
        assert view.extra_cards_first_trick and view.extra_cards == extra
    assert rules_view_from_proto(protocol.rules_message(engine.preset("standard"))).extra_cards == 0


@pytest.mark.parametrize("players", [3, 5])
def test_a_play_view_knows_who_plays_the_extra_cards(players: int) -> None:
    hand = _first_trick(players)
    extra = hand.extra_card_seats
    order = play_order(hand.to_play, players, extra)
    assert len(extra) == (1 if players == 3 else 2)
    for played in range(len(order)):
        seat = hand.to_play
        assert seat == order[played]
        query = protocol.play_query(hand.view(seat), _context(players))
        view = play_view_from_proto(query)
        assert view.extra_card_seats == extra
        assert view.current_trick.seats == order[:played]
        assert view.trick_order == order
        assert view.last_to_play == (played == len(order) - 1)
        assert QueryCache().play_view(query) == view
        if played > players:  # past the round the seats are said outright
            assert list(query.state.current_trick.seats) == list(order[:played])
        _play_first(hand, 1)
    # The next trick: the first is finished with every extra card, the round is plain.
    query = protocol.play_query(hand.view(hand.to_play), _context(players))
    view = play_view_from_proto(query)
    assert view.tricks[0].seats == order and len(view.tricks[0].cards) == players + len(extra)
    assert view.trick_order == play_order(view.current_trick.leader, players)
    assert not query.state.tricks[0].seats or list(query.state.tricks[0].seats) == list(order)


@pytest.mark.parametrize("players", [3, 5])
def test_the_first_trick_end_is_read_with_its_extra_cards(players: int) -> None:
    hand = _first_trick(players)
    order = play_order(hand.to_play, players, hand.extra_card_seats)
    _play_first(hand, len(order))
    trick = hand.tricks()[0]
    message = game_pb2.TrickEnd(
        hand_number=0, trick_number=0, trick=protocol.trick_message(trick, players)
    )
    extra = len(hand.extra_card_seats)
    ended = trick_ended_from_proto(message, players, extra_cards=extra)
    assert ended.trick.seats == order and ended.trick.winner == trick.winner
    with pytest.raises(ProtocolError, match="finished but has"):
        trick_ended_from_proto(message, players)  # without the rule: too many cards
    message.trick_number = 1  # a later trick has one card per seat
    with pytest.raises(ProtocolError, match="finished but has"):
        trick_ended_from_proto(message, players, extra_cards=extra)


def _query_after_round() -> tuple[Any, tuple[int, ...]]:
    """A five-seat play query asking the second extra card: six cards, seats set."""
    hand = _first_trick(5)
    order = play_order(hand.to_play, 5, hand.extra_card_seats)
    _play_first(hand, 6)
    query = protocol.play_query(hand.view(hand.to_play), _context(5))
    assert list(query.state.current_trick.seats) == list(order[:6])
    return query, order


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda q, o: q.state.current_trick.seats.pop(), r"seats has 5 entries for 6 cards"),
        (lambda q, o: q.state.current_trick.seats.__setitem__(5, 9), r"seats\[5\] is 9"),
        (  # the extra card played by a seat that holds none
            lambda q, o: q.state.current_trick.seats.__setitem__(5, (o[0] + 2) % 5),
            r"not the trick's play order",
        ),
        (  # the round out of order
            lambda q, o: q.state.current_trick.seats.__setitem__(0, o[1]),
            r"not the trick's play order",
        ),
        (lambda q, o: q.state.extra_card_seats.pop(), r"extra_card_seats .* must name 2"),
        (
            lambda q, o: q.state.extra_card_seats.__setitem__(1, q.state.extra_card_seats[0]),
            r"must name 2 different seats",
        ),
        (  # the seat of the second extra card asked again
            lambda q, o: setattr(q.state, "seat", o[5]),
            r"is asked to play, but it is seat",
        ),
    ],
)
def test_malformed_extra_card_seats_are_protocol_errors(change: Any, error: str) -> None:
    query, order = _query_after_round()
    change(query, order)
    with pytest.raises(ProtocolError, match=error):
        play_view_from_proto(query)
    with pytest.raises(ProtocolError, match=error):
        QueryCache().play_view(query)


def test_seats_on_a_plain_trick_must_be_the_round() -> None:
    hand = engine.Hand.deal(engine.preset("standard"), 1, pass_direction="hold")
    _play_first(hand, 2)
    query = protocol.play_query(hand.view(hand.to_play), _context(4))
    assert not query.state.current_trick.seats  # consecutive seats: left unset
    leader = query.state.current_trick.leader
    query.state.current_trick.seats[:] = [leader, (leader + 1) % 4]
    assert play_view_from_proto(query).current_trick.seats == (leader, (leader + 1) % 4)
    query.state.current_trick.seats[:] = [leader, (leader + 2) % 4]
    with pytest.raises(ProtocolError, match="not the trick's play order"):
        play_view_from_proto(query)
    with pytest.raises(ProtocolError, match="not the trick's play order"):
        QueryCache().play_view(query)
