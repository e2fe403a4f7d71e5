"""Cancellation Hearts through the runner (000; 003: two packs): a pass may give a card
twice only when both copies are held, a trick nobody won is recorded as -1, verified,
and shown; the strong house bot searches the two-pack game."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from arena.bots import HOUSE_BOTS, StrongBot
from arena.engine import Card, Hand, SeatView, preset
from arena.engine.variants.cancellation import CancellationHand
from arena.match.faults import FaultKind
from arena.match.judging import judge
from arena.match.render import render
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.match.verify import ReplayMismatchError, verify

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "arena/match/replay-v1.schema.json").read_text()
)


def _asked_to_pass(rules_name: str) -> tuple[Hand, Card, list[Card]]:
    """A dealt hand asking seat 0's pass, a card seat 0 holds twice (one it holds once
    under one pack) and two more cards it holds."""
    for seed in range(100):
        hand = Hand.deal(preset(rules_name), seed)
        held = hand.hand_of(0)
        twice = [c for c in held if getattr(held, "twice", 0) & c.mask]
        if twice or rules_name == "standard":
            card = twice[0] if twice else held.first()
            others = [c for c in held if c != card][:2]
            return hand, card, others
    raise AssertionError("no deal gives seat 0 a card twice")


def test_a_pass_gives_a_card_twice_only_when_both_copies_are_held() -> None:
    """The engine judges (arena.match.judging asks `Hand.check`): the same card twice is a
    legal pass of two packs when both copies are held, else an illegal answer."""
    hand, card, (other, _) = _asked_to_pass("cancellation_four")
    decision = hand.pending()
    assert decision is not None and decision.size == 3
    cards, fault = judge([str(card), str(card), str(other)], decision, hand)
    assert fault is None and list(cards) == [card, card, other]
    _, fault = judge([str(other), str(other), str(card)], decision, hand)
    assert fault is not None and fault.kind is FaultKind.ILLEGAL
    hand, card, (other, _) = _asked_to_pass("standard")
    decision = hand.pending()
    assert decision is not None
    _, fault = judge([str(card), str(card), str(other)], decision, hand)
    assert fault is not None and fault.kind is FaultKind.ILLEGAL and "twice" in fault.detail


class PassesItsFirstCardThrice(InProcessSeat):
    """Passes its lowest card three times: never a legal pass (two copies at most)."""

    async def choose_pass(
        self, view: SeatView, count: int, context: DecisionContext, timeout: float
    ) -> list[Card | str]:
        return [view.hand.first()] * count


def _match(rules_name: str, seats: list[InProcessSeat], seed: int = 3) -> MatchOutcome:
    rules = preset(rules_name).replace(max_hands=3)
    entrants = [Entrant(f"e{i}", seat) for i, seat in enumerate(seats)]
    outcome = MatchRunner(rules, entrants, seed).run()
    assert not outcome.void, outcome.void_reason
    jsonschema.validate(outcome.v1, SCHEMA)
    return outcome


def test_an_impossible_pass_is_a_fault_and_the_default_pass_is_made() -> None:
    seats: list[InProcessSeat] = [PassesItsFirstCardThrice(HOUSE_BOTS["random"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    outcome = _match("cancellation_four", seats)
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert faults and faults[0]["kind"] == "illegal"
    first = outcome.v1["games"][0]["hands"][0]
    given = next(p for p in first["passes"] if p["seat"] == 0)
    assert given["fault"] == "illegal"
    assert verify(outcome.v1).decisions > 0


def _unwon(outcome: MatchOutcome) -> tuple[int, int]:
    hands = outcome.v1["games"][0]["hands"]
    found = [
        (h, t)
        for h, hand in enumerate(hands)
        for t, trick in enumerate(hand["tricks"])
        if trick["winner"] == -1
    ]
    assert found, "no trick nobody won: pick another seed"
    return found[0]


def test_a_trick_nobody_won_is_recorded_verified_and_shown() -> None:
    outcome = _match(
        "cancellation_four", [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(4)], seed=11
    )
    h, t = _unwon(outcome)
    assert verify(outcome.v1).decisions > 0
    assert "→ nobody (set aside)" in "\n".join(render(outcome.v1))
    tampered = copy.deepcopy(outcome.v1)
    trick = tampered["games"][0]["hands"][h]["tricks"][t]
    trick["winner"] = trick["leader"]
    with pytest.raises(ReplayMismatchError, match=rf"hands\[{h}\]\.tricks\[{t}\]\.winner"):
        verify(tampered)


def test_a_tampered_twin_in_the_deal_is_named() -> None:
    outcome = _match("cancellation", [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in range(8)])
    tampered = copy.deepcopy(outcome.v1)
    deal = tampered["games"][0]["hands"][0]["deal"]
    seat, twin = next((s, c) for s, cards in enumerate(deal) for c in cards if cards.count(c) == 2)
    deal[seat].remove(twin)  # one copy fewer: no longer the deal the seed gives
    with pytest.raises(ReplayMismatchError, match=r"hands\[0\]\.deal"):
        verify(tampered)


def test_the_strong_bot_searches_the_two_pack_game() -> None:
    rules = preset("cancellation")
    hand = CancellationHand.deal(rules, seed=4)
    bot = StrongBot(1, time_per_move=None, max_samples=6)
    searched = 0
    while not hand.is_over:
        seat = hand.to_play
        assert seat is not None
        card = bot.play_card(hand.view(seat))
        assert card in hand.legal_plays()
        searched += bot.last_samples
        hand.play(card, seat=seat)
    assert searched > 0
