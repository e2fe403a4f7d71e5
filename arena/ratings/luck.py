"""Luck measured and removed: a house bot's evaluation of each deal as a control variate,
and how much variance a season's format (single games or duplicate sets) removed.

In Hearts the only chance event is the deal: once the cards are dealt, every later event
is some player's decision. So the luck of a hand is what the deal handed each seat, and
house bots can estimate it: they play the same deal out `PLAYOUTS` times
(`evaluate_deal`), and seat s's *luck term* is `BETA` times its mean points there minus
the mean over the seats. A player's luck-adjusted points for the hand are its points
minus its seat's luck term (`adjusted_points`).

Unbiased by construction: deals are drawn independently of who sits where, and the
evaluation is the same bots at every seat, so every seat's expected evaluation is the
same and each luck term has expectation exactly 0, for any player. Subtracting it cannot
move anyone's expected score, only its spread (what `LuckFigures` measures on recorded
games: `tests/ratings/test_luck.py` checks the means agree within their standard error).

Decision-level terms (AIVAT's correction for a player's own choices) are left out on
purpose: they need the contestant's policy, which the platform never sees, and the
opponents' choices are skill, not luck.

With duplicate sets each player holds each seat's cards of a deal once, so the luck
terms of a deal sum to zero over the rotations and the adjustment only touches hands some
rotations did not reach (games to a target score end at different hands).

>>> luck_terms((13.0, 0.0, 13.0, 0.0), beta=1.0)
(6.5, -6.5, 6.5, -6.5)
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from arena.bots import HeuristicBot, RandomBot
from arena.engine import Card, Hand, PassDirection, Rules, SeatView
from arena.engine.decisions import Action, DecisionKind

from .batch import TableResult, fit_points

PLAYOUTS: Final = 4
"""Playouts per deal: one heuristic playout is deterministic and correlates about 0.17
with the points a hand really gave; four mixed playouts about 0.25, sixteen about 0.31
(measured on 60 simulated games, docs/ratings.md)."""

SKILL: Final = 0.6
"""The playout bots make the heuristic decision with this probability, else a random one:
a little noise lets the playouts explore the deal instead of repeating one line."""

BETA: Final = 0.5
"""The control variate's coefficient, fixed from a calibration run on other seeds (the
variance-optimal value there was 0.50-0.54). Any constant keeps the score unbiased; one
fitted on the same games would not, quite."""


class _PlayoutBot:
    """The heuristic house bot with probability SKILL per decision, else a random one."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._good = HeuristicBot(seed)
        self._random = RandomBot(seed ^ 0x5DEECE66D)

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The heuristic pass, or a random one."""
        bot = self._good if self._rng.random() < SKILL else self._random
        return bot.pass_cards(view, count)

    def play_card(self, view: SeatView) -> Card:
        """The heuristic card, or a random legal one."""
        bot = self._good if self._rng.random() < SKILL else self._random
        return bot.play_card(view)


def evaluate_deal(
    rules: Rules,
    hand_seed: int,
    dealer: int,
    pass_direction: PassDirection | str,
    *,
    playouts: int = PLAYOUTS,
) -> tuple[float, ...]:
    """Each seat's mean points when house bots play this deal out `playouts` times
    (seeded by the deal: the same deal always gets the same evaluation)."""
    totals = [0.0] * rules.players
    for k in range(playouts):
        hand = Hand.deal(rules, hand_seed, dealer=dealer, pass_direction=pass_direction)
        bots = [
            _PlayoutBot((hand_seed * 31 + k * rules.players + seat) & 0xFFFFFFFF)
            for seat in range(rules.players)
        ]
        # The passes and plays are the bots'; every other decision (the dealer's call, a
        # reveal, a bid, 004's pledge and shooter's choice) is its default, the same at
        # every seat, so it moves no seat's expectation.
        while (decision := hand.pending()) is not None:
            kind, seat = decision.kind, decision.seat
            if kind is DecisionKind.PASS:
                hand.apply_pass(seat, bots[seat].pass_cards(hand.view(seat), decision.size))
            elif kind is DecisionKind.PLAY or kind is DecisionKind.PENNY_PLAY:
                hand.play(bots[seat].play_card(hand.view(seat)), seat=seat)
            else:
                hand.apply(Action(kind, seat, decision.default))
        for seat, points in enumerate(hand.points()):
            totals[seat] += points / playouts
    return tuple(totals)


def luck_terms(evaluation: Sequence[float], beta: float = BETA) -> tuple[float, ...]:
    """Each seat's luck: beta times its evaluation minus the seats' mean (sums to zero)."""
    mean = statistics.fmean(evaluation)
    return tuple(beta * (e - mean) for e in evaluation)


def adjusted_points(points: Sequence[float], luck: Sequence[float]) -> tuple[float, ...]:
    """A hand's points with each seat's luck term taken off."""
    return tuple(p - c for p, c in zip(points, luck, strict=True))


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """One game as the replay records it: who sat where, and per hand its deal
    (seed, dealer, pass direction) and each seat's points."""

    table: Hashable  # the match: the games of one duplicate set share it
    seating: tuple[Hashable, ...]  # seat -> entrant
    hands: tuple[tuple[int, int, str, tuple[float, ...]], ...]  # points (floats: baseline)


def games_from_replay(
    table: Hashable, replay: Mapping[str, Any], entrants: Sequence[Hashable]
) -> list[PlayedGame]:
    """The games of a replay document of either version (v1 and v2 keep a hand's seed,
    dealer, pass and points under the same keys); `entrants[i]` names the replay's
    entrant i. Raises KeyError/IndexError for a document missing its hands."""
    games = []
    for game in replay["games"]:
        seating = tuple(entrants[i] for i in game["seating"])
        hands = tuple(
            (int(h["seed"]), int(h["dealer"]), str(h["pass_direction"]), tuple(h["points"]))
            for h in game["hands"]
        )
        games.append(PlayedGame(table, seating, hands))
    return games


@dataclasses.dataclass(frozen=True)
class LuckFigures:
    """Raw and luck-adjusted points per hand against the table, over recorded games.

    `raw_variance` and `adjusted_variance` are per-hand variances of a player's points
    minus its table's mean, less what the players' fitted skills predict (each game
    weighted by its hands): the luck left in a score; `reduction` is their ratio,
    the factor by which the adjustment cuts the hands needed for the same certainty.
    """

    games: int
    hands: int
    raw_variance: float
    adjusted_variance: float
    mean_raw: dict[Hashable, float]
    mean_adjusted: dict[Hashable, float]
    standard_error: dict[Hashable, float]

    @property
    def reduction(self) -> float:
        """How many times fewer hands the adjusted score needs (1.0: no gain)."""
        return self.raw_variance / self.adjusted_variance if self.adjusted_variance else math.inf


def measure_luck(
    rules: Rules,
    games: Sequence[PlayedGame],
    evaluations: Mapping[tuple[int, int, str], Sequence[float]] | None = None,
) -> LuckFigures:
    """Luck-adjusted against raw scores over `games` (each deal evaluated once; pass
    `evaluations` to reuse them). Raises ValueError with no hands at all."""
    cache: dict[tuple[int, int, str], Sequence[float]] = dict(evaluations or {})
    raw_rows: list[tuple[float, int]] = []
    adjusted_rows: list[tuple[float, int]] = []
    per_player: dict[Hashable, list[tuple[float, float, int]]] = {}
    hands_total = 0
    skills = _skills(games)
    for game in games:
        if not game.hands:
            continue
        n = len(game.seating)
        raw = [0.0] * n
        adjusted = [0.0] * n
        for seed, dealer, direction, points in game.hands:
            key = (seed, dealer, direction)
            if key not in cache:
                cache[key] = evaluate_deal(rules, seed, dealer, direction)
            luck = luck_terms(cache[key])
            mean = statistics.fmean(points)
            for seat in range(n):
                raw[seat] += points[seat] - mean
                adjusted[seat] += points[seat] - mean - luck[seat]
        count = len(game.hands)
        hands_total += count * n
        expected = _expected(skills, game.seating)
        for seat, player in enumerate(game.seating):
            raw_rows.append((raw[seat] / count - expected[seat], count))
            adjusted_rows.append((adjusted[seat] / count - expected[seat], count))
            per_player.setdefault(player, []).append(
                (raw[seat] / count, adjusted[seat] / count, count)
            )
    if not raw_rows:
        raise ValueError("no hands to measure")
    correction = _centring_correction(games)
    mean_raw = {p: _weighted_mean([(r, h) for r, _, h in rows]) for p, rows in per_player.items()}
    mean_adjusted = {
        p: _weighted_mean([(a, h) for _, a, h in rows]) for p, rows in per_player.items()
    }
    errors = {p: _difference_error(rows) for p, rows in per_player.items()}
    return LuckFigures(
        games=len(games),
        hands=hands_total,
        raw_variance=correction * _per_hand_variance(raw_rows),
        adjusted_variance=correction * _per_hand_variance(adjusted_rows),
        mean_raw=mean_raw,
        mean_adjusted=mean_adjusted,
        standard_error=errors,
    )


def _skills(games: Sequence[PlayedGame]) -> dict[Hashable, float]:
    """Each player's points per hand against the field, fitted over the games
    (`arena.ratings.batch`): what a variance of luck must not count. Empty when the
    games do not connect the players."""
    tables = []
    for game in games:
        if not game.hands or len(set(game.seating)) != len(game.seating):
            continue
        totals = [float(sum(h[3][seat] for h in game.hands)) for seat in range(len(game.seating))]
        tables.append(TableResult(tuple(game.seating), tuple(totals), len(game.hands)))
    try:
        return dict(fit_points(tables)) if tables else {}
    except ValueError:
        return {}


def _expected(skills: Mapping[Hashable, float], seating: Sequence[Hashable]) -> list[float]:
    """Each seat's expected points per hand against its table from the players' skills."""
    values = [skills.get(p, 0.0) for p in seating]
    mean = statistics.fmean(values)
    return [v - mean for v in values]


def _centring_correction(games: Sequence[Any]) -> float:
    """n / (n - 1): a deviation from a table mean of n players has (n - 1)/n of the
    variance of the score itself."""
    sizes = [len(g.seating) for g in games if len(g.seating) > 1]
    n = statistics.fmean(sizes) if sizes else 2.0
    return n / (n - 1)


def _weighted_mean(rows: Sequence[tuple[float, int]]) -> float:
    total = sum(h for _, h in rows)
    return sum(v * h for v, h in rows) / total if total else 0.0


def _per_hand_variance(rows: Sequence[tuple[float, int]]) -> float:
    """The variance of one hand's worth: a game's mean over h hands has variance v / h,
    so h * (its deviation)^2 estimates v."""
    mean = _weighted_mean(rows)
    return statistics.fmean(h * (v - mean) ** 2 for v, h in rows)


def _difference_error(rows: Sequence[tuple[float, float, int]]) -> float:
    """Standard error of (mean raw - mean adjusted) for one player, over its games."""
    diffs = [(r - a, h) for r, a, h in rows]
    if len(diffs) < 2:
        return math.inf
    total = sum(h for _, h in diffs)
    mean = _weighted_mean(diffs)
    variance = sum(h * (d - mean) ** 2 for d, h in diffs) / (len(diffs) - 1)
    return math.sqrt(variance / total)


@dataclasses.dataclass(frozen=True)
class FormatFigures:
    """What a season's format achieved: per-hand variance of a single game's score against
    its table, of a duplicate set's, and their ratio (None without duplicate sets)."""

    single_games: int
    duplicate_sets: int
    single_variance: float
    duplicate_variance: float | None

    @property
    def reduction(self) -> float | None:
        """How many times fewer hands duplicate sets needed than single games (None: no sets)."""
        if self.duplicate_variance is None or self.duplicate_variance == 0.0:
            return None
        return self.single_variance / self.duplicate_variance


def measure_format(games: Sequence[PlayedGame]) -> FormatFigures:
    """Single against duplicate from recorded games: every game is also a single game;
    games sharing a table (a duplicate set) are summed into one set.

    Both variances are of one hand's worth of a player's points against its table, less
    what the players' fitted skills predict (skill is not luck, and it adds up over a set
    as luck does not), so the ratio is the factor of hands duplicate sets saved on these
    entrants. Raises
    ValueError with no hands at all.
    """
    singles: list[tuple[float, int]] = []
    sets: dict[Hashable, dict[Hashable, list[float]]] = {}
    set_games: dict[Hashable, int] = {}
    skills = _skills(games)
    for game in games:
        if not game.hands:
            continue
        n = len(game.seating)
        deviation = [0.0] * n
        for *_, points in game.hands:
            mean = statistics.fmean(points)
            for seat in range(n):
                deviation[seat] += points[seat] - mean
        count = len(game.hands)
        expected = _expected(skills, game.seating)
        for seat in range(n):  # luck only: what the players' skills predict comes off
            deviation[seat] -= expected[seat] * count
        set_games[game.table] = set_games.get(game.table, 0) + 1
        members = sets.setdefault(game.table, {})
        for seat, player in enumerate(game.seating):
            singles.append((deviation[seat] / count, count))
            total = members.setdefault(player, [0.0, 0.0])
            total[0] += deviation[seat]
            total[1] += count
    if not singles:
        raise ValueError("no hands to measure")
    correction = _centring_correction(games)
    duplicates = [
        (points / hands, int(hands))
        for table, members in sets.items()
        if set_games[table] > 1
        for points, hands in members.values()
    ]
    duplicate_tables = sum(1 for t in sets if set_games[t] > 1)
    return FormatFigures(
        single_games=sum(1 for g in games if g.hands),
        duplicate_sets=duplicate_tables,
        single_variance=correction * _per_hand_variance(singles),
        duplicate_variance=(
            correction * _per_hand_variance(duplicates) if len(duplicates) > 1 else None
        ),
    )
