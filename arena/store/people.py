"""Human tables: a person's seat at a match, asked its decisions through the store (issue 34).

A human table is an ordinary unrated match (no season) whose seat `HumanTable.seat` is
held by the house's `person` bot version: a seat-filler that stands for whichever person
sits there, so the match's seats, result and replay are stored as every match's are. The
person is the table's `user_id`. The worker plays the match (workers/matches.py) with a
person's seat (arena/match/human.py) whose desk is `TableDesk`: each moment of the seat's
game (a deal, a decision asked, a finished trick, a hand's end) is a `TableMoment` row
holding only what that seat may see; a decision's row carries its deadline, and the site
writes the person's answer into it (`answer_moment`), which the worker reads.

The worker keeps the clock (the row's deadline is what the person is shown); an answer
that reaches the row after the worker gave up waiting is never read: the runner has played
the default by then.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Float,
    ForeignKey,
    SmallInteger,
    String,
    UniqueConstraint,
    delete,
    func,
    select,
)
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column, sessionmaker

from arena.engine import Rules
from arena.ratings.elo import EloRating, rate_table

from .bots import HOUSE_USERNAME, add_version, create_bot, set_version_status
from .database import write_transaction
from .models import (
    IN_FLIGHT_MATCH_STATUSES,
    Base,
    Bot,
    BotVersion,
    Match,
    MatchFormat,
    MatchSeat,
    MatchStatus,
    User,
    VersionStatus,
)
from .rulesets import store_ruleset
from .types import utc_now

PERSON_BOT: Final = "person"
"""The house's bot that holds a person's seat at every human table."""
PERSON_MANIFEST_FORMAT: Final = "arena-person/1"
HUMAN_TABLE_REASON: Final = "human table"
"""The status reason of a human table's match while it is queued."""
MIN_SECONDS: Final = 5.0
MAX_SECONDS: Final = 120.0
"""The bounds of a table's clock per decision, in seconds."""
MAX_HANDS: Final = 5
"""The most hands a table plays: a table must end within the workers' match time limit
(ARENA_MATCH_SOFT_LIMIT, 25 minutes by default), and a hand of 13 tricks and a pass asks
the person 14 to 17 decisions."""


class TableError(ValueError):
    """A table that cannot be made or an answer that cannot be taken; the message says why."""


class HumanTable(Base):
    """A person's seat at a match."""

    __tablename__ = "human_tables"
    __table_args__ = (CheckConstraint("per_decision > 0", name="per_decision_positive"),)

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    per_decision: Mapped[float] = mapped_column(Float)
    show_after_hand: Mapped[bool]
    """Whether spectators may see every hand's cards once it is over (the table's form,
    off by default): the live stream (web/live.py, `Cut`) then shows them in each hand's
    `hand_end` event; off, a human table's hidden cards stay hidden from spectators until
    the match is over, when its replay shows them, as any match's."""
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class TableMoment(Base):
    """One moment of the person's game, as the seat saw it; a decision's has its deadline
    and, once the person answered, the answer."""

    __tablename__ = "table_moments"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("human_tables.match_id", ondelete="CASCADE"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    deadline: Mapped[datetime | None]
    answer: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    answered_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


def person_manifest() -> bytes:
    """The archive of the person bot's version: it runs nothing (the worker seats a person)."""
    return json.dumps({"format": PERSON_MANIFEST_FORMAT}, sort_keys=True).encode()


def person_version(session: Session) -> BotVersion:
    """The ready version of the house's person bot, created if missing (flushes)."""
    house = session.scalars(select(User).where(User.username == HOUSE_USERNAME)).one_or_none()
    if house is None:
        from .accounts import create_user

        house = create_user(session, HOUSE_USERNAME, None)
    bot = session.scalars(
        select(Bot).where(Bot.owner_id == house.id, Bot.name == PERSON_BOT)
    ).one_or_none()
    if bot is None:
        bot = create_bot(session, house, PERSON_BOT, is_house=True, trusted=True)
    version = session.scalars(
        select(BotVersion).where(BotVersion.bot_id == bot.id, BotVersion.number == 1)
    ).one_or_none()
    if version is None:
        version = add_version(session, bot, person_manifest())
        set_version_status(session, version, VersionStatus.VALIDATING)
        set_version_status(session, version, VersionStatus.READY, reason="a person's seat")
    return version


def create_table(
    session: Session,
    person: User,
    opponents: Sequence[BotVersion],
    rules: Rules,
    *,
    seat: int = 0,
    per_decision: float = 60.0,
    show_after_hand: bool = False,
    seed: int | None = None,
) -> Match:
    """A queued, unrated match with `person` at `seat` and `opponents` in the other seats
    in order (flushes).

    Raises TableError when an opponent is not ready or sits twice, the table is the wrong
    size for the rules, the seat is not one of the table's, the clock is out of bounds, or
    the person has a table queued or in play already (one at a time: a table holds a
    worker for as long as it lasts).
    """
    if len(opponents) != rules.players - 1:
        raise TableError(
            f"{rules.name} with {rules.players} players needs {rules.players - 1} bots, "
            f"not {len(opponents)}"
        )
    if not 0 <= seat < rules.players:
        raise TableError(f"seat {seat} is not a seat of a table of {rules.players}")
    if not MIN_SECONDS <= per_decision <= MAX_SECONDS:
        raise TableError(
            f"a decision's clock is {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds, "
            f"not {per_decision:g}"
        )
    for version in opponents:
        if version.status is not VersionStatus.READY:
            raise TableError(f"a bot version at the table is {version.status.value}, not ready")
    if len({version.id for version in opponents}) != len(opponents):
        raise TableError("a bot version can sit at the table only once")
    playing = session.scalar(
        select(HumanTable.match_id)
        .join(Match, Match.id == HumanTable.match_id)
        .where(HumanTable.user_id == person.id, Match.status.in_(IN_FLIGHT_MATCH_STATUSES))
        .limit(1)
    )
    if playing is not None:
        raise TableError(f"you are at table {playing} already: finish it first")
    mine = person_version(session)
    if any(version.id == mine.id for version in opponents):
        raise TableError("a person's seat is not a bot")
    table = list(opponents)
    table.insert(seat, mine)
    match = Match(
        season_id=None,
        ruleset=store_ruleset(session, rules),
        seed=secrets.randbits(63) if seed is None else seed,
        format=MatchFormat.SINGLE,
        status=MatchStatus.QUEUED,
        status_reason=HUMAN_TABLE_REASON,
    )
    match.seats = [
        MatchSeat(seat=index, bot_version_id=version.id) for index, version in enumerate(table)
    ]
    session.add(match)
    session.flush()
    session.add(
        HumanTable(
            match_id=match.id,
            user_id=person.id,
            seat=seat,
            per_decision=per_decision,
            show_after_hand=show_after_hand,
        )
    )
    session.flush()
    return match


def human_table(session: Session, match_id: int) -> HumanTable | None:
    """The human table of match `match_id`, if it is one."""
    return session.get(HumanTable, match_id)


def moments_after(session: Session, match_id: int, after: int = 0) -> list[TableMoment]:
    """The table's moments numbered above `after`, in order."""
    return list(
        session.scalars(
            select(TableMoment)
            .where(TableMoment.match_id == match_id, TableMoment.number > after)
            .order_by(TableMoment.number)
        )
    )


def latest_moment(session: Session, match_id: int) -> TableMoment | None:
    """The table's last moment, if any."""
    return session.scalars(
        select(TableMoment)
        .where(TableMoment.match_id == match_id)
        .order_by(TableMoment.number.desc())
        .limit(1)
    ).first()


def answer_moment(
    session: Session, match_id: int, number: int, answer: dict[str, Any], *, now: datetime
) -> None:
    """Write the person's `answer` into decision moment `number` (its own transaction).

    Raises TableError when that moment is not a decision still waiting: already answered,
    past its deadline, or not the table's last moment (the game went on without it).
    """
    with write_transaction(session):
        moment = session.scalars(
            select(TableMoment)
            .where(TableMoment.match_id == match_id, TableMoment.number == number)
            .with_for_update()
        ).one_or_none()
        if moment is None or moment.kind != "ask":
            raise TableError(f"moment {number} is not a decision of this table")
        if moment.answer is not None:
            raise TableError("this decision is answered already")
        if moment.deadline is not None and now > moment.deadline:
            raise TableError("this decision's clock ran out: the default was played")
        moment.answer = answer
        moment.answered_at = now


@dataclasses.dataclass(frozen=True)
class TableLine:
    """One of a person's tables, for their page."""

    match_id: int
    status: MatchStatus
    seat: int
    score: int | None
    rank: int | None
    players: int
    created_at: datetime
    finished_at: datetime | None


def tables_of(session: Session, user_id: int, limit: int = 50) -> list[TableLine]:
    """A person's tables, newest first, with their score and place once recorded."""
    every = aliased(MatchSeat)
    players = (
        select(func.count())
        .select_from(every)
        .where(every.match_id == HumanTable.match_id)
        .scalar_subquery()
    )
    rows = session.execute(
        select(
            HumanTable.match_id,
            Match.status,
            HumanTable.seat,
            MatchSeat.score,
            MatchSeat.rank,
            players,
            HumanTable.created_at,
            Match.finished_at,
        )
        .join(Match, Match.id == HumanTable.match_id)
        .join(
            MatchSeat,
            (MatchSeat.match_id == HumanTable.match_id) & (MatchSeat.seat == HumanTable.seat),
        )
        .where(HumanTable.user_id == user_id)
        .order_by(HumanTable.match_id.desc())
        .limit(limit)
    ).all()
    return [TableLine(*row) for row in rows]


class TableDesk:
    """The worker's desk for a person's seat (arena.match.human.Desk): moments written to
    and answers read from `table_moments`, each in its own short transaction."""

    def __init__(self, sessions: sessionmaker[Session], match_id: int) -> None:
        self.sessions = sessions
        self.match_id = match_id
        self.number = 0

    def clear(self) -> None:
        """Forget an earlier run's moments (the match starts again), numbering the new
        ones after them: a page that saw moment N never takes a new moment N for one it
        answered."""
        with self.sessions() as session, write_transaction(session):
            last = session.scalar(
                select(func.max(TableMoment.number)).where(TableMoment.match_id == self.match_id)
            )
            session.execute(delete(TableMoment).where(TableMoment.match_id == self.match_id))
        self.number = int(last or 0)

    def _write(self, kind: str, payload: dict[str, Any], deadline: datetime | None) -> int:
        self.number += 1
        with self.sessions() as session, write_transaction(session):
            session.add(
                TableMoment(
                    match_id=self.match_id,
                    number=self.number,
                    kind=kind,
                    payload=payload,
                    deadline=deadline,
                )
            )
        return self.number

    def tell(self, kind: str, payload: dict[str, Any]) -> int:
        """Record a moment of the game."""
        return self._write(kind, payload, None)

    def ask(self, payload: dict[str, Any], deadline: datetime) -> int:
        """Record a decision for the person to answer by `deadline`."""
        return self._write("ask", payload, deadline)

    def answer(self, number: int) -> tuple[bool, Any]:
        """(True, answer) once the site wrote the person's answer to moment `number`."""
        with self.sessions() as session:
            answer = session.scalar(
                select(TableMoment.answer).where(
                    TableMoment.match_id == self.match_id, TableMoment.number == number
                )
            )
            session.rollback()
        return (answer is not None, answer)


@dataclasses.dataclass(frozen=True)
class HumanLadderRow:
    """A person on the human ladder: their Elo against the bots they sat with."""

    user_id: int
    username: str
    elo: float
    games: int
    wins: int
    """Tables where they finished first (alone or shared)."""


def human_ladder(session: Session) -> list[HumanLadderRow]:
    """The human ladder: every recorded human table in the order it finished, rated by Elo
    (arena/ratings/elo.py, `rate_table`) among its person and its bots, whose ratings here
    are their own human-ladder ratings, never their seasons' (ends the read transaction)."""
    rows = session.execute(
        select(HumanTable.match_id, HumanTable.user_id, HumanTable.seat, User.username)
        .join(Match, Match.id == HumanTable.match_id)
        .join(User, User.id == HumanTable.user_id)
        .where(Match.status == MatchStatus.DONE)
        .order_by(Match.finished_at, Match.id)
    ).all()
    seats: dict[int, list[tuple[int, int, int | None]]] = {}
    if rows:
        for match_id, seat, version_id, rank in session.execute(
            select(MatchSeat.match_id, MatchSeat.seat, MatchSeat.bot_version_id, MatchSeat.rank)
            .where(MatchSeat.match_id.in_([row.match_id for row in rows]))
            .order_by(MatchSeat.match_id, MatchSeat.seat)
        ):
            seats.setdefault(match_id, []).append((seat, version_id, rank))
    session.rollback()
    ratings: dict[tuple[str, int], EloRating] = {}
    names: dict[int, str] = {}
    wins: dict[int, int] = {}
    for match_id, user_id, person_seat, username in rows:
        table = seats.get(match_id, [])
        if len(table) < 2 or any(rank is None for _, _, rank in table):
            continue
        keys = [("person", user_id) if s == person_seat else ("bot", v) for s, v, _ in table]
        places = [int(rank or 0) for _, _, rank in table]
        rated = rate_table([ratings.get(key, EloRating()) for key in keys], places)
        ratings.update(zip(keys, rated, strict=True))
        names[user_id] = username
        mine = places[[s for s, _, _ in table].index(person_seat)]
        wins[user_id] = wins.get(user_id, 0) + (mine == 1)
    people = [
        HumanLadderRow(key, names[key], rating.elo, rating.games, wins.get(key, 0))
        for (kind, key), rating in ratings.items()
        if kind == "person"
    ]
    return sorted(people, key=lambda row: (-row.elo, row.username))
