"""Cards and card sets: the canonical text form and its errors."""

import pickle

import pytest

from arena.engine import CARDS, Card, CardParseError, CardSet, Suit


def test_every_card_round_trips_through_text_and_repr():
    for card in CARDS:
        assert Card.from_str(str(card)) is card
        assert eval(repr(card)) is card
    assert [str(c) for c in CARDS[:13]] == [
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "7C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
        "AC",
    ]


def test_index_order_is_suit_then_rank():
    assert Card.from_str("2C").index == 0
    assert Card.from_str("QS").index == 36
    assert Card.from_str("AH").index == 51
    assert Card.from_str("QS").suit is Suit.SPADES
    assert Card.from_str("QS").mask == 1 << 36


def test_lenient_input_canonical_output():
    assert str(Card.from_str("10h")) == "TH"
    assert str(Card.from_str(" qs ")) == "QS"
    assert Card.from_str("QS").pretty == "Q♠"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("XS", "rank 'X' at position 0"),
        ("QX", "suit 'X' at position 1"),
        ("", "expected rank"),
        ("QSS", "expected rank then suit"),
        ("1S", "rank '1'"),
    ],
)
def test_unknown_card_text_names_the_input_and_position(text, fragment):
    with pytest.raises(CardParseError, match=fragment) as info:
        Card.from_str(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_cards_are_immutable_and_pickle_to_the_same_object():
    card = Card.from_str("QS")
    with pytest.raises(AttributeError):
        card.index = 3
    assert pickle.loads(pickle.dumps(card)) is card


def test_card_set_operations_and_order():
    cards = CardSet.parse("AH 2C QS")
    assert str(cards) == "2C QS AH"
    assert len(cards) == 3
    assert "QS" in cards and Card.from_str("KS") not in cards and "junk" not in cards
    assert cards | CardSet.parse("KS") == CardSet.parse("2C QS KS AH")
    assert cards - CardSet.parse("QS") == CardSet.parse("2C AH")
    assert cards & CardSet.parse("QS KS") == CardSet.parse("QS")
    assert cards.of_suit(Suit.HEARTS) == CardSet.parse("AH")
    assert cards.first() == Card.from_str("2C")
    assert [str(cards.nth(k)) for k in range(3)] == ["2C", "QS", "AH"]
    assert eval(repr(cards)) == cards
    with pytest.raises(IndexError):
        cards.nth(3)
    with pytest.raises(ValueError, match="empty"):
        CardSet().first()


def test_card_set_rejects_masks_outside_the_pack():
    with pytest.raises(CardParseError, match="outside"):
        CardSet.from_mask(1 << 55)
    with pytest.raises(CardParseError):
        CardSet.from_mask(-1)
