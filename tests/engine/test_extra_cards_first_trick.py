"""002 'Alternatives to the "Kitty" in 3 or 5 player games': "Deal out the extra cards to
players and allow the player with them to play an additional card on the first trick. Most
often, this will be an additional Club." (`Rules.extra_cards_first_trick`, preset
`extra_cards`.) Our reading, where 002 is silent on when: the first trick goes round once
from the leader, then each seat holding an extra card plays it to the same trick, in play
order from the leader. Hand-built deals on a cut-down deck, played card by card; the suite
runs on both cores (ARENA_PUREPYTHON=1 for the reference)."""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Game, Hand, Rules, preset
from arena.engine.hand import play_order
from arena.engine.rules import RulesError, standard_values


def small(rules: Rules, deal: list[str], dealer: int = 0) -> Hand:
    """A hand of `rules` on a deck cut down to the cards of `deal` (the values of the
    cards taken out go with them, and with them the moon, which such a deck cannot shoot),
    played as a hold hand (the hands are as given)."""
    held = CardSet.parse(" ".join(deal))
    removed = rules.deck - held
    values = {card: value for card, value in rules.card_values.items() if card in held}
    cut = rules.replace(
        removed_cards=rules.removed_cards | removed,
        card_values=values,
        moon="none",
        pass_schedule=("hold",),
        pass_count=0,
    )
    return Hand.from_cards(cut, deal, dealer=dealer)


def plays(hand: Hand, trick: int = 0) -> list[tuple[int, str]]:
    return [(seat, str(card)) for seat, card in hand.tricks()[trick].plays]


def play_seats(hand: Hand, cards: str) -> list[int]:
    """Play `cards` in order; the seat that was to play each."""
    seats = []
    for card in cards.split():
        seat = hand.to_play
        assert seat is not None
        seats.append(seat)
        hand.play(card)
    return seats


# Three players, ten cards: seat 1 (the dealer's left) holds the extra card.
THREE = ["3C 5D 6D", "2C 9C 7D 8D", "4C KC 9D"]


def test_the_seat_with_the_extra_card_plays_it_after_the_round():
    hand = small(preset("extra_cards"), THREE)
    assert hand.extra_card_seats == (1,)
    assert play_seats(hand, "2C 4C 3C") == [1, 2, 0]
    assert hand.to_play == 1, "the round is over, and seat 1 still holds its extra card"
    assert len(hand.current_trick) == 3
    hand.play("9C")
    assert plays(hand) == [(1, "2C"), (2, "4C"), (0, "3C"), (1, "9C")]


def test_the_extra_card_can_win_the_first_trick():
    hand = small(preset("extra_cards"), THREE)
    play_seats(hand, "2C 4C 3C 9C")
    assert hand.tricks()[0].winner == 1
    assert hand.leader == hand.to_play == 1


def test_after_the_first_trick_every_hand_is_even_and_the_tricks_are_one_a_seat():
    hand = small(preset("extra_cards"), THREE)
    play_seats(hand, "2C KC 3C 9C")
    assert hand.tricks()[0].winner == 2
    assert [len(hand.hand_of(seat)) for seat in range(3)] == [2, 2, 2]
    assert play_seats(hand, "9D 5D 7D") == [2, 0, 1]
    assert plays(hand, 1) == [(2, "9D"), (0, "5D"), (1, "7D")]
    assert play_seats(hand, "4C 6D 8D") == [2, 0, 1]
    assert hand.is_over and len(hand.tricks()) == hand.rules.hand_size == 3


def test_the_extra_card_must_follow_suit():
    hand = small(preset("extra_cards"), THREE)
    play_seats(hand, "2C 4C 3C")
    assert not hand.is_legal("7D"), "seat 1 holds the 9C, so its extra card is a club"
    assert hand.illegal_reason("7D")
    assert hand.is_legal("9C")


def test_an_extra_card_that_cannot_follow_is_a_discard_under_the_first_trick_ban():
    # Seat 1 leads its one club; its extra card is a discard, and with "no penalty card on
    # the first trick" (000 'The Play') it may not be the heart while it holds a diamond.
    rules = preset("extra_cards").replace(first_trick="no_penalty_cards")
    hand = small(rules, ["3C 5D 6D", "2C QH 7D 8D", "4C KC 9D"])
    play_seats(hand, "2C 4C 3C")
    assert hand.to_play == 1
    assert not hand.is_legal("QH")
    assert hand.legal_plays() == CardSet.parse("7D 8D")
    hand.play("8D")
    assert hand.tricks()[0].winner == 2, "the 4C is the highest club played"


# Five players, twelve cards: two extra cards, held by seats 3 (who leads the 2C) and 1.
FIVE = ["7C 6D", "5C 6C 5D", "8C 7D", "2C 3C 4D", "9C 8D"]


def test_five_players_play_their_two_extra_cards_in_order_from_the_leader():
    hand = small(preset("extra_cards", 5), FIVE, dealer=0)
    assert hand.extra_card_seats == (1, 3)
    seats = play_seats(hand, "2C 9C 7C 5C 8C 3C 6C")
    assert seats == [3, 4, 0, 1, 2, 3, 1], "the leader's extra card comes first"
    assert seats == list(play_order(3, 5, (1, 3)))
    assert hand.tricks()[0].winner == 4
    assert [len(hand.hand_of(seat)) for seat in range(5)] == [1] * 5


def test_the_deal_gives_the_extra_cards_to_the_first_seats_from_the_dealers_left():
    for players, dealer, extra in ((3, 2, (0,)), (5, 3, (0, 4)), (5, 0, (1, 2))):
        rules = preset("extra_cards", players)
        hand = Hand.deal(rules, 2026, dealer=dealer, pass_direction="hold")
        assert hand.extra_card_seats == extra
        sizes = [len(hand.hand_of(seat)) for seat in range(players)]
        assert sizes == [rules.hand_size + (seat in extra) for seat in range(players)]
        assert not hand.kitty


def test_a_passed_hand_keeps_its_extra_card_and_every_card_is_played_once():
    rules = preset("extra_cards", 5)
    for seed in range(20):
        game = Game(rules, seed=seed)
        hand = game.hand
        while hand.phase.value == "passing":
            seat = next(s for s in range(5) if not hand.passed(s))
            hand.apply_pass(seat, list(hand.hand_of(seat))[: rules.pass_count])
        while not hand.is_over and hand.legal_plays():
            hand.play(hand.legal_plays().first())
        first, *rest = hand.tricks()
        assert len(first.plays) == 5 + 2
        assert all(len(trick.plays) == 5 for trick in rest)
        assert len(hand.tricks()) == rules.hand_size
        played = CardSet()
        for trick in hand.tricks():
            assert not played & trick.cards
            played |= trick.cards
        assert played == rules.deck


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kitty_size": 1}, "kitty_size 0"),
        ({"players": 4, "pass_schedule": ("left",)}, "deal evenly"),
        ({"scoring_suit_choice": "revealed"}, "scoring_suit_choice"),
    ],
)
def test_extra_cards_refuse_a_kitty_an_even_deal_and_a_chosen_suit(change, message):
    rules = preset("extra_cards")
    with pytest.raises(RulesError, match=message):
        rules.replace(**change)


def test_extra_cards_are_refused_by_the_variant_games():
    with pytest.raises(RulesError, match="hearts core only"):
        preset("cancellation").replace(extra_cards_first_trick=True)


def test_extra_cards_round_trip_in_the_rules_json():
    rules = preset("extra_cards", 5)
    assert rules.to_dict()["extra_cards_first_trick"] is True
    assert Rules.from_dict(rules.to_dict()) == rules
    assert "extra_cards_first_trick" not in preset("standard").to_dict()
    assert rules.card_values == {
        **standard_values(),
        CardSet.parse("JD").first(): -10,
    }
