"""004 'Shooting the moon': the shooter's choice as the shooter's own decision.

"An alternate rule allows giving a player who shoots the moon the option of subtracting 26
points from his own score instead of adding 26 to his opponents' scores" (002's shooter's
choice too); "That a player who shoots the moon must add unless doing so would end the
game with the shooter losing ... In such a case, he may subtract"; "That a player may
subtract after a predetermined score has been reached by him or any other player".

Hand-built deals, through the public `Hand` on the backend in use (the suite runs on both
cores: ARENA_PUREPYTHON=1 for the reference); tests/engine/test_differential.py compares
the cores' `points(totals, target, choice)` and `shooter()`.
"""

from __future__ import annotations

import pytest

from arena.engine import Game, Hand, IllegalMoonChoiceError, Rules, RulesError, preset
from arena.engine.decisions import Action, Decision, DecisionKind

# One suit per seat: seat 3 holds every club, leads the 2C (dealer 2) and wins every
# trick, so it takes every card: the moon (and the sun).
ONE_SUIT_EACH = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]
# Seat 3 takes every trick but the last one's QS: no moon.
ADD = (26, 26, 26, 0)
SUBTRACT = (0, 0, 0, -26)


def rules(moon: str = "shooters_choice", **changes: object) -> Rules:
    return preset("standard").replace(moon=moon, pass_schedule=["hold"], **changes)


def shot(rules: Rules, totals: tuple[int, ...] = (0, 0, 0, 0)) -> Hand:
    """Seat 3 has shot the moon; the hand stands after the last trick."""
    hand = Hand.from_cards(rules, ONE_SUIT_EACH, dealer=2)
    hand.game_totals = totals
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    return hand


def asked(hand: Hand) -> Decision:
    decision = hand.pending()
    assert decision is not None
    return decision


def test_the_shooter_is_asked_after_the_last_trick() -> None:
    hand = shot(rules())
    decision = hand.pending()
    assert hand.is_over
    assert decision is not None
    assert decision.kind is DecisionKind.MOON_CHOICE
    assert decision.seat == 3
    assert decision.legal == ("add", "subtract")


def test_the_shooter_who_subtracts_scores_the_new_moon() -> None:
    hand = shot(rules())
    hand.apply(Action(DecisionKind.MOON_CHOICE, 3, "subtract"))
    assert hand.pending() is None
    assert hand.moon_choice == "subtract"
    assert hand.points() == SUBTRACT
    assert hand.history[-1] == Action(DecisionKind.MOON_CHOICE, 3, "subtract")


def test_the_shooter_who_adds_scores_the_old_moon_even_against_the_engines_pick() -> None:
    # Seat 3 trails: the engine would subtract, but the shooter may add.
    hand = shot(rules(), totals=(0, 0, 0, 60))
    assert asked(hand).default == "subtract"
    hand.apply_moon_choice(3, "add")
    assert hand.points((0, 0, 0, 60)) == ADD


@pytest.mark.parametrize(
    ("totals", "pick"),
    [((0, 0, 0, 0), "add"), ((0, 0, 0, 60), "subtract"), ((10, 50, 80, 90), "subtract")],
)
def test_without_an_answer_the_hand_scores_the_engines_pick(totals, pick) -> None:
    # The default (a fault, a timeout, a replay written before the shooter was asked) is
    # the pick every hand scored before: add while the shooter stays strictly ahead.
    hand = shot(rules(), totals)
    assert asked(hand).default == pick
    assert hand.points(totals) == (ADD if pick == "add" else SUBTRACT)


def test_only_the_shooter_may_choose_and_only_add_or_subtract_once() -> None:
    hand = shot(rules())
    with pytest.raises(IllegalMoonChoiceError, match="did not shoot the moon"):
        hand.apply(Action(DecisionKind.MOON_CHOICE, 1, "subtract"))
    with pytest.raises(IllegalMoonChoiceError, match="'add' or 'subtract'"):
        hand.apply_moon_choice(3, "double")
    hand.apply_moon_choice(3, "add")
    with pytest.raises(IllegalMoonChoiceError, match="no shooter's choice is due"):
        hand.apply_moon_choice(3, "subtract")


def test_the_old_and_the_new_moon_ask_nobody() -> None:
    for moon, scores in (("old", ADD), ("new", SUBTRACT)):
        hand = shot(rules(moon))
        assert hand.pending() is None
        assert hand.points() == scores
        with pytest.raises(IllegalMoonChoiceError):
            hand.apply_moon_choice(3, "add")


def test_no_choice_before_the_last_trick_or_without_a_moon() -> None:
    hand = Hand.from_cards(rules(), ONE_SUIT_EACH, dealer=2)
    assert hand.moon_choice_offered() is None
    with pytest.raises(IllegalMoonChoiceError):
        hand.apply_moon_choice(3, "subtract")
    # A dealt hand played lowest-first, where the penalty cards are shared: no moon.
    hand = Hand.deal(rules(), 5)
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert max(hand.points()) < 26
    assert hand.pending() is None
    assert hand.moon_choice_offered() is None


def test_add_unless_losing_asks_only_when_adding_would_sink_the_shooter() -> None:
    # 004's example: a 100-point game, the shooter on 90, another 95, the leader 63.
    losing = (95, 63, 70, 90)
    hand = shot(rules("add_unless_losing"), losing)
    decision = asked(hand)
    assert decision.kind is DecisionKind.MOON_CHOICE and decision.default == "subtract"
    hand.apply_moon_choice(3, "add")  # "he may subtract": he need not
    assert hand.points(losing) == ADD
    safe = shot(rules("add_unless_losing"), (40, 50, 60, 10))
    assert safe.pending() is None  # he must add
    assert safe.points((40, 50, 60, 10)) == ADD


def test_subtract_after_a_score_adds_until_some_total_has_reached_it() -> None:
    after_50 = rules("subtract_after_score", moon_subtract_after=50)
    below = shot(after_50, (49, 0, 10, 20))
    assert below.pending() is None
    assert below.points((49, 0, 10, 20)) == ADD
    # "reached by him or any other player": any seat's total, the shooter's own included
    for reached in ((50, 0, 10, 20), (0, 0, 10, 50)):
        hand = shot(after_50, reached)
        assert asked(hand).kind is DecisionKind.MOON_CHOICE
        hand.apply_moon_choice(3, "subtract")
        assert hand.points(reached) == SUBTRACT


def test_subtract_after_score_needs_its_score_and_only_that_moon_takes_one() -> None:
    with pytest.raises(RulesError, match="moon_subtract_after"):
        rules("subtract_after_score")
    with pytest.raises(RulesError, match="moon_subtract_after"):
        rules("old", moon_subtract_after=50)
    assert rules("subtract_after_score", moon_subtract_after=50).core_config().moon == 5


def test_a_game_asks_the_shooter_with_the_totals_before_the_hand() -> None:
    game = Game(preset("standard").replace(moon="shooters_choice"), seed=3)
    assert game.hand.game_totals == (0, 0, 0, 0)
    hand = game.hand
    while (decision := hand.pending()) is not None:
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    game.finish_hand()
    assert game.hand.game_totals == tuple(game.totals) != (0, 0, 0, 0)
