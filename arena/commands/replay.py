"""`arena replay verify|convert|show|ask|view`: check a replay against the engine, print it as text,
put a seat's recorded decisions to a bot again, or open it in the site's viewer."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from hearts_bot import transport

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.reask import (
    DEFAULT_TIMEOUT,
    Answer,
    ReaskError,
    match_settings,
    reask,
    recorded_decisions,
)
from arena.match.render import render
from arena.match.replay_v2 import REPLAY_V2, ReplayV2, from_v1, verify_v2
from arena.match.spec import BotSpecError, parse_bot_spec
from arena.match.verify import ReplayMismatchError, verify

from .common import console, err_console
from .seating import SandboxRequiredError, SeatFactory

WHY_ANSWERS_DIFFER = (
    "A difference is not always a bug: a bot that draws random numbers (without a fixed "
    "seed), reads the clock or its time left, or keeps what it learnt from one match to "
    "the next may answer the same question differently. A deterministic bot that differs "
    "is not the code that played this match, or its answer depends on something the "
    "request does not hold."
)


@click.group()
def replay() -> None:
    """Replays: verify them, show them, ask their decisions again, view them."""


def _load(path: Path, versions: tuple[int, ...] = replay_io.VERSIONS) -> dict[str, Any]:
    """The file as stored (exits 2 when it is not a replay of one of `versions`)."""
    try:
        return replay_io.load(path, versions)
    except replay_io.ReplayError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None


def _view(path: Path) -> dict[str, Any]:
    """The file, of either version, in replay v1's layout (`replay_view`), for the readers
    that show it (exits 2 when it is not a replay, or a v2 one that does not re-play)."""
    try:
        return replay_view.load(path)
    except replay_io.ReplayError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None


@replay.command("verify")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def verify_command(path: Path) -> None:
    """Re-apply every decision through the engine and confirm every recorded score.

    Exits 0 when the replay is consistent, 1 naming the first mismatch, 2 when the file
    is not a replay.
    """
    document = _load(path)
    try:
        if document["version"] == REPLAY_V2:
            checked = verify_v2(ReplayV2.from_dict(document))
        else:  # v1: its own layout checked, then its actions re-applied as v2 does
            checked = verify(document)
            verify_v2(from_v1(document))
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, ReplayMismatchError):
            err_console.print(f"[red]MISMATCH[/red] at {error}")
        else:
            err_console.print(f"[red]MISMATCH[/red]: not a well-formed replay ({error!r})")
        raise SystemExit(1) from None
    console.print(
        f"[green]OK[/green] {path}: {checked.games} game(s), {checked.hands} hands, "
        f"{checked.decisions} decisions re-applied; every score confirmed"
    )


@replay.command("convert")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--to",
    "version",
    type=click.Choice(["2", "1"]),
    default="2",
    show_default=True,
    help="The version written: 2 (each hand's actions), or 1 (v1's layout, for tools that "
    "read only that; re-played from the actions).",
)
def convert_command(path: Path, out: Path, version: str) -> None:
    """Write a replay of either version as replay v2 or v1 (docs/replay.md)."""
    document = _load(path)
    try:
        converted = replay_view.document(document)
        written = converted.to_dict() if version == "2" else replay_view.to_v1(converted)
    except (KeyError, TypeError, ValueError) as error:
        err_console.print(f"[red]MISMATCH[/red] at {error}")
        raise SystemExit(1) from None
    replay_io.save(written, out)
    console.print(f"[green]OK[/green] {out}: replay v{version}")


@replay.command("show")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ascii", "plain", is_flag=True, help="Cards as QS rather than Q♠.")
@click.option(
    "--notes/--no-notes",
    default=True,
    show_default=True,
    help="Print each bot's notes under its decisions.",
)
def show_command(path: Path, plain: bool, notes: bool) -> None:
    """Print the match trick by trick."""
    document = _view(path)
    for line in render(document, pretty=not plain, notes=notes):
        click.echo(line)


@replay.command("ask")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("bot")
@click.option("--seat", type=int, required=True, help="The seat asked (0 to players - 1).")
@click.option(
    "--decision",
    "numbers",
    type=click.IntRange(1),
    multiple=True,
    help="The seat's decision to ask again, numbered from 1 in its game (repeatable).",
)
@click.option("--all", "every", is_flag=True, help="Ask every decision of the seat again.")
@click.option(
    "--game",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="The game of a duplicate set (from 1).",
)
@click.option(
    "--timeout-ms",
    type=click.IntRange(1, 600_000),
    default=int(DEFAULT_TIMEOUT * 1000),
    show_default=True,
    help="How long the bot may take per decision.",
)
@click.option(
    "--request",
    "show_request",
    is_flag=True,
    help="Also print each query sent, in protobuf text format (with --decision).",
)
@click.option(
    "--sandbox/--no-sandbox",
    default=True,
    show_default=True,
    help="Run a bot file inside the sandbox; --no-sandbox runs it as a plain local "
    "process (only for your own code).",
)
def ask_command(
    path: Path,
    bot: str,
    seat: int,
    numbers: tuple[int, ...],
    every: bool,
    game: int,
    timeout_ms: int,
    show_request: bool,
    sandbox: bool,
) -> None:
    """Ask BOT the recorded decisions of a seat again, over the real protocol, and print
    its answers beside the recorded ones.

    Each question is rebuilt exactly as the match asked it (the match is re-run from the
    replay, the bot told everything its seat was told). BOT is a bot file, an installed
    package.module:Class, unix:/path or host:port. Works on a replay downloaded from the
    site (other bots' notes and logs are hidden there; the questions do not need them).
    Exits 0 when every answer is the same, 1 when some differ, 2 on a usage error.
    """
    document = _view(path)
    if every == bool(numbers):
        raise click.UsageError("give --decision K (one or more) or --all, not both")
    try:
        spec = parse_bot_spec(bot)
    except BotSpecError as error:
        raise click.BadParameter(str(error), param_hint="BOT") from None
    try:
        _, time_policy, _ = match_settings(document)
    except ReaskError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None
    try:
        decisions = recorded_decisions(document, game - 1, seat)
    except ReaskError as error:
        raise click.UsageError(str(error)) from None
    if not decisions:
        raise click.UsageError(f"seat {seat} was asked nothing in game {game}")
    wanted = [d.number for d in decisions] if every else sorted(set(numbers))
    names = tuple(entry["name"] for entry in document["entrants"])
    try:
        with SeatFactory(sandbox=sandbox, time_policy=time_policy) as factory:
            answers = transport.run(
                reask(
                    document,
                    game - 1,
                    seat,
                    wanted,
                    factory.seat(spec, 0, names),
                    timeout=timeout_ms / 1000,
                )
            )
    except SandboxRequiredError as error:
        raise click.UsageError(str(error)) from None
    except ReaskError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None
    entrant = document["games"][game - 1]["seating"][seat]
    click.echo(
        f"{path}: game {game}, seat {seat} ({names[entrant]}): asked {bot} "
        f"{len(answers)} of the seat's {len(decisions)} decision(s) again"
    )
    if every:
        _print_table(answers)
    else:
        for answer in answers:
            _print_one(answer, show_request)
    _print_summary(answers)


def _print_one(answer: Answer, show_request: bool) -> None:
    decision = answer.decision
    mark = "same" if answer.same else "DIFFERS"
    click.echo("")
    click.echo(
        f"decision {decision.number}: hand {decision.hand + 1}, {decision.place} ({decision.kind})"
    )
    click.echo(f"  asked with: {answer.asked}")
    if show_request:
        click.echo("  the query sent:")
        for line in answer.request.splitlines():
            click.echo(f"    {line}")
    fault = (
        f"  [fault: {decision.fault}; the arena's default was applied]" if decision.fault else ""
    )
    click.echo(f"  recorded:   {decision.recorded}{fault}")
    if decision.note:
        _print_note("recorded note", decision.note)
    click.echo(f"  your bot:   {answer.answer}  ({mark})")
    if answer.note:
        _print_note("its note", answer.note)


def _print_note(title: str, note: str) -> None:
    first, *rest = note.splitlines() or [""]
    click.echo(f"    {title}: {first}")
    for line in rest:
        click.echo(f"      {line}")


def _print_table(answers: Sequence[Answer]) -> None:
    """One line per decision that differs (all of them when few)."""
    differing = [a for a in answers if not a.same]
    if not differing:
        return
    click.echo("")
    click.echo(f"{'#':>4}  {'hand':>4}  {'where':<14} {'recorded':<16} your bot")
    for answer in differing:
        d = answer.decision
        recorded = d.recorded + (f" [{d.fault}]" if d.fault else "")
        click.echo(f"{d.number:>4}  {d.hand + 1:>4}  {d.place:<14} {recorded:<16} {answer.answer}")


def _print_summary(answers: Sequence[Answer]) -> None:
    differing = [a.decision.number for a in answers if not a.same]
    click.echo("")
    if not differing:
        click.echo(f"same: all {len(answers)} answer(s) are the recorded ones.")
        return
    listed = ", ".join(f"#{n}" for n in differing[:50]) + (" …" if len(differing) > 50 else "")
    click.echo(f"DIFFERENT: {len(differing)} of {len(answers)} answer(s) differ: {listed}")
    click.echo(WHY_ANSWERS_DIFFER)
    raise SystemExit(1)


@replay.command("view")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The HTML file to write (default: the replay's name with .html).",
)
@click.option("--no-open", is_flag=True, help="Write the page only; do not open a browser.")
def view_command(path: Path, out: Path | None, no_open: bool) -> None:
    """Open the replay in the site's own viewer: one self-contained HTML file.

    The page inlines the viewer and the replay, so it works from disk with no server
    (arena/match/viewer.py says why a file rather than a local server). It is opened
    with the default browser; its path is printed either way.
    """
    import webbrowser

    from arena.match.viewer import ViewerAssetsError, write_page

    document = _view(path)
    target = out or path.with_name(path.name.removesuffix(".gz").removesuffix(".json") + ".html")
    try:
        written = write_page(document, target)
    except ViewerAssetsError as error:
        err_console.print(f"[red]{error}[/red]")
        raise SystemExit(2) from None
    except OSError as error:
        err_console.print(f"[red]cannot write {target}: {error.strerror}[/red]")
        raise SystemExit(2) from None
    click.echo(str(written))
    if not no_open and not webbrowser.open(written.as_uri()):
        click.echo("No browser to open it with: open the file above in one.")
