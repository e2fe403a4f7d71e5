"""Heartless (003 'HEARTLESS'): the scoring suit chosen from revealed cards, its scoring
queen, the 2C or 2S opening, and the reveal phase of `Hand`, on whichever backend runs.

Each test is named after the rule of 003 it checks. The random-play tests check the
engine against an independent count (the suit's cards 1, its queen 13) rather than
against `Rules`, so that a wrong rotation cannot agree with itself.
"""

from __future__ import annotations

import random

import pytest

from arena.engine import (
    SCORING_QUEENS,
    Card,
    CardSet,
    Game,
    Hand,
    IllegalPlayError,
    IllegalRevealError,
    Opening,
    OutOfTurnError,
    Phase,
    Rules,
    RulesError,
    ScoringSuitChoice,
    Suit,
    preset,
    scoring_suit_of,
)
from arena.engine import config as core
from arena.engine.rules import standard_values

C, D, S, H = Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS


def suit_of(text: str, dealer: int = 0) -> Suit:
    return scoring_suit_of([Card.from_str(word) for word in text.split()], dealer)


# --- Choosing the suit (003 'HEARTLESS': the three rules). ---


@pytest.mark.parametrize(
    ("reveals", "expected"),
    [
        ("2C KD 9S 4H", D),  # the king is the highest card
        ("AC 2D 3S 4H", C),  # ace high
        ("2C 3D 2S 2H", D),  # two low: the 3D beats three twos
        ("TH 9S 9D 9C", H),  # one high card, whatever the number of cards per suit
    ],
)
def test_the_suit_of_the_highest_card_scores(reveals, expected):
    assert suit_of(reveals) is expected


def test_a_tie_for_highest_goes_to_the_suit_with_the_most_revealed_cards():
    assert suit_of("AC AH 5H 9D") is H  # hearts has two revealed cards, clubs one
    assert suit_of("KS KD 2D 3D 4S") is D  # diamonds three, spades two
    assert suit_of("5H KS KD 2D 3D") is D  # lower cards of the suit count too


def test_only_the_tied_suits_compete_on_the_count():
    # Diamonds has the most revealed cards but no ace: clubs and hearts stay tied, and the
    # first ace clockwise from the dealer's left decides (seat 1, the AH).
    assert suit_of("AC AH 2D 3D 4D", dealer=0) is H


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [(0, H), (1, C), (2, C), (3, C)],  # seat 1 holds the AH, seat 0 the AC
)
def test_a_remaining_tie_goes_to_the_first_high_card_left_of_the_dealer(dealer, expected):
    assert suit_of("AC AH 5D 9S", dealer=dealer) is expected


def test_the_clockwise_tie_break_skips_suits_that_lost_on_the_count():
    # Spades and hearts have two cards each, clubs one: the AC is out although it comes
    # first clockwise from seat 0.
    reveals = "AC AH AS 5S 5H"
    assert suit_of(reveals, dealer=4) is H  # seat 0's AC skipped, seat 1's AH decides
    assert suit_of(reveals, dealer=1) is S  # seat 2's AS comes first
    assert suit_of("AC AH AS 5S", dealer=3) is S  # the count decides before the order


def test_the_dealer_is_looked_at_last():
    assert suit_of("AC AH 5D", dealer=1) is C  # seats 2, 0, 1: the AC at seat 0


def test_scoring_suit_of_accepts_text_and_refuses_impossible_reveals():
    assert scoring_suit_of(["2C", "AS", "3H"], 0) is S
    with pytest.raises(ValueError, match="at least one"):
        scoring_suit_of([], 0)
    with pytest.raises(ValueError, match="twice"):
        scoring_suit_of(["AS", "AS"], 0)
    with pytest.raises(ValueError, match="dealer"):
        scoring_suit_of(["AS", "KS"], 2)


# --- Rules: the setting, the scoring queens, the rotation. ---


def test_scoring_queens_follow_003():
    assert {suit: str(card) for suit, card in SCORING_QUEENS.items()} == {
        H: "QS",
        S: "QD",
        D: "QC",
        C: "QH",
    }


def test_scoring_suit_choice_defaults_to_fixed_and_round_trips():
    assert Rules().scoring_suit_choice is ScoringSuitChoice.FIXED
    rules = preset("heartless")
    assert rules.scoring_suit_choice is ScoringSuitChoice.REVEALED
    assert rules.to_dict()["scoring_suit_choice"] == "revealed"
    assert Rules.from_json(rules.to_json()) == rules
    old = Rules().to_dict()
    del old["scoring_suit_choice"]
    assert Rules.from_dict(old).scoring_suit_choice is ScoringSuitChoice.FIXED


def test_the_heartless_preset_is_midwest_with_revealed_suits_and_its_own_trim():
    for players in (3, 4, 5):
        rules = preset("heartless", players)
        midwest = preset("midwest", players)
        assert rules.pass_schedule == midwest.pass_schedule
        assert (rules.opening, rules.first_trick, rules.lead_rule, rules.broken_by) == (
            midwest.opening,
            midwest.first_trick,
            midwest.lead_rule,
            midwest.broken_by,
        )
        assert rules.moon is midwest.moon and rules.target_score == midwest.target_score
    # 003 'Deal': "in five-player Heartless remove the Two of Diamonds and the Two of Hearts"
    assert preset("heartless", 5).removed_cards == CardSet.parse("2D 2H")
    assert preset("heartless", 3).removed_cards == CardSet.parse("2D")
    with pytest.raises(RulesError, match="heartless"):
        preset("heartless", 6)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"card_values": {"QS": 13}}, "standard card_values"),
        ({"doubler": "TC"}, "doubler"),
        ({"moon_requires": "TD"}, "moon_requires"),
        ({"lead_rule": "hearts_broken"}, "lead_rule"),
        ({"broken_by": "hearts_or_queen"}, "broken_by"),
        ({"queen_and_hearts_may_lead_heart": True}, "queen_and_hearts"),
        ({"opening": "any_club"}, "lowest_club"),
        ({"opening": "lowest_spade"}, "lowest_club"),
    ],
)
def test_revealed_rules_refuse_settings_that_name_fixed_cards(changes, message):
    with pytest.raises(RulesError, match=message):
        preset("heartless").replace(**changes)


def test_revealed_rules_need_a_club_and_a_spade_in_the_hands():
    spades = CardSet.from_mask(Suit.SPADES.mask)
    values = {c: v for c, v in standard_values().items() if c not in spades}
    with pytest.raises(RulesError, match="spade"):
        preset("heartless").replace(removed_cards=spades, kitty_size=3, card_values=values)
    assert preset("heartless").replace(lead_rule="any").lead_rule.value == "any"


def test_the_lowest_spade_opening_needs_a_spade_in_some_hand():
    removed = CardSet.parse("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    values = {c: v for c, v in standard_values().items() if c not in removed}

    def with_kitty(opening: Opening) -> Rules:  # four cards left over: one spade may be there
        return Rules(opening=opening, removed_cards=removed, kitty_size=4, card_values=values)

    with pytest.raises(RulesError, match=r"needs a spade in someone's hand"):
        with_kitty(Opening.LOWEST_SPADE)
    assert with_kitty(Opening.LOWEST_CLUB).core_config().opening == 0
    rules = Rules(opening=Opening.LOWEST_SPADE)
    assert rules.core_config().opening == core.OPENING_LOWEST_SPADE == 3


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("suit", list(Suit))
def test_for_scoring_suit_rotates_the_table_and_picks_the_opening(players, suit):
    base = preset("heartless", players)
    rules = base.for_scoring_suit(suit)
    queen = SCORING_QUEENS[suit]
    expected = dict.fromkeys(base.deck.of_suit(suit), 1)
    expected[queen] = 13  # every scoring queen is in play at 3, 4 and 5 players
    assert dict(rules.card_values) == expected
    # 003: "The first card lead when the scoring suit is Hearts or Spades is the Two of
    # Clubs. Otherwise it is the Two of Spades."
    assert rules.opening is (Opening.LOWEST_CLUB if suit in (H, S) else Opening.LOWEST_SPADE)
    assert rules.scoring_suit_choice is ScoringSuitChoice.FIXED
    assert rules.name == "heartless"
    unchanged = base.replace(
        card_values=rules.card_values,
        opening=rules.opening,
        scoring_suit_choice=ScoringSuitChoice.FIXED,
    )
    assert unchanged == rules
    assert base.for_scoring_suit(suit) is rules  # cached


def test_for_scoring_suit_needs_revealed_rules():
    with pytest.raises(ValueError, match="revealed"):
        preset("midwest").for_scoring_suit(H)


# --- The reveal phase of a hand. ---

ONE_SUIT_EACH = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]

# A twelve-card Heartless deal (three cards each) in which every card is deliberate.
SMALL = ["2C QH 5D", "3C QS 4H", "2S QD AH", "3S QC 2D"]


def small_rules() -> Rules:
    deck = CardSet(" ".join(SMALL))
    removed = CardSet.from_mask(((1 << 52) - 1) & ~deck.mask)
    values = {c: v for c, v in standard_values().items() if c in deck}
    return preset("heartless").replace(removed_cards=removed, card_values=values)


def reveal_all(hand: Hand, cards: list[str]) -> None:
    for seat, card in enumerate(cards):
        hand.apply_reveal(seat, card)


def test_fixed_rules_never_reveal():
    hand = Hand.deal(preset("standard"), 1)
    for seat in range(4):
        hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
    assert hand.phase is Phase.PLAYING
    assert hand.reveals_pending == () and hand.scoring_suit is None
    assert hand.base_rules is hand.rules
    assert hand.view(0).reveals == () and hand.view(0).scoring_suit is None
    with pytest.raises(IllegalRevealError, match="fixed scoring suit"):
        hand.apply_reveal(0, next(iter(hand.hand_of(0))))


def test_the_reveal_phase_starts_when_the_pass_completes():
    hand = Hand.deal(preset("heartless"), 7, pass_direction="left")
    assert not hand.reveals_pending
    with pytest.raises(IllegalRevealError, match="passing"):
        hand.apply_reveal(0, hand.hand_of(0).first())
    phases = []
    for seat in range(4):
        phases.append(hand.phase)
        hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
    assert phases == [Phase.PASSING] * 4
    assert hand.phase is Phase.REVEALING
    assert hand.reveals_pending == (0, 1, 2, 3)


def test_the_fast_pass_path_also_starts_the_reveal_phase():
    hand = Hand.deal(preset("heartless"), 7, pass_direction="left")
    for seat in range(4):
        cards = tuple(card.index for card in list(hand.hand_of(seat))[:3])
        assert hand.try_pass_indices(seat, cards) == 0
    assert hand.phase is Phase.REVEALING
    assert hand.try_pass_indices(0, ()) == core.ERR_NOT_PASSING


def test_a_hold_hand_reveals_at_once():
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    assert hand.phase is Phase.REVEALING


def test_nobody_plays_while_revealing():
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    hand.apply_reveal(0, "2C")
    assert hand.to_play is None and hand.leader == -1
    assert hand.legal_plays() == CardSet() and hand.legal_mask() == 0
    assert not hand.is_legal("2C")
    assert "still revealing" in (hand.illegal_reason("2C") or "")
    index = Card.from_str("2C").index
    assert hand.try_play_index(index) == core.ERR_PASSING
    with pytest.raises(OutOfTurnError, match=r"still revealing: seats 1, 2, 3") as info:
        hand.play("2C")
    assert info.value.code == core.ERR_PASSING
    with pytest.raises(IllegalPlayError, match="still revealing"):
        hand.play("2C", seat=0)
    with pytest.raises(ValueError, match="revealing"):
        hand.push("2C")
    with pytest.raises(ValueError, match="revealing"):
        hand.push_index(index)
    with pytest.raises(IndexError):
        hand.pop()
    assert len(hand.hand_of(0)) == 13 and hand.trick_number == 0 and not hand.is_over


def test_reveal_errors_are_specific():
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    with pytest.raises(IllegalRevealError, match="no seat 4") as info:
        hand.apply_reveal(4, "2C")
    assert info.value.seat == 4 and info.value.card is None
    with pytest.raises(IllegalRevealError, match="cannot reveal 2D: it does not hold it") as info:
        hand.apply_reveal(0, "2D")
    assert info.value.seat == 0 and info.value.card == Card.from_str("2D")
    with pytest.raises(IllegalRevealError, match="cannot reveal"):
        hand.apply_reveal(0, "1C")
    hand.apply_reveal(0, "AC")
    with pytest.raises(IllegalRevealError, match="already revealed AC") as info:
        hand.apply_reveal(0, "2C")
    assert info.value.card == Card.from_str("AC")
    assert hand.reveals_pending == (1, 2, 3)
    reveal_all_but_first = ["2D", "2S", "2H"]
    for seat, card in enumerate(reveal_all_but_first, start=1):
        hand.apply_reveal(seat, card)
    with pytest.raises(IllegalRevealError, match="no reveal is due now: the hand is playing"):
        hand.apply_reveal(1, "3D")


def test_a_seat_sees_its_own_reveal_at_once_and_the_others_once_all_are_shown():
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    hand.apply_reveal(2, "AS")
    hand.apply_reveal(0, "KC")
    assert hand.view(2).reveals == (None, None, Card.from_str("AS"), None)
    assert hand.view(0).reveals == (Card.from_str("KC"), None, None, None)
    assert hand.view(1).reveals == (None, None, None, None)
    assert hand.view(1).scoring_suit is None and hand.scoring_suit is None
    assert hand.revealed(2) == Card.from_str("AS") and hand.revealed(1) is None
    hand.apply_reveal(1, "QD")
    hand.apply_reveal(3, "2H")
    shown = tuple(Card.from_str(c) for c in ("KC", "QD", "AS", "2H"))
    for seat in range(4):
        view = hand.view(seat)
        assert view.reveals == shown
        assert view.scoring_suit is S
        assert view.rules == hand.rules == preset("heartless").for_scoring_suit(S)
        assert view.phase is Phase.PLAYING


@pytest.mark.parametrize(
    ("reveals", "suit", "queen", "opener", "opening_card"),
    [
        (["2C", "2D", "2S", "AH"], H, "QS", 0, "2C"),
        (["2C", "2D", "AS", "2H"], S, "QD", 0, "2C"),
        (["2C", "AD", "2S", "2H"], D, "QC", 2, "2S"),
        (["AC", "2D", "2S", "2H"], C, "QH", 2, "2S"),
    ],
)
def test_each_suit_scores_with_its_queen_and_opens_with_the_2c_or_2s(
    reveals: list[str], suit: Suit, queen: str, opener: int, opening_card: str
) -> None:
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    reveal_all(hand, reveals)
    assert hand.scoring_suit is suit
    assert hand.rules.value_of(queen) == 13
    assert hand.rules.penalty_cards == CardSet.from_mask(suit.mask) | CardSet.parse(queen)
    assert (hand.phase, hand.to_play) == (Phase.PLAYING, opener)
    assert hand.legal_plays() == CardSet.parse(opening_card)
    with pytest.raises(IllegalPlayError, match=f"must be opened with {opening_card}"):
        hand.play(next(iter(hand.hand_of(opener) - CardSet.parse(opening_card))))
    # Every other seat is void in the led suit, so the opener wins every trick and takes
    # the suit and its queen: a moon, 26 to each of the others (003: "like Regular Hearts").
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert hand.points() == tuple(0 if seat == opener else 26 for seat in range(4))


def test_points_come_from_the_scoring_suit_and_queen_only():
    hand = Hand.from_cards(small_rules(), SMALL)
    reveal_all(hand, ["2C", "4H", "QD", "2D"])  # the QD is highest: diamonds score
    assert hand.scoring_suit is D
    assert hand.to_play == 2 and hand.legal_plays() == CardSet.parse("2S")
    assert "QD" in hand.hand_of(2)  # the revealed card went back to the hand
    for card in ["2S", "3S", "5D", "QS"]:  # seat 1's QS wins, with the 5D: 1 point
        hand.play(card)
    for card in ["3C", "QD", "QC", "2C"]:  # seat 3's QC wins: the QD 1 (a diamond), QC 13
        hand.play(card)
    for card in ["2D", "QH", "4H", "AH"]:  # seat 3's 2D wins; hearts count nothing
        hand.play(card)
    assert [t.winner for t in hand.tricks()] == [1, 3, 3]
    assert "QS" in hand.taken(1) and "AH" in hand.taken(3)
    assert hand.points() == (0, 1, 0, 15)
    assert hand.view(0).points_taken == (0, 1, 0, 15)


def test_the_revealed_cards_stay_in_the_hands_and_the_pass_record_stays():
    hand = Hand.deal(preset("heartless"), 11, pass_direction="right")
    rng = random.Random(11)
    for seat in range(4):
        hand.apply_pass(seat, rng.sample(list(hand.hand_of(seat)), 3))
    before = [hand.hand_of(s) for s in range(4)]
    passed = [hand.passed(s) for s in range(4)]
    received = [hand.received(s) for s in range(4)]
    for seat in range(4):
        hand.apply_reveal(seat, before[seat].nth(seat))
    assert [hand.hand_of(s) for s in range(4)] == before
    assert [hand.passed(s) for s in range(4)] == passed
    assert [hand.received(s) for s in range(4)] == received
    assert all(len(cards) == 3 for cards in passed + received)
    assert hand.pass_direction.value == "right"
    assert hand.base_rules == preset("heartless")
    assert hand.view(1).passed == passed[1] and hand.view(1).received == received[1]


def test_the_fast_path_is_bound_to_the_hand_after_the_reveal():
    hand = Hand.from_cards(preset("heartless"), ONE_SUIT_EACH)
    reveal_all(hand, ["2C", "AD", "2S", "2H"])  # diamonds: the 2S opens
    two_spades = Card.from_str("2S").index
    assert hand.legal_mask() == 1 << two_spades
    assert hand.try_play_index(Card.from_str("3S").index) == core.ERR_MUST_LEAD_OPENING_CARD
    assert hand.try_play_index(two_spades) == 0
    hand.push_index(hand.legal_mask().bit_length() - 1)
    hand.pop()
    hand.pop()
    assert hand.to_play == 2 and hand.trick_number == 0


# --- Whole hands and games with random decisions. ---


def expected_points(suit: Suit, taken: CardSet) -> int:
    """003: "points are scored from the scoring suit and scoring Queen" (1 each, 13)."""
    queen = SCORING_QUEENS[suit]
    return sum(1 for card in taken if card.suit is suit) + (13 if queen in taken else 0)


def opening_card(suit: Suit, hand: Hand) -> Card:
    """The lowest club (hearts or spades score) or spade (otherwise) in the hands."""
    wanted = C if suit in (H, S) else S
    held = CardSet()
    for seat in range(hand.players):
        held |= hand.hand_of(seat)
    return held.of_suit(wanted).first()


def play_random_heartless_hand(rules: Rules, seed: int) -> Hand:
    rng = random.Random(seed)
    n = rules.players
    hand = Hand.deal(rules, seed, dealer=seed % n, pass_direction=rules.pass_direction(seed))
    size = rules.pass_size(hand.pass_direction)
    for seat in rng.sample(range(n), n):
        if seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
    assert hand.phase is Phase.REVEALING
    held = [hand.hand_of(s) for s in range(n)]
    shown = [held[s].nth(rng.randrange(len(held[s]))) for s in range(n)]
    for seat in rng.sample(range(n), n):
        hand.apply_reveal(seat, shown[seat])
    suit = scoring_suit_of(shown, hand.dealer)
    assert hand.scoring_suit is suit
    assert hand.rules == rules.for_scoring_suit(suit)
    assert [hand.hand_of(s) for s in range(n)] == held
    first = opening_card(suit, hand)
    assert hand.legal_plays() == CardSet([first])
    assert hand.to_play == hand.seat_holding(first)
    while not hand.is_over:
        legal = hand.legal_plays()
        turn = hand.to_play
        assert turn is not None and legal and legal.mask & ~hand.hand_of(turn).mask == 0
        hand.play(legal.nth(rng.randrange(len(legal))))
    return hand


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_heartless_hands_score_the_revealed_suit(players):
    rules = preset("heartless", players)
    for seed in range(60):
        hand = play_random_heartless_hand(rules, seed)
        suit = hand.scoring_suit
        assert suit is not None
        taken = [hand.taken(s) for s in range(players)]
        raw = [expected_points(suit, cards) for cards in taken]
        total = expected_points(suit, rules.deck)
        assert sum(raw) == total
        points = hand.points()
        shooter = [s for s in range(players) if raw[s] == total]
        if shooter:  # old moon (003 'Scoring'), of the suit's cards and queen
            assert points == tuple(0 if s == shooter[0] else total for s in range(players))
        else:
            assert points == tuple(raw)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_heartless_games_play_to_the_end(players):
    rules = preset("heartless", players)
    game = Game(rules, seed=players)
    rng = random.Random(players)
    suits = set()
    while not game.is_over:
        hand = game.hand
        assert hand.base_rules == rules
        size = rules.pass_size(hand.pass_direction)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(list(hand.passable(seat)), size))
        assert hand.phase is Phase.REVEALING
        for seat in hand.reveals_pending:
            hand.apply_reveal(seat, rng.choice(list(hand.hand_of(seat))))
        suits.add(hand.scoring_suit)
        while not hand.is_over:
            legal = hand.legal_plays()
            hand.play(legal.nth(rng.randrange(len(legal))))
        game.finish_hand()
    assert max(game.totals) >= 100
    assert game.totals == [sum(s[i] for s in game.hand_scores) for i in range(players)]
    assert len(suits) >= 2  # the scoring suit did change from hand to hand
