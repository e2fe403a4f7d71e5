"""Cancellation Hearts in the SDK (000; 003: two packs): the rules on the wire, the checks
that let a card be there twice only under these rules, tricks nobody won, and the views'
helpers that know cancelled twins."""

from __future__ import annotations

import pytest
from hearts_bot.convert import (
    ProtocolError,
    pass_direction_to_proto,
    play_view_from_proto,
    rules_from_proto,
    rules_to_proto,
    rules_view_from_proto,
    trick_ended_from_proto,
)
from hearts_bot.proto.hearts.v1 import game_pb2
from hearts_bot.querycache import QueryCache
from hearts_bot.rules import RulesView
from hearts_bot.views import Trick

FOUR = RulesView(
    name="cancellation_four",
    cancellation=True,
    removed_cards=frozenset(f"{r}{s}" for r in "345678" for s in "CDSH"),
    second_pack_removed=frozenset({"2C", "2D", "2S", "2H"}),
)


def query(
    rules: RulesView, hand: list[str], tricks: list[game_pb2.Trick]
) -> game_pb2.PlayCardQuery:
    """A play query for seat 0 leading, holding `hand`, after `tricks`."""
    message = game_pb2.PlayCardQuery(legal_cards=hand[:1])
    state = message.state
    state.rules.CopyFrom(rules_to_proto(rules))
    state.hand[:] = hand
    state.scores[:] = [0] * rules.players
    state.pass_direction = pass_direction_to_proto("left")
    state.tricks.extend(tricks)
    state.current_trick.leader = 0
    return message


UNWON = game_pb2.Trick(leader=0, cards=["KC", "TS", "9H", "KC"])  # the kings cancel


@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_the_arenas_cancellation_rules_round_trip_at_every_table(players: int) -> None:
    presets = pytest.importorskip("arena.engine.presets")
    from arena.engine.rules import Rules

    for rules in (presets.preset("cancellation", players), presets.preset("cancellation_four")):
        data = rules.to_dict()
        assert rules_from_proto(rules_to_proto(data)) == data
        assert Rules.from_dict(rules_from_proto(rules_to_proto(data))) == rules
        view = rules_view_from_proto(rules_to_proto(data))
        assert len(view.deck) == len(rules.deck_copies)
        assert view.hand_size == rules.hand_size
        assert view.penalty_total == rules.penalty_total


def test_four_player_deck_as_the_sdk_sees_it() -> None:
    """003: the twos of one pack, the 9s to aces of both: 52 cards, 39 points."""
    assert len(FOUR.deck) == 52 and FOUR.deck.count("2C") == 1 and FOUR.deck.count("QS") == 2
    assert FOUR.penalty_total == 39 and FOUR.hand_size == 13


def test_more_than_seven_seats_only_with_two_packs() -> None:
    with pytest.raises(ProtocolError, match=r"players is 8, expected 2\.\.7"):
        rules_view_from_proto(rules_to_proto(RulesView(players=8)))
    assert rules_view_from_proto(rules_to_proto(RulesView(players=8, cancellation=True)))


def test_a_card_twice_in_a_hand_only_with_two_packs() -> None:
    hand = ["9C", "9C", "AS"]
    view = play_view_from_proto(query(FOUR, hand, []))
    assert view.hand == ("9C", "9C", "AS")
    with pytest.raises(ProtocolError, match="listed twice: 9C"):
        play_view_from_proto(query(RulesView(), hand, []))
    with pytest.raises(ProtocolError, match="more than 2 times: 9C"):
        play_view_from_proto(query(FOUR, ["9C", "9C", "9C"], []))


def test_held_and_played_at_most_twice_with_two_packs() -> None:
    played = game_pb2.Trick(leader=0, cards=["9C", "TC", "JC", "QC"], winner=3)
    assert play_view_from_proto(query(FOUR, ["9C", "AS"], [played]))
    with pytest.raises(ProtocolError, match="more than 2 times: 9C"):
        play_view_from_proto(query(FOUR, ["9C", "9C", "AS"], [played]))


def test_a_finished_trick_without_a_winner_only_with_two_packs() -> None:
    view = play_view_from_proto(query(FOUR, ["AS"], [UNWON]))
    assert view.tricks[0].winner is None
    no_winner = game_pb2.Trick(leader=0, cards=["9C", "TC", "JC", "QC"])
    with pytest.raises(ProtocolError, match="finished but has no winner"):
        play_view_from_proto(query(RulesView(), ["AS"], [no_winner]))
    assert play_view_from_proto(query(FOUR, ["AS"], [no_winner])).tricks[0].winner is None
    event = game_pb2.TrickEnd(hand_number=0, trick_number=0, trick=UNWON)
    assert trick_ended_from_proto(event, 4, two_packs=True).trick.winner is None
    with pytest.raises(ProtocolError):
        trick_ended_from_proto(event, 4)


def test_the_query_cache_reads_two_pack_queries_as_the_plain_conversion() -> None:
    message = query(FOUR, ["9C", "9C", "AS"], [UNWON])
    assert QueryCache().play_view(message) == play_view_from_proto(message)


def test_twins_cancel_in_winning_card() -> None:
    """003: "if two players lay down exactly the same card, the two cards cancel each
    other and neither card can win the trick"."""
    trick = Trick(0, ("9C", "KC", "KC"), (0, 1, 2))
    assert trick.winning_card() == "9C"
    assert Trick(0, ("6C", "6C", "TD"), (0, 1, 2)).winning_card() is None


def test_points_of_a_trick_nobody_won_go_to_the_next_winner() -> None:
    """003: "the next player who wins a trick also wins any tricks that have been set
    aside"."""
    won = game_pb2.Trick(leader=0, cards=["AS", "2S", "QS", "9S"], winner=0)
    view = play_view_from_proto(query(FOUR, ["AH"], [UNWON, won]))
    assert view.points_taken() == (1 + 13, 0, 0, 0)
