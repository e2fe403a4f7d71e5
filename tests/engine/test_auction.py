"""Auction Hearts (000 'Auction Hearts'; 004's 1911 text): the bidding, the naming, the
declarer's lead, the settlement into the pot and the pot carried over, from the sources'
own sentences."""

import random

import pytest

from arena.engine import Game, Hand, IllegalBidError, Phase, Suit, preset
from arena.engine.rules import Settlement
from arena.engine.settlement import settle

SUITS_BY_SEAT = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


def _dealt(dealer: int = 0, declarer: int | None = None) -> Hand:
    return Hand.from_cards(preset("auction"), SUITS_BY_SEAT, dealer=dealer, declarer=declarer)


def test_bidding_begins_left_of_the_dealer_and_each_bids_once_in_turn():
    # "Bidding begins with the first hand dealt and rotates to the left, each player being
    # allowed to bid only once."
    hand = _dealt(dealer=2)
    order = []
    while hand.bids_pending:
        seat = hand.bids_pending[0]
        order.append(seat)
        hand.apply_bid(seat, None)
    assert order == [3, 0, 1, 2]
    with pytest.raises(IllegalBidError, match="no bid is due"):
        hand.apply_bid(3, 5)


def test_a_bid_must_be_higher_than_the_last_or_a_pass():
    # "A player must either bid higher than the preceding bid or pass."
    hand = _dealt(dealer=0)
    hand.apply_bid(1, 3)
    with pytest.raises(IllegalBidError, match=r"must bid 4\.\.13 chips or pass, not 3"):
        hand.apply_bid(2, 3)
    with pytest.raises(IllegalBidError, match="not 14"):
        hand.apply_bid(2, 14)  # above the preset's max_bid
    with pytest.raises(IllegalBidError, match="whole number"):
        hand.apply_bid(2, True)
    with pytest.raises(IllegalBidError, match="seat 2's turn"):
        hand.apply_bid(3, 5)
    hand.apply_bid(2, 4)
    assert hand.auction is not None
    assert hand.auction.lowest_bid == 5
    assert hand.phase is Phase.BIDDING
    assert hand.legal_plays().mask == 0
    assert hand.to_play is None


def test_the_highest_bidder_names_the_suit_and_leads_first():
    # "The highest bidder puts up his chips and names the suit. He leads first"
    hand = _dealt(dealer=0)
    for seat, amount in [(1, 2), (2, 6), (3, None), (0, None)]:
        hand.apply_bid(seat, amount)
    assert hand.phase is Phase.NAMING
    assert hand.names_pending == (2,)
    assert hand.declarer == 2
    assert hand.auction is not None
    assert hand.auction.winning_bid == 6
    with pytest.raises(IllegalBidError, match="seat 2 names the suit, not seat 1"):
        hand.apply_naming(1, Suit.CLUBS)
    with pytest.raises(IllegalBidError, match="not a suit"):
        hand.apply_naming(2, "X")
    hand.apply_naming(2, "clubs")
    assert hand.phase.value == "playing"
    assert hand.scoring_suit is Suit.CLUBS
    assert hand.to_play == 2
    assert hand.rules.value_of("2C") == 1
    assert hand.rules.value_of("QS") == 0
    assert hand.rules.penalty_total == 13
    view = hand.view(0)
    assert view.bids == ((1, 2), (2, 6), (3, None), (0, None))
    assert view.declarer == 2
    assert view.scoring_suit is Suit.CLUBS


def test_the_named_suit_may_not_be_led_until_one_of_it_is_discarded():
    # "thereafter play proceeds as in the regular game": as hearts there, the named suit
    # is not led before it is broken (unless the leader holds nothing else).
    hand = Hand.from_cards(
        preset("auction"),
        [
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2D",
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "AS 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        ],
        dealer=3,
    )
    for seat in (0, 1, 2, 3):
        hand.apply_bid(seat, None)
    assert hand.declarer == 0  # everyone passed: the first to bid names for nothing
    hand.apply_naming(0, "S")
    assert str(hand.legal_plays()) == "2D"
    assert hand.illegal_reason("2S") is not None


def test_without_an_auction_there_is_nothing_to_bid():
    hand = Hand.deal(preset("standard"), 1)
    with pytest.raises(IllegalBidError, match="no auction"):
        hand.apply_bid(1, 1)
    with pytest.raises(IllegalBidError, match="no auction"):
        hand.apply_naming(1, "H")
    assert hand.bids_pending == hand.names_pending == ()
    assert hand.view(0).bids == ()
    with pytest.raises(ValueError, match="declarer"):
        Hand.deal(preset("standard"), 1, declarer=2)


def test_a_standing_declarer_names_without_bidding():
    # "the successful bidder on the original deal names the suit to be avoided, without
    # bidding"
    hand = _dealt(dealer=0, declarer=3)
    assert hand.phase is Phase.NAMING
    assert hand.bids_pending == ()
    assert hand.names_pending == (3,)
    assert hand.auction is not None
    assert hand.auction.winning_bid == 0
    hand.apply_naming(3, Suit.DIAMONDS)
    assert hand.to_play == 3


# -- settlement: 000 'Auction Hearts', 'The Play' ------------------------------------------


def _auction(points, pot=0, bid=(0, 0), total=13):
    clean = tuple(p == 0 for p in points)
    return settle(Settlement.AUCTION, points, clean, pot, total, bid=bid)


def test_the_one_player_taking_none_of_the_suit_wins_the_pot():
    # "The player taking no cards of the forbidden suit wins the pot": the bid (4) and a
    # chip per card taken (13) go in; seat 3 takes all 17.
    settled = _auction((5, 4, 4, 0), bid=(3, 4))
    assert settled.paid == (5, 4, 4, 4 - 17)
    assert settled.pot == 0
    assert settled.won


def test_two_players_divide_the_pot_and_an_odd_chip_waits():
    # "if two players score no minus points, they divide the pot. If an odd chip remains,
    # it is left for the next pot."
    settled = _auction((0, 6, 7, 0), pot=0, bid=(0, 2))
    assert settled.pot == 1  # 15 chips: 7 each, one left
    assert settled.paid == (2 - 7, 6, 7, -7)
    assert settled.won


@pytest.mark.parametrize(
    ("points", "why"),
    [
        ((0, 0, 0, 13), "one player takes all 13"),
        ((0, 0, 0, 13), "more than two players take no cards"),
        ((1, 5, 3, 4), "each player takes at least one"),
    ],
)
def test_no_player_wins_and_the_pot_waits(points, why):
    # "If more than two players take no cards of the forbidden suit, or one player takes
    # all 13, or each player takes at least one, no player wins"
    settled = _auction(points, pot=3, bid=(1, 2))
    assert not settled.won, why
    assert settled.pot == 3 + 13 + 2
    assert settled.paid == tuple(p + (2 if s == 1 else 0) for s, p in enumerate(points))


def test_three_clean_players_with_a_trimmed_suit_still_win_nothing():
    # Three players, 000's trim removes the 2D: "all 13" is the whole suit in play, 12.
    settled = _auction((12, 0, 0), bid=(1, 1), total=12)
    assert not settled.won


# -- the game: the pot carried over ------------------------------------------------------------


def _play_game(seed: int, hands: int) -> Game:
    rules = preset("auction").replace(max_hands=hands, target_score=100000)
    game = Game(rules, seed)
    rng = random.Random(seed)
    carried = []
    while not game.is_over:
        hand = game.hand
        standing = hand.phase is Phase.NAMING
        carried.append(standing)
        while hand.bids_pending:
            auction = hand.auction
            assert auction is not None
            amount = rng.choice([None, auction.lowest_bid])
            hand.apply_bid(hand.bids_pending[0], amount if amount and amount <= 13 else None)
        hand.apply_naming(hand.names_pending[0], rng.choice(list(Suit)))
        while not hand.is_over:
            legal = hand.legal_plays()
            hand.play(legal.nth(rng.randrange(len(legal))))
        before = game.pot
        scores = game.finish_hand()
        # Chips are conserved: what the seats paid in net is what the pot gained.
        assert sum(scores) == game.pot - before
    assert any(carried), "some pot went unwon and its declarer named again"
    assert not all(carried)
    return game


def test_chips_are_conserved_and_an_unwon_pot_keeps_its_declarer():
    game = _play_game(seed=11, hands=30)
    assert sum(game.totals) == game.pot  # net payments in are what the pot holds
    assert game.hand_number == 29


def test_a_pot_nobody_won_makes_the_same_player_name_the_next_suit():
    rules = preset("auction").replace(max_hands=2, target_score=100000)
    game = Game(rules, 4)
    hand = game.hand
    # Seat 1 bids 2, everyone else passes; seat 1 names the suit.
    hand.apply_bid(1, 2)
    for _ in range(3):
        hand.apply_bid(hand.bids_pending[0], None)
    hand.apply_naming(1, Suit.HEARTS)
    while not hand.is_over:
        # Everyone sheds hearts whenever allowed, so every seat likely takes one: play the
        # lowest legal card, then check what the settlement decided.
        hand.play(hand.legal_plays().first())
    game.finish_hand()
    taken = [sum(1 for c in hand.taken(s) if c.suit is Suit.HEARTS) for s in range(4)]
    clean = sum(1 for t in taken if t == 0)
    won = clean in (1, 2) and max(taken) < 13
    nxt = game.hand
    if won:
        assert nxt.phase is Phase.BIDDING
        assert game.pot <= 1
    else:
        assert nxt.phase is Phase.NAMING
        assert nxt.names_pending == (1,)
        assert game.pot == 13 + 2
