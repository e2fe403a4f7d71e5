"""The schema: SQLAlchemy 2.0 typed models for users, bots, seasons, matches and ratings.

Alembic migrations (`arena/store/migrations/`) create exactly these tables; a test
compares the two on SQLite and on PostgreSQL. Constraint names follow one naming
convention so migrations can refer to them on both. Unbounded relations (a season's
matches, a bot's versions) are write-only collections: they are queried, never loaded
whole.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Double,
    Enum,
    ForeignKey,
    Index,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    WriteOnlyMapped,
    mapped_column,
    relationship,
    validates,
)

from arena.engine import Rules

from .types import UTCDateTime, utc_now

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

SHA256_HEX = 64


class Base(DeclarativeBase):
    """Every model; timestamps are timezone-aware (`UTCDateTime`)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
    }


def _enum(cls: type[StrEnum], name: str) -> Enum:
    """A portable enum: VARCHAR plus a CHECK constraint (no PostgreSQL enum type to migrate)."""
    return Enum(
        cls,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=16,
        values_callable=lambda members: [m.value for m in members],
    )


class VersionStatus(StrEnum):
    """Where an uploaded bot version is in its life."""

    PENDING = "pending"  # uploaded, waiting for validation
    VALIDATING = "validating"  # a worker is validating it
    READY = "ready"  # may be entered into seasons and scheduled
    REJECTED = "rejected"  # failed validation (reason and the bot's stderr kept)
    DISABLED = "disabled"  # taken out of play by its owner or an admin


class SeasonStatus(StrEnum):
    """A season's lifecycle: scheduled → running → finished (results frozen)."""

    SCHEDULED = "scheduled"
    RUNNING = "running"
    FINISHED = "finished"


class MatchStatus(StrEnum):
    """A match's lifecycle: queued → running → done | void | failed."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"  # recorded and (in a running season) rated
    VOID = "void"  # stored, never rated (e.g. the house's fault, or the season ended)
    FAILED = "failed"  # our error: no result


TERMINAL_MATCH_STATUSES = frozenset({MatchStatus.DONE, MatchStatus.VOID, MatchStatus.FAILED})
IN_FLIGHT_MATCH_STATUSES = frozenset({MatchStatus.QUEUED, MatchStatus.RUNNING})


class MatchFormat(StrEnum):
    """One game, or a duplicate set: the same seed played once per seat rotation, as one
    match whose result is each entrant's total over the set (`arena.match.runner`)."""

    SINGLE = "single"
    DUPLICATE = "duplicate"


# -- accounts ----------------------------------------------------------------------------


class User(Base):
    """A contestant or an admin; the password is kept only as an argon2id hash."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(default=False)
    session_version: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    """Bumped to end every session of the user (sign-out, a new password, an admin's
    "sign out everywhere"): a session cookie carries the version it was made under."""
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    bots: Mapped[list[Bot]] = relationship(back_populates="owner")
    tokens: WriteOnlyMapped[ApiToken] = relationship(back_populates="user")


class ApiToken(Base):
    """An API token, stored as the SHA-256 of its text (the text is shown once, at issue)."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(back_populates="tokens")


# -- bots --------------------------------------------------------------------------------


class Bot(Base):
    """A named bot of one owner; its code lives in immutable versions."""

    __tablename__ = "bots"
    __table_args__ = (UniqueConstraint("owner_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(64))
    is_house: Mapped[bool] = mapped_column(default=False)  # a seat-filler: plays, never ranked
    # The platform's own code (a house manifest runs in-process, unsandboxed): the house
    # bots and the demo players. Set only by the seeding code, never by an upload.
    trusted: Mapped[bool] = mapped_column(default=False, server_default=false())
    pinned_number: Mapped[int | None]  # the version that plays; None: the newest ready one
    # The owner's consent to publish this bot's notes in the open data (docs/open-data.md)
    notes_public: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    owner: Mapped[User] = relationship(back_populates="bots")
    versions: WriteOnlyMapped[BotVersion] = relationship(
        back_populates="bot", order_by="BotVersion.number"
    )

    @property
    def is_demo(self) -> bool:
        """A demo player: the platform's own code entered as a ranked contestant (the demo
        season's), unlike a house bot, which only fills seats."""
        return self.trusted and not self.is_house


class Archive(Base):
    """An uploaded archive, content-addressed: its key is the SHA-256 of its bytes."""

    __tablename__ = "archives"
    __table_args__ = (CheckConstraint("size >= 0", name="size_not_negative"),)

    sha256: Mapped[str] = mapped_column(String(SHA256_HEX), primary_key=True)
    size: Mapped[int]
    content: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class BotVersion(Base):
    """One immutable upload of a bot: number, archive hash, and its validation status."""

    __tablename__ = "bot_versions"
    __table_args__ = (
        UniqueConstraint("bot_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"))
    number: Mapped[int]
    archive_sha256: Mapped[str] = mapped_column(ForeignKey("archives.sha256"), index=True)
    status: Mapped[VersionStatus] = mapped_column(
        _enum(VersionStatus, "version_status"), default=VersionStatus.PENDING
    )
    status_reason: Mapped[str | None] = mapped_column(Text)
    status_detail: Mapped[str | None] = mapped_column(Text)  # e.g. the bot's own stderr
    join_default_season: Mapped[bool] = mapped_column(default=True)  # unless opted out at upload
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    status_changed_at: Mapped[datetime] = mapped_column(default=utc_now)

    bot: Mapped[Bot] = relationship(back_populates="versions")
    archive: Mapped[Archive] = relationship(lazy="raise")

    @validates("bot_id", "number", "archive_sha256")
    def _keep_immutable(self, key: str, value: Any) -> Any:
        current = self.__dict__.get(key)
        if current is not None and current != value:
            raise ValueError(f"a bot version is immutable ({key}): upload a new version instead")
        return value


# -- seasons -----------------------------------------------------------------------------


class Ruleset(Base):
    """A full `Rules` value, stored once per distinct value (keyed by its canonical hash)."""

    __tablename__ = "rulesets"

    id: Mapped[int] = mapped_column(primary_key=True)
    sha256: Mapped[str] = mapped_column(String(SHA256_HEX), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    @property
    def rules(self) -> Rules:
        """The `Rules` value (RulesError if the stored value no longer validates)."""
        return Rules.from_dict(self.data)


class Season(Base):
    """A ladder with one ruleset, a start, an end, a round cadence and matchmaking settings."""

    __tablename__ = "seasons"
    __table_args__ = (
        CheckConstraint("ends_at > starts_at", name="ends_after_start"),
        CheckConstraint("cadence_seconds > 0", name="cadence_positive"),
        CheckConstraint("players >= 2", name="players_at_least_two"),
        Index(None, "status", "starts_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    ruleset_id: Mapped[int] = mapped_column(ForeignKey("rulesets.id"), index=True)
    players: Mapped[int] = mapped_column(SmallInteger)
    starts_at: Mapped[datetime]
    ends_at: Mapped[datetime]
    cadence_seconds: Mapped[int]
    matchmaking: Mapped[dict[str, Any]]
    status: Mapped[SeasonStatus] = mapped_column(
        _enum(SeasonStatus, "season_status"), default=SeasonStatus.SCHEDULED
    )
    is_default: Mapped[bool] = mapped_column(default=False)  # where first bots go (0003)
    template_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"), index=True)
    round_number: Mapped[int] = mapped_column(default=0)
    last_round_at: Mapped[datetime | None]
    rated_matches: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    # frozen at the finish: how the final order was fitted, and what luck the format removed
    final_report: Mapped[dict[str, Any] | None]
    # the licence its games are published under (docs/open-data.md); an SPDX identifier
    data_licence: Mapped[str] = mapped_column(
        String(32), default="CC-BY-4.0", server_default="CC-BY-4.0"
    )
    # anyone signed in may ask for the analysis of its matches, not only their owners (0013)
    public_analyses: Mapped[bool] = mapped_column(default=False, server_default=false())

    ruleset: Mapped[Ruleset] = relationship()
    template: Mapped[Season | None] = relationship(remote_side="Season.id")
    entries: WriteOnlyMapped[SeasonEntry] = relationship(back_populates="season")
    matches: WriteOnlyMapped[Match] = relationship(back_populates="season")


class SeasonEntry(Base):
    """A bot version entered in a season; final place and Elo frozen when it finishes.

    A bot is entered, not a version: its active entry is the version playing for it, and
    a newer ready version takes that place (`arena.seasons.entries`); the older entry
    stays, inactive, with its games and history.
    """

    __tablename__ = "season_entries"
    __table_args__ = (UniqueConstraint("season_id", "bot_version_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    bot_version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    active: Mapped[bool] = mapped_column(default=True)
    joined_at: Mapped[datetime] = mapped_column(default=utc_now)
    final_rank: Mapped[int | None]
    final_elo: Mapped[float | None] = mapped_column(Double)
    final_games: Mapped[int | None]
    # the batch fit's points per hand against the field, its 95 % interval, its tie group
    final_points: Mapped[float | None] = mapped_column(Double)
    final_low: Mapped[float | None] = mapped_column(Double)
    final_high: Mapped[float | None] = mapped_column(Double)
    final_tie_first: Mapped[int | None]
    final_tie_last: Mapped[int | None]

    season: Mapped[Season] = relationship(back_populates="entries")
    bot_version: Mapped[BotVersion] = relationship()


# -- matches -----------------------------------------------------------------------------


class Match(Base):
    """One game at one table: its rules, seed, format, status and timings."""

    __tablename__ = "matches"
    __table_args__ = (
        UniqueConstraint("season_id", "rating_seq"),
        UniqueConstraint("season_id", "round", "table_number"),
        CheckConstraint("seed >= 0", name="seed_not_negative"),
        Index(None, "season_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"))
    ruleset_id: Mapped[int] = mapped_column(ForeignKey("rulesets.id"), index=True)
    round: Mapped[int | None]
    table_number: Mapped[int | None]  # the table's place in its round (0-based)
    seed: Mapped[int] = mapped_column(BigInteger)
    format: Mapped[MatchFormat] = mapped_column(
        _enum(MatchFormat, "match_format"), default=MatchFormat.SINGLE
    )
    status: Mapped[MatchStatus] = mapped_column(
        _enum(MatchStatus, "match_status"), default=MatchStatus.QUEUED
    )
    status_reason: Mapped[str | None] = mapped_column(Text)
    hands_played: Mapped[int | None]
    rating_seq: Mapped[int | None]  # the order in which the season's ratings applied it
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    recorded_at: Mapped[datetime | None]

    season: Mapped[Season | None] = relationship(back_populates="matches")
    ruleset: Mapped[Ruleset] = relationship()
    seats: Mapped[list[MatchSeat]] = relationship(
        back_populates="match", order_by="MatchSeat.seat", cascade="all, delete-orphan"
    )
    replay: Mapped[Replay | None] = relationship(back_populates="match")


class MatchSeat(Base):
    """A bot version at a seat of a match, with its result once recorded.

    In a duplicate set `seat` is the entrant's seat in the first rotation (entrant b sits
    at seat (b + r) mod n in rotation r) and the result is its total over the set.

    Keyed by (match, seat): a round of a large season writes tens of thousands of seats,
    and a surrogate id would only add an index to maintain.
    """

    __tablename__ = "match_seats"
    __table_args__ = (
        UniqueConstraint("match_id", "bot_version_id"),
        CheckConstraint("seat >= 0", name="seat_not_negative"),
        CheckConstraint("rank IS NULL OR rank >= 1", name="rank_positive"),
        CheckConstraint("faults >= 0", name="faults_not_negative"),
    )

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    bot_version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    score: Mapped[int | None]
    rank: Mapped[int | None] = mapped_column(SmallInteger)
    faults: Mapped[int] = mapped_column(default=0)
    disqualified: Mapped[bool] = mapped_column(default=False)
    moons: Mapped[int] = mapped_column(SmallInteger, default=0)
    hand_points: Mapped[list[int] | None] = mapped_column(JSON)

    match: Mapped[Match] = relationship(back_populates="seats")
    bot_version: Mapped[BotVersion] = relationship()


class Replay(Base):
    """A match's replay: the compressed JSON document as the runner wrote it, and its hash."""

    __tablename__ = "replays"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), unique=True)
    sha256: Mapped[str] = mapped_column(String(SHA256_HEX))
    encoding: Mapped[str] = mapped_column(String(16))
    size: Mapped[int]
    content: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    match: Mapped[Match] = relationship(back_populates="replay")


# -- ratings -----------------------------------------------------------------------------


class Rating(Base):
    """A bot version's rating in a season: Elo, games, provisional flag, and its certainty."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("season_id", "bot_version_id"),
        CheckConstraint("games >= 0", name="games_not_negative"),
        CheckConstraint("sigma >= 0", name="sigma_not_negative"),
        Index(None, "season_id", "elo", "bot_version_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    bot_version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"), index=True)
    elo: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(default=0)
    provisional: Mapped[bool] = mapped_column(default=True)
    mu: Mapped[float] = mapped_column(Double)  # Plackett-Luce skill (arena.ratings.uncertainty)
    sigma: Mapped[float] = mapped_column(Double)
    last_match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"))
    # A version that took its bot's place starts from the previous version's rating:
    # which version, and the Elo it started from (what `recompute_ratings` replays from).
    inherited_from_id: Mapped[int | None] = mapped_column(ForeignKey("bot_versions.id"))
    start_elo: Mapped[float | None] = mapped_column(Double)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now)

    bot_version: Mapped[BotVersion] = relationship(foreign_keys=[bot_version_id])


class RatingChange(Base):
    """One bot version's rating before and after one match (the rating history)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("match_id", "bot_version_id"),
        Index(None, "season_id", "bot_version_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    bot_version_id: Mapped[int] = mapped_column(ForeignKey("bot_versions.id"))
    elo_before: Mapped[float] = mapped_column(Double)
    elo_after: Mapped[float] = mapped_column(Double)
    mu_after: Mapped[float] = mapped_column(Double)
    sigma_after: Mapped[float] = mapped_column(Double)
    games_after: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


# -- open data ---------------------------------------------------------------------------


class DataExport(Base):
    """A dump of a season's rated matches (or one month of them) written to the data
    folder: its files with their sizes and SHA-256, its schema version and licence
    (`arena.data.export`, docs/open-data.md)."""

    __tablename__ = "data_exports"
    __table_args__ = (UniqueConstraint("season_id", "period"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    period: Mapped[str] = mapped_column(String(7))  # "" for the whole season, else "YYYY-MM"
    schema_version: Mapped[int]
    licence: Mapped[str] = mapped_column(String(32))
    folder: Mapped[str] = mapped_column(String(255))  # relative to the open-data folder
    matches: Mapped[int]
    hands: Mapped[int]
    files: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    season: Mapped[Season] = relationship()


# -- leagues and finals (issue 35) -------------------------------------------------------


class SeasonLeagues(Base):
    """A season run as leagues: its bosses (house bot kinds, the lowest league's first)
    and the promotion rule's minimum games (`arena.seasons.leagues`)."""

    __tablename__ = "season_leagues"
    __table_args__ = (CheckConstraint("min_games >= 2", name="min_games_two"),)

    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), primary_key=True)
    bosses: Mapped[list[str]] = mapped_column(JSON)
    min_games: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class LeaguePlace(Base):
    """A bot's stay in one league of a season: when it got there, and when and on what
    evidence it was promoted out (None while it is still there)."""

    __tablename__ = "league_places"
    __table_args__ = (
        UniqueConstraint("season_id", "bot_id", "league"),
        CheckConstraint("league >= 0", name="league_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"))
    league: Mapped[int] = mapped_column(SmallInteger)
    reached_at: Mapped[datetime] = mapped_column(default=utc_now)
    promoted_at: Mapped[datetime | None]
    evidence: Mapped[dict[str, Any] | None]


class FinalFormat(StrEnum):
    """A balanced round robin of duplicate sets, or a knockout for exhibitions."""

    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"


class FinalStatus(StrEnum):
    """scheduled (versions not yet frozen) → running → finished."""

    SCHEDULED = "scheduled"
    RUNNING = "running"
    FINISHED = "finished"


class Final(Base):
    """A final of frozen versions: its format, deadline, worker share and schedule."""

    __tablename__ = "finals"
    __table_args__ = (
        CheckConstraint("worker_share >= 1", name="worker_share_positive"),
        CheckConstraint("cycles >= 1", name="cycles_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"))
    ruleset_id: Mapped[int] = mapped_column(ForeignKey("rulesets.id"))
    players: Mapped[int] = mapped_column(SmallInteger)
    format: Mapped[FinalFormat] = mapped_column(_enum(FinalFormat, "final_format"))
    status: Mapped[FinalStatus] = mapped_column(
        _enum(FinalStatus, "final_status"), default=FinalStatus.SCHEDULED
    )
    freeze_at: Mapped[datetime]
    worker_share: Mapped[int]  # at most this many of its matches queued or running at once
    cycles: Mapped[int]  # how many times the balanced design is played
    design: Mapped[dict[str, Any] | None]
    report: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    ruleset: Mapped[Ruleset] = relationship()


class FinalEntrant(Base):
    """A finalist: its bot, and the version frozen for it at the deadline."""

    __tablename__ = "final_entrants"
    __table_args__ = (UniqueConstraint("final_id", "bot_id"),)

    final_id: Mapped[int] = mapped_column(ForeignKey("finals.id"), primary_key=True)
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    bot_id: Mapped[int] = mapped_column(ForeignKey("bots.id"))
    bot_version_id: Mapped[int | None] = mapped_column(ForeignKey("bot_versions.id"))


class FinalTable(Base):
    """One table of a final's schedule: its finalists in seat order (entrant numbers), its
    seed, and its match once released."""

    __tablename__ = "final_tables"

    final_id: Mapped[int] = mapped_column(ForeignKey("finals.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    stage: Mapped[int]  # the design's cycle, or the knockout's round
    seats: Mapped[list[int]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), unique=True)


class AnalysisStatus(StrEnum):
    """Where an analysis of a match is (issue 33)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class MatchAnalysis(Base):
    """One analysis of a match at one depth, asked by a user: its progress, then its result
    (`arena.analysis.MatchAnalysis.to_dict`). The row is the cache: one per match and depth
    (samples, playouts, seed, and whether it holds the hindsight view: migration 0014)."""

    __tablename__ = "match_analyses"
    __table_args__ = (
        UniqueConstraint("match_id", "samples", "playouts", "seed", "hindsight"),
        Index(None, "status", "created_at"),
        Index(None, "requested_by", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    samples: Mapped[int]
    playouts: Mapped[int]
    seed: Mapped[int]
    hindsight: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the analysis also judges each play with all hands known
    (`arena.analysis.Settings.hindsight`)."""
    status: Mapped[AnalysisStatus] = mapped_column(
        _enum(AnalysisStatus, "analysis_status"), default=AnalysisStatus.QUEUED
    )
    requested_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    done: Mapped[int] = mapped_column(default=0)
    total: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
