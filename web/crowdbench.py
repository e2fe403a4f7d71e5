"""`arena bench live`: how many live streams the live server holds, how fast a card reaches
every watcher, and what the crowd costs the ladder page.

On a scratch database (`arena.benchmarks.store`: a season of `versions` bot versions and
as many recorded matches, the ladder's page) and one match put back to *running*, the site
(`arena web`, waitress, eight threads) and the live server in front of it (`arena live
--site`) run as processes of their own (`LiveStack`), as a deployment runs them. A client
process (`_watch`, aiohttp, one event loop) opens `watchers` streams of that match
through the live server and notes when each message arrives at each stream. Meanwhile
this process writes the match's real events (a house-bot match played once beforehand)
in `batches` batches through the store (`append_events`, as a worker writes them), one
every `spacing` seconds, and times the ladder page between writes; the ladder's quiet
figure is timed through the same server with no stream open, before and after the crowd.

Figures: the streams open at once (the server's own count, `/live/status`); for each
batch, the seconds from its commit to its arrival at each watcher (all clocks are this
machine's), summed up as p50/p95/max over every (batch, watcher) pair and the worst
batch's p95; the ladder's median, quiet and with the crowd. The client shares the
machine's two cores with both servers, so its own reading of N sockets is in the
latency too (an upper bound on the server's part).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sqlalchemy import delete, select, update
from sqlalchemy.engine import URL

from arena.engine import preset
from arena.ports import free_port
from arena.store import make_engine, make_sessionmaker, migrate, write_transaction
from arena.store.live import append_events
from arena.store.models import BotVersion, Match, MatchStatus, Replay

SPAWN = multiprocessing.get_context("spawn")
LADDER: Final = "/seasons/{season}/ladder"
SECRET: Final = "arena bench live: a scratch key"


class LiveStack:
    """The site (`arena web`) and the live server in front of it (`arena live --site`)
    on free ports of 127.0.0.1, each a process in a group of its own, on `database`.

    Use as a context manager: both answer when it is entered; both are stopped (SIGTERM,
    then SIGKILL of the group) when it is left, whatever happened."""

    def __init__(
        self, database: str, *, secret: str = SECRET, poll: float = 0.1, threads: int = 8
    ) -> None:
        self.database = database
        self.secret = secret
        self.poll = poll
        self.threads = threads
        self.site_port = free_port()
        self.live_port = free_port()
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def site(self) -> str:
        """The site's own address (waitress)."""
        return f"http://127.0.0.1:{self.site_port}"

    @property
    def url(self) -> str:
        """The public address: the live server, the site behind it."""
        return f"http://127.0.0.1:{self.live_port}"

    def __enter__(self) -> LiveStack:
        arena = str(Path(sys.executable).with_name("arena"))
        env = {
            **os.environ,
            "ARENA_DATABASE_URL": self.database,
            "ARENA_SECRET_KEY": self.secret,
            "ARENA_LOG_LEVEL": "WARNING",
        }
        try:
            for command in (
                [arena, "web", "--port", str(self.site_port), "--threads", str(self.threads)],
                [
                    *(arena, "live", "--port", str(self.live_port)),
                    *("--site", self.site, "--poll", str(self.poll)),
                ],
            ):
                self.processes.append(
                    subprocess.Popen(
                        command, env=env, start_new_session=True, stdout=subprocess.DEVNULL
                    )
                )
            _wait_until_answers(self.site + "/", self.processes[0])
            _wait_until_answers(self.url + "/live/status", self.processes[1])
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.processes = []

    def status(self) -> dict[str, Any]:
        """The live server's `/live/status`."""
        with urllib.request.urlopen(self.url + "/live/status", timeout=10) as response:
            found: dict[str, Any] = json.load(response)
            return found


def _wait_until_answers(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within two minutes")


# -- watchers ---------------------------------------------------------------------------


async def watch_streams(
    url: str,
    count: int,
    *,
    headers: dict[str, str] | None = None,
    opened: Any = None,
    stop: asyncio.Event | None = None,
    until_end: bool = True,
    parse: bool = True,
) -> list[list[tuple[float, dict[str, Any]]]]:
    """Open `count` SSE streams of `url` at once and read them: for each stream, its
    messages as (arrival time.time(), {"event", "id", "data"}), until an `end` event
    (with `until_end`) or `stop` is set. `opened(n)` is called once all have answered.
    Without `parse`, a message's data is left as its text."""
    from aiohttp import ClientSession, ClientTimeout, TCPConnector

    from .crowd import raise_open_files_limit

    raise_open_files_limit(count * 2 + 256)
    received: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in range(count)]
    answered = 0
    all_open = asyncio.Event()

    async def one(index: int, session: ClientSession) -> None:
        nonlocal answered
        async with session.get(url, headers=headers or {}) as response:
            if response.status != 200:
                raise RuntimeError(f"stream {index}: {response.status} {await response.text()}")
            answered += 1
            if answered == count:
                all_open.set()
            fields: dict[str, Any] = {}
            while True:
                line = await response.content.readline()
                if not line:
                    return
                text = line.decode().rstrip("\n")
                if text == "":
                    if "data" in fields:
                        if parse:
                            fields["data"] = json.loads(fields["data"])
                        received[index].append((time.time(), fields))
                        if until_end and fields.get("event") == "end":
                            return
                    fields = {}
                elif not text.startswith(":"):
                    name, _, value = text.partition(":")
                    fields[name] = value.strip()

    connector = TCPConnector(limit=0, force_close=True)
    async with ClientSession(connector=connector, timeout=ClientTimeout(total=None)) as session:
        tasks = [asyncio.create_task(one(index, session)) for index in range(count)]
        await asyncio.wait_for(all_open.wait(), timeout=120)
        if opened is not None:
            opened(count)
        waits: list[asyncio.Future[Any]] = [asyncio.gather(*tasks)]
        if stop is not None:
            waits.append(asyncio.ensure_future(stop.wait()))
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for future in done:
            future.result()
        for task in tasks:
            task.cancel()
        for future in pending:
            future.cancel()
        await asyncio.gather(*tasks, *pending, return_exceptions=True)
    return received


class _Arrivals(asyncio.Protocol):
    """One stream read as cheaply as Python reads a socket: the chunked body split into
    SSE messages by `find`, each message's id noted with the time its last byte came.
    (The bench's client shares the machine's cores with the servers: aiohttp's line
    reader cost it several times more per message.)"""

    def __init__(self, request: bytes, answered: Callable[[bool], None]) -> None:
        self.request = request
        self.answered = answered
        self.arrivals: dict[int, float] = {}
        self.raw = bytearray()
        self.text = bytearray()
        self.head_done = False
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.raw += data
        if not self.head_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.raw[:end])
            del self.raw[: end + 4]
            self.head_done = True
            self.answered(head.startswith(b"HTTP/1.1 200"))
        while True:  # whole chunks: "<hex size>\r\n<data>\r\n"
            line = self.raw.find(b"\r\n")
            if line < 0:
                return
            size = int(self.raw[:line], 16)
            if len(self.raw) < line + 2 + size + 2:
                return
            self.text += self.raw[line + 2 : line + 2 + size]
            del self.raw[: line + 2 + size + 2]
            while (end := self.text.find(b"\n\n")) >= 0:
                message = bytes(self.text[:end])
                del self.text[: end + 2]
                if message.startswith(b"id: "):
                    self.arrivals[int(message[4 : message.index(b"\n")])] = now

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def arrivals_at(
    url: str, count: int, opened: Callable[[int], None], stop: asyncio.Event
) -> list[dict[int, float]]:
    """Open `count` streams of `url` (an http:// URL of this machine) and note when each
    message id arrives at each, until `stop` is set."""
    from urllib.parse import urlsplit

    from .crowd import raise_open_files_limit

    raise_open_files_limit(count * 2 + 256)
    parts = urlsplit(url)
    request = (
        f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    answers: list[bool] = []
    all_open = asyncio.Event()

    def answered(ok: bool) -> None:
        answers.append(ok)
        if len(answers) == count:
            all_open.set()

    readers: list[_Arrivals] = []
    transports: list[asyncio.BaseTransport] = []
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    for _ in range(count):
        opening = await loop.create_connection(lambda: _Arrivals(request, answered), host, port)
        transports.append(opening[0])
        readers.append(opening[1])
    try:
        await asyncio.wait_for(all_open.wait(), timeout=120)
        if not all(answers):
            raise RuntimeError(f"{answers.count(False)} of {count} streams were refused")
        opened(count)
        await stop.wait()
    finally:
        for transport in transports:
            transport.close()
    return [reader.arrivals for reader in readers]


def _watch(url: str, count: int, ready: Any, stop: Any, results: Any) -> None:
    """The client process: `count` streams until `stop` is set; then the arrival times of
    each batch id at each stream go to `results`."""

    async def main() -> list[dict[int, float]]:
        stopped = asyncio.Event()

        async def watch_stop() -> None:
            await asyncio.to_thread(stop.wait)
            stopped.set()

        watcher = asyncio.create_task(watch_stop())
        try:
            return await arrivals_at(url, count, ready.put, stopped)
        finally:
            watcher.cancel()

    try:
        arrivals = asyncio.run(main())
    except BaseException as error:
        ready.put(f"{type(error).__name__}: {error}")
        raise
    results.put(arrivals)


# -- the bench --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class LiveFigures:
    """What one `arena bench live` run measured."""

    backend: str
    watchers: int
    held: int
    batches: int
    latencies: tuple[float, ...]
    """Seconds from a batch's commit to its arrival, for every (batch, watcher)."""
    batch_p95: tuple[float, ...]
    missing: int
    """(batch, watcher) pairs that never arrived."""
    quiet: tuple[float, ...]
    crowded: tuple[float, ...]


def _percentile(values: list[float] | tuple[float, ...], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def _ladder(url: str, requests: int) -> list[float]:
    opener = urllib.request.build_opener()
    samples = []
    for _ in range(requests):
        begin = time.perf_counter()
        with opener.open(url, timeout=30) as response:
            response.read()
            if response.status != 200:
                raise RuntimeError(f"the ladder answered {response.status}")
        samples.append(time.perf_counter() - begin)
    return samples


def _running_match(database: str, version_ids: list[int]) -> tuple[int, list[dict[str, Any]]]:
    """A match played once by house bots, put back to running with no event written: its
    real events, to be written again batch by batch."""
    from . import create_app
    from .bench import add_match, play_and_record
    from .database import dispose, sessions

    app = create_app({"DATABASE_URL": database, "SECRET_KEY": SECRET})
    try:
        with sessions(app)() as db:
            with write_transaction(db):
                match_id = add_match(
                    db, season_id=None, version_ids=version_ids, rules=preset("standard"), seed=3
                )
            events: list[dict[str, Any]] = []
            play_and_record(
                db, match_id, on_event=lambda e: events.append(json.loads(json.dumps(e)))
            )
            with write_transaction(db):
                db.execute(
                    update(Match).where(Match.id == match_id).values(status=MatchStatus.RUNNING)
                )
                db.execute(delete(Replay).where(Replay.match_id == match_id))
    finally:
        dispose(app)
    return match_id, events


def bench_live(
    url: str | URL | None = None,
    *,
    watchers: int = 500,
    batches: int = 20,
    spacing: float = 0.5,
    ladder_requests: int = 40,
    versions: int = 500,
    poll: float = 0.1,
) -> LiveFigures:
    """Run the bench once on a scratch database (module docstring)."""
    from arena.benchmarks.store import fill, scratch_database

    with scratch_database(url) as scratch:
        migrate.upgrade(scratch)
        engine = make_engine(scratch)
        try:
            with make_sessionmaker(engine)() as session:
                season_id = fill(session, versions=versions, matches=versions)
                session.commit()
                version_ids = list(session.scalars(select(BotVersion.id).limit(4)))
            backend = engine.dialect.name
            database = scratch.render_as_string(hide_password=False)
            match_id, events = _running_match(database, version_ids)
            per_batch = max(1, len(events) // batches)
            chunks = [events[i * per_batch : (i + 1) * per_batch] for i in range(batches)]
            sessions = make_sessionmaker(engine)
            with LiveStack(database, poll=poll) as stack:
                ladder = stack.url + LADDER.format(season=season_id)
                _ladder(ladder, 3)  # warm
                quiet = _ladder(ladder, ladder_requests // 2)
                ready, results = SPAWN.Queue(), SPAWN.Queue()
                stop = SPAWN.Event()
                client = SPAWN.Process(
                    target=_watch,
                    args=(f"{stack.url}/matches/{match_id}/live", watchers, ready, stop, results),
                )
                client.start()
                try:
                    told = ready.get(timeout=180)
                    if not isinstance(told, int):
                        raise RuntimeError(f"the watchers' process failed: {told}")
                    held = int(stack.status()["open_streams"])
                    written: dict[int, float] = {}
                    crowded: list[float] = []
                    per_gap = max(1, ladder_requests // batches)
                    for chunk in chunks:
                        with sessions() as session:
                            batch_id = append_events(session, match_id, chunk)
                        written[batch_id] = time.time()
                        began = time.monotonic()
                        crowded += _ladder(ladder, per_gap)
                        time.sleep(max(0.0, spacing - (time.monotonic() - began)))
                    time.sleep(1.0)
                    stop.set()
                    arrivals: list[dict[int, float]] = results.get(timeout=120)
                finally:
                    stop.set()
                    client.join(timeout=30)
                    if client.is_alive():
                        client.kill()
                quiet += _ladder(ladder, ladder_requests // 2)
        finally:
            engine.dispose()
    latencies: list[float] = []
    batch_p95: list[float] = []
    missing = 0
    for batch_id, at in written.items():
        times = [stream[batch_id] - at for stream in arrivals if batch_id in stream]
        missing += len(arrivals) - len(times)
        latencies += times
        if times:
            batch_p95.append(_percentile(times, 0.95))
    return LiveFigures(
        backend=backend,
        watchers=watchers,
        held=held,
        batches=len(written),
        latencies=tuple(latencies),
        batch_p95=tuple(batch_p95),
        missing=missing,
        quiet=tuple(quiet),
        crowded=tuple(crowded),
    )


def describe(figures: LiveFigures) -> str:
    """The figures as a few lines of text."""
    lat = figures.latencies
    quiet = statistics.median(figures.quiet) * 1000
    crowded = statistics.median(figures.crowded) * 1000
    lines = [
        f"database: {figures.backend}; watchers asked: {figures.watchers}; "
        f"streams held by the live server: {figures.held}",
        f"batches written: {figures.batches}; (batch, watcher) arrivals: {len(lat)}, "
        f"missing: {figures.missing}",
    ]
    if lat:
        lines.append(
            "a batch's commit to its arrival at a watcher (ms): "
            f"p50 {_percentile(lat, 0.5) * 1000:.0f}, p95 {_percentile(lat, 0.95) * 1000:.0f}, "
            f"max {max(lat) * 1000:.0f}; worst batch's p95 {max(figures.batch_p95) * 1000:.0f}"
        )
    lines.append(
        f"ladder page median (ms): quiet {quiet:.1f}, with the crowd {crowded:.1f} "
        f"({crowded / quiet:.2f}x; {len(figures.quiet)} and {len(figures.crowded)} requests)"
    )
    return "\n".join(lines)
