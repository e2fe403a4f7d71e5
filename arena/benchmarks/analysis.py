"""`arena bench analysis`: what an analysed match costs, and how far two analyses of the same
match with different seeds agree (issue 33, item 2's cost; docs/benchmarks.md).

A match of house bots is played (the heuristic bot in every seat, or the strong bot),
then analysed twice at the same depth with two analysis seeds, every seat judged. The
cost is the process's CPU time (`time.process_time`: core-seconds, the figure the budget
of one core-minute per 13-hand match is about). Agreement is the overlap (shared over
either, a Jaccard index) of the decisions each analysis flags as a mistake or worse, of
those it marks at all, and of the worst decision it names in each seat's hand.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from arena.analysis import MatchAnalysis, Settings, analyse
from arena.bots import HeuristicBot, StrongBot
from arena.engine import Rules
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat

_Key = tuple[int, int, int]


@dataclasses.dataclass(frozen=True)
class AnalysisFigures:
    """One match analysed twice."""

    match_seed: int
    hands: int
    decisions: int
    core_seconds: tuple[float, float]
    flagged: tuple[int, int]
    flagged_agreement: float
    marked_agreement: float
    worst_agreement: float

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def play_match(rules: Rules, seed: int, bots: str) -> dict[str, Any]:
    """A match of house bots in every seat (`bots`: "heuristic" or "strong"), as a replay."""
    seats = [
        HeuristicBot(seed + i) if bots == "heuristic" else StrongBot(seed + i, time_per_move=None)
        for i in range(rules.players)
    ]
    entrants = [Entrant(f"house:{bots}#{i}", InProcessSeat(bot)) for i, bot in enumerate(seats)]
    return MatchRunner(rules, entrants, seed=seed).run().v1


def _jaccard(a: set[_Key], b: set[_Key]) -> float:
    return 1.0 if not a | b else round(len(a & b) / len(a | b), 3)


def _worst(analysis: MatchAnalysis) -> set[_Key]:
    """Per (game, hand, seat): its decision of largest loss, when it has a mark."""
    worst: dict[tuple[int, int, int], Any] = {}
    for d in analysis.decisions:
        key = (d.game, d.hand, d.seat)
        if d.mark and (key not in worst or d.loss > worst[key].loss):
            worst[key] = d
    return {(d.game, d.hand, d.action) for d in worst.values()}


def measure(
    rules: Rules,
    match_seed: int,
    settings: Settings,
    other_seed: int,
    bots: str = "heuristic",
    progress: Callable[[str], None] | None = None,
) -> AnalysisFigures:
    """Play one match and analyse it with `settings` and again with `other_seed`."""
    replay = play_match(rules, match_seed, bots)
    analyses = []
    seconds = []
    for seed in (settings.seed, other_seed):
        if progress is not None:
            progress(f"match {match_seed}: analysis with seed {seed}")
        started = time.process_time()
        analyses.append(analyse(replay, settings=dataclasses.replace(settings, seed=seed)))
        seconds.append(round(time.process_time() - started, 2))
    first, second = analyses

    def keys(a: MatchAnalysis, marks: tuple[str, ...]) -> set[_Key]:
        return {(d.game, d.hand, d.action) for d in a.decisions if d.mark in marks}

    serious = ("mistake", "blunder")
    every = ("inaccuracy", *serious)
    return AnalysisFigures(
        match_seed=match_seed,
        hands=sum(len(g["hands"]) for g in replay["games"]),
        decisions=len(first.decisions),
        core_seconds=(seconds[0], seconds[1]),
        flagged=(len(keys(first, serious)), len(keys(second, serious))),
        flagged_agreement=_jaccard(keys(first, serious), keys(second, serious)),
        marked_agreement=_jaccard(keys(first, every), keys(second, every)),
        worst_agreement=_jaccard(_worst(first), _worst(second)),
    )
