"""`arena season-report SEASON`: a season's final order, the luck its format removed, and
the owner pairs that do suspiciously well together (for organisers and admins)."""

from __future__ import annotations

import json

import click

from arena.store.commands import URL_OPTION


@click.command("season-report")
@click.argument("season_id", type=int)
@URL_OPTION
@click.option(
    "--limit",
    type=click.IntRange(1),
    default=300,
    show_default=True,
    help="Latest done matches whose replays are measured.",
)
@click.option(
    "--luck/--no-luck",
    default=True,
    show_default=True,
    help="Replay every deal with house bots to measure the luck adjustment.",
)
@click.option("--store", is_flag=True, help="Keep the figures with the season (its report).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def season_report(
    season_id: int, url: str | None, limit: int, luck: bool, store: bool, as_json: bool
) -> None:
    """Measure a season on its own recorded games: format, luck adjustment, collusion."""
    from arena.seasons.errors import SeasonError
    from arena.seasons.evidence import measure_season, owner_pairs, store_evidence
    from arena.store.database import make_engine, make_sessionmaker

    sessions = make_sessionmaker(make_engine(url))
    with sessions() as session:
        try:
            if store:
                evidence = store_evidence(session, season_id, limit=limit, luck=luck)
            else:
                evidence = measure_season(session, season_id, limit=limit, luck=luck)
        except SeasonError as error:
            raise click.ClickException(str(error)) from None
        pairs = owner_pairs(session, season_id)
    if as_json:
        body = {
            "evidence": evidence,
            "owner_pairs": [
                {"owners": list(p.owners), "tables": p.tables, "residual": p.residual, "z": p.z}
                for p in pairs
            ],
        }
        click.echo(json.dumps(body, indent=2, default=str))
        return
    click.echo(f"season {season_id}: {evidence['summary']}")
    for key, value in evidence.items():
        if key != "summary":
            click.echo(f"  {key}: {value}")
    flagged = [p for p in pairs if p.z <= -3.0 and p.tables >= 5]
    click.echo(
        f"owner pairs that met: {len(pairs)}; flagged (z <= -3, >= 5 tables): {len(flagged)}"
    )
    for pair in pairs[:10]:
        mark = "FLAG " if pair in flagged else "     "
        click.echo(
            f"  {mark}owners {pair.owners[0]} + {pair.owners[1]}: {pair.tables} tables, "
            f"{pair.residual:+.2f} points/hand vs predicted, z {pair.z:+.1f}"
        )
