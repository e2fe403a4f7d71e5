"""`arena bench ratings --separation`: how many matches until a field of known strengths is
told apart at 95 %, per format, with and without active table choice.

The field: `HandicappedBot`s (`arena.benchmarks.ratings`) of 16 strengths evenly spaced
from 0 (the random bot) to 1 (the heuristic house bot). Their true points per hand
against the field are not known in closed form, so they are estimated from every game
the bench plays (all formats pooled: many times the data of any one run).

A simulated season plays rounds of real games (every bot once per round, tables of four
from the real matchmaking) and, at checkpoints spaced about 10 % apart, fits the batch
model (`arena.ratings.batch.fit_standings`, 100 bootstrap replicates). A pair is
*separated* when its two 95 % intervals do not overlap (what the ladder's tie groups
show). The figure: the first checkpoint at which every pair of bots whose true values
are at least 1 point per hand apart is separated, and at which every neighbour pair is.

The formats, all on the same simulated games of their run:

- **single games**: each table is one game;
- **single + luck**: the same games, every hand's points less its seat's luck term
  (`arena.ratings.luck`, four house-bot playouts per deal);
- **duplicate sets**: each table is played once per seat rotation on the same deals;
- **duplicate + luck**: the same sets, luck-adjusted.

Without active choice, tables come from the matchmaking's Elo rule (Elo rated per table,
as the platform does); with it (`MatchmakingSettings.active_choice`), from the batch
fit's intervals at the last checkpoint.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Final

from arena.engine import Rules, preset
from arena.match.house import play_game
from arena.ratings.batch import Standing, TableResult, fit_points, fit_standings
from arena.ratings.elo import EloRating, places_from_scores, rate_table
from arena.ratings.luck import PlayedGame, evaluate_deal, luck_terms
from arena.seasons.matchmaking import History, MatchmakingSettings, Player, make_tables, rotations

from .ratings import HandicappedBot

FIELD: Final = tuple(round(i / 15, 4) for i in range(16))
QUICK_FIELD: Final = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.1, 0.5)
"""`--quick` (CI's smoke run): eight bots and short runs."""

GAP: Final = 1.0
"""Points per hand: pairs at least this far apart must be separated."""


@dataclasses.dataclass(frozen=True)
class Played:
    """One match of a simulated season: its games, in the luck module's terms."""

    players: tuple[int, ...]
    games: tuple[PlayedGame, ...]


def play_match(
    rules: Rules, strengths: Sequence[float], table: Sequence[int], seed: int, duplicate: bool
) -> Played:
    """A table's match (one game, or a duplicate set) between handicapped bots."""
    rng = random.Random(seed)
    deal_seed = rng.getrandbits(63)
    games = []
    for seating in rotations(table) if duplicate else [tuple(table)]:
        bots = [HandicappedBot(strengths[p], rng.getrandbits(32)) for p in seating]
        game = play_game(rules, bots, deal_seed)
        # standard rules: the deal passes to the left each hand, from seat 0
        hands = tuple(
            (hand_seed, number % rules.players, rules.pass_direction(number).value, points)
            for number, (hand_seed, points) in enumerate(
                zip(game.hand_seeds, game.hand_points, strict=False)
            )
        )
        games.append(PlayedGame(seed, tuple(seating), hands))
    return Played(tuple(table), tuple(games))


class LuckCache:
    """Every deal's luck terms, evaluated once."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.terms: dict[tuple[int, int, str], tuple[float, ...]] = {}

    def __call__(self, seed: int, dealer: int, direction: str) -> tuple[float, ...]:
        key = (seed, dealer, direction)
        if key not in self.terms:
            self.terms[key] = luck_terms(evaluate_deal(self.rules, seed, dealer, direction))
        return self.terms[key]


def table_result(
    match: Played, luck: Callable[[int, int, str], Sequence[float]] | None
) -> TableResult:
    """A match as one table of the batch fit: totals over its games, raw or luck-adjusted."""
    totals: dict[Hashable, float] = dict.fromkeys(match.players, 0.0)
    hands = 0
    for game in match.games:
        hands += len(game.hands)
        for seed, dealer, direction, points in game.hands:
            terms = luck(seed, dealer, direction) if luck is not None else None
            for seat, player in enumerate(game.seating):
                totals[player] += points[seat] - (terms[seat] if terms is not None else 0.0)
    return TableResult(match.players, tuple(totals[p] for p in match.players), max(hands, 1))


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """The fits at one point of a run: matches so far, and standings raw and adjusted."""

    matches: int
    games: int
    raw: tuple[Standing, ...]
    adjusted: tuple[Standing, ...]


@dataclasses.dataclass(frozen=True)
class SeparationRun:
    """One simulated season of a format, with or without active table choice."""

    duplicate: bool
    active: bool
    matches: tuple[Played, ...]
    checkpoints: tuple[Checkpoint, ...]
    seconds: float


def simulate(
    strengths: Sequence[float],
    *,
    duplicate: bool,
    active: bool,
    max_matches: int,
    luck: LuckCache,
    seed: int = 1,
    rules: Rules | None = None,
    bootstrap: int = 100,
) -> SeparationRun:
    """Play rounds until `max_matches` matches, fitting at checkpoints ~10 % apart."""
    rules = rules or preset("standard")
    start = time.perf_counter()
    rng = random.Random(seed)
    settings = MatchmakingSettings(
        duplicate_sets=duplicate, fill_with_house=False, active_choice=active
    )
    elos = [EloRating() for _ in strengths]
    intervals: dict[int, tuple[float, float]] = {}
    centres: dict[int, float] = {}
    recent: list[list[tuple[int, ...]]] = []
    matches: list[Played] = []
    checkpoints: list[Checkpoint] = []
    next_check = 2 * len(strengths) // rules.players
    while len(matches) < max_matches:
        history = History(t for round_tables in recent[-3:] for t in round_tables)
        players = [
            Player(
                i,
                -100.0 * centres[i] if active and i in centres else elos[i].elo,
                elos[i].games,
                owner=i,
                interval=(
                    (-100.0 * intervals[i][1], -100.0 * intervals[i][0])
                    if active and i in intervals
                    else None
                ),
            )
            for i in range(len(strengths))
        ]
        tables = make_tables(players, rules.players, settings, history, rng=rng)
        for table in tables:
            match = play_match(rules, strengths, table, rng.getrandbits(63), duplicate)
            matches.append(match)
            raw = table_result(match, None)
            before = [elos[p] for p in table]
            places = places_from_scores([round(s) for s in raw.points])
            for p, rating in zip(table, rate_table(before, places), strict=True):
                elos[p] = rating
        recent.append(tables)
        if len(matches) >= next_check or len(matches) >= max_matches:
            try:
                raw_fit = fit_standings(
                    [table_result(m, None) for m in matches], bootstrap=bootstrap, seed=seed
                )
                adjusted_fit = fit_standings(
                    [table_result(m, luck) for m in matches], bootstrap=bootstrap, seed=seed
                )
            except ValueError:  # the first rounds may not connect the field yet
                next_check += 1
                continue
            games = sum(len(m.games) for m in matches)
            checkpoints.append(Checkpoint(len(matches), games, tuple(raw_fit), tuple(adjusted_fit)))
            intervals = {int(str(s.entrant)): (s.low, s.high) for s in raw_fit}
            centres = {int(str(s.entrant)): s.points for s in raw_fit}
            next_check = max(next_check + 1, int(next_check * 1.1))
    return SeparationRun(
        duplicate, active, tuple(matches), tuple(checkpoints), time.perf_counter() - start
    )


def separated(standings: Sequence[Standing], pairs: Sequence[tuple[int, int]]) -> bool:
    """Whether every pair's 95 % intervals are disjoint."""
    by = {int(str(s.entrant)): s for s in standings}
    return all(
        a in by and b in by and (by[a].high < by[b].low or by[b].high < by[a].low) for a, b in pairs
    )


def first_separation(
    run: SeparationRun, pairs: Sequence[tuple[int, int]], adjusted: bool
) -> tuple[int, int] | None:
    """(matches, games) at the first checkpoint with every pair separated; None: never."""
    for check in run.checkpoints:
        if separated(check.adjusted if adjusted else check.raw, pairs):
            return check.matches, check.games
    return None


@dataclasses.dataclass(frozen=True)
class SeparationFigures:
    """The bench's result: the field's estimated truth and every run."""

    strengths: tuple[float, ...]
    truth: dict[int, float]
    runs: tuple[SeparationRun, ...]
    max_matches: dict[bool, int]

    def pairs(self, gap: float | None) -> list[tuple[int, int]]:
        """The pairs to separate: neighbours in the true order (None) or pairs >= gap apart."""
        order = sorted(self.truth, key=self.truth.__getitem__)
        if gap is None:
            return list(itertools.pairwise(order))
        return [
            (a, b)
            for i, a in enumerate(order)
            for b in order[i + 1 :]
            if abs(self.truth[a] - self.truth[b]) >= gap
        ]


def bench_separation(
    *,
    strengths: Sequence[float] = FIELD,
    max_single: int = 1600,
    max_duplicate: int = 400,
    seed: int = 1,
    bootstrap: int = 100,
) -> SeparationFigures:
    """Four runs (single / duplicate, without / with active choice), then the pooled truth."""
    rules = preset("standard")
    luck = LuckCache(rules)
    runs = []
    for duplicate in (False, True):
        for active in (False, True):
            runs.append(
                simulate(
                    strengths,
                    duplicate=duplicate,
                    active=active,
                    max_matches=max_duplicate if duplicate else max_single,
                    luck=luck,
                    seed=seed,
                    rules=rules,
                    bootstrap=bootstrap,
                )
            )
    pooled = [table_result(m, None) for run in runs for m in run.matches]
    truth = {int(str(k)): v for k, v in fit_points(pooled).items()}
    return SeparationFigures(
        tuple(strengths), truth, tuple(runs), {False: max_single, True: max_duplicate}
    )


def describe(figures: SeparationFigures) -> str:
    """The table `arena bench ratings --separation` prints."""
    order = sorted(figures.truth, key=figures.truth.__getitem__)
    truth = ", ".join(f"{figures.strengths[i]:.2f}:{figures.truth[i]:+.2f}" for i in order)
    wide = figures.pairs(GAP)
    near = figures.pairs(None)
    lines = [
        f"arena bench ratings --separation — {len(figures.strengths)} bots, "
        f"true points/hand vs field (strength:value, best first): {truth}",
        f"  pairs >= {GAP:g} point/hand apart: {len(wide)}; neighbour pairs: {len(near)}",
        "  matches (games) until every such pair's 95 % intervals are disjoint "
        "('>' = not within the run):",
        "  format                 active | pairs >= 1 pt apart | all neighbours    | seconds",
    ]
    for run in figures.runs:
        for adjusted in (False, True):
            name = ("duplicate sets" if run.duplicate else "single games") + (
                " + luck" if adjusted else ""
            )
            cells = []
            for pairs in (wide, near):
                found = first_separation(run, pairs, adjusted)
                last = run.checkpoints[-1]
                cells.append(
                    f">{last.matches} ({last.games})"
                    if found is None
                    else f"{found[0]} ({found[1]})"
                )
            lines.append(
                f"  {name:<22}{'yes' if run.active else 'no':>7} | {cells[0]:<19} | "
                f"{cells[1]:<17} | {run.seconds:.0f}"
            )
    return "\n".join(lines)
