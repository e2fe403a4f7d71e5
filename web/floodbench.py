"""`arena bench signin-flood`: the ladder page's latency, quiet and under a sign-in flood.

Why: each sign-in is an argon2id hash (tens to hundreds of milliseconds of every core),
and eight anonymous sign-in loops once cut the ladder from 113 to 5 requests a second.
The site now hashes at most `PASSWORD_HASHING_SLOTS` passwords at once per process and
rate-limits failed sign-ins per address and per account (`web.passwords`, `web.limits`).

The site is served on a real port of 127.0.0.1 (a threaded werkzeug server, as the
tests' live server) on a scratch database (`arena.benchmarks.store`), with the production
argon2 parameters. The ladder page is requested `requests` times with nothing else
going on, then again while `flooders` processes post wrong passwords for random names in
a loop, twice: once as they are (one address: the address limit soon answers 429), and
once with the address limit lifted, as a flood from many addresses would be (only the
hashing slots stand in its way). Medians are printed; docs/benchmarks.md records them.
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
from typing import Any, Final

from sqlalchemy.engine import URL
from werkzeug.serving import make_server

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


def flood(base: str, stop: Any, ready: Any, answers: Any, cheap: bool = False) -> None:
    """One flooder (a process): wrong passwords for random names until `stop` is set (or,
    `cheap`, GETs of the API's index: a flood of requests that cost no hash)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    with opener.open(f"{base}/signin", timeout=60) as response:
        found = TOKEN.search(response.read().decode())
    assert found, "no CSRF token on /signin"
    ready.release()
    counts: Counter[int] = Counter()
    while cheap and not stop.is_set():
        counts[_open(opener, f"{base}/api/v1/")] += 1
    while not stop.is_set():
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


def _serve(config: dict[str, Any]) -> tuple[Any, threading.Thread, str]:
    from . import create_app

    server = make_server("127.0.0.1", 0, create_app(config), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_port}"


def _flooded(
    base: str, season_id: int, requests: int, flooders: int, settle: float, cheap: bool
) -> tuple[tuple[float, ...], dict[int, int]]:
    stop, ready, answers = SPAWN.Event(), SPAWN.Semaphore(0), SPAWN.Queue()
    processes = [
        SPAWN.Process(target=flood, args=(base, stop, ready, answers, cheap))
        for _ in range(flooders)
    ]
    for process in processes:
        process.start()
    for _ in processes:  # every flooder started (its interpreter's start is not the flood)
        if not ready.acquire(timeout=120):
            raise RuntimeError("a flooder did not start")
    time.sleep(settle)  # the flood under way (past the first failures the limits allow)
    try:
        samples = _ladder_times(base, season_id, requests)
    finally:
        stop.set()
    total: Counter[int] = Counter()
    for _ in processes:
        total.update(answers.get(timeout=120))
    for process in processes:
        process.join(timeout=30)
    return samples, dict(sorted(total.items()))


def bench_signin_flood(
    url: str | URL | None = None,
    *,
    versions: int = 2_000,
    requests: int = 100,
    flooders: int = 8,
    settle: float = 10.0,
) -> FloodFigures:
    """Fill a scratch database, then time the ladder quiet and under the two floods."""
    from arena.benchmarks.store import fill, scratch_database

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # not a line per request

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
            server, thread, base = _serve(config)
            try:
                _ladder_times(base, season_id, 3)  # warm-up
                quiet[name] = _ladder_times(base, season_id, requests)
                flooded[name], answers[name] = _flooded(
                    base, season_id, requests, flooders, settle, cheap
                )
            finally:
                server.shutdown()
                thread.join(timeout=30)
                server.server_close()
    return FloodFigures(backend, versions, flooders, quiet, flooded, answers)


def describe(figures: FloodFigures) -> str:
    """The lines `arena bench signin-flood` prints."""
    requests = len(next(iter(figures.flooded.values())))
    lines = [
        f"arena bench signin-flood — {figures.backend}: ladder page (top 50 of "
        f"{figures.versions:,}) over real HTTP, {requests} requests per phase, "
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
    return "\n".join(lines)
