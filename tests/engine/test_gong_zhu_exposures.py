"""Gong Zhu's exposed cards (Pagat, https://www.pagat.com/reverse/gongzhu.html: "There are
four cards which may be exposed by their holders before the start of play: ace of hearts,
queen of spades, jack of diamonds, ten of clubs. The effect of exposing a card is basically
to double its value"; Wikipedia 'Gong Zhu': "An exposed card may not be played the first
time its suit is led, including the lead itself, unless it is a singleton"). Our scores are
Pagat's negated (lower wins). Hand-built deals; the suite runs on both cores
(ARENA_PUREPYTHON=1 for the reference)."""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Hand, IllegalExposureError, IllegalPlayError, Rules, preset
from arena.engine import config as core_config
from arena.engine.decisions import Action, DecisionKind
from arena.engine.hand import Phase
from arena.engine.rules import RulesError


def small(deal: list[str], rules: Rules | None = None, dealer: int = 0) -> Hand:
    """A Gong Zhu hand on a deck cut down to the cards of `deal` (the values of the cards
    taken out go with them)."""
    rules = rules or preset("gong_zhu")
    held = CardSet.parse(" ".join(deal))
    values = {card: value for card, value in rules.card_values.items() if card in held}
    cut = rules.replace(removed_cards=rules.removed_cards | (rules.deck - held), card_values=values)
    return Hand.from_cards(cut, deal, dealer=dealer)


def expose(hand: Hand, shown: dict[int, str] | None = None) -> None:
    """Every seat answers in turn: the cards of `shown` (by seat), none otherwise."""
    shown = shown or {}
    while hand.exposures_pending:
        seat = hand.exposures_pending[0]
        hand.apply_exposure(seat, shown.get(seat, ""))


def play(hand: Hand, cards: str) -> None:
    for card in cards.split():
        hand.play(card)


def play_out(hand: Hand) -> None:
    while not hand.is_over:
        hand.play(hand.legal_plays().first())


# The holder of every spade leads the 2S and, the others void, takes all 52 cards: the
# sixteen scoring cards, reversed and doubled (test_older_forms: -800 without exposures).
ONE_SUIT_EACH = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]
HOLDERS = {"QS": 0, "AH": 1, "TC": 2, "JD": 3}


@pytest.mark.parametrize(
    ("shown", "points"),
    [
        ("", (-200 - 100 - 100) * 2),
        ("AH", (-400 - 100 - 100) * 2),  # "all hearts are worth double": all reds -400
        ("QS", (-200 - 200 - 100) * 2),  # the pig 200, reversed with all the hearts
        ("JD", (-200 - 100 - 200) * 2),  # the sheep -200
        ("TC", (-200 - 100 - 100) * 4),  # the transformer quadruples
        ("AH QS JD TC", (-400 - 200 - 200) * 4),
    ],
)
def test_gong_zhu_exposing_a_card_doubles_its_value(shown, points):
    hand = Hand.from_cards(preset("gong_zhu"), ONE_SUIT_EACH, dealer=3)
    expose(hand, {HOLDERS[card]: card for card in shown.split()})
    play_out(hand)
    assert hand.points() == (points, 0, 0, 0)


# Seat 0 leads the 2S, seat 1 wins it with the AS, then leads both hearts and the 4D,
# which seat 2 wins with the 6D, taking the TC and (in ALL_REDS_NO_PIG) the pig.
SMALL = [
    "2S QS 2C 3C",
    "AS 2H AH 4D",
    "2D 3D 5D 6D",
    "4C 5C 6C TC",
]
ALL_REDS_NO_PIG = "2S AS 2D 4C  2H 3D 5C 2C  AH 5D 6C 3C  4D 6D TC QS"
ALL_REDS_AND_PIG = "2S AS 2D 4C  2H 3D 5C QS  AH 5D 6C 2C  4D 6D TC 3C"


def test_gong_zhu_an_exposed_pig_doubles_and_an_exposed_transformer_quadruples():
    hand = small(SMALL)
    expose(hand, {0: "QS", 3: "TC"})
    play(hand, ALL_REDS_NO_PIG)
    # seat 2: the pig, 200 exposed, times four; seat 1: all reds, 2H AH, -50.
    assert hand.points() == (0, -50, 800, 0)


def test_gong_zhu_an_exposed_transformer_alone_counts_minus_a_hundred():
    hand = small(SMALL)
    expose(hand, {3: "TC"})
    play(hand, ALL_REDS_AND_PIG)
    # seat 2: the transformer alone, -50 doubled; seat 1: hearts and pig reversed.
    assert hand.points() == (0, -150, -100, 0)


def test_gong_zhu_all_reds_with_the_exposed_ace_and_pig_score_double():
    hand = small(SMALL)
    expose(hand, {0: "QS", 1: "AH"})
    assert hand.rules.value_of("AH") == 100 and hand.rules.value_of("QS") == 200
    play(hand, ALL_REDS_AND_PIG)
    # seat 1: the hearts (AH 100, 2H 0) and the pig (200) reversed; seat 2: TC alone.
    assert hand.points() == (0, -300, -50, 0)


def test_gong_zhu_seats_expose_in_turn_from_the_dealers_left_and_see_each_other():
    hand = Hand.from_cards(preset("gong_zhu"), ONE_SUIT_EACH, dealer=1)
    assert hand.phase is Phase.EXPOSING and hand.to_play is None
    decision = hand.pending()
    assert decision is not None
    assert (decision.kind, decision.seat, decision.legal, decision.default) == (
        DecisionKind.EXPOSE,
        2,
        CardSet.parse("TC"),
        (),
    )
    with pytest.raises(IllegalExposureError, match="seat 2's turn"):
        hand.apply_exposure(3, "JD")
    with pytest.raises(IllegalExposureError, match="cannot expose AC"):
        hand.apply_exposure(2, "AC")
    with pytest.raises(IllegalPlayError, match="exposes"):
        hand.play("2S")
    hand.apply(Action(DecisionKind.EXPOSE, 2, ("TC",)))
    assert hand.view(0).exposed == (None, None, CardSet.parse("TC"), None)
    hand.apply(Action(DecisionKind.EXPOSE, 3, ()))
    hand.apply(Action(DecisionKind.EXPOSE, 0, ("QS",)))
    assert hand.pending() == (DecisionKind.EXPOSE, 1, CardSet.parse("AH"), (), 0, None)
    hand.apply(Action(DecisionKind.EXPOSE, 1, ()))
    assert hand.phase.value == "playing" and hand.to_play == 0
    every = (CardSet.parse("QS"), CardSet(), CardSet.parse("TC"), CardSet())
    assert all(hand.view(seat).exposed == every for seat in range(4))
    assert hand.view(2).rules.value_of("QS") == 200
    assert [a.kind for a in hand.history] == [DecisionKind.EXPOSE] * 4
    with pytest.raises(IllegalExposureError, match="no exposure is due"):
        hand.apply_exposure(1, "AH")


def test_gong_zhu_exposes_nothing_by_default_and_plays_as_before():
    hand = Hand.from_cards(preset("gong_zhu"), ONE_SUIT_EACH, dealer=3)
    while (decision := hand.pending()) is not None:
        hand.apply(Action(decision.kind, decision.seat, decision.default))
    assert hand.points() == (-800, 0, 0, 0) and hand.rules == preset("gong_zhu")


# Seat 1 holds the AH and the 2H (and no spade in FOLLOW's first trick): the first trick is
# spades, won by seat 3 (FOLLOW) or by seat 1's AS (LEAD).
FOLLOW = ["2S 3S 5D 6D 8S", "AH 2H 4S 9D 4C", "5S 6S 2D 3D TC", "7S QS 4D JD 3H"]
LEAD = ["2S 3S 5D 6D 8S", "AH 2H AS 9D 4C", "5S 6S 2D 3D TC", "7S QS 4D JD 3H"]
SINGLETON = ["2S 3S 5D 6D 8S", "AH 8D AS 9D 4C", "5S 6S 2D 3D TC", "7S QS 4D JD 3H"]
DISCARD = ["2S 3S 5D 6D 8S", "AH 2H 7D 9D 4C", "5S 6S 2D 3D TC", "7S QS 4D JD 3H"]


def test_gong_zhu_an_exposed_card_may_not_be_led_the_first_time_its_suit_is_led():
    hand = small(LEAD)
    expose(hand, {1: "AH"})
    play(hand, "2S AS 5S 7S")
    assert hand.to_play == 1
    assert hand.legal_plays() == CardSet.parse("2H 9D 4C")
    with pytest.raises(IllegalPlayError, match="exposed") as refused:
        hand.play("AH")
    assert refused.value.code == core_config.ERR_EXPOSED_CARD == 20


def test_gong_zhu_an_exposed_card_may_not_follow_the_first_trick_of_its_suit():
    hand = small(FOLLOW)
    expose(hand, {1: "AH"})
    play(hand, "2S 4S 5S 7S  3H 5D")
    assert hand.to_play == 1 and hand.legal_plays() == CardSet.parse("2H")
    with pytest.raises(IllegalPlayError, match="singleton"):
        hand.play("AH")
    play(hand, "2H TC")  # seat 2 discards the TC: it was not exposed


def test_gong_zhu_an_exposed_singleton_may_be_led_at_once():
    hand = small(SINGLETON)
    expose(hand, {1: "AH"})
    play(hand, "2S AS 5S 7S")
    assert "AH" in {str(card) for card in hand.legal_plays()}
    play(hand, "AH")


def test_gong_zhu_an_exposed_card_is_free_once_its_suit_has_been_led():
    hand = small(LEAD)
    expose(hand, {1: "AH"})
    play(hand, "2S AS 5S 7S  2H 2D 3H 5D")  # hearts led; seat 3 wins with the 3H
    play(hand, "4D 6D 9D 3D")  # seat 1 wins with the 9D
    assert hand.to_play == 1 and hand.is_legal("AH")
    play(hand, "AH")


def test_gong_zhu_an_exposed_card_may_be_discarded_before_its_suit_is_led():
    hand = small(DISCARD)
    expose(hand, {1: "AH"})
    play(hand, "2S")
    assert hand.legal_plays() == CardSet.parse("AH 2H 7D 9D 4C")
    play(hand, "AH 5S 7S")
    assert {str(card) for card in hand.taken(3)} >= {"AH"}


def test_gong_zhu_search_undo_restores_the_suits_led():
    hand = small(LEAD)
    expose(hand, {1: "AH"})
    play(hand, "2S AS 5S 7S  2H 2D 3H 5D  4D 6D 9D 3D")
    assert hand.is_legal("AH")
    for _ in range(8):
        hand.pop()
    assert hand.to_play == 1 and not hand.is_legal("AH")


def test_exposures_need_gong_zhus_cards_and_the_plain_game():
    with pytest.raises(RulesError, match="TC as the doubler"):
        preset("standard").replace(exposures=True)
    with pytest.raises(RulesError, match="worth points"):
        preset("gong_zhu").replace(card_values={"QS": 100, "AH": 50})
    with pytest.raises(RulesError, match="pledge"):
        preset("gong_zhu").replace(no_hearts_pledge=True)
    assert preset("gong_zhu").exposures is True
    assert Rules.from_json(preset("gong_zhu").to_json()) == preset("gong_zhu")


def test_gong_zhu_rules_for_exposures_double_the_shown_cards_only():
    rules = preset("gong_zhu")
    assert rules.for_exposures(()) is rules
    shown = rules.for_exposures(["AH", "TC"])
    assert shown.value_of("AH") == 100 and shown.value_of("5H") == 20
    assert shown.value_of("QS") == 100 and shown.value_of("JD") == -100
    assert shown.doubler_alone_points == -100
