"""Enfle on the wire: Rules.enfle, a trick taken up (fewer cards, no winner) in
HandState.tricks and in a TrickEnd, a card played and then held again, and the SDK's
`HandView.pickups()`."""

from __future__ import annotations

from typing import Any

import pytest
from hearts_bot.convert import (
    ProtocolError,
    play_view_from_proto,
    rules_from_proto,
    rules_to_proto,
    rules_view_from_proto,
    trick_ended_from_proto,
)
from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2
from hearts_bot.querycache import QueryCache

engine = pytest.importorskip("arena.engine")
enfle = pytest.importorskip("arena.engine.variants.enfle")
protocol = pytest.importorskip("arena.match.protocol")
seats = pytest.importorskip("arena.match.seats")

# Seat 3 deals; seat 3 cannot follow the hearts of the third trick and takes up.
FOUR = ["7C 8D 9H AS", "8C 9D TH KS", "9C TD JH QS", "TC JD 7S 8S"]
TO_THE_PICKUP = "7C 8C 9C TC 7S AS KS QS 9H TH JH"


def _context() -> Any:
    return seats.DecisionContext(0, (0, 0, 0, 0), 1.0, 5.0, 0, ())


def _after_the_pickup() -> Any:
    hand = engine.Hand.from_cards(engine.preset("enfle"), FOUR, dealer=3)
    for card in TO_THE_PICKUP.split():
        hand.play(card)
    return hand


@pytest.mark.timeout(60)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_enfle_rules_round_trip_through_the_wire(players: int) -> None:
    data = engine.preset("enfle", players).to_dict()
    assert rules_from_proto(rules_to_proto(data)) == data
    view = rules_view_from_proto(rules_to_proto(data))
    assert view.enfle and view.players == players
    assert view.hand_size == {2: 16, 3: 10, 4: 8}[players]


@pytest.mark.timeout(60)
def test_the_picker_sees_the_cards_it_took_up_and_everyone_sees_the_pickup() -> None:
    hand = _after_the_pickup()
    query = protocol.play_query(hand.view(3), _context())
    view = play_view_from_proto(query)
    assert set(view.hand) == {str(c) for c in hand.hand_of(3)} and len(view.hand) == 13
    broken = view.tricks[2]
    assert broken.winner is None and broken.cards == ("9H", "TH", "JH")
    assert broken.seats == (0, 1, 2)
    assert view.pickups() == ((2, 3, frozenset(TO_THE_PICKUP.split())),)
    assert QueryCache().play_view(query) == view  # cards held again: the full path reads it


@pytest.mark.timeout(60)
def test_a_trick_taken_up_is_refused_outside_enfle() -> None:
    hand = _after_the_pickup()
    message = protocol.trick_message(hand.tricks()[2])
    with pytest.raises(ProtocolError, match="finished but has 3 cards"):
        trick_ended_from_proto(game_pb2.TrickEnd(trick=message), 4)
    event = trick_ended_from_proto(
        game_pb2.TrickEnd(trick_number=2, trick=message),
        4,
        broken_off=True,
    )
    assert event.trick.winner is None and len(event.trick.cards) == 3


@pytest.mark.timeout(60)
def test_a_bot_hears_of_a_trick_taken_up() -> None:
    from hearts_bot import Bot
    from hearts_bot.session import MatchSession

    from arena.benchmarks.protocol import match_start_message

    heard = []

    class Listener(Bot):
        def pass_cards(self, view: Any) -> list[str]:
            return list(view.hand[: view.count])  # never asked: Enfle has no pass

        def play_card(self, view: Any) -> str:
            return view.legal[0]

        def on_trick_end(self, event: Any) -> None:
            heard.append(event.trick)

    hand = _after_the_pickup()
    session = MatchSession(Listener())
    rules = rules_view_from_proto(rules_to_proto(engine.preset("enfle").to_dict()))
    start = bot_pb2.PlayMatchRequest(request_id=1, match_start=match_start_message(3, rules))
    session.handle(start)
    ended = game_pb2.TrickEnd(
        hand_number=0, trick_number=2, trick=protocol.trick_message(hand.tricks()[2])
    )
    assert session.handle(bot_pb2.PlayMatchRequest(request_id=2, trick_end=ended)) is None
    assert heard[0].winner is None and heard[0].cards == ("9H", "TH", "JH")
    query = protocol.play_query(hand.view(3), _context())
    answer = session.handle(bot_pb2.PlayMatchRequest(request_id=3, play_card=query))
    assert answer is not None and answer.play_card.card in {str(c) for c in hand.legal_plays()}
