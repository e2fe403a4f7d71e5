"""001 'VARIATION 1: BLACK MARIAH', the purists' rule (`Rules.queen_at_first_chance`):
"a player holding the Q of spades must get rid of it on the first trick they legitimately
can (by playing it as the first discard in a voided suit, or by playing it when an
opponent leads A of spades or K of spades)".

Hand-built deals, through the public `Hand` on the backend in use (the suite runs on both
cores: ARENA_PUREPYTHON=1 for the reference); tests/engine/test_differential.py compares
the two cores on random hands under this rule.
"""

from __future__ import annotations

import pytest

from arena.engine import CardSet, Hand, IllegalPlayError, Rules, RulesError, preset
from arena.engine.config import ERR_QUEEN_FIRST_CHANCE

QS = "QS"
# Seat 0 holds every club and opens with the 2C; seat 1 is void in clubs and holds the QS.
VOID_IN_CLUBS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]
# Seat 1 holds the QS, the 2S and clubs; seat 0 may lead anything (left of dealer 3).
SPADES_AND_CLUBS = [
    "AS 3S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "QS 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KS 4S 5S 6S 7S 8S 9S TS JS KD AD KC AC",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]


def rules(**changes: object) -> Rules:
    """The standard game with the rule, no pass, and `changes`."""
    return preset("standard").replace(queen_at_first_chance=True, pass_schedule=["hold"], **changes)


def test_the_holder_void_in_the_led_suit_must_discard_the_queen() -> None:
    hand = Hand.from_cards(rules(first_trick="any"), VOID_IN_CLUBS)
    hand.play("2C")
    assert hand.to_play == 1
    assert hand.legal_plays() == CardSet(QS)
    with pytest.raises(IllegalPlayError, match="must play the QS") as caught:
        hand.play("2D")
    assert caught.value.code == ERR_QUEEN_FIRST_CHANCE
    hand.play(QS)


def test_without_the_rule_the_void_holder_may_keep_the_queen() -> None:
    hand = Hand.from_cards(
        rules(first_trick="any").replace(queen_at_first_chance=False), VOID_IN_CLUBS
    )
    hand.play("2C")
    assert QS in hand.legal_plays() and "2D" in hand.legal_plays()
    hand.play("2D")


def test_the_first_trick_rule_comes_first_then_the_next_chance_binds() -> None:
    """Where no point card may go on the first trick, that trick is no opportunity: the
    QS is not even legal. On the next club lead it is the only legal play."""
    hand = Hand.from_cards(rules(first_trick="no_penalty_cards"), VOID_IN_CLUBS)
    hand.play("2C")
    assert QS not in hand.legal_plays()
    hand.play("2D")  # seat 1 keeps the QS back, as the first-trick rule says
    hand.play("AD")
    hand.play("2H")  # seat 3 holds hearts only: it may bleed
    assert hand.to_play == 0  # seat 0 took the trick with the only club
    hand.play("3C")
    assert hand.legal_plays() == CardSet(QS)
    with pytest.raises(IllegalPlayError) as caught:
        hand.play("3D")
    assert caught.value.code == ERR_QUEEN_FIRST_CHANCE


def test_not_when_the_holder_has_the_led_suit() -> None:
    """A seat holding the suit led must follow it: the QS is no legal play, so no chance."""
    deal = [SPADES_AND_CLUBS[2], SPADES_AND_CLUBS[1], SPADES_AND_CLUBS[0], SPADES_AND_CLUBS[3]]
    hand = Hand.from_cards(rules(opening="left_of_dealer", first_trick="any"), deal, dealer=3)
    hand.play("KC")
    assert hand.to_play == 1
    assert hand.legal_plays() == CardSet("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")
    hand.play("2C")


def test_not_on_a_low_spade_lead_with_no_ace_or_king_in_the_trick() -> None:
    hand = Hand.from_cards(
        rules(opening="left_of_dealer", first_trick="any"), SPADES_AND_CLUBS, dealer=3
    )
    hand.play("3S")
    assert hand.legal_plays() == CardSet("QS 2S")
    hand.play("2S")


def test_when_an_opponent_leads_the_ace_of_spades() -> None:
    hand = Hand.from_cards(
        rules(opening="left_of_dealer", first_trick="any"), SPADES_AND_CLUBS, dealer=3
    )
    hand.play("AS")
    assert hand.legal_plays() == CardSet(QS)
    with pytest.raises(IllegalPlayError) as caught:
        hand.play("2S")
    assert caught.value.code == ERR_QUEEN_FIRST_CHANCE


def test_when_the_king_of_spades_is_already_in_the_trick() -> None:
    """Read as any trick holding the AS or KS, not only their lead: the QS cannot win it."""
    deal = [SPADES_AND_CLUBS[2], SPADES_AND_CLUBS[0], SPADES_AND_CLUBS[1], SPADES_AND_CLUBS[3]]
    hand = Hand.from_cards(rules(opening="left_of_dealer", first_trick="any"), deal, dealer=3)
    hand.play("4S")  # seat 0 leads low
    hand.play("3S")  # seat 1
    assert hand.to_play == 2 and hand.legal_plays() == CardSet("QS 2S")
    hand = Hand.from_cards(rules(opening="left_of_dealer", first_trick="any"), deal, dealer=3)
    hand.play("KS")
    hand.play("3S")
    assert hand.legal_plays() == CardSet(QS)


def test_leading_is_no_chance_to_get_rid_of_it() -> None:
    deal = [SPADES_AND_CLUBS[1], SPADES_AND_CLUBS[0], SPADES_AND_CLUBS[2], SPADES_AND_CLUBS[3]]
    hand = Hand.from_cards(rules(opening="left_of_dealer", first_trick="any"), deal, dealer=3)
    assert QS in hand.legal_plays() and "2C" in hand.legal_plays()
    hand.play("2C")


def test_the_purist_preset_is_black_maria_with_the_rule() -> None:
    purist = preset("black_maria_purist")
    assert purist.queen_at_first_chance
    assert purist.replace(queen_at_first_chance=False, name="black_maria") == preset("black_maria")
    assert Rules.from_dict(purist.to_dict()) == purist


def test_written_only_when_set() -> None:
    assert "queen_at_first_chance" not in preset("black_maria").to_dict()
    assert preset("black_maria_purist").to_dict()["queen_at_first_chance"] is True


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"removed_cards": ["QS", "2D", "3D", "2C"], "players": 4, "kitty_size": 0}, "QS in play"),
        ({"players": 3, "jokers": 1, "joker_kind": "wild"}, "no jokers"),
        ({"queen_at_first_chance": 1}, "true or false"),
    ],
)
def test_impossible_settings_are_refused(changes: dict[str, object], reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        rules().replace(**changes)


@pytest.mark.parametrize("name", ["domino", "four_penny", "cancellation"])
def test_the_variant_families_refuse_it(name: str) -> None:
    with pytest.raises(RulesError):
        preset(name).replace(queen_at_first_chance=True)
