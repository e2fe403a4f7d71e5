"""`arena final create|freeze|show|list`: finals of frozen versions, for organisers
(docs/ratings.md, "Finals"; `arena.seasons.finals`).

The command writes rows, as the site's finals form does; the beat
(`workers.scheduling`, `advance_finals`) releases a running final's matches up to its
worker share and enqueues them, so a final started here never takes more workers than
the organiser gave it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import click
from sqlalchemy import select

from arena.store.commands import URL_OPTION

from .common import console

FORMATS = {"round-robin": "round_robin", "knockout": "knockout"}


@click.group("final")
def final() -> None:
    """Finals: freeze a season's top bots and run a round robin or a knockout."""


def _when(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"not an ISO date and time: {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@final.command("create")
@click.argument("name")
@click.option("--season", "season_id", type=int, required=True, help="The season it crowns.")
@click.option(
    "--top", type=int, default=8, show_default=True, help="Finalists: the season's top N."
)
@click.option(
    "--bot",
    "bot_ids",
    type=int,
    multiple=True,
    help="A finalist's bot id, seeded in the order given (instead of --top).",
)
@click.option(
    "--format",
    "format_name",
    type=click.Choice(list(FORMATS)),
    default="round-robin",
    show_default=True,
)
@click.option(
    "--worker-share",
    type=int,
    default=1,
    show_default=True,
    help="At most this many of its matches queued or running at once.",
)
@click.option("--cycles", type=int, default=1, show_default=True, help="Round-robin cycles.")
@click.option(
    "--max-cycles",
    type=int,
    default=None,
    help="Cycles it may add while adjacent places are tied [default: --cycles].",
)
@click.option(
    "--freeze-at",
    default=None,
    metavar="ISO",
    help="When the versions freeze and it starts (UTC unless an offset is given).",
)
@click.option("--now", "freeze_now", is_flag=True, help="Freeze the versions and start now.")
@URL_OPTION
def create(
    name: str,
    season_id: int,
    top: int,
    bot_ids: tuple[int, ...],
    format_name: str,
    worker_share: int,
    cycles: int,
    max_cycles: int | None,
    freeze_at: str | None,
    freeze_now: bool,
    url: str | None,
) -> None:
    """Create the final NAME of SEASON's top bots (or --bot ...), frozen at --freeze-at or
    --now."""
    from arena.seasons.finals import FinalError, create_final, freeze, season_finalists
    from arena.store.database import make_engine, make_sessionmaker, write_transaction
    from arena.store.models import FinalFormat, Season
    from arena.store.types import utc_now

    if freeze_now == (freeze_at is not None):
        raise click.UsageError("give one of --freeze-at and --now")
    now = utc_now()
    when = now if freeze_now else _when(freeze_at)
    assert when is not None
    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session:
        try:
            with write_transaction(session):
                season = session.get(Season, season_id)
                if season is None:
                    raise FinalError(f"there is no season {season_id}")
                bots = list(bot_ids) or season_finalists(session, season.id, top)
                made = create_final(
                    session,
                    name=name,
                    rules=season.ruleset.rules,
                    bots=bots,
                    freeze_at=when,
                    format=FinalFormat(FORMATS[format_name]),
                    worker_share=worker_share,
                    cycles=cycles,
                    max_cycles=max_cycles,
                    season_id=season.id,
                )
                if freeze_now:
                    freeze(session, made, now)
                final_id, status = made.id, made.status.value
        except FinalError as error:
            raise click.ClickException(str(error)) from None
    console.print(
        f"final {final_id} {name!r}: {len(bots)} finalists, {format_name}, "
        f"worker share {worker_share}, {status}",
        markup=False,
    )


@final.command("freeze")
@click.argument("final_ref")
@URL_OPTION
def freeze_command(final_ref: str, url: str | None) -> None:
    """Freeze a scheduled final's versions and start it now (FINAL: its id or name)."""
    from arena.seasons.finals import FinalError, freeze, lock_final
    from arena.store.database import make_engine, make_sessionmaker, write_transaction
    from arena.store.models import FinalStatus
    from arena.store.types import utc_now

    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session:
        final_id = _find(session, final_ref)
        session.rollback()  # the write lock is taken before the transaction's first read
        try:
            with write_transaction(session):
                locked = lock_final(session, final_id)
                if locked.status is not FinalStatus.SCHEDULED:
                    raise FinalError(f"final {locked.name!r} is {locked.status.value} already")
                now = utc_now()
                locked.freeze_at = now
                freeze(session, locked, now)
                name = locked.name
        except FinalError as error:
            raise click.ClickException(str(error)) from None
    console.print(f"final {final_id} {name!r}: frozen and running", markup=False)


def _find(session: Any, ref: str) -> int:
    from arena.store.models import Final

    found = (
        session.get(Final, int(ref))
        if ref.isdigit()
        else session.scalar(select(Final).where(Final.name == ref))
    )
    if found is None:
        raise click.ClickException(f"there is no final {ref!r}")
    return int(found.id)


def final_summary(session: Any, final_id: int) -> dict[str, Any]:
    """What `show` prints: the final's state, progress, standings, ties and balance."""
    from arena.seasons.finals import entrants, progress, seat_balance, standings, tied_places
    from arena.store.models import Bot, Final, FinalStatus

    row = session.get(Final, final_id)
    finalists = entrants(session, final_id)
    names = dict(
        session.execute(
            select(Bot.id, Bot.name).where(Bot.id.in_([e.bot_id for e in finalists]))
        ).all()
    )
    by_number = {e.number: e for e in finalists}
    started = row.status is not FinalStatus.SCHEDULED
    order = standings(session, row) if started else []
    return {
        "id": row.id,
        "name": row.name,
        "status": row.status.value,
        "format": row.format.value,
        "season_id": row.season_id,
        "freeze_at": row.freeze_at.isoformat(),
        "worker_share": row.worker_share,
        "cycles": row.cycles,
        "finalists": [
            {"number": e.number, "bot_id": e.bot_id, "bot": names.get(e.bot_id, "?")}
            for e in finalists
        ],
        "progress": progress(session, final_id).to_dict(),
        "standings": [
            {
                "place": s.rank,
                "bot": names.get(by_number[int(s.entrant)].bot_id, "?"),  # type: ignore[call-overload]
                "points": s.points,
                "low": s.low,
                "high": s.high,
                "tables": s.tables,
            }
            for s in order
        ],
        "tied": tied_places(order),
        "balance": seat_balance(session, row) if started else None,
        "error": (row.report or {}).get("error"),
    }


@final.command("show")
@click.argument("final_ref")
@URL_OPTION
@click.option("--json", "as_json", is_flag=True, help="The summary as JSON.")
def show(final_ref: str, url: str | None, as_json: bool) -> None:
    """A final's progress and standings (FINAL: its id or name)."""
    from arena.store.database import make_engine, make_sessionmaker

    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session:
        body = final_summary(session, _find(session, final_ref))
    if as_json:
        click.echo(json.dumps(body, indent=2))
        return
    done = body["progress"]
    console.print(
        f"final {body['id']} {body['name']!r} ({body['format']}, {body['status']}): "
        f"{done['done']}/{done['tables']} tables done, {done['in_flight']} in flight, "
        f"{done['waiting']} not released (worker share {body['worker_share']})",
        markup=False,
    )
    if not body["standings"]:
        console.print("no standings yet", markup=False)
    for line in body["standings"]:
        console.print(
            f"{line['place']:>3}. {line['bot']:<24} {line['points']:+.3f} pts/hand "
            f"[{line['low']:+.3f}, {line['high']:+.3f}] over {line['tables']} tables",
            markup=False,
        )
    for group in body["tied"]:
        console.print(f"tied: places {', '.join(map(str, group))}", markup=False)
    if body["error"]:
        console.print(f"error: {body['error']}", markup=False)


@final.command("list")
@URL_OPTION
def list_finals(url: str | None) -> None:
    """Every final, newest first."""
    from arena.store.database import make_engine, make_sessionmaker
    from arena.store.models import Final

    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session:
        for row in session.scalars(select(Final).order_by(Final.id.desc())):
            console.print(
                f"{row.id:>4} {row.name!r} {row.format.value} {row.status.value} "
                f"freeze at {row.freeze_at.isoformat()}",
                markup=False,
            )
