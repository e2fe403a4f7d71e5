"""`arena bench …`: benchmarks that print figures (docs/benchmarks.md records them)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click
from rich.markup import escape
from rich.table import Table

from .common import console, rules_from_option, rules_option

if TYPE_CHECKING:
    from arena.benchmarks.engine import OpenSpielComparison
    from arena.engine import Rules


@click.group()
def bench() -> None:
    """Benchmarks that print figures (docs/benchmarks.md records them)."""


@bench.command("engine")
@rules_option
@click.option(
    "--players", type=click.IntRange(2, 7), default=None, help="Players (preset default)."
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.1, 600),
    default=3.0,
    show_default=True,
    help="Time spent on each measurement.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option(
    "--openspiel",
    is_flag=True,
    help="Also time OpenSpiel's C++ Hearts (random bots) against the C batch, in CPU time, "
    "and print the ratio (needs the optional `bench` extra: pip install open-spiel).",
)
def bench_engine(
    rules_name: str, players: int | None, seconds: float, as_json: bool, openspiel: bool
) -> None:
    """Random hands/s: C batch entry (and the path it takes), Python one decision at a time,
    the reference; with --openspiel, OpenSpiel's Hearts beside the C batch."""
    from arena.benchmarks import engine as bench_mod
    from arena.engine import batch_path
    from arena.engine.backend import BACKEND_NAME, BATCH_PATH_REFERENCE

    rules = rules_from_option(rules_name, players)
    path = batch_path(rules)
    figures = []
    comparison = None
    # The variant families (Cancellation, Domino, the penny games, Enfle) play on their own
    # cores, and the main core's batch entry cannot play their hands.
    batches = path in ("fast", "hand_state", BATCH_PATH_REFERENCE)
    if not batches:
        console.print(
            f"[yellow]{rules.name} plays on its own core (arena.engine.variants.{path}), "
            "whose batch this command does not measure: hands driven from Python only[/yellow]"
        )
    elif BACKEND_NAME == "c":
        console.print(f"batch path for {rules.name}: [bold]{path}[/bold]")
        figures.append(bench_mod.bench_c_batch(rules, seconds))
    else:
        console.print("[yellow]C core not built: skipping the C batch figure[/yellow]")
    figures.append(bench_mod.bench_python_driven(rules, seconds))
    figures.append(bench_mod.bench_card_api(rules, seconds))
    if batches:
        figures.append(bench_mod.bench_reference_batch(rules, seconds))
    if openspiel:
        comparison = _openspiel_comparison(rules, seconds, path)
    if as_json:
        report: dict[str, object] = {"batch path": path}
        report |= {f.name: round(f.per_second, 1) for f in figures}
        if comparison is not None:
            report |= {
                f.name: round(f.per_second, 1) for f in (comparison.c_batch, comparison.openspiel)
            }
            report["C batch / OpenSpiel (CPU time)"] = round(comparison.ratio, 1)
        click.echo(json.dumps(report, indent=2))
        return
    table = Table(title=f"arena bench engine — rules {rules.name}, {rules.players} players")
    for column, justify in (
        ("measurement", "left"),
        ("hands", "right"),
        ("seconds", "right"),
        ("hands/s", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for figure in figures:
        table.add_row(
            figure.name, f"{figure.hands:,}", f"{figure.seconds:.2f}", f"{figure.per_second:,.0f}"
        )
    console.print(table)
    if comparison is not None:
        versus = Table(title="against OpenSpiel's C++ Hearts (CPU time, alternated twice)")
        versus.add_column("measurement")
        for column in ("hands", "CPU s", "hands/CPU s"):
            versus.add_column(column, justify="right")
        for figure in (comparison.c_batch, comparison.openspiel):
            versus.add_row(
                figure.name,
                f"{figure.hands:,}",
                f"{figure.seconds:.2f}",
                f"{figure.per_second:,.0f}",
            )
        console.print(versus)
        console.print(f"C batch / OpenSpiel: [bold]{comparison.ratio:.1f}x[/bold]")


def _openspiel_comparison(rules: Rules, seconds: float, path: str) -> OpenSpielComparison | None:
    """`bench engine --openspiel`: the comparison, or None with the reason printed (OpenSpiel
    missing, with how to install it; no C batch for these rules on this backend)."""
    from arena.benchmarks.engine import OpenSpielMissingError, compare_openspiel

    if path not in ("fast", "hand_state"):
        console.print(
            f"[yellow]no OpenSpiel comparison: the C batch does not play {rules.name} here "
            f"(batch path: {path})[/yellow]"
        )
        return None
    if rules.players != 4:
        console.print(
            f"[yellow]note: OpenSpiel's Hearts is a four-player game; {rules.name} is played "
            f"by {rules.players}[/yellow]"
        )
    try:
        return compare_openspiel(rules, seconds)
    except OpenSpielMissingError as error:
        console.print(f"[yellow]{escape(str(error))}[/yellow]")
        return None


@bench.command("protocol")
@click.option(
    "--calls",
    type=click.IntRange(100, 1_000_000),
    default=2000,
    show_default=True,
    help="Round trips per sample.",
)
@click.option(
    "--hands",
    type=click.IntRange(1, 10_000),
    default=20,
    show_default=True,
    help="Hands per match sample.",
)
@click.option("--repeats", type=click.IntRange(1, 100), default=3, show_default=True)
@click.option("--compare", is_flag=True, help="Also the unary-vs-stream match comparison.")
def bench_protocol(calls: int, hands: int, repeats: int, compare: bool) -> None:
    """Raw gRPC round trip, a full decision through the SDK, and four bots in turn."""
    from arena.benchmarks import protocol

    results = protocol.run(
        calls=calls,
        hands=hands,
        repeats=repeats,
        compare=compare,
        progress=lambda name: console.print(f"[dim]measuring {name} …[/dim]"),
    )
    for measure in results:
        click.echo(measure.format())


@bench.command("match")
@click.option(
    "--games",
    type=click.IntRange(1, 1000),
    default=5,
    show_default=True,
    help="Full games to 100 points.",
)
@click.option(
    "--calls",
    type=click.IntRange(100, 1_000_000),
    default=2000,
    show_default=True,
    help="Round trips for the raw baseline.",
)
def bench_match(games: int, calls: int) -> None:
    """The runner against four trivial bot processes: cost per decision, decisions/s, games/s."""
    from arena.benchmarks.match import measure

    figures = measure(games=games, calls=calls)
    table = Table(
        title=f"arena bench match — {figures.games} games, {figures.decisions:,} "
        "decisions, 4 trivial bots in 4 processes"
    )
    table.add_column("measurement")
    table.add_column("value", justify="right")
    table.add_row(
        "raw gRPC stream round trip (200-byte echo)", f"{figures.raw_round_trip * 1000:.3f} ms"
    )
    table.add_row(
        "transport alone: 4 echo processes in turn", f"{figures.transport_alone * 1000:.3f} ms"
    )
    table.add_row("runner cost per decision", f"{figures.decision * 1000:.3f} ms")
    table.add_row("decision / raw round trip", f"{figures.ratio:.2f}x")
    table.add_row("transport alone / raw round trip", f"{figures.transport_ratio:.2f}x")
    table.add_row("decisions per second", f"{figures.decisions_per_second:,.0f}")
    table.add_row("full games to 100 per second", f"{figures.games_per_second:.2f}")
    table.add_row("runner CPU per decision (all threads)", f"{figures.runner_cpu * 1e6:.0f} µs")
    table.add_row("four bots' CPU per decision", f"{figures.bots_cpu * 1e6:.0f} µs")
    table.add_row(
        "runner's own CPU per decision (its thread, transport excluded)",
        f"{figures.runner_own_cpu * 1e6:.0f} µs",
    )
    console.print(table)


@bench.command("sandbox")
@click.option("--starts", type=click.IntRange(1, 1000), default=10, show_default=True)
@click.option("--calls", type=click.IntRange(10, 100_000), default=200, show_default=True)
@click.option("--rounds", type=click.IntRange(1, 1000), default=25, show_default=True)
@click.option(
    "--match-hands",
    type=click.IntRange(0, 100),
    default=3,
    show_default=True,
    help="Hands of the CPU comparison's match (0: the standard game to 100).",
)
@click.option(
    "--match-repeats",
    type=click.IntRange(0, 100),
    default=3,
    show_default=True,
    help="Matches of each kind in the CPU comparison (0: leave it out).",
)
def bench_sandbox(
    starts: int, calls: int, rounds: int, match_hands: int, match_repeats: int
) -> None:
    """Start-to-ready, decision round trip and idle memory, sandboxed and not; a
    sandboxed decision frozen off-turn and not; a bot's start-up CPU by part; and a
    match's CPU with four sandboxed starter bots against four in-process house bots."""
    from workers.sandbox import SandboxUnavailableError
    from workers.sandbox.bench import run, run_frozen, run_startup

    try:
        figures = run(starts=starts, calls=calls, rounds=rounds)
        turns = run_frozen(calls=calls, rounds=max(2, rounds // 2))
        startup = run_startup(starts=starts)
    except SandboxUnavailableError as error:
        raise click.ClickException(f"the sandbox is unavailable: {error}") from None
    table = Table(title="arena bench sandbox")
    for column in ("mode", "start to ready", "round trip", "idle memory (PSS)"):
        table.add_column(column)
    for figure in figures:
        table.add_row(
            figure.mode,
            f"{figure.start_to_ready * 1e3:.1f} ms",
            f"{figure.round_trip * 1e6:.0f} µs",
            f"{figure.idle_memory / 2**20:.1f} MiB",
        )
    console.print(table)
    frozen = Table(title="a sandboxed decision at a table, frozen off-turn or not")
    for column in ("mode", "round trip (median)", "range over rounds"):
        frozen.add_column(column)
    for mode, value, (low, high) in (
        ("frozen off-turn", turns.frozen, turns.frozen_range),
        ("left running", turns.unfrozen, turns.unfrozen_range),
    ):
        frozen.add_row(mode, f"{value * 1e6:.0f} µs", f"{low * 1e6:.0f}–{high * 1e6:.0f} µs")
    console.print(frozen)
    note = "" if turns.freezable else " (no cgroup v2 freezer here: nothing was frozen)"
    console.print(f"freezing costs {turns.cost:+.1%} per decision{note}")
    console.print(turns.describe_split())
    parts = Table(
        title=f"a sandboxed bot's start-to-ready CPU by part (median of {startup.starts} "
        "starts each; its cgroup's cpu.stat, and the worker's getrusage)"
    )
    parts.add_column("part")
    parts.add_column("core-ms", justify="right")
    for name, value in startup.parts.items():
        parts.add_row(f"bot: {name}", f"{value * 1e3:.1f}")
    parts.add_row("worker: spawn, cgroup, waiting", f"{startup.worker * 1e3:.1f}")
    parts.add_row("total", f"{startup.total * 1e3:.1f}")
    console.print(parts)
    if startup.warm is None or startup.warm_share is None or startup.warm_worker is None:
        console.print(f"warm starts: none ({startup.warm_problem})")
    else:
        console.print(
            f"a warm start (forked from the template; its tree, the template and the "
            f"fork): {startup.warm * 1e3:.1f} core-ms, {startup.warm_share:.0%} of the cold "
            f"start's {startup.bot_total * 1e3:.1f}; the worker's side "
            f"{startup.warm_worker * 1e3:.1f} core-ms"
        )
    if match_repeats:
        _print_match_cost(match_hands or None, match_repeats)


def _print_match_cost(hands: int | None, repeats: int) -> None:
    from workers.match_cost import measure_match_cost

    with console.status("playing matches …") as status:
        cost = measure_match_cost(hands, repeats, progress=status.update)
    kind = "the standard game to 100" if hands is None else f"{hands} hands"
    table = Table(
        title=f"one match ({kind}) through the worker's execute_match: core-seconds, "
        f"median of {cost.repeats} (range)"
    )
    table.add_column("seats")
    table.add_column("core-seconds", justify="right")
    table.add_column("range", justify="right")
    for label, value, (low, high) in (
        ("4 sandboxed starter bots", cost.sandboxed, cost.sandboxed_range),
        ("4 in-process house bots", cost.in_process, cost.in_process_range),
    ):
        table.add_row(label, f"{value:.3f}", f"{low:.3f}–{high:.3f}")
    console.print(table)
    console.print(
        f"sandboxed / in-process: {cost.ratio:.1f}x; the sandboxed match by part: "
        + ", ".join(
            f"{key} {value:.3f}"
            for key, value in cost.sandboxed_parts.items()
            if key != "sandboxed"
        )
    )


@bench.command("store")
@click.option(
    "--url",
    default=None,
    help="PostgreSQL server URL (a scratch database is created and dropped); "
    "default: a temporary SQLite file.",
)
@click.option("--versions", type=click.IntRange(4), default=10_000, show_default=True)
@click.option("--matches", type=click.IntRange(0), default=100_000, show_default=True)
@click.option("--rounds", type=click.IntRange(1), default=3, show_default=True)
def bench_store(url: str | None, versions: int, matches: int, rounds: int) -> None:
    """A matchmaking round and the top-100 ladder query at scale."""
    from arena.benchmarks import store

    click.echo(
        store.describe(store.bench_store(url, versions=versions, matches=matches, rounds=rounds))
    )


@bench.command("ratings")
@click.option("--games", type=click.IntRange(8), default=400, show_default=True)
@click.option("--runs", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--separation/--no-separation",
    default=False,
    help="Also: matches until a 16-bot field is told apart at 95 %, per format.",
)
@click.option("--max-single", type=click.IntRange(8), default=1600, show_default=True)
@click.option("--max-duplicate", type=click.IntRange(4), default=400, show_default=True)
@click.option("--quick", is_flag=True, help="A small field and short runs (a smoke test).")
def bench_ratings(
    games: int,
    runs: int,
    seed: int,
    separation: bool,
    max_single: int,
    max_duplicate: int,
    quick: bool,
) -> None:
    """How fast Elo finds the true order, with and without duplicate sets; with
    `--separation`, how many matches tell a field apart at 95 % (single, duplicate, each
    with and without luck adjustment and active table choice)."""
    from arena.benchmarks import ratings

    if quick:
        games, runs = min(games, 40), 1
    click.echo(ratings.describe(*ratings.bench_convergence(games=games, runs=runs, seed=seed)))
    if separation:
        from arena.benchmarks import separation as bench_sep

        figures = bench_sep.bench_separation(
            strengths=bench_sep.QUICK_FIELD if quick else bench_sep.FIELD,
            max_single=min(max_single, 24) if quick else max_single,
            max_duplicate=min(max_duplicate, 8) if quick else max_duplicate,
            seed=seed,
            bootstrap=30 if quick else 100,
        )
        click.echo(bench_sep.describe(figures))


@bench.command("web")
@click.option(
    "--url",
    default=None,
    help="PostgreSQL server URL (scratch database); default: a temporary SQLite file.",
)
@click.option("--versions", type=click.IntRange(4), default=10_000, show_default=True)
@click.option("--matches", type=click.IntRange(0), default=100_000, show_default=True)
@click.option("--repeats", type=click.IntRange(1), default=30, show_default=True)
def bench_web(url: str | None, versions: int, matches: int, repeats: int) -> None:
    """Server time of the ladder page (10,000 bots) and of a match page (median of N)."""
    from web import bench as web_bench

    click.echo(
        web_bench.describe(
            web_bench.bench_web(url, versions=versions, matches=matches, repeats=repeats)
        )
    )


@bench.command("metrics-overhead")
@click.option("--requests", type=click.IntRange(10), default=2000, show_default=True)
@click.option("--rounds", type=click.IntRange(2), default=6, show_default=True)
def bench_metrics_overhead(requests: int, rounds: int) -> None:
    """What the site's metrics hooks add to a request: with and without, alternated."""
    from web import metricsbench

    click.echo(metricsbench.describe(metricsbench.bench_metrics_overhead(requests, rounds)))


@bench.command("restore-drill")
@click.option("--url", required=True, help="PostgreSQL server URL (two scratch databases).")
@click.option("--versions", type=click.IntRange(4), default=10_000, show_default=True)
@click.option("--matches", type=click.IntRange(0), default=100_000, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True)
def bench_restore_drill(url: str, versions: int, matches: int, jobs: int) -> None:
    """pg_dump a filled season, pg_restore it into a new database, check it (timed)."""
    from web import restoredrill

    click.echo(
        restoredrill.describe(
            restoredrill.restore_drill(url, versions=versions, matches=matches, jobs=jobs)
        )
    )


@bench.command("replay-page")
@rules_option
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the match.")
@click.option("--repeats", type=click.IntRange(1), default=30, show_default=True)
@click.option("--rounds", type=click.IntRange(1), default=4, show_default=True)
def bench_replay_page(rules_name: str, seed: int, repeats: int, rounds: int) -> None:
    """The match page's work on a stored replay: re-played into v1's layout (before) against
    read from the stored document (now), alternated; the viewer's JSON beside them."""
    from web import replaybench

    rules = rules_from_option(rules_name, None)
    click.echo(replaybench.describe(replaybench.bench_replay_page(rules, seed, repeats, rounds)))


@bench.command("expert-model")
@click.option("--hands", type=click.IntRange(1, 100_000), default=150, show_default=True)
@click.option("--samples", type=click.IntRange(1, 10_000), default=30, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="First hand's seed.")
def bench_expert_model(hands: int, samples: int, seed: int) -> None:
    """How often strong bots play the greedy card: the expert model's ε per kind of play."""
    from arena.benchmarks.expert_model import calibrate

    figures, passes, kept = calibrate(hands, samples, seed)
    for name, kind in figures.items():
        agreement, epsilon = kind.agreement, kind.epsilon
        click.echo(f"{name:7} {kind.plays:6,} plays  greedy {agreement:.3f}  epsilon {epsilon:.3f}")
    click.echo(f"passes read {passes:,}: dangerous cards kept {kept:,}")


@bench.command("bots")
@rules_option
@click.option(
    "--deals",
    type=click.IntRange(2, 1_000_000),
    default=2000,
    show_default=True,
    help="Duplicate deals per pair, each played once per seat rotation.",
)
@click.option(
    "--strong-samples",
    type=click.IntRange(1, 100_000),
    default=50,
    show_default=True,
    help="The strong bot's sampled deals per move.",
)
@click.option(
    "--strong-time",
    type=click.FloatRange(0.001, 0.1),
    default=0.1,
    show_default=True,
    help="The strong bot's time cap per move, in seconds.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Processes sharing the deals.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deals.")
@click.option(
    "--pair",
    "pairs",
    multiple=True,
    metavar="BOT:FIELD",
    help="Measure these house bots instead (e.g. expert:strong); every search bot in a "
    "pair gets the --strong-samples and --strong-time budget, so both play at equal time.",
)
@click.option(
    "--clock",
    type=click.Choice(["wall", "cpu"]),
    default="wall",
    show_default=True,
    help="What --strong-time counts: the wall clock (the runner's), or each bot's own CPU "
    "time (equal work per move whatever the machine's load).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_bots(
    rules_name: str,
    deals: int,
    strong_samples: int,
    strong_time: float,
    workers: int,
    seed: int,
    pairs: tuple[str, ...],
    clock: str,
    as_json: bool,
) -> None:
    """Duplicate hands: heuristic vs random, strong vs heuristic; points per hand, 95% CI."""
    from arena.benchmarks import bots as bench_mod
    from arena.bots import HOUSE_BOTS

    named = []
    for text in pairs:
        bot, _, field = text.partition(":")
        for name in (bot, field):
            if name not in HOUSE_BOTS:
                raise click.BadParameter(f"{text!r}: known bots {', '.join(HOUSE_BOTS)}")
        named.append((bot, field))
    rules = rules_from_option(rules_name, None)
    with console.status("playing duplicate deals …") as status:
        figures = bench_mod.measure(
            deals=deals,
            strong_time=strong_time,
            strong_samples=strong_samples,
            rules=rules,
            seed=seed,
            workers=workers,
            progress=lambda pair, done, total: status.update(f"{pair}: {done:,}/{total:,} deals"),
            pairs=named,
            clock=clock,
        )
    if as_json:
        click.echo(json.dumps([f.to_dict() for f in figures], indent=2))
        return
    for pair in figures:
        verdict = "clear of zero" if pair.clear_of_zero else "NOT clear of zero"
        table = Table(title=f"arena bench bots — {pair.bot} vs {pair.field}: {verdict}")
        table.add_column("measurement")
        table.add_column("value", justify="right")
        for name, value in pair.rows():
            table.add_row(name, value)
        console.print(table)


@bench.command("live")
@click.option("--url", default=None, help="A PostgreSQL server URL (default: a SQLite file).")
@click.option("--watchers", type=click.IntRange(1, 20_000), default=500, show_default=True)
@click.option("--batches", type=click.IntRange(1, 200), default=20, show_default=True)
@click.option(
    "--spacing",
    type=click.FloatRange(0.05, 10.0),
    default=0.5,
    show_default=True,
    help="Seconds between two batches written.",
)
@click.option("--ladder-requests", type=click.IntRange(2, 10_000), default=40, show_default=True)
def bench_live(
    url: str | None, watchers: int, batches: int, spacing: float, ladder_requests: int
) -> None:
    """Live streams held by `arena live`, a batch's latency to every watcher, and the
    ladder page's median, quiet and with the crowd (web/crowdbench.py)."""
    from web import crowdbench

    figures = crowdbench.bench_live(
        url, watchers=watchers, batches=batches, spacing=spacing, ladder_requests=ladder_requests
    )
    click.echo(crowdbench.describe(figures))


@bench.command("signin-flood")
@click.option(
    "--url",
    default=None,
    help="PostgreSQL server URL (scratch database); default: a temporary SQLite file.",
)
@click.option("--versions", type=click.IntRange(4), default=2_000, show_default=True)
@click.option("--requests", type=click.IntRange(1), default=100, show_default=True)
@click.option("--flooders", type=click.IntRange(1, 64), default=8, show_default=True)
@click.option(
    "--settle",
    type=click.FloatRange(0),
    default=10.0,
    show_default=True,
    help="Seconds the first flood runs before the ladder is timed.",
)
@click.option(
    "--blocks",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Alternating quiet and flooded blocks the requests are split into.",
)
@click.option(
    "--resettle",
    type=click.FloatRange(0),
    default=1.0,
    show_default=True,
    help="Seconds each later flood runs before its block is timed.",
)
def bench_signin_flood(
    url: str | None,
    versions: int,
    requests: int,
    flooders: int,
    settle: float,
    blocks: int,
    resettle: float,
) -> None:
    """The ladder page's median, quiet and under a flood of failed sign-ins (alternating
    blocks)."""
    from web import floodbench

    figures = floodbench.bench_signin_flood(
        url,
        versions=versions,
        requests=requests,
        flooders=flooders,
        settle=settle,
        blocks=blocks,
        resettle=resettle,
    )
    click.echo(floodbench.describe(figures))
