"""The strong bot's pass search under Rickety Kate's refusal of a passed QS (M. Kerwin:
"The receiving player has the right to refuse the Queen of Spades, in which case another
card must be passed in its place"): a QS passed to a seat that would refuse it comes back,
and another card goes in its place, in the search's deals as in the game."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from arena.bots import StrongBot
from arena.bots import passing as passing_module
from arena.bots.base import guards_queen
from arena.bots.passing import danger_order, settle_queen_offers
from arena.engine import CARDS, Card, Hand, preset
from arena.engine.backend import core
from arena.engine.decisions import Action, DecisionKind

RULES = preset("rickety_kate")
CFG = RULES.core_config()
LEFT = 1
QS = Card.from_str("QS").index


def mask(text: str) -> int:
    return sum(1 << Card.from_str(card).index for card in text.split())


def indices(text: str) -> tuple[int, ...]:
    return tuple(Card.from_str(card).index for card in text.split())


def names(cards: Sequence[int]) -> list[str]:
    return [str(CARDS[card]) for card in cards]


# Seat 0 holds the QS and passes it left, to seat 1.
GIVER = "QS AS 9H 3D 4D 5D 6D 7D 8D 9D TD JD"
OTHERS = {
    2: "6S 7S 8S 9S TS JS KS 2H 3H 4H 5H 6H",
    3: "7H 8H TH JH QH KH AH 2C 3C 4C 5C 6C",
}


def table(receiver: str) -> tuple[int, ...]:
    return (mask(GIVER), mask(receiver), mask(OTHERS[2]), mask(OTHERS[3]))


def passes(receiver_pass: str) -> dict[int, tuple[int, ...]]:
    return {
        0: indices("QS AS"),
        1: indices(receiver_pass),
        2: indices("KS 6H"),
        3: indices("AH KH"),
    }


def test_a_receiver_short_of_low_spades_refuses_and_the_next_dangerous_card_goes():
    dealt = table("2S 3S 4S 7C 8C 9C TC JC QC KC AC QD")  # three spades below the QS
    settled = settle_queen_offers(passes("QD AC"), dealt, LEFT, 0, CFG)
    # The QS stays with its giver; 9H, its most dangerous card left, goes in its place.
    assert names(settled[0]) == ["9H", "AS"]
    assert names(danger_order(dealt[0] & ~mask("QS AS"), CFG))[0] == "9H"
    assert {seat: settled[seat] for seat in (1, 2, 3)} == {
        seat: passes("QD AC")[seat] for seat in (1, 2, 3)
    }


def test_a_receiver_with_four_low_spades_accepts():
    dealt = table("2S 3S 4S 5S 8C 9C TC JC QC KC AC QD")
    assert settle_queen_offers(passes("QD AC"), dealt, LEFT, 0, CFG) == passes("QD AC")


def test_the_receiver_counts_its_spades_after_its_own_pass():
    dealt = table("2S 3S 4S 5S 8C 9C TC JC QC KC AC QD")
    settled = settle_queen_offers(passes("2S AC"), dealt, LEFT, 0, CFG)  # three kept
    assert names(settled[0]) == ["9H", "AS"]


def test_a_giver_with_no_card_to_spare_passes_the_queen_on():
    dealt = (mask("QS AS"), *table("2S 3S 4S 7C 8C 9C TC JC QC KC AC QD")[1:])
    assert settle_queen_offers(passes("QD AC"), dealt, LEFT, 0, CFG) == passes("QD AC")


def test_a_forbidden_card_never_goes_in_the_queens_place():
    dealt = table("2S 3S 4S 7C 8C 9C TC JC QC KC AC QD")
    settled = settle_queen_offers(passes("QD AC"), dealt, LEFT, mask("9H"), CFG)
    assert names(settled[0]) == ["JD", "AS"]


class _RecordingCore:
    """The engine core, recording each deal the search plays and the passes it applies."""

    def __init__(self) -> None:
        self.played: list[tuple[tuple[int, ...], dict[int, tuple[int, ...]]]] = []
        self.HandState = self._hand_state

    def _hand_state(self, cfg: Any, hands: tuple[int, ...], *args: Any) -> Any:
        state = core.HandState(cfg, hands, *args)
        applied: dict[int, tuple[int, ...]] = {}
        self.played.append((hands, applied))

        def apply_pass(seat: int, cards: tuple[int, ...]) -> int:
            applied[seat] = tuple(cards)
            return int(state.apply_pass(seat, cards))

        return SimpleNamespace(apply_pass=apply_pass, playout=state.playout)


def _giver_hand() -> Hand:
    """The deal before the pass: seat 0 holds the QS, seat 1 three spades below it."""
    return Hand.from_cards(
        RULES,
        [GIVER, "2S 3S 4S 7C 8C 9C TC JC QC KC AC QD", OTHERS[2], OTHERS[3]],
        dealer=3,
        kitty="2D 5S KD AD",
        pass_direction="left",
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_search_plays_each_sampled_deal_with_the_queen_settled(monkeypatch, seed):
    recording = _RecordingCore()
    monkeypatch.setattr(passing_module, "core", recording)
    bot = StrongBot(seed, time_per_move=None, max_samples=24)
    chosen = bot.pass_cards(_giver_hand().view(0), 2)
    assert len(chosen) == 2 and bot.last_samples == 24
    refused = accepted = 0
    for hands, applied in recording.played:
        receiver_keeps = hands[1] & ~sum(1 << card for card in applied[1])
        if guards_queen(receiver_keeps):
            accepted += "QS" in names(applied[0])
        else:
            # Whatever the candidate, a QS offered to this receiver came back.
            assert "QS" not in names(applied[0])
            refused += 1
    # The sampled receivers both refuse and accept (else the check above proves nothing).
    assert refused > 0 and accepted > 0


def test_the_strong_bots_replacement_is_the_card_its_search_assumed():
    hand = _giver_hand()
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "AS")))
    for seat, given in ((1, "QD AC"), (2, "KS 6H"), (3, "AH KH")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.REPLACE_PASS
    chosen = StrongBot(0, time_per_move=None, max_samples=4).replace_pass(
        hand.view(0), decision.legal
    )
    assumed = settle_queen_offers(
        passes("QD AC"), table("2S 3S 4S 7C 8C 9C TC JC QC KC AC QD"), LEFT, 0, CFG
    )
    assert str(chosen) == names(assumed[0])[0] == "9H"
