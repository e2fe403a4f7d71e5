"""`arena demo`: one game of house bots, in-process, printed as a score sheet."""

from __future__ import annotations

import click
from rich.table import Table

from arena.engine import Game

from .common import console, rules_from_option, rules_option


@click.command("demo")
@rules_option
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the deal.")
@click.option(
    "--bots",
    default=None,
    help=(
        "Comma-separated house bots, one per seat. [default: heuristic and random in turn, "
        "one per seat of the preset's own table]"
    ),
)
def demo(rules_name: str, seed: int, bots: str | None) -> None:
    """Play one game of house bots in-process and print the score sheet."""
    from arena.bots import HOUSE_BOTS
    from arena.match.house import play_game

    if bots is None:  # the preset's own table size (three for extra_cards, eight for cancellation)
        seats = rules_from_option(rules_name, None).players
        bots = ",".join("heuristic" if seat % 2 == 0 else "random" for seat in range(seats))
    names = [name.strip() for name in bots.split(",") if name.strip()]
    unknown = [name for name in names if name not in HOUSE_BOTS]
    if unknown:
        raise click.BadParameter(
            f"unknown house bot(s): {', '.join(unknown)}; known: {', '.join(sorted(HOUSE_BOTS))}",
            param_hint="--bots",
        )
    rules = rules_from_option(rules_name, len(names))
    players = [HOUSE_BOTS[name](seed + seat) for seat, name in enumerate(names)]
    table = Table(title=f"{rules.name}: seed {seed}")
    table.add_column("hand", justify="right")
    for seat, name in enumerate(names):
        table.add_column(f"seat {seat} ({name})", justify="right")

    def on_hand(game: Game, scores: tuple[int, ...]) -> None:
        table.add_row(
            str(len(game.hand_scores)),
            *(f"{s:+d} → {t}" for s, t in zip(scores, game.totals, strict=True)),
        )

    game = play_game(rules, players, seed, on_hand)
    console.print(table)
    winners = ", ".join(f"seat {s} ({names[s]})" for s in game.winners())
    console.print(f"[bold]Winner:[/bold] {winners} with {min(game.totals)} points")
