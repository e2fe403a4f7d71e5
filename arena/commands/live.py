"""`arena live`: the live streams' own server (web/crowd.py), for crowds of watchers."""

from __future__ import annotations

import click


@click.command("live")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8001, show_default=True, help="Port to listen on.")
@click.option(
    "--site",
    envvar="ARENA_LIVE_SITE",
    default=None,
    help="The site's own address (e.g. http://127.0.0.1:8000): every request that is not "
    "a live stream is passed to it, so this server can be the site's one public address "
    "[env ARENA_LIVE_SITE; default: it serves the live streams only].",
)
@click.option(
    "--poll",
    type=click.FloatRange(0.01, 5.0),
    default=0.1,
    show_default=True,
    help="Seconds between two reads of a watched match's new events (one read for all "
    "its watchers).",
)
def live(host: str, port: int, site: str | None, poll: float) -> None:
    """Serve the matches' live streams (`/matches/<id>/live`) on one event loop.

    The same URLs, messages, per-watcher cut, session cookie and resumption as the site's
    (docs/operations.md, "Live serving"); an open stream holds no thread.
    """
    from web import create_app
    from web.crowd import serve

    application = create_app()
    serve(
        application,
        host=host,
        port=port,
        site=site,
        poll=poll,
        on_ready=lambda url: click.echo(
            f"live streams on {url}" + (f" (the rest: {site})" if site else ""), err=False
        ),
    )
