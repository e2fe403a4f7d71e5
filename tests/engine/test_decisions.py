"""Decisions as data: every preset's hand is asked through `Hand.pending` and answered
through `Hand.apply`, and its `history` replays it (on the C core and the reference)."""

from __future__ import annotations

import random

import pytest

from arena.engine import (
    PRESETS,
    Hand,
    IllegalCallError,
    IllegalPassError,
    IllegalPlayError,
    preset,
)
from arena.engine.decisions import (
    ENGINE_KINDS,
    Action,
    Decision,
    DecisionKind,
    IllegalActionError,
)


def _deal(name: str, seed: int) -> Hand:
    rules = preset(name)
    return Hand.deal(
        rules, seed, dealer=seed % rules.players, pass_direction=rules.pass_schedule[0]
    )


def random_answer(decision: Decision, rng: random.Random) -> object:
    """A legal answer other than the default where there is a choice."""
    kind, legal = decision.kind, decision.legal
    if kind in (DecisionKind.PLAY, DecisionKind.REVEAL):
        return rng.choice(list(legal))
    if kind is DecisionKind.PASS:
        return tuple(rng.sample(list(legal), decision.size))
    if kind is DecisionKind.BID:
        low, high = legal
        return rng.choice([None, low, high]) if low <= high else None
    if kind is DecisionKind.EXPOSE:  # Gong Zhu: any subset of the exposable cards
        return tuple(card for card in legal if rng.random() < 0.5)
    return rng.choice(list(legal))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_played_by_one_loop_and_its_history_replays_it(name: str) -> None:
    rng = random.Random(name)
    hand = _deal(name, 11)
    kinds = set()
    while (decision := hand.pending()) is not None:
        kinds.add(decision.kind)
        assert decision.kind not in ENGINE_KINDS
        hand.apply(Action(decision.kind, decision.seat, random_answer(decision, rng)))
    assert hand.is_over
    again = _deal(name, 11)
    for action in hand.history:
        if action.kind in ENGINE_KINDS:
            continue  # the engine's own (a draw, a pickup): it makes it again by itself
        again.apply(action)
    assert again.history == hand.history
    assert again.points() == hand.points()
    assert {a.kind for a in hand.history} - ENGINE_KINDS == kinds


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("standard", DecisionKind.PASS),
        ("dealer_calls", DecisionKind.CALL),
        ("heartless", DecisionKind.REVEAL),
        ("auction", DecisionKind.BID),
        ("four_penny", DecisionKind.PENNY_PLAY),
        ("domino", DecisionKind.DRAW),
        ("enfle", DecisionKind.PICKUP),
        ("cancellation", DecisionKind.PLAY),
        ("gong_zhu", DecisionKind.EXPOSE),
    ],
)
def test_each_decision_kind_appears_where_its_rules_ask_it(name: str, kind: DecisionKind) -> None:
    hand = _deal(name, 3)
    while (decision := hand.pending()) is not None:
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    assert kind in {a.kind for a in hand.history}


def test_the_defaults_play_the_same_hand_as_the_old_entry_points() -> None:
    by_actions = _deal("standard", 5)
    while (decision := by_actions.pending()) is not None:
        by_actions.apply(Action(decision.kind, decision.seat, decision.default))
    by_methods = _deal("standard", 5)
    for seat in by_methods.passes_pending:
        by_methods.apply_pass(seat, list(by_methods.passable(seat))[:3])
    while not by_methods.is_over:
        by_methods.play(by_methods.legal_plays().first())
    assert by_actions.points() == by_methods.points()
    assert [str(t.cards) for t in by_actions.tricks()] == [
        str(t.cards) for t in by_methods.tricks()
    ]


def test_a_wrong_answer_raises_the_kinds_own_error_and_is_not_recorded() -> None:
    hand = _deal("standard", 5)
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.PASS
    with pytest.raises(IllegalPassError):
        hand.apply(Action(DecisionKind.PASS, decision.seat, ()))
    with pytest.raises(IllegalPlayError):
        hand.apply(Action(DecisionKind.PLAY, decision.seat, "2C"))
    with pytest.raises(IllegalCallError):
        hand.apply(Action(DecisionKind.CALL, decision.seat, "left"))
    with pytest.raises(IllegalActionError):
        hand.apply(Action(DecisionKind.DRAW, decision.seat, "2C"))
    assert hand.history == ()
    assert hand.pending() == decision


def test_the_dealers_call_must_come_from_the_dealer() -> None:
    rules = preset("dealer_calls")
    hand = Hand.deal(rules, 7, dealer=2, pass_direction="dealer_calls")
    decision = hand.pending()
    assert decision == Decision(
        DecisionKind.CALL, 2, rules.pass_call_options, rules.pass_call_options[0]
    )
    with pytest.raises(IllegalCallError, match="not the dealer"):
        hand.apply(Action(DecisionKind.CALL, 1, "right"))


def test_push_and_pop_leave_the_history_alone() -> None:
    hand = _deal("standard", 5)
    while (decision := hand.pending()) is not None and decision.kind is DecisionKind.PASS:
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    before = hand.history
    hand.push(hand.legal_plays().first())
    hand.pop()
    assert hand.history == before
