"""Finals of frozen versions: a balanced round robin of duplicate sets, or a knockout.

A final's life: *scheduled* (its finalists are bots) → at `freeze_at`, *running*: each
finalist's playing version is frozen (`arena.seasons.entries.playing_version`: an upload
after the deadline does not play) and the schedule is written → *finished* when every
table is done, its standings frozen in `report`.

- **Round robin** (`FinalFormat.ROUND_ROBIN`): the balanced design of
  `arena.seasons.designs` played `cycles` times, every table a duplicate set (the same
  deals once per seat rotation, `MatchFormat.DUPLICATE`), so every pair of finalists meets
  equally often in every relative seat and every finalist holds every hand. The standings
  are the ladder's batch fit (`arena.ratings.batch.fit_standings`: points per hand against
  the field, 95 % intervals, tie groups). When the last table is done and adjacent
  intervals still overlap, another cycle is added, up to `design["max_cycles"]`; after
  that the page says which places are tied.
- **Knockout** (`FinalFormat.KNOCKOUT`, exhibitions): tables of four, each a duplicate
  set; the top two of every table go on (`designs.knockout_tables`, `designs.next_round`)
  until one table is left, whose order gives places 1-4.

**The worker share.** A final's matches are made only when released: at most
`worker_share` of them are queued or running at once (`release`), so a final holds at
most that many worker processes and a running ladder keeps the rest. Its matches are
outside any season (unrated, like challenges), so the workers' dispatcher and reaper run
and recover them as they do any match; the final only links each table to its match.

`advance_finals` is what the beat calls: freeze what is due, add stages or cycles,
finish what is done, release matches up to each share. Each final is changed under its
row's lock.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from typing import Final as Constant

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from arena.engine import Rules
from arena.ratings.batch import Standing, TableResult, fit_standings
from arena.store.database import write_transaction
from arena.store.models import (
    IN_FLIGHT_MATCH_STATUSES,
    Bot,
    BotVersion,
    Final,
    FinalEntrant,
    FinalFormat,
    FinalStatus,
    FinalTable,
    Match,
    MatchFormat,
    MatchSeat,
    MatchStatus,
    Rating,
    SeasonEntry,
)
from arena.store.rulesets import store_ruleset
from arena.store.types import utc_now

from .designs import (
    SIZES,
    TABLE,
    DesignError,
    balanced_design,
    is_balanced,
    knockout_sizes,
    knockout_tables,
    next_round,
    relative_seats,
)
from .entries import playing_version
from .errors import SeasonError

RETRIES: Constant = 2
"""A table whose match ends void or failed (our fault, not a bot's) is played again up to
this many times."""


class FinalError(SeasonError):
    """A final that cannot be made or changed as asked (the message says why)."""


def create_final(
    session: Session,
    *,
    name: str,
    rules: Rules,
    bots: Sequence[int],
    freeze_at: datetime,
    format: FinalFormat = FinalFormat.ROUND_ROBIN,
    worker_share: int = 1,
    cycles: int = 1,
    max_cycles: int | None = None,
    season_id: int | None = None,
) -> Final:
    """A scheduled final of these bots (seeded in the order given; flushes).

    Raises FinalError for a taken name, rules not for four players, a bot listed twice or
    unknown, a number of finalists the format does not take, or a share or cycle count
    under one.
    """
    if rules.players != TABLE:
        raise FinalError(f"finals are played at tables of {TABLE}, not {rules.players}")
    if len(set(bots)) != len(bots):
        raise FinalError("a bot is listed twice")
    if format is FinalFormat.ROUND_ROBIN and len(bots) not in SIZES:
        raise FinalError(f"a round robin takes {SIZES.start}-{SIZES.stop - 1} finalists")
    if format is FinalFormat.KNOCKOUT and len(bots) not in knockout_sizes():
        raise FinalError(f"a knockout takes {', '.join(map(str, knockout_sizes()))} finalists")
    if worker_share < 1 or cycles < 1 or (max_cycles is not None and max_cycles < cycles):
        raise FinalError("the worker share and cycles must be at least 1 (and max >= cycles)")
    if session.scalar(select(Final.id).where(Final.name == name)) is not None:
        raise FinalError(f"a final named {name!r} exists")
    known = set(session.scalars(select(Bot.id).where(Bot.id.in_(bots))))
    if known != set(bots):
        raise FinalError(f"no bot {sorted(set(bots) - known)}")
    final = Final(
        name=name,
        season_id=season_id,
        ruleset=store_ruleset(session, rules),
        players=rules.players,
        format=format,
        status=FinalStatus.SCHEDULED,
        freeze_at=freeze_at,
        worker_share=worker_share,
        cycles=cycles,
        design={"max_cycles": max_cycles or cycles, "retries": {}},
    )
    session.add(final)
    session.flush()
    for number, bot_id in enumerate(bots):
        session.add(FinalEntrant(final_id=final.id, number=number, bot_id=bot_id))
    session.flush()
    return final


def season_finalists(session: Session, season_id: int, count: int) -> list[int]:
    """The bots of the season's top `count` active entries (house bots left out): by
    final place once finished, by Elo before."""
    rows = session.execute(
        select(Bot.id, SeasonEntry.final_rank, Rating.elo)
        .select_from(SeasonEntry)
        .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
        .join(Bot, Bot.id == BotVersion.bot_id)
        .outerjoin(
            Rating,
            (Rating.season_id == SeasonEntry.season_id)
            & (Rating.bot_version_id == SeasonEntry.bot_version_id),
        )
        .where(
            SeasonEntry.season_id == season_id,
            SeasonEntry.active.is_(True),
            Bot.is_house.is_(False),
        )
    ).all()
    ordered = sorted(rows, key=lambda r: (r[1] is None, r[1] or 0, -(r[2] or 0.0), r[0]))
    return [bot_id for bot_id, _, _ in ordered[:count]]


def lock_final(session: Session, final_id: int) -> Final:
    """The final's row, locked for this transaction (FinalError when there is none)."""
    final = session.scalars(
        select(Final)
        .where(Final.id == final_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one_or_none()
    if final is None:
        raise FinalError(f"no final {final_id}")
    return final


def entrants(session: Session, final_id: int) -> list[FinalEntrant]:
    """The finalists in seed order."""
    return list(
        session.scalars(
            select(FinalEntrant)
            .where(FinalEntrant.final_id == final_id)
            .order_by(FinalEntrant.number)
        )
    )


def tables(session: Session, final_id: int) -> list[FinalTable]:
    """The final's schedule in order."""
    return list(
        session.scalars(
            select(FinalTable).where(FinalTable.final_id == final_id).order_by(FinalTable.number)
        )
    )


def _add_tables(
    final: Final, session: Session, stage: int, seatings: Sequence[Sequence[int]]
) -> None:
    start = session.scalar(
        select(func.coalesce(func.max(FinalTable.number) + 1, 0)).where(
            FinalTable.final_id == final.id
        )
    )
    for offset, seats in enumerate(seatings):
        number = int(start or 0) + offset
        seed = random.Random(f"arena final {final.id} table {number}").getrandbits(63)
        session.add(
            FinalTable(final_id=final.id, number=number, stage=stage, seats=list(seats), seed=seed)
        )
    session.flush()


def _cycle(final: Final, cycle: int, players: int) -> list[tuple[int, ...]]:
    """One pass of the balanced design, its tables shuffled (seeded: the order does not
    change the balance of a whole pass)."""
    order = list(balanced_design(players).tables)
    random.Random(f"arena final {final.id} cycle {cycle}").shuffle(order)
    return order


def freeze(session: Session, final: Final, now: datetime) -> None:
    """Freeze every finalist's playing version and write the first stage (the caller
    holds the final's lock). Raises FinalError when a finalist has no ready version."""
    rows = entrants(session, final.id)
    for entrant in rows:
        bot = session.get(Bot, entrant.bot_id)
        version = None if bot is None else playing_version(session, bot)
        if version is None:
            raise FinalError(f"final {final.name!r}: bot {entrant.bot_id} has no ready version")
        entrant.bot_version_id = version.id
    final.design = {**(final.design or {}), "players": len(rows)}
    if final.format is FinalFormat.ROUND_ROBIN:
        design = balanced_design(len(rows))
        final.design = {
            **final.design,
            "lam": design.lam,
            "modulus": design.modulus,
            "base": [list(b) for b in design.base],
            "tables_per_cycle": len(design.tables),
        }
        for cycle in range(final.cycles):
            _add_tables(final, session, cycle, _cycle(final, cycle, len(rows)))
    else:
        _add_tables(final, session, 0, knockout_tables([e.number for e in rows]))
    final.status = FinalStatus.RUNNING
    final.started_at = now


def _table_scores(
    session: Session, final_id: int
) -> dict[int, tuple[MatchStatus, int, dict[int, int]]]:
    """Each released table's match status, hands and score per version."""
    rows = session.execute(
        select(
            FinalTable.number,
            Match.status,
            Match.hands_played,
            MatchSeat.bot_version_id,
            MatchSeat.score,
        )
        .join(Match, Match.id == FinalTable.match_id)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(FinalTable.final_id == final_id)
    ).all()
    found: dict[int, tuple[MatchStatus, int, dict[int, int]]] = {}
    for number, status, hands, version, score in rows:
        entry = found.setdefault(number, (status, max(hands or 0, 1), {}))
        if score is not None:
            entry[2][version] = score
    return found


@dataclasses.dataclass(frozen=True)
class Progress:
    """How far a final's schedule has got."""

    tables: int
    done: int
    in_flight: int
    waiting: int  # not yet released

    def to_dict(self) -> dict[str, int]:
        """A JSON-ready dict."""
        return dataclasses.asdict(self)


def progress(session: Session, final_id: int) -> Progress:
    """Tables in the schedule, done, queued or running, and not released yet."""
    schedule = tables(session, final_id)
    scores = _table_scores(session, final_id)
    done = sum(
        1 for t in schedule if t.number in scores and scores[t.number][0] is MatchStatus.DONE
    )
    flying = sum(
        1
        for t in schedule
        if t.number in scores and scores[t.number][0] in IN_FLIGHT_MATCH_STATUSES
    )
    waiting = sum(1 for t in schedule if t.match_id is None)
    return Progress(len(schedule), done, flying, waiting)


def table_results(session: Session, final: Final) -> list[tuple[FinalTable, TableResult]]:
    """The done tables, each as a `TableResult` of entrant numbers (totals over its
    duplicate set, per hand of all its rotations)."""
    number_of = {e.bot_version_id: e.number for e in entrants(session, final.id)}
    scores = _table_scores(session, final.id)
    found = []
    for table in tables(session, final.id):
        entry = scores.get(table.number)
        if entry is None or entry[0] is not MatchStatus.DONE:
            continue
        _, hands, by_version = entry
        seats = [(number_of[v], float(s)) for v, s in by_version.items() if v in number_of]
        if len(seats) == TABLE:
            found.append(
                (
                    table,
                    TableResult(tuple(n for n, _ in seats), tuple(p for _, p in seats), hands),
                )
            )
    return found


def standings(session: Session, final: Final, *, bootstrap: int = 200) -> list[Standing]:
    """The final's order so far: the batch fit over its done tables (a round robin), or
    the knockout's places (stage reached, then points per hand at that stage's table)."""
    results = table_results(session, final)
    if not results:
        return []
    if final.format is FinalFormat.ROUND_ROBIN:
        try:
            return fit_standings([r for _, r in results], bootstrap=bootstrap, seed=final.id)
        except ValueError:
            return []
    best: dict[int, tuple[int, float, int]] = {}
    for table, result in results:
        for player, points in zip(result.players, result.points, strict=True):
            assert isinstance(player, int)
            best[player] = max(
                best.get(player, (-1, 0.0, 0)), (table.stage, -points / result.hands, 0)
            )
    counted = {p: sum(1 for _, r in results if p in r.players) for p in best}
    ordered = sorted(best, key=lambda p: (-best[p][0], -best[p][1], p))
    return [
        Standing(p, rank, -best[p][1], -best[p][1], -best[p][1], counted[p], rank, rank)
        for rank, p in enumerate(ordered, start=1)
    ]


def seat_balance(session: Session, final: Final) -> dict[str, Any]:
    """How often every ordered pair met at every relative seat in the done tables: the
    distinct counts (one value: balanced) and whether the full schedule is balanced."""
    done = [t.seats for t, _ in table_results(session, final)]
    schedule = [t.seats for t in tables(session, final.id)]
    players = len(entrants(session, final.id))
    counts = relative_seats(done)
    pairs = [
        counts.get((a, b, d), 0)
        for a in range(players)
        for b in range(players)
        if a != b
        for d in range(1, TABLE)
    ]
    return {
        "counts": sorted(set(pairs)),
        "done_balanced": bool(done) and is_balanced(done, players),
        "schedule_balanced": final.format is FinalFormat.ROUND_ROBIN
        and is_balanced(schedule, players),
    }


def _release(session: Session, final: Final, now: datetime) -> list[int]:
    """Make matches of the next unreleased tables, up to the worker share in flight."""
    schedule = tables(session, final.id)
    scores = _table_scores(session, final.id)
    retries: dict[str, int] = dict((final.design or {}).get("retries", {}))
    for table in schedule:  # void or failed: our fault; play the table again (bounded)
        entry = scores.get(table.number)
        failed = entry is not None and entry[0] in (MatchStatus.VOID, MatchStatus.FAILED)
        if failed and retries.get(str(table.number), 0) < RETRIES:
            retries[str(table.number)] = retries.get(str(table.number), 0) + 1
            table.match_id = None
    final.design = {**(final.design or {}), "retries": retries}
    in_flight = sum(
        1
        for t in schedule
        if t.match_id is not None
        and (t.number not in scores or scores[t.number][0] in IN_FLIGHT_MATCH_STATUSES)
    )
    free = final.worker_share - in_flight
    version_of = {e.number: e.bot_version_id for e in entrants(session, final.id)}
    released = []
    for table in schedule:
        if free <= 0:
            break
        if table.match_id is not None:
            continue
        match = Match(
            season_id=None,
            ruleset_id=final.ruleset_id,
            seed=table.seed,
            format=MatchFormat.DUPLICATE,
            status=MatchStatus.QUEUED,
            created_at=now,
            seats=[
                MatchSeat(seat=seat, bot_version_id=version_of[number])
                for seat, number in enumerate(table.seats)
            ],
        )
        session.add(match)
        session.flush()
        table.match_id = match.id
        released.append(match.id)
        free -= 1
    session.flush()
    return released


def _all_done(session: Session, final: Final) -> bool:
    schedule = tables(session, final.id)
    scores = _table_scores(session, final.id)
    return bool(schedule) and all(
        (t.number in scores and scores[t.number][0] is MatchStatus.DONE)
        or (
            t.number in scores
            and scores[t.number][0] in (MatchStatus.VOID, MatchStatus.FAILED)
            and (final.design or {}).get("retries", {}).get(str(t.number), 0) >= RETRIES
        )
        for t in schedule
    )


def _next_stage(session: Session, final: Final) -> bool:
    """Add the next knockout round or round-robin cycle when the last one is done;
    whether one was added."""
    schedule = tables(session, final.id)
    stage = max(t.stage for t in schedule)
    if final.format is FinalFormat.KNOCKOUT:
        results = [r for t, r in table_results(session, final) if t.stage == stage]
        if len(results) <= 1:
            return False
        going_on = next_round(
            [list(zip(r.players, r.points, strict=True)) for r in results]  # type: ignore[arg-type]
        )
        _add_tables(final, session, stage + 1, knockout_tables(going_on))
        return True
    max_cycles = int((final.design or {}).get("max_cycles", final.cycles))
    if stage + 1 >= max_cycles:
        return False
    order = standings(session, final)
    if order and all(s.tie_first == s.tie_last for s in order):
        return False  # every adjacent pair of intervals separated: long enough
    _add_tables(
        final, session, stage + 1, _cycle(final, stage + 1, len(entrants(session, final.id)))
    )
    final.cycles = stage + 2
    return True


def finish(session: Session, final: Final, now: datetime) -> None:
    """Freeze the final's standings into its report (the caller holds its lock)."""
    order = standings(session, final)
    number_of = {e.number: e for e in entrants(session, final.id)}
    final.report = {
        "method": "points per hand against the field (weighted least squares), 95 % "
        "bootstrap intervals over tables"
        if final.format is FinalFormat.ROUND_ROBIN
        else "knockout: the stage reached, then points per hand at that stage's table",
        "standings": [
            {
                "place": s.rank,
                "entrant": s.entrant,
                "bot_id": number_of[int(s.entrant)].bot_id,  # type: ignore[call-overload]
                "bot_version_id": number_of[int(s.entrant)].bot_version_id,  # type: ignore[call-overload]
                "points": s.points,
                "low": s.low,
                "high": s.high,
                "tables": s.tables,
                "tie_first": s.tie_first,
                "tie_last": s.tie_last,
            }
            for s in order
        ],
        "tied": tied_places(order),
        "balance": seat_balance(session, final),
    }
    final.status = FinalStatus.FINISHED
    final.finished_at = now


def tied_places(order: Sequence[Standing]) -> list[list[int]]:
    """The groups of places that could not be told apart, e.g. [[3, 4, 5]]."""
    groups = {(s.tie_first, s.tie_last) for s in order if s.tie_first != s.tie_last}
    return [list(range(a, b + 1)) for a, b in sorted(groups)]


@dataclasses.dataclass(frozen=True)
class FinalsReport:
    """What `advance_finals` did."""

    frozen: tuple[int, ...]
    finished: tuple[int, ...]
    released: tuple[int, ...]  # match ids to enqueue


def advance_final(session: Session, final_id: int, *, now: datetime | None = None) -> FinalsReport:
    """Freeze, extend, finish and release one final as due (its own transaction)."""
    when = now or utc_now()
    frozen: list[int] = []
    finished: list[int] = []
    released: list[int] = []
    with write_transaction(session):
        final = lock_final(session, final_id)
        if final.status is FinalStatus.SCHEDULED and final.freeze_at <= when:
            freeze(session, final, when)
            frozen.append(final.id)
        if final.status is FinalStatus.RUNNING:
            if _all_done(session, final) and not _next_stage(session, final):
                finish(session, final, when)
                finished.append(final.id)
            else:
                released.extend(_release(session, final, when))
    return FinalsReport(tuple(frozen), tuple(finished), tuple(released))


def advance_finals(session: Session, *, now: datetime | None = None) -> FinalsReport:
    """`advance_final` for every final not finished; what the beat calls each tick."""
    ids = list(
        session.scalars(
            select(Final.id).where(Final.status != FinalStatus.FINISHED).order_by(Final.id)
        )
    )
    session.rollback()
    frozen: list[int] = []
    finished: list[int] = []
    released: list[int] = []
    for final_id in ids:
        try:
            report = advance_final(session, final_id, now=now)
        except (FinalError, DesignError) as error:  # said on its page; tried again next tick
            session.rollback()
            with write_transaction(session):
                locked = lock_final(session, final_id)
                locked.report = {**(locked.report or {}), "error": str(error)}
            continue
        frozen += report.frozen
        finished += report.finished
        released += report.released
    return FinalsReport(tuple(frozen), tuple(finished), tuple(released))
