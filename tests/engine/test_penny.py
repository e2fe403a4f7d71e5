"""003 'FOUR-PENNY HEARTS' and 'THREE-PENNY AND FIVE-PENNY HEARTS', sentence by sentence.

Each test names the sentence of 003 it checks. The hands are explicit (`Hand.from_cards`,
a hold hand) so that every card is known; the random-play invariants at the end cover
what the scenarios do not. Runs on both backends (ARENA_PUREPYTHON=1 for the reference).
"""

from __future__ import annotations

import random

import pytest

from arena.engine import Card, CardSet, Game, Hand, IllegalPlayError, Rules, RulesError
from arena.engine.presets import (
    PENNY_PRESETS,
    five_penny,
    five_penny_advanced,
    four_penny,
    four_penny_advanced,
    three_penny,
    three_penny_advanced,
)
from arena.engine.rules import MoonRule, PennyPlay
from arena.engine.variants.penny import PennyHand, PennyState, penny_points

# Seat 3 wins the opening trick with the AC and leads the first multi-round.
FOUR_HANDS = [
    "2C 3C 4C 5C 2D 3D 4D 2S 3S 4S 2H 3H 4H",
    "6C 7C 8C 9C 5D 6D 7D 5S 6S 7S 5H 6H 7H",
    "TC JC QC KC 8D 9D TD 8S 9S TS 8H 9H TH",
    "AC JD QD KD AD JS QS KS AS JH QH KH AH",
]


def four_hand(rules: Rules | None = None) -> PennyHand:
    hand = Hand.from_cards(rules or four_penny(), FOUR_HANDS)
    assert isinstance(hand, PennyHand)
    return hand


def opened(rules: Rules | None = None) -> PennyHand:
    """The four-player hand after its opening trick (2C 6C TC AC: seat 3 wins)."""
    hand = four_hand(rules)
    for card in ("2C", "6C", "TC", "AC"):
        hand.play(card)
    return hand


def dealt(rules: Rules, seed: int, **options: object) -> PennyHand:
    """`Hand.deal` under penny rules: a `PennyHand`."""
    hand = Hand.deal(rules, seed, **options)  # type: ignore[arg-type]
    assert isinstance(hand, PennyHand)
    return hand


def play_all(hand: PennyHand, moves: str) -> None:
    """Moves as 'penny:card' words, each by the seat to play."""
    for word in moves.split():
        penny, card = word.split(":")
        hand.play(card, penny=int(penny))


# The first multi-round of `opened()`: seat 3 leads the AD to penny 0; penny 1 is led with a
# club, the QS is discarded on it (breaking), seat 1 then leads the 7H to penny 3.
FIRST_MULTI_ROUND = (
    "0:AD 1:3C 0:5D 1:JC 2:AS 0:2D 1:7C 0:8D 1:QS 2:4S 3:7H 2:TS 3:AH 3:2H 2:7S 3:TH"
)


# -- the presets and the card counts ---------------------------------------------------


@pytest.mark.parametrize(
    ("build", "players", "removed", "openings", "rounds"),
    [
        # "sixteen cards have been played, four to each penny-round" x "three multi-rounds"
        # after "one regular opening round": 4 x 13 = 4 + 3 x 16.
        (four_penny, 4, "", 1, 3),
        (four_penny_advanced, 4, "", 1, 3),
        # "Two standard opening rounds ... five multi-rounds, each with three penny-rounds"
        # with 003's three-player deck (the 2D out): 3 x 17 = 6 + 5 x 9.
        (three_penny, 3, "2D", 2, 5),
        (three_penny_advanced, 3, "2D", 2, 5),
        # "No standard opening round ... Two multi-rounds, each with five penny-rounds" with
        # 003's five-player deck (the 2D and 2S out): 5 x 10 = 2 x 25.
        (five_penny, 5, "2D 2S", 0, 2),
        (five_penny_advanced, 5, "2D 2S", 0, 2),
    ],
)
def test_the_card_counts_of_each_game(build, players, removed, openings, rounds):
    rules = build()
    assert (rules.players, str(rules.removed_cards)) == (players, removed)
    assert (rules.penny_openings, rules.penny_rounds) == (openings, rounds)
    assert players * rules.hand_size == openings * players + rounds * players * players
    assert rules.penny_play is (
        PennyPlay.ADVANCED if "advanced" in rules.name else PennyPlay.SIMPLE
    )
    assert Rules.from_dict(rules.to_dict()) == rules


def test_penny_settings_are_written_only_when_used():
    assert "penny_play" not in four_penny().replace(penny_play="none", penny_openings=0).to_dict()
    assert four_penny().to_dict()["penny_play"] == "simple"


@pytest.mark.parametrize(
    ("build", "changes", "message"),
    [
        (four_penny, {"penny_openings": 2}, "whole multi-rounds"),
        (four_penny, {"penny_play": "none"}, "penny_openings needs"),
        (five_penny, {"opening": "lowest_club"}, "left_of_dealer"),
        (four_penny, {"moon": "shooters_choice"}, "scored as in standard Hearts"),
        (
            four_penny,
            {"kitty_size": 4, "penny_openings": 0, "opening": "left_of_dealer"},
            "scored as in standard Hearts",
        ),
        (
            three_penny,
            {"jokers": 3, "penny_openings": 0, "opening": "left_of_dealer"},
            "scored as in standard Hearts",
        ),
    ],
)
def test_impossible_penny_rules_are_refused(build, changes, message):
    with pytest.raises(RulesError, match=message):
        build().replace(**changes)


# -- the opening tricks -----------------------------------------------------------------


def test_the_two_of_clubs_leads_one_regular_opening_round():
    """ "one regular opening round of Hearts is played ... The player with the Two of Clubs
    leads that card, and the other players in turn each play a card.\""""
    hand = four_hand()
    assert (hand.to_play, str(hand.legal_plays()), hand.multi_round) == (0, "2C", None)
    assert hand.legal_moves() == ((-1, Card.from_str("2C")),)
    hand.play("2C")
    assert hand.to_play == 1 and hand.current_trick == ((0, Card.from_str("2C")),)
    with pytest.raises(IllegalPlayError, match="one at a time"):
        hand.play("6C", penny=0)


def test_the_winner_of_the_first_trick_becomes_the_first_lead_player():
    """ "The player who wins the first trick becomes the first lead player.\""""
    hand = opened()
    assert hand.tricks()[0].winner == 3
    assert (hand.leader, hand.to_play, hand.multi_round) == (3, 3, 0)
    assert hand.pennies == ((), (), (), ())
    assert all(len(hand.hand_of(seat)) == 12 for seat in range(4))


def test_the_opening_trick_may_take_points_under_003s_regular_rules():
    """003's own regular Hearts ("Otherwise, a player can play any card") has no first-trick
    ban, and neither has the opening round here; a scoring card on it breaks, so the first
    lead player may lead a heart (docs/rules.md)."""
    hand = Hand.from_cards(
        four_penny(),
        [
            "2C 3C 4C 5C 6C 2D 3D 4D 2S 3S 4S 2H 3H",
            "QS 5D 6D 7D 5S 6S 7S 4H 5H 6H 7H 8H 9H",
            "7C 8C 9C TC JC 8D 9D TD 8S 9S TS TH JH",
            "QC KC AC JD QD KD AD JS KS AS QH KH AH",
        ],
    )
    assert isinstance(hand, PennyHand)
    hand.play("2C")
    assert "QS" in str(hand.legal_plays()) and "4H" in str(hand.legal_plays())
    hand.play("QS")
    hand.play("7C")
    hand.play("AC")
    assert (hand.leader, hand.hearts_broken, hand.multi_round) == (3, True, 0)
    assert Card.from_str("QS") in hand.taken(3)
    assert (0, Card.from_str("AH")) in hand.legal_moves()


def test_three_penny_plays_two_opening_rounds_then_five_multi_rounds():
    """ "Two standard opening rounds of Hearts are played at the beginning of the game, and
    five multi-rounds, each with three penny-rounds, are played.\""""
    hand = dealt(three_penny(), 11, pass_direction="hold")
    assert str(hand.legal_plays()) == "2C"
    hand.play("2C")
    while hand.trick_number < 2:
        assert hand.multi_round is None
        hand.play(hand.legal_plays().first())
    second = hand.tricks()[1]
    assert (hand.multi_round, hand.leader, hand.to_play) == (0, second.winner, second.winner)
    assert all(len(hand.hand_of(seat)) == 15 for seat in range(3))
    rounds = 0
    while not hand.is_over:
        before = hand.multi_round
        assert before is not None
        for _ in range(9):
            hand.play(hand.legal_plays().first())
        assert hand.multi_round == before + 1
        rounds += 1
    assert rounds == 5 and len(hand.tricks()) == 2 + 5 * 3


@pytest.mark.parametrize("dealer", [0, 2, 4])
def test_five_penny_has_no_opening_round_and_the_dealers_left_leads(dealer):
    """ "No standard opening round of Hearts is played. Instead, the player to the left of
    the dealer is the lead player for the first multi-round. Two multi-rounds, each with
    five penny-rounds, are played.\""""
    hand = dealt(five_penny(), 3, dealer=dealer, pass_direction="hold")
    assert (hand.multi_round, hand.leader, hand.to_play) == (0, (dealer + 1) % 5, (dealer + 1) % 5)
    assert len(hand.pennies) == 5 and all(len(hand.hand_of(s)) == 10 for s in range(5))
    moves = hand.legal_moves()
    assert {penny for penny, _ in moves} == {0, 1, 2, 3, 4}
    for _ in range(50):
        hand.play(hand.legal_plays().first())
    assert hand.is_over and len(hand.tricks()) == 10


def test_a_dealers_call_of_hold_starts_the_multi_rounds_without_opening_tricks():
    rules = five_penny().replace(
        pass_schedule=("dealer_calls",), pass_call_options=("hold", "left")
    )
    hand = dealt(rules, 3, dealer=1)
    assert hand.phase.value == "calling" and hand.multi_round is None
    hand.apply_call("hold")
    assert (hand.view(2).multi_round, hand.to_play) == (0, 2)
    assert {penny for penny, _ in hand.legal_moves()} == set(range(5))


def test_five_penny_passes_first():
    hand = dealt(five_penny(), 3, pass_direction="left")
    assert hand.multi_round is None and hand.passes_pending == (0, 1, 2, 3, 4)
    for seat in range(5):
        hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
    assert hand.multi_round == 0 and hand.to_play == 1


# -- the multi-round ----------------------------------------------------------------------


def test_the_lead_player_plays_first_and_the_others_follow_clockwise():
    """ "The lead player plays the first card in a multi-round, and the other players in turn
    moving clockwise around the circle each plays a card. Play continues around the circle
    until sixteen cards have been played, four to each penny-round.\""""
    hand = opened()
    seats = []
    for word in FIRST_MULTI_ROUND.split():
        seats.append(hand.to_play)
        penny, card = word.split(":")
        hand.play(card, penny=int(penny))
    assert seats == [3, 0, 1, 2] * 4
    assert hand.multi_round == 1
    assert [len(trick.plays) for trick in hand.tricks()[1:]] == [4, 4, 4, 4]


def test_cards_can_be_played_to_the_pennies_in_any_order():
    """ "Cards can be played to the different penny-rounds in any order.\""""
    hand = opened()
    hand.play("AD", penny=3)
    hand.play("3C", penny=1)
    assert hand.pennies[3] == ((3, Card.from_str("AD")),)
    assert hand.pennies[1] == ((0, Card.from_str("3C")),)
    assert hand.pennies[0] == hand.pennies[2] == ()


def test_the_suit_led_to_a_penny_must_be_followed_on_that_penny():
    """ "A player must play a card of the suit that was led to a penny-round, if possible.\""""
    hand = opened()
    hand.play("AD", penny=0)  # seat 3 leads a diamond to penny 0
    hand.play("3C", penny=1)  # seat 0 leads a club to penny 1
    # Seat 1 holds diamonds and clubs: a diamond on penny 0, a club on penny 1.
    moves = {(penny, str(card)) for penny, card in hand.legal_moves()}
    assert (0, "5D") in moves and (0, "7C") not in moves and (0, "5H") not in moves
    assert (1, "7C") in moves and (1, "5D") not in moves
    with pytest.raises(IllegalPlayError, match="must follow suit on penny 0: diamonds") as error:
        hand.play("8C", penny=0)
    assert error.value.code == 7
    hand.play("8C", penny=1)
    # Seat 2 is void of nothing here; seat 3 later holds no club: it may discard on penny 1.
    hand.play("8D", penny=0)
    assert {str(c) for p, c in hand.legal_moves() if p == 1} == {str(c) for c in hand.hand_of(3)}


def test_a_scoring_card_cannot_be_led_until_one_has_been_played():
    """ "a scoring card cannot be led until a scoring card has been played on a penny-round.
    (Once a scoring card has been played, scoring cards can be led in the current and future
    multi-rounds.)\""""
    hand = opened()
    assert not hand.hearts_broken
    leads = {str(card) for _, card in hand.legal_moves()}
    assert leads == {"JD", "QD", "KD", "AD", "JS", "KS", "AS"}  # no QS, no heart
    with pytest.raises(IllegalPlayError, match="no scoring card has been played") as error:
        hand.play("AH", penny=2)
    assert error.value.code == 9
    play_all(hand, "0:AD 1:3C 0:5D 1:JC 2:AS 0:2D 1:7C 0:8D")
    assert (hand.to_play, hand.hearts_broken) == (3, False)
    hand.play("QS", penny=1)  # a scoring card played on a penny-round
    assert hand.hearts_broken
    play_all(hand, "2:4S")
    # In the current multi-round already, seat 1 may lead a heart to the empty penny 3.
    assert (3, Card.from_str("7H")) in hand.legal_moves()
    hand.play("7H", penny=3)


def test_a_hand_of_nothing_but_scoring_cards_may_lead_one():
    """003 'PLAY': "any non-scoring card ... unless the player holds nothing except scoring
    cards" -- the same exception on an empty penny (docs/rules.md)."""
    state = PennyState(
        3,
        0,
        1,
        (
            Card.from_str("2H").mask | Card.from_str("3H").mask | Card.from_str("QS").mask,
            CardSet.parse("2C 3C 4C").mask,
            CardSet.parse("5C 6C 7C").mask,
        ),
        (0, 0, 0),
        (0, 0, 0),
        0,
        0,
        CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH").mask,
        CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH").mask,
    )
    assert state.legal_masks()[0] == state.hand(0)
    assert state.play(0, Card.from_str("2H").index) == 0


def test_the_simple_version_plays_one_card_to_each_penny():
    """ "In the simple version of Four-Penny Hearts, each player plays one card to each
    penny-round during a multi-round.\""""
    hand = opened()
    play_all(hand, "0:AD 1:3C 0:5D 1:JC")
    assert all(penny != 0 for penny, _ in hand.legal_moves())
    with pytest.raises(IllegalPlayError, match="has played to penny 0 already") as error:
        hand.play("KD", penny=0)
    assert error.value.code == 25
    hand = opened()
    play_all(hand, FIRST_MULTI_ROUND)
    for plays in (trick.plays for trick in hand.tricks()[1:]):
        assert sorted(seat for seat, _ in plays) == [0, 1, 2, 3]


def test_the_advanced_version_allows_several_cards_on_a_penny_but_exactly_four():
    """ "In the advanced version of the game, a player can play more than one card to a
    penny-round provided that exactly four cards are played to each.\""""
    hand = opened(four_penny_advanced())
    play_all(hand, "0:AD 1:3C 0:5D 1:JC")
    hand.play("KD", penny=0)  # seat 3's second card on penny 0
    assert [seat for seat, _ in hand.pennies[0]] == [3, 1, 3]
    hand.play("2D", penny=0)  # the fourth card: penny 0 is complete
    assert all(penny != 0 for penny, _ in hand.legal_moves())
    with pytest.raises(IllegalPlayError, match="already holds its 4 cards") as error:
        hand.play("6D", penny=0)
    assert error.value.code == 24
    while hand.multi_round == 0:
        hand.play(hand.legal_plays().first())
    finished = hand.tricks()[1:]
    assert len(finished) == 4 and all(len(trick.plays) == 4 for trick in finished)
    assert any(len({seat for seat, _ in trick.plays}) < 4 for trick in finished)


def test_each_penny_is_won_by_its_own_high_card_of_the_suit_led():
    """ "When the multi-round is complete, each penny-round is inspected individually, and the
    player who wins each trick takes it.\""""
    hand = opened()
    play_all(hand, FIRST_MULTI_ROUND)
    tricks = hand.tricks()[1:]
    # Penny 0: AD 5D 2D 8D (seat 3); penny 1: 3C JC 7C QS (seat 2, the JC takes the QS);
    # penny 2: AS 4S TS 7S (seat 3); penny 3: 7H AH 2H TH (seat 3).
    assert [trick.winner for trick in tricks] == [3, 2, 3, 3]
    assert [trick.leader for trick in tricks] == [3, 0, 3, 1]
    assert Card.from_str("QS") in hand.taken(2)
    assert [hand.tricks_won(seat) for seat in range(4)] == [0, 0, 1, 4]


def test_the_most_tricks_of_the_multi_round_lead_the_next():
    """ "The player who has won the most tricks during a multi-round becomes the lead player
    for the next multi-round.\""""
    hand = opened()
    play_all(hand, FIRST_MULTI_ROUND)
    assert (hand.leader, hand.to_play, hand.multi_round) == (3, 3, 1)


def multi_round(leader: int, hands: list[str], moves: str) -> PennyState:
    """One simple multi-round of four from explicit hands (four cards each), points broken."""
    state = PennyState(
        4, 0, 1, tuple(CardSet.parse(h).mask for h in hands), (0,) * 4, (0,) * 4, leader, 1, 0, 0
    )
    for word in moves.split():
        penny, card = word.split(":")
        assert state.play(int(penny), Card.from_str(card).index) == 0, word
    assert state.over
    return state


def test_a_tie_for_most_tricks_goes_to_the_first_tied_player_left_of_the_lead():
    """ "If two or more players tie for taking the most tricks, the first player to the left
    of the lead player who is tied for most tricks becomes the new lead player.\""""
    # Seat 1 leads; seats 0 and 2 win two penny-rounds each: seat 2 is first to his left.
    state = multi_round(
        1,
        ["AC KC AD KD", "2C 3C 2D 3D", "AS KS AH KH", "2S 3S 2H 3H"],
        "0:2C 1:AS 1:2S 0:AC 2:2D 3:AH 3:2H 2:AD 1:3C 0:KS 0:3S 1:KC 3:3D 2:KH 2:3H 3:KD",
    )
    assert [winner for _, _, winner in state.history()] == [0, 2, 0, 2]
    assert state.leader == 2


def test_the_lead_player_tied_for_most_tricks_comes_last():
    """The lead player is the last seat "to the left of the lead player": tied with another
    seat, he gives the lead up (docs/rules.md)."""
    state = multi_round(
        1,
        ["AS KS AH KH", "AC KC AD KD", "2C 3C 2D 3D", "2S 3S 2H 3H"],
        "0:AC 0:2C 1:2S 1:AS 2:AD 2:2D 3:2H 3:AH 1:KC 1:3C 0:3S 0:KS 3:KD 3:3D 2:3H 2:KH",
    )
    assert [winner for _, _, winner in state.history()] == [1, 0, 1, 0]
    assert state.leader == 0


def test_the_hand_is_scored_as_in_standard_hearts_after_the_last_multi_round():
    """ "Play continues until three multi-rounds have been played. Then the points are
    scored as in standard Hearts.\""""
    hand = opened()
    play_all(hand, FIRST_MULTI_ROUND)
    with pytest.raises(ValueError, match="not over"):
        hand.points()
    while not hand.is_over:
        hand.play(hand.legal_plays().first())
    assert hand.multi_round == 3 and len(hand.tricks()) == 13
    taken = [hand.taken(seat) for seat in range(4)]
    raw = [sum(hand.rules.value_of(card) for card in cards) for cards in taken]
    points = hand.points()
    if max(raw) == 26:
        assert sorted(points) == [0, 26, 26, 26]
    else:
        assert points == tuple(raw) and sum(points) == 26


@pytest.mark.parametrize(("moon", "expected"), [("old", (0, 26, 26)), ("new", (-26, 0, 0))])
def test_the_moon(moon, expected):
    rules = three_penny().replace(moon=moon)
    everything = CardSet.parse("QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH").mask
    assert penny_points(rules, [everything, 1, 2]) == expected
    assert penny_points(rules.replace(moon=MoonRule.NONE), [everything, 1, 2]) == (26, 0, 0)


# -- card-only callers ----------------------------------------------------------------------


def test_a_card_without_a_penny_goes_to_the_lowest_penny_where_it_is_legal():
    """A caller that gives a card alone (a bot written for one trick at a time) plays it to
    the lowest-numbered penny where it is legal (docs/protocol.md)."""
    hand = opened()
    hand.play("AD")  # every penny is empty: penny 0
    assert hand.pennies[0] == ((3, Card.from_str("AD")),)
    hand.play("3C")  # seat 0 may not put a club on penny 0 (diamonds led there): penny 1
    assert hand.pennies[1] == ((0, Card.from_str("3C")),)
    assert (hand.default_penny("5D"), hand.default_penny("7C")) == (0, 1)
    # A heart is legal nowhere for seat 1: it follows on pennies 0 and 1, and may not lead it.
    assert hand.default_penny("5H") is None and not hand.is_legal("5H")
    assert "penny 0" in (hand.illegal_reason("5H") or "")
    with pytest.raises(IllegalPlayError, match="must follow suit on penny 0"):
        hand.play("5H")
    hand.play("7C")
    assert hand.pennies[1][-1] == (1, Card.from_str("7C"))
    # Seat 2: clubs on penny 1, diamonds on penny 0, a spade led to penny 2 or 3.
    assert str(hand.legal_plays()) == "JC QC KC 8D 9D TD 8S 9S TS"


def test_the_fast_path_and_search_undo_work_across_the_switch():
    hand = four_hand()
    start = hand.view(0)
    for card in ("2C", "6C", "TC", "AC"):
        hand.push(card)
    assert hand.multi_round == 0
    hand.push("AD")
    assert hand.pennies[0] and hand.legal_mask() == hand.legal_plays().mask
    hand.pop()
    assert hand.pennies == ((), (), (), ())
    for _ in range(4):
        hand.pop()
    assert hand.multi_round is None and hand.view(0) == start


def test_pop_undoes_plays_as_well_as_pushes_back_to_the_deal():
    """`pop` undoes the last `play` or `push`, as `Hand.pop` does, through a multi-round's
    end and the switch from the opening trick."""
    hand = four_hand()
    views = [hand.view(0)]
    moves = 0
    while hand.multi_round is None or hand.multi_round < 1 or not any(hand.pennies):
        penny, card = hand.legal_moves()[-1]
        hand.play(card, penny=None if penny < 0 else penny)
        views.append(hand.view(0))
        moves += 1
    assert moves == 4 + 16 + 1
    for _ in range(moves):
        hand.pop()
        views.pop()
        assert hand.view(0) == views[-1]
    assert hand.multi_round is None and len(hand.hand_of(0)) == 13
    with pytest.raises(IndexError):
        hand.pop()


def test_the_view_shows_every_open_penny_and_the_moves():
    hand = opened()
    play_all(hand, "0:AD 1:3C")
    view = hand.view(1)
    assert view.pennies == hand.pennies and view.legal_moves == hand.legal_moves()
    assert hand.view(2).legal_moves == () and hand.view(2).pennies == hand.pennies
    assert view.current_trick == () and len(view.tricks) == 1


# -- random play --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PENNY_PRESETS))
def test_random_play_invariants(name):
    """On 150 random hands of each preset: every card is played once; each penny-round holds
    n cards; in the simple version each seat once; the turn goes round from the lead player;
    the next lead has the most penny-rounds of the multi-round (the tie rule); every move
    offered is legal and nothing else is; the points are 26 (or a moon)."""
    rules = PENNY_PRESETS[name]()
    n = rules.players
    for seed in range(150):
        rng = random.Random(seed)
        hand = dealt(rules, seed, dealer=seed % n, pass_direction=rules.pass_direction(seed))
        for seat in hand.passes_pending:
            hand.apply_pass(seat, rng.sample(sorted(hand.hand_of(seat)), rules.pass_count))
        while not hand.is_over:
            if hand.multi_round is not None and not any(hand.pennies):
                leader, start = hand.leader, len(hand.tricks())
                for turn in range(n * n):
                    assert hand.to_play == (leader + turn) % n
                    moves = hand.legal_moves()
                    for penny in range(n):
                        for card in hand.hand_of(hand.to_play):
                            assert hand.is_legal(card, penny) == ((penny, card) in moves)
                    penny, card = moves[rng.randrange(len(moves))]
                    hand.play(card, penny=penny)
                won = [trick.winner for trick in hand.tricks()[start:]]
                counts = [won.count(seat) for seat in range(n)]
                order = [(leader + k) % n for k in range(1, n + 1)]
                assert hand.leader == next(s for s in order if counts[s] == max(counts))
            else:
                hand.play(hand.legal_plays().first())
        tricks = hand.tricks()
        assert len(tricks) == rules.penny_openings + rules.penny_rounds * n
        played = [card for trick in tricks for _, card in trick.plays]
        assert sorted(played) == sorted(rules.deck)
        for trick in tricks[rules.penny_openings :]:
            assert len(trick.plays) == n
            if rules.penny_play is PennyPlay.SIMPLE:
                assert sorted(seat for seat, _ in trick.plays) == list(range(n))
            led = trick.plays[0][1].suit
            best = max((c for _, c in trick.plays if c.suit is led), key=lambda c: c.rank)
            assert (trick.winner, best) in trick.plays
        assert sum(hand.tricks_won(seat) for seat in range(n)) == len(tricks)
        points = hand.points()
        assert sum(points) == 26 or (sorted(points)[0] == 0 and sum(points) == 26 * (n - 1))


@pytest.mark.parametrize("name", sorted(PENNY_PRESETS))
def test_a_game_of_penny_hands_runs_to_its_end(name):
    game = Game(PENNY_PRESETS[name](), seed=4)
    while not game.is_over:
        hand = game.hand
        assert isinstance(hand, PennyHand)
        for seat in hand.passes_pending:
            hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
        while not hand.is_over:
            hand.play(hand.legal_plays().first())
        game.finish_hand()
    assert max(game.totals) >= 100
