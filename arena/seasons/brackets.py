"""A knockout final's bracket: its rounds, each table's finalists, who went on, the winner.

Why its own module: the final's page showed a knockout as a list of places, which says who
won but not how (which table, which round, who went on from where). The bracket is read
from the schedule (`finals.tables`) and the done tables (`finals.table_results`), with the
same going-on rule the final plays by (`designs.next_round`: the two with the fewest points
per hand at each table, a tie to the better seed).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.store.models import Final, FinalFormat, FinalStatus, Match, MatchStatus

from .designs import TABLE
from .finals import table_results, tables

GOING_ON = 2
"""How many of a knockout table's four go on (`designs.next_round`)."""


@dataclasses.dataclass(frozen=True)
class Seat:
    """A finalist at a bracket's table: their points per hand once the table is done
    (fewer is better), and their place at it (1-4)."""

    entrant: int
    points: float | None = None
    place: int | None = None
    goes_on: bool = False
    """Among the two who go on to the next round (never at the Final)."""


@dataclasses.dataclass(frozen=True)
class BracketTable:
    """One table of a round: its number in the schedule, its match, how far it is
    (`waiting` to be released, `playing`, `done`, or the match's end otherwise:
    `failed`, `void`), its seats best first once done (seed order before)."""

    number: int
    match_id: int | None
    state: str
    seats: tuple[Seat, ...]


@dataclasses.dataclass(frozen=True)
class Round:
    """One round of the knockout: its name and its tables (none yet for a round still to
    be seated)."""

    stage: int
    name: str
    tables: tuple[BracketTable, ...]


@dataclasses.dataclass(frozen=True)
class Bracket:
    """Every round, first to last, and the winner (an entrant number) once the last table
    is done."""

    rounds: tuple[Round, ...]
    winner: int | None


def rounds_of(finalists: int) -> int:
    """How many rounds a knockout of `finalists` plays (tables of four, two go on).

    >>> [rounds_of(n) for n in (4, 8, 16, 64)]
    [1, 2, 3, 5]
    """
    return int(math.log2(finalists // TABLE)) + 1


def round_name(stage: int, rounds: int) -> str:
    """A round's name: the Final, the Semi-finals before it, Round N before those.

    >>> [round_name(s, 3) for s in range(3)]
    ['Round 1', 'Semi-finals', 'Final']
    """
    if stage == rounds - 1:
        return "Final"
    if stage == rounds - 2:
        return "Semi-finals"
    return f"Round {stage + 1}"


def bracket(session: Session, final: Final, finalists: int) -> Bracket | None:
    """The bracket of a knockout final of `finalists` (None for a round robin)."""
    if final.format is not FinalFormat.KNOCKOUT:
        return None
    schedule = tables(session, final.id)
    done = {table.number: result for table, result in table_results(session, final)}
    statuses = dict(
        session.execute(
            select(Match.id, Match.status).where(
                Match.id.in_([t.match_id for t in schedule if t.match_id is not None])
            )
        ).all()
    )
    count = rounds_of(finalists)
    by_stage: dict[int, list[BracketTable]] = {stage: [] for stage in range(count)}
    for table in schedule:
        result = done.get(table.number)
        if result is not None:
            pairs = zip(result.players, result.points, strict=True)  # entrant numbers
            ranked = sorted(
                ((p, points) for p, points in pairs if isinstance(p, int)),
                key=lambda pp: (pp[1], pp[0]),
            )
            seats: Sequence[Seat] = [
                Seat(
                    player,
                    points / result.hands,
                    place,
                    goes_on=table.stage < count - 1 and place <= GOING_ON,
                )
                for place, (player, points) in enumerate(ranked, start=1)
            ]
            state = "done"
        else:
            seats = [Seat(int(player)) for player in table.seats]
            status = statuses.get(table.match_id) if table.match_id is not None else None
            state = (
                "waiting"
                if status is None
                else "playing"
                if status in (MatchStatus.QUEUED, MatchStatus.RUNNING)
                else status.value
            )
        by_stage.setdefault(table.stage, []).append(
            BracketTable(table.number, table.match_id, state, tuple(seats))
        )
    rounds = tuple(
        Round(stage, round_name(stage, count), tuple(by_stage[stage])) for stage in sorted(by_stage)
    )
    last = rounds[-1].tables if rounds else ()
    winner = None
    if final.status is FinalStatus.FINISHED and len(last) == 1 and last[0].state == "done":
        winner = last[0].seats[0].entrant
    return Bracket(rounds, winner)
