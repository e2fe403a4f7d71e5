"""000 'The Play': "Hearts may not be led until a heart or the queen of spades has been
discarded" (`BrokenBy.HEARTS_OR_QUEEN_DISCARDED`, the `standard` preset's rule): the QS
breaks hearts only when played to a trick of another suit; led, or following a spade lead,
it breaks nothing. 002's "Playing the Queen of Spades also breaks Hearts" stays
`BrokenBy.HEARTS_OR_QUEEN`, with its old meaning.

Hand-built deals through the public `Hand` on the backend in use (the suite runs on both
cores: ARENA_PUREPYTHON=1 for the reference); tests/engine/test_differential.py compares
the two cores on random hands under this rule.
"""

from __future__ import annotations

import pytest

from arena.engine import BrokenBy, Card, Hand, IllegalPlayError, Rules, Suit, preset
from arena.engine.config import ERR_NOT_BROKEN

# Seat 0 leads (left of dealer 3); seat 1 holds the QS with other spades.
QUEEN_FOLLOWS = [
    "2S 3S 4S 2C 3C 4C 5C 6C 2D 3D 4D 5D 2H",
    "QS 5S 6S 7C 8C 9C 6D 7D 8D 9D 3H 4H 5H",
    "AS 7S 8S TC JC QC TD JD QD KD 6H 7H 8H",
    "KS 9S TS JS KC AC AD 9H TH JH QH KH AH",
]
# Seat 1 holds the QS and no club.
QUEEN_DISCARDED = [
    "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 2S 3S 2H",
    "QS 4S 5S 6S 6D 7D 8D 9D TD 3H 4H 5H 6H",
    "8C 9C TC JC 7S 8S 9S JD QD 7H 8H 9H TH",
    "QC KC AC KD AD TS JS KS AS JH QH KH AH",
]


def rules(broken_by: str = "hearts_or_queen_discarded") -> Rules:
    """The standard game, no pass, seat 0 leading anything, anything on the first trick."""
    return preset("standard").replace(
        pass_schedule=["hold"], opening="left_of_dealer", first_trick="any", broken_by=broken_by
    )


def test_standard_breaks_by_a_heart_or_the_queen_discarded() -> None:
    for players in range(3, 8):
        assert preset("standard", players).broken_by is BrokenBy.HEARTS_OR_QUEEN_DISCARDED
    assert preset("two_player").broken_by is BrokenBy.HEARTS_OR_QUEEN_DISCARDED
    assert BrokenBy("hearts_or_queen") is BrokenBy.HEARTS_OR_QUEEN  # the old value stays


def test_the_queen_following_a_spade_lead_does_not_break_hearts() -> None:
    hand = Hand.from_cards(rules(), QUEEN_FOLLOWS, dealer=3)
    for card in ["2S", "QS", "AS", "KS"]:
        hand.play(card)
    assert hand.to_play == 2 and not hand.hearts_broken
    assert not any(card.suit is Suit.HEARTS for card in hand.legal_plays())
    with pytest.raises(IllegalPlayError) as caught:
        hand.play("6H")
    assert caught.value.code == ERR_NOT_BROKEN


def test_the_queen_led_does_not_break_hearts() -> None:
    deal = [QUEEN_FOLLOWS[1], QUEEN_FOLLOWS[2], QUEEN_FOLLOWS[3], QUEEN_FOLLOWS[0]]
    hand = Hand.from_cards(rules(), deal, dealer=3)
    for card in ["QS", "AS", "KS", "2S"]:
        hand.play(card)
    assert hand.to_play == 1 and not hand.hearts_broken


def test_the_queen_discarded_on_a_club_trick_breaks_hearts() -> None:
    hand = Hand.from_cards(rules(), QUEEN_DISCARDED, dealer=3)
    hand.play("2C")
    assert not hand.hearts_broken
    hand.play("QS")  # seat 1 has no club: a discard
    assert hand.hearts_broken
    hand.play("8C")
    hand.play("QC")
    assert hand.to_play == 3 and Card.from_str("JH") in hand.legal_plays()
    hand.play("JH")


def test_the_old_value_breaks_on_any_play_of_the_queen() -> None:
    """002 'Play variants': "Playing the Queen of Spades also breaks Hearts" (a replay
    stored with 'hearts_or_queen' keeps this meaning)."""
    hand = Hand.from_cards(rules("hearts_or_queen"), QUEEN_FOLLOWS, dealer=3)
    for card in ["2S", "QS", "AS", "KS"]:
        hand.play(card)
    assert hand.hearts_broken
    hand.play("6H")


def test_a_heart_discarded_still_breaks() -> None:
    hand = Hand.from_cards(rules(), QUEEN_DISCARDED, dealer=3)
    hand.play("2C")
    hand.play("3H")  # seat 1 has no club
    assert hand.hearts_broken


def test_stored_rules_keep_their_breaking_rule() -> None:
    old = Rules.from_json(preset("standard").replace(broken_by="hearts_or_queen").to_json())
    assert old.broken_by is BrokenBy.HEARTS_OR_QUEEN
    assert Rules.from_json(preset("standard").to_json()) == preset("standard")
