"""`arena bench …`: benchmarks that print figures (docs/benchmarks.md records them)."""

from __future__ import annotations

import json

import click
from rich.table import Table

from .common import console, rules_from_option, rules_option


@click.group()
def bench() -> None:
    """Benchmarks that print figures (docs/benchmarks.md records them)."""


@bench.command("engine")
@rules_option
@click.option(
    "--players", type=click.IntRange(3, 7), default=None, help="Players (preset default)."
)
@click.option(
    "--seconds",
    type=click.FloatRange(0.1, 600),
    default=3.0,
    show_default=True,
    help="Time spent on each measurement.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_engine(rules_name: str, players: int | None, seconds: float, as_json: bool) -> None:
    """Random hands/s: C batch entry, Python one decision at a time, and the reference."""
    from arena.benchmarks import engine as bench_mod
    from arena.engine.backend import BACKEND_NAME

    rules = rules_from_option(rules_name, players)
    figures = []
    if BACKEND_NAME == "c":
        figures.append(bench_mod.bench_c_batch(rules, seconds))
    else:
        console.print("[yellow]C core not built: skipping the C batch figure[/yellow]")
    figures.append(bench_mod.bench_python_driven(rules, seconds))
    figures.append(bench_mod.bench_reference_batch(rules, seconds))
    if as_json:
        click.echo(json.dumps({f.name: round(f.per_second, 1) for f in figures}, indent=2))
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
