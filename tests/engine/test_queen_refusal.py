"""Rickety Kate's refusal of a passed QS (M. Kerwin, https://matthew.kerwin.net.au/games/
rickety-kate.html): "The receiving player has the right to refuse the Queen of Spades, in
which case another card must be passed in its place" (`Rules.queen_refusal`). Hand-built
deals; the engine suite also runs with ARENA_PUREPYTHON=1."""

from __future__ import annotations

import pytest

from arena.engine import Hand, IllegalPassError, IllegalQueenRefusalError, RulesError, preset
from arena.engine.decisions import Action, DecisionKind

RULES = preset("rickety_kate")
KITTY = "AC 2D 2S 2H"
# Seat 0 holds the QS and passes it left, to seat 1.
DEAL = [
    "QS 3S 4S 5S 3D 4D 5D 6D 7D 8D 9D TD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "6S 7S 8S 9S TS JS KS AS JD QD KD AD",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def cards(text: str) -> set[str]:
    return set(text.split())


def held(hand: Hand, seat: int) -> set[str]:
    return {str(card) for card in hand.hand_of(seat)}


def dealt(**kwargs: object) -> Hand:
    return Hand.from_cards(RULES, DEAL, dealer=3, kitty=KITTY, pass_direction="left", **kwargs)  # type: ignore[arg-type]


def pass_all(hand: Hand) -> None:
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))


def test_the_preset_plays_the_receivers_right_to_refuse_the_queen():
    assert RULES.queen_refusal is True
    assert preset("standard").queen_refusal is False


def test_the_receiver_is_asked_once_every_seat_has_passed_and_before_the_exchange():
    hand = dealt()
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    assert hand.passes_pending == (1, 2, 3)  # the giver has passed; the QS is held
    pass_all_but_first = ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H"))
    for seat, given in pass_all_but_first:
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    decision = hand.pending()
    assert decision is not None
    assert (decision.kind, decision.seat, decision.legal, decision.default) == (
        DecisionKind.REFUSE_QUEEN,
        1,
        (False, True),
        False,
    )
    assert "QS" in held(hand, 0) and hand.received(1) == ()  # not exchanged yet
    assert hand.to_play is None


def test_a_refusal_returns_the_queen_to_the_giver_and_the_replacement_goes_instead():
    hand = dealt()
    pass_all(hand)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.REPLACE_PASS
    assert decision.seat == 0 and decision.size == 1
    assert "QS" not in {str(c) for c in decision.legal}
    assert "3D" not in {str(c) for c in decision.legal}
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))
    assert "QS" in held(hand, 0) and "QS" not in held(hand, 1)
    assert {str(c) for c in hand.received(1)} == cards("9D 3D")
    assert [str(c) for c in hand.passed(0)] == ["9D", "3D"]  # in the QS's place
    assert hand.phase.value == "playing" and hand.to_play == 0  # the dealer's left leads
    assert [a.kind.value for a in hand.history[-2:]] == ["refuse_queen", "replace_pass"]


def test_an_accepted_queen_keeps_the_pass_as_given():
    hand = dealt()
    pass_all(hand)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, False))
    assert "QS" in held(hand, 1) and "QS" not in held(hand, 0)
    assert hand.phase.value == "playing" and hand.queen_refused is False


def test_the_replacements_default_is_the_givers_lowest_card_by_rank_then_suit():
    hand = dealt()
    pass_all(hand)  # seat 0 keeps 3S 4S 5S 4D .. TD: 3S is the lowest rank (a three)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    decision = hand.pending()
    assert decision is not None and str(decision.default) == "3S"


@pytest.mark.parametrize("bad", ["QS", "3D", "2C", "XX"])
def test_the_replacement_is_neither_the_queen_nor_a_card_already_passed_nor_anothers(bad: str):
    hand = dealt()
    pass_all(hand)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    with pytest.raises(IllegalQueenRefusalError):
        hand.apply(Action(DecisionKind.REPLACE_PASS, 0, bad))
    assert hand.pending() is not None and hand.pending().kind is DecisionKind.REPLACE_PASS  # type: ignore[union-attr]


def test_only_the_receiver_refuses_and_only_when_asked():
    hand = dealt()
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    with pytest.raises(IllegalQueenRefusalError):  # the other passes are not in yet
        hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    with pytest.raises(IllegalQueenRefusalError):
        hand.apply(Action(DecisionKind.REFUSE_QUEEN, 2, True))
    with pytest.raises(IllegalQueenRefusalError):
        hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, "yes"))
    with pytest.raises(IllegalQueenRefusalError):
        hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))


def test_the_giver_cannot_pass_again_while_its_queen_is_held():
    hand = dealt()
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    with pytest.raises(IllegalPassError):
        hand.apply(Action(DecisionKind.PASS, 0, ("4D", "5D")))


def test_an_illegal_pass_holding_the_queen_is_refused_as_any_pass():
    hand = dealt()
    with pytest.raises(IllegalPassError):
        hand.apply(Action(DecisionKind.PASS, 0, ("QS",)))
    with pytest.raises(IllegalPassError):
        hand.apply(Action(DecisionKind.PASS, 0, ("QS", "2C")))
    assert hand.passes_pending == (0, 1, 2, 3)


def test_no_refusal_is_asked_when_the_queen_is_not_passed():
    hand = dealt()
    hand.apply(Action(DecisionKind.PASS, 0, ("3D", "4D")))
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    assert hand.phase.value == "playing" and hand.queen_offer is None


def test_the_queen_passed_by_the_last_seat_to_pass_is_offered_too():
    hand = dealt()
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    hand.apply(Action(DecisionKind.PASS, 0, ("3D", "QS")))
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.REFUSE_QUEEN
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "TD"))
    assert [str(c) for c in hand.passed(0)] == ["3D", "TD"]


def test_a_queen_received_then_passed_on_is_not_offered_again_in_the_same_hand():
    # The pass is one exchange: the QS refused stays with its giver, who plays it.
    hand = dealt()
    pass_all(hand)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))
    while (decision := hand.pending()) is not None:
        assert decision.kind is DecisionKind.PLAY
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    assert sum(hand.points()) == 46


def test_a_giver_with_no_other_card_to_give_passes_the_queen_unasked():
    # Every other card of seat 0 is one the rules forbid passing: nothing can replace the QS.
    rules = RULES.replace(pass_forbidden="3S 4S 5S 4D 5D 6D 7D 8D 9D TD")
    hand = Hand.from_cards(rules, DEAL, dealer=3, kitty=KITTY, pass_direction="left")
    pass_all(hand)
    assert hand.phase.value == "playing" and hand.queen_offer is None
    assert "QS" in held(hand, 1)


def test_only_the_giver_and_the_receiver_know_of_the_offer_and_the_refusal():
    hand = dealt()
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    assert hand.view(0).queen_offer == (0, 1)
    assert hand.view(1).queen_offer is None  # not asked yet
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    assert hand.view(1).queen_offer == (0, 1)
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))
    for seat in (0, 1):
        view = hand.view(seat)
        assert (view.queen_offer, view.queen_refused) == ((0, 1), True)
    for seat in (2, 3):
        view = hand.view(seat)
        assert (view.queen_offer, view.queen_refused) == (None, None)


def test_a_hold_hand_asks_nothing():
    hand = Hand.from_cards(RULES, DEAL, dealer=3, kitty=KITTY, pass_direction="hold")
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.PLAY


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pass_schedule": ("left", "scatter")}, "scatter"),
        ({"pass_schedule": ("center",)}, "center"),
        (
            {"pass_schedule": ("dealer_calls",), "pass_call_options": ("left", "right")},
            "dealer_calls",
        ),
        ({"removed_cards": "QS", "kitty_size": 3}, "QS in play"),
    ],
)
def test_the_refusal_needs_the_queen_and_passes_with_one_receiver(
    change: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        RULES.replace(**change)


def test_star_passes_are_refused_at_odd_tables():
    with pytest.raises(RulesError, match="star"):
        preset("rickety_kate", 5).replace(pass_schedule=("left", "star"))


def test_the_rules_round_trip_with_the_refusal():
    from arena.engine import Rules

    assert Rules.from_dict(RULES.to_dict()).queen_refusal is True
    assert "queen_refusal" not in preset("standard").to_dict()


def test_the_pledges_follow_the_exchange_after_a_refusal():
    # With 004's no-hearts pledge too: the pledges start once the pass is exchanged.
    rules = RULES.replace(no_hearts_pledge=True)
    hand = Hand.from_cards(rules, DEAL, dealer=3, kitty=KITTY, pass_direction="left")
    pass_all(hand)
    assert hand.pledges_pending == ()
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    assert hand.pledges_pending == ()
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.PLEDGE
    assert "QS" in held(hand, 0)
