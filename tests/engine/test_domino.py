"""Domino Hearts (000 'Domino Hearts'): one test per sentence of the source, and random-play
invariants. They run on the backend in use (the C core, or the reference under
ARENA_PUREPYTHON=1); tests/engine/test_domino_differential.py compares the two.

Explicit deals give hands of any size where a rule is about a position, not the deal: the
engine takes any partition of the pack into non-empty hands and a stock in order.
"""

from __future__ import annotations

import random

import pytest

from arena.engine import Card, CardSet, Hand, IllegalPassError, IllegalPlayError, Phase
from arena.engine.cards import CARDS
from arena.engine.rules import RulesError
from arena.engine.variants.domino import DominoHand, domino_rules


def domino(
    hands: list[str], stock_top: str = "", *, dealer: int = 0, **rules: object
) -> DominoHand:
    """A deal from explicit hands (seat order) and the stock's top cards; the rest of the pack
    follows them in the stock in card-index order (2C 3C ... AH)."""
    named = CardSet(" ".join([*hands, stock_top]))
    top = [Card.from_str(text) for text in stock_top.split()]
    rest = [card for card in CARDS[:52] if card not in named]
    return DominoHand.from_cards(
        domino_rules(players=len(hands), **rules), hands, dealer=dealer, stock=top + rest
    )


def play_all(hand: Hand, cards: str) -> None:
    for card in cards.split():
        hand.play(card)


# -- 'Number of Players': "Two to seven people can play." -------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_two_to_seven_players_can_play(players: int) -> None:
    hand = Hand.deal(domino_rules(players=players), seed=players, dealer=0)
    assert isinstance(hand, DominoHand)
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert len(hand.points()) == players


@pytest.mark.parametrize("players", [1, 8])
def test_fewer_than_two_or_more_than_seven_players_are_refused(players: int) -> None:
    with pytest.raises(RulesError, match="players"):
        domino_rules(players=players)


# -- 'The Pack' and 'The Deal' ------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_six_cards_each_dealt_one_at_a_time_and_the_rest_is_the_stock(players: int) -> None:
    hand = DominoHand.deal(domino_rules(players=players), seed=99, dealer=players - 1)
    sizes = [len(hand.hand_of(seat)) for seat in range(players)]
    assert sizes == [6] * players
    assert hand.stock_size == 52 - 6 * players == len(hand.stock)
    everything = CardSet().mask
    for seat in range(players):
        everything |= hand.hand_of(seat).mask
    everything |= CardSet(hand.stock).mask
    assert everything == (1 << 52) - 1  # "The standard 52-card pack is used."


def test_the_same_seed_deals_the_same_hands_and_stock() -> None:
    a = DominoHand.deal(domino_rules(), seed=5, dealer=2)
    b = Hand.deal(domino_rules(), seed=5, dealer=2)
    assert [a.hand_of(s) for s in range(4)] == [b.hand_of(s) for s in range(4)]
    assert a.stock == b.stock  # type: ignore[attr-defined]


# -- 'The Play' -----------------------------------------------------------------------------


def test_the_player_to_the_dealers_left_leads_first() -> None:
    for dealer in range(4):
        hand = DominoHand.deal(domino_rules(), seed=1, dealer=dealer)
        assert hand.to_play == hand.leader == (dealer + 1) % 4
        assert hand.phase is Phase.PLAYING  # no pass (docs/rules.md)


def test_there_is_no_pass() -> None:
    hand = DominoHand.deal(domino_rules(), seed=1)
    assert hand.passes_pending == ()
    with pytest.raises(IllegalPassError, match="no pass"):
        hand.apply_pass(0, list(hand.hand_of(0))[:3])


def test_a_player_who_cannot_follow_draws_until_he_can_play() -> None:
    # Dealer 0: seat 1 leads a club; seat 2 holds none and draws 5S, 6H, then 9C.
    hand = domino(["2D 3D 4D 5D 6D 7D", "2C 3C 4C 5C 6C 7C", "2S 3S 4S 8D 9D TD"], "5S 6H 9C KS")
    stock = hand.stock_size
    hand.play("7C")
    assert hand.to_play == 2
    assert hand.draws() == (
        (0, 2, Card.from_str("5S")),
        (0, 2, Card.from_str("6H")),
        (0, 2, Card.from_str("9C")),
    )
    assert hand.drawn(2) == 3 and hand.stock_size == stock - 3
    assert str(hand.hand_of(2)) == "9C 8D 9D TD 2S 3S 4S 5S 6H"
    assert str(hand.legal_plays()) == "9C"  # the drawn card is the only one he can play
    with pytest.raises(IllegalPlayError, match="must follow suit"):
        hand.play("5S")
    hand.play("9C")
    # Seat 0 is void in clubs too: he draws from KS on until a club comes (the stock's rest
    # is in index order, so the next card after KS is the 2C... already dealt: 8C is next).
    assert hand.to_play == 0
    assert [str(card) for _, seat, card in hand.draws()[3:]] == ["KS", "8C"]
    assert str(hand.legal_plays()) == "8C"


def test_a_player_who_can_follow_does_not_draw() -> None:
    hand = domino(["2D 3D", "2C 3C", "4C 4D"])
    hand.play("3C")
    assert hand.draws() == () and str(hand.legal_plays()) == "4C"


def test_after_the_stock_is_exhausted_a_player_unable_to_follow_may_discard() -> None:
    clubs = " ".join(f"{r}C" for r in "23456789TJQKA")
    diamonds = " ".join(f"{r}D" for r in "23456789TJQKA")
    spades = " ".join(f"{r}S" for r in "23456789TJQKA")
    hearts = " ".join(f"{r}H" for r in "23456789TJQ")
    hand = domino([spades + " " + hearts, clubs + " " + diamonds], "KH AH")
    assert hand.to_play == 1
    hand.play("2C")
    # Seat 0 draws the whole stock, still has no club, and may now play anything.
    assert [str(card) for _, _, card in hand.draws()] == ["KH", "AH"]
    assert hand.stock_size == 0
    assert hand.legal_plays() == hand.hand_of(0)
    assert not hand.hearts_broken
    hand.play("QH")  # a heart discarded breaks hearts (docs/rules.md)
    assert hand.hearts_broken
    assert hand.tricks()[0].winner == 1


def test_hearts_may_not_be_led_until_broken_unless_the_leader_holds_only_hearts() -> None:
    hand = domino(["2D 3D", "2H 5C", "3C 4C"])
    with pytest.raises(IllegalPlayError, match="hearts have not been broken"):
        hand.play("2H")
    assert str(hand.legal_plays()) == "5C"
    only_hearts = domino(["2D 3D", "2H 3H", "3C 4C"])
    assert str(only_hearts.legal_plays()) == "2H 3H"
    only_hearts.play("2H")
    assert only_hearts.hearts_broken


def test_each_player_drops_out_as_his_cards_are_exhausted() -> None:
    # Seat 2 holds one card: after the first trick he is out, and tricks have two plays.
    hand = domino(["3C QD KD", "2C 9D TD", "AC"])
    play_all(hand, "2C AC 3C")
    assert not hand.in_play(2) and hand.in_play(0) and hand.in_play(1)
    trick = hand.tricks()[0]
    assert [seat for seat, _ in trick.plays] == [1, 2, 0] and trick.winner == 2
    # "If a player wins a trick with his last card, the turn to lead passes to the first
    # active player on his left": seat 2 won with AC, his last card; seat 0 leads.
    assert hand.to_play == hand.leader == 0
    play_all(hand, "QD 9D")
    assert [seat for seat, _ in hand.tricks()[1].plays] == [0, 1]
    assert hand.view(1).in_play == (True, True, False)


def test_the_lead_skips_every_seat_out_of_cards() -> None:
    # Seats 3 and 0 both run out on the first trick, which seat 3 wins: the lead goes past
    # seat 0 (out) to seat 1.
    hand = domino(["2C", "3C 4D", "4C 5D", "AC"], dealer=3)
    play_all(hand, "2C 3C 4C AC")
    assert hand.tricks()[0].winner == 3
    assert hand.to_play == 1
    assert [hand.in_play(s) for s in range(4)] == [False, True, True, False]


def test_the_last_survivor_must_keep_all_the_cards_remaining_in_his_hand() -> None:
    hand = domino(["3C QD 4H", "2C KD 2H 3H", "AC"])
    play_all(hand, "2C AC 3C")  # seat 2 out; seat 0 leads
    play_all(hand, "QD KD")  # seat 1 wins; he holds only hearts, so he may lead one
    play_all(hand, "2H 4H")  # seat 0 wins with his last card: seat 1 is the last survivor
    assert hand.is_over
    assert hand.kept_by == 1
    # He keeps his 3H, and the stock that nobody drew is his too (docs/rules.md).
    assert "3H" in str(hand.kept) and len(hand.kept) == 1 + 52 - 8
    assert hand.hand_of(1) == CardSet() and hand.stock_size == 0
    assert hand.points() == (2, 11, 0)  # 2H 4H to seat 0; 3H and the stock's ten hearts
    assert sum(hand.points()) == 13


def test_when_the_last_trick_empties_every_hand_its_winner_takes_the_stock() -> None:
    hand = domino(["3C", "2C"], moon="none")
    play_all(hand, "2C 3C")
    assert hand.is_over and hand.kept_by == 0 and len(hand.kept) == 50
    assert hand.points() == (13, 0)


# -- 'Scoring': "The same as in Four-Hand Hearts, except that the ♠Q is usually not scored."


def test_the_queen_of_spades_is_not_scored() -> None:
    rules = domino_rules()
    assert rules.value_of("QS") == 0 and rules.value_of("AH") == 1
    assert rules.penalty_total == 13 and rules.target_score == 100


def test_winning_all_thirteen_hearts_in_tricks_shoots_the_moon() -> None:
    # Seat 0 leads its hearts one by one; seat 1, holding none, draws the whole stock (no
    # heart in it) and then discards: seat 0 wins every heart, then runs out.
    hearts = " ".join(f"{rank}H" for rank in "23456789TJQKA")
    spades = " ".join(f"{rank}S" for rank in "23456789TJQKA")
    hand = domino([hearts, spades], dealer=1)
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    won = CardSet(card for trick in hand.tricks() if trick.winner == 0 for _, card in trick.plays)
    assert CardSet(hearts).mask & ~won.mask == 0 and hand.kept_by == 1
    assert hand.points() == (0, 13)


def test_hearts_kept_never_shoot_the_moon() -> None:
    # 000: shooting the moon is to "win all 13 hearts"; a seat charged with the stock's
    # hearts (here the last trick's winner, when every hand ran out at once) won none.
    hand = domino(["3C", "2C"])
    play_all(hand, "2C 3C")
    assert hand.kept_by == 0
    assert hand.points() == (13, 0)


def test_two_players() -> None:
    hand = DominoHand.deal(domino_rules(players=2), seed=3, dealer=1)
    assert hand.to_play == 0 and hand.stock_size == 40
    while not hand.is_over:
        trick = hand.current_trick
        assert len(trick) <= 1
        hand.play(hand.legal_plays().first())
    assert sum(hand.points()) == 13


# -- views -------------------------------------------------------------------------------


def test_a_view_shows_the_stock_size_who_is_in_and_the_draws_but_no_stock_card() -> None:
    hand = domino(["2D 3D 4D", "2C 3C 4C", "2S 3S 9D"], "5S 6H 9C")
    hand.play("4C")
    view = hand.view(0)
    assert view.stock_size == hand.stock_size == 52 - 9 - 3
    assert view.drawn == (0, 0, 3)
    assert view.in_play == (True, True, True)
    assert view.hand == hand.hand_of(0) and view.legal == CardSet()
    assert "9C" in str(hand.view(2).hand) and str(hand.view(2).legal) == "9C"
    assert view.kitty is None and view.passed == () and view.received == ()


# -- random-play invariants --------------------------------------------------------------


def _check_places(hand: DominoHand) -> None:
    """Every card is in exactly one place: a hand, the stock, the trick in play, or taken."""
    places = [hand.hand_of(s).mask for s in range(hand.players)]
    places += [hand.taken(s).mask for s in range(hand.players)]
    places.append(CardSet(hand.stock).mask)
    places.append(CardSet(card for _, card in hand.current_trick).mask)
    union = 0
    for mask in places:
        assert not union & mask
        union |= mask
    assert union == (1 << 52) - 1


@pytest.mark.parametrize("players", range(2, 8))
def test_random_play_invariants(players: int) -> None:
    rules = domino_rules(players=players)
    for seed in range(120):
        rng = random.Random(seed)
        hand = DominoHand.deal(rules, seed, dealer=seed % players)
        sizes: list[int] = []
        while not hand.is_over:
            if not hand.current_trick:
                sizes.append(sum(hand.in_play(s) for s in range(players)))
                assert sizes[-1] >= 2
            _check_places(hand)
            legal = list(hand.legal_plays())
            assert legal and all(card in hand.hand_of(hand.to_play) for card in legal)  # type: ignore[arg-type]
            hand.play(rng.choice(legal))
        _check_places(hand)
        # Tricks shrink as players drop out, and hold one play per seat still in.
        assert sizes == sorted(sizes, reverse=True)
        assert [len(trick.plays) for trick in hand.tricks()] == sizes
        assert sum(hand.drawn(s) for s in range(players)) == len(hand.draws())
        assert len(hand.draws()) <= 52 - 6 * players
        points = hand.points()
        moon = 13 in hand.points() and 0 in points and sorted(points).count(13) == players - 1
        assert sum(points) == (13 * (players - 1) if moon else 13)
        assert sum(len(hand.taken(s)) for s in range(players)) == 52
