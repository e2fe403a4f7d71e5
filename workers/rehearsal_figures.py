"""What one rehearsal measured and checked (`arena bench rehearsal`'s report is drawn
from it: arena/commands/rehearsal.py): the figures, and the final standings' rows."""

from __future__ import annotations

import dataclasses

from arena.benchmarks.rehearsal import Agreement, EntrantPlan


@dataclasses.dataclass(frozen=True)
class FinalRow:
    """One entrant's line of the final standings."""

    name: str
    kind: str
    handicap: float
    fault: str | None
    version: int
    rank: int | None
    points: float | None
    low: float | None
    high: float | None
    games: int

    @classmethod
    def of(
        cls,
        plan: EntrantPlan,
        *,
        version: int,
        rank: int | None,
        points: float | None,
        low: float | None,
        high: float | None,
        games: int,
    ) -> FinalRow:
        """The row of `plan`'s entrant (its name, kind, handicap and fault are the plan's)."""
        return cls(
            plan.name, plan.kind, plan.handicap, plan.fault, version, rank, points, low, high, games
        )


@dataclasses.dataclass
class RehearsalFigures:
    """What one rehearsal measured and checked."""

    entrants: int
    workers: int
    broker: str
    database: str
    build_seconds: dict[str, float]
    validation_seconds: float
    season_seconds: float
    scheduled: int
    recorded: int
    statuses: dict[str, int]
    duplicates: list[str]
    replays_verified: int
    replay_failures: list[str]
    cpu_per_match: dict[str, float]
    faults: dict[str, int]
    faulted_matches: dict[str, int]
    faults_by_entrant: dict[str, int]
    round_seconds: list[float]
    round_matches: list[int]
    standings: list[FinalRow]
    agreement: Agreement | None
    load: tuple[float, float]
    """The load average (1 minute) when the season started and when it ended."""
    hands_per_match: float
    final: list[FinalRow] = dataclasses.field(default_factory=list)
    """The final's standings (`rank` its place), when one was played."""
    final_agreement: Agreement | None = None
    final_seconds: float = 0.0
    final_matches: int = 0
    kits_cached: bool = False
    """The kits came from the cache (`build_seconds` are then the cached build's)."""
    match_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per recorded match: its wall time, from a worker starting it to its end."""
    wait_seconds: list[float] = dataclasses.field(default_factory=list)
    """Per recorded match: its wait in the queue, from its creation to a worker starting it."""
    validation_seconds_each: list[float] = dataclasses.field(default_factory=list)
    """Per uploaded version: from the upload to its validation's verdict."""
    wall_seconds: float = 0.0
    """The whole run, end to end: kits, servers, uploads, season, final and checks."""
    stages: dict[str, float] = dataclasses.field(default_factory=dict)
    """Where the wall time went, stage by stage (seconds, in order; they add up to
    `wall_seconds` but for the stop of the servers at the end)."""

    @property
    def per_minute(self) -> float:
        """Matches recorded per minute of the season (first round enqueued to last recorded)."""
        return 60.0 * self.recorded / self.season_seconds if self.season_seconds > 0 else 0.0

    @property
    def nothing_lost(self) -> bool:
        """Every scheduled match (and final table) done, recorded once, its replay verifying."""
        return (
            self.recorded == self.scheduled
            and not self.duplicates
            and not self.replay_failures
            and self.replays_verified == self.scheduled + self.final_matches
        )
