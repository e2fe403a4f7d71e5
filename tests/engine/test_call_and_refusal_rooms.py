"""The dealer's call (003 'Simple variations') and Rickety Kate's refusal of a passed QS
(M. Kerwin) as rooms (`arena.engine.phases.calling`, `queen_refusal`): the engine judges
an answer once (`Hand.check`, the fault it is named on the error, nothing changed), says
who has still to answer when a card comes too soon, and `Hand` holds none of their state
(issue 32, item 1). The engine suite also runs with ARENA_PUREPYTHON=1."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import arena.engine.hand as hand_module
from arena.engine import Hand, IllegalCallError, IllegalQueenRefusalError, OutOfTurnError, preset
from arena.engine.decisions import Action, CountedCall, DecisionKind
from arena.engine.phases import fault_of

from .test_queen_refusal import dealt, pass_all


def calling() -> Hand:
    return Hand.deal(preset("dealer_calls"), 7, dealer=2, pass_direction="dealer_calls")


@pytest.mark.parametrize(
    ("seat", "answer", "fault", "said"),
    [
        (2, "sideways", "malformed", "'sideways' is not a pass direction"),
        (
            2,
            "hold",
            "illegal",
            "the dealer may call left, right, across, center, scatter, not hold",
        ),
        (1, "left", "illegal", "seat 1 is not the dealer (2)"),
        (2, ["left", "up", "left"], "malformed", "'up' in a split is not a pass direction"),
        (2, ["left", "right"], "illegal", "a split of 2 directions; 3 cards are passed"),
        (2, CountedCall("left", 2), "illegal", "the dealer may call 3 cards, not 2"),
    ],
)
def test_a_call_the_dealer_may_not_make_is_refused_with_its_fault_and_changes_nothing(
    seat: int, answer: object, fault: str, said: str
) -> None:
    hand = calling()
    with pytest.raises(IllegalCallError, match=re.escape(said)) as refused:
        hand.check(Action(DecisionKind.CALL, seat, answer))
    assert fault_of(refused.value) == fault
    assert hand.calls_pending == (2,) and hand.phase.value == "calling"
    with pytest.raises(IllegalCallError, match=re.escape(said)):
        hand.apply(Action(DecisionKind.CALL, seat, answer))
    assert hand.calls_pending == (2,) and hand.history == ()


def test_the_dealers_call_is_checked_then_applied_in_the_form_check_gives() -> None:
    hand = calling()
    checked = hand.check(Action(DecisionKind.CALL, 2, ["right", "left", "left"]))
    assert checked == ("right", "left", "left")
    hand.apply(Action(DecisionKind.CALL, 2, checked))
    assert hand.phase.value == "passing" and hand.calls_pending == ()
    assert hand.pass_direction.value == "split" and hand.call_options == ()
    with pytest.raises(IllegalCallError, match="no pass is to be called now"):
        hand.check(Action(DecisionKind.CALL, 2, "left"))


def test_a_call_under_rules_without_the_dealers_call_is_refused_by_its_room() -> None:
    hand = Hand.deal(preset("standard"), 7)
    with pytest.raises(IllegalCallError, match="these rules have no dealer's call") as refused:
        hand.check(Action(DecisionKind.CALL, 0, "left"))
    assert fault_of(refused.value) == "illegal"
    with pytest.raises(ValueError, match="needs rules with pass_call_options"):
        Hand.deal(preset("standard"), 7, pass_direction="dealer_calls")


def test_a_card_played_while_the_queen_is_offered_says_who_has_still_to_answer() -> None:
    hand = dealt()
    pass_all(hand)
    with pytest.raises(OutOfTurnError, match="seat 1 has still to refuse or accept the QS"):
        hand.play("2C")
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    with pytest.raises(OutOfTurnError, match="seat 0 has still to pass a card in the refused"):
        hand.play("2C")


@pytest.mark.parametrize(
    ("kind", "seat", "answer", "fault"),
    [
        (DecisionKind.REFUSE_QUEEN, 1, "yes", "malformed"),
        (DecisionKind.REFUSE_QUEEN, 2, True, "illegal"),  # the QS is passed to seat 1
        (DecisionKind.REPLACE_PASS, 0, "9D", "illegal"),  # nobody has refused it
    ],
)
def test_a_refusal_that_may_not_be_made_is_refused_with_its_fault(
    kind: DecisionKind, seat: int, answer: object, fault: str
) -> None:
    hand = dealt()
    pass_all(hand)
    with pytest.raises(IllegalQueenRefusalError) as refused:
        hand.check(Action(kind, seat, answer))
    assert fault_of(refused.value) == fault
    assert hand.queen_pending == (DecisionKind.REFUSE_QUEEN, 1)


@pytest.mark.parametrize(("answer", "fault"), [("XX", "malformed"), ("3D", "illegal")])
def test_a_replacement_that_may_not_be_passed_is_refused_with_its_fault(
    answer: str, fault: str
) -> None:
    hand = dealt()
    pass_all(hand)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    with pytest.raises(IllegalQueenRefusalError) as refused:
        hand.apply(Action(DecisionKind.REPLACE_PASS, 0, answer))  # 3D is passed already
    assert fault_of(refused.value) == fault
    assert hand.queen_pending == (DecisionKind.REPLACE_PASS, 0)


def test_a_refusal_under_rules_without_it_is_refused_by_its_room() -> None:
    hand = Hand.deal(preset("standard"), 7)
    for kind in (DecisionKind.REFUSE_QUEEN, DecisionKind.REPLACE_PASS):
        with pytest.raises(IllegalQueenRefusalError, match="these rules have no refusal"):
            hand.check(Action(kind, 1, True))


def test_the_hand_class_stays_within_its_size() -> None:
    """Issue 32: `Hand` at most 1,200 lines, its phases in their rooms."""
    tree = ast.parse(Path(hand_module.__file__).read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Hand"]
    assert node.end_lineno is not None
    assert node.end_lineno - node.lineno + 1 <= 1200
