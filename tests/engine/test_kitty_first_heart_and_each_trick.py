"""004's two kitty rules:

- 'Deal' (three and five players): the set-aside cards "go to whoever takes the first
  heart" (`KittyTaker.FIRST_HEART`, the `first_heart_kitty` preset); when no trick holds a
  heart (every heart in play is in the kitty) the last trick's winner takes it.
- 'The Kitty and the First Trick': "the first trick takes one card, and the second trick
  takes the next, until the kitty is exhausted" (`KittyTaker.EACH_TRICK`, the
  `kitty_each_trick` preset): trick t's winner takes the kitty's t-th lowest card.

Hand-built deals through the public `Hand` on the backend in use (both cores in the suite);
tests/engine/test_differential.py compares the cores on random hands under both rules.
"""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Hand, Rules, RulesError, preset

# Three players, the whole pack: seat 0 every club, seats 1 and 2 none; the AH set aside.
FIRST_HEART_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D",
    "6D 7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S",
    "TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
]


def test_the_kitty_goes_to_whoever_takes_the_first_heart() -> None:
    rules = preset("first_heart_kitty").replace(pass_schedule=["hold"])
    hand = Hand.from_cards(rules, FIRST_HEART_DEAL, kitty="AH")
    for card in ["2C", "6D", "TS"]:  # no heart: the kitty stays
        hand.play(card)
    assert hand.kitty_owner is None and "AH" not in hand.taken(0)
    for card in ["3C", "7D", "2H"]:  # seat 0 takes the first heart
        hand.play(card)
    assert hand.kitty_owner == 0 and "AH" in hand.taken(0)
    hand.pop()
    assert hand.kitty_owner is None and "AH" not in hand.taken(0)


def test_first_points_would_take_it_with_no_heart() -> None:
    """The difference from 001's rule: under `first_points` a trick with the QS (a point
    card) takes the kitty; under `first_heart` only a heart does."""
    deal = [FIRST_HEART_DEAL[0], FIRST_HEART_DEAL[1], FIRST_HEART_DEAL[2]]
    for taker, owner in (("first_points", 0), ("first_heart", None)):
        rules = preset("first_heart_kitty").replace(
            pass_schedule=["hold"], kitty_taker=taker, first_trick="any"
        )
        hand = Hand.from_cards(rules, deal, kitty="AH")
        for card in ["2C", "6D", "QS"]:
            hand.play(card)
        assert hand.kitty_owner == owner, taker


def test_with_no_heart_in_any_trick_the_last_trick_takes_the_kitty() -> None:
    """Only the 2H in play, set aside: no trick holds a heart (our choice, as for 001's
    rule: the last trick's winner takes it)."""
    rules = Rules().replace(
        players=3,
        removed_cards=CardSet.parse("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
        card_values={"2H": 1, "QS": 13},
        kitty_size=1,
        kitty_taker="first_heart",
        pass_schedule=["hold"],
        broken_by="hearts_or_queen_discarded",
        moon="none",
    )
    deal = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    hand = Hand.from_cards(rules, deal, kitty="2H")
    while len(hand.tricks()) < 12:
        hand.play(hand.legal_plays().first())
    assert hand.kitty_owner is None
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert hand.kitty_owner == 0 and "2H" in hand.taken(0)
    assert hand.points() == (14, 0, 0)  # seat 0 took every trick, the QS and the 2H


# Three players, a kitty of four (12 tricks of 16 cards): seat 0 every club.
EACH_TRICK_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D",
    "5D 6D 7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S",
    "8S 9S TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H 9H TH",
]
EACH_TRICK_KITTY = "AH JH KH QH"


def each_trick_rules(**changes: object) -> Rules:
    return preset("standard", 4).replace(
        players=3,
        kitty_size=4,
        kitty_taker="each_trick",
        pass_schedule=["hold"],
        **changes,
    )


def test_the_kitty_goes_one_card_a_trick_lowest_first() -> None:
    hand = Hand.from_cards(each_trick_rules(), EACH_TRICK_DEAL, kitty=EACH_TRICK_KITTY)
    tricks = [
        (["2C", "5D", "8S"], 0, "JH"),
        (["2D", "6D", "9S"], 1, "QH"),
        (["2S", "TS", "3D"], 2, "KH"),
        (["JS", "4D", "3S"], 2, "AH"),
    ]
    for cards, winner, kitty_card in tricks:
        for card in cards:
            hand.play(card)
        assert hand.tricks()[-1].winner == winner
        assert kitty_card in hand.taken(winner)
        assert hand.kitty_owner == 0  # the first trick's winner
    assert hand.taken(2) == CardSet.parse("2S TS 3D JS 4D 3S KH AH")
    for card in ["QS", "3C", "4S"]:  # the kitty is exhausted: the trick takes no more
        hand.play(card)
    assert hand.taken(2) == CardSet.parse("2S TS 3D JS 4D 3S KH AH QS 3C 4S")
    for _ in range(13):  # undo back to the start: every kitty card returns
        hand.pop()
    assert hand.kitty_owner is None and all(not hand.taken(s) for s in range(3))
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert sum(len(hand.taken(s)) for s in range(3)) == 52
    assert sum(hand.points()) in (26, 52)


def test_a_kitty_larger_than_the_hand_leaves_its_rest_to_the_last_trick() -> None:
    """Seven players and only one trick each would never exhaust it: here a four-card kitty
    with two tricks (the rest goes with the last trick)."""
    rules = Rules().replace(
        players=3,
        removed_cards=CardSet.from_mask(
            ((1 << 52) - 1) & ~CardSet.parse("2C 3C 4C 2D 3D 4D 2S 3S 4S 2H").mask
        ),
        card_values={"2H": 1},
        kitty_size=4,
        kitty_taker="each_trick",
        pass_schedule=["hold"],
        pass_count=1,
        opening="left_of_dealer",
        first_trick="any",
    )
    hand = Hand.from_cards(rules, ["2C 3C", "2D 3D", "2S 3S"], kitty="4C 4D 4S 2H", dealer=2)
    for card in ["2C", "2D", "2S"]:
        hand.play(card)
    assert hand.taken(0) == CardSet.parse("2C 2D 2S 4C")
    for card in ["3C", "3D", "3S"]:
        hand.play(card)
    assert hand.taken(0) == CardSet.parse("2C 2D 2S 4C 3C 3D 3S 4D 4S 2H")


def test_each_trick_has_no_one_taker_to_show_the_kitty_to() -> None:
    with pytest.raises(RulesError, match="taker_only"):
        each_trick_rules(kitty_visibility="taker_only")
    for visibility in ("hidden", "face_up", "after_first_trick"):
        each_trick_rules(kitty_visibility=visibility)


def test_the_presets_tables() -> None:
    assert [preset("first_heart_kitty", n).kitty_size for n in (3, 5)] == [1, 2]
    assert [preset("kitty_each_trick", n).kitty_size for n in (3, 5, 6, 7)] == [1, 2, 4, 3]
    for name, players in (("first_heart_kitty", 4), ("kitty_each_trick", 4)):
        with pytest.raises(RulesError):
            preset(name, players)
