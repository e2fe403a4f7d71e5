"""The penny C core (`arena.engine.variants._penny`) against its reference, move by move.

Why: the scenario tests (test_penny.py) pin the sentences of 003 'FOUR-PENNY HEARTS'; this
runs both implementations side by side on random positions (three to seven players, the
simple and the advanced version, random hands, taken cards, leaders, lead bans and breaking
cards) and random play, asking both every question at every move, legal and illegal
(penny, card) pairs alike, so any drift shows with the seed and the move. Then whole hands
of the six presets through `Hand` with each backend in its own process.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from arena.engine.variants import penny_reference

try:
    from arena.engine.variants import _penny  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - the C extension is not built
    _penny = None

pytestmark = pytest.mark.skipif(
    _penny is None,
    reason="the C backend arena.engine.variants._penny is not built "
    "(.venv/bin/python setup.py build_ext --inplace)",
)

QUICK_POSITIONS = 3_000
FULL_POSITIONS = int(os.environ.get("ARENA_DIFF_HANDS", "30000"))
POSITIONS_PER_CHUNK = 10_000
CHUNKS = max(1, -(-FULL_POSITIONS // POSITIONS_PER_CHUNK))


def outcome(state: Any, name: str, args: tuple[Any, ...] | None) -> Any:
    """`state.name` (a property when `args` is None) or `state.name(*args)`, an exception
    reduced to its type's name."""
    try:
        value = getattr(state, name)
        return value() if args == () else value if args is None else value(*args)
    except Exception as error:
        return f"raised {type(error).__name__}"


def random_position(rng: random.Random) -> tuple[Any, ...]:
    """Constructor arguments: n players, rounds, hands of rounds * n cards each."""
    players = rng.randint(3, 7)
    rounds = rng.randint(1, 52 // (players * players))
    deck = list(range(52))
    rng.shuffle(deck)
    size = rounds * players
    hands = tuple(sum(1 << c for c in deck[s * size : (s + 1) * size]) for s in range(players))
    rest = deck[players * size :]
    taken = [0] * players
    for card in rest:
        if rng.random() < 0.5:
            taken[rng.randrange(players)] |= 1 << card
    # Lead bans and breaking cards: none, the hearts, the hearts and QS, or a random set.
    hearts = 0x1FFF << 39
    choices = [0, hearts, hearts | 1 << 36, rng.getrandbits(52)]
    return (
        players,
        rng.randint(0, 1),
        rounds,
        hands,
        tuple(taken),
        tuple(rng.randint(0, 3) for _ in range(players)),
        rng.randrange(players),
        rng.randint(0, 1),
        rng.choice(choices),
        rng.choice(choices),
    )


QUESTIONS: tuple[tuple[str, tuple[Any, ...] | None], ...] = (
    ("to_play", None),
    ("leader", None),
    ("multi_round", None),
    ("rounds", None),
    ("played", None),
    ("over", None),
    ("broken", None),
    ("legal_masks", ()),
    ("pennies", ()),
    ("history", ()),
)


def compare(c_state: Any, ref_state: Any, players: int, where: str) -> None:
    for name, args in QUESTIONS:
        assert outcome(c_state, name, args) == outcome(ref_state, name, args), (where, name)
    for seat in range(-1, players + 1):
        for name in ("hand", "taken", "tricks_won"):
            got = outcome(c_state, name, (seat,))
            assert got == outcome(ref_state, name, (seat,)), (where, name, seat)


def play_out(seed: int) -> None:
    rng = random.Random(seed)
    args = random_position(rng)
    players = args[0]
    assert _penny is not None
    c_state = _penny.PennyState(*args)
    ref_state = penny_reference.PennyState(*args)
    step = 0
    while True:
        where = f"seed {seed} move {step}"
        compare(c_state, ref_state, players, where)
        if ref_state.over:
            break
        # Illegal and legal questions alike: any card, any penny (and out-of-range ones).
        for _ in range(6):
            penny, card = rng.randint(-1, players), rng.randint(-1, 52)
            assert c_state.check(penny, card) == ref_state.check(penny, card), (where, penny, card)
        moves = [
            (p, c)
            for p, mask in enumerate(ref_state.legal_masks())
            for c in range(52)
            if mask >> c & 1
        ]
        assert moves, where
        if rng.random() < 0.2:
            # An illegal play changes nothing in either.
            penny, card = rng.randint(-1, players), rng.randint(-1, 52)
            assert c_state.play(penny, card) == ref_state.play(penny, card), where
            continue
        if rng.random() < 0.05:
            # A copy plays on alone.
            copied = c_state.copy()
            assert copied.play(*moves[0]) == 0
            compare(c_state, ref_state, players, where + " after a copy played")
        penny, card = rng.choice(moves)
        assert c_state.play(penny, card) == 0 == ref_state.play(penny, card), where
        step += 1


def test_penny_core_agrees_with_the_reference_on_random_positions() -> None:
    for seed in range(QUICK_POSITIONS):
        play_out(seed)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_penny_core_agrees_on_many_random_positions(request: Any, chunk: int) -> None:
    """The full run (CI): ARENA_DIFF_HANDS positions (30,000 by default) after the quick
    run's, selected with -m slow or by setting ARENA_DIFF_HANDS."""
    markexpr = request.config.getoption("markexpr") or ""
    if "slow" not in markexpr and "ARENA_DIFF_HANDS" not in os.environ:
        pytest.skip("the full differential run: select it with -m slow (size: ARENA_DIFF_HANDS)")
    first = QUICK_POSITIONS + chunk * POSITIONS_PER_CHUNK
    for seed in range(
        first, first + min(POSITIONS_PER_CHUNK, FULL_POSITIONS - chunk * POSITIONS_PER_CHUNK)
    ):
        play_out(seed)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((2, 0, 1, (0,) * 2, (0,) * 2, (0,) * 2, 0, 0, 0, 0), "players must be 3..7"),
        # Four rounds of four would need 64 cards.
        ((4, 0, 4, (0,) * 4, (0,) * 4, (0,) * 4, 0, 0, 0, 0), "rounds.*out of range"),
        ((3, 0, 1, (7, 7 << 3, 7 << 6), (0,) * 3, (0,) * 3, 3, 0, 0, 0), "leader.*not a seat"),
        ((3, 0, 1, (7, 7, 7 << 6), (0,) * 3, (0,) * 3, 0, 0, 0, 0), "overlaps|share a card"),
        ((3, 0, 1, (7, 7 << 3, 3 << 6), (0,) * 3, (0,) * 3, 0, 0, 0, 0), "must hold"),
        ((3, 0, 1, (7, 7 << 3, 7 << 6), (1, 0, 0), (0,) * 3, 0, 0, 0, 0), "taken"),
        ((3, 0, 1, (7, 7 << 3, 7 << 6), (0,) * 3, (0,) * 3, 0, 0, 1 << 52, 0), "lead_ban"),
    ],
)
def test_both_refuse_the_same_bad_positions(args: tuple[Any, ...], message: str) -> None:
    assert _penny is not None
    with pytest.raises(ValueError, match=message):
        _penny.PennyState(*args)
    with pytest.raises(ValueError, match=message):
        penny_reference.PennyState(*args)


SCRIPT = """
import json, random, sys
from arena.engine import Hand, BACKEND_NAME
from arena.engine.presets import PENNY_PRESETS
out = {"backend": BACKEND_NAME}
for name, build in PENNY_PRESETS.items():
    rules = build()
    log = []
    for seed in range(int(sys.argv[1])):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed, dealer=seed % rules.players,
                         pass_direction=rules.pass_direction(seed))
        for s in hand.passes_pending:
            hand.apply_pass(s, rng.sample(sorted(hand.hand_of(s)), rules.pass_count))
        while not hand.is_over:
            moves = hand.legal_moves()
            penny, card = moves[rng.randrange(len(moves))]
            log.append((hand.to_play, penny, str(card)))
            hand.play(card, penny=None if penny < 0 else penny)
        log.append(hand.points())
    out[name] = log
print(json.dumps(out))
"""


def hands_by(backend: str, hands: int) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("ARENA_PUREPYTHON", None)
    env.pop("ARENA_REQUIRE_C", None)
    env["ARENA_PUREPYTHON" if backend == "reference" else "ARENA_REQUIRE_C"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, Any] = json.loads(result.stdout)
    assert data.pop("backend") == backend
    return data


def test_whole_penny_hands_play_the_same_on_both_backends() -> None:
    """Every preset, 300 hands each (1,800 in all): the same moves offered and taken, the
    same scores, with `Hand` on the C core and on the reference."""
    c_hands, ref_hands = hands_by("c", 300), hands_by("reference", 300)
    assert c_hands.keys() == ref_hands.keys()
    for name in c_hands:
        assert c_hands[name] == ref_hands[name], name
