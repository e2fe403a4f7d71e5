"""The baseline control (Davidson, Archibald and Bowling, AAMAS 2013): each recorded deal
played again by copies of one fixed house bot in every seat, and each seat's score
adjusted by what the reference scored in that seat on that deal.

A seat's *baseline term* is the reference's points there minus the mean over the seats
(`baseline_terms`); its adjusted points are its points minus that term (`adjust`). The
reference plays the hand from the same deal, dealer and pass (000 'The Deal', 'The
Pass': ../shared/rules/, INDEX.md), every decision its own, so the term is a function of
the deal alone.

Unbiased: deals are dealt independently of who sits where, so a deal and its rotation by
any number of seats are equally likely; the reference is the same bot in every seat, so
rotating the deal rotates its scores (`tests/ratings/test_baseline.py` checks this
equivariance on generated deals), and summed over a deal's rotations each seat's term is
the mean term over the seats, zero. Each term therefore has expectation exactly zero at
every seat, for any player, and adjusting moves no one's expected score, only its spread.

Unlike `arena.ratings.luck` (a weighted control variate: beta times a mean over mixed
playouts), the baseline subtracts the reference's whole score (beta = 1) from one
playout: cheaper, but it removes variance only where the reference's score correlates
with the players' above one half (Var(X - Y) < Var(X) needs Cov(X, Y) > Var(Y) / 2).
`arena bench baseline` measures which it is, per core-second (docs/ratings.md).
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Final

from arena.bots import HOUSE_BOTS
from arena.engine import Hand, PassDirection, Rules
from arena.engine.decisions import Action, DecisionKind

from .luck import FormatFigures, PlayedGame, measure_format

REFERENCE: Final = "heuristic"
"""The default reference: the deterministic heuristic house bot (cheap, in-process)."""

DealKey = tuple[int, int, str]
"""A recorded deal: the hand's seed, its dealer and its pass direction."""


def play_reference(hand: Hand, reference: str = REFERENCE, seed: int = 0) -> tuple[int, ...]:
    """Play `hand` out with a copy of house bot `reference` (seeded `seed`, the same in
    every seat) deciding the passes and plays of every seat; each seat's points.

    Every other decision (a dealer's call, a reveal, a bid, a pledge, the shooter's
    choice) is its default, the same in every seat. Raises KeyError for an unknown bot.
    """
    bots = [HOUSE_BOTS[reference](seed) for _ in range(hand.players)]
    while (decision := hand.pending()) is not None:
        kind, seat = decision.kind, decision.seat
        if kind is DecisionKind.PASS:
            hand.apply_pass(seat, bots[seat].pass_cards(hand.view(seat), decision.size))
        elif kind is DecisionKind.PLAY or kind is DecisionKind.PENNY_PLAY:
            hand.play(bots[seat].play_card(hand.view(seat)), seat=seat)
        else:
            hand.apply(Action(kind, seat, decision.default))
    return tuple(hand.points())


def reference_points(
    rules: Rules,
    hand_seed: int,
    dealer: int,
    pass_direction: PassDirection | str,
    reference: str = REFERENCE,
) -> tuple[int, ...]:
    """The reference's points in each seat on the recorded deal (seed, dealer, pass)."""
    hand = Hand.deal(rules, hand_seed, dealer=dealer, pass_direction=pass_direction)
    return play_reference(hand, reference)


def baseline_terms(reference: Sequence[float]) -> tuple[float, ...]:
    """Each seat's term: the reference's points there minus their mean over the seats.

    >>> baseline_terms((0, 26, 26, 26))
    (-19.5, 6.5, 6.5, 6.5)
    """
    mean = statistics.fmean(reference)
    return tuple(r - mean for r in reference)


def adjust(points: Sequence[float], reference: Sequence[float]) -> tuple[float, ...]:
    """A hand's points with each seat's baseline term taken off.

    >>> adjust((0, 26, 26, 26), (0, 26, 26, 26))
    (19.5, 19.5, 19.5, 19.5)
    """
    return tuple(p - t for p, t in zip(points, baseline_terms(reference), strict=True))


@dataclasses.dataclass(frozen=True)
class References:
    """The reference's points per distinct deal, and the CPU seconds they took."""

    points: dict[DealKey, tuple[int, ...]]
    seconds: float

    @property
    def per_deal(self) -> float:
        """CPU seconds per reference hand."""
        return self.seconds / len(self.points) if self.points else 0.0


def play_references(
    rules: Rules, games: Sequence[PlayedGame], reference: str = REFERENCE
) -> References:
    """The reference on every distinct deal of `games` (the rotations of a duplicate set
    share theirs: one reference hand each), timed in CPU seconds."""
    points: dict[DealKey, tuple[int, ...]] = {}
    start = time.process_time()
    for game in games:
        for seed, dealer, direction, _ in game.hands:
            key = (seed, dealer, direction)
            if key not in points:
                points[key] = reference_points(rules, seed, dealer, direction, reference)
    return References(points, time.process_time() - start)


def adjusted_games(
    games: Sequence[PlayedGame], references: Mapping[DealKey, Sequence[float]]
) -> list[PlayedGame]:
    """The games with every hand's points adjusted by its deal's reference.

    Raises KeyError for a deal without a reference."""
    return [
        dataclasses.replace(
            game,
            hands=tuple(
                (seed, dealer, direction, adjust(points, references[(seed, dealer, direction)]))
                for seed, dealer, direction, points in game.hands
            ),
        )
        for game in games
    ]


@dataclasses.dataclass(frozen=True)
class BaselineFigures:
    """Raw and baseline-adjusted per-hand variances, as single games and as duplicate
    sets (`luck.measure_format` on each), with the reference's cost."""

    raw: FormatFigures
    adjusted: FormatFigures
    deals: int
    hands: int
    reference_seconds: float


def measure_baseline(
    rules: Rules, games: Sequence[PlayedGame], reference: str = REFERENCE
) -> BaselineFigures:
    """The baseline control measured on recorded games. Raises ValueError with no hands."""
    references = play_references(rules, games, reference)
    return BaselineFigures(
        raw=measure_format(games),
        adjusted=measure_format(adjusted_games(games, references.points)),
        deals=len(references.points),
        hands=sum(len(g.hands) for g in games),
        reference_seconds=references.seconds,
    )
