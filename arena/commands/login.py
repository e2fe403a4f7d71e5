"""`arena login` / `arena logout`: remember which site to upload to, and the token for it.

    arena login http://127.0.0.1:8000 --token ha_…   # the line your account page shows
    arena bot upload mybot.py                         # then no variables are needed

The site and token are kept in one file only its owner can read
(`$XDG_CONFIG_HOME/hearts-arena/login.json`, or `~/.config/…`; `$ARENA_CONFIG` names
another). A stored token is only ever sent to the site it was stored for: `--url` or
`$ARENA_URL` naming another site needs its own `--token` or `$ARENA_TOKEN`, and a
redirect to another site is refused (`arena.commands.client`).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import click

from .client import call

DEFAULT_URL: Final = "http://127.0.0.1:8000"
"""Where `make run` (`arena platform`) serves the site."""

CONFIG_ENV: Final = "ARENA_CONFIG"


class LoginFileError(click.ClickException):
    """The stored login cannot be read safely (wrong owner, open permissions, bad JSON)."""


@dataclass(frozen=True)
class Login:
    """A site and an API token for it."""

    url: str
    token: str


def login_path() -> Path:
    """Where the login is kept: $ARENA_CONFIG, else the XDG config folder."""
    if named := os.environ.get(CONFIG_ENV):
        return Path(named)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hearts-arena" / "login.json"


def normalise_url(url: str) -> str:
    """The site's URL without a trailing slash; refuses anything but http(s)."""
    url = url.strip()
    if not url.startswith(("http://", "https://")):
        raise click.BadParameter(
            f"the site's URL must start with http:// or https:// (got {url[:80]!r})",
            param_hint="URL",
        )
    return url.rstrip("/")


def load_login(path: Path | None = None) -> Login | None:
    """The stored login, or None when there is none.

    Raises LoginFileError when the file is not its user's own, is readable by others, or
    does not hold a login: a token file that others could have written is not trusted.
    """
    path = path or login_path()
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        raise LoginFileError(f"{path} is not a file of yours: remove it and run arena login")
    if info.st_mode & 0o077:
        raise LoginFileError(f"{path} is open to other users: chmod 600 {path}")
    try:
        data = json.loads(path.read_text())
        return Login(url=normalise_url(str(data["url"])), token=str(data["token"]))
    except (ValueError, KeyError, TypeError, click.BadParameter):
        raise LoginFileError(f"{path} does not hold a login: run arena login again") from None


def save_login(login: Login, path: Path | None = None) -> Path:
    """Write the login where only its user can read it (created 0600, replaced atomically)."""
    path = path or login_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump({"url": login.url, "token": login.token}, file)
    os.replace(temporary, path)
    return path


def resolve(url: str | None, token: str | None) -> Login:
    """The site and token a command uses: options and variables first, then the login.

    `url` and `token` are what `--url`/`$ARENA_URL` and `--token`/`$ARENA_TOKEN` gave.
    Raises click.UsageError, saying what to do, when no token applies to the site.
    """
    stored = load_login()
    chosen = normalise_url(url) if url else stored.url if stored else DEFAULT_URL
    if token:
        return Login(chosen, token)
    if stored and stored.url == chosen:
        return Login(chosen, stored.token)
    if stored:
        raise click.UsageError(
            f"no API token for {chosen}: the stored login is for {stored.url}. Make a token"
            f" on {chosen}/account and run the line it shows there (arena login {chosen}"
            " --token ha_…), or pass --token (or set ARENA_TOKEN)"
        )
    if url:
        where = f"your account page, {chosen}/account"
    else:  # nothing named a site: say where the default is, not that it is the user's site
        where = (
            "your account page on the site you upload to (for the platform `make run`"
            f" serves on this machine: {chosen}/account)"
        )
    raise click.UsageError(
        f"not signed in: no API token. Make one on {where}, then run the line it shows"
        " (arena login SITE --token ha_…), or pass --url and --token (or set ARENA_URL and"
        " ARENA_TOKEN)"
    )


@click.command("login")
@click.argument("url", required=False, default=DEFAULT_URL)
@click.option(
    "--token",
    envvar="ARENA_TOKEN",
    prompt="API token (from your account page)",
    hide_input=True,
    help="An API token (or $ARENA_TOKEN; asked for when missing).",
)
def login(url: str, token: str) -> None:
    """Check TOKEN against the site at URL and remember both for `arena bot upload`."""
    site = normalise_url(url)
    _status, me = call(f"{site}/api/v1/me", token.strip(), fields=("username",))
    path = save_login(Login(site, token.strip()))
    click.echo(f"signed in to {site} as {me.get('username')}; kept in {path}")


@click.command("logout")
def logout() -> None:
    """Forget the stored site and token (the token itself stays valid: revoke it on the site)."""
    path = login_path()
    if load_login(path) is None:
        click.echo("not signed in")
        return
    path.unlink()
    click.echo(f"forgot the login in {path}; revoke the token on your account page if it leaked")
