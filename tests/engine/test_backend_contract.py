"""The backend contract (docs/decisions/0001), checked on every available backend.

Scenario tests are named after the rule they check and use tiny hand-built deals, so that
every card is deliberate; the invariant tests at the end play random hands on random
configurations. Rule sources: /work/shared/rules/ (000 standard, 001 kitty and points,
002 Omnibus variants, 004 moon variants).
"""

from __future__ import annotations

import itertools
import random
from types import ModuleType
from typing import Any

import pytest

from arena.engine.config import (
    BROKEN_BY_HEARTS,
    BROKEN_BY_HEARTS_OR_QUEEN,
    BROKEN_BY_POINTS,
    ERR_BOOSTER_SUIT,
    ERR_JOKER_HELD,
    ERR_MUST_FOLLOW_SUIT,
    FIRST_TRICK_ANY,
    FIRST_TRICK_NO_PENALTY,
    FIRST_TRICK_NO_POINTS,
    JOKER_HEART,
    JOKER_WILD,
    KITTY_EACH_TRICK,
    KITTY_TO_FIRST_POINTS,
    KITTY_TO_FIRST_TRICK,
    LEAD_ANY,
    LEAD_NOT_HEARTS,
    LEAD_NOT_POINTS,
    MOON_ADD_UNLESS_LOSING,
    MOON_NEW,
    MOON_NONE,
    MOON_OLD,
    MOON_SHOOTERS_CHOICE,
    OPENING_ANY_CLUB,
    OPENING_LEFT_OF_DEALER,
    OPENING_LOWEST_SPADE,
    PASS_CENTER,
    PASS_HOLD,
    PASS_SCATTER,
    PASS_STAR,
    PHASE_OVER,
    PHASE_PASSING,
    PHASE_PLAYING,
    CoreConfig,
    standard_config,
)
from tests.engine.backends import (
    BACKEND_IDS,
    BACKENDS,
    card,
    extra_cards,
    pass_size,
    passable,
    random_config,
    random_pass_kind,
    random_schedule,
)

pytestmark = pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)

MASK64 = (1 << 64) - 1


# --- Helpers. ---


def mask(text: str) -> int:
    """The mask of space-separated cards like '2C QS AH'."""
    return sum(1 << card(word) for word in text.split())


def names(bits: int) -> set[str]:
    """The cards of a mask as names, for readable assertion failures."""
    return {
        "23456789TJQKA"[i % 13] + "CDSH"[i // 13] if i < 52 else f"JK{i - 51}"
        for i in range(55)
        if bits >> i & 1
    }


def build(
    hands: list[str], kitty: str = "", values: dict[str, int] | None = None, **fields: Any
) -> tuple[CoreConfig, tuple[int, ...], int]:
    """A configuration whose deck is exactly the given hands and kitty.

    Defaults are the standard game's (hearts 1, QS 13, 2C opens, no penalty on the first
    trick, hearts or QS break, old moon of 26); `values` overrides single cards; `fields`
    override any other CoreConfig field.
    """
    masks = tuple(mask(text) for text in hands)
    kitty_mask = mask(kitty)
    deck = kitty_mask
    for hand in masks:
        deck |= hand
    base = list(standard_config(4).values)
    for name, value in (values or {}).items():
        base[card(name)] = value
    cfg = standard_config(4)._replace(
        players=len(hands),
        hand_size=masks[0].bit_count(),
        deck=deck,
        kitty_size=kitty_mask.bit_count(),
        pass_count=1,
        values=tuple(v if deck >> i & 1 else 0 for i, v in enumerate(base)),
    )
    return cfg._replace(**fields), masks, kitty_mask


def new_hand(
    backend: ModuleType,
    hands: list[str],
    kitty: str = "",
    *,
    dealer: int = 0,
    pass_kind: int | tuple[int, ...] = PASS_HOLD,
    seed: int = 0,
    values: dict[str, int] | None = None,
    **fields: Any,
) -> Any:
    """A HandState of `backend` on a hand-built deal."""
    cfg, masks, kitty_mask = build(hands, kitty, values, **fields)
    return backend.HandState(cfg, masks, kitty_mask, dealer, pass_kind, seed)


def play_all(state: Any, cards: str) -> None:
    """Play the given cards in order, each of which must be legal."""
    for word in cards.split():
        code = state.play(card(word))
        assert code == 0, f"{word} refused with code {code}; legal: {names(state.legal_mask())}"


def snapshot(state: Any, players: int) -> tuple[Any, ...]:
    """Every view of a HandState, for comparing states."""
    seats = range(players)
    return (
        state.phase,
        state.to_play,
        state.trick_number,
        state.broken,
        state.leader,
        state.current_trick(),
        tuple(state.hand(s) for s in seats),
        tuple(state.taken(s) for s in seats),
        tuple(state.tricks_won(s) for s in seats),
        state.kitty,
        state.kitty_owner,
        tuple(state.passed(s) for s in seats),
        tuple(state.received(s) for s in seats),
        state.history(),
        state.legal_mask(),
        state.booster,
    )


class SplitMix64:
    """An independent transcription of the contract's PRNG, to check deals against."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def bounded(self, m: int) -> int:
        return (self.next() * m) >> 64

    def shuffled(self, cards: list[int]) -> list[int]:
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j = self.bounded(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


def kth(bits: int, k: int) -> int:
    return [i for i in range(55) if bits >> i & 1][k]


# --- Randomness and the deal. ---


def test_splitmix_transcription_matches_the_published_sequence(backend):
    # The first outputs of SplitMix64 seeded with 0, as published with the algorithm.
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


def test_deal_is_a_seeded_fisher_yates_from_the_dealers_left(backend):
    cfg = standard_config(5)._replace(deck=(1 << 52) - 1, hand_size=10, kitty_size=2)
    for seed, dealer in [(0, 0), (1, 3), (MASK64, 4), (123456789, 2)]:
        order = SplitMix64(seed).shuffled(list(range(52)))
        expected = [0] * 5
        for k in range(50):
            expected[(dealer + 1 + k) % 5] |= 1 << order[k]
        hands, kitty = backend.deal(cfg, seed, dealer)
        assert tuple(hands) == tuple(expected)
        assert kitty == (1 << order[50]) | (1 << order[51])


def test_deal_is_deterministic_and_partitions_the_deck(backend):
    rng = random.Random(7)
    for _ in range(50):
        cfg = random_config(rng)
        seed, dealer = rng.getrandbits(64), rng.randrange(cfg.players)
        hands, kitty = backend.deal(cfg, seed, dealer)
        assert (tuple(hands), kitty) == tuple(backend.deal(cfg, seed, dealer))
        union = kitty
        # 002's extra cards go one each to the first seats from the dealer's left.
        extra = [(dealer + 1 + i) % cfg.players for i in range(extra_cards(cfg))]
        for seat, hand in enumerate(hands):
            assert hand.bit_count() == cfg.hand_size + (seat in extra)
            assert not union & hand
            union |= hand
        assert union == cfg.deck
        assert kitty.bit_count() == cfg.kitty_size


def test_deal_rotates_with_the_dealer(backend):
    cfg = standard_config(4)
    hands0, _ = backend.deal(cfg, 99, 0)
    hands1, _ = backend.deal(cfg, 99, 1)
    assert all(hands1[(s + 1) % 4] == hands0[s] for s in range(4))


# --- The opening lead (000 'The Play'; 001 'HOW TO PLAY'; 002 'Play variants'). ---


def test_two_of_clubs_must_open(backend):
    state = new_hand(backend, ["3C 5D", "2C 6C", "4C AH", "5C QS"])
    assert (state.phase, state.to_play, state.leader) == (PHASE_PLAYING, 1, 1)
    assert state.legal_mask() == mask("2C")
    assert state.check_play(card("6C")) == 5
    assert state.play(card("6C")) == 5
    assert state.play(card("2C")) == 0
    assert state.to_play == 2


def test_lowest_club_opens_when_two_of_clubs_is_removed(backend):
    state = new_hand(backend, ["4C 5D", "3C 6D", "5C 7D"])
    assert state.to_play == 1
    assert state.legal_mask() == mask("3C")


def test_lowest_club_in_the_hands_opens_when_the_kitty_holds_the_two(backend):
    # 001 'HOW TO PLAY': "If no player has the 2 of clubs (because it is in the kitty)".
    state = new_hand(backend, ["4C 5D", "3C 6D", "5C 7D"], kitty="2C")
    assert state.to_play == 1
    assert state.legal_mask() == mask("3C")


def test_any_club_may_open_when_configured(backend):
    state = new_hand(backend, ["3C 5D 9D", "2C 6C 7D", "4C AH 8D"], opening=OPENING_ANY_CLUB)
    assert state.to_play == 1
    assert state.legal_mask() == mask("2C 6C")
    assert state.check_play(card("7D")) == 6
    assert state.play(card("6C")) == 0


# 003 'HEARTLESS': "The first card lead when the scoring suit is Hearts or Spades is the Two
# of Clubs. Otherwise it is the Two of Spades." (opening 3: the lowest spade in the hands).


def test_two_of_spades_must_open_under_the_lowest_spade_opening(backend):
    state = new_hand(backend, ["2C 5D", "3S 6C", "2S AH", "5C QS"], opening=OPENING_LOWEST_SPADE)
    assert (state.phase, state.to_play, state.leader) == (PHASE_PLAYING, 2, 2)
    assert state.legal_mask() == mask("2S")
    assert state.check_play(card("AH")) == 5
    assert state.play(card("AH")) == 5
    assert state.play(card("2S")) == 0
    assert state.to_play == 3
    assert state.legal_mask() == mask("QS")  # must follow spades, even with the queen


def test_lowest_spade_opens_when_the_kitty_holds_the_two(backend):
    state = new_hand(backend, ["4S 5D", "3C 6D", "5S 7D"], kitty="2S", opening=OPENING_LOWEST_SPADE)
    assert state.to_play == 0
    assert state.legal_mask() == mask("4S")
    assert state.check_play(card("5D")) == 5
    assert state.check_play(card("5S")) == 4  # held by seat 2, not the seat to play


def test_the_receiver_of_the_passed_two_of_spades_opens(backend):
    state = new_hand(
        backend, ["2S 5D", "3S 6C", "4C AH"], pass_kind=1, opening=OPENING_LOWEST_SPADE
    )
    for seat, given in enumerate(["2S", "6C", "4C"]):
        assert state.apply_pass(seat, (card(given),)) == 0
    assert state.to_play == 1
    assert state.legal_mask() == mask("2S")


def test_the_lowest_spade_opening_needs_a_spade_in_some_hand(backend):
    cfg, hands, kitty = build(["4C 5D", "3C 6D", "5C 7D"], kitty="2S", opening=OPENING_LOWEST_SPADE)
    with pytest.raises(ValueError, match="spade"):
        backend.HandState(cfg, hands, kitty, 0, PASS_HOLD, 0)
    backend.HandState(cfg._replace(opening=0), hands, kitty, 0, PASS_HOLD, 0)


def test_left_of_dealer_leads_any_card_when_configured(backend):
    state = new_hand(
        backend,
        ["3C 5D", "2C 6C", "4C AH", "5C QS"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_ANY,
        first_trick=FIRST_TRICK_ANY,
    )
    assert (state.to_play, state.leader) == (3, 3)
    assert state.legal_mask() == mask("5C QS")


def test_left_of_dealer_opening_obeys_the_lead_rule(backend):
    state = new_hand(
        backend,
        ["3C AH", "2C 6C", "4C 5D"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_NOT_HEARTS,
        first_trick=FIRST_TRICK_ANY,
    )
    assert state.to_play == 0
    assert state.legal_mask() == mask("3C")
    assert state.check_play(card("AH")) == 9


def test_lead_rule_code_comes_before_first_trick_code(backend):
    state = new_hand(
        backend,
        ["3D AH", "2C 6C", "4C 5D"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_NOT_HEARTS,
        first_trick=FIRST_TRICK_NO_PENALTY,
    )
    assert state.check_play(card("AH")) == 9
    free = new_hand(
        backend,
        ["3D AH", "2C 6C", "4C 5D"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_ANY,
        first_trick=FIRST_TRICK_NO_PENALTY,
    )
    assert free.check_play(card("AH")) == 8
    assert free.legal_mask() == mask("3D")


# --- Following and the first trick (000 'The Play'; 004 'The play of the game'). ---


def test_must_follow_suit(backend):
    state = new_hand(backend, ["2C 5D", "3C 6D", "4C 7D"])
    play_all(state, "2C")
    assert state.legal_mask() == mask("3C")
    assert state.check_play(card("6D")) == 7
    assert state.play(card("6D")) == 7


def test_void_player_may_discard_any_card(backend):
    state = new_hand(backend, ["2C 5D", "3D 6D", "4C 7D"], first_trick=FIRST_TRICK_ANY)
    play_all(state, "2C")
    assert state.legal_mask() == mask("3D 6D")


def test_no_penalty_cards_on_first_trick(backend):
    state = new_hand(backend, ["2C 3C 4C", "AH QS 5D", "5C 6C 7C", "8C 9C TC"])
    play_all(state, "2C")
    assert state.legal_mask() == mask("5D")
    assert state.check_play(card("AH")) == 8
    assert state.check_play(card("QS")) == 8


def test_bonus_card_may_be_discarded_on_first_trick_unless_points_are_banned(backend):
    hands = ["2C 3C", "JD AH", "5C 6C"]
    penalty_rule = new_hand(backend, hands, values={"JD": -10})
    play_all(penalty_rule, "2C")
    assert penalty_rule.legal_mask() == mask("JD")
    point_rule = new_hand(backend, hands, values={"JD": -10}, first_trick=FIRST_TRICK_NO_POINTS)
    play_all(point_rule, "2C")
    assert point_rule.legal_mask() == mask("JD AH")
    assert point_rule.check_play(card("JD")) == 0


def test_first_trick_player_with_only_hearts_and_queen_may_play_them(backend):
    state = new_hand(backend, ["2C 3C", "AH QS", "5C 6C"])
    play_all(state, "2C")
    assert state.legal_mask() == mask("AH QS")
    assert state.play(card("QS")) == 0


def test_first_trick_filter_applies_after_follow_suit(backend):
    # 004: "the player must follow suit and can play a penalty card if they would otherwise
    # renege".
    state = new_hand(
        backend,
        ["KS 2C", "QS 3D", "4C 5D"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_ANY,
    )
    play_all(state, "KS")
    assert state.legal_mask() == mask("QS")
    assert state.check_play(card("3D")) == 7


def test_point_rule_bans_negative_cards_on_the_opening_lead_too(backend):
    state = new_hand(
        backend,
        ["JD 5D", "2C 3C", "4C 6C"],
        dealer=2,
        opening=OPENING_LEFT_OF_DEALER,
        lead_rule=LEAD_ANY,
        first_trick=FIRST_TRICK_NO_POINTS,
        values={"JD": -10},
    )
    assert state.legal_mask() == mask("5D")
    assert state.check_play(card("JD")) == 8


# --- Tricks. ---


def test_highest_card_of_led_suit_wins_and_winner_leads_next(backend):
    state = new_hand(backend, ["2C 3D", "9C AD", "5C AS"], first_trick=FIRST_TRICK_ANY)
    play_all(state, "2C 9C 5C")
    assert state.history() == ((0, (card("2C"), card("9C"), card("5C")), 1),)
    assert (state.leader, state.to_play, state.trick_number) == (1, 1, 1)
    assert state.taken(1) == mask("2C 9C 5C")
    assert state.tricks_won(1) == 1
    # Off-suit cards never win, even the ace of spades.
    play_all(state, "AD AS 3D")
    assert state.history()[1] == (1, (card("AD"), card("AS"), card("3D")), 1)
    assert state.phase == PHASE_OVER
    assert (state.to_play, state.trick_number, state.current_trick()) == (-1, 2, ())


# --- Breaking and leading (000 'The Play'; 001; 002 'Play variants'; 004). ---

OPEN_TRICK = ["2C 6D AH", "3C 7D KH", "4C 8D QS", "5C 9D 2H"]
"""Trick 0 is all clubs and seat 3 wins it, leading trick 1 with 9D and 2H left."""


def test_hearts_may_not_be_led_before_broken(backend):
    state = new_hand(backend, OPEN_TRICK)
    play_all(state, "2C 3C 4C 5C")
    assert (state.to_play, state.broken) == (3, False)
    assert state.legal_mask() == mask("9D")
    assert state.check_play(card("2H")) == 9


def test_leader_with_only_hearts_may_lead_hearts(backend):
    state = new_hand(backend, ["2C 6D AH", "3C 7D KH", "4C 8D QS", "5C 2H 3H"])
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("2H 3H")
    play_all(state, "2H")
    assert state.broken  # a forced heart lead breaks hearts too


def test_discarding_a_heart_breaks_hearts(backend):
    # Seat 1 is void in diamonds on trick 1 and discards the KH.
    state = new_hand(backend, ["2C 6D AH 3S", "3C 7S KH 4S", "4C 8D QS 5S", "5C 9D 2H TD"])
    play_all(state, "2C 3C 4C 5C 9D 6D")
    assert not state.broken
    play_all(state, "KH")
    assert state.broken
    play_all(state, "8D")
    assert state.to_play == 3
    assert state.legal_mask() == mask("2H TD")


# Trick 0 is all clubs; seat 3 leads 9D on trick 1 and seat 2, void in diamonds, discards
# the QS; seat 3 wins and leads again holding 2H and TD.
QUEEN_DISCARD = ["2C 6D AH 3S", "3C 7D KH 4S", "4C 8S QS 5S", "5C 9D 2H TD"]


def test_queen_does_not_break_hearts_when_only_hearts_break(backend):
    state = new_hand(backend, QUEEN_DISCARD, broken_by=BROKEN_BY_HEARTS)
    play_all(state, "2C 3C 4C 5C 9D 6D 7D QS")
    assert not state.broken
    assert state.legal_mask() == mask("TD")


def test_queen_breaks_hearts_when_configured(backend):
    state = new_hand(backend, QUEEN_DISCARD, broken_by=BROKEN_BY_HEARTS_OR_QUEEN)
    play_all(state, "2C 3C 4C 5C 9D 6D 7D QS")
    assert state.broken
    assert state.to_play == 3
    assert state.legal_mask() == mask("2H TD")


def test_any_point_card_breaks_when_configured(backend):
    hands = ["2C 6D AH 3S", "3C JD KH 4S", "4C 8D QS 5S", "5C 9D 2H TD"]
    state = new_hand(backend, hands, values={"JD": -10}, broken_by=BROKEN_BY_POINTS)
    play_all(state, "2C 3C 4C 5C 9D 6D JD 8D")
    assert state.broken
    assert state.to_play == 1  # the JD won the diamond trick
    assert state.legal_mask() == mask("KH 4S")


def test_bonus_card_does_not_break_hearts_by_default(backend):
    hands = ["2C 6D AH 3S", "3C JD KH 4S", "4C 8D QS 5S", "5C 9D 2H TD"]
    state = new_hand(backend, hands, values={"JD": -10})
    play_all(state, "2C 3C 4C 5C 9D 6D JD 8D")
    assert not state.broken
    assert state.legal_mask() == mask("4S")


def test_leader_with_only_point_cards_may_lead_them(backend):
    state = new_hand(
        backend, ["2C 6D AH", "3C 7D KH", "4C 8D 9D", "5C QS 2H"], lead_rule=LEAD_NOT_POINTS
    )
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("QS 2H")


def test_queen_may_not_be_led_before_points_are_broken(backend):
    # 001 'VARIATION 1: BLACK MARIAH': the QS "may not lead a trick until points have been
    # broken".
    state = new_hand(
        backend, ["2C 6D AH", "3C 7D KH", "4C 8D 2H", "5C QS 9D"], lead_rule=LEAD_NOT_POINTS
    )
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("9D")
    assert state.check_play(card("QS")) == 9


def test_leader_with_queen_and_hearts_must_lead_the_queen_by_default(backend):
    state = new_hand(backend, ["2C 6D AH", "3C 7D KH", "4C 8D 9D", "5C QS 2H"])
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("QS")
    assert state.check_play(card("2H")) == 9


def test_queen_and_hearts_leader_may_lead_heart(backend):
    state = new_hand(backend, ["2C 6D AH", "3C 7D KH", "4C 8D 9D", "5C QS 2H"], queen_hearts_lead=1)
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("QS 2H")
    play_all(state, "2H")
    assert state.broken


def test_any_card_may_be_led_when_lead_rule_is_any(backend):
    state = new_hand(backend, OPEN_TRICK, lead_rule=LEAD_ANY)
    play_all(state, "2C 3C 4C 5C")
    assert state.legal_mask() == mask("9D 2H")


# --- Scoring (000 'Scoring', 'Shooting the Moon'; 002; 004 'Shooting the moon'). ---

# Three seats, dealer 2 so seat 0 leads anything; seat 0 wins the spade, heart and second
# heart tricks (QS and every heart), and seat 2 wins the last, club, trick.
MOON = ["AS AH KH 2C", "QS 3H 3C JD", "3S 2H 5D 4C"]
MOON_RULES: dict[str, Any] = {
    "dealer": 2,
    "opening": OPENING_LEFT_OF_DEALER,
    "lead_rule": LEAD_ANY,
    "first_trick": FIRST_TRICK_ANY,
}
JD_TO_SEAT_2 = "AS QS 3S AH 3H 2H KH 3C 5D 2C JD 4C"
JD_TO_SHOOTER = "AS QS 3S AH 3H 2H KH JD 5D 2C 3C 4C"


def moon_hand(backend: ModuleType, plays: str, **fields: Any) -> Any:
    state = new_hand(backend, MOON, values={"JD": -10}, **{**MOON_RULES, **fields})
    play_all(state, plays)
    assert state.phase == PHASE_OVER
    return state


def test_hearts_and_queen_score_their_values(backend):
    state = new_hand(backend, OPEN_TRICK, moon=MOON_NONE)
    play_all(state, "2C 3C 4C 5C 9D 6D 7D 8D 2H AH KH QS")
    assert state.points((0, 0, 0, 0), 100) == (16, 0, 0, 0)
    with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
        state.points((0, 0, 0), 100)


def test_points_raise_until_the_hand_is_over(backend):
    state = new_hand(backend, OPEN_TRICK)
    with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
        state.points((0, 0, 0, 0), 100)


def test_old_moon_adds_26_to_others(backend):
    state = moon_hand(backend, JD_TO_SEAT_2, moon=MOON_OLD)
    assert state.points((0, 0, 0), 100) == (0, 26, 16)


def test_new_moon_subtracts(backend):
    state = moon_hand(backend, JD_TO_SEAT_2, moon=MOON_NEW)
    assert state.points((0, 0, 0), 100) == (-26, 0, -10)


def test_no_moon_scores_raw_points(backend):
    state = moon_hand(backend, JD_TO_SEAT_2, moon=MOON_NONE)
    assert state.points((0, 0, 0), 100) == (17, 0, -10)


def test_moon_requires_bonus_card_when_configured(backend):
    state = moon_hand(backend, JD_TO_SEAT_2, moon=MOON_OLD, moon_extra=mask("JD"))
    assert state.points((0, 0, 0), 100) == (17, 0, -10)


def test_moon_with_required_bonus_card_taken(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_OLD, moon_extra=mask("JD"))
    assert state.points((0, 0, 0), 100) == (0, 26, 26)


def test_moon_worth_is_configurable(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_NEW, moon_points=16)
    assert state.points((0, 0, 0), 100) == (-16, 0, 0)


def test_shooters_choice_adds_while_strictly_ahead_else_subtracts(backend):
    # Against the others old and new are worth the same M; the engine adds when that
    # leaves the shooter strictly lowest, and subtracts otherwise (contract 'Scoring').
    state = moon_hand(backend, JD_TO_SEAT_2, moon=MOON_SHOOTERS_CHOICE)
    for totals in [(0, 0, 0), (10, 0, 80), (-30, 40, 5)]:
        assert state.points(totals, 100) == (0, 26, 16)
    for totals in [(90, 95, 63), (16, 0, 0)]:  # behind, or only tied after adding
        assert state.points(totals, 100) == (-26, 0, -10)


def test_add_unless_losing_adds_when_the_game_goes_on(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_ADD_UNLESS_LOSING)
    assert state.points((90, 50, 63), 100) == (0, 26, 26)
    assert state.points((90, 95, 63), 0) == (0, 26, 26)  # no target: always add


def test_add_unless_losing_adds_when_the_shooter_wins(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_ADD_UNLESS_LOSING)
    assert state.points((50, 95, 80), 100) == (0, 26, 26)


def test_add_unless_losing_subtracts_when_adding_would_lose(backend):
    # 004: "if the shooter has 90, another player 95, and the leader 63, adding on a moon
    # would sink the shooter".
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_ADD_UNLESS_LOSING)
    assert state.points((90, 95, 63), 100) == (-26, 0, 0)


def test_add_unless_losing_tie_for_lowest_is_not_losing(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_ADD_UNLESS_LOSING)
    assert state.points((89, 95, 63), 100) == (0, 26, 26)  # 89 + 0 == 63 + 26


def test_sun_pays_sun_points_to_others(backend):
    # Seat 0 also wins the club trick: every trick, so the sun replaces the moon.
    hands = ["AS AH KH 5C", "QS 3H 3C JD", "3S 2H 5D 4C"]
    state = new_hand(backend, hands, values={"JD": -10}, moon=MOON_OLD, sun_points=52, **MOON_RULES)
    play_all(state, "AS QS 3S AH 3H 2H KH JD 5D 5C 3C 4C")
    assert state.tricks_won(0) == 4
    assert state.points((0, 0, 0), 100) == (0, 52, 52)
    no_sun = new_hand(backend, hands, values={"JD": -10}, moon=MOON_OLD, sun_points=0, **MOON_RULES)
    play_all(no_sun, "AS QS 3S AH 3H 2H KH JD 5D 5C 3C 4C")
    assert no_sun.points((0, 0, 0), 100) == (0, 26, 26)


def test_sun_with_new_moon_subtracts_sun_points(backend):
    hands = ["AS AH KH 5C", "QS 3H 3C JD", "3S 2H 5D 4C"]
    state = new_hand(backend, hands, values={"JD": -10}, moon=MOON_NEW, sun_points=52, **MOON_RULES)
    play_all(state, "AS QS 3S AH 3H 2H KH JD 5D 5C 3C 4C")
    assert state.points((0, 0, 0), 100) == (-52, 0, 0)


def test_moon_without_every_trick_is_not_a_sun(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_OLD, sun_points=52)
    assert state.points((0, 0, 0), 100) == (0, 26, 26)


def test_ten_of_clubs_doubles_the_takers_score(backend):
    hands = ["2C 6D 2H", "3C 7D KH", "4C 8D QS", "TC 9D AH"]
    state = new_hand(backend, hands, doubler=card("TC"), moon=MOON_NONE)
    play_all(state, "2C 3C 4C TC 9D 6D 7D 8D AH 2H KH QS")
    assert state.points((0, 0, 0, 0), 100) == (0, 0, 0, 32)


def test_ten_of_clubs_doubles_a_bonus_too(backend):
    hands = ["2C 6D AH", "3C JD KH", "4C 8D QS", "TC KD 2H"]
    state = new_hand(backend, hands, values={"JD": -10}, doubler=card("TC"), moon=MOON_NONE)
    play_all(state, "2C 3C 4C TC KD 6D JD 8D")
    assert state.taken(3) == mask("2C 3C 4C TC KD 6D JD 8D")
    play_all(state, "2H AH KH QS")
    assert state.points((0, 0, 0, 0), 100) == (16, 0, 0, -20)


def test_no_trick_bonus_goes_to_seats_without_tricks(backend):
    for bonus in (-5, 10):
        state = new_hand(backend, OPEN_TRICK, no_trick_bonus=bonus, moon=MOON_NONE)
        play_all(state, "2C 3C 4C 5C 9D 6D 7D 8D 2H AH KH QS")
        assert state.points((0, 0, 0, 0), 100) == (16, bonus, bonus, 0)


def test_no_trick_bonus_is_added_after_the_moon(backend):
    state = moon_hand(backend, JD_TO_SHOOTER, moon=MOON_OLD, no_trick_bonus=-5)
    assert state.points((0, 0, 0), 100) == (0, 21, 26)


# --- Royal Hearts (004 'Royal Hearts'): `royal_queens`. ---

ROYAL_VALUES = {"QS": 26, "QD": -10}  # the QH stays a heart worth 1, the QC 0
ROYAL_MOON_RULES: dict[str, Any] = {**MOON_RULES, "dealer": 3}  # seat 0 leads anything

# Seat 0 leads its seven spades and wins them all (seat 3 must drop the QS on the AS); the
# others discard, so seat 0 takes every heart and the QS. Trick 8 is the 2D led into seat 3's
# remaining diamond, which wins it: the QD and the QC reach the shooter only when they are
# discarded on its spades (seat 1 keeps the QC or the 2C, seat 3 the QD or the KD).
ROYAL_MOON = [
    "AS KS JS TS 9S 8S 7S 2D",
    "2H 3H 4H 5H 6H 7H QC 2C",
    "8H 9H TH JH QH KH 3C 4C",
    "QS AH QD KD 5C 6C 7C 8C",
]


def royal_moon_plays(qd_to_shooter: bool, qc_to_shooter: bool) -> str:
    """The plays of a ROYAL_MOON hand: seat 0 takes every penalty card, and the QD and the
    QC as asked."""
    seat1 = ["2H", "3H", "4H", "5H", "6H", "7H", *(("QC", "2C") if qc_to_shooter else ("2C", "QC"))]
    seat2 = ["8H", "9H", "TH", "JH", "QH", "KH", "4C", "3C"]
    dropped, kept = ("QD", "KD") if qd_to_shooter else ("KD", "QD")
    seat3 = ["QS", "AH", dropped, "5C", "6C", "7C", "8C", kept]
    spades = ["AS", "KS", "JS", "TS", "9S", "8S", "7S", "2D"]
    return " ".join(" ".join(trick) for trick in zip(spades, seat1, seat2, seat3, strict=True))


def royal_hand(backend: ModuleType, hands: list[str], plays: str, **fields: Any) -> Any:
    state = new_hand(backend, hands, values=ROYAL_VALUES, **{"royal_queens": 1, **fields})
    play_all(state, plays)
    assert state.phase == PHASE_OVER
    return state


# 004: "capturing the Q♦ (-10) makes the benefit 42 points, the Q♣ (-26 with Q♠) reduces it
# to 26, and both of these combined make the reward only 16 points"; 52 with neither.
ROYAL_MOON_WORTH = [(False, False, 52), (True, False, 42), (False, True, 26), (True, True, 16)]


@pytest.mark.parametrize(("qd", "qc", "worth"), ROYAL_MOON_WORTH)
def test_royal_old_moon_is_worth_the_shooters_own_score(backend, qd, qc, worth):
    # moon_points is ignored: the moon is worth what the shooter's cards score.
    state = royal_hand(
        backend,
        ROYAL_MOON,
        royal_moon_plays(qd, qc),
        **ROYAL_MOON_RULES,
        moon=MOON_OLD,
        moon_points=999,
    )
    assert state.taken(0) & mask("QD") == (mask("QD") if qd else 0)
    assert state.taken(0) & mask("QC") == (mask("QC") if qc else 0)
    assert state.tricks_won(3) == 1
    assert state.points((0, 0, 0, 0), 100) == (0, worth, worth, worth)


@pytest.mark.parametrize(("qd", "qc", "worth"), ROYAL_MOON_WORTH)
def test_royal_new_moon_subtracts_the_shooters_own_score(backend, qd, qc, worth):
    state = royal_hand(
        backend, ROYAL_MOON, royal_moon_plays(qd, qc), **ROYAL_MOON_RULES, moon=MOON_NEW
    )
    # Seat 3's QD (with neither helping queen to the shooter) is floored to 0.
    assert state.points((0, 0, 0, 0), 100) == (-worth, 0, 0, 0)


@pytest.mark.parametrize(("qd", "qc", "worth"), ROYAL_MOON_WORTH)
def test_royal_moon_needs_a_moon_rule(backend, qd, qc, worth):
    state = royal_hand(
        backend, ROYAL_MOON, royal_moon_plays(qd, qc), **ROYAL_MOON_RULES, moon=MOON_NONE
    )
    assert state.points((0, 0, 0, 0), 100) == (worth, 0, 0, 0)


def test_royal_moon_is_the_plain_moon_without_royal_queens(backend):
    plays = royal_moon_plays(True, True)
    state = royal_hand(
        backend, ROYAL_MOON, plays, **ROYAL_MOON_RULES, moon=MOON_OLD, royal_queens=0
    )
    assert state.points((0, 0, 0, 0), 100) == (0, 26, 26, 26)  # moon_points (26)


# Trick 1 clubs to seat 3, trick 2 diamonds to seat 3, then seat 3 leads its only heart and
# seat 0 takes AH, QH, 2H and the QS.
QUEEN_OF_HEARTS_DEAL = ["2C 6D AH", "3C 7D QH", "4C 8D QS", "5C 9D 2H"]


def test_royal_queen_of_hearts_doubles_its_takers_hearts(backend):
    plays = "2C 3C 4C 5C 9D 6D 7D 8D 2H AH QH QS"
    state = royal_hand(backend, QUEEN_OF_HEARTS_DEAL, plays, moon=MOON_NONE)
    assert state.points((0, 0, 0, 0), 100) == (3 * 2 + 26, 0, 0, 0)
    plain = royal_hand(backend, QUEEN_OF_HEARTS_DEAL, plays, moon=MOON_NONE, royal_queens=0)
    assert plain.points((0, 0, 0, 0), 100) == (3 + 26, 0, 0, 0)


def test_royal_queen_of_hearts_doubles_only_its_takers_hearts(backend):
    # Seat 3 wins the club trick with the 5C and takes the 2H seat 2 discards on it (first_trick
    # any); seat 0 takes the QH with the AH and 3H: only seat 0's hearts double.
    hands = ["2C 6D AH", "3C 7D QH", "4D 8D 2H", "5C 9D 3H"]
    plays = "2C 3C 2H 5C 9D 6D 7D 8D 3H AH QH 4D"
    state = royal_hand(backend, hands, plays, moon=MOON_NONE, first_trick=FIRST_TRICK_ANY)
    assert state.taken(3) == mask("2C 3C 2H 5C 9D 6D 7D 8D")
    assert state.points((0, 0, 0, 0), 100) == (6, 0, 0, 1)


def test_royal_queen_of_clubs_cancels_the_queen_of_spades_of_its_taker(backend):
    # Seat 3 leads the 2C and seat 0 wins it with the QC; seat 0 also takes the QS later.
    hands = ["QC 6D AH", "3C 7D KH", "4C 8D QS", "2C 9D 2H"]
    plays = "2C QC 3C 4C 6D 7D 8D 9D 2H AH KH QS"
    state = royal_hand(backend, hands, plays, moon=MOON_NONE)
    assert state.taken(0) & mask("QC QS") == mask("QC QS")
    assert state.points((0, 0, 0, 0), 100) == (3, 0, 0, 0)


def test_royal_queen_of_clubs_taken_by_another_seat_cancels_nothing(backend):
    # Seat 3 takes the QC on the club trick, seat 0 the QS on the heart trick.
    hands = ["2C 6D AH", "3C 7D KH", "4C 8D QS", "QC 9D 2H"]
    plays = "2C 3C 4C QC 9D 6D 7D 8D 2H AH KH QS"
    state = royal_hand(backend, hands, plays, moon=MOON_NONE)
    assert state.taken(3) & mask("QC") and state.taken(0) & mask("QS")
    assert state.points((0, 0, 0, 0), 100) == (3 + 26, 0, 0, 0)


def test_royal_queen_of_diamonds_cannot_make_a_hand_negative(backend):
    # Seat 0 wins the diamond trick with the QD, then its forced AH lead takes three hearts:
    # 4 - 10 is floored at 0; the no-trick bonus is added after the floor.
    hands = ["2C QD AH", "3C 7D KH", "4C 8D 3H", "5C 9D 2H"]
    plays = "2C 3C 4C 5C 9D QD 7D 8D AH KH 3H 2H"
    state = royal_hand(backend, hands, plays, moon=MOON_NONE)
    assert state.taken(0) == mask("9D QD 7D 8D AH KH 3H 2H")
    assert state.points((0, 0, 0, 0), 100) == (0, 0, 0, 0)
    bonus = royal_hand(backend, hands, plays, moon=MOON_NONE, no_trick_bonus=-5)
    assert bonus.points((0, 0, 0, 0), 100) == (0, -5, -5, 0)
    plain = royal_hand(backend, hands, plays, moon=MOON_NONE, royal_queens=0)
    assert plain.points((0, 0, 0, 0), 100) == (-6, 0, 0, 0)


def test_royal_queen_of_diamonds_subtracts_from_a_positive_score(backend):
    # Five seats: seat 4 wins the clubs, seat 0 the diamonds with the QD, then its forced AH
    # lead takes four hearts and the QS: 4 + 26 - 10.
    hands = ["2C QD AH", "3C 7D KH", "4C 8D QS", "5C 9D 2H", "6C TD 3H"]
    plays = "2C 3C 4C 5C 6C TD QD 7D 8D 9D AH KH QS 2H 3H"
    state = royal_hand(backend, hands, plays, moon=MOON_NONE)
    assert state.taken(0) == mask("TD QD 7D 8D 9D AH KH QS 2H 3H")
    assert state.points((0, 0, 0, 0, 0), 100) == (4 + 26 - 10, 0, 0, 0, 0)


def test_royal_sun_keeps_its_own_worth(backend):
    # Seat 0 wins both tricks, so every card: a sun, worth sun_points, not the royal score.
    hands = ["AC AD", "2C QH", "QS 2H", "QC QD"]
    rules = {**ROYAL_MOON_RULES, "first_trick": FIRST_TRICK_ANY}
    state = royal_hand(backend, hands, "AC 2C QS QC AD QH 2H QD", **rules, sun_points=52)
    assert state.tricks_won(0) == 2
    assert state.points((0, 0, 0, 0), 100) == (0, 52, 52, 52)
    no_bonus = royal_hand(backend, hands, "AC 2C QS QC AD QH 2H QD", **rules, moon=MOON_NONE)
    assert no_bonus.points((0, 0, 0, 0), 100) == (0, 0, 0, 0)  # 2 x 2 - 10, floored


def test_royal_queens_must_be_0_or_1(backend):
    cfg, hands, kitty = build(QUEEN_OF_HEARTS_DEAL, royal_queens=2)
    with pytest.raises(ValueError, match="royal_queens"):
        backend.HandState(cfg, hands, kitty, 0, PASS_HOLD, 0)


# --- The kitty (002 '"Kitty" variants'; 001 'WINNING THE KITTY'). ---

KITTY_HANDS = ["2C 5D 2H", "3C 6D 3H", "4C AD 4H"]
"""Seat 2 wins every trick: clubs, diamonds, then hearts (the first with points)."""


def test_kitty_goes_to_first_trick_winner(backend):
    state = new_hand(backend, KITTY_HANDS, "QS", kitty_taker=KITTY_TO_FIRST_TRICK, moon=0)
    assert (state.kitty, state.kitty_owner) == (mask("QS"), -1)
    play_all(state, "2C 3C 4C")
    assert state.kitty_owner == 2
    assert state.taken(2) == mask("2C 3C 4C QS")
    assert state.tricks_won(2) == 1
    play_all(state, "AD 5D 6D 4H 2H 3H")
    assert state.points((0, 0, 0), 100) == (0, 0, 16)


def test_kitty_goes_to_first_point_taker(backend):
    state = new_hand(backend, KITTY_HANDS, "QS", kitty_taker=KITTY_TO_FIRST_POINTS, moon=0)
    play_all(state, "2C 3C 4C AD 5D 6D")
    assert state.kitty_owner == -1
    assert not state.taken(2) & mask("QS")
    play_all(state, "4H 2H 3H")
    assert state.kitty_owner == 2
    assert state.taken(2) & mask("QS")


def test_kitty_goes_to_first_point_taker_not_first_trick_winner(backend):
    # Seat 2 wins the clean first trick; seat 0 wins trick 1, where seat 1 discards the 3H.
    hands = ["2C AD 2H", "3C 3H 4H", "4C 5D KH"]
    state = new_hand(backend, hands, "QS", kitty_taker=KITTY_TO_FIRST_POINTS, moon=0)
    play_all(state, "2C 3C 4C 5D AD 3H")
    assert state.kitty_owner == 0
    play_all(state, "2H 4H KH")
    assert state.kitty_owner == 0
    assert state.points((0, 0, 0), 100) == (14, 0, 3)


def test_kitty_goes_to_last_trick_winner_when_no_trick_holds_points(backend):
    hands = ["2C 5D", "3C 6D", "4C AD"]
    state = new_hand(backend, hands, "QS AH", kitty_taker=KITTY_TO_FIRST_POINTS, moon=MOON_NONE)
    play_all(state, "2C 3C 4C")
    assert state.kitty_owner == -1
    play_all(state, "AD 5D 6D")
    assert state.kitty_owner == 2
    assert state.points((0, 0, 0), 100) == (0, 0, 14)


def test_kitty_points_count_for_the_moon(backend):
    hands = ["2C 5D", "3C 6D", "4C AD"]
    state = new_hand(backend, hands, "QS AH", kitty_taker=KITTY_TO_FIRST_POINTS)
    play_all(state, "2C 3C 4C AD 5D 6D")
    assert state.points((0, 0, 0), 100) == (26, 26, 0)


# --- Passing (000 'The Pass'; 002 'Passing variants'; 004 'Passing cards'). ---

FOUR = ["2C 3D 4S", "3C 4D 5S", "4C 5D 6S", "5C 6D 7S"]


def pass_hand(backend: ModuleType, kind: int, **fields: Any) -> Any:
    return new_hand(backend, FOUR, pass_kind=kind, **fields)


@pytest.mark.parametrize(("kind", "offset"), [(1, 1), (2, 2), (3, 3)])
def test_directional_pass_gives_to_the_seat_k_places_left(backend, kind, offset):
    state = pass_hand(backend, kind)
    assert (state.phase, state.to_play, state.legal_mask()) == (PHASE_PASSING, -1, 0)
    gifts = {s: card(FOUR[s].split()[1]) for s in range(4)}  # each seat's diamond
    for seat in range(4):
        assert state.apply_pass(seat, (gifts[seat],)) == 0
    assert state.phase == PHASE_PLAYING
    for seat in range(4):
        giver = (seat - offset) % 4
        assert state.passed(seat) == (gifts[seat],)
        assert state.received(seat) == (gifts[giver],)
        assert state.hand(seat) == (mask(FOUR[seat]) & ~(1 << gifts[seat])) | 1 << gifts[giver]


def test_passed_two_of_clubs_decides_the_opening_leader(backend):
    state = pass_hand(backend, 1)
    for seat in range(4):
        assert state.apply_pass(seat, (card(FOUR[seat].split()[0]),)) == 0
    assert state.hand(1) & mask("2C")
    assert (state.to_play, state.leader) == (1, 1)


def test_nothing_moves_until_the_last_seat_has_passed(backend):
    state = pass_hand(backend, 1)
    before = [state.hand(s) for s in range(4)]
    for seat in (2, 0, 3):
        assert state.apply_pass(seat, (card(FOUR[seat].split()[2]),)) == 0
        assert [state.hand(s) for s in range(4)] == before
        assert state.received(seat) == ()
    assert state.passed(1) == ()
    assert state.passed(2) == (card("6S"),)
    assert (state.phase, state.to_play, state.legal_mask()) == (PHASE_PASSING, -1, 0)
    assert state.check_play(card("2C")) == 2
    assert state.play(card("2C")) == 2
    assert state.apply_pass(1, (card("5S"),)) == 0
    assert state.hand(1) == mask("3C 4D 4S")


def test_hold_hand_starts_in_play(backend):
    state = pass_hand(backend, PASS_HOLD)
    assert state.phase == PHASE_PLAYING
    assert all(state.passed(s) == () and state.received(s) == () for s in range(4))
    assert state.apply_pass(0, (card("3D"),)) == 10


def test_scatter_pass_sends_one_card_to_each_other_seat(backend):
    state = pass_hand(backend, PASS_SCATTER)
    passes = {s: tuple(card(w) for w in FOUR[s].split()) for s in range(4)}
    assert state.apply_pass(0, passes[0][:1]) == 13  # scatter passes n - 1 cards
    for seat in range(4):
        assert state.apply_pass(seat, passes[seat]) == 0
    for seat in range(4):
        # The giver's i-th card goes to (giver + 1 + i) % n; received in giver order.
        expected = tuple(passes[g][(seat - g - 1) % 4] for g in range(4) if g != seat)
        assert state.received(seat) == expected
        assert state.hand(seat) == sum(1 << c for c in expected)
    assert state.received(1) == (card("2C"), card("6S"), card("6D"))


def test_center_mixer_redeals_the_pool_deterministically(backend):
    seed, dealer = 0xDEADBEEF12345678, 1
    passes = {s: (card(FOUR[s].split()[2]), card(FOUR[s].split()[0])) for s in range(4)}
    states = []
    for _ in range(2):
        state = new_hand(
            backend, FOUR, pass_kind=PASS_CENTER, seed=seed, dealer=dealer, pass_count=2
        )
        for seat in (3, 1, 0, 2):
            assert state.apply_pass(seat, passes[seat]) == 0
        states.append(state)
    pool = [c for s in range(4) for c in passes[s]]
    order = SplitMix64(seed ^ 0xC3A5C85C97CB3127).shuffled(pool)
    dealt: list[list[int]] = [[] for _ in range(4)]
    for k, c in enumerate(order):
        dealt[(dealer + 1 + k) % 4].append(c)
    for seat in range(4):
        assert states[0].received(seat) == states[1].received(seat)
        assert set(states[0].received(seat)) == set(dealt[seat])
        assert states[0].hand(seat) == (
            mask(FOUR[seat]) & ~sum(1 << c for c in passes[seat]) | sum(1 << c for c in dealt[seat])
        )


def test_pass_error_codes_in_order(backend):
    state = pass_hand(backend, 1, pass_count=2)
    assert state.apply_pass(-1, (card("2C"), card("3D"))) == 11
    assert state.apply_pass(4, (card("2C"), card("3D"))) == 11
    assert state.apply_pass(0, (card("2C"),)) == 13
    assert state.apply_pass(0, (card("2C"), card("2C"), card("3D"))) == 13
    assert state.apply_pass(0, (card("2C"), card("2C"))) == 14
    assert state.apply_pass(0, (99, 99)) == 14
    assert state.apply_pass(0, (card("2C"), card("3C"))) == 15
    assert state.apply_pass(0, (card("2C"), 52)) == 15
    assert state.apply_pass(0, (-1, card("2C"))) == 15
    assert state.apply_pass(0, (card("2C"), card("AH"))) == 15  # not in the deck at all
    assert state.passed(0) == ()
    assert state.apply_pass(0, (card("2C"), card("3D"))) == 0
    assert state.apply_pass(0, (card("4S"), card("3D"))) == 12
    assert state.apply_pass(0, ()) == 12
    for seat in (1, 2, 3):
        assert state.apply_pass(seat, tuple(card(w) for w in FOUR[seat].split()[:2])) == 0
    assert state.apply_pass(0, (card("4S"), card("3D"))) == 10


# Star passing (004 'Passing cards'): "The players choose only two cards, and pass one each to
# the two players situated closest to the exact opposite side of the table."
THREE = ["2C 3D 4S", "3C 4D 5S", "4C 5D 6S"]
FIVE = ["2C 3D 4S", "3C 4D 5S", "4C 5D 6S", "5C 6D 7S", "6C 7D 8S"]


@pytest.mark.parametrize("hands", [THREE, FIVE], ids=["three", "five"])
@pytest.mark.parametrize("pass_count", [1, 3])
def test_star_pass_sends_card_0_near_and_card_1_far_across(backend, hands, pass_count):
    n = len(hands)
    state = new_hand(backend, hands, pass_kind=PASS_STAR, pass_count=pass_count, dealer=1)
    passes = {s: (card(hands[s].split()[1]), card(hands[s].split()[2])) for s in range(n)}
    # Always two cards, whatever pass_count says.
    assert state.apply_pass(0, passes[0][:1]) == 13
    assert state.apply_pass(0, (*passes[0], card(hands[0].split()[0]))) == 13
    for seat in (2, 0, *range(3, n), 1):
        assert state.apply_pass(seat, passes[seat]) == 0
    assert state.phase == PHASE_PLAYING
    near, far = n // 2, (n + 1) // 2
    for seat in range(n):
        # The near giver's card 0 first, then the far giver's card 1.
        expected = (passes[(seat - near) % n][0], passes[(seat - far) % n][1])
        assert state.received(seat) == expected
        assert state.passed(seat) == passes[seat]
        assert state.hand(seat) == mask(hands[seat].split()[0]) | sum(1 << c for c in expected)


def test_star_routes_for_five_players_spelled_out(backend):
    state = new_hand(backend, FIVE, pass_kind=PASS_STAR)
    for seat in range(5):
        assert state.apply_pass(seat, tuple(card(w) for w in FIVE[seat].split()[1:])) == 0
    # Seat 0 gives 3D to seat 2 and 4S to seat 3; it gets seat 3's 6D, then seat 2's 6S.
    assert state.hand(2) & mask("3D") and state.hand(3) & mask("4S")
    assert state.received(0) == (card("6D"), card("6S"))
    assert state.received(2) == (card("3D"), card("8S"))  # seat 0 card 0, seat 4 card 1


def test_star_routes_for_three_players_go_left_then_right(backend):
    state = new_hand(backend, THREE, pass_kind=PASS_STAR)
    for seat in range(3):
        assert state.apply_pass(seat, tuple(card(w) for w in THREE[seat].split()[1:])) == 0
    # n // 2 = 1 (the left), (n + 1) // 2 = 2 (the right).
    assert state.received(0) == (card("5D"), card("5S"))  # seat 2's card 0, seat 1's card 1
    assert state.received(1) == (card("3D"), card("6S"))


# 003 'Simple variations': "Pass one card to the right and two cards to the left." A split
# pass is given as one offset per passed card; card i of every pass goes offsets[i] seats left.
FOUR_SPLIT = ["2C 3D 4S 5H", "3C 4D 5S 6H", "4C 5D 6S 7H", "5C 6D 7S 8H"]


@pytest.mark.parametrize("offsets", [(3, 1, 1), (2, 3, 1), (1, 1, 1)])
def test_split_pass_sends_each_card_its_own_offset(backend, offsets):
    state = new_hand(backend, FOUR_SPLIT, pass_kind=offsets, pass_count=3, dealer=2)
    passes = {s: tuple(card(w) for w in FOUR_SPLIT[s].split()[1:]) for s in range(4)}
    assert state.apply_pass(0, passes[0][:2]) == 13
    for seat in (3, 1, 0, 2):
        assert state.apply_pass(seat, passes[seat]) == 0
    assert state.phase == PHASE_PLAYING
    for seat in range(4):
        # In the pass's order: card i from the seat offsets[i] to the right.
        expected = tuple(passes[(seat - off) % 4][i] for i, off in enumerate(offsets))
        assert state.received(seat) == expected
        assert state.hand(seat) == mask(FOUR_SPLIT[seat].split()[0]) | sum(1 << c for c in expected)


def test_split_one_right_two_left_spelled_out(backend):
    state = new_hand(backend, FOUR_SPLIT, pass_kind=(3, 1, 1), pass_count=3)
    for seat in range(4):
        assert state.apply_pass(seat, tuple(card(w) for w in FOUR_SPLIT[seat].split()[1:])) == 0
    # Seat 0 gives 3D to the right (seat 3), 4S and 5H to the left (seat 1).
    assert state.hand(3) & mask("3D") and state.hand(1) & mask("4S 5H")
    # Seat 0 gets seat 1's 4D (from its left, passed right), then seat 3's 7S and 8H.
    assert state.received(0) == (card("4D"), card("7S"), card("8H"))


@pytest.mark.parametrize(
    "offsets", [(3, 1), (3, 1, 1, 1), (0, 1, 1), (4, 1, 1), (1, -1, 1)], ids=str
)
def test_split_pass_needs_pass_count_offsets_each_another_seat(backend, offsets):
    cfg, hands, kitty = build(FOUR_SPLIT, pass_count=3)
    with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
        backend.HandState(cfg, hands, kitty, 0, offsets, 0)


def test_split_pass_respects_forbidden_cards(backend):
    cfg, hands, kitty = build(FOUR_SPLIT, pass_count=3, pass_forbidden=mask("4S"))
    state = backend.HandState(cfg, hands, kitty, 0, (3, 1, 1), 0)
    assert state.apply_pass(0, (card("3D"), card("4S"), card("5H"))) == 16
    assert state.apply_pass(0, (card("2C"), card("3D"), card("5H"))) == 0
    too_many = build(FOUR_SPLIT, pass_count=3, pass_forbidden=mask("4S 5S"))
    with pytest.raises(ValueError):  # noqa: PT011 -- a hand may keep 2 passable cards only
        backend.HandState(*too_many, 0, (3, 1, 1), 0)


def test_star_pass_is_refused_for_an_even_table(backend):
    cfg, hands, kitty = build(FOUR)
    with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
        backend.HandState(cfg, hands, kitty, 0, PASS_STAR, 0)
    with pytest.raises(ValueError, match="schedule"):
        backend.play_random_hands(standard_config(4), 1, 2, (1, PASS_STAR))
    six = standard_config(6)
    with pytest.raises(ValueError):  # noqa: PT011
        backend.HandState(six, *backend.deal(six, 1, 0), 0, PASS_STAR, 1)
    backend.HandState(*build(["2C 3D", "3C 4D", "4C 5D"]), 0, PASS_STAR, 0)  # odd: fine
    one_card = build(["2C", "3C", "4C"])
    with pytest.raises(ValueError):  # noqa: PT011 -- two cards do not fit in the hand
        backend.HandState(*one_card, 0, PASS_STAR, 0)


# 004 'Passing cards': "Passing the Ace, King and/or Queen of Spades may be allowed or
# prohibited."
SPADE_HONOURS = mask("QS KS AS")
# Hands of five: a hand may hold all three honours and still has two cards it may pass.
HONOURS_DEAL = ["2C 3D QS 8H 9H", "3C 4D KS TH JH", "4C 5D AS QH KH", "5C 6D 7S AH 2H"]


def test_forbidden_card_in_a_pass_is_error_16(backend):
    state = new_hand(backend, HONOURS_DEAL, pass_kind=1, pass_forbidden=SPADE_HONOURS)
    assert state.apply_pass(0, (card("QS"),)) == 16
    assert state.apply_pass(2, (card("AS"),)) == 16
    assert state.passed(0) == () and state.passed(2) == ()
    for seat, word in enumerate(["3D", "KS", "5D", "7S"]):
        assert state.apply_pass(seat, (card(word),)) == (16 if word == "KS" else 0)
    assert state.apply_pass(1, (card("4D"),)) == 0
    assert state.phase == PHASE_PLAYING
    assert state.received(1) == (card("3D"),)


def test_forbidden_card_comes_after_the_older_pass_codes(backend):
    state = new_hand(backend, HONOURS_DEAL, pass_kind=1, pass_count=2, pass_forbidden=SPADE_HONOURS)
    assert state.apply_pass(0, (card("QS"),)) == 13
    assert state.apply_pass(0, (card("QS"), card("QS"))) == 14
    assert state.apply_pass(0, (card("QS"), card("KS"))) == 15  # KS is seat 1's
    assert state.apply_pass(0, (card("QS"), 60)) == 15
    assert state.apply_pass(0, (card("2C"), card("QS"))) == 16
    assert state.apply_pass(0, (card("2C"), card("3D"))) == 0
    assert state.apply_pass(0, (card("2C"), card("QS"))) == 12


def test_forbidden_cards_bind_center_and_star_passes(backend):
    state = new_hand(
        backend, HONOURS_DEAL, pass_kind=PASS_CENTER, pass_count=2, pass_forbidden=SPADE_HONOURS
    )
    assert state.apply_pass(0, (card("3D"), card("QS"))) == 16
    assert state.apply_pass(0, (card("3D"), card("8H"))) == 0
    # Only the QS of the three is in play: three-card hands keep two cards to pass.
    five = ["2C 3D QS", "3C 4D 5S", "4C 5D 6S", "5C 6D 7S", "6C 7D 8S"]
    state = new_hand(backend, five, pass_kind=PASS_STAR, pass_forbidden=SPADE_HONOURS)
    assert state.apply_pass(0, (card("3D"), card("QS"))) == 16
    assert state.apply_pass(0, (card("3D"), card("2C"))) == 0


def test_forbidden_cards_not_in_play_change_nothing(backend):
    state = new_hand(backend, FOUR, pass_kind=1, pass_forbidden=mask("QS KS AS AH"))
    for seat in range(4):
        assert state.apply_pass(seat, (card(FOUR[seat].split()[2]),)) == 0


def test_a_pass_kind_is_refused_when_a_hand_could_not_pass_enough(backend):
    # Hands of five with three forbidden cards in play: a hand may hold all three and then
    # has only two cards to pass, so a pass of three is impossible; two are fine; hold too.
    cfg, hands, kitty = build(HONOURS_DEAL, pass_count=3, pass_forbidden=SPADE_HONOURS)
    for kind in (1, PASS_CENTER, PASS_SCATTER):
        with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
            backend.HandState(cfg, hands, kitty, 0, kind, 0)
    with pytest.raises(ValueError, match="schedule"):
        backend.play_random_hands(cfg._replace(opening=2), 1, 1, (0, 1))
    backend.HandState(cfg, hands, kitty, 0, PASS_HOLD, 0)
    backend.HandState(cfg._replace(pass_count=2), hands, kitty, 0, 1, 0)
    backend.HandState(cfg._replace(pass_count=2), hands, kitty, 0, PASS_CENTER, 0)


def test_pass_forbidden_must_be_a_mask_of_cards(backend):
    cfg, hands, kitty = build(FOUR)
    for bad in (-1, 1 << 55, 1 << 64):
        with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
            backend.HandState(cfg._replace(pass_forbidden=bad), hands, kitty, 0, 1, 0)


# --- Play error codes and validation. ---


def test_play_error_codes_in_order(backend):
    state = new_hand(backend, ["3C 5D", "2C 6C", "4C AH"], kitty="QS", pass_kind=1)
    assert state.check_play(-1) == 2  # passing comes before a bad card
    for seat, word in enumerate(["5D", "6C", "AH"]):
        assert state.apply_pass(seat, (card(word),)) == 0
    for bad in (-1, 52, 63, 10**30, -(10**30), card("KD")):
        assert state.check_play(bad) == 3
    assert state.check_play(card("QS")) == 4  # in the kitty
    assert state.check_play(card("3C")) == 4
    assert state.to_play == 1
    assert state.check_play(card("5D")) == 5  # received from seat 0
    before = snapshot(state, 3)
    for bad in (-1, 52, card("3C"), card("5D")):
        assert state.play(bad) != 0
        assert snapshot(state, 3) == before


def test_every_code_is_hand_over_once_the_hand_ends(backend):
    state = new_hand(backend, ["2C", "3C", "4C"])
    play_all(state, "2C 3C 4C")
    assert state.phase == PHASE_OVER
    assert state.legal_mask() == 0
    for anything in (-5, 0, card("2C"), 52):
        assert state.check_play(anything) == 1
        assert state.play(anything) == 1
    assert state.apply_pass(0, ()) == 10


def test_constructor_rejects_bad_input(backend):
    cfg, hands, kitty = build(["2C 3C", "4C 5C", "6C 7C"], "8C")
    backend.HandState(cfg, hands, kitty, 0, 0, 0)  # the good one
    bad = [
        (hands[:2], kitty, 0, 0),  # too few hands
        ((*hands, 0), kitty, 0, 0),  # too many hands
        ((mask("2C 3C 8C"), hands[1], hands[2]), 0, 0, 0),  # wrong hand size
        ((mask("2C 4C"), mask("4C 5C"), hands[2]), mask("3C 8C"), 0, 0),  # overlap
        ((mask("2C 3C"), hands[1], hands[2]), 0, 0, 0),  # the deck is not covered
        ((mask("2C 9C"), hands[1], hands[2]), kitty, 0, 0),  # a card not in the deck
        (hands, kitty, 3, 0),  # dealer out of range
        (hands, kitty, -1, 0),
        (hands, kitty, 0, 3),  # pass kind: 3 is not a direction with 3 players
        (hands, kitty, 0, -1),
        (hands, kitty, 0, 103),
    ]
    for bad_hands, bad_kitty, dealer, kind in bad:
        with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
            backend.HandState(cfg, bad_hands, bad_kitty, dealer, kind, 0)


def test_impossible_passes_are_rejected(backend):
    # A scatter pass needs players - 1 cards in each hand; a pass can't exceed the hand.
    cfg, hands, kitty = build(["2C", "3C", "4C"])
    with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
        backend.HandState(cfg, hands, kitty, 0, PASS_SCATTER, 0)
    with pytest.raises(ValueError):  # noqa: PT011
        backend.HandState(cfg._replace(pass_count=2), hands, kitty, 0, 1, 0)


def test_seat_views_reject_bad_seats(backend):
    state = pass_hand(backend, PASS_HOLD)
    for name in ("hand", "taken", "tricks_won", "passed", "received"):
        for seat in (-1, 4):
            with pytest.raises(IndexError):
                getattr(state, name)(seat)


# --- Undo. ---


def test_pop_without_plays_raises_index_error(backend):
    state = pass_hand(backend, PASS_HOLD)
    with pytest.raises(IndexError):
        state.pop()
    passing = pass_hand(backend, 1)
    with pytest.raises(IndexError):
        passing.pop()


def test_pop_undoes_play_and_push(backend):
    state = new_hand(backend, OPEN_TRICK)
    start = snapshot(state, 4)
    assert state.play(card("2C")) == 0
    state.push(card("3C"))
    state.pop()
    state.pop()
    assert snapshot(state, 4) == start
    with pytest.raises(IndexError):
        state.pop()


def test_push_skips_the_rules_but_not_the_bookkeeping(backend):
    state = new_hand(backend, ["2C 5D", "3C 6D", "4C 7D"])
    state.push(card("5D"))  # not the opening card, but push does not check the rules
    assert state.current_trick() == (card("5D"),)
    state.pop()
    for bad in (card("3C"), 52, -1):  # another seat's card, not a card
        with pytest.raises(ValueError):  # noqa: PT011 -- each backend words its own message
            state.push(bad)
    assert state.current_trick() == ()
    passing = new_hand(backend, ["2C 5D", "3C 6D", "4C 7D"], pass_kind=1)
    with pytest.raises(ValueError):  # noqa: PT011
        passing.push(card("2C"))


def test_push_pop_restore_every_view_on_random_hands(backend):
    rng = random.Random(11)
    for _ in range(40):
        cfg = random_config(rng)
        state = start_random_hand(backend, cfg, rng)
        snapshots = [snapshot(state, cfg.players)]
        pushed = []
        while state.phase == PHASE_PLAYING:
            pushed.append(random_legal(state, rng))
            state.push(pushed[-1])
            snapshots.append(snapshot(state, cfg.players))
        final = snapshots.pop()
        points = state.points((0,) * cfg.players, 0)
        while snapshots:
            state.pop()
            assert snapshot(state, cfg.players) == snapshots.pop()
        with pytest.raises(IndexError):
            state.pop()
        for choice in pushed:  # the same cards again give the same hand
            state.push(choice)
        assert snapshot(state, cfg.players) == final
        assert state.points((0,) * cfg.players, 0) == points


# --- Points the contract leaves open, as both backends settled them (see 0001). ---


def test_leader_is_unknown_while_passing_and_last_winner_when_over(backend):
    state = new_hand(backend, ["2C 5D", "3C 6D", "4C 7D"], pass_kind=1)
    assert state.leader == -1
    for seat, word in enumerate(["5D", "6D", "7D"]):
        assert state.apply_pass(seat, (card(word),)) == 0
    play_all(state, "2C 3C 4C 6D 7D 5D")
    assert (state.phase, state.leader, state.history()[-1][2]) == (PHASE_OVER, 0, 0)


def test_empty_kitty_still_gets_an_owner(backend):
    state = new_hand(backend, ["2C 5D", "3C 6D", "4C 7D"])
    play_all(state, "2C 3C 4C")
    assert (state.kitty, state.kitty_owner) == (0, 2)


def test_center_mixer_hands_cards_out_in_redeal_order(backend):
    seed, dealer = 77, 3
    state = new_hand(backend, FOUR, pass_kind=PASS_CENTER, seed=seed, dealer=dealer)
    passes = [card(FOUR[s].split()[1]) for s in range(4)]
    for seat in range(4):
        assert state.apply_pass(seat, (passes[seat],)) == 0
    order = SplitMix64(seed ^ 0xC3A5C85C97CB3127).shuffled(passes)
    for k, given in enumerate(order):
        assert state.received((dealer + 1 + k) % 4) == (given,)


def test_sun_needs_a_moon_rule(backend):
    hands = ["AS AH KH 5C", "QS 3H 3C JD", "3S 2H 5D 4C"]
    rules = {**MOON_RULES, "moon": MOON_NONE, "sun_points": 52}
    state = new_hand(backend, hands, values={"JD": -10}, **rules)
    play_all(state, "AS QS 3S AH 3H 2H KH JD 5D 5C 3C 4C")
    assert state.points((0, 0, 0), 100) == (7, 0, 0)


# --- Random-play invariants. ---


def random_legal(state: Any, rng: random.Random) -> int:
    legal = state.legal_mask()
    return rng.choice([c for c in range(55) if legal >> c & 1])


def start_random_hand(
    backend: ModuleType, cfg: CoreConfig, rng: random.Random, decisions: list[int] | None = None
) -> Any:
    """Deal with a random seed and pass random cards; record the pass decisions."""
    seed, dealer = rng.getrandbits(64), rng.randrange(cfg.players)
    kind = random_pass_kind(rng, cfg.players)
    hands, kitty = backend.deal(cfg, seed, dealer)
    state = backend.HandState(cfg, hands, kitty, dealer, kind, seed)
    if decisions is not None:
        decisions.extend([seed, dealer, kind])
    seats = list(range(cfg.players))
    rng.shuffle(seats)
    for seat in seats if state.phase == PHASE_PASSING else []:
        given = tuple(rng.sample(passable(cfg, hands[seat]), pass_size(cfg, kind)))
        assert state.apply_pass(seat, given) == 0
        if decisions is not None:
            decisions.extend([seat, *given])
    return state


def play_random_hand(
    backend: ModuleType, cfg: CoreConfig, rng: random.Random, decisions: list[int] | None = None
) -> Any:
    state = start_random_hand(backend, cfg, rng, decisions)
    while state.phase == PHASE_PLAYING:
        legal = state.legal_mask()
        assert legal and legal & ~state.hand(state.to_play) == 0
        choice = random_legal(state, rng)
        assert state.check_play(choice) == 0
        for other in range(55):
            assert (state.check_play(other) == 0) == bool(legal >> other & 1)
        assert state.play(choice) == 0
        if decisions is not None:
            decisions.append(choice)
    return state


def test_random_hands_keep_the_invariants(backend):
    rng = random.Random(2024)
    for _ in range(150):
        cfg = random_config(rng)
        state = play_random_hand(backend, cfg, rng)
        n = cfg.players
        assert state.phase == PHASE_OVER
        assert state.trick_number == cfg.hand_size
        history = state.history()
        played = [c for _, cards, _ in history for c in cards]
        assert len(played) == len(set(played)) == n * cfg.hand_size + extra_cards(cfg)
        assert sum(1 << c for c in played) | state.kitty == cfg.deck
        assert sum(state.tricks_won(s) for s in range(n)) == cfg.hand_size
        union = 0
        for seat in range(n):
            assert state.hand(seat) == 0
            assert not union & state.taken(seat)
            union |= state.taken(seat)
        assert union == cfg.deck
        if state.kitty:
            assert 0 <= state.kitty_owner < n
            if cfg.kitty_taker == KITTY_EACH_TRICK:
                # 004 'The Kitty and the First Trick': trick t's winner took its t-th card.
                assert state.kitty_owner == history[0][2]
                rest = state.kitty
                for t, (_, _, winner) in enumerate(history):
                    if rest:
                        got = rest if t == len(history) - 1 else rest & -rest
                        assert state.taken(winner) & got == got
                        rest &= ~got
            else:
                assert state.taken(state.kitty_owner) & state.kitty == state.kitty
        for number, ((leader, cards, winner), (next_leader, _, _)) in enumerate(
            itertools.pairwise(history)
        ):
            assert next_leader == winner
            # 002: the first trick holds the extra cards too
            assert len(cards) == n + (extra_cards(cfg) if number == 0 else 0)
            assert leader in range(n)


def test_points_without_moon_doubler_or_bonus_add_up_to_the_values(backend):
    rng = random.Random(5)
    for _ in range(100):
        cfg = random_config(rng)._replace(
            moon=MOON_NONE, doubler=-1, no_trick_bonus=0, sun_points=0, royal_queens=0
        )
        # Nor the trick points and the reversal (004 'Slobberhannes', Gong Zhu).
        cfg = cfg._replace(
            first_trick_points=0,
            last_trick_points=0,
            every_penalty_extra=0,
            all_hearts_reversed=0,
            all_hearts_reverse_queen=0,
        )
        state = play_random_hand(backend, cfg, rng)
        totals = tuple(rng.randint(-20, 120) for _ in range(cfg.players))
        jokers = (cfg.deck >> 52).bit_count() * cfg.joker_points
        assert sum(state.points(totals, 100)) == sum(cfg.values) + jokers


def test_replay_from_config_seed_and_decisions_is_identical(backend):
    rng = random.Random(9)
    for _ in range(30):
        cfg = random_config(rng)
        decisions: list[int] = []
        first = play_random_hand(backend, cfg, rng, decisions)
        seed, dealer, kind, *rest = decisions
        hands, kitty = backend.deal(cfg, seed, dealer)
        again = backend.HandState(cfg, hands, kitty, dealer, kind, seed)
        if again.phase == PHASE_PASSING:
            size = pass_size(cfg, kind)
            for _ in range(cfg.players):
                seat, given = rest[0], tuple(rest[1 : 1 + size])
                rest = rest[1 + size :]
                assert again.apply_pass(seat, given) == 0
        for choice in rest:
            assert again.play(choice) == 0
        assert snapshot(again, cfg.players) == snapshot(first, cfg.players)
        totals = tuple(rng.randint(0, 99) for _ in range(cfg.players))
        assert again.points(totals, 100) == first.points(totals, 100)


def contract_batch(
    backend: ModuleType, cfg: CoreConfig, seed: int, count: int, schedule: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """The random batch, replayed through the HandState API exactly as the contract says."""
    n = cfg.players
    master = SplitMix64(seed)
    digest = 0xCBF29CE484222325
    sums = [0] * n

    def decide(c: int) -> None:
        nonlocal digest
        digest = ((digest ^ c) * 0x100000001B3) & MASK64

    for i in range(count):
        hand_seed = master.next()
        dealer, kind = i % n, schedule[i % len(schedule)]
        hands, kitty = backend.deal(cfg, hand_seed, dealer)
        state = backend.HandState(cfg, hands, kitty, dealer, kind, hand_seed)
        policy = SplitMix64(hand_seed ^ 0x5851F42D4C957F2D)
        if kind != PASS_HOLD:
            size = pass_size(cfg, kind)
            for seat in range(n):
                rest, given = hands[seat], []
                for _ in range(size):
                    allowed = rest & ~cfg.pass_forbidden  # only cards it may pass
                    c = kth(allowed, policy.bounded(allowed.bit_count()))
                    rest &= ~(1 << c)
                    given.append(c)
                    decide(c)
                assert state.apply_pass(seat, tuple(given)) == 0
        while state.phase == PHASE_PLAYING:
            legal = state.legal_mask()
            c = kth(legal, policy.bounded(legal.bit_count()))
            decide(c)
            assert state.play(c) == 0
        for seat, score in enumerate(state.points((0,) * n, 0)):
            sums[seat] += score
    return digest, tuple(sums)


def test_play_random_hands_follows_the_contract_policy(backend):
    rng = random.Random(3)
    cases: list[tuple[CoreConfig, tuple[int, ...]]] = [(standard_config(4), (1, 3, 2, 0))]
    for _ in range(12):
        cfg = random_config(rng)
        cases.append((cfg, random_schedule(rng, cfg.players)))
    for cfg, schedule in cases:
        seed, count = rng.getrandbits(64), rng.randint(1, 12)
        digest, sums = backend.play_random_hands(cfg, seed, count, schedule)
        assert (digest, tuple(sums)) == contract_batch(backend, cfg, seed, count, schedule)


def test_play_random_hands_standard_sums_are_multiples_of_26(backend):
    digest, sums = backend.play_random_hands(standard_config(4), 42, 200, (1, 3, 2, 0))
    assert sum(sums) % 26 == 0
    assert 0 <= digest <= MASK64
    assert backend.play_random_hands(standard_config(4), 42, 0, (0,)) == (
        0xCBF29CE484222325,
        (0, 0, 0, 0),
    )


def test_play_random_hands_passes_only_allowed_cards_and_stars(backend):
    rng = random.Random(17)
    cases = [
        (standard_config(5)._replace(pass_forbidden=SPADE_HONOURS), (PASS_STAR, 1, 100, 101)),
        (standard_config(3)._replace(pass_forbidden=SPADE_HONOURS), (PASS_STAR, 2, 0)),
        (standard_config(4)._replace(pass_forbidden=SPADE_HONOURS), (1, 3, 2, 0)),
        (standard_config(7), (PASS_STAR, 100)),
    ]
    for cfg, schedule in cases:
        seed = rng.getrandbits(64)
        digest, sums = backend.play_random_hands(cfg, seed, 25, schedule)
        # contract_batch asserts that every pass it makes is accepted.
        assert (digest, tuple(sums)) == contract_batch(backend, cfg, seed, 25, schedule)
    # Forbidding cards changes which cards are passed, so the stream.
    free = backend.play_random_hands(standard_config(5), 5, 20, (PASS_STAR,))
    banned = standard_config(5)._replace(pass_forbidden=SPADE_HONOURS)
    assert backend.play_random_hands(banned, 5, 20, (PASS_STAR,)) != free


# Digests of the random batch as they were before star passes and pass_forbidden existed:
# a new option at its default must not change any existing stream.
GOLDEN_BATCHES = [
    (4, (1, 3, 2, 0), 0xEC9726E5EB464840, (850, 781, 726, 815)),
    (5, (1, 4, 2, 3, 0, 100, 101), 0x490FC1F997B1E61E, (611, 898, 697, 530, 540)),
    (3, (1, 2, 0, 100, 101), 0x33C31F64515EB528, (1004, 999, 1143)),
]


@pytest.mark.parametrize(("players", "schedule", "digest", "sums"), GOLDEN_BATCHES)
def test_play_random_hands_streams_are_unchanged(backend, players, schedule, digest, sums):
    cfg = standard_config(players)
    assert cfg.pass_forbidden == 0
    assert backend.play_random_hands(cfg, 20260101 + players, 120, schedule) == (digest, sums)


# --- Booster Nines (004 'Other Variations'): `booster_nines`. ---
# "Booster Nines - if a nine is played then an extra round in the suit is played": a trick
# holding the nine of the suit led makes its winner lead that suit again if he holds it.

BOOSTER_HANDS = ["2C 5D 6D 7D", "9C 2S 3S 4S", "AC KC 2D 4H", "3C 5S 6S 7S"]


def test_booster_nine_of_the_suit_led_forces_the_next_lead(backend):
    state = new_hand(backend, BOOSTER_HANDS, booster_nines=1)
    assert state.booster == -1
    play_all(state, "2C 9C AC")
    assert state.booster == -1  # set once the trick is finished
    play_all(state, "3C")
    assert state.to_play == 2 and state.booster == 0
    assert names(state.legal_mask()) == {"KC"}
    assert state.check_play(card("2D")) == ERR_BOOSTER_SUIT
    assert state.play(card("4H")) == ERR_BOOSTER_SUIT
    play_all(state, "KC")
    assert state.booster == 0  # the obligation stays while its trick is played
    state.pop()
    state.pop()
    assert state.booster == -1


def test_booster_needs_the_rule(backend):
    state = new_hand(backend, BOOSTER_HANDS)
    play_all(state, "2C 9C AC 3C")
    assert state.booster == -1
    assert names(state.legal_mask()) == {"KC", "2D"}  # no heart before hearts break


def test_booster_leader_without_the_suit_leads_by_the_usual_rules(backend):
    hands = ["2C 9C 5D 6D", "3C 2S 3S 4S", "AC 2D 4H 5H", "4C 5S 6S 7S"]
    state = new_hand(backend, hands, booster_nines=1)
    play_all(state, "2C 3C AC 4C")  # no nine: nothing boosted
    assert state.booster == -1
    hands = ["2C 5D 6D 7D", "9C 2S 3S 4S", "AC 2D 4H 5H", "3C 5S 6S 7S"]
    state = new_hand(backend, hands, booster_nines=1)
    play_all(state, "2C 9C AC 3C")
    assert state.booster == 0
    assert names(state.legal_mask()) == {"2D"}  # no club left: the lead rule applies


def test_booster_nine_played_off_suit_boosts_nothing(backend):
    hands = ["2C 5D 6D 7D", "9D 2S 3S 4S", "AC 2D 4H 5H", "3C 5S 6S 7S"]
    state = new_hand(backend, hands, booster_nines=1)
    play_all(state, "2C 9D AC 3C")
    assert state.booster == -1


def test_booster_overrides_the_lead_rule(backend):
    # 001 'HOW TO PLAY'-style points rule: no point card led until points are broken; the
    # JD (-10) would be refused as a lead, but the booster obliges a diamond lead.
    hands = ["2C 9D 3H 4H", "3C QD JD 2S", "4C TD 4S 5S", "5C 3D 6S 7S"]
    state = new_hand(
        backend, hands, values={"JD": -10}, lead_rule=LEAD_NOT_POINTS, broken_by=BROKEN_BY_HEARTS
    )
    play_all(state, "2C 3C 4C 5C 3D 9D QD TD")
    assert state.to_play == 1 and not state.broken
    assert names(state.legal_mask()) == {"2S"}
    state = new_hand(
        backend,
        hands,
        values={"JD": -10},
        lead_rule=LEAD_NOT_POINTS,
        broken_by=BROKEN_BY_HEARTS,
        booster_nines=1,
    )
    play_all(state, "2C 3C 4C 5C 3D 9D QD TD")
    assert state.booster == 1
    assert names(state.legal_mask()) == {"JD"}
    assert state.check_play(card("2S")) == ERR_BOOSTER_SUIT


def test_booster_is_not_set_by_the_last_trick(backend):
    hands = ["2C 9D", "3C TD", "4C JD", "5C QD"]
    state = new_hand(backend, hands, booster_nines=1, first_trick=FIRST_TRICK_ANY)
    play_all(state, "2C 3C 4C 5C QD 9D TD JD")
    assert state.phase == PHASE_OVER and state.booster == -1


def test_booster_nine_of_hearts_forces_a_heart_lead(backend):
    hands = ["2C 9H 5D 6D", "3C AH KH 2S", "4C 2H 2D 3D", "5C 5H 6S 7S"]
    state = new_hand(backend, hands, booster_nines=1, lead_rule=LEAD_ANY)
    play_all(state, "2C 3C 4C 5C 5H 9H AH 2H")
    assert state.to_play == 1 and state.booster == 3
    assert names(state.legal_mask()) == {"KH"}
    assert state.check_play(card("2S")) == ERR_BOOSTER_SUIT


# --- Joker Hearts (004): `joker_kind`, `joker_points`, jokers as cards 52..54. ---
# 'Other Variations': "Joker Hearts - adding the joker cards, which can be played any time
# and count for zero points"; 'Deal': jokers "count as an off-suit, non-Heart card".

WILD: dict[str, Any] = {"joker_kind": JOKER_WILD}


def test_wild_joker_may_be_played_while_holding_the_led_suit_and_never_wins(backend):
    state = new_hand(backend, ["2C 3C 5D", "AC JK1 2S", "KC 4C 3S"], **WILD)
    assert names(state.legal_mask()) == {"2C"}  # the opening lead is still the 2C
    play_all(state, "2C")
    assert names(state.legal_mask()) == {"AC", "JK1"}  # "played any time"
    assert state.check_play(card("2S")) == ERR_MUST_FOLLOW_SUIT
    play_all(state, "JK1 KC")
    assert state.history()[0] == (0, (card("2C"), card("JK1"), card("KC")), 2)


def test_wild_joker_lead_takes_the_suit_of_the_next_card(backend):
    state = new_hand(backend, ["2C 5D 6D", "3C 2S 3S", "4C JK1 4D"], **WILD)
    play_all(state, "2C 3C 4C JK1")
    assert names(state.legal_mask()) == {"5D", "6D"}  # no suit yet: anything
    play_all(state, "5D")
    assert names(state.legal_mask()) == {"2S", "3S"}  # diamonds now; seat 1 is void
    play_all(state, "2S")
    assert state.history()[1] == (2, (card("JK1"), card("5D"), card("2S")), 0)


def test_wild_jokers_only_trick_goes_to_its_leader(backend):
    state = new_hand(backend, ["2C JK1", "3C JK2", "4C JK3"], **WILD)
    play_all(state, "2C 3C 4C JK3")
    assert names(state.legal_mask()) == {"JK1"}
    play_all(state, "JK1 JK2")
    assert state.history()[1] == (2, (card("JK3"), card("JK1"), card("JK2")), 2)


def test_wild_jokers_are_not_hearts_and_count_zero(backend):
    hands = ["2C JK1 2H", "3C 5D 3H", "4C 7D 4H"]
    state = new_hand(backend, hands, moon=MOON_NONE, **WILD)
    play_all(state, "2C 3C 4C 7D JK1 5D")  # a void seat may throw the joker away
    assert not state.broken
    play_all(state, "4H 2H 3H")
    assert state.points((0, 0, 0), 100) == (0, 0, 3)


# 004 (1911) 'Joker Hearts': "the deuce of hearts is discarded, and an extra card, called the
# joker, takes its place, ranking in value between ten and knave. It cannot be thrown away,
# excepting when hearts are led and an ace or court card is played, though if an opponent
# discards the ace or a court card of hearts, then the holder of the joker may discard it.
# The joker is usually considered worth five chips".

HEART_JOKER: dict[str, Any] = {
    "joker_kind": JOKER_HEART,
    "joker_points": 5,
    "first_trick": FIRST_TRICK_ANY,
}


def test_1911_joker_refused_as_a_discard_until_an_opponent_discards_a_high_heart(backend):
    state = new_hand(backend, ["2C 3S 4S", "3C JK1 5D", "4C KH 6D", "5C 9S 7D"], **HEART_JOKER)
    play_all(state, "2C 3C 4C 5C 9S 3S")  # seat 1 is void in spades
    assert names(state.legal_mask()) == {"5D"}
    assert state.check_play(card("JK1")) == ERR_JOKER_HELD
    # an opponent discards the KH to the trick: now the joker may be discarded
    state = new_hand(backend, ["2C 3S 4S", "3C KH 5D", "4C JK1 6D", "5C 9S 7D"], **HEART_JOKER)
    play_all(state, "2C 3C 4C 5C 9S 3S KH")
    assert names(state.legal_mask()) == {"JK1", "6D"}
    play_all(state, "JK1 7D")
    assert state.history()[1][2] == 3


def test_1911_joker_allowed_on_a_heart_trick_after_a_court_heart(backend):
    rules: dict[str, Any] = {**HEART_JOKER, "lead_rule": LEAD_ANY, "moon": MOON_NONE}
    state = new_hand(backend, ["2C 3H JK1", "3C QH 4H", "4C 5H 6H", "5C TH 7H"], **rules)
    play_all(state, "2C 3C 4C 5C TH")  # the TH led: no ace or court card yet
    assert names(state.legal_mask()) == {"3H"}
    assert state.check_play(card("JK1")) == ERR_JOKER_HELD
    state = new_hand(backend, ["2C 3H JK1", "3C TH 4H", "4C 5H 6H", "5C QH 7H"], **rules)
    play_all(state, "2C 3C 4C 5C QH")  # the QH led: the joker may go on it
    assert names(state.legal_mask()) == {"3H", "JK1"}
    play_all(state, "JK1 TH 5H")
    assert state.history()[1][2] == 3  # the queen beats the joker
    play_all(state, "7H 3H 4H 6H")
    assert state.points((0,) * 4, 100) == (0, 0, 0, 1 + 5 + 1 + 1 + 4)


def test_1911_joker_ranks_between_ten_and_jack_when_it_is_the_only_card(backend):
    rules: dict[str, Any] = {**HEART_JOKER, "lead_rule": LEAD_ANY}
    state = new_hand(backend, ["2C JK1", "3C TH", "4C 9H", "5C 8H"], **rules)
    play_all(state, "2C 3C 4C 5C 8H")
    assert names(state.legal_mask()) == {"JK1"}  # its only card: it must go
    play_all(state, "JK1 TH 9H")
    assert state.history()[1][2] == 0  # above the ten
    state = new_hand(backend, ["2C JK1", "3C JH", "4C 9H", "5C 8H"], **rules)
    play_all(state, "2C 3C 4C 5C 8H JK1 JH 9H")
    assert state.history()[1][2] == 1  # below the knave


def test_trick_points_and_the_extra_add_to_the_values_and_go_to_the_trick_winners(backend):
    """004 'Slobberhannes' on random configs: without moon, doubler, bonus and reversal,
    the points add up to the card values plus the first and last tricks' points plus the
    extra, which only a seat that won the first and last tricks and took every penalty
    card can get."""
    rng = random.Random(23)
    for _ in range(60):
        cfg = random_config(rng)._replace(
            moon=MOON_NONE, doubler=-1, no_trick_bonus=0, sun_points=0, royal_queens=0
        )
        cfg = cfg._replace(
            first_trick_points=rng.choice([1, 3]),
            last_trick_points=rng.choice([0, 2]),
            every_penalty_extra=rng.choice([0, 5]),
            all_hearts_reversed=0,
            all_hearts_reverse_queen=0,
        )
        state = play_random_hand(backend, cfg, rng)
        points = state.points((0,) * cfg.players, 100)
        jokers = (cfg.deck >> 52).bit_count() * cfg.joker_points
        base = sum(cfg.values) + jokers + cfg.first_trick_points + cfg.last_trick_points
        history = state.history()
        first, last = history[0][2], history[-1][2]
        values = (*cfg.values, *(cfg.joker_points,) * 3)
        penalty = sum(1 << c for c in range(55) if cfg.deck >> c & 1 and values[c] > 0)
        swept = first == last and state.taken(first) & penalty == penalty
        assert sum(points) == base + (cfg.every_penalty_extra if swept else 0)
