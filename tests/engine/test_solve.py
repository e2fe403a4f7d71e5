"""The exact endgame for search (`HandState.solve`, contract "Playouts"): on every backend
it equals a brute force written here (every legal card at every decision, each seat
minimising its margin), the C core equals the reference on random rule sets, and it
leaves the state as it was."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from arena.engine import reference
from arena.engine.config import PHASE_PLAYING, CoreConfig, standard_config
from tests.engine.backends import BACKEND_IDS, BACKENDS, C_BACKEND, random_config
from tests.engine.test_backend_contract import snapshot


def brute_force(state: Any, n: int) -> tuple[int, ...]:
    """The line where the seat to play always takes the legal card with the lowest
    n * own score - sum of scores, the lowest card among equals (no grouping)."""
    if state.phase != PHASE_PLAYING:
        return tuple(state.points((0,) * n, 0))
    seat, legal = state.to_play, state.legal_mask()
    best: tuple[int, ...] | None = None
    best_key = 0
    for c in range(64):
        if legal >> c & 1:
            state.push(c)
            scores = brute_force(state, n)
            state.pop()
            key = n * scores[seat] - sum(scores)
            if best is None or key < best_key:
                best, best_key = scores, key
    assert best is not None
    return best


def endgame(
    backend: ModuleType, cfg: CoreConfig, rng: random.Random, left: int
) -> tuple[Any, list[int]] | None:
    """A hand of `cfg` (no pass) played at random until at most `left` plays remain, and
    the plays made; None when the deal cannot start (no opening card)."""
    seed, dealer = rng.getrandbits(64), rng.randrange(cfg.players)
    hands, kitty = backend.deal(cfg, seed, dealer)
    try:
        state = backend.HandState(cfg, hands, kitty, dealer, 0, seed)
    except ValueError:
        return None
    plays: list[int] = []
    total = sum(bin(h).count("1") for h in hands)
    while state.phase == PHASE_PLAYING and total - len(plays) > left:
        legal = state.legal_mask()
        choice = rng.choice([c for c in range(64) if legal >> c & 1])
        state.play(choice)
        plays.append(choice)
    return state, plays


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_solve_equals_brute_force_on_standard_endgames(backend):
    cfg = standard_config(4)
    rng = random.Random(7)
    solved = 0
    for _ in range(40):
        made = endgame(backend, cfg, rng, rng.choice([4, 6, 9, 12]))
        assert made is not None
        state, _ = made
        before = snapshot(state, 4)
        assert state.solve(10**6) == brute_force(state, 4)
        assert snapshot(state, 4) == before  # the state is left as it was
        solved += 1
    assert solved == 40


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_solve_equals_brute_force_on_random_rule_sets(backend):
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        cfg = random_config(rng)
        made = endgame(backend, cfg, rng, min(9, 2 * cfg.players + 1))
        if made is None or made[0].phase != PHASE_PLAYING:
            continue
        state = made[0]
        assert state.solve(10**6) == brute_force(state, cfg.players), cfg
        checked += 1
    assert checked >= 30


@pytest.mark.skipif(C_BACKEND is None, reason="the C core is not built")
def test_the_c_core_and_the_reference_solve_alike():
    # Deeper than the brute force goes quickly (up to 16 plays left), and the limit both
    # cut short (None on both) and ample.
    assert C_BACKEND is not None
    rng = random.Random(5)
    checked = solved = 0
    for i in range(50):
        cfg = random_config(rng) if i % 2 else standard_config(4)
        seed = rng.getrandbits(64)
        made = endgame(C_BACKEND, cfg, random.Random(seed), rng.choice([8, 12, 16]))
        again = endgame(reference, cfg, random.Random(seed), 0 if made is None else 1)
        if made is None or made[0].phase != PHASE_PLAYING:
            continue
        state, plays = made
        ref = reference_at(cfg, seed, plays)
        assert again is not None  # the same deal starts on both
        limit = rng.choice([50, 5000])
        assert ref.solve(limit) == state.solve(limit), (cfg, plays, limit)
        checked += 1
        solved += ref.solve(limit) is not None
    assert checked >= 25
    assert 0 < solved < checked  # both outcomes were compared


def reference_at(cfg: CoreConfig, seed: int, plays: list[int]) -> Any:
    """The reference's hand of `endgame`'s deal with `plays` made."""
    rng = random.Random(seed)
    deal_seed, dealer = rng.getrandbits(64), rng.randrange(cfg.players)
    hands, kitty = reference.deal(cfg, deal_seed, dealer)
    state = reference.HandState(cfg, hands, kitty, dealer, 0, deal_seed)
    for c in plays:
        assert state.play(c) == 0
    return state


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_solve_gives_up_past_its_limit_and_refuses_a_passing_hand(backend):
    cfg = standard_config(4)
    made = endgame(backend, cfg, random.Random(3), 12)
    assert made is not None
    state, _ = made
    before = snapshot(state, 4)
    assert state.solve(1) is None  # three tricks need more than one decision
    assert snapshot(state, 4) == before
    assert state.solve(10**6) is not None
    hands, kitty = backend.deal(cfg, 9, 0)
    passing = backend.HandState(cfg, hands, kitty, 0, 1, 9)
    with pytest.raises(ValueError, match="passing"):
        passing.solve(100)
