"""The playout entry point (contract "Playouts"), on every backend, and the greedy policy's
rules pinned on the reference (the differential test holds the C core to the reference on
random positions for every policy)."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from arena.engine import reference
from arena.engine.config import LEAD_ANY, MOON_NONE, PHASE_OVER, PHASE_PLAYING, standard_config
from tests.engine.backends import BACKEND_IDS, BACKENDS
from tests.engine.test_backend_contract import SplitMix64, kth, new_hand, play_all, snapshot

RANDOM, GREEDY, MIXED = 0, 1, 2
SHOOT = 16


def dealt_state(backend: ModuleType, seed: int, plays: int) -> Any:
    cfg = standard_config(4)
    hands, kitty = backend.deal(cfg, seed, 0)
    state = backend.HandState(cfg, hands, kitty, 0, 0, seed)
    for _ in range(plays):
        legal = state.legal_mask()
        state.play((legal & -legal).bit_length() - 1)
    return state


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
@pytest.mark.parametrize("policy", [RANDOM, GREEDY, MIXED, SHOOT, SHOOT + 3])
def test_playout_leaves_the_state_as_it_was(backend, policy):
    for plays in (0, 1, 13, 30, 51):
        state = dealt_state(backend, 11 + plays, plays)
        before = snapshot(state, 4)
        points = state.playout(12345, policy)
        assert snapshot(state, 4) == before
        assert sum(points) in (26, 78)
        assert state.playout(12345, policy) == points  # deterministic given the seed
    for _ in range(30):  # the undo stack is intact: every play can still be taken back
        state.pop()
    assert state.trick_number == 5


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_random_playout_plays_the_kth_lowest_legal_card(backend):
    state = dealt_state(backend, 5, 9)
    seed = 0xDEADBEEF
    rng = SplitMix64(seed)
    expected_state = dealt_state(backend, 5, 9)
    while expected_state.phase == PHASE_PLAYING:
        legal = expected_state.legal_mask()
        expected_state.push(kth(legal, rng.bounded(legal.bit_count())))
    assert state.playout(seed, RANDOM) == expected_state.points((0, 0, 0, 0), 0)


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_playout_refuses_a_passing_hand_and_unknown_policies(backend):
    cfg = standard_config(4)
    hands, kitty = backend.deal(cfg, 1, 0)
    passing = backend.HandState(cfg, hands, kitty, 0, 1, 1)
    with pytest.raises(ValueError, match="passing"):
        passing.playout(1, GREEDY)
    playing = backend.HandState(cfg, hands, kitty, 0, 0, 1)
    for policy in (-1, 3, SHOOT - 1, SHOOT + 4, 2**70):
        with pytest.raises(ValueError, match="policy"):
            playing.playout(1, policy)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            playing.playout(seed, GREEDY)
    with pytest.raises(TypeError):
        playing.playout(1, 1.5)


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_playout_of_a_finished_hand_is_its_points(backend):
    state = dealt_state(backend, 3, 52)
    assert state.phase == PHASE_OVER
    assert state.playout(9, GREEDY) == state.points((0, 0, 0, 0), 0)


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_greedy_playout_of_a_small_hand(backend):
    # Trick 0: 2C led; seat 1 cannot duck and is not last, so plays its lowest club (5C);
    # seats 2 and 3 duck under it (3C, 4C). Seat 1 may not lead its heart: JC. Seat 2 must
    # win with the KC; seat 3 ducks with the QC, seat 0 with the 7C. Seat 2 leads its last
    # card, the 4H, and seat 3's 5H takes the four hearts.
    state = new_hand(backend, ["2C 7C 2H", "5C JC 3H", "KC 3C 4H", "QC 4C 5H"], moon=MOON_NONE)
    assert state.playout(0, GREEDY) == (0, 0, 0, 4)


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_mixed_playout_sometimes_leaves_the_greedy_line(backend):
    state = dealt_state(backend, 77, 4)
    greedy_points = state.playout(0, GREEDY)
    rng = random.Random(4)
    mixed = {state.playout(rng.getrandbits(64), MIXED) for _ in range(60)}
    assert mixed - {greedy_points}


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_the_shooters_plan_takes_every_trick_it_can(backend):
    # Every other seat's card is forced. Greedy, seat 0 leads its lowest heart, the 5H,
    # and seat 1's 6H takes the trick's four hearts; shooting, seat 0 leads the master AH
    # first, then the 5H when nobody holds a heart, and takes all five: the moon.
    hands = ["AC AH 5H", "2C 6H 3D", "3C 3H 4D", "4C 4H 5D"]
    state = new_hand(backend, hands)
    assert state.playout(0, GREEDY) == (0, 4, 0, 1)
    moon = state.playout(0, SHOOT)
    assert moon[0] == 0 and moon[1] == moon[2] == moon[3] > 0
    assert state.playout(0, SHOOT + 1)[0] == 0  # seat 1's plan cannot help seat 0 shoot


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_the_shooter_plays_mixed_once_another_seat_took_a_penalty_card(backend):
    # Once the moon is out of reach, the plan has nothing to win: the shooter's decisions
    # are the mixed policy's, with the same random draws.
    state = dealt_state(backend, 21, 0)
    while not any(state.taken(s) & 0xFFFF << 39 for s in range(1, 4)):
        legal = state.legal_mask()
        state.play(legal.bit_length() - 1)  # the highest card: hearts soon fly
    assert state.phase == PHASE_PLAYING and state.trick_number < 10
    rng = random.Random(8)
    for _ in range(20):
        seed = rng.getrandbits(64)
        assert state.playout(seed, SHOOT) == state.playout(seed, MIXED)


def greedy(hands: list[str], plays: str, **fields: Any) -> str:
    """The card the reference's greedy policy picks for the seat to play."""
    state = new_hand(reference, hands, **fields)
    play_all(state, plays)
    choice = state._greedy_card(state.legal_mask())
    return "23456789TJQKA"[choice % 13] + "CDSH"[choice // 13]


def test_greedy_leads_the_lowest_rank_worth_nothing():
    hands = ["2C 9D 3H 4S", "3C TD 2H 5S", "4C JD 4H 6S", "5C QD 5H 7S"]
    # seat 3 wins trick 0 and may lead anything: the 7S, not the lower 5H (a point card)
    assert greedy(hands, "2C 3C 4C 5C", lead_rule=LEAD_ANY) == "7S"


def test_greedy_ducks_with_the_highest_card_that_still_loses():
    hands = ["2C 9S 3H", "3C QS 8S", "4C 2S 5H", "5C KS 6H"]
    # seat 3 leads the KS (its heart may not be led), seat 0 follows 9S; seat 1 sheds the
    # QS under the king rather than the 8S
    assert greedy(hands, "2C 3C 4C 5C KS 9S") == "QS"


def test_greedy_that_must_win_plays_its_lowest_unless_last():
    hands = ["2C 9S AS", "3C TS KS", "4C 2S 5H", "5C 3S 6H"]
    assert greedy(hands, "2C 3C 4C 5C 3S") == "9S"
    assert greedy(hands, "2C 3C 4C 5C 3S 9S") == "TS"


def test_greedy_last_to_play_wins_with_its_highest_card_worth_no_penalty():
    hands = ["2C 9S 2D 3D", "3C 4D 5D 6D", "4C TS JS QS", "5C 2S 7D 8D"]
    # seat 3 leads 2S, seat 0 plays 9S, seat 1 (void) sheds 6D; seat 2 is last and cannot
    # duck: the JS, keeping the QS
    assert greedy(hands, "2C 3C 4C 5C 2S 9S 6D") == "JS"


def test_greedy_dumps_the_biggest_penalty_then_the_highest_rank_when_void():
    hands = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "2D QS AH"]
    assert greedy(hands, "2C 5C 8C 2D 9C") == "QS"  # 13 points before 1
    hands = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "2D KD AH"]
    assert greedy(hands, "2C 5C 8C 2D 9C") == "AH"  # a penalty card before a higher rank
    hands = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "2D KD 3D"]
    assert greedy(hands, "2C 5C 8C 2D 9C") == "KD"
