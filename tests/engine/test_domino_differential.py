"""Domino Hearts: the C core (`arena.engine.variants._domino`) against the pure-Python reference
(`arena.engine.variants.domino_reference`), question by question, on random hands.

Why: the scenario tests (test_domino.py) pin the rules we thought of; this plays both
backends side by side on random deals at every table size, asking both every question at
every decision (undoing now and then), so any drift shows with the players, the seed and
the step. The quick run (1,200 hands) is part of every run; the full run (ARENA_DIFF_HANDS
per table size, 3,000 by default: 18,000 hands, a few minutes) runs with `-m slow`, in
chunks of HANDS_PER_CHUNK hands (one test each).
"""

from __future__ import annotations

import importlib
import os
import random
from types import ModuleType
from typing import Any

import pytest

from arena.engine.variants import domino_reference
from tests.engine.backends import chunk_id, seed_chunks

try:
    C_DOMINO: ModuleType | None = importlib.import_module("arena.engine.variants._domino")
except ImportError:
    C_DOMINO = None

pytestmark = pytest.mark.skipif(
    C_DOMINO is None,
    reason="the C backend arena.engine.variants._domino is not built "
    "(.venv/bin/python setup.py build_ext --inplace)",
)

VALUES = tuple(1 if card >= 39 else 0 for card in range(52))
QUESTIONS = (
    "phase",
    "to_play",
    "leader",
    "trick_number",
    "broken",
    "stock_size",
    "active",
    "kept",
    "kept_by",
    "players",
)
CALLS = ("legal_mask", "current_trick", "history", "draws", "stock")


def answer(state: Any, name: str, *args: Any) -> Any:
    """What the state answers, an exception reduced to its type's name."""
    try:
        value = getattr(state, name)
        return value(*args) if callable(value) else value
    except Exception as error:
        return f"raised {type(error).__name__}"


def compare(players: int, seed: int, moon: int) -> None:
    assert C_DOMINO is not None
    dealer = seed % players
    dealt = C_DOMINO.deal(players, seed, dealer)
    assert dealt == domino_reference.deal(players, seed, dealer), (players, seed)
    hands, stock = dealt
    c = C_DOMINO.DominoState(players, dealer, hands, stock, VALUES, moon, 13)
    r = domino_reference.DominoState(players, dealer, hands, stock, VALUES, moon, 13)
    rng = random.Random(seed * 8 + players)
    step = 0
    while True:
        where = (players, seed, step)
        for name in QUESTIONS:
            assert answer(c, name) == answer(r, name), (name, *where)
        for name in CALLS:
            assert answer(c, name) == answer(r, name), (name, *where)
        for seat in (*range(players), -1, players):
            for name in ("hand", "taken", "tricks_won", "drawn"):
                assert answer(c, name, seat) == answer(r, name, seat), (name, seat, *where)
        for card in (rng.randrange(52), -1, 52, 2**70):
            assert answer(c, "check_play", card) == answer(r, "check_play", card), where
        assert answer(c, "points") == answer(r, "points"), where
        if c.phase == 2:
            assert answer(c, "pop") == answer(r, "pop")
            break
        legal = [card for card in range(52) if c.legal_mask() >> card & 1]
        wrong = rng.randrange(52)
        assert c.play(wrong if wrong not in legal else legal[0]) == r.play(
            wrong if wrong not in legal else legal[0]
        ), where
        if c.phase == 2:
            continue
        legal = [card for card in range(52) if c.legal_mask() >> card & 1]
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


@pytest.mark.parametrize("players", range(2, 8))
def test_c_and_reference_agree_quick(players: int) -> None:
    for seed in range(200):
        compare(players, seed, moon=seed % 2)


def test_both_refuse_the_same_bad_deals() -> None:
    assert C_DOMINO is not None
    hands, stock = domino_reference.deal(4, 1, 0)
    bad = [
        (1, 0, hands[:1], stock),
        (4, 4, hands, stock),
        (4, 0, (0, *hands[1:]), stock),
        (4, 0, hands, stock[:-1]),
        (4, 0, hands, (*stock, stock[0])),
        (4, 0, hands, (*stock[:-1], 99)),
    ]
    for players, dealer, h, s in bad:
        for module in (C_DOMINO, domino_reference):
            with pytest.raises(ValueError, match=r"hand per player|not a Domino deal"):
                module.DominoState(players, dealer, h, s, VALUES, 1, 13)
    with pytest.raises(ValueError, match=r"2\.\.7 players"):
        C_DOMINO.deal(8, 1, 0)
    with pytest.raises(ValueError, match=r"2\.\.7 players"):
        domino_reference.deal(8, 1, 0)


FULL_HANDS = int(os.environ.get("ARENA_DIFF_HANDS", "3000"))
FULL_FIRST_SEED = 10_000
HANDS_PER_CHUNK = 750
"""The full run's hands per test: 3,000 hands of three players took 88 s in one test on a
loaded CI machine, and the longest test is the one pytest-xdist's two cores wait for."""
FULL_CHUNKS = [
    (players, seeds)
    for players in range(2, 8)
    for seeds in seed_chunks(FULL_FIRST_SEED, FULL_HANDS, HANDS_PER_CHUNK)
]
FULL_RUN = [
    pytest.param(players, seeds, id=f"{players}-{chunk_id(seeds)}")
    for players, seeds in FULL_CHUNKS
]


def test_the_full_runs_chunks_hold_each_of_its_hands_once() -> None:
    """The chunks together are the full run's hands: seeds 10,000 on, per table size."""
    for players in range(2, 8):
        chunks = [seeds for table, seeds in FULL_CHUNKS if table == players]
        seeds = [seed for chunk in chunks for seed in chunk]
        assert seeds == list(range(FULL_FIRST_SEED, FULL_FIRST_SEED + FULL_HANDS))
    assert len(FULL_RUN) == 6 * -(-FULL_HANDS // HANDS_PER_CHUNK)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seeds"), FULL_RUN)
def test_c_and_reference_agree_full(
    players: int, seeds: range, request: pytest.FixtureRequest
) -> None:
    markexpr = str(request.config.getoption("-m") or "")
    if "slow" not in markexpr and "ARENA_DIFF_HANDS" not in os.environ:
        pytest.skip("the full differential run: select it with -m slow (size: ARENA_DIFF_HANDS)")
    for seed in seeds:
        compare(players, seed, moon=(seed - FULL_FIRST_SEED) % 2)


def _position(module: ModuleType, state: Any, moon: int) -> Any:
    """`module.position` of where `state` stands: what a search bot rebuilds mid-hand."""
    n = state.players
    return module.position(
        n,
        0,
        tuple(state.hand(s) for s in range(n)),
        state.stock(),
        VALUES,
        moon,
        13,
        state.leader,
        state.broken,
        state.current_trick(),
    )


@pytest.mark.parametrize("players", range(2, 8))
def test_a_position_rebuilt_mid_hand_plays_on_as_the_hand_does(players: int) -> None:
    assert C_DOMINO is not None
    for seed in range(60):
        rng = random.Random(seed)
        hands, stock = domino_reference.deal(players, seed, 0)
        whole = C_DOMINO.DominoState(players, 0, hands, stock, VALUES, 0, 13)
        for _ in range(rng.randrange(40)):
            if whole.phase == 2:
                break
            legal = [c for c in range(52) if whole.legal_mask() >> c & 1]
            whole.play(rng.choice(legal))
        if whole.phase == 2:
            continue
        before = [whole.taken(s) for s in range(players)]
        draws = len(whole.draws())
        rebuilt = [_position(C_DOMINO, whole, 0), _position(domino_reference, whole, 0)]
        while whole.phase != 2:
            for state in rebuilt:
                where = (players, seed, whole.trick_number)
                assert state.to_play == whole.to_play, where
                assert state.legal_mask() == whole.legal_mask(), where
                assert state.current_trick() == whole.current_trick(), where
                assert state.stock_size == whole.stock_size, where
                assert [d[1:] for d in state.draws()] == [d[1:] for d in whole.draws()[draws:]]
            card = rng.choice([c for c in range(52) if whole.legal_mask() >> c & 1])
            for state in (whole, *rebuilt):
                assert state.play(card) == 0
        for state in rebuilt:
            assert state.phase == 2 and state.kept == whole.kept
            assert state.kept_by == whole.kept_by
            for s in range(players):
                assert before[s] | state.taken(s) == whole.taken(s)


def test_impossible_positions_are_refused_by_both() -> None:
    assert C_DOMINO is not None
    hands, stock = domino_reference.deal(3, 1, 0)
    card = next(c for c in range(52) if hands[1] >> c & 1)
    other = next(c for c in range(52) if hands[0] >> c & 1)
    rest = (hands[0] & ~(1 << other), hands[1] & ~(1 << card), hands[2])
    bad = [
        # A trick not opened by its leader.
        {"hands": hands, "stock": stock, "leader": 1, "trick": ((2, card),)},
        # A card twice.
        {"hands": hands, "stock": (*stock, stock[0]), "leader": 1, "trick": ()},
        # Seat 0 played before seat 2, who holds cards and comes first on the leader's left.
        {"hands": rest, "stock": stock, "leader": 1, "trick": ((1, card), (0, other))},
        # One seat left with cards: no trick to play.
        {"hands": (0, 0, hands[2]), "stock": stock, "leader": 2, "trick": ()},
    ]
    for given in bad:
        for module in (C_DOMINO, domino_reference):
            with pytest.raises(ValueError, match="not a Domino position"):
                module.position(3, 0, values=VALUES, moon=1, moon_points=13, broken=False, **given)


ODD_VALUES: list[Any] = [None, "2C", 1.5, -1, 52, 2**70, -(2**70), [], (1,), object()]


def test_the_binding_answers_odd_arguments_with_errors_not_crashes() -> None:
    """Whatever a caller passes (bots' moves, search code), the C binding answers with an
    error code or raises TypeError/ValueError/IndexError/OverflowError, and a refused call
    leaves the state as it was."""
    assert C_DOMINO is not None
    hands, stock = C_DOMINO.deal(3, 5, 0)
    state = C_DOMINO.DominoState(3, 0, hands, stock, VALUES, 1, 13)
    snapshot = (state.to_play, state.legal_mask(), state.stock_size, state.current_trick())
    errors = (TypeError, ValueError, IndexError, OverflowError)
    for odd in ODD_VALUES:
        for call in (state.play, state.check_play, state.push):
            try:
                answer = call(odd)
            except errors:
                continue
            assert answer in (None, 3, 4, 7, 9) and call is not state.push
        for call in (state.hand, state.taken, state.tricks_won, state.drawn):
            with pytest.raises(errors):
                call(odd)
        for field in range(7):
            if field == 6 and isinstance(odd, int) and -(2**63) <= odd < 2**63:
                continue  # any int is a moon's worth
            args: list[Any] = [3, 0, hands, stock, VALUES, 1, 13]
            args[field] = odd
            with pytest.raises(errors):
                C_DOMINO.DominoState(*args)
    assert (state.to_play, state.legal_mask(), state.stock_size, state.current_trick()) == (
        snapshot
    )
    with pytest.raises(IndexError):
        C_DOMINO.DominoState(3, 0, hands, stock, VALUES, 1, 13).pop()
