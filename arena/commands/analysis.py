"""`arena replay analyse` and `arena bench analysis`: which decisions of a match cost points
(docs/analysis.md), and what finding out costs (docs/benchmarks.md)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from arena.analysis import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SAMPLES,
    MISTAKE,
    AnalysisError,
    DecisionAnalysis,
    MatchAnalysis,
    Settings,
    analyse,
)
from arena.analysis.review import MARKS, PHASES, TAGS
from arena.engine.presets import PRESETS
from arena.engine.rules import RulesError
from arena.match import replay as replay_io
from arena.match import replay_view

from .common import console, err_console, exit_on_sigterm, rules_from_option

_COLOURS = {"blunder": "red", "mistake": "yellow", "inaccuracy": "cyan"}
_PHASE_NAMES = {"queen": "the ♠Q", "moon": "the moon"}


def _depth_options(function: Any) -> Any:
    function = click.option(
        "--samples",
        type=click.IntRange(1, 100_000),
        default=DEFAULT_SAMPLES,
        show_default=True,
        help="Deals sampled per decision (from what the seat knew).",
    )(function)
    function = click.option(
        "--evaluator",
        type=click.Choice(["strong", "expert"]),
        default="strong",
        show_default=True,
        help="strong: the strong bot's search; expert: house:expert's evaluation "
        "(deals weighted by the plays seen; docs/analysis.md).",
    )(function)
    function = click.option(
        "--playouts",
        type=click.IntRange(1, 1000),
        default=DEFAULT_PLAYOUTS,
        show_default=True,
        help="Playouts per answer and sampled deal.",
    )(function)
    return function


@click.command("analyse")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--seat",
    "seats",
    type=int,
    multiple=True,
    help="A seat at the table to judge (0 to players - 1; repeatable). Default: every seat.",
)
@_depth_options
@click.option("--seed", type=int, default=0, show_default=True, help="The analysis's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the whole analysis as JSON.")
@click.option(
    "--all", "every", is_flag=True, help="List every judged decision, not only the marked."
)
@click.option(
    "--hindsight",
    is_flag=True,
    help="Also each decision judged with all hands known (what no seat could know), shown "
    "apart and never in the marks.",
)
def analyse_command(
    path: Path,
    seats: tuple[int, ...],
    samples: int,
    playouts: int,
    evaluator: str,
    seed: int,
    as_json: bool,
    every: bool,
    hindsight: bool,
) -> None:
    """Judge every play and pass of a match from what the seat knew: each legal answer's
    expected points, the loss of the answer chosen, marks (inaccuracy, mistake, blunder)
    and a summary per entrant by phase. Deterministic for a --seed.

    Exits 2 when the file is not a replay, or it does not re-play, or there is no such seat.
    """
    try:
        replay = replay_io.load(path, replay_view.VERSIONS)
    except replay_io.ReplayError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None
    try:
        analysis = analyse(
            replay,
            seats=set(seats) if seats else None,
            settings=Settings(
                samples=samples,
                playouts=playouts,
                seed=seed,
                evaluator=evaluator,
                hindsight=hindsight,
            ),
        )
    except AnalysisError as error:
        err_console.print(f"[red]{path}: {error}[/red]")
        raise SystemExit(2) from None
    if as_json:
        click.echo(json.dumps(analysis.to_dict(), indent=1))
        return
    _print_analysis(path, analysis, every)
    _print_hindsight(analysis)


_ALWAYS_SHOWN = ("pass", "lead", "follow", "discard")


def describe(d: DecisionAnalysis) -> str:
    """Where a decision was, for people: "g1 h3 trick 5 s2" (game, hand, seat from 0); a
    decision before the tricks or after them by its phase ("g1 h3 pledge s2")."""
    place = d.phase if d.trick is None else f"trick {d.trick + 1}"
    return f"g{d.game + 1} h{d.hand + 1} {place} s{d.seat}"


def _print_analysis(path: Path, analysis: MatchAnalysis, every: bool) -> None:
    settings = analysis.settings
    console.print(
        f"{path}: {len(analysis.decisions)} decision(s) judged from what each seat knew "
        f"({settings.samples} deals × {settings.playouts} playouts, seed {settings.seed}, "
        f"playouts by {analysis.playout}). Loss in points of the hand against the table; "
        + ", ".join(f"{name} ≥ {value:g}" for name, value in MARKS)
        + "."
    )
    if analysis.skipped:
        console.print(
            "Not judged: "
            + ", ".join(f"{count} {kind}" for kind, count in sorted(analysis.skipped.items()))
        )
    shown = [d for d in analysis.decisions if every or d.mark]
    if shown:
        table = Table(title="decisions" if every else "marked decisions")
        for column in ("where", "entrant", "phase", "chosen", "best", "loss", "mark"):
            table.add_column(column, justify="right" if column == "loss" else "left")
        for d in shown:
            colour = _COLOURS.get(d.mark or "", "")
            mark = f"[{colour}]{d.mark}[/{colour}]" if colour else (d.mark or "")
            table.add_row(
                describe(d),
                _entrant(analysis, d.entrant),
                d.phase + "".join(f" +{t}" for t in d.tags),
                d.chosen,
                d.best,
                f"{d.loss:.2f}",
                mark,
            )
        console.print(table)
    for entrant, summary in analysis.summary().items():
        table = Table(
            title=f"{_entrant(analysis, entrant)}: {summary['loss_per_hand']:.2f} points lost "
            f"per hand over {summary['hands']} hand(s)"
        )
        table.add_column("phase")
        table.add_column("lost per hand", justify="right")
        for phase in PHASES:  # the play's and the pass's always, the other kinds' when judged
            if phase in _ALWAYS_SHOWN or any(
                d.phase == phase and d.entrant == entrant for d in analysis.decisions
            ):
                table.add_row(phase, f"{summary['phases'][phase]:.2f}")
        for tag in TAGS:
            table.add_row(f"of which {_PHASE_NAMES[tag]}", f"{summary['tags'][tag]:.2f}")
        marks = summary["marks"]
        table.add_row("marks", ", ".join(f"{marks[name]} {name}" for name, _ in MARKS))
        console.print(table)
        for worst in summary["worst"]:
            place = (
                f"the {worst['phase']}" if worst["trick"] is None else f"trick {worst['trick'] + 1}"
            )
            console.print(
                f"  worst: game {worst['game'] + 1}, hand {worst['hand'] + 1}, {place}: "
                f"{worst['chosen']} instead of {worst['best']} (-{worst['loss']:.2f}, "
                f"{worst['mark'] or 'no mark'})"
            )


def _print_hindsight(analysis: MatchAnalysis) -> None:
    """The decisions that cost points with all hands known, apart from the fair judgement."""
    known = [d for d in analysis.decisions if d.hindsight and d.hindsight["loss"] >= MISTAKE]
    if not any(d.hindsight for d in analysis.decisions):
        return
    table = Table(
        title="with all hands known (hindsight: what no seat could know; not in the marks)"
    )
    for column in ("where", "entrant", "chosen", "best in hindsight", "loss in hindsight"):
        table.add_column(column, justify="right" if column.startswith("loss") else "left")
    for d in sorted(known, key=lambda d: -d.hindsight["loss"] if d.hindsight else 0):
        assert d.hindsight is not None
        table.add_row(
            describe(d),
            _entrant(analysis, d.entrant),
            d.chosen,
            d.hindsight["best"],
            f"{d.hindsight['loss']:.2f}",
        )
    console.print(table)


def _entrant(analysis: MatchAnalysis, entrant: int) -> str:
    names = analysis.entrants
    return names[entrant] if entrant < len(names) else f"entrant {entrant}"


def _preset_names(context: click.Context, parameter: click.Parameter, value: str) -> list[str]:
    """`--rules a,b,c`: the presets named, each checked, in the order given."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PRESETS]
    if unknown or not names:
        raise click.BadParameter(
            f"no such preset: {', '.join(unknown) or repr(value)} "
            f"(choose from {', '.join(sorted(PRESETS))})",
            context,
            parameter,
        )
    return list(dict.fromkeys(names))


@click.command("analysis")
@click.option(
    "--rules",
    "rules_names",
    default="standard",
    show_default=True,
    callback=_preset_names,
    help="Rules preset, or several separated by commas (measured one after the other).",
)
@click.option(
    "--all-presets",
    is_flag=True,
    help="Every preset, one after the other, in name order (instead of --rules).",
)
@click.option("--hands", type=click.IntRange(1, 100), default=13, show_default=True)
@click.option("--matches", type=click.IntRange(1, 100), default=3, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="The first match's seed.")
@click.option(
    "--bots",
    type=click.Choice(["heuristic", "strong"]),
    default="heuristic",
    show_default=True,
    help="The house bot in every seat of the analysed matches.",
)
@_depth_options
@click.option(
    "--hindsight",
    is_flag=True,
    help="Also each decision judged with all hands known (as the site analyses): its cost is "
    "in the core-seconds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--season",
    "season_matches",
    type=click.IntRange(2, 10_000),
    default=None,
    help="Instead: a season of this many matches (sandboxed trivial bots, one match "
    "worker) alone and with --matches analyses of --hands-hand matches queued beside it "
    "on their own worker, alternated --repeats times; matches per minute (needs the "
    "platform).",
)
@click.option(
    "--season-hands",
    type=click.IntRange(1, 100),
    default=13,
    show_default=True,
    help="Hands per match of the --season.",
)
@click.option(
    "--repeats",
    type=click.IntRange(1, 20),
    default=2,
    show_default=True,
    help="With --season: how many times the runs alone and with analyses alternate.",
)
def bench_analysis(
    rules_names: list[str],
    all_presets: bool,
    hands: int,
    matches: int,
    seed: int,
    bots: str,
    samples: int,
    playouts: int,
    evaluator: str,
    hindsight: bool,
    as_json: bool,
    season_matches: int | None,
    season_hands: int,
    repeats: int,
) -> None:
    """Core-seconds per analysed match (every seat judged) at a depth, and the agreement of
    two analyses of the same match with different seeds: the decisions flagged (mistake or
    worse), the decisions marked, the worst decision of each seat's hand. Several presets
    (--rules a,b,c or --all-presets) are measured one after the other, each printed as it
    ends. With --season: a season's matches per minute with analyses queued beside it, and
    without."""
    if season_matches is not None:
        exit_on_sigterm()  # the analysis worker (its own session) is stopped by `finally`
        _bench_beside(season_matches, matches, season_hands, hands, repeats, as_json)
        return
    from arena.benchmarks.analysis import measure

    names = sorted(PRESETS) if all_presets else rules_names
    settings = Settings(
        samples=samples, playouts=playouts, seed=1, evaluator=evaluator, hindsight=hindsight
    )
    measured: list[dict[str, Any]] = []
    for name in names:
        dealt = rules_from_option(name, None)
        try:
            rules = dealt.replace(target_score=None, max_hands=hands)
        except RulesError:  # a game in chips ends at its stake: kept (it may end sooner)
            rules = dealt.replace(max_hands=hands)
        figures = []
        with console.status(f"{name}: analysing …") as status:
            for m in range(matches):
                figures.append(
                    measure(
                        rules, seed + m, settings, other_seed=2, bots=bots, progress=status.update
                    )
                )
        measured.extend({"rules": name, **f.to_dict()} for f in figures)
        if not as_json:
            _print_bench(name, figures, hands, bots, evaluator, samples, playouts, hindsight)
    if as_json:
        click.echo(json.dumps(measured, indent=2))


def _print_bench(
    rules_name: str,
    figures: list[Any],
    hands: int,
    bots: str,
    evaluator: str,
    samples: int,
    playouts: int,
    hindsight: bool,
) -> None:
    table = Table(
        title=f"arena bench analysis — {rules_name}, {hands} hand(s), house:{bots} in every "
        f"seat, {evaluator} evaluator, {samples} deals × {playouts} playouts"
        + (", with hindsight" if hindsight else "")
    )
    for column in (
        "match seed",
        "decisions",
        "core-s (seed 1, 2)",
        "flagged",
        "flagged agree",
        "marked agree",
        "worst agree",
    ):
        table.add_column(column, justify="right")
    for f in figures:
        table.add_row(
            str(f.match_seed),
            str(f.decisions),
            f"{f.core_seconds[0]:.1f}, {f.core_seconds[1]:.1f}",
            f"{f.flagged[0]}, {f.flagged[1]}",
            f"{f.flagged_agreement:.0%}",
            f"{f.marked_agreement:.0%}",
            f"{f.worst_agreement:.0%}",
        )
    console.print(table)
    seconds = [s for f in figures for s in f.core_seconds]
    console.print(
        f"{rules_name}: core-seconds per analysed match: {min(seconds):.1f}-{max(seconds):.1f} "
        f"(median {statistics.median(seconds):.1f}); flagged agreement "
        f"{min(f.flagged_agreement for f in figures):.0%}-"
        f"{max(f.flagged_agreement for f in figures):.0%}"
    )


def _bench_beside(
    matches: int, analyses: int, hands: int, analysis_hands: int, repeats: int, as_json: bool
) -> None:
    """`arena bench analysis --season`: `workers.analysis_bench.bench_beside`."""
    from workers.analysis_bench import BesideFigures, bench_beside

    def report(figures: BesideFigures) -> None:
        if not as_json:
            console.print(
                f"season of {figures.season.matches} matches ({figures.season.done} done), "
                f"{figures.analyses_queued} analyses queued beside it: "
                f"{figures.per_minute:.1f} matches/min over {figures.season.seconds:.1f} s; "
                f"{figures.analyses_done} analyses done meanwhile"
            )

    results = bench_beside(
        matches,
        analyses,
        hands=hands,
        analysis_hands=analysis_hands,
        repeats=repeats,
        report=report,
    )
    if as_json:
        click.echo(
            json.dumps(
                [
                    {
                        "analyses_queued": r.analyses_queued,
                        "analyses_done": r.analyses_done,
                        "analyses_asked": r.analyses_asked,
                        "matches": r.season.matches,
                        "done": r.season.done,
                        "seconds": round(r.season.seconds, 2),
                        "per_minute": round(r.per_minute, 2),
                    }
                    for r in results
                ],
                indent=2,
            )
        )
