"""004 'Scoring variants', the no-hearts pledge: "A player may declare before the first card
is played that he or she will not take any hearts on the upcoming hand. If they succeed in
their pledge, they may subtract 10 penalty points, but if they take any hearts they are
assessed 10 additional penalty points." (`Rules.no_hearts_pledge`, `pledge_points`, the
`pledge` preset.)

Hand-built deals, through the public `Hand` on the backend in use (the suite runs on both
cores: ARENA_PUREPYTHON=1 for the reference).
"""

from __future__ import annotations

import pytest

from arena.engine import (
    Hand,
    IllegalPledgeError,
    OutOfTurnError,
    Phase,
    Rules,
    RulesError,
    preset,
)
from arena.engine.decisions import Action, Decision, DecisionKind

# Seat 3 holds every club and leads (dealer 2); it wins every trick: the moon.
ONE_SUIT_EACH = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]
# Seat 2 leads the 2C and seat 3 wins it and the next eleven tricks with its clubs; seat 0
# (no club, no heart) throws the 2D and its spades but the AS, which wins the last trick,
# led with seat 3's 2S, on which seats 1 and 2 throw their last hearts: seat 0 takes its
# first hearts on the LAST trick (every seat plays its lowest legal card).
LAST_TRICK_HEART = [
    "2D 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2H",
    "2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2S",
]


def pledge_rules(**changes: object) -> Rules:
    return preset("pledge").replace(pass_schedule=["hold"], **changes)


def pledge_all(hand: Hand, answers: dict[int, bool]) -> None:
    while (decision := hand.pending()) is not None and decision.kind is DecisionKind.PLEDGE:
        hand.apply(Action(DecisionKind.PLEDGE, decision.seat, answers.get(decision.seat, False)))


def _asked(hand: Hand) -> Decision:
    decision = hand.pending()
    assert decision is not None
    return decision


def play_out(hand: Hand) -> None:
    while not hand.is_over:
        hand.play(hand.legal_plays().first())


def test_each_seat_pledges_in_turn_from_the_dealers_left_before_the_first_card() -> None:
    hand = Hand.from_cards(pledge_rules(), ONE_SUIT_EACH, dealer=2)
    assert hand.phase is Phase.PLEDGING
    assert hand.to_play is None and not hand.legal_plays()
    with pytest.raises(OutOfTurnError, match="pledges to take no hearts"):
        hand.play("2C")
    asked = []
    while (decision := _asked(hand)).kind is DecisionKind.PLEDGE:
        asked.append(decision.seat)
        assert decision.legal == (False, True) and decision.default is False
        # each seat sees the answers before it
        assert hand.view(decision.seat).pledges == hand.pledges
        hand.apply(Action(DecisionKind.PLEDGE, decision.seat, decision.seat == 0))
    assert asked == [3, 0, 1, 2]
    assert hand.pledges == (True, False, False, False)
    assert hand.to_play == 3
    assert str(hand.phase) == "playing"


def test_the_pledges_come_after_the_pass() -> None:
    hand = Hand.deal(preset("pledge"), 7, dealer=0)
    assert hand.phase is Phase.PASSING and not hand.pledges_pending
    for seat in range(4):
        hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
    assert str(hand.phase) == "pledging" and hand.pledges_pending == (1,)


def test_a_pledge_out_of_turn_twice_or_not_a_bool_is_refused() -> None:
    hand = Hand.from_cards(pledge_rules(), ONE_SUIT_EACH, dealer=2)
    with pytest.raises(IllegalPledgeError, match="seat 3's turn"):
        hand.apply_pledge(0, True)
    with pytest.raises(IllegalPledgeError, match="true or false"):
        hand.apply_pledge(3, "yes")  # type: ignore[arg-type]
    pledge_all(hand, {})
    with pytest.raises(IllegalPledgeError, match="no pledge is due"):
        hand.apply_pledge(3, True)
    plain = Hand.from_cards(preset("standard").replace(pass_schedule=["hold"]), ONE_SUIT_EACH)
    with pytest.raises(IllegalPledgeError, match="no pledge"):
        plain.apply_pledge(1, True)


def test_the_pledge_kept_subtracts_ten() -> None:
    # Seats 0 and 2 never win a trick, so take no heart: they keep their pledges (no moon
    # here: seat 3's 26 stay its own).
    hand = Hand.from_cards(pledge_rules(moon="none"), ONE_SUIT_EACH, dealer=2)
    pledge_all(hand, {0: True, 2: True})
    play_out(hand)
    assert hand.points() == (0 - 10, 0, 0 - 10, 26)


def test_the_pledge_broken_on_the_last_trick_adds_ten() -> None:
    hand = Hand.from_cards(pledge_rules(), LAST_TRICK_HEART)
    pledge_all(hand, {0: True})
    play_out(hand)
    assert [trick.winner for trick in hand.tricks()] == [3] * 12 + [0]
    assert str(hand.taken(0)) == "2S AS 2H AH"
    assert hand.points()[0] == 2 + 10  # two hearts taken, and the pledge broken


def test_the_same_hand_without_the_pledge_scores_only_the_hearts() -> None:
    hand = Hand.from_cards(pledge_rules(), LAST_TRICK_HEART)
    pledge_all(hand, {})
    play_out(hand)
    assert hand.points()[0] == 2


def test_the_pledge_with_a_moon_the_shooter_breaks_his_and_the_others_keep_theirs() -> None:
    # The moon is scored first (old moon: the others +26), then the pledges: the shooter
    # took every heart (+10), the others none (-10).
    hand = Hand.from_cards(pledge_rules(), ONE_SUIT_EACH, dealer=2)
    pledge_all(hand, {0: True, 1: True, 3: True})
    play_out(hand)
    assert hand.points() == (26 - 10, 26 - 10, 26, 0 + 10)
    new_moon = Hand.from_cards(pledge_rules(moon="new"), ONE_SUIT_EACH, dealer=2)
    pledge_all(new_moon, {3: True})
    play_out(new_moon)
    assert new_moon.points() == (0, 0, 0, -26 + 10)


def test_the_pledge_is_worth_pledge_points() -> None:
    hand = Hand.from_cards(pledge_rules(moon="none", pledge_points=5), ONE_SUIT_EACH, dealer=2)
    pledge_all(hand, {0: True, 1: True})
    play_out(hand)
    # seat 1 held every heart but took none: it keeps its pledge too
    assert hand.points() == (-5, -5, 0, 26)


def test_no_pledge_changes_nothing() -> None:
    pledged = Hand.from_cards(pledge_rules(), ONE_SUIT_EACH, dealer=2)
    pledge_all(pledged, {})
    play_out(pledged)
    plain = Hand.from_cards(
        preset("standard").replace(pass_schedule=["hold"]), ONE_SUIT_EACH, dealer=2
    )
    play_out(plain)
    assert pledged.points() == plain.points()


def test_the_pledge_needs_hearts_that_score_and_the_plain_game() -> None:
    with pytest.raises(RulesError, match="no_hearts_pledge"):
        preset("heartless").replace(no_hearts_pledge=True)
    with pytest.raises(RulesError, match="no_hearts_pledge"):
        preset("domino").replace(no_hearts_pledge=True)
    with pytest.raises(RulesError, match="pledge_points"):
        preset("pledge").replace(pledge_points=0)
    assert preset("pledge").to_dict()["no_hearts_pledge"] is True
    assert "pledge_points" not in preset("pledge").to_dict()  # the source's 10
