"""The dealer calling the pass (003 'Simple variations'; 004 'Passing cards'), on both
backends: the call phase, its errors, and whole games with every call."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game, Hand, IllegalCallError, Phase, RulesError, preset
from arena.engine.rules import PassDirection


def test_the_dealer_calls_before_anyone_passes_or_plays() -> None:
    hand = Hand.deal(preset("dealer_calls"), 11, dealer=1, pass_direction="dealer_calls")
    assert hand.phase is Phase.CALLING
    assert hand.calls_pending == (1,)
    assert hand.passes_pending == () and hand.to_play is None
    assert not hand.legal_plays() and hand.legal_mask() == 0
    with pytest.raises(ValueError, match="calls the pass first"):
        hand.apply_pass(0, list(hand.hand_of(0))[:3])
    with pytest.raises(ValueError, match="has not called the pass"):
        hand.play(hand.hand_of(0).first())
    dealt = [hand.hand_of(s) for s in range(4)]
    hand.apply_call(PassDirection.ACROSS)
    # The same deal, now passing across: seat 0's cards reach seat 2.
    assert [hand.hand_of(s) for s in range(4)] == dealt
    assert hand.phase.value == "passing" and hand.pass_direction is PassDirection.ACROSS
    given = {s: list(hand.hand_of(s))[:3] for s in range(4)}
    for seat, cards in given.items():
        hand.apply_pass(seat, cards)
    assert set(hand.received(2)) == set(given[0])
    assert hand.phase.value == "playing"
    assert not hand.calls_pending


def test_a_call_outside_the_options_or_out_of_turn_is_refused() -> None:
    hand = Hand.deal(preset("dealer_calls", 5), 3, dealer=0, pass_direction="dealer_calls")
    with pytest.raises(IllegalCallError, match="not across"):
        hand.apply_call("across")  # nobody sits across at five
    with pytest.raises(IllegalCallError, match="not a pass direction"):
        hand.apply_call("sideways")
    hand.apply_call("left2")
    with pytest.raises(IllegalCallError, match="no pass is to be called"):
        hand.apply_call("left")


def test_calling_a_hold_goes_straight_to_the_play() -> None:
    rules = preset("dealer_calls").replace(
        pass_call_options=(PassDirection.LEFT, PassDirection.HOLD)
    )
    hand = Hand.deal(rules, 5, dealer=3, pass_direction="dealer_calls")
    hand.apply_call("hold")
    assert hand.phase is Phase.PLAYING and hand.to_play is not None


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_whole_games_with_random_calls(players: int) -> None:
    rules = preset("dealer_calls", players)
    rng = random.Random(players)
    game = Game(rules, seed=players)
    called = set()
    while not game.is_over:
        hand = game.hand
        assert hand.phase is Phase.CALLING
        call = rng.choice(hand.call_options)
        hand.apply_call(call)
        called.add(call)
        size = rules.pass_size(hand.pass_direction)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
        while not hand.is_over:
            hand.play(rng.choice(list(hand.legal_plays())))
        game.finish_hand()
    assert max(game.totals) >= 100
    assert len(called) > 1


def test_the_menu_is_checked_against_the_table() -> None:
    with pytest.raises(RulesError, match="needs pass_call_options"):
        preset("standard").replace(pass_schedule=("dealer_calls",))
    with pytest.raises(RulesError, match="no one sits across"):
        preset("dealer_calls", 5).replace(pass_call_options=("left", "across"))
    with pytest.raises(RulesError, match="no hand's pass is 'dealer_calls'"):
        preset("standard").replace(pass_call_options=("left",))
    with pytest.raises(RulesError, match="twice"):
        preset("dealer_calls").replace(pass_call_options=("left", "left"))
