"""What one match costs a worker: four sandboxed starter bots against four in-process house bots.

`measure_match_cost` plays the same kind of match (rules, hands) through the worker's
own task body, `execute_match`, in this process: once with four uploads of one of the SDK's
starter bots (each started in the sandbox), once with four house bots of the same kind
(in-process), alternating, in one scratch database. Each figure is core-seconds from the
kernel's accounting: this process's `getrusage` over the whole task (loading, seats,
runner, live events, recording) plus, for the sandboxed seats, their cgroups
(`MatchAccount`). `arena bench sandbox --match-hands N` prints it.
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import tempfile
from collections.abc import Callable
from datetime import timedelta
from importlib import resources
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.engine import preset
from arena.seasons import MatchmakingSettings, create_season, enter_season, schedule_round
from arena.seasons import start_season as start
from arena.store import migrate
from arena.store.accounts import create_user
from arena.store.bots import add_version, create_bot, ensure_house_bots, read_house_manifest
from arena.store.bots import archive_content as stored_archive
from arena.store.database import write_transaction
from arena.store.models import BotVersion, MatchSeat, VersionStatus
from arena.store.types import utc_now

from . import context
from .accounting import self_cpu_seconds
from .app import app, configure
from .config import Settings

KINDS = ("random", "heuristic")
"""The SDK's starter bots (``hearts_bot/starters/<kind>_bot.py``) that have a house twin."""


@dataclasses.dataclass(frozen=True)
class MatchCost:
    """Core-seconds of one match through `execute_match` (medians over `repeats`, with
    the lowest and highest)."""

    hands: int | None
    """Hands per match (None: the standard game to 100)."""
    sandboxed: float
    sandboxed_range: tuple[float, float]
    sandboxed_parts: dict[str, float]
    """The sandboxed match's `MatchAccount` (median per part)."""
    in_process: float
    in_process_range: tuple[float, float]
    repeats: int

    @property
    def ratio(self) -> float:
        """Sandboxed over in-process."""
        return self.sandboxed / self.in_process


def _starter_source(kind: str) -> bytes:
    return resources.files("hearts_bot").joinpath(f"starters/{kind}_bot.py").read_bytes()


def _house_kind(session: Session, version: BotVersion) -> str | None:
    manifest = read_house_manifest(stored_archive(session, version.archive_sha256))
    return None if manifest is None else manifest[0]


def _season(session: object, name: str, rules: object, versions: list[BotVersion]) -> int:
    season = create_season(
        session,  # type: ignore[arg-type]
        name=name,
        rules=rules,  # type: ignore[arg-type]
        starts_at=utc_now(),
        ends_at=utc_now() + timedelta(days=1),
        cadence=timedelta(seconds=1),
        matchmaking=MatchmakingSettings(
            max_in_flight=1000, fill_with_house=False, repeat_window_rounds=0
        ),
        house_bots=False,
    )
    for version in versions:
        enter_season(session, season, version)  # type: ignore[arg-type]
    return season.id


def measure_match_cost(
    hands: int | None = 3,
    repeats: int = 3,
    *,
    kind: str = "random",
    progress: Callable[[str], None] = lambda text: None,
) -> MatchCost:
    """Alternate `repeats` sandboxed and in-process matches (after one untimed pair,
    which also builds the uploads' environments) and return their costs; `kind` (of
    KINDS) is the starter bot sandboxed and the house bot in-process.

    Raises workers.sandbox.SandboxUnavailableError when this machine cannot sandbox.
    """
    from .matches import execute_match

    with tempfile.TemporaryDirectory(prefix="arena-bench-match-cost-") as folder:
        root = Path(folder)
        root.chmod(0o755)
        env = {key: value for key, value in os.environ.items() if not key.startswith("ARENA_")}
        env.update(
            ARENA_DATA_DIR=str(root / "data"),
            ARENA_DATABASE_URL=f"sqlite:///{root / 'arena.db'}",
            ARENA_BROKER_URL=f"sqla+sqlite:///{root / 'broker.sqlite'}",
        )
        settings = Settings.from_environ(env)
        configure(app, settings)
        try:
            migrate.upgrade(settings.database_url)
            rules = preset("standard")
            if hands is not None:
                rules = rules.replace(target_score=None, max_hands=hands, moon="old")
            sessions = context.sessions()
            with sessions() as session, write_transaction(session):
                uploads = []
                for index in range(4):  # four owners: one seat per owner at a table
                    owner = create_user(session, f"bench-{index}", None)
                    version = add_version(
                        session, create_bot(session, owner, "starter"), _starter_source(kind)
                    )
                    version.status = VersionStatus.READY  # built on first use, by the match
                    uploads.append(version)
                house = [
                    version
                    for version in ensure_house_bots(session, per_kind=4)
                    if _house_kind(session, version) == kind
                ][:4]
                house_ids = [version.id for version in house]
                season_id = _season(session, "bench", rules, uploads)
            with sessions() as session:
                start(session, season_id)

            def one(seated: list[int] | None) -> tuple[float, dict[str, float]]:
                """A round's one match, its seats given to `seated` versions if any."""
                ids: list[int] = []
                with sessions() as session:
                    schedule_round(session, season_id, ids.extend)
                    if seated is not None:
                        with write_transaction(session):
                            for seat in session.scalars(
                                select(MatchSeat).where(MatchSeat.match_id == ids[0])
                            ):
                                seat.bot_version_id = seated[seat.seat]
                before = self_cpu_seconds()
                summary = execute_match(ids[0])
                worker = self_cpu_seconds() - before
                if summary.action != "recorded":
                    raise RuntimeError(f"the benchmark's match was not recorded: {summary}")
                parts = dict(summary.cpu)
                return worker + parts.get("bots_start", 0.0) + parts.get("bots_play", 0.0), parts

            sandboxed: list[tuple[float, dict[str, float]]] = []
            in_process: list[float] = []
            for index in range(repeats + 1):
                progress(f"pair {index}/{repeats}")
                pair = one(None)
                alone, _ = one(house_ids)
                if index:
                    sandboxed.append(pair)
                    in_process.append(alone)
        finally:
            configure(app, Settings.from_environ())
    totals = [total for total, _ in sandboxed]
    keys = sorted({key for _, parts in sandboxed for key in parts})
    return MatchCost(
        hands,
        statistics.median(totals),
        (min(totals), max(totals)),
        {key: statistics.median(parts.get(key, 0.0) for _, parts in sandboxed) for key in keys},
        statistics.median(in_process),
        (min(in_process), max(in_process)),
        repeats,
    )
