"""Two-player Hearts: 004's 1911 text, "Hearts may be played by two, three, four or even
more players", "the entire pack is dealt out" (the `two_player` preset: 26 cards each, 000's
play, its left/right/across/hold rotation, each pass going to the other player).

Through the public `Hand` and `Game` on the backend in use (both cores in the suite);
tests/engine/test_differential.py compares the cores on random two-player hands.
"""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Game, Hand, PassDirection, Rules, RulesError, preset

TWO_HANDS = [
    "2C 4C 6C 8C TC QC AC 2D 4D 6D 8D TD QD AD 2S 4S 6S 8S TS QS AS 2H 4H 6H 8H TH",
    "3C 5C 7C 9C JC KC 3D 5D 7D 9D JD KD 3S 5S 7S 9S JS KS 3H 5H 7H 9H JH QH KH AH",
]


def test_two_players_hold_the_whole_pack() -> None:
    rules = preset("two_player")
    assert (rules.players, rules.hand_size, rules.kitty_size, rules.penalty_total) == (2, 26, 0, 26)
    hand = Hand.deal(rules, seed=7, dealer=1)
    assert sorted(len(hand.hand_of(s)) for s in range(2)) == [26, 26]
    assert len(hand.kitty) == 0


@pytest.mark.parametrize("direction", ["left", "right", "across"])
def test_every_pass_goes_to_the_other_player(direction: str) -> None:
    rules = preset("two_player")
    assert PassDirection(direction).offset(2) == 1
    hand = Hand.from_cards(rules, TWO_HANDS, pass_direction=direction)
    hand.apply_pass(0, ["2C", "QS", "TH"])
    hand.apply_pass(1, ["AH", "KH", "3C"])
    assert set(hand.received(1)) == set(CardSet.parse("2C QS TH"))
    assert set(hand.received(0)) == set(CardSet.parse("AH KH 3C"))
    assert hand.to_play == 1  # it holds the 2C now


def test_a_two_player_trick_has_two_cards() -> None:
    rules = preset("two_player").replace(pass_schedule=["hold"])
    hand = Hand.from_cards(rules, TWO_HANDS)
    hand.play("2C")
    hand.play("3C")
    assert hand.tricks()[-1].winner == 1 and hand.to_play == 1
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert len(hand.tricks()) == 26
    assert sum(hand.points()) == 26


def test_a_two_player_game_plays_to_its_end() -> None:
    game = Game(preset("two_player"), seed=11)
    while not game.is_over:
        hand = game.hand
        for seat in hand.passes_pending:
            hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
        while not hand.is_over:
            hand.play(hand.legal_plays().first())
        game.finish_hand()
    assert max(game.totals) >= 100


def test_two_players_are_refused_where_the_game_needs_more() -> None:
    with pytest.raises(RulesError):
        Rules().replace(players=1, pass_schedule=["hold"])
    with pytest.raises(RulesError):
        preset("two_player").replace(pass_schedule=["star"])  # an odd table's pass
    with pytest.raises(RulesError):
        preset("two_player").replace(pass_schedule=["left2"])
    with pytest.raises(RulesError, match="three"):
        preset("cancellation").replace(players=2, kitty_size=0)
    with pytest.raises(RulesError, match="three"):
        preset("four_penny").replace(players=2, penny_openings=2)


def test_the_moon_at_two_players() -> None:
    """Seat 1 holds the clubs and diamonds and wins every trick: 000's old moon gives the
    other player the 26."""
    spades_hearts = " ".join(f"{r}{s}" for s in "SH" for r in "23456789TJQKA")
    clubs_diamonds = " ".join(f"{r}{s}" for s in "CD" for r in "23456789TJQKA")
    hand = Hand.from_cards(
        preset("two_player").replace(pass_schedule=["hold"]), [spades_hearts, clubs_diamonds]
    )
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert all(trick.winner == 1 for trick in hand.tricks())
    assert hand.points() == (26, 0)
