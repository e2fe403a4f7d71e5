"""`arena bench engine`: the engine's speed through its three ways in, and against OpenSpiel.

1. The C batch entry: whole random hands (deal, pass, every trick, scoring) in one call,
   on the path `arena.engine.batch_path` names (the fast loop, or the hand state).
2. Python driving the public `Hand` API one decision at a time (what a match does).
3. The pure-Python reference's batch entry (the oracle's speed, for scale).

And for scale against a known engine: OpenSpiel's C++ Hearts (`pyspiel.evaluate_bots`, four
uniform random bots, one random hand per call), in CPU time beside the C batch's, when the
optional `bench` extra (open-spiel) is installed.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import time
from collections.abc import Callable
from types import ModuleType
from typing import Final

from arena.engine import Hand, PassDirection, Rules, reference
from arena.engine.backend import BACKEND_NAME, core
from arena.engine.cards import CARDS
from arena.engine.decisions import Action, DecisionKind


@dataclasses.dataclass(frozen=True)
class Figure:
    """One measured rate."""

    name: str
    hands: int
    seconds: float

    @property
    def per_second(self) -> float:
        """Hands per second."""
        return self.hands / self.seconds if self.seconds else 0.0


def _schedule(rules: Rules) -> tuple[int, ...]:
    """The batch's pass kinds: the schedule's, a dealer's call played as its default pass
    (`pass_count` to the left: the batch entry has no one to call it)."""
    left = PassDirection.LEFT.core_kind(rules.players)
    return tuple(
        left if d is PassDirection.DEALER_CALLS else d.core_kind(rules.players)
        for d in rules.pass_schedule
    )


def _timed_batches(
    run: Callable[[int], object],
    batch: int,
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> Figure:
    """Repeat `run(batch)` until `seconds` have passed on `clock` (wall time by default,
    `time.process_time` for CPU time); the rate over all of it."""
    done = 0
    start = clock()
    while True:
        run(batch)
        done += batch
        elapsed = clock() - start
        if elapsed >= seconds:
            return Figure("", done, elapsed)


def bench_c_batch(
    rules: Rules, seconds: float, seed: int = 1, clock: Callable[[], float] = time.perf_counter
) -> Figure:
    """Random full hands per second through the C core's batch entry (one call per batch),
    timed on `clock`; the figure's name says the batch path taken."""
    if BACKEND_NAME != "c":
        raise RuntimeError("the C core is not built (python setup.py build_ext --inplace)")
    cfg, schedule = rules.core_config(), _schedule(rules)
    path = core.batch_path(cfg)
    core.play_random_hands(cfg, seed, 10_000, schedule)  # warm up
    figure = _timed_batches(
        lambda n: core.play_random_hands(cfg, seed, n, schedule), 200_000, seconds, clock
    )
    cpu = ", CPU time" if clock is time.process_time else ""
    return dataclasses.replace(figure, name=f"C batch ({path} path{cpu}): random hands")


OPENSPIEL_INSTALL: Final = "pip install open-spiel  (from a checkout: pip install -e '.[bench]')"
"""How to get OpenSpiel for the comparison: the optional `bench` extra of pyproject.toml."""


class OpenSpielMissingError(RuntimeError):
    """OpenSpiel (`pyspiel`) is not installed, so the comparison cannot run."""

    def __init__(self) -> None:
        super().__init__(f"OpenSpiel is not installed (no module pyspiel): {OPENSPIEL_INSTALL}")


def load_openspiel() -> ModuleType:
    """The `pyspiel` module. Raises OpenSpielMissingError (saying how to install it) when
    it is not installed."""
    try:
        return importlib.import_module("pyspiel")
    except ModuleNotFoundError as error:
        if error.name != "pyspiel":
            raise
        raise OpenSpielMissingError() from None


def bench_openspiel(seconds: float, seed: int = 1) -> Figure:
    """Random hands per CPU second of OpenSpiel's C++ Hearts (its `hearts` game with the
    default parameters: one hand, passes, 2C lead, no points on the first trick, hearts
    broken, QS 13, the moon): `pyspiel.evaluate_bots` plays a whole hand per call, chance
    and four uniform random bots in C++. Raises OpenSpielMissingError when OpenSpiel is not
    installed."""
    pyspiel = load_openspiel()
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    counter = iter(range(seed, 1 << 62))
    evaluate, new_state = pyspiel.evaluate_bots, game.new_initial_state

    def run(batch: int) -> None:
        for _ in range(batch):
            evaluate(new_state(), bots, next(counter))

    run(200)  # warm up
    figure = _timed_batches(run, 2_000, seconds, time.process_time)
    return dataclasses.replace(
        figure, name="OpenSpiel C++ hearts (evaluate_bots, random bots, CPU time)"
    )


@dataclasses.dataclass(frozen=True)
class OpenSpielComparison:
    """The C batch and OpenSpiel's Hearts, both in CPU time, measured in turn."""

    c_batch: Figure
    openspiel: Figure

    @property
    def ratio(self) -> float:
        """How many times more hands per CPU second the C batch plays."""
        return self.c_batch.per_second / self.openspiel.per_second


def compare_openspiel(
    rules: Rules, seconds: float, rounds: int = 2, seed: int = 1
) -> OpenSpielComparison:
    """The C batch on `rules` against OpenSpiel's Hearts, alternated `rounds` times (so the
    machine's other load falls on both), each side's CPU time summed over its rounds.
    Raises OpenSpielMissingError, or RuntimeError when the C core is not built."""
    load_openspiel()
    c_figures, os_figures = [], []
    for _ in range(rounds):
        c_figures.append(bench_c_batch(rules, seconds, seed, clock=time.process_time))
        os_figures.append(bench_openspiel(seconds, seed))

    def total(figures: list[Figure]) -> Figure:
        return Figure(
            figures[0].name, sum(f.hands for f in figures), sum(f.seconds for f in figures)
        )

    return OpenSpielComparison(total(c_figures), total(os_figures))


def bench_reference_batch(rules: Rules, seconds: float, seed: int = 1) -> Figure:
    """Random full hands per second through the pure-Python reference's batch entry."""
    cfg, schedule = rules.core_config(), _schedule(rules)
    figure = _timed_batches(
        lambda n: reference.play_random_hands(cfg, seed, n, schedule), 200, seconds
    )
    return dataclasses.replace(figure, name="reference batch: random hands")


def _random_indices(mask: int, count: int, uniform: Callable[[], float]) -> tuple[int, ...]:
    """`count` distinct random card indices from `mask`."""
    chosen = []
    for _ in range(count):
        pick, skip = mask, int(uniform() * mask.bit_count())
        while skip:
            pick &= pick - 1
            skip -= 1
        low = pick & -pick
        chosen.append(low.bit_length() - 1)
        mask ^= low
    return tuple(chosen)


def _until_play(hand: Hand, uniform: Callable[[], float]) -> None:
    """Answer what the rules ask before the plays through the one loop (`Hand.pending`):
    random passes (as before), every other decision its default (the dealer's call, a
    pledge, an exposure, a refused QS...), so any preset reaches its play; the plays
    themselves then go through the fast path being measured."""
    while (decision := hand.pending()) is not None and decision.kind is not DecisionKind.PLAY:
        if decision.kind is DecisionKind.PASS:
            mask = decision.legal.mask
            value: object = tuple(CARDS[i] for i in _random_indices(mask, decision.size, uniform))
        else:
            value = decision.default
        hand.apply(Action(decision.kind, decision.seat, value))


def play_hand_from_python(rules: Rules, seed: int, rng: random.Random) -> tuple[int, ...]:
    """One random hand driven from Python a decision at a time, through the public API's
    fast path (`legal_mask` / `try_play_index`): Python picks every card."""
    hand = Hand.deal(
        rules, seed, dealer=seed % rules.players, pass_direction=rules.pass_direction(seed)
    )
    uniform = rng.random
    _until_play(hand, uniform)
    legal_mask, play = hand.legal_mask, hand.try_play_index
    while mask := legal_mask():
        skip = int(uniform() * mask.bit_count())  # a uniformly random legal card
        while skip:
            mask &= mask - 1
            skip -= 1
        play((mask & -mask).bit_length() - 1)
    return hand.points()


def play_hand_with_cards(rules: Rules, seed: int, rng: random.Random) -> tuple[int, ...]:
    """One random hand through the card-level API (`legal_plays`, `play`, `apply_pass`)."""
    hand = Hand.deal(
        rules, seed, dealer=seed % rules.players, pass_direction=rules.pass_direction(seed)
    )
    _until_play(hand, rng.random)
    while not hand.is_over:
        legal = hand.legal_plays()
        hand.play(legal.nth(int(rng.random() * len(legal))))
    return hand.points()


def _bench_driver(
    play_hand: Callable[[Rules, int, random.Random], tuple[int, ...]],
    rules: Rules,
    seconds: float,
    seed: int,
    name: str,
) -> Figure:
    """Hands per second of `play_hand` on fresh deals (hand i uses seed + i)."""
    rng = random.Random(seed)
    counter = iter(range(seed, 1 << 62))

    def run(batch: int) -> None:
        for _ in range(batch):
            play_hand(rules, next(counter), rng)

    return dataclasses.replace(_timed_batches(run, 200, seconds), name=name)


def bench_card_api(rules: Rules, seconds: float, seed: int = 1) -> Figure:
    """Hands per second through the card-level API (Card objects, validated plays)."""
    return _bench_driver(
        play_hand_with_cards, rules, seconds, seed, f"Python-driven ({BACKEND_NAME}): Card API"
    )


def bench_python_driven(rules: Rules, seconds: float, seed: int = 1) -> Figure:
    """Hands per second driven from Python one decision at a time (the engine in use)."""
    return _bench_driver(
        play_hand_from_python,
        rules,
        seconds,
        seed,
        f"Python-driven ({BACKEND_NAME}): one decision at a time, fast path",
    )
