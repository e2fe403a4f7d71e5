"""The heuristic house bot on the scoring of 004's older forms and Gong Zhu: a bonus trick
is taken, a bonus card is not given away, and the QS is no danger where it scores nothing."""

from __future__ import annotations

from arena.bots.heuristic import HeuristicBot
from arena.bots.strong import StrongBot
from arena.engine import Card, CardSet, Hand, Rules, preset


def small(rules: Rules, deal: list[str]) -> Hand:
    """A hand of `rules` on the cards of `deal` only (dealer 0); under Gong Zhu's
    exposures nobody exposes a card (tests/engine/test_gong_zhu_exposures.py does)."""
    held = CardSet.parse(" ".join(deal))
    values = {card: value for card, value in rules.card_values.items() if card in held}
    cut = rules.replace(removed_cards=rules.deck - held, card_values=values)
    hand = Hand.from_cards(cut, deal, dealer=0)
    while hand.exposures_pending:
        hand.apply_exposure(hand.exposures_pending[0], ())
    return hand


# The small deals hold no QS: no pig to reverse, nor to lead the next hand.
GONG_ZHU = preset("gong_zhu").replace(all_hearts_reverse_queen=False, dealer_rule="rotate")


def test_last_to_play_takes_the_sheep_rather_than_duck():
    hand = small(GONG_ZHU, ["2S 2H TC 4C", "5S 2D 3D 4D", "JD 5D 6D 7D", "4S 9S 5C 6C"])
    for card in ("2S", "5S", "JD"):  # seat 2, void in spades, throws the sheep away
        hand.play(card)
    assert hand.to_play == 3
    assert HeuristicBot().play_card(hand.view(3)) == Card.from_str("9S")


def test_a_void_seat_keeps_the_sheep_and_throws_a_card_worth_nothing():
    hand = small(GONG_ZHU, ["2S 2H TC 4C", "5S 2D 3D 4D", "JD 3C 6D 7D", "4S 9S 5C 6C"])
    hand.play("2S")
    hand.play("5S")
    assert hand.to_play == 2
    choice = HeuristicBot().play_card(hand.view(2))
    assert choice != Card.from_str("JD") and choice in hand.legal_plays()


def test_slobberhannes_discards_the_queen_of_clubs_before_the_worthless_queen_of_spades():
    deal = [
        "AD KD QD JD TD 9D 8D 7D",
        "QC QS AH KH QH JH TH 9H",
        "AS KS JS TS 9S 8S 7S 8H",
        "AC KC JC TC 9C 8C 7C 7H",
    ]
    hand = Hand.from_cards(preset("slobberhannes"), deal, dealer=3)
    hand.play("7D")  # seat 0 leads a diamond; seat 1 holds none
    assert HeuristicBot().play_card(hand.view(1)) == Card.from_str("QC")


# Gong Zhu's exposed cards: the heuristic bot (and the strong bot, which asks it) exposes a
# card only where doubling it is safe (docs/bots.md).
EXPOSING = [
    "QS 2S 3S 4S 5S AH 2H 3H JD AD 2D 3D TC",  # 5 spades with the pig; the JD with the AD
    "6S 7S 8S 9S TS JS KS AS 4H 5H 6H 7H 8H",
    "4D 5D 6D 7D 8D 9D TD QD KD 9H TH JH QH",
    "2C 3C 4C 5C 6C 7C 8C 9C JC QC KC AC KH",
]


def test_the_heuristic_bot_exposes_the_pig_with_five_spades_and_the_sheep_with_its_ace():
    hand = Hand.from_cards(preset("gong_zhu"), EXPOSING, dealer=3)
    assert hand.exposures_pending == (0,)
    view = hand.view(0)
    shown = HeuristicBot().expose(view, hand.exposable(0))
    assert CardSet(shown) == CardSet.parse("QS JD")  # never the AH nor the TC
    assert StrongBot(seed=1).expose(view, hand.exposable(0)) == shown


def _deal_with(first: str) -> list[str]:
    """Seat 0 holds `first`; the rest of the pack goes round the other three in card order."""
    rest = list(CardSet.parse(" ".join(EXPOSING)) - CardSet.parse(first))
    return [first, *(" ".join(str(c) for c in rest[k::3]) for k in range(3))]


def test_the_heuristic_bot_keeps_the_pig_hidden_with_four_spades_and_a_short_sheep():
    # 4 spades with the pig, 3 diamonds with the JD and AD: doubling either is a risk.
    hand = Hand.from_cards(
        preset("gong_zhu"), _deal_with("QS 2S 3S 4S AH 2H 3H 4H JD AD 2D TC 2C"), dealer=3
    )
    assert hand.exposable(0) == CardSet.parse("AH QS JD TC")
    assert HeuristicBot().expose(hand.view(0), hand.exposable(0)) == ()
