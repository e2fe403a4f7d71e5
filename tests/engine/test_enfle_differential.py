"""Enfle: the C core (`arena.engine.variants._enfle`) against the pure-Python reference
(`arena.engine.variants.enfle_reference`), question by question, on random hands.

Why: the scenario tests (test_enfle.py) pin the rules we thought of; this plays both
backends side by side on random deals of the piquet pack at two, three and four players,
asking both every question at every decision (undoing now and then), so any drift shows
with the players, the seed and the step. The quick run (300 hands) is part of every run;
the full run (ARENA_DIFF_HANDS per table size, 2,000 by default) runs with `-m slow`, in
chunks of HANDS_PER_CHUNK hands (one test each).
"""

from __future__ import annotations

import importlib
import os
import random
from types import ModuleType
from typing import Any

import pytest

from arena.engine import preset
from arena.engine.variants import enfle_reference
from tests.engine.backends import chunk_id, seed_chunks

try:
    C_ENFLE: ModuleType | None = importlib.import_module("arena.engine.variants._enfle")
except ImportError:
    C_ENFLE = None

pytestmark = pytest.mark.skipif(
    C_ENFLE is None,
    reason="the C backend arena.engine.variants._enfle is not built "
    "(.venv/bin/python setup.py build_ext --inplace)",
)

QUESTIONS = ("phase", "to_play", "leader", "trick_number", "broken", "winner", "players")
CALLS = ("legal_mask", "current_trick", "history", "pickups", "points")


def answer(state: Any, name: str, *args: Any) -> Any:
    """What the state answers, an exception reduced to its type's name."""
    try:
        value = getattr(state, name)
        return value(*args) if callable(value) else value
    except Exception as error:
        return f"raised {type(error).__name__}"


def compare(players: int, seed: int) -> None:
    assert C_ENFLE is not None
    dealer = seed % players
    pack = preset("enfle", players).deck.mask
    dealt = C_ENFLE.deal(players, seed, dealer, pack)
    assert dealt == enfle_reference.deal(players, seed, dealer, pack), (players, seed)
    c = C_ENFLE.EnfleState(players, dealer, dealt)
    r = enfle_reference.EnfleState(players, dealer, dealt)
    rng = random.Random(seed * 8 + players)
    step = 0
    while True:
        where = (players, seed, step)
        for name in QUESTIONS:
            assert answer(c, name) == answer(r, name), (name, *where)
        for name in CALLS:
            assert answer(c, name) == answer(r, name), (name, *where)
        for seat in (*range(players), -1, players):
            for name in ("hand", "taken", "tricks_won"):
                assert answer(c, name, seat) == answer(r, name, seat), (name, seat, *where)
        for card in (rng.randrange(52), -1, 52, 2**70):
            assert answer(c, "check_play", card) == answer(r, "check_play", card), where
        if c.phase == 2:
            assert answer(c, "play", 0) == answer(r, "play", 0)
            break
        legal = [card for card in range(52) if c.legal_mask() >> card & 1]
        wrong = rng.randrange(52)
        if wrong not in legal:
            assert c.play(wrong) == r.play(wrong) != 0, where
        card = rng.choice(legal)
        if rng.random() < 0.5:
            assert c.play(card) == r.play(card) == 0, where
        else:
            c.push(card)
            r.push(card)
        if rng.random() < 0.08:
            c.pop()
            r.pop()
        step += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c_and_reference_agree_quick(players: int) -> None:
    for seed in range(100):
        compare(players, seed)


def test_both_refuse_the_same_bad_deals() -> None:
    assert C_ENFLE is not None
    pack = preset("enfle").deck.mask
    hands = enfle_reference.deal(4, 1, 0, pack)
    bad = [
        (1, 0, hands[:1]),
        (5, 0, (*hands, 1)),
        (4, 4, hands),
        (4, 0, (0, *hands[1:])),
        (4, 0, hands[:3]),
        (4, 0, (hands[0], hands[0], *hands[2:])),
        (4, 0, (1 << 52, *hands[1:])),
    ]
    for players, dealer, h in bad:
        for module in (C_ENFLE, enfle_reference):
            with pytest.raises(ValueError, match=r"not an Enfle deal"):
                module.EnfleState(players, dealer, h)
    for module in (C_ENFLE, enfle_reference):
        with pytest.raises(ValueError, match=r"2\.\.4 players"):
            module.deal(5, 1, 0, pack)
        with pytest.raises(ValueError, match=r"deals evenly"):
            module.deal(3, 1, 0, pack)


def test_both_cap_a_hand_that_cycles_alike() -> None:
    """Four cards of four suits between two seats: every lead is taken up, for ever."""
    assert C_ENFLE is not None
    hands = (1 << 5 | 1 << 31, 1 << 18 | 1 << 44)  # 7C 7S / 7D 7H
    c = C_ENFLE.EnfleState(2, 1, hands)
    r = enfle_reference.EnfleState(2, 1, hands)
    while c.phase != 2:
        card = (c.legal_mask() & -c.legal_mask()).bit_length() - 1
        assert c.play(card) == r.play(card) == 0
    assert r.phase == 2 and c.trick_number == r.trick_number == C_ENFLE.MAX_TRICKS
    assert C_ENFLE.MAX_TRICKS == enfle_reference.MAX_TRICKS
    assert c.winner == r.winner == -1 and c.points() == r.points() == (2, 2)
    assert c.pickups() == r.pickups() and len(c.pickups()) == C_ENFLE.MAX_TRICKS


FULL_HANDS = int(os.environ.get("ARENA_DIFF_HANDS", "2000"))
FULL_FIRST_SEED = 10_000
HANDS_PER_CHUNK = 250
"""The full run's hands per test: 2,000 hands of two players took 285 s in one test on a
loaded CI machine, against the 300 s timeout; a chunk of 250 takes a few seconds."""
FULL_CHUNKS = [
    (players, seeds)
    for players in (2, 3, 4)
    for seeds in seed_chunks(FULL_FIRST_SEED, FULL_HANDS, HANDS_PER_CHUNK)
]
FULL_RUN = [
    pytest.param(players, seeds, id=f"{players}-{chunk_id(seeds)}")
    for players, seeds in FULL_CHUNKS
]


def test_the_full_runs_chunks_hold_each_of_its_hands_once() -> None:
    """The chunks together are the full run's hands: seeds 10,000 on, per table size."""
    for players in (2, 3, 4):
        chunks = [seeds for table, seeds in FULL_CHUNKS if table == players]
        seeds = [seed for chunk in chunks for seed in chunk]
        assert seeds == list(range(FULL_FIRST_SEED, FULL_FIRST_SEED + FULL_HANDS))
    assert len(FULL_RUN) == 3 * -(-FULL_HANDS // HANDS_PER_CHUNK)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seeds"), FULL_RUN)
def test_c_and_reference_agree_full(
    players: int, seeds: range, request: pytest.FixtureRequest
) -> None:
    markexpr = str(request.config.getoption("-m") or "")
    if "slow" not in markexpr and "ARENA_DIFF_HANDS" not in os.environ:
        pytest.skip("the full differential run: select it with -m slow (size: ARENA_DIFF_HANDS)")
    for seed in seeds:
        compare(players, seed)


def _position(module: ModuleType, state: Any) -> Any:
    """`module.position` of where `state` stands: what a search bot rebuilds mid-hand."""
    n = state.players
    return module.position(
        n,
        tuple(state.hand(s) for s in range(n)),
        tuple(state.taken(s) for s in range(n)),
        state.leader,
        tuple(card for _, card in state.current_trick()),
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_position_rebuilt_mid_hand_plays_on_as_the_hand_does(players: int) -> None:
    assert C_ENFLE is not None
    pack = preset("enfle", players).deck.mask
    for seed in range(40):
        rng = random.Random(seed)
        whole = C_ENFLE.EnfleState(players, 0, C_ENFLE.deal(players, seed, 0, pack))
        for _ in range(rng.randrange(30)):
            if whole.phase == 2:
                break
            whole.play(rng.choice([c for c in range(52) if whole.legal_mask() >> c & 1]))
        if whole.phase == 2:
            continue
        done = whole.trick_number
        rebuilt = [_position(C_ENFLE, whole), _position(enfle_reference, whole)]
        while whole.phase != 2:
            for state in rebuilt:
                where = (players, seed, whole.trick_number)
                assert state.to_play == whole.to_play, where
                assert state.legal_mask() == whole.legal_mask(), where
                assert state.current_trick() == whole.current_trick(), where
                assert state.history() == whole.history()[done:], where
                assert state.pickups() == tuple(
                    (t - done, s, m) for t, s, m in whole.pickups() if t >= done
                ), where
                for s in range(players):
                    assert state.hand(s) == whole.hand(s) and state.taken(s) == whole.taken(s)
            card = rng.choice([c for c in range(52) if whole.legal_mask() >> c & 1])
            for state in (whole, *rebuilt):
                assert state.play(card) == 0
        if whole.winner < 0:
            continue  # the whole hand hit the cap; the rebuilt ones count from `done`
        for state in rebuilt:
            assert state.phase == 2 and state.points() == whole.points()
            assert state.winner == whole.winner


def test_impossible_positions_are_refused_by_both() -> None:
    assert C_ENFLE is not None
    hands = (1 << 5 | 1 << 6, 1 << 18 | 1 << 7)  # 7C 8C / 7D 9C
    bad = [
        (2, (hands[0], 0), (0, 0), 0, ()),  # a seat without cards
        (2, hands, (1 << 5, 0), 0, ()),  # a card held and won
        (2, hands, (0, 0), 0, (5,)),  # a card held and played
        (2, hands, (0, 0), 2, ()),  # a leader not at the table
        (2, hands, (0, 0), 0, (8, 9)),  # a trick as long as the table
        (2, (1 << 5, 1 << 18), (0, 0), 0, (6,)),  # the seat to play is void in clubs
        (5, (*hands, 1, 2, 4), (0,) * 5, 0, ()),
        (2, hands, (0, 0), 0, (60,)),
    ]
    for args in bad:
        for module in (C_ENFLE, enfle_reference):
            with pytest.raises(ValueError, match="not an Enfle position"):
                module.position(*args)
    for module in (C_ENFLE, enfle_reference):
        state = module.position(2, hands, (0, 0), 1, (8,))  # 9C led by seat 1
        assert state.to_play == 0 and state.legal_mask() == hands[0]
