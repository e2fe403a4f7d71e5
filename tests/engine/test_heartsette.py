"""Heartsette (004, 1911 'Heartsette'): the ♠2 out, twelve cards each, a widow of three
taken unseen by the first trick's winner, on the 1911 game's hearts-only count."""

from __future__ import annotations

import random

import pytest

from arena.engine import CardSet, Game, Hand, Suit, preset
from arena.engine.rules import RulesError

# Twelve cards each; the widow holds two hearts and the 2C. Seat 1 (left of dealer 0)
# leads; seat 3 wins the first trick with the AD.
DEAL = [
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
]
WIDOW = "KH AH 2C"


def heartsette_hand() -> Hand:
    return Hand.from_cards(preset("heartsette"), DEAL, dealer=0, kitty=WIDOW)


def test_heartsette_removes_the_two_of_spades_and_deals_twelve_each_and_a_widow_of_three():
    rules = preset("heartsette")
    assert "2S" not in rules.deck and len(rules.deck) == 51
    for seed in range(10):
        hand = Hand.deal(rules, seed, pass_direction="hold")
        assert all(len(hand.hand_of(seat)) == 12 for seat in range(4))
        assert len(hand.kitty) == 3
        dealt = CardSet()
        for seat in range(4):
            dealt |= hand.hand_of(seat)
        assert dealt | hand.kitty == rules.deck


def test_heartsette_is_for_four_players_only():
    with pytest.raises(RulesError, match="4"):
        preset("heartsette", players=3)


def test_the_player_left_of_the_dealer_leads_any_card_even_a_heart():
    hand = heartsette_hand()
    assert hand.to_play == 1
    assert hand.legal_plays() == hand.hand_of(1)  # "leading any card he chooses"
    hearts_first = Hand.from_cards(preset("heartsette"), DEAL, dealer=2, kitty=WIDOW)
    assert hearts_first.to_play == 3 and "2H" in hearts_first.legal_plays()


def test_a_void_player_may_throw_away_a_heart_on_the_first_trick():
    hand = heartsette_hand()
    hand.play("2D")  # seat 1 leads diamonds
    hand.play("3C")  # seat 2, void
    assert hand.legal_plays() == CardSet.parse("AD")  # seat 3 holds a diamond: must follow
    hand.play("AD")
    assert "QS" in hand.legal_plays()  # seat 0, void in diamonds: "any card he likes"


def test_the_widow_goes_unseen_to_the_first_tricks_winner_and_its_hearts_count():
    hand = heartsette_hand()
    for card in ("2D", "3C", "AD", "QS"):
        assert all(hand.view(seat).kitty is None for seat in range(4))
        hand.play(card)
    assert hand.kitty_owner == 3
    assert hand.kitty == CardSet.parse(WIDOW)
    widow = CardSet.parse(WIDOW).mask
    assert hand.taken(3).mask & widow == widow
    assert all(hand.view(seat).kitty is None for seat in (0, 1, 2))  # never shown to them
    assert hand.view(3).kitty == CardSet.parse(WIDOW)  # its taker knows what he took
    # The running count is public, so it leaves the unseen widow out until the hand ends;
    # then its two hearts are seat 3's with the rest it took.
    assert hand.view(0).points_taken[3] == 0
    rng = random.Random(3)
    while not hand.is_over:
        legal = hand.legal_plays()
        hand.play(legal.nth(rng.randrange(len(legal))))
    hearts = [len(hand.taken(seat) & CardSet.from_mask(Suit.HEARTS.mask)) for seat in range(4)]
    assert hearts[3] >= 2 and sum(hearts) == 13
    assert hand.points() == tuple(hearts)


def test_a_heartsette_game_settles_by_howell_and_every_heart_is_paid_for():
    rules = preset("heartsette").replace(max_hands=6)
    game = Game(rules, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        hand = game.hand
        while not hand.is_over:
            legal = hand.legal_plays()
            hand.play(legal.nth(rng.randrange(len(legal))))
        game.finish_hand()
    assert len(game.hand_points) == 6
    for points, paid in zip(game.hand_points, game.hand_scores, strict=True):
        assert sum(points) == 13  # every heart, the widow's included, is someone's
        assert sum(paid) == 0  # Howell's pool is exhausted with every deal
