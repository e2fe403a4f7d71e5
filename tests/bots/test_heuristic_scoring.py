"""The heuristic house bot on the scoring of 004's older forms and Gong Zhu: a bonus trick
is taken, a bonus card is not given away, and the QS is no danger where it scores nothing."""

from __future__ import annotations

from arena.bots.heuristic import HeuristicBot
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
