"""`arena bench signin-flood`: the ladder page's latency, quiet and under a sign-in flood.

Why: each sign-in is an argon2id hash (tens to hundreds of milliseconds of every core),
and eight anonymous sign-in loops once cut the ladder from 113 to 5 requests a second.
The site now hashes at most `PASSWORD_HASHING_SLOTS` passwords at once per process and
rate-limits failed sign-ins per address and per account (`web.passwords`, `web.limits`).

The site is served on a real port of 127.0.0.1 by waitress with eight threads, as `arena
web` serves it (a thread-per-connection server such as werkzeug's hid that sign-ins
waiting for the hashing thread held the server's threads), on a scratch database
(`arena.benchmarks.store`), with the production argon2 parameters. `flooders` processes
post wrong passwords for random names in a loop, twice: once as they are (one address:
the address limit soon answers 429), and once with the address limit lifted, as a flood
from many addresses would be (only the hashing slots and their queue stand in its way).
The ladder page is requested `requests` times quiet and as many times flooded, in
`blocks` alternating blocks: the flooders pause (and their last requests drain) for each
quiet block and resume for each flooded one, so a change in the machine's other load
falls on both sides alike (on a shared machine, a quiet phase measured once before the
flood was off by half at times). The first flood runs `settle` seconds before it is
timed (past the first failures the limits allow), later ones `resettle`. Medians are
printed; docs/benchmarks.md records them.
"""

from __future__ import annotations

import dataclasses
import http.cookiejar
import logging
import multiprocessing
import re
import secrets
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from sqlalchemy.engine import URL

from arena.store import make_engine, make_sessionmaker, migrate
from arena.store.accounts import create_user, hash_password

LADDER: Final = "/seasons/{season}/ladder"
TOKEN: Final = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')
SPAWN = multiprocessing.get_context("spawn")


@dataclasses.dataclass(frozen=True)
class FloodFigures:
    """Seconds per ladder request in each scenario, quiet (just before its flood) and
    flooded, and the sign-ins' answers under flood."""

    backend: str
    versions: int
    flooders: int
    quiet: dict[str, tuple[float, ...]]
    flooded: dict[str, tuple[float, ...]]
    answers: dict[str, dict[int, int]]
    cpu: dict[str, float] = dataclasses.field(default_factory=dict)
    """CPU seconds the app takes to answer one request of each kind (`request_cpu`)."""

    def median_ms(self, samples: tuple[float, ...]) -> float:
        return statistics.median(samples) * 1000


def _open(opener: urllib.request.OpenerDirector, url: str, data: bytes | None = None) -> int:
    try:
        with opener.open(url, data=data, timeout=60) as response:
            response.read()
            status: int = response.status
            return status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def flood(
    base: str, stop: Any, ready: Any, answers: Any, cheap: bool = False, go: Any = None
) -> None:
    """One flooder (a process): wrong passwords for random names until `stop` is set (or,
    `cheap`, GETs of the API's index: a flood of requests that cost no hash), paused
    while `go` (when given) is clear."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    with opener.open(f"{base}/signin", timeout=60) as response:
        found = TOKEN.search(response.read().decode())
    assert found, "no CSRF token on /signin"
    ready.release()
    counts: Counter[int] = Counter()

    def going() -> bool:
        return go is None or bool(go.wait(0.05))

    while cheap and not stop.is_set():
        if going():
            counts[_open(opener, f"{base}/api/v1/")] += 1
    while not stop.is_set():
        if not going():
            continue
        form = {
            "username": f"nobody-{secrets.token_hex(4)}",
            "password": "wrong password",
            "csrf_token": found.group(1),
        }
        counts[_open(opener, f"{base}/signin", urllib.parse.urlencode(form).encode())] += 1
    answers.put(dict(counts))


def _ladder_times(base: str, season_id: int, requests: int) -> tuple[float, ...]:
    opener = urllib.request.build_opener()
    url = base + LADDER.format(season=season_id)
    samples = []
    for _ in range(requests):
        begin = time.perf_counter()
        status = _open(opener, url)
        samples.append(time.perf_counter() - begin)
        if status != 200:
            raise RuntimeError(f"the ladder answered {status}")
    return tuple(samples)


WEB_THREADS: Final = 8
"""waitress's threads, as `arena web` (arena/commands/platform.py) runs it."""


def _serve(config: dict[str, Any]) -> tuple[Callable[[], None], str]:
    """The site on waitress on a free port of 127.0.0.1: a function that stops it, and
    its address."""
    import waitress.server

    from . import create_app

    server = waitress.server.create_server(
        create_app(config), host="127.0.0.1", port=0, threads=WEB_THREADS
    )
    assert isinstance(server, waitress.server.BaseWSGIServer)  # one socket, one port
    assert server.socket is not None
    port = server.socket.getsockname()[1]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()

    def stop() -> None:
        server.close()
        thread.join(timeout=30)
        server.task_dispatcher.shutdown()

    return stop, f"http://127.0.0.1:{port}"


def _alternated(
    base: str,
    season_id: int,
    requests: int,
    flooders: int,
    *,
    settle: float,
    resettle: float,
    blocks: int,
    cheap: bool,
) -> tuple[tuple[float, ...], tuple[float, ...], dict[int, int]]:
    """The ladder's times quiet and flooded, in `blocks` alternating blocks; the loops'
    answers."""
    stop, go, ready, answers = SPAWN.Event(), SPAWN.Event(), SPAWN.Semaphore(0), SPAWN.Queue()
    processes = [
        SPAWN.Process(target=flood, args=(base, stop, ready, answers, cheap, go))
        for _ in range(flooders)
    ]
    for process in processes:
        process.start()
    for _ in processes:  # every flooder started (its interpreter's start is not the flood)
        if not ready.acquire(timeout=120):
            raise RuntimeError("a flooder did not start")
    quiet: list[float] = []
    flooded: list[float] = []
    per_block = [requests // blocks + (1 if b < requests % blocks else 0) for b in range(blocks)]
    try:
        for block, count in enumerate(per_block):
            time.sleep(0.5)  # the paused loops' last requests answered
            quiet += _ladder_times(base, season_id, count)
            go.set()
            time.sleep(settle if block == 0 else resettle)
            flooded += _ladder_times(base, season_id, count)
            go.clear()
    finally:
        go.clear()
        stop.set()
    total: Counter[int] = Counter()
    for _ in processes:
        total.update(answers.get(timeout=120))
    for process in processes:
        process.join(timeout=30)
    return tuple(quiet), tuple(flooded), dict(sorted(total.items()))


def _recorder(statuses: list[str]) -> Any:
    """A WSGI `start_response` that keeps the status."""

    def start_response(status: str, *_: Any) -> Callable[[bytes], object]:
        statuses.append(status)
        return lambda data: None

    return start_response


def request_cpu(database: str, season_id: int, repeats: int = 300) -> dict[str, float]:
    """The median CPU seconds (of the answering thread: `time.thread_time`, which the
    machine's other load hardly moves, unlike wall-clock latency) the app takes to
    answer, through its WSGI entry point and every layer of it but the HTTP server: a
    sign-in the address limit refuses, the API's index (the cheapest page), the ladder."""
    from werkzeug.test import EnvironBuilder

    from . import create_app

    app = create_app(
        {"DATABASE_URL": database, "SECRET_KEY": "bench", "SIGNIN_ADDRESS_LIMITS": "1 per hour"}
    )
    client = app.test_client()
    page = client.get("/signin").get_data(as_text=True)
    found = TOKEN.search(page)
    assert found, "no CSRF token on /signin"
    cookie = client.get_cookie("session")
    headers = [("Cookie", f"session={cookie.value}")] if cookie is not None else []

    def signin() -> dict[str, Any]:
        form = {"username": f"nobody-{secrets.token_hex(4)}", "password": "wrong password"}
        return EnvironBuilder(
            path="/signin",
            method="POST",
            data={**form, "csrf_token": found.group(1)},
            headers=headers,
            environ_base={"REMOTE_ADDR": "198.51.100.9"},
        ).get_environ()

    def get(path: str) -> Callable[[], dict[str, Any]]:
        return lambda: EnvironBuilder(path=path).get_environ()

    def cpu(make: Callable[[], dict[str, Any]], expect: int) -> float:
        samples = []
        statuses: list[str] = []
        for _ in range(repeats):
            environ = make()
            statuses.clear()
            begin = time.thread_time()
            body = app.wsgi_app(environ, _recorder(statuses))
            for _chunk in body:
                pass
            getattr(body, "close", lambda: None)()
            samples.append(time.thread_time() - begin)
            if not statuses or int(statuses[0].split()[0]) != expect:
                raise RuntimeError(f"{environ['PATH_INFO']} answered {statuses}, not {expect}")
        return statistics.median(samples)

    first = app.wsgi_app(signin(), _recorder([]))  # one failure: the limit is reached
    getattr(first, "close", lambda: None)()
    return {
        "a refused sign-in": cpu(signin, 429),
        "the API's index": cpu(get("/api/v1/"), 200),
        "the ladder page": cpu(get(LADDER.format(season=season_id)), 200),
    }


def bench_signin_flood(
    url: str | URL | None = None,
    *,
    versions: int = 2_000,
    requests: int = 100,
    flooders: int = 8,
    settle: float = 10.0,
    resettle: float = 1.0,
    blocks: int = 10,
) -> FloodFigures:
    """Fill a scratch database, then time the ladder quiet and under each flood."""
    from arena.benchmarks.store import fill, scratch_database

    logging.getLogger("waitress").setLevel(logging.ERROR)  # no "task queue depth" lines

    with scratch_database(url) as scratch:
        migrate.upgrade(scratch)
        engine = make_engine(scratch)
        try:
            with make_sessionmaker(engine)() as session:
                season_id = fill(session, versions=versions, matches=versions)
                create_user(session, "flood-target", None).password_hash = hash_password("x" * 12)
                session.commit()
            backend = engine.dialect.name
        finally:
            engine.dispose()
        database = scratch.render_as_string(hide_password=False)
        lifted = {"SIGNIN_ADDRESS_LIMITS": "1000000 per second"}
        scenarios: dict[str, tuple[dict[str, Any], bool]] = {
            "sign-ins from many addresses (address limit lifted: hashing slots only)": (
                lifted,
                False,
            ),
            "sign-ins from one address (the address limit answers 429)": ({}, False),
            "for reference, the same loops GETting /api/v1/ (no sign-in)": ({}, True),
        }
        quiet: dict[str, tuple[float, ...]] = {}
        flooded: dict[str, tuple[float, ...]] = {}
        answers: dict[str, dict[int, int]] = {}
        for name, (extra, cheap) in scenarios.items():
            config = {"DATABASE_URL": database, "SECRET_KEY": "bench", **extra}
            stop, base = _serve(config)
            try:
                _ladder_times(base, season_id, 3)  # warm-up
                quiet[name], flooded[name], answers[name] = _alternated(
                    base,
                    season_id,
                    requests,
                    flooders,
                    settle=settle,
                    resettle=resettle,
                    blocks=max(1, min(blocks, requests)),
                    cheap=cheap,
                )
            finally:
                stop()
        cpu = request_cpu(database, season_id)
    return FloodFigures(backend, versions, flooders, quiet, flooded, answers, cpu)


def describe(figures: FloodFigures) -> str:
    """The lines `arena bench signin-flood` prints."""
    requests = len(next(iter(figures.flooded.values())))
    lines = [
        f"arena bench signin-flood — {figures.backend}: ladder page (top 50 of "
        f"{figures.versions:,}) over real HTTP, {requests} requests quiet and {requests} "
        f"flooded in alternating blocks, "
        f"{figures.flooders} loops posting wrong passwords for random names (production "
        f"argon2), from processes on the same machine"
    ]
    for name, samples in figures.flooded.items():
        quiet = figures.median_ms(figures.quiet[name])
        median = figures.median_ms(samples)
        answers = ", ".join(f"{status}: {count}" for status, count in figures.answers[name].items())
        lines.append(
            f"  {name}: ladder median quiet {quiet:.1f} ms, under the flood {median:.1f} ms "
            f"({median / quiet:.2f}×); the loops were answered {answers}"
        )
    if figures.cpu:
        lines.append(
            "  CPU to answer one request in the app (median, thread time): "
            + ", ".join(f"{name} {seconds * 1e3:.2f} ms" for name, seconds in figures.cpu.items())
        )
    return "\n".join(lines)
