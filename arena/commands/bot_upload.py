"""`arena bot upload`: send a bot to the site through its JSON API (docs/api.md).

    arena login http://127.0.0.1:8000 --token ha_…   # the line your account page shows
    arena bot upload mybot.py                         # or a .zip / .tar.gz, or a folder
    arena bot upload mybot/ --name shark --wait

The site and token come from `--url`/`--token`, else `$ARENA_URL`/`$ARENA_TOKEN`, else
what `arena login` stored (arena.commands.login); the site defaults to where `make run`
serves it, http://127.0.0.1:8000.

A folder is packed as a zip (without `__pycache__`, dotfiles and compiled files). The
bot's name defaults to the file's or folder's name. With `--wait` the command follows the
validation and exits 0 when the version is ready, 1 when it is rejected, then prints the
bot's output during its validation under a label, its last `LOG_LINES` lines (the version
page has all of it). It prints what the site says happens next, once ("ready — it plays
in Demo season 1 from the next round"); an upload of the bytes of a version already
validated is not waited for again. `--no-enter` keeps a first bot out of the default
season it would join once ready; `--season NAME` enters the bot in a season once it is
ready (only a contestant's first bot joins the default season by itself; `arena bot enter`
enters one later).

The requests go through `arena.commands.client`: the token never follows a redirect to
another site, and an answer that is not the API's is a message and exit status 1.
"""

from __future__ import annotations

import io
import secrets
import time
import urllib.parse
import zipfile
from pathlib import Path
from typing import Any, Final

import click

from .bot_entries import describe, enter_bot
from .client import call
from .login import DEFAULT_URL, resolve

SETTLED: Final = frozenset({"ready", "rejected", "disabled"})
SKIPPED_PARTS: Final = frozenset({"__pycache__", ".git", ".venv", "venv", ".mypy_cache"})
VERSION_FIELDS: Final = ("id", "number", "status")
LOG_LINES: Final = 20
"""The validation log's lines printed (its last ones: a bot's error ends it)."""
LOG_CHARS: Final = 4000
"""At most this many characters of them (a line may be long: a bundled bot's stack)."""
"""What every version answer holds (docs/openapi.yaml, Version): without them the answer
is not the site's (`arena.commands.client.ApiError`)."""


def pack_folder(folder: Path) -> bytes:
    """The folder as a zip archive in memory (its files relative to it, in name order)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if any(part in SKIPPED_PARTS or part.startswith(".") for part in relative.parts):
                continue
            if path.is_symlink() or not path.is_file() or path.suffix in (".pyc", ".pyo"):
                continue
            archive.write(path, relative.as_posix())
    return buffer.getvalue()


def bot_name(path: Path) -> str:
    """The default bot name: the file's name without its suffixes, or the folder's name."""
    name = path.name
    for suffix in (".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tar", ".zip", ".py"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def multipart(field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body holding one file field, and its content type."""
    boundary = "arena-" + secrets.token_hex(16)
    safe_name = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="{field}"; filename="{safe_name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body = head + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def log_excerpt(log: str, page: str, lines: int = LOG_LINES, chars: int = LOG_CHARS) -> str:
    """The validation log as printed: labelled, its last `lines` lines (and at most
    `chars` characters of them), saying where the rest is when some is left out.

    >>> print(log_excerpt("starting\\nready\\n", "http://site/versions/7"))
    --- the bot's output during its validation ---
    starting
    ready
    >>> print(log_excerpt("a\\nb\\nc\\nd", "/versions/7", lines=2))
    --- the bot's output during its validation: its last 2 of 4 lines (all: /versions/7) ---
    c
    d
    """
    every = log.rstrip("\n").splitlines()
    kept = every[-lines:]
    text = "\n".join(kept)
    if len(text) > chars:
        text = "…" + text[-(chars - 1) :]
    label = "--- the bot's output during its validation"
    if len(kept) < len(every) or len(text) < len("\n".join(kept)):
        label += f": its last {len(kept)} of {len(every)} lines (all: {page})"
    return f"{label} ---\n{text}"


def wait_for(base: str, token: str, version_id: int, timeout: float) -> dict[str, Any]:
    """Poll the version until its validation is over (or `timeout` seconds pass)."""
    deadline = time.monotonic() + timeout
    delay = 1.0
    while True:
        _status, version = call(
            f"{base}/api/v1/versions/{version_id}", token, fields=VERSION_FIELDS
        )
        if version["status"] in SETTLED or time.monotonic() > deadline:
            return version
        time.sleep(delay)
        delay = min(delay * 1.5, 10.0)


@click.command("upload")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--no-enter",
    "no_enter",
    is_flag=True,
    help="Keep a first bot out of the default season it would join once ready.",
)
@click.option("--name", default=None, help="The bot's name (default: from PATH).")
@click.option(
    "--url",
    envvar="ARENA_URL",
    default=None,
    help=f"The site (or $ARENA_URL, or what arena login stored; default {DEFAULT_URL}).",
)
@click.option(
    "--token",
    envvar="ARENA_TOKEN",
    default=None,
    help="An API token (or $ARENA_TOKEN, or what arena login stored).",
)
@click.option("--wait", is_flag=True, help="Follow the validation; exit 1 if rejected.")
@click.option(
    "--season",
    default=None,
    metavar="SEASON",
    help="Once the version is ready, enter the bot in SEASON (a name or an id, or 'default'"
    " for the site's default season); implies --wait.",
)
@click.option("--timeout", type=click.FloatRange(1), default=600.0, show_default=True)
def upload(
    path: Path,
    no_enter: bool,
    name: str | None,
    url: str | None,
    token: str | None,
    wait: bool,
    season: str | None,
    timeout: float,
) -> None:
    """Upload PATH (a .py file, a .zip or .tar.gz, or a folder) as a new bot version."""
    site = resolve(url, token)
    wait = wait or season is not None
    if path.is_dir():
        content, filename = pack_folder(path), f"{path.name}.zip"
    else:
        content, filename = path.read_bytes(), path.name
    chosen = name or bot_name(path.resolve())
    base, token = site.url, site.token
    body, content_type = multipart("file", filename, content)
    status, version = call(
        f"{base}/api/v1/bots/{urllib.parse.quote(chosen, safe='')}/versions"
        + ("?enter=false" if no_enter else ""),
        token,
        data=body,
        content_type=content_type,
        fields=VERSION_FIELDS,
    )
    state = "uploaded" if status == 201 else "unchanged (the newest version has these bytes)"
    page = f"{base}/versions/{version['id']}"
    settled = version["status"] in SETTLED
    reason = f" — {version['reason']}" if settled and version.get("reason") else ""
    click.echo(f"{chosen} v{version['number']}: {state}; status {version['status']}{reason}")
    click.echo(page)
    if not wait:
        if version.get("next"):
            click.echo(version["next"])
        return
    final = version  # these bytes' version was validated already: said once, below
    if not settled:
        if version.get("next"):
            click.echo(version["next"])
        final = wait_for(base, token, int(version["id"]), timeout)
        click.echo(
            f"{chosen} v{final['number']}: {final['status']}"
            + (f" — {final['reason']}" if final.get("reason") else "")
        )
    if final.get("log"):
        click.echo(log_excerpt(final["log"], page), err=True)
    # With --season the sentence is said once the bot is entered, below.
    entering = season is not None and final["status"] == "ready"
    changed = final is version or final.get("next") != version.get("next")
    if final.get("next") and changed and not entering:
        click.echo(final["next"])
    if final["status"] not in ("ready",):
        raise SystemExit(1)
    if season is not None:
        try:
            entries = enter_bot(site, chosen, None if season == "default" else season)
        except click.ClickException as error:
            message = f"{chosen} is ready but was not entered: {error.message}"
            raise click.ClickException(message) from None
        click.echo(f"{chosen} {describe(entries)}")
        if entries.get("next"):
            click.echo(entries["next"])
