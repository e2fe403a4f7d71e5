"""The strong bot's sampled deals never contradict what its seat has seen.

The facts are recomputed here from the view, independently of arena.bots.belief: voids
shown by not following suit, cards already played, where this seat's passed cards went,
how many cards each seat holds, a visible kitty. The last check is the strongest: the
hand's whole history must replay *legally* on every sampled deal.
"""

from __future__ import annotations

import random

import pytest

from arena.bots import HeuristicBot, RandomBot
from arena.bots.belief import Belief, InconsistentBeliefError, bits
from arena.engine import (
    CARDS,
    CardSet,
    Hand,
    KittyVisibility,
    PassDirection,
    Rules,
    SeatView,
    preset,
)
from tests.bots.tables import play_hand

SAMPLES_PER_DECISION = 4


def table_rules() -> list[Rules]:
    standard = preset("standard")
    return [
        standard,
        preset("omnibus", players=5),
        preset("black_maria", players=3),  # a hidden kitty, points broken, JD -10
        preset("black_maria", players=5).replace(kitty_visibility=KittyVisibility.FACE_UP),
        preset("spot", players=6),
        standard.replace(pass_schedule=(PassDirection.SCATTER, PassDirection.CENTER)),
        preset("classic"),  # left of the dealer leads anything
        preset("omnibus_jack"),  # queen-and-hearts lead, points on trick one
        # 004 'Joker Hearts': wild jokers play "any time" (no void shown), a joker lead takes
        # the next card's suit; the 1911 joker is a heart held back until a high heart.
        preset("joker"),
        preset("joker", players=5),
        preset("joker_1911"),
        preset("booster_nines"),  # 004: a forced lead proves nothing about the rest
        # 001 'VARIATION 1: BLACK MARIAH': a forced QS shows a void, as any discard does.
        preset("black_maria_purist", players=3),
        preset("black_maria_purist"),
        # 000 'The Play' (standard): only a discarded QS breaks; 002's any QS, kept apart.
        standard.replace(broken_by="hearts_or_queen"),
        # 004: two players, the whole pack; the kitty to the first heart; a card a trick.
        preset("two_player"),
        preset("first_heart_kitty", players=5),
        preset("kitty_each_trick", players=7).replace(kitty_visibility=KittyVisibility.FACE_UP),
        # Issue #23: the 32-card piquet pack, Gong Zhu's 2S opening, Rickety Kate's kitty
        # seen by its taker after a pass of two.
        preset("slobberhannes"),
        preset("gong_zhu", players=5),
        preset("rickety_kate"),
        preset("rickety_kate", players=7),
        # 002 'Alternatives to the "Kitty"': the extra-card seats hold one more card, and
        # play it to the first trick after the round.
        preset("extra_cards", players=3),
        preset("extra_cards", players=5),
    ]


def voids_shown(view: SeatView) -> dict[int, set[int]]:
    """seat -> suits it has shown it does not hold."""
    voids: dict[int, set[int]] = {}
    tricks = [t.plays for t in view.tricks] + [view.current_trick]
    for plays in tricks:
        if not plays:
            continue
        # The suit to follow is the first suited card's (a joker has none, 004 'Joker
        # Hearts'); a joker shows nothing, and neither does the first suited card.
        suited = [i for i, (_, card) in enumerate(plays) if card.suit is not None]
        if not suited:
            continue
        led = plays[suited[0]][1].suit
        assert led is not None
        for seat, card in plays[suited[0] + 1 :]:
            if card.suit is not None and card.suit is not led:
                voids.setdefault(seat, set()).add(int(led))
    return voids


def passed_and_unplayed(view: SeatView, played: int) -> dict[int, int]:
    """seat -> mask of the cards this seat passed to it that it has not played."""
    n = view.rules.players
    kind = view.pass_direction
    out: dict[int, int] = {}
    if kind in (PassDirection.HOLD, PassDirection.CENTER) or not view.passed:
        return out
    offset = kind.offset(n) or 0
    for i, card in enumerate(view.passed):
        target = (view.seat + 1 + i) % n if kind is PassDirection.SCATTER else view.seat + offset
        if not played & card.mask:
            out[target % n] = out.get(target % n, 0) | card.mask
    return out


def check_samples(hand: Hand, seat: int, rng: random.Random) -> None:
    view = hand.view(seat)
    rules = view.rules
    n = rules.players
    belief = Belief.from_view(view)
    played = 0
    for trick in view.tricks:
        played |= trick.cards.mask
    for _, card in view.current_trick:
        played |= card.mask
    truth = [hand.hand_of(s).mask for s in range(n)]
    voids = voids_shown(view)
    passed = passed_and_unplayed(view, played)
    for _ in range(SAMPLES_PER_DECISION):
        deal = belief.sample(rng)
        assert deal[seat] == view.hand.mask
        union = 0
        for cards in deal:
            assert not union & cards, "a card dealt twice"
            union |= cards
            assert not cards & played, "a card already played is still held"
        assert union | played == rules.deck.mask, "cards lost or invented"
        for s in range(n):
            assert deal[s].bit_count() == truth[s].bit_count(), f"seat {s} holds the wrong count"
            for suit in voids.get(s, ()):
                assert not deal[s] & (0x1FFF << (13 * suit)), f"seat {s} showed void in {suit}"
            assert deal[s] & passed.get(s, 0) == passed.get(s, 0), "a passed card went astray"
        if view.kitty is not None:
            assert deal[n] == view.kitty.mask
        # The whole history replays legally on the imagined deal.
        starts = [deal[s] | belief.played[s] for s in range(n)]
        imagined = Hand(rules, starts, deal[n], dealer=view.dealer, pass_direction="hold", seed=0)
        while imagined.exposures_pending:  # Gong Zhu: the same cards exposed (face up)
            shown = imagined.exposures_pending[0]
            imagined.apply_exposure(shown, view.exposed[shown] or ())
        for index in belief.history:
            imagined.play(CARDS[index])
        # Who opens tells where the lowest club is, except that a hidden kitty may hold it
        # (arena.bots.belief._infer_opener): then only the first play settles it.
        if belief.history or not rules.kitty_size or view.kitty is not None:
            assert imagined.to_play == hand.to_play


@pytest.mark.parametrize("rules", table_rules(), ids=lambda r: f"{r.name}-{r.players}")
def test_sampled_deals_agree_with_everything_the_seat_has_seen(rules):
    rng = random.Random(f"belief {rules.name} {rules.players}")
    n = rules.players
    for index in range(2 * len(rules.pass_schedule)):
        bots = [RandomBot(index * n + s) if s % 2 else HeuristicBot(s) for s in range(n)]
        watcher = rng.randrange(n)

        def inspect(hand: Hand, seat: int, watcher: int = watcher) -> None:
            check_samples(hand, seat, rng)
            if watcher != seat:
                check_samples(hand, watcher, rng)  # a seat that is not to play, too

        play_hand(rules, rng.getrandbits(64), bots, index=index, on_decision=inspect)


def test_the_truth_always_fits_the_belief():
    rules = preset("standard")
    rng = random.Random(9)

    def inspect(hand: Hand, seat: int) -> None:
        belief = Belief.from_view(hand.view(seat))
        for s in range(4):
            held = hand.hand_of(s).mask
            assert held & ~belief.allowed[s] == 0
            assert belief.known[s] & ~held == 0
            assert belief.need[s] == held.bit_count()

    for index in range(12):
        bots = [RandomBot(index + s) for s in range(4)]
        play_hand(rules, rng.getrandbits(64), bots, index=index, on_decision=inspect)


def test_a_void_seat_is_dealt_none_of_its_suit_and_passed_cards_stay_put():
    # Seat 0 passes AS KS QS left, to seat 1. Seat 2 leads the 2C and seat 3, holding no
    # club, discards: every sample must give seat 3 no club and seat 1 all three spades.
    rules = preset("standard")
    hands = [
        "3C 4C 5C 6C 7C 8C 9C TC AS KS QS 2D 3D",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C JC QC KC AC 4D 5D 6D 7D 8D 9D TD JD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QD KD AD",
    ]
    hand = Hand.from_cards(rules, hands, pass_direction="left")
    hand.apply_pass(0, "AS KS QS")
    hand.apply_pass(1, "2H 3H 4H")
    hand.apply_pass(2, "4D 5D 6D")
    hand.apply_pass(3, "2S 3S 4S")
    hand.play("2C")
    hand.play("5S")
    belief = Belief.from_view(hand.view(0))
    rng = random.Random(1)
    spades = hand.view(0).passed
    for _ in range(200):
        deal = belief.sample(rng)
        assert not deal[3] & 0x1FFF, "seat 3 showed void in clubs"
        for card in spades:
            assert deal[1] & card.mask


def test_cards_passed_in_a_split_stay_with_each_cards_own_receiver():
    # 003's split call: seat 0's AS goes right (seat 3), KS and QS left (seat 1). Every
    # sample must keep each with its own receiver until it is played.
    rules = preset("dealer_calls")
    hands = [
        "3C 4C 5C 6C 7C 8C 9C TC AS KS QS 2D 3D",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2C JC QC KC AC 4D 5D 6D 7D 8D 9D TD JD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QD KD AD",
    ]
    hand = Hand.from_cards(rules, hands, pass_direction="dealer_calls")
    hand.apply_call(["right", "left", "left"])
    hand.apply_pass(0, "AS KS QS")
    hand.apply_pass(1, "2H 3H 4H")
    hand.apply_pass(2, "4D 5D 6D")
    hand.apply_pass(3, "5S 6S 7S")
    belief = Belief.from_view(hand.view(0))
    rng = random.Random(3)
    ace, left = CardSet.parse("AS").mask, CardSet.parse("KS QS").mask
    for _ in range(200):
        deal = belief.sample(rng)
        assert deal[3] & ace and deal[1] & left == left


def test_matching_finds_a_deal_when_the_greedy_sampler_is_unlucky():
    rules = preset("standard")
    hand = Hand.deal(rules, 4, pass_direction="hold")
    for _ in range(9):
        hand.play(hand.legal_plays().first())
    belief = Belief.from_view(hand.view(hand.to_play or 0))
    rng = random.Random(2)
    for _ in range(20):
        deal = belief._sample_matching(rng)
        for holder, cards in enumerate(deal):
            assert cards & ~belief.allowed[holder] == 0
            assert cards.bit_count() == belief.need[holder]


def test_an_impossible_belief_is_reported():
    belief = Belief(
        seat=0,
        players=3,
        history=(),
        played=(0, 0, 0),
        need=(1, 1, 1, 0),
        known=(1, 0, 0, 0),
        allowed=(1, 2, 2, 0),  # seats 1 and 2 may only hold card 1
        unseen=0b110,
    )
    with pytest.raises(InconsistentBeliefError, match="no deal"):
        belief.sample(random.Random(0))


def test_bits_lists_a_mask_lowest_first():
    assert bits(0) == []
    assert bits((1 << 52) - 1) == list(range(52))
    assert bits(1 << 36 | 1 << 3) == [3, 36]


def test_the_fast_sampler_rarely_dead_ends_when_seats_show_voids():
    # Random play shows many voids; the greedy sampler (forced cards first, Hall's
    # condition before each choice) should almost never need the slow matching.
    rules = preset("standard")
    rng = random.Random(12)
    draws = dead_ends = 0

    def inspect(hand: Hand, seat: int) -> None:
        nonlocal draws, dead_ends
        belief = Belief.from_view(hand.view(seat))
        for _ in range(10):
            draws += 1
            dead_ends += belief._sample_greedy(rng) is None

    for index in range(30):
        bots = [RandomBot(index * 4 + s) for s in range(4)]
        play_hand(rules, rng.getrandbits(64), bots, index=index, on_decision=inspect)
    assert dead_ends <= draws // 100, f"{dead_ends} dead ends in {draws} draws"


def test_a_seat_that_refused_the_queen_knows_its_giver_kept_it():
    """Rickety Kate: the receiver of a refused QS knows its giver holds it (until played),
    so no sampled deal puts it elsewhere; the other seats know nothing of it."""
    from arena.engine import Card, Hand, preset
    from arena.engine.decisions import Action, DecisionKind

    deal = [
        "QS 3S 4S 5S 3D 4D 5D 6D 7D 8D 9D TD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "6S 7S 8S 9S TS JS KS AS JD QD KD AD",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    ]
    rules = preset("rickety_kate")
    hand = Hand.from_cards(rules, deal, dealer=3, kitty="AC 2D 2S 2H", pass_direction="left")
    hand.apply(Action(DecisionKind.PASS, 0, ("QS", "3D")))
    for seat, given in ((1, "2C 3C"), (2, "6S 7S"), (3, "3H 4H")):
        hand.apply(Action(DecisionKind.PASS, seat, tuple(given.split())))
    hand.apply(Action(DecisionKind.REFUSE_QUEEN, 1, True))
    hand.apply(Action(DecisionKind.REPLACE_PASS, 0, "9D"))
    queen = Card.from_str("QS").mask
    receiver = Belief.from_view(hand.view(1))
    assert receiver.known[0] & queen
    assert not any(receiver.allowed[h] & queen for h in range(5) if h != 0)
    other = Belief.from_view(hand.view(2))
    assert not other.known[0] & queen
