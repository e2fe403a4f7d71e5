"""The house bots behind the SDK (`arena.bots.served`): what a served bot rebuilds from
the protocol is the engine's own view, at every decision of every preset, so it decides as
it would in-process."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hearts_bot import HandView
from hearts_bot.convert import (
    bid_view_from_proto,
    call_pass_view_from_proto,
    expose_view_from_proto,
    name_suit_view_from_proto,
    pass_view_from_proto,
    play_view_from_proto,
    pledge_view_from_proto,
    refuse_queen_view_from_proto,
    replace_pass_view_from_proto,
    reveal_view_from_proto,
)

from arena.bots import HeuristicBot, RandomBot
from arena.bots.served import Heuristic, Random, ServedHouseBot, Strong, seat_view
from arena.engine import PRESETS, Game, Hand, Phase, SeatView, preset
from arena.engine.decisions import DecisionKind
from arena.match import protocol
from arena.match.seats import DecisionContext


def _context(game: Game) -> DecisionContext:
    return DecisionContext(
        game.hand_number, tuple(game.totals), 1.0, 5.0, game.pot, tuple(game.lives)
    )


def _check(
    hand: Hand, game: Game, seat: int, checked: list[int], queen: DecisionKind | None = None
) -> SeatView:
    """The engine's view of `seat`, and the same view through the protocol and back."""
    view = hand.view(seat)
    context = _context(game)
    phase = hand.phase
    sdk: HandView
    if queen is DecisionKind.REFUSE_QUEEN:  # Rickety Kate
        sdk = refuse_queen_view_from_proto(protocol.refuse_queen_query(view, context))
    elif queen is DecisionKind.REPLACE_PASS:
        decision = hand.pending()
        assert decision is not None
        sdk = replace_pass_view_from_proto(protocol.replace_pass_query(view, decision, context))
    elif phase is Phase.PLAYING:
        sdk = play_view_from_proto(protocol.play_query(view, context))
    elif phase is Phase.PASSING:
        count = hand.rules.pass_size(hand.pass_direction)
        sdk = pass_view_from_proto(protocol.pass_query(view, count, context))
    elif phase is Phase.REVEALING:
        sdk = reveal_view_from_proto(protocol.reveal_query(view, context))
    elif phase is Phase.CALLING:
        sdk = call_pass_view_from_proto(protocol.call_pass_query(view, context))
    elif phase is Phase.BIDDING:
        sdk = bid_view_from_proto(protocol.bid_query(view, context))
    elif phase is Phase.PLEDGING:  # 004 'Scoring variants'
        sdk = pledge_view_from_proto(protocol.pledge_query(view, context))
    elif phase is Phase.EXPOSING:  # Gong Zhu
        decision = hand.pending()
        assert decision is not None
        sdk = expose_view_from_proto(protocol.expose_query(view, decision, context))
    else:
        sdk = name_suit_view_from_proto(protocol.name_suit_query(view, context))
    # The protocol sends the cards received in card order (the engine keeps the order
    # they came in, which no bot can rely on); everything else must be equal as it is.
    engine = dataclasses.replace(view, received=tuple(sorted(view.received)))
    assert seat_view(sdk, phase) == engine, f"{phase.value} view of seat {seat}"
    checked.append(1)
    return view


def _play_checked(rules, seed: int, hands: int = 2) -> int:
    """Play `hands` hands with the heuristic bots, checking every decision's view."""
    game = Game(rules, seed)
    bots = [HeuristicBot(seat) if seat % 2 else RandomBot(seat) for seat in range(rules.players)]
    checked: list[int] = []
    for _ in range(hands):
        if game.is_over:
            break
        hand = game.hand
        for seat in hand.calls_pending:
            hand.apply_call(bots[seat].call_pass(_check(hand, game, seat, checked)))
        for seat in hand.passes_pending:
            count = hand.pass_size  # the count the dealer called, where he may
            hand.apply_pass(seat, bots[seat].pass_cards(_check(hand, game, seat, checked), count))
        while (due := hand.queen_pending) is not None:  # Rickety Kate's refusal of the QS
            kind, seat = due
            view = _check(hand, game, seat, checked, queen=kind)
            if kind is DecisionKind.REFUSE_QUEEN:
                hand.apply_queen_refusal(seat, bots[seat].refuse_queen(view))
            else:
                decision = hand.pending()
                assert decision is not None
                hand.apply_replacement(seat, bots[seat].replace_pass(view, decision.legal))
        while hand.bids_pending:
            bidder = hand.bids_pending[0]
            hand.apply_bid(bidder, bots[bidder].bid(_check(hand, game, bidder, checked)))
        for seat in hand.names_pending:
            hand.apply_naming(seat, bots[seat].name_suit(_check(hand, game, seat, checked)))
        for seat in hand.reveals_pending:
            hand.apply_reveal(seat, bots[seat].reveal_card(_check(hand, game, seat, checked)))
        while hand.pledges_pending:
            pledger = hand.pledges_pending[0]
            hand.apply_pledge(pledger, bots[pledger].pledge(_check(hand, game, pledger, checked)))
        while hand.exposures_pending:
            shower = hand.exposures_pending[0]
            shown = bots[shower].expose(_check(hand, game, shower, checked), hand.exposable(shower))
            hand.apply_exposure(shower, shown)
        while not hand.is_over:
            turn = hand.to_play
            assert turn is not None
            hand.play(bots[turn].play_card(_check(hand, game, turn, checked)), seat=turn)
        game.finish_hand()
    return len(checked)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_protocol_carries_the_engines_view_whole(name: str) -> None:
    rules = preset(name)
    assert _play_checked(rules, seed=len(name)) >= 2 * rules.hand_size * rules.players


def test_a_kitty_seen_only_by_its_taker_comes_through_as_the_engine_shows_it() -> None:
    rules = preset("black_maria", 3).replace(kitty_visibility="taker_only")
    assert _play_checked(rules, seed=5, hands=3) > 0


def test_served_bots_name_themselves_after_their_house_bot() -> None:
    assert Heuristic().name == "house:heuristic"
    assert Random().name == "house:random"
    assert Strong().name == "house:strong"
    with pytest.raises(TypeError, match="needs a house bot"):
        ServedHouseBot()


def test_a_served_bot_answers_as_the_house_bot_does_in_process() -> None:
    rules = preset("standard")
    hand = Hand.deal(rules, 11, pass_direction="hold")
    served, house = Heuristic(), HeuristicBot()
    game = Game(rules, 11)
    for _ in range(20):
        seat = hand.to_play
        assert seat is not None
        view = hand.view(seat)
        sdk = play_view_from_proto(protocol.play_query(view, _context(game)))
        card = served.play_card(sdk)
        assert card == str(house.play_card(view))
        hand.play(card)


def test_random_play_of_a_whole_game_keeps_the_views_equal() -> None:
    rng = random.Random(3)
    for name in ("auction", "danger", "heartless"):
        assert _play_checked(preset(name), seed=rng.randrange(1000), hands=4) > 0
