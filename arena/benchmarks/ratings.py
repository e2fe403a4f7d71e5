"""`arena bench ratings`: how fast the Elo ladder finds the true order of known strengths.

The bots: `HandicappedBot(strength)` makes the heuristic house bot's decision with
probability `strength` and a random legal one otherwise, so strength 1.0 is the heuristic
bot, 0.0 the random bot, and the true order of a field is the order of its strengths.
A simulated season seats them with the real matchmaking (`arena.seasons.matchmaking`),
plays real games with the engine, and rates each game with `arena.ratings.elo`, exactly
as `record_match_result` would (no database: this measures the rating system).

The measure: Spearman's rho between the Elo order and the true order after every round;
a season *converges* at the first game count from which rho stays at or above the
threshold (0.9) to the end. With duplicate sets each table is played once per seat
rotation on the same deals and rated once, on each player's total over the set, as the
match runner and `record_match_result` do: the luck of the cards cancels, at the price of
n games per rating update instead of one.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time
from collections.abc import Sequence
from typing import Final

from arena.bots import HeuristicBot, RandomBot
from arena.engine import Card, CardSet, PassDirection, Rules, SeatView, Suit, preset
from arena.engine.decisions import CountedCall
from arena.match.house import play_game
from arena.ratings.correlation import spearman
from arena.ratings.elo import (
    DEFAULT_SETTINGS,
    EloRating,
    EloSettings,
    places_from_scores,
    rate_table,
)
from arena.seasons.matchmaking import History, MatchmakingSettings, Player, make_tables, rotations

DEFAULT_STRENGTHS: Final = (0.0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0)
THRESHOLD: Final = 0.9


class HandicappedBot:
    """The heuristic bot with probability `strength` per decision, else the random bot."""

    name = "handicapped"

    def __init__(self, strength: float, seed: int = 0) -> None:
        if not 0.0 <= strength <= 1.0:
            raise ValueError(f"strength must be in 0..1, not {strength}")
        self.strength = strength
        self._rng = random.Random(seed)
        self._good = HeuristicBot(seed)
        self._random = RandomBot(seed ^ 0x5DEECE66D)

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The heuristic pass, or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.pass_cards(view, count)

    def play_card(self, view: SeatView) -> Card:
        """The heuristic card, or a random legal one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.play_card(view)

    def call_pass(self, view: SeatView) -> PassDirection | tuple[PassDirection, ...] | CountedCall:
        """The heuristic call, or a random one (a split, sometimes; a count, where the
        rules let the dealer call one)."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.call_pass(view)

    def bid(self, view: SeatView) -> int | None:
        """The heuristic bid (Auction Hearts), or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.bid(view)

    def name_suit(self, view: SeatView) -> Suit:
        """The heuristic suit to avoid (Auction Hearts), or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.name_suit(view)

    def reveal_card(self, view: SeatView) -> Card:
        """The heuristic face-down card (Heartless), or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.reveal_card(view)

    def choose_moon(self, view: SeatView, default: str) -> str:
        """The heuristic shooter's choice (004 'Shooting the moon'), or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.choose_moon(view, default)

    def pledge(self, view: SeatView) -> bool:
        """The heuristic no-hearts pledge (004 'Scoring variants'), or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.pledge(view)

    def refuse_queen(self, view: SeatView) -> bool:
        """Rickety Kate: the heuristic refusal of a passed QS, or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.refuse_queen(view)

    def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
        """Rickety Kate: the heuristic replacement of a refused QS, or a random one."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.replace_pass(view, legal)

    def expose(self, view: SeatView, exposable: CardSet) -> tuple[Card, ...]:
        """The heuristic exposures (Gong Zhu), or random ones."""
        bot = self._good if self._rng.random() < self.strength else self._random
        return bot.expose(view, exposable)


@dataclasses.dataclass(frozen=True)
class SeasonRun:
    """One simulated season: rho after each round, as (games played so far, rho)."""

    duplicate_sets: bool
    curve: tuple[tuple[int, float], ...]
    final_elos: tuple[float, ...]

    @property
    def games(self) -> int:
        """Games (matches) played in all."""
        return self.curve[-1][0] if self.curve else 0

    def games_to_converge(self, threshold: float = THRESHOLD) -> int | None:
        """The first game count from which rho stays >= threshold to the end (None: never)."""
        converged_at = None
        for games, rho in self.curve:
            if rho >= threshold:
                converged_at = converged_at if converged_at is not None else games
            else:
                converged_at = None
        return converged_at


def simulate_season(
    strengths: Sequence[float] = DEFAULT_STRENGTHS,
    *,
    games: int,
    duplicate_sets: bool,
    seed: int = 1,
    rules: Rules | None = None,
    settings: EloSettings = DEFAULT_SETTINGS,
) -> SeasonRun:
    """Play about `games` games among bots of `strengths`, rating each; rho per round.

    Raises ValueError when there are fewer bots than the rules' seats.
    """
    rules = rules or preset("standard")
    n = rules.players
    if len(strengths) < n:
        raise ValueError(f"{len(strengths)} bots cannot fill a table of {n}")
    rng = random.Random(seed)
    ratings = [EloRating() for _ in strengths]
    recent: list[list[tuple[int, ...]]] = []
    matchmaking = MatchmakingSettings(duplicate_sets=duplicate_sets, fill_with_house=False)
    curve: list[tuple[int, float]] = []
    played = 0
    while played < games:
        history = History(table for round_tables in recent[-3:] for table in round_tables)
        players = [Player(i, r.elo, r.games) for i, r in enumerate(ratings)]
        tables = make_tables(players, n, matchmaking, history, rng=rng)
        for table in tables:
            deal_seed = rng.getrandbits(63)
            totals = dict.fromkeys(table, 0)
            for seating in rotations(table) if duplicate_sets else [table]:
                bots = [HandicappedBot(strengths[p], rng.getrandbits(32)) for p in seating]
                game = play_game(rules, bots, deal_seed)
                for p, total in zip(seating, game.totals, strict=True):
                    totals[p] += total
                played += 1
            before = [ratings[p] for p in table]
            places = places_from_scores([totals[p] for p in table])
            for p, rating in zip(table, rate_table(before, places, settings), strict=True):
                ratings[p] = rating
        recent.append(tables)
        curve.append((played, spearman(list(strengths), [r.elo for r in ratings])))
    return SeasonRun(duplicate_sets, tuple(curve), tuple(r.elo for r in ratings))


@dataclasses.dataclass(frozen=True)
class ConvergenceFigure:
    """Convergence over several seasons (seeds) of one format."""

    duplicate_sets: bool
    strengths: tuple[float, ...]
    runs: tuple[SeasonRun, ...]
    seconds: float

    @property
    def converge_games(self) -> list[int | None]:
        """Games to converge per run (None for a run that never converged)."""
        return [run.games_to_converge() for run in self.runs]

    @property
    def median_games(self) -> float | None:
        """Median games to converge, counting a run that never converged as not converged."""
        values = self.converge_games
        if any(v is None for v in values):
            return None
        return statistics.median(v for v in values if v is not None)

    @property
    def final_rho(self) -> float:
        """Mean rho at the end of the runs."""
        return statistics.fmean(run.curve[-1][1] for run in self.runs)


def bench_convergence(
    *,
    games: int = 400,
    runs: int = 5,
    strengths: Sequence[float] = DEFAULT_STRENGTHS,
    seed: int = 1,
) -> tuple[ConvergenceFigure, ConvergenceFigure]:
    """Convergence without and with duplicate sets: `runs` seasons of `games` games each."""
    figures = []
    for duplicate in (False, True):
        start = time.perf_counter()
        seasons = tuple(
            simulate_season(strengths, games=games, duplicate_sets=duplicate, seed=seed + run)
            for run in range(runs)
        )
        figures.append(
            ConvergenceFigure(duplicate, tuple(strengths), seasons, time.perf_counter() - start)
        )
    return figures[0], figures[1]


def describe(single: ConvergenceFigure, duplicate: ConvergenceFigure) -> str:
    """The figures as the lines `arena bench ratings` prints."""
    lines = [
        f"arena bench ratings — {len(single.runs)} seasons per format, "
        f"{single.runs[0].games} games each, bots of strengths {list(single.strengths)}",
        f"  games until Spearman's rho >= {THRESHOLD} for good (per season; '-' = never):",
    ]
    for figure in (single, duplicate):
        name = "duplicate sets" if figure.duplicate_sets else "single games  "
        games = " ".join("-" if g is None else str(g) for g in figure.converge_games)
        median = "never" if figure.median_games is None else f"{figure.median_games:g}"
        lines.append(
            f"  {name}: median {median}, each [{games}], final rho {figure.final_rho:.3f} "
            f"({figure.seconds:.1f} s)"
        )
    return "\n".join(lines)
