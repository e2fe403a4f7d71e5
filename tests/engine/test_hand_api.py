"""The public `Hand` API: errors that say why, views that hide, undo, and determinism."""

import random
from typing import Any

import pytest

from arena.engine import (
    BACKEND_NAME,
    Card,
    CardSet,
    Hand,
    HandOverError,
    IllegalPassError,
    IllegalPlayError,
    OutOfTurnError,
    PassDirection,
    Phase,
    Rules,
    preset,
)

# A hand-built four-hand deal: seat 0 holds 2C; seat 3 holds only hearts and the QS
# apart from one club, so the first trick's rules show.
DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D 5D",
    "JC QC KC 6D 7D 8D 9D TD 2S 3S 4S 5S 6S",
    "AC JD QD KD AD 7S 8S 9S TS JS KS AS 2H",
    "QS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def standard_hand(**kwargs):
    return Hand.from_cards(preset("standard"), DEAL, **kwargs)


def play_out(hand, rng):
    while not hand.is_over:
        legal = hand.legal_plays()
        hand.play(legal.nth(rng.randrange(len(legal))))


def test_backend_in_use_is_reported():
    assert BACKEND_NAME in ("c", "reference")


def test_two_of_clubs_leads_and_wrong_lead_says_so():
    hand = standard_hand()
    assert hand.phase is Phase.PLAYING
    assert hand.to_play == 0
    assert hand.legal_plays() == CardSet.parse("2C")
    with pytest.raises(IllegalPlayError, match="must be opened with 2C") as info:
        hand.play("3C")
    assert info.value.card == Card.from_str("3C") and info.value.seat == 0


def test_card_not_in_hand():
    hand = standard_hand()
    with pytest.raises(IllegalPlayError, match="seat 0 does not hold AH"):
        hand.play("AH")


def test_unknown_card_text_is_a_value_error():
    with pytest.raises(ValueError, match="unknown card 'ZZ'"):
        standard_hand().play("ZZ")


def test_playing_out_of_turn():
    hand = standard_hand()
    with pytest.raises(OutOfTurnError, match="seat 2 cannot play AC: it is seat 0's turn"):
        hand.play("AC", seat=2)
    hand.play("2C", seat=0)
    assert hand.to_play == 1


def test_must_follow_suit_message_names_the_suit():
    hand = standard_hand()
    hand.play("2C")
    with pytest.raises(IllegalPlayError, match="must follow suit: clubs were led"):
        hand.play("6D")


def test_no_penalty_on_first_trick_but_allowed_when_nothing_else():
    hand = standard_hand()
    hand.play("2C")
    hand.play("JC")
    hand.play("AC")
    # Seat 3 holds no club and nothing but hearts and the QS: any of them is legal.
    assert hand.legal_plays() == hand.hand_of(3)
    hand.play("QS")
    assert hand.tricks()[0].winner == 2
    assert hand.hearts_broken


def test_hand_over_errors_and_points():
    hand = standard_hand()
    play_out(hand, random.Random(1))
    assert hand.is_over and hand.phase is Phase.OVER and hand.to_play is None
    with pytest.raises(HandOverError, match="the hand is over"):
        hand.play("2C")
    with pytest.raises(HandOverError):
        hand.play("2C", seat=0)
    points = hand.points()
    assert len(points) == 4
    assert sum(points) in (26, 78)  # 78 when someone shot the moon


def test_points_before_the_end_is_an_error():
    with pytest.raises(ValueError, match="not over"):
        standard_hand().points()


def test_pass_errors_are_specific():
    hand = standard_hand(pass_direction=PassDirection.LEFT)
    assert hand.phase is Phase.PASSING and hand.to_play is None
    with pytest.raises(IllegalPassError, match="left pass is 3 cards, not 2"):
        hand.apply_pass(0, "2C 3C")
    with pytest.raises(IllegalPassError, match="does not hold every card"):
        hand.apply_pass(0, "2C 3C AH")
    with pytest.raises(IllegalPassError, match="given twice"):
        hand.apply_pass(0, "2C 2C 3C")
    with pytest.raises(ValueError, match="seat 9"):
        hand.apply_pass(9, "2C 3C 4C")
    with pytest.raises(OutOfTurnError, match="still have to pass"):
        hand.play("2C")
    hand.apply_pass(0, "2C 3C 4C")
    with pytest.raises(IllegalPassError, match="already passed"):
        hand.apply_pass(0, "5C 6C 7C")
    assert hand.passes_pending == (1, 2, 3)


def test_a_hold_hand_refuses_passes():
    with pytest.raises(IllegalPassError, match="hold hand"):
        standard_hand().apply_pass(0, "2C 3C 4C")


def test_left_pass_moves_cards_and_is_recorded():
    hand = standard_hand(pass_direction="left")
    gifts = {0: "7C 8C 9C", 1: "2S 3S 4S", 2: "AS KS 2H", 3: "QS AH KH"}
    for seat, cards in gifts.items():
        hand.apply_pass(seat, cards)
    assert hand.phase is Phase.PLAYING
    for seat, cards in gifts.items():
        assert [str(c) for c in hand.passed(seat)] == cards.split()
        assert CardSet(hand.received((seat + 1) % 4)) == CardSet.parse(cards)
        assert all(card in hand.hand_of((seat + 1) % 4) for card in CardSet.parse(cards))
    assert hand.to_play == 0  # still holds the 2C


def test_view_hides_other_hands_and_shows_public_play():
    hand = standard_hand()
    hand.play("2C")
    view = hand.view(1)
    assert view.seat == 1 and view.hand == hand.hand_of(1)
    assert view.legal == hand.legal_plays()  # seat 1 is to play
    assert view.current_trick == ((0, Card.from_str("2C")),)
    other = hand.view(2)
    assert other.legal == CardSet()
    fields = set(type(view).__dataclass_fields__)
    assert "hands" not in fields  # no field can leak another seat's cards
    assert view.kitty is None


def test_push_and_pop_restore_everything():
    hand = Hand.deal(preset("standard"), seed=11, pass_direction="hold")
    before = (hand.to_play, [hand.hand_of(s) for s in range(4)], hand.tricks(), hand.hearts_broken)
    rng = random.Random(3)
    pushed = 0
    while not hand.is_over:
        legal = hand.legal_plays()
        hand.push(legal.nth(rng.randrange(len(legal))))
        pushed += 1
    assert pushed == 52
    for _ in range(pushed):
        hand.pop()
    after = (hand.to_play, [hand.hand_of(s) for s in range(4)], hand.tricks(), hand.hearts_broken)
    assert after == before
    with pytest.raises(IndexError):
        hand.pop()


def test_illegal_play_changes_nothing():
    hand = standard_hand()
    hand.play("2C")
    before = (hand.to_play, hand.current_trick, hand.hand_of(1))
    with pytest.raises(IllegalPlayError):
        hand.play("6D")
    assert (hand.to_play, hand.current_trick, hand.hand_of(1)) == before


@pytest.mark.parametrize("seed", range(5))
def test_same_seed_and_decisions_replay_identically(seed):
    rules = preset("standard")

    def run():
        hand = Hand.deal(rules, seed, pass_direction="left")
        rng = random.Random(seed)
        for s in range(4):
            hand.apply_pass(s, rng.sample(list(hand.hand_of(s)), 3))
        play_out(hand, rng)
        return hand.tricks(), hand.points(), [hand.received(s) for s in range(4)]

    assert run() == run()


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (DEAL[:3], "expected cards for 4 seats"),
        ([DEAL[0], DEAL[0], DEAL[2], DEAL[3]], "impossible deal"),
        ([DEAL[0] + " AH", DEAL[1], DEAL[2], DEAL[3]], "impossible deal"),
        (["2C 2C 3C 4C 5C 6C 7C 8C 9C TC 2D 3D 4D", DEAL[1], DEAL[2], DEAL[3]], "same card twice"),
    ],
)
def test_impossible_deals_are_refused(cards, message):
    with pytest.raises(ValueError, match=message):
        Hand.from_cards(preset("standard"), cards)


def test_dealer_must_be_a_seat():
    with pytest.raises(ValueError, match="dealer 4"):
        Hand.deal(Rules(), 1, dealer=4)


def test_deal_is_deterministic_and_partitions_the_deck():
    rules = preset("standard", players=5)
    a, b = Hand.deal(rules, 99), Hand.deal(rules, 99)
    hands = [a.hand_of(s) for s in range(5)]
    assert hands == [b.hand_of(s) for s in range(5)]
    assert all(len(h) == 10 for h in hands)
    union = CardSet()
    for h in hands:
        assert not (union & h)
        union |= h
    assert union == rules.deck
    assert Hand.deal(rules, 100).hand_of(0) != hands[0]


def test_fast_path_plays_indices_and_reports_codes():
    from arena.engine import config

    hand = standard_hand()
    assert hand.legal_mask() == Card.from_str("2C").mask
    assert hand.try_play_index(Card.from_str("3C").index) == config.ERR_MUST_LEAD_OPENING_CARD
    assert hand.to_play == 0  # nothing changed
    assert hand.try_play_index(Card.from_str("2C").index) == 0
    assert hand.to_play == 1
    assert hand.try_play_index(99) == config.ERR_BAD_CARD
    hand.push_index(Card.from_str("JC").index)
    assert hand.current_trick[-1] == (1, Card.from_str("JC"))
    hand.pop()
    assert hand.to_play == 1


def test_fast_path_passes_indices():
    from arena.engine import config

    hand = standard_hand(pass_direction="left")
    two_c, three_c = Card.from_str("2C").index, Card.from_str("3C").index
    assert hand.try_pass_indices(0, (two_c, three_c)) == config.ERR_PASS_COUNT
    assert hand.try_pass_indices(0, (two_c, three_c, 51)) == config.ERR_PASS_NOT_IN_HAND
    assert hand.try_pass_indices(0, (two_c, three_c, Card.from_str("4C").index)) == 0
    assert hand.passes_pending == (1, 2, 3)


# 004 'Passing cards': cards that may not be passed, and star passing at an odd table.

NO_HONOURS = preset("standard").replace(pass_forbidden="QS KS AS")


def honours_hand(**kwargs):
    return Hand.from_cards(NO_HONOURS, DEAL, pass_direction="left", **kwargs)


def test_passing_a_forbidden_card_names_it_and_the_rule():
    hand = honours_hand()
    with pytest.raises(IllegalPassError, match=r"AS KS may not be passed .*004 'Passing cards'"):
        hand.apply_pass(2, "AS KS 2H")
    with pytest.raises(IllegalPassError) as info:
        hand.apply_pass(3, "QS AH KH")
    assert info.value.code == 16 and info.value.seat == 3
    assert "QS" in str(info.value) and "AH" not in str(info.value).split(":")[-1]
    assert hand.passes_pending == (0, 1, 2, 3)
    hand.apply_pass(2, "AD KD 2H")


def test_fast_path_pass_refuses_forbidden_cards():
    from arena.engine import config

    hand = honours_hand()
    indices = tuple(Card.from_str(text).index for text in ("QS", "AH", "KH"))
    assert hand.try_pass_indices(3, indices) == config.ERR_PASS_FORBIDDEN
    # The older codes still come first.
    assert hand.try_pass_indices(3, indices[:2]) == config.ERR_PASS_COUNT
    assert hand.try_pass_indices(3, (*indices[:2], 0)) == config.ERR_PASS_NOT_IN_HAND
    assert hand.passes_pending == (0, 1, 2, 3)


def test_passable_is_the_hand_minus_forbidden_cards_while_passing():
    hand = honours_hand()
    assert hand.passable(2) == hand.hand_of(2) - CardSet.parse("KS AS")
    assert hand.passable(3) == hand.hand_of(3) - CardSet.parse("QS")
    assert hand.passable(0) == hand.hand_of(0)
    for seat in range(4):
        hand.apply_pass(seat, list(hand.passable(seat))[:3])
    assert hand.phase is Phase.PLAYING
    assert all(hand.passable(seat) == CardSet() for seat in range(4))
    # A hold hand has nothing to pass; without forbidden cards everything may be passed.
    assert Hand.from_cards(NO_HONOURS, DEAL).passable(3) == CardSet()
    assert standard_hand(pass_direction="left").passable(3) == CardSet.parse(DEAL[3])
    with pytest.raises(ValueError, match="seat 4"):
        hand.passable(4)


def test_star_pass_for_five_players():
    rules = preset("standard", players=5).replace(
        pass_schedule=(PassDirection.STAR, PassDirection.LEFT)
    )
    hand = Hand.deal(rules, seed=8)
    assert hand.pass_direction is PassDirection.STAR
    with pytest.raises(IllegalPassError, match="star pass is 2 cards, not 3"):
        hand.apply_pass(0, list(hand.hand_of(0))[:3])
    gifts = {seat: tuple(hand.hand_of(seat))[-2:] for seat in range(5)}
    for seat, cards in gifts.items():
        hand.apply_pass(seat, cards)
    for seat in range(5):
        # Card 0 comes from the seat two to the right, card 1 from three to the right.
        assert hand.received(seat) == (gifts[(seat - 2) % 5][0], gifts[(seat - 3) % 5][1])
        assert set(hand.received(seat)) <= set(hand.hand_of(seat))
        assert len(hand.hand_of(seat)) == 10
    assert hand.view(0).received == hand.received(0)


def test_a_views_replace_is_dataclasses_replace_for_every_field():
    """`SeatView.replace` is the penny games' fast copy: it must change what it is told
    and keep every other field, as `dataclasses.replace` does, whatever the fields."""
    import dataclasses

    from arena.engine.hand import SeatView

    view = Hand.deal(preset("four_penny"), seed=5).view(1)
    for field in dataclasses.fields(SeatView):
        changed: Any = object()  # a value no field holds
        fast = view.replace(**{field.name: changed})
        assert fast == dataclasses.replace(view, **{field.name: changed})
        assert getattr(fast, field.name) is changed
    assert view.replace() == view
    with pytest.raises(TypeError, match="no field 'colour'"):
        view.replace(colour="red")
