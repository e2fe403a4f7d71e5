"""004 'Passing cards': "The Dealer may choose how many cards and where to pass"
(`Rules.pass_call_counts`, the `dealer_counts` preset): the dealer's call carries the count
(`CountedCall`); a call without one passes `pass_count`, as every call before counts did.

Hand-built and dealt hands through the public `Hand` on the backend in use (the suite runs
on both cores: ARENA_PUREPYTHON=1 for the reference); tests/engine/test_differential.py
compares the cores at each count.
"""

from __future__ import annotations

import pytest

from arena.engine import Hand, IllegalCallError, IllegalPassError, Rules, RulesError, preset
from arena.engine.decisions import Action, CountedCall, Decision, DecisionKind


def dealt(rules: Rules | None = None, dealer: int = 1) -> Hand:
    rules = rules or preset("dealer_counts")
    return Hand.deal(rules, 11, dealer=dealer, pass_direction="dealer_calls")


def asked(hand: Hand) -> Decision:
    decision = hand.pending()
    assert decision is not None
    return decision


def test_the_dealer_is_asked_where_and_may_say_how_many() -> None:
    hand = dealt()
    decision = asked(hand)
    assert decision.kind is DecisionKind.CALL and decision.seat == 1
    assert hand.call_counts == (1, 2, 3, 4)
    assert decision.default == "left"  # a bare direction: pass_count cards


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_every_seat_passes_the_count_the_dealer_called(count: int) -> None:
    hand = dealt()
    hand.apply(Action(DecisionKind.CALL, 1, CountedCall("right", count)))
    assert hand.pass_direction.value == "right" and hand.pass_size == count
    decision = asked(hand)
    assert decision.kind is DecisionKind.PASS and decision.size == count
    for seat in range(4):
        hand.apply_pass(seat, list(hand.hand_of(seat))[:count])
    for seat in range(4):
        assert len(hand.received(seat)) == count
        assert set(hand.received(seat)) == set(list(dealt().hand_of((seat + 1) % 4))[:count])


def test_a_bare_direction_passes_pass_count() -> None:
    hand = dealt()
    hand.apply_call("across")
    assert hand.pass_size == 3
    with pytest.raises(IllegalPassError, match="3 cards, not 2"):
        hand.apply_pass(0, list(hand.hand_of(0))[:2])


def test_a_count_the_rules_do_not_list_is_refused() -> None:
    hand = dealt()
    for count in (0, 5, True, "2"):
        with pytest.raises(IllegalCallError, match="the dealer may call 1, 2, 3, 4 cards"):
            hand.apply_call(CountedCall("left", count))  # type: ignore[arg-type]
    with pytest.raises(IllegalCallError, match="may call left, right, across"):
        hand.apply_call(CountedCall("center", 2))
    plain = dealt(preset("dealer_calls"))
    with pytest.raises(IllegalCallError, match="the dealer may call 3 cards"):
        plain.apply_call(CountedCall("left", 2))
    plain.apply_call(CountedCall("left", 3))  # the rules' own count, said aloud
    assert plain.pass_size == 3


def test_a_split_passes_as_many_cards_as_it_names_directions() -> None:
    rules = preset("dealer_calls").replace(pass_call_counts=(2, 3))
    hand = dealt(rules)
    hand.apply_call(["right", "left"])
    assert hand.pass_size == 2 and [d.value for d in hand.pass_split] == ["right", "left"]
    with pytest.raises(IllegalCallError, match=r"one direction per passed card \(2 or 3\)"):
        dealt(rules).apply_call(["right", "left", "left", "right"])


def test_the_counts_must_hold_pass_count_and_fit_the_rules() -> None:
    with pytest.raises(RulesError, match="hold pass_count"):
        preset("dealer_counts").replace(pass_call_counts=(1, 2))
    with pytest.raises(RulesError, match="no hand's pass is 'dealer_calls'"):
        preset("standard").replace(pass_call_counts=(2, 3))
    with pytest.raises(RulesError, match="pass_call_counts: 14 cards"):
        preset("dealer_counts").replace(pass_call_counts=(3, 14))
    rules = preset("dealer_counts")
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.to_dict()["pass_call_counts"] == [1, 2, 3, 4]
    assert "pass_call_counts" not in preset("dealer_calls").to_dict()


def test_the_hold_and_the_star_keep_their_own_size() -> None:
    rules = preset("dealer_counts", 5).replace(
        pass_call_options=("left", "star", "hold"), pass_count=2, pass_call_counts=(1, 2)
    )
    hand = dealt(rules)
    hand.apply_call(CountedCall("star", 1))
    assert hand.pass_size == 2  # 004: "The players choose only two cards"
