"""`arena bot enter` / `arena bot withdraw`: say where your bot plays, from the shell.

    arena bot enter shark                 # the default season (the open one, e.g. Demo season 1)
    arena bot enter shark "Spring ladder" # a season by name, or by id: arena bot enter shark 3
    arena bot withdraw shark 3            # its games there stay on record

Why a command: only a contestant's first bot joins the default season by itself
(docs/decisions/0003); a second bot, made from a starter kit say, waited for a visit to its
bot page, the one step of a contestant's loop the command line could not take. These are
the API's entries (`POST`/`DELETE /api/v1/bots/<id>/entries`, docs/api.md) under the login
`arena login` stored, and they print what the site answers: where the bot plays now and
what happens next.
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Final

import click

from .client import ApiError, call
from .login import DEFAULT_URL, Login, resolve

PAGE: Final = 100
"""Bots and seasons asked for per request (the API allows up to 200)."""
ENTRIES_FIELDS: Final = ("bot_id", "seasons", "next")


def _pages(site: Login, path: str, query: dict[str, str]) -> list[dict[str, Any]]:
    """Every item of a paginated API list (docs/api.md, "Pages")."""
    items: list[dict[str, Any]] = []
    page = 1
    while True:
        params = urllib.parse.urlencode({**query, "page": page, "per_page": PAGE})
        _status, body = call(
            f"{site.url}/api/v1/{path}?{params}", site.token, fields=("items", "total")
        )
        items.extend(body["items"])
        if not body["items"] or len(items) >= int(body["total"]):
            return items
        page += 1


def own_bot(site: Login, name: str) -> dict[str, Any]:
    """The caller's bot called `name` (a ClickException naming the caller's bots if none)."""
    _status, me = call(f"{site.url}/api/v1/me", site.token, fields=("username",))
    mine = _pages(site, "bots", {"owner": str(me["username"])})
    for bot in mine:
        if bot.get("name") == name:
            return bot
    names = ", ".join(sorted(str(b.get("name")) for b in mine)) or "none yet"
    raise click.ClickException(
        f"{me['username']} has no bot called {name!r} on {site.url} (yours: {names}); "
        "upload it first: arena bot upload PATH --name NAME"
    )


def find_season(site: Login, wanted: str | None) -> dict[str, Any]:
    """The season named or numbered `wanted`, or the default season when None.

    Finished seasons are left out when choosing by name or default: their results are
    frozen, so no bot can enter them (the API would refuse with 409).
    """
    seasons = _pages(site, "seasons", {})
    if wanted is None:
        open_ones = [s for s in seasons if s.get("is_default") and s.get("status") != "finished"]
        if not open_ones:
            raise click.ClickException(
                f"{site.url} has no default season open now: name one (arena bot enter BOT "
                f"SEASON); its seasons: {_listed(seasons)}"
            )
        return open_ones[0]
    if wanted.isdigit():
        for season in seasons:
            if season.get("id") == int(wanted):
                return season
    named = [s for s in seasons if s.get("name") == wanted]
    unfinished = [s for s in named if s.get("status") != "finished"]
    if unfinished or named:
        return (unfinished or named)[0]
    raise click.ClickException(
        f"no season {wanted!r} on {site.url}; its seasons: {_listed(seasons)}"
    )


def _listed(seasons: list[dict[str, Any]]) -> str:
    shown = [f"{s.get('id')} {s.get('name')!r} ({s.get('status')})" for s in seasons[:10]]
    more = f" and {len(seasons) - 10} more" if len(seasons) > 10 else ""
    return (", ".join(shown) + more) if shown else "none"


def describe(entries: dict[str, Any]) -> str:
    """Where the bot plays, as one line (the API's entries answer)."""
    playing = [
        f"{s['season']} (v{s['version']}, {s['status']})"
        for s in entries["seasons"]
        if isinstance(s, dict) and {"season", "version", "status"} <= s.keys()
    ]
    return "plays in " + ", ".join(playing) if playing else "plays in no season"


def _site_options(command: Any) -> Any:
    command = click.option(
        "--token",
        envvar="ARENA_TOKEN",
        default=None,
        help="An API token (or $ARENA_TOKEN, or what arena login stored).",
    )(command)
    return click.option(
        "--url",
        envvar="ARENA_URL",
        default=None,
        help=f"The site (or $ARENA_URL, or what arena login stored; default {DEFAULT_URL}).",
    )(command)


def enter_bot(site: Login, name: str, season_wanted: str | None) -> dict[str, Any]:
    """Enter the caller's bot `name` in a season; the API's entries answer."""
    bot = own_bot(site, name)
    season = find_season(site, season_wanted)
    _status, entries = call(
        f"{site.url}/api/v1/bots/{int(bot['id'])}/entries",
        site.token,
        data=f'{{"season": {int(season["id"])}}}'.encode(),
        content_type="application/json",
        fields=ENTRIES_FIELDS,
    )
    return entries


@click.command("enter")
@click.argument("name")
@click.argument("season", required=False)
@_site_options
def enter(name: str, season: str | None, url: str | None, token: str | None) -> None:
    """Enter your bot NAME in SEASON (a name or an id; default: the site's default season).

    The version that plays for the bot (its pinned one, else its newest ready one) takes
    its place there from the next round; the bot needs a ready version first.
    """
    site = resolve(url, token)
    try:
        entries = enter_bot(site, name, season)
    except ApiError as error:
        raise click.ClickException(f"{name} was not entered: {error.message}") from None
    click.echo(f"{name} {describe(entries)}")
    if entries.get("next"):
        click.echo(entries["next"])


@click.command("withdraw")
@click.argument("name")
@click.argument("season")
@_site_options
def withdraw(name: str, season: str, url: str | None, token: str | None) -> None:
    """Take your bot NAME out of SEASON (a name or an id); its games there stay on record."""
    site = resolve(url, token)
    bot = own_bot(site, name)
    found = find_season(site, season)
    _status, entries = call(
        f"{site.url}/api/v1/bots/{int(bot['id'])}/entries/{int(found['id'])}",
        site.token,
        method="DELETE",
        fields=(*ENTRIES_FIELDS, "withdrawn"),
    )
    what = "withdrawn from" if entries["withdrawn"] else "was not playing in"
    click.echo(f"{name} {what} {found['name']}; it {describe(entries)}")
