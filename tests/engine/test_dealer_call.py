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
        pass_call_options=(PassDirection.LEFT, PassDirection.HOLD), pass_call_split=False
    )
    hand = Hand.deal(rules, 5, dealer=3, pass_direction="dealer_calls")
    hand.apply_call("hold")
    assert hand.phase is Phase.PLAYING and hand.to_play is not None


def test_a_split_call_sends_one_card_right_and_two_left() -> None:
    """003 'Simple variations': "Pass one card to the right and two cards to the left."
    Card i of every pass goes the i-th direction called; each player "passes three cards
    and receives three cards"."""
    hand = Hand.deal(preset("dealer_calls"), 11, dealer=1, pass_direction="dealer_calls")
    dealt = [hand.hand_of(s) for s in range(4)]
    hand.apply_call(["right", "left", "left"])
    assert hand.passes_pending == (0, 1, 2, 3)
    assert hand.pass_direction is PassDirection.SPLIT
    assert hand.pass_split == (PassDirection.RIGHT, PassDirection.LEFT, PassDirection.LEFT)
    assert hand.view(0).pass_split == hand.pass_split
    given = {s: list(dealt[s])[:3] for s in range(4)}
    for seat, cards in given.items():
        hand.apply_pass(seat, cards)
    for seat in range(4):
        right_of, left_of = (seat + 1) % 4, (seat + 3) % 4
        # From the seat on its left (who passed it card 0 rightwards), then the two cards
        # of the seat on its right (passed leftwards).
        assert hand.received(seat) == (given[right_of][0], given[left_of][1], given[left_of][2])
        assert len(hand.hand_of(seat)) == 13
    assert hand.phase is Phase.PLAYING


def test_a_split_call_is_checked() -> None:
    rules = preset("dealer_calls", 5)
    hand = Hand.deal(rules, 4, dealer=0, pass_direction="dealer_calls")
    assert rules.split_directions == (
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.LEFT2,
        PassDirection.RIGHT2,
    )
    with pytest.raises(IllegalCallError, match="one direction per passed card"):
        hand.apply_call(["left", "right"])
    with pytest.raises(IllegalCallError, match="not 'across'"):
        hand.apply_call(["left", "right", "across"])  # nobody sits across at five
    with pytest.raises(IllegalCallError, match="not 'center'"):
        hand.apply_call(("left", "center", "left"))  # a split card goes to a seat
    with pytest.raises(IllegalCallError, match="not 'sideways'"):
        hand.apply_call(["left", "sideways", "left"])
    assert hand.phase is Phase.CALLING  # nothing changed
    hand.apply_call([PassDirection.LEFT2, "right2", "left"])
    assert hand.pass_split[0] is PassDirection.LEFT2
    one_way = preset("dealer_calls").replace(pass_call_split=False)
    hand = Hand.deal(one_way, 4, dealer=0, pass_direction="dealer_calls")
    with pytest.raises(IllegalCallError, match="one direction only"):
        hand.apply_call(["left", "left", "right"])
    with pytest.raises(ValueError, match="only ever the dealer's call"):
        Hand.deal(preset("dealer_calls"), 4, dealer=0, pass_direction="split")


def test_split_rules_are_validated_and_survive_json() -> None:
    rules = preset("dealer_calls", 6)
    assert rules.pass_call_split
    assert rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError, match="cannot hold 'split'"):
        rules.replace(pass_call_options=("left", "split"))
    with pytest.raises(RulesError, match="pass_schedule cannot hold 'split'"):
        preset("standard").replace(pass_schedule=("split",))
    with pytest.raises(RulesError, match="two directional passes"):
        rules.replace(pass_call_options=("left", "center"))
    with pytest.raises(RulesError, match="true or false"):
        rules.replace(pass_call_split="yes")
    assert preset("dealer_calls").replace(pass_call_split=False).split_directions == ()


def _random_call(hand: Hand, rng: random.Random) -> PassDirection | list[PassDirection]:
    """One of the options, or a split of the directional options a third of the time."""
    allowed = hand.rules.split_directions
    if allowed and rng.random() < 1 / 3:
        return [rng.choice(allowed) for _ in range(hand.rules.pass_count)]
    return rng.choice(hand.call_options)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_whole_games_with_random_calls(players: int) -> None:
    rules = preset("dealer_calls", players)
    rng = random.Random(players)
    game = Game(rules, seed=players)
    called = set()
    while not game.is_over:
        hand = game.hand
        assert hand.phase is Phase.CALLING
        call = _random_call(hand, rng)
        hand.apply_call(call)
        called.add(hand.pass_direction)
        size = rules.pass_size(hand.pass_direction)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
        while not hand.is_over:
            hand.play(rng.choice(list(hand.legal_plays())))
        game.finish_hand()
    assert max(game.totals) >= 100
    assert len(called) > 1
    assert PassDirection.SPLIT in called


def test_the_menu_is_checked_against_the_table() -> None:
    with pytest.raises(RulesError, match="needs pass_call_options"):
        preset("standard").replace(pass_schedule=("dealer_calls",))
    with pytest.raises(RulesError, match="no one sits across"):
        preset("dealer_calls", 5).replace(pass_call_options=("left", "across"))
    with pytest.raises(RulesError, match="no hand's pass is 'dealer_calls'"):
        preset("standard").replace(pass_call_options=("left",))
    with pytest.raises(RulesError, match="twice"):
        preset("dealer_calls").replace(pass_call_options=("left", "left"))
