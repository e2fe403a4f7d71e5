"""Cancellation Hearts (000 'Cancellation Hearts'; 003 'CANCELLATION HEARTS'): each
sentence of the sources as a scenario, random-play invariants, and the C module against the
reference decision by decision.

The scenarios run on the backend in use (C, or the reference under ARENA_PUREPYTHON=1);
the differential needs the C module built.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from arena.engine import (
    Card,
    CardSet,
    IllegalPassError,
    IllegalPlayError,
    Rules,
    RulesError,
    Suit,
)
from arena.engine.multiset import CardMultiset
from arena.engine.presets import cancellation, cancellation_four
from arena.engine.variants import cancellation_reference as reference
from arena.engine.variants.cancellation import CancellationHand, cancellation_config
from tests.engine.backends import chunk_id, seed_chunks

try:
    from arena.engine.variants import _cancellation as c_module  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - the C module is normally built
    c_module = None

# A four-seat table with every card twice (003: "can easily be played by three to five
# players"), so that tricks can be written by hand: a play by the sources' own rules.
FOUR = Rules.from_dict(
    {
        "name": "cancellation_test",
        "players": 4,
        "cancellation": True,
        "pass_schedule": ["hold"],
        "opening": "left_of_dealer",
        "first_trick": "any",
        "lead_rule": "any",
        "broken_by": "point_cards",
        "moon": "old",
    }
)


def explicit(rules: Rules, hands: list[str], widow: str = "", dealer: int = 3) -> Any:
    return CancellationHand.from_cards(rules, hands, kitty=widow, dealer=dealer)


def tiny(hands: list[str], widow: str = "", **changes: Any) -> Rules:
    """Rules whose double pack is exactly the cards given (each hand the same size)."""
    pile = CardMultiset(" ".join([*hands, widow]).split())
    once = pile.mask
    removed = CardSet.from_mask(((1 << 52) - 1) & ~once)
    values = {card: value for card, value in FOUR.card_values.items() if card in pile}
    if not any(value > 0 for value in values.values()):
        changes.setdefault("moon", "none")
    return FOUR.replace(
        removed_cards=removed,
        second_pack_removed=CardSet.from_mask(once & ~pile.twice),
        card_values=values,
        kitty_size=len(widow.split()),
        players=len(hands),
        **changes,
    )


# -- 003's worked example ------------------------------------------------------------


def test_six_of_clubs_example_nobody_wins() -> None:
    """003: "If the lead player plays the Six of Clubs, and the other players play the Six
    of Clubs, the Ten of Diamonds, and the Queen of Hearts, there is no high card in the
    suit that was led, and nobody wins the trick.\""""
    hands = ["6C 9C", "6C KC", "TD JD", "QH QS"]
    hand = explicit(tiny(hands), hands)
    assert hand.to_play == 0
    for card in ("6C", "6C", "TD", "QH"):
        hand.play(card)
    (trick,) = hand.tricks()
    assert trick.winner == -1
    assert all(hand.tricks_won(seat) == 0 for seat in range(4))
    assert str(hand.set_aside) == "6C 6C TD QH"


def test_unwon_trick_set_aside_same_leader_next_winner_takes_it() -> None:
    """003: "If nobody wins a trick, it is set aside, and the same lead player leads in the
    next round. Then the next player who wins a trick also wins any tricks that have been
    set aside.\""""
    hands = ["6C 9C", "6C KC", "TD JD", "QH QS"]
    hand = explicit(tiny(hands), hands)
    for card in ("6C", "6C", "TD", "QH"):
        hand.play(card)
    assert hand.leader == 0 and hand.to_play == 0
    for card in ("9C", "KC", "JD", "QS"):
        hand.play(card)
    assert [trick.winner for trick in hand.tricks()] == [-1, 1]
    assert str(hand.taken(1)) == "6C 6C 9C KC TD JD QS QH"
    assert hand.tricks_won(1) == 1
    assert str(hand.set_aside) == ""


def test_last_trick_unwon_discards_it_and_the_set_aside_tricks() -> None:
    """003: "if nobody wins the last trick, that trick and any tricks that were set-aside
    are discarded and are not counted in the scoring.\""""
    hands = ["6C 9C", "6C 9C", "TD JD", "QH QS"]
    hand = explicit(tiny(hands), hands)
    for card in ("6C", "6C", "TD", "QH", "9C", "9C", "JD", "QS"):
        hand.play(card)
    assert hand.is_over
    assert [trick.winner for trick in hand.tricks()] == [-1, -1]
    assert str(hand.discarded) == "6C 6C 9C 9C TD JD QS QH"
    assert hand.points() == (0, 0, 0, 0)


def test_identical_cards_cancel_the_next_highest_wins() -> None:
    """003: "if two players lay down exactly the same card, the two cards cancel each other
    and neither card can win the trick" -- the highest card left in the suit led wins."""
    hands = ["6C", "KC", "KC", "9C"]
    hand = explicit(tiny(hands), hands)
    for card in ("6C", "KC", "KC", "9C"):
        hand.play(card)
    assert hand.tricks()[0].winner == 3


def test_same_rank_other_suit_does_not_cancel_a_winner() -> None:
    """000 says "same rank", 003 "exactly the same card": with two packs, two cards of the
    led suit and the same rank are the same card, and off-suit cards never win; so a
    same-rank card of another suit changes nothing (docs/rules.md)."""
    hands = ["KC", "KD", "2C", "3C"]
    hand = explicit(tiny(hands), hands)
    for card in ("KC", "KD", "2C", "3C"):
        hand.play(card)
    assert hand.tricks()[0].winner == 0


def test_all_cards_paired_goes_to_next_winner() -> None:
    """000: "If all cards played to a trick are paired, the trick goes to the winner of
    the next trick.\""""
    hands = ["5C 7D", "5C 2D", "AH 3D", "AH 4D"]
    hand = explicit(tiny(hands), hands)
    for card in ("5C", "5C", "AH", "AH"):
        hand.play(card)
    for card in ("7D", "2D", "3D", "4D"):
        hand.play(card)
    assert [t.winner for t in hand.tricks()] == [-1, 0]
    assert hand.taken(0).count("AH") == 2


def test_widow_added_to_the_first_trick() -> None:
    """000: "Any remaining odd cards are placed face down for a widow" and "The widow is
    added to the first trick"."""
    hands = ["6C", "7C", "8C"]
    hand = explicit(tiny(hands, "QS QS"), hands, widow="QS QS", dealer=2)
    for card in ("6C", "7C", "8C"):
        hand.play(card)
    assert hand.kitty_owner == 2
    assert hand.taken(2).count("QS") == 2


def test_widow_of_an_unwon_first_trick_goes_to_the_next_winner() -> None:
    """Where the sources are silent: the widow is part of the first trick, so an unwon
    first trick carries it to the next winner (docs/rules.md)."""
    hands = ["6C 2D", "6C 3D", "9D 4D"]
    hand = explicit(tiny(hands, "QS"), hands, widow="QS", dealer=2)
    for card in ("6C", "6C", "9D"):
        hand.play(card)
    assert hand.kitty_owner is None and "QS" in hand.set_aside
    for card in ("2D", "3D", "4D"):
        hand.play(card)
    assert hand.kitty_owner == 2 and "QS" in hand.taken(2)


def test_opening_lead_left_of_dealer_and_no_pass() -> None:
    """000: "No cards are passed before the play. The player to the dealer's left makes the
    opening lead"."""
    rules = cancellation(9)
    hand = CancellationHand.deal(rules, seed=11, dealer=4)
    assert hand.phase.value == "playing" and hand.passes_pending == ()
    assert hand.to_play == 5
    with pytest.raises(IllegalPassError):
        hand.apply_pass(0, list(hand.hand_of(0))[:3])


def test_first_trick_no_penalty_card_on_000s_table() -> None:
    """000 Four-Hand Hearts: "if a player has no clubs when the first trick is led, a heart
    or the queen of spades cannot be discarded" -- on the first trick, whatever is led, a
    penalty card only when nothing else may be played."""
    penalty = CardSet(card for card in cancellation().card_values)
    seen = 0
    for seed in range(60):
        hand = CancellationHand.deal(cancellation(), seed=seed)
        rng = random.Random(seed)
        while hand.trick_number == 0:
            legal = hand.legal_plays()
            if legal & penalty:
                assert not legal - penalty
            held = hand.hand_of(hand.to_play or 0).distinct()
            seen += bool(held & penalty) and not (legal & penalty)
            hand.play(rng.choice(list(legal)))
    assert seen


def test_two_packs_deal_as_far_as_they_go() -> None:
    """000: "Seven to ten people can play"; "Two standard packs of 52 cards are shuffled
    together"; "dealt around as far as they will go evenly"."""
    for players, size, widow in ((7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4)):
        hand = CancellationHand.deal(cancellation(players), seed=players)
        assert [len(hand.hand_of(s)) for s in range(players)] == [size] * players
        assert len(hand.kitty) == widow
        pile = hand.kitty
        for seat in range(players):
            for card in hand.hand_of(seat):
                pile = pile.add(card)
        assert pile == cancellation(players).deck_copies and len(pile) == 104
    with pytest.raises(RulesError):
        cancellation(6)


def test_52_points_two_queens() -> None:
    """003: "There are twice as many scoring cards in Cancellation Hearts -- 26 Hearts and
    two Queens of Spades for a total of 52 points.\""""
    rules = cancellation()
    assert rules.penalty_total == 52
    hearts = [card for card in rules.deck_copies if card.suit is Suit.HEARTS]
    assert rules.deck_copies.count("QS") == 2 and len(hearts) == 26


def test_four_player_deck_composition_and_39_points() -> None:
    """003: "Remove the Twos from one deck, and the Threes, Fours, Fives, Sixes, Sevens,
    and Eights from both decks. Shuffle together the remaining 52-cards" ... "13 points for
    the 13 Hearts, and 26 points for the two Queens of Spades"."""
    rules = cancellation_four()
    deck = rules.deck_copies
    assert len(deck) == 52 and rules.hand_size == 13
    assert all(deck.count(f"2{suit}") == 1 for suit in "CDSH")
    assert all(deck.count(f"{r}{s}") == 0 for r in "345678" for s in "CDSH")
    assert all(deck.count(f"{r}{s}") == 2 for r in "9TJQKA" for s in "CDSH")
    hearts = [card for card in deck if card.suit is Suit.HEARTS]
    assert len(hearts) == 13 and rules.penalty_total == 39
    assert Rules.from_dict(rules.to_dict()) == rules


def test_four_player_form_passes_and_the_two_of_clubs_leads() -> None:
    """003: "Then play Cancellation Hearts according to the above rules", which are "the
    same as the rules of Hearts": 003's Hearts passes three cards left first, and "the lead
    player is the player holding the Two of Clubs, and that player plays the Two of Clubs"."""
    hand = CancellationHand.deal(cancellation_four(), seed=5)
    assert hand.phase.value == "passing"
    for seat in range(4):
        hand.apply_pass(seat, list(hand.hand_of(seat))[-3:])
    assert hand.to_play == hand.seat_holding("2C")
    assert str(hand.legal_plays()) == "2C"
    leader = hand.seat_holding("2C")
    assert leader is not None
    with pytest.raises(IllegalPlayError, match="lowest club"):
        hand.play(next(c for c in hand.hand_of(leader) if str(c) != "2C"))


def test_both_copies_may_be_passed_only_when_held() -> None:
    hand = CancellationHand.deal(cancellation_four(), seed=3)
    for seat in range(4):
        held = hand.hand_of(seat)
        single = next(card for card in held if held.count(card) == 1)
        with pytest.raises(IllegalPassError, match="more often than it holds"):
            hand.apply_pass(seat, [single, single, next(c for c in held if c != single)])
        double = [card for card in held if held.count(card) == 2]
        if double:
            hand.apply_pass(seat, [double[0], double[0], next(c for c in held if c != double[0])])
            assert hand.passed(seat).count(double[0]) == 2


def test_moon_every_penalty_copy() -> None:
    """The old moon (000 'Shooting the Moon'; 003) over two packs: every penalty copy in
    play taken by one seat scores 0 and the others the points in play."""
    hands = ["AH AS", "KH QS", "3C QS"]
    hand = explicit(tiny(hands), hands, dealer=2)
    for card in ("AH", "KH", "3C", "AS", "QS", "QS"):  # the queens cancel; the AS wins
        hand.play(card)
    assert hand.points() == (0, 28, 28)


def test_no_moon_when_points_are_discarded() -> None:
    """Points discarded with an unwon last trick are scored by nobody (003), so nobody can
    have taken every penalty copy."""
    hands = ["QS AH", "QS 2C", "AH 3C"]
    hand = explicit(tiny(hands), hands, dealer=2)
    for card in ("AH", "2C", "AH", "QS", "QS", "3C"):  # the aces cancel, then the queens
        hand.play(card)
    assert hand.points() == (0, 0, 0)
    assert len(hand.discarded) == 6


# -- random play ---------------------------------------------------------------------


def play_random(rules: Rules, seed: int) -> CancellationHand:
    rng = random.Random(seed)
    hand = CancellationHand.deal(rules, seed=seed, dealer=seed % rules.players)
    for seat in hand.passes_pending:
        hand.apply_pass(seat, rng.sample(list(hand.hand_of(seat)), rules.pass_count))
    while not hand.is_over:
        hand.play(rng.choice(list(hand.legal_plays())))
    return hand


@pytest.mark.parametrize(
    "rules",
    [cancellation(7), cancellation(8), cancellation(9), cancellation(10), cancellation_four()],
    ids=lambda rules: f"{rules.name}-{rules.players}",
)
def test_random_play_invariants(rules: Rules) -> None:
    """Every copy ends in exactly one place (a seat's tricks or the discard); the points
    scored plus the points discarded are the points in play, unless a moon moved them."""
    total = rules.penalty_total
    for seed in range(250):
        hand = play_random(rules, seed)
        pile = hand.discarded
        for seat in range(rules.players):
            assert len(hand.hand_of(seat)) == 0
            for card in hand.taken(seat):
                pile = pile.add(card)
        assert pile == rules.deck_copies
        assert len(hand.set_aside) == 0
        points = hand.points()
        discarded = sum(rules.value_of(card) for card in hand.discarded)
        if sorted(points) == [0] + [total] * (rules.players - 1):
            continue  # an old moon
        assert sum(points) + discarded == total
        for trick in hand.tricks():
            led = trick.plays[0][1].suit
            alive = [c for _, c in trick.plays if c.suit == led]
            alive = [c for c in alive if alive.count(c) == 1]
            if trick.winner < 0:
                assert not alive
            else:
                assert dict(trick.plays)[trick.winner] == max(alive)


def test_pop_undoes_a_play() -> None:
    hand = CancellationHand.deal(cancellation(), seed=2)
    rng = random.Random(2)
    for _ in range(60):
        before = [hand.hand_of(s) for s in range(8)], hand.tricks(), hand.to_play
        card = rng.choice(list(hand.legal_plays()))
        hand.push(card)
        hand.pop()
        assert ([hand.hand_of(s) for s in range(8)], hand.tricks(), hand.to_play) == before
        hand.play(card)


# -- the C module against the reference ------------------------------------------------


def multiset_counts(pair: tuple[int, int]) -> list[int]:
    return reference.counts_of(*pair)


TABLES = [cancellation(7), cancellation(8), cancellation(9), cancellation(10), cancellation_four()]


def compare_backends(rules: Rules, seeds: range) -> None:
    """Both backends, the same question at every decision of each deal: legal plays, every
    card's error code, the state, the tricks, the score."""
    cfg = cancellation_config(rules)
    n = rules.players
    offset = 1 if rules.pass_schedule[0].value == "left" else 0
    for seed in seeds:
        dealer = seed % n
        dealt = reference.deal(cfg, seed * 7919 + 1, dealer)
        assert dealt == c_module.deal(cfg, seed * 7919 + 1, dealer)
        states = [
            backend.CancellationState(cfg, dealt[0], dealt[1], dealer, offset)
            for backend in (reference, c_module)
        ]
        rng = random.Random(seed)
        if offset:
            for seat in range(n):
                counts = multiset_counts(states[0].hand(seat))
                cards = [c for c in range(52) for _ in range(counts[c])]
                given = tuple(rng.sample(cards, rules.pass_count))
                assert [s.pass_cards(seat, given) for s in states] == [0, 0]
            assert states[0].received(0) == states[1].received(0)
        while states[0].phase != 2:
            ask = ("to_play", "leader", "trick_number", "broken", "widow_owner", "phase")
            assert [tuple(getattr(s, a) for a in ask) for s in states].count(
                tuple(getattr(states[0], a) for a in ask)
            ) == 2
            masks = [s.legal_mask() for s in states]
            assert masks[0] == masks[1]
            codes = [[s.check_play(card) for card in range(-1, 53)] for s in states]
            assert codes[0] == codes[1]
            card = rng.choice([c for c in range(52) if masks[0] >> c & 1])
            assert [s.play(card) for s in states] == [0, 0]
            if rng.random() < 0.03:
                for s in states:
                    s.pop()
                    s.push(card)
            assert states[0].set_aside() == states[1].set_aside()
        assert states[0].history() == tuple(
            (leader, tuple(cards), winner) for leader, cards, winner in states[1].history()
        )
        assert states[0].points() == states[1].points()
        assert states[0].discarded() == states[1].discarded()
        assert [states[0].taken(s) for s in range(n)] == [states[1].taken(s) for s in range(n)]


@pytest.mark.skipif(c_module is None, reason="arena.engine.variants._cancellation is not built")
@pytest.mark.parametrize("rules", TABLES, ids=lambda rules: f"{rules.name}-{rules.players}")
def test_c_agrees_with_reference(rules: Rules) -> None:
    """600 random deals per table (3,000 in all), decision by decision."""
    compare_backends(rules, range(600))


FULL_HANDS = int(os.environ.get("ARENA_DIFF_HANDS", "5000"))
FULL_FIRST_SEED = 600
DEALS_PER_CHUNK = 1250
"""The full run's deals per test: 5,000 deals of ten players took 71 s in one test on a
loaded CI machine, and the longest test is the one pytest-xdist's two cores wait for."""
FULL_CHUNKS = [
    (rules, seeds)
    for rules in TABLES
    for seeds in seed_chunks(FULL_FIRST_SEED, FULL_HANDS, DEALS_PER_CHUNK)
]
FULL_RUN = [
    pytest.param(rules, seeds, id=f"{rules.name}-{rules.players}-{chunk_id(seeds)}")
    for rules, seeds in FULL_CHUNKS
]


def test_the_full_runs_chunks_hold_each_of_its_deals_once() -> None:
    """The chunks together are the full run's deals: seeds 600 on (after the quick run's),
    per table."""
    for rules in TABLES:
        chunks = [seeds for table, seeds in FULL_CHUNKS if table is rules]
        seeds = [seed for chunk in chunks for seed in chunk]
        assert seeds == list(range(FULL_FIRST_SEED, FULL_FIRST_SEED + FULL_HANDS))
    assert len(FULL_RUN) == len(TABLES) * -(-FULL_HANDS // DEALS_PER_CHUNK)


@pytest.mark.slow
@pytest.mark.skipif(c_module is None, reason="arena.engine.variants._cancellation is not built")
@pytest.mark.parametrize(("rules", "seeds"), FULL_RUN)
def test_c_agrees_with_reference_on_many_deals(
    request: pytest.FixtureRequest, rules: Rules, seeds: range
) -> None:
    """The CI run: ARENA_DIFF_HANDS deals per table (5,000 by default: 25,000 in all, about
    two minutes on one core), after the quick run's, in chunks of DEALS_PER_CHUNK."""
    markexpr = request.config.getoption("markexpr") or ""
    if "slow" not in markexpr and "ARENA_DIFF_HANDS" not in os.environ:
        pytest.skip("the full differential run: select it with -m slow (size: ARENA_DIFF_HANDS)")
    compare_backends(rules, seeds)


@pytest.mark.skipif(c_module is None, reason="arena.engine.variants._cancellation is not built")
def test_c_refuses_what_the_reference_refuses() -> None:
    cfg = cancellation_config(cancellation_four())
    hands, widow = reference.deal(cfg, 1, 0)
    bad = (hands[1], *hands[1:])  # seat 1's cards twice: a third copy somewhere
    for backend in (reference, c_module):
        with pytest.raises(ValueError, match=r"deal|dealt|holds"):
            backend.CancellationState(cfg, bad, widow, 0, 1)
        with pytest.raises(ValueError, match="dealer"):
            backend.deal(cfg, 1, 4)
        state = backend.CancellationState(cfg, hands, widow, 0, 0)
        with pytest.raises(IndexError):
            state.hand(4)
        with pytest.raises(IndexError):
            state.pop()
        assert state.check_play(99) == 3


def test_card_multiset_counts_copies() -> None:
    pile = CardMultiset.parse("QS QS 2H")
    assert len(pile) == 3 and pile.count(Card.from_str("QS")) == 2
    assert pile != CardSet.parse("QS 2H") and pile.distinct() == CardSet.parse("QS 2H")
    with pytest.raises(ValueError, match="twice already"):
        pile.add("QS")


@pytest.mark.skipif(c_module is None, reason="arena.engine.variants._cancellation is not built")
def test_c_and_reference_answer_bad_input_alike() -> None:
    """Garbage in (bad seats, cards out of range, wrong pass sizes, huge ints): the same
    code, or the same kind of exception, from both backends, and nothing corrupted."""
    cfg = cancellation_config(cancellation_four())
    hands, widow = reference.deal(cfg, 9, 1)
    states = [
        backend.CancellationState(cfg, hands, widow, 1, 1) for backend in (reference, c_module)
    ]
    rng = random.Random(9)

    def answer(state: Any, name: str, *args: Any) -> Any:
        try:
            return getattr(state, name)(*args)
        except Exception as error:
            return type(error).__name__

    junk = [-(1 << 70), -1, 52, 60, 1 << 70]
    for _ in range(400):
        seat = rng.choice([-1, 0, 1, 2, 3, 4, 1 << 40])
        size = rng.choice([0, 2, 3, 3, 3, 4])
        cards = tuple(rng.choice([*junk, *range(52)]) for _ in range(size))
        given = [answer(state, "pass_cards", seat, cards) for state in states]
        assert given[0] == given[1], (seat, cards)
        for name in ("check_play", "play"):
            card = rng.choice([*junk, *range(52)])
            assert answer(states[0], name, card) == answer(states[1], name, card)
        assert states[0].hand(0) == states[1].hand(0)
        assert states[0].phase == states[1].phase
    for seat in range(4):  # now real passes, then junk between legal plays
        if not states[0].passed(seat):
            counts = reference.counts_of(*states[0].hand(seat))
            chosen = tuple(c for c in range(52) for _ in range(counts[c]))[:3]
            assert [s.pass_cards(seat, chosen) for s in states] == [0, 0]
    while states[0].phase != 2:
        for name in ("check_play", "play", "push"):
            card = rng.choice(junk)
            assert answer(states[0], name, card) == answer(states[1], name, card)
        mask = states[0].legal_mask()
        card = rng.choice([c for c in range(52) if mask >> c & 1])
        assert [s.play(card) for s in states] == [0, 0]
    assert states[0].points() == states[1].points()
    assert answer(states[0], "play", 0) == answer(states[1], "play", 0) == 1  # hand over
