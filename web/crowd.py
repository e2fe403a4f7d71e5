"""The live server: the site's live streams held on one event loop, for crowds (issue 34).

`arena live` runs it (aiohttp). It answers `GET /matches/<id>/live`,
`GET /api/v1/matches/<id>/live` and a person's own table, `GET /tables/<id>/live`
(web/table_live.py: the match's feed also reads the table's moments for it), the site's own
URLs, with the same messages as the site does under waitress, but an open stream holds no
thread: a waitress thread each capped the site at `LIVE_MAX_STREAMS` watchers, here
thousands stay open on one process.

* **Who watches** is the site's to say: each new stream runs the site's own request
  (`create_app()`'s request handling in a thread: the Flask session cookie, an API
  token, `load_match`'s 404, the `after` check's 400), in which `live_response` hands
  back a `Watcher` (web/live.py, `HANDOFF`) instead of a stream; any other answer (an
  error, a redirect) is passed on as the site gave it.
* **One read per poll for a match, whoever watches it** (`Feed`): every open stream of a
  match waits on the match's one feed, which reads the batches after the oldest batch
  any of them lacks and the match's status in one statement (`read_feed`), and tells
  the world it is watched (`arena.store.live.watch`, the worker writes while it is)
  once every `WATCH_BEAT_SECONDS`, for all of them, beside the polls. The batches are then cut per
  watcher with web/live.py's `Cut`, once per batch for every group of watchers who may
  read the same entrants (anonymous watchers: one group), and written to each stream's
  socket by the feed itself (`Stream`: no coroutine per watcher wakes for a message).
* **Resumption** is the site's: `Last-Event-ID` (or `?after=`) is read by the site's
  request; a resuming stream starts its cut where it left (the seatings of the batches
  it had).
* **Everything else** it is asked (`/`, `/ladder`, static files…) it forwards to the
  site (`--site`), so it can stand in front of the site on the one public address
  (docs/operations.md, "Live serving").

A stream that cannot keep up (its socket holding over `BUFFER_LIMIT` unsent bytes) is ended:
its browser reconnects with `Last-Event-ID` and resumes. A stream ends after
`STREAM_SECONDS` (a proxy's idle timeouts; the browser reconnects), with a keep-alive
comment every `KEEPALIVE_SECONDS` meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from aiohttp import ClientSession, ClientTimeout, web
from flask import Flask
from multidict import CIMultiDict
from sqlalchemy import Engine, and_, event, select
from sqlalchemy.orm import Session, sessionmaker
from werkzeug.test import EnvironBuilder

from arena.store import make_engine, make_sessionmaker
from arena.store.live import WATCH_BEAT_SECONDS, LiveEventBatch, watch
from arena.store.models import IN_FLIGHT_MATCH_STATUSES, Match, MatchStatus
from arena.store.people import TableMoment

from . import database
from .live import HANDOFF, KEEPALIVE_SECONDS, READ_LIMIT, Cut, Watcher, message
from .table_live import MOMENT_LIMIT, TableWatcher, batch_message, moment_messages, read_moments

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 0.1
"""How often a match's feed reads its new batches (one statement for all its watchers)."""
STREAM_SECONDS: Final = 600.0
"""How long a stream stays open before the browser is made to reconnect."""
BUFFER_LIMIT: Final = 4 * 1024 * 1024
"""Bytes a stream's socket may hold unsent before the stream is ended (its browser
resumes)."""
MAX_STREAMS: Final = 20_000
"""Open streams at most (others get 503 and a Retry-After)."""
HOP_BY_HOP: Final = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
        "content-length",
        "host",
    }
)


def read_feed(
    session: Session, match_id: int, after: int, limit: int = READ_LIMIT
) -> tuple[MatchStatus | None, list[tuple[int, list[dict[str, Any]]]]]:
    """Match `match_id`'s status and its batches after id `after`, oldest first, in ONE
    statement (the match left-joined to its batches: one snapshot for both); the status
    is None when there is no such match. Ends the read transaction it opens."""
    rows = session.execute(
        select(Match.status, LiveEventBatch.id, LiveEventBatch.events)
        .select_from(Match)
        .outerjoin(
            LiveEventBatch,
            and_(LiveEventBatch.match_id == Match.id, LiveEventBatch.id > after),
        )
        .where(Match.id == match_id)
        .order_by(LiveEventBatch.id)
        .limit(limit)
    ).all()
    session.rollback()
    if not rows:
        return None, []
    return rows[0][0], [(row[1], row[2]) for row in rows if row[1] is not None]


def feed_engine(engine: Engine) -> Engine:
    """The engine the feeds read with: on PostgreSQL one of its own in autocommit and
    without the pool's ping, so a poll is one round trip to the server (not a ping, the
    statement and a ROLLBACK: three waits for a core on a loaded machine); on SQLite, a
    file read in-process, `engine` itself."""
    if engine.dialect.name == "sqlite":
        return engine
    return make_engine(engine.url, isolation_level="AUTOCOMMIT", pool_pre_ping=False)


# -- the streams of one match, fed by one poll ------------------------------------------


def chunk(data: bytes) -> bytes:
    """`data` as one chunk of HTTP/1.1's chunked transfer coding (RFC 9112, 7.1).

    >>> chunk(b"id: 7\\n\\n")
    b'7\\r\\nid: 7\\n\\n\\r\\n'
    """
    return b"%x\r\n%s\r\n" % (len(data), data)


@dataclass(eq=False)
class Stream:
    """One open stream: the watcher's cut, the last batch id it has, and its socket.

    A message is written to the socket by the feed itself, as one chunk of the response
    (`chunk`, framed once for every stream it goes to): no coroutine of the stream wakes
    for it, which is what lets one process feed hundreds of watchers a batch at once.
    aiohttp framed the response's head and writes its last chunk (`write_eof`); nothing
    else writes to the socket meanwhile (one thread)."""

    cut: Cut
    after: int
    transport: asyncio.BaseTransport | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    moments: int | None = None
    """A person's own table (web/table_live.py): the last moment of the table it has."""

    def send(self, framed: bytes) -> None:
        """Write one framed message; a stream whose socket holds more than
        `BUFFER_LIMIT` unsent bytes (a watcher who cannot keep up) is ended instead:
        its browser reconnects and resumes after what it was sent."""
        transport = self.transport
        if self.closed or not isinstance(transport, asyncio.WriteTransport):
            return
        if transport.is_closing() or transport.get_write_buffer_size() > BUFFER_LIMIT:
            self.end()
            return
        transport.write(framed)

    def end(self) -> None:
        """The stream is over: its handler writes the last chunk and returns."""
        self.closed = True
        self.done.set()


class Feed:
    """The open streams of one match and the poll that feeds them all."""

    def __init__(self, hub: Hub, match_id: int) -> None:
        self.hub = hub
        self.match_id = match_id
        self.streams: set[Stream] = set()
        self.task: asyncio.Task[None] | None = None
        self._beat_at: float | None = None
        self._beat: asyncio.Future[None] | None = None

    async def run(self) -> None:
        """Poll while a stream is open; end every stream once the match is over."""
        try:
            while self.streams:
                full = await self.poll_once()
                if not full:
                    await asyncio.sleep(self.hub.poll)
        except Exception:
            log.exception("live feed of match %s failed; its streams reconnect", self.match_id)
            for stream in self.streams:
                stream.end()
            self.streams.clear()
        finally:
            if self.hub.feeds.get(self.match_id) is self:
                del self.hub.feeds[self.match_id]

    async def poll_once(self) -> bool:
        """One read for all the match's streams, cut and written to each; True when the
        read was full (more batches wait)."""
        after = min(stream.after for stream in self.streams)
        status, batches = await asyncio.to_thread(self.hub.read, self.match_id, after)
        self.hub.polls += 1
        in_flight = status is not None and status in IN_FLIGHT_MATCH_STATUSES
        full = len(batches) >= READ_LIMIT
        tables = [stream for stream in self.streams if stream.moments is not None]
        if tables:  # read after the status: a moment before the match's end is in it
            seat, moments = await asyncio.to_thread(
                self.hub.read_moments, self.match_id, min(s.moments or 0 for s in tables)
            )
            full = full or len(moments) >= MOMENT_LIMIT
            for stream in tables:
                self._feed_table(stream, status, batches, seat, moments)
                if not in_flight and not full:
                    self._end(stream, status)
                if stream.closed:
                    self.streams.discard(stream)
        cuts: dict[tuple[frozenset[int], int], bytes] = {}  # (readable, batch id): framed
        for stream in list(self.streams):
            if stream.moments is not None:
                continue  # a person's table: fed above
            for batch_id, events in batches:
                if batch_id <= stream.after:
                    continue
                key = (stream.cut.readable, batch_id)
                text = cuts.get(key)
                if text is None:
                    shown = stream.cut.batch(events)
                    text = cuts[key] = chunk(message(shown, event_id=batch_id).encode())
                else:
                    stream.cut.follow(events)
                stream.send(text)
                stream.after = batch_id
            if not in_flight and not full:
                self._end(stream, status)
            if stream.closed:
                self.streams.discard(stream)
        if in_flight:
            self._watch_beat()
        return full

    @staticmethod
    def _end(stream: Stream, status: MatchStatus | None) -> None:
        """The match is over: say so and end the stream."""
        ended = "missing" if status is None else status.value
        stream.send(chunk(message({"status": ended}, event="end").encode()))
        stream.end()

    @staticmethod
    def _feed_table(
        stream: Stream,
        status: MatchStatus | None,
        batches: list[tuple[int, list[dict[str, Any]]]],
        seat: int | None,
        moments: list[TableMoment],
    ) -> None:
        """A person's own table: the batches cut for their seat, then the moments it lacks,
        each with its position (web/table_live.py); one person, so nothing is shared."""
        moment = stream.moments or 0
        for batch_id, events in batches:
            if batch_id > stream.after:
                stream.send(chunk(batch_message(stream.cut, events, batch_id, moment).encode()))
                stream.after = batch_id
        fresh = [m for m in moments if m.number > moment]
        for number, text in moment_messages(status, seat, fresh, stream.after, datetime.now(UTC)):
            stream.send(chunk(text.encode()))
            stream.moments = number

    def _watch_beat(self) -> None:
        """Tell the worker the match is watched, at most every `beat` seconds, beside the
        polls (a write transaction: the batches read go out before it, not after)."""
        now = time.monotonic()
        if self._beat_at is not None and now - self._beat_at < self.hub.beat:
            return
        if self._beat is not None and not self._beat.done():
            return
        self._beat_at = now
        self._beat = asyncio.ensure_future(asyncio.to_thread(self.hub.watch, self.match_id))
        self._beat.add_done_callback(self._beat_done)

    def _beat_done(self, beat: asyncio.Future[None]) -> None:
        error = None if beat.cancelled() else beat.exception()
        if error is not None:
            log.error("match %s: cannot say it is watched", self.match_id, exc_info=error)


class Hub:
    """Every match's feed; what the streams join and leave."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        poll: float = POLL_SECONDS,
        beat: float = WATCH_BEAT_SECONDS,
        reads: sessionmaker[Session] | None = None,
    ) -> None:
        self.sessions = sessions
        self.reads = reads or sessions
        self.poll = poll
        self.beat = beat
        self.feeds: dict[int, Feed] = {}
        self.polls = 0
        """Feed reads so far (one per poll of a match, whoever watches it)."""

    def read(
        self, match_id: int, after: int
    ) -> tuple[MatchStatus | None, list[tuple[int, list[dict[str, Any]]]]]:
        """`read_feed` in a session of its own (run in a thread)."""
        with self.reads() as session:
            return read_feed(session, match_id, after)

    def read_moments(self, match_id: int, after: int) -> tuple[int | None, list[TableMoment]]:
        """A person's table: its seat and its moments after `after` (run in a thread)."""
        with self.sessions() as session:
            return read_moments(session, match_id, after)

    def watch(self, match_id: int) -> None:
        """Tell the worker the match is watched (run in a thread)."""
        with self.sessions() as session:
            watch(session, match_id)

    def resume(self, watcher: Watcher) -> Cut:
        """The watcher's cut, resumed after the batches it has (run in a thread)."""
        with self.sessions() as session:
            return Cut.resumed(session, watcher)

    async def join(self, watcher: Watcher, transport: asyncio.BaseTransport | None) -> Stream:
        """A stream of the watcher's match on `transport` (its response's head sent),
        fed from its match's next poll on."""
        cut = await asyncio.to_thread(self.resume, watcher) if watcher.after else None
        stream = Stream(cut or Cut.started(watcher), watcher.after, transport)
        if isinstance(watcher, TableWatcher):
            stream.moments = watcher.moments
        feed = self.feeds.get(watcher.match_id)
        if feed is None or feed.task is None or feed.task.done():
            feed = self.feeds[watcher.match_id] = Feed(self, watcher.match_id)
            feed.streams.add(stream)
            feed.task = asyncio.get_running_loop().create_task(feed.run())
        else:
            feed.streams.add(stream)
        return stream

    def leave(self, match_id: int, stream: Stream) -> None:
        """The stream is gone (its feed stops when it was the last)."""
        stream.end()
        feed = self.feeds.get(match_id)
        if feed is not None:
            feed.streams.discard(stream)

    def open_streams(self) -> int:
        """Streams open now, over every match."""
        return sum(len(feed.streams) for feed in self.feeds.values())


# -- asking the site who watches --------------------------------------------------------


@dataclass(frozen=True)
class SiteAnswer:
    """What the site's own request for a live URL gave: the `Watcher` it found (then
    only its cookies matter: a stale session cleared), or the answer to pass on."""

    watcher: Watcher | None
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def cookies(self) -> list[str]:
        """The `Set-Cookie` values of the site's answer."""
        return [value for key, value in self.headers if key.lower() == "set-cookie"]


def ask_site(app: Flask, request: web.Request) -> SiteAnswer:
    """Run the site's own request for this live URL (web/live.py, `HANDOFF`): its
    session cookie, API token and errors as for any request. Blocking: run it in a
    thread."""
    environ = EnvironBuilder(
        path=request.path,
        method=request.method,
        query_string=request.query_string,
        headers=list(request.headers.items()),
        environ_base={"REMOTE_ADDR": request.remote or ""},
    ).get_environ()
    environ[HANDOFF] = True
    with app.request_context(environ):
        response = app.full_dispatch_request()
        found = environ.get(HANDOFF)
        return SiteAnswer(
            found if isinstance(found, Watcher) else None,
            response.status_code,
            list(response.headers.items()),
            b"" if isinstance(found, Watcher) else response.get_data(),
        )


# -- the server -------------------------------------------------------------------------


class LiveServer:
    """The aiohttp application: the live routes, a status route, and the site behind."""

    def __init__(
        self,
        app: Flask,
        *,
        site: str | None = None,
        poll: float = POLL_SECONDS,
        stream_seconds: float = STREAM_SECONDS,
        keepalive: float = KEEPALIVE_SECONDS,
        max_streams: int = MAX_STREAMS,
    ) -> None:
        self.app = app
        self.site = site.rstrip("/") if site else None
        engine = database.sessions(app).kw["bind"]
        self.reads = feed_engine(engine)
        self.hub = Hub(database.sessions(app), poll=poll, reads=make_sessionmaker(self.reads))
        self.stream_seconds = stream_seconds
        self.keepalive = keepalive
        self.max_streams = max_streams
        self.streams_served = 0
        self.statements = 0
        """SQL statements the live server ran on `live_events` (tests: one per poll)."""
        self._client: ClientSession | None = None
        for counted in {engine, self.reads}:
            event.listen(counted, "before_cursor_execute", self._count)

    def _count(self, *args: Any) -> None:
        statement = args[2]
        if "live_events" in statement:
            self.statements += 1

    def application(self) -> web.Application:
        """The aiohttp application to run."""
        application = web.Application()
        application.router.add_get(r"/matches/{match_id:\d+}/live", self.stream)
        application.router.add_get(r"/api/v1/matches/{match_id:\d+}/live", self.stream)
        application.router.add_get(r"/tables/{match_id:\d+}/live", self.stream)
        application.router.add_get("/live/status", self.status)
        if self.site:
            application.router.add_route("*", "/{tail:.*}", self.forward)
        application.on_cleanup.append(self._close)
        return application

    async def _close(self, _application: web.Application) -> None:
        if self._client is not None:
            await self._client.close()
        self.reads.dispose()
        for feed in list(self.hub.feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(BaseException):
                    await feed.task

    async def status(self, _request: web.Request) -> web.Response:
        """What the server holds now, as JSON (tests and `arena bench live` read it)."""
        return web.json_response(
            {
                "open_streams": self.hub.open_streams(),
                "matches": len(self.hub.feeds),
                "polls": self.hub.polls,
                "statements": self.statements,
                "streams_served": self.streams_served,
            }
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """A live stream: the site says who watches, the match's feed feeds it."""
        if self.hub.open_streams() >= self.max_streams:
            return web.Response(
                status=503,
                text="Too many people are watching live right now; try again shortly.\n",
                headers={"Retry-After": "5"},
            )
        answer = await asyncio.to_thread(ask_site, self.app, request)
        watcher = answer.watcher
        if watcher is None:
            kept = [(k, v) for k, v in answer.headers if k.lower() not in HOP_BY_HOP]
            return web.Response(status=answer.status, headers=CIMultiDict(kept), body=answer.body)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            }
        )
        for cookie in answer.cookies():
            response.headers.add("Set-Cookie", cookie)
        if request.method == "HEAD":  # the head alone: a body must never follow it
            await response.prepare(request)
            await response.write_eof()
            return response
        stream: Stream | None = None
        try:
            await response.prepare(request)
            await response.write(b"retry: 1000\n\n")
            stream = await self.hub.join(watcher, request.transport)
            self.streams_served += 1
            ends = time.monotonic() + self.stream_seconds
            while not stream.done.is_set():
                left = ends - time.monotonic()
                if left <= 0:
                    break
                try:
                    async with asyncio.timeout(min(self.keepalive, left)):
                        await stream.done.wait()
                except TimeoutError:
                    if not stream.done.is_set():
                        await response.write(b": keep-alive\n\n")
            if stream.transport is not None and not stream.transport.is_closing():
                await response.write_eof()
        except ConnectionResetError:
            pass  # the watcher left
        finally:
            if stream is not None:
                self.hub.leave(watcher.match_id, stream)
        return response

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Any other request, passed to the site and its answer back, as they are (the
        site sees the watcher's address in `X-Forwarded-For`)."""
        assert self.site is not None
        if self._client is None:
            self._client = ClientSession(
                auto_decompress=False, timeout=ClientTimeout(total=None, sock_connect=10)
            )
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in HOP_BY_HOP]
        headers.append(("Host", request.host))
        forwarded = request.headers.get("X-Forwarded-For")
        peer = request.remote or ""
        headers.append(("X-Forwarded-For", f"{forwarded}, {peer}" if forwarded else peer))
        headers.append(("X-Forwarded-Proto", request.scheme))
        body = await request.read() if request.body_exists else None
        async with self._client.request(
            request.method,
            self.site + str(request.rel_url),
            headers=CIMultiDict(headers),
            data=body,
            allow_redirects=False,
        ) as upstream:
            response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
            for key, value in upstream.headers.items():
                if key.lower() not in HOP_BY_HOP:
                    response.headers.add(key, value)
            if upstream.headers.get("Content-Length") is not None:
                response.content_length = int(upstream.headers["Content-Length"])
            await response.prepare(request)
            async for piece in upstream.content.iter_any():
                await response.write(piece)
            await response.write_eof()
        return response


def raise_open_files_limit(wanted: int) -> tuple[int, int]:
    """Raise this process's open-files limit (RLIMIT_NOFILE) towards `wanted`, up to its
    hard limit: every open stream is a socket. Returns the (soft, hard) limits now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def serve(
    app: Flask,
    *,
    host: str,
    port: int,
    site: str | None,
    poll: float = POLL_SECONDS,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Run the live server until it is stopped (SIGINT or SIGTERM)."""
    server = LiveServer(app, site=site, poll=poll)
    raise_open_files_limit(65536)

    async def ready(_application: web.Application) -> None:
        if on_ready is not None:
            on_ready(f"http://{host}:{port}/")

    application = server.application()
    application.on_startup.append(ready)
    # A watcher who leaves cancels its stream's handler at once (not at its next write):
    # the stream's place and its socket are given back.
    web.run_app(
        application,
        host=host,
        port=port,
        print=None,
        shutdown_timeout=5,
        handler_cancellation=True,
    )
