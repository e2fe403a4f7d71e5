"""A person's table as a stream (web/table_live.py, `GET /tables/<id>/live`) on the wire, with
real processes: the site alone (it streams the table itself) and `arena live` in front of
it (web/crowd.py holds the stream), on SQLite and PostgreSQL. The worker's own task plays
the table in a thread; the person answers through the site's JSON endpoints while a reader
follows the stream, dropping its connection twice and resuming with `Last-Event-ID`.

The stream carries every moment of the table exactly once, across the reconnections, and
the match's live events cut for the person's seat: a card another seat plays reaches it
as a live event, and nothing in it (nor in any moment) is another seat's card before it is
played."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from arena.store.people import TableMoment
from tests.web.conftest import AuthActions
from tests.web.factories import PASSWORD, World
from tests.web.live import LiveServer
from tests.web.test_tables import (
    PUBLIC,
    cards_outside_public,
    new_table,
    play_through,
    start_worker,
    worker,  # noqa: F401  (the fixture)
)
from web.crowdbench import LiveStack
from web.database import sessions
from web.replays import replay_document
from web.table_live import read_position

pytestmark = pytest.mark.timeout(300)

SECRET = "test secret"  # the site's key in tests/web/conftest.py: its cookies are valid here
LIVE_PUBLIC = (*PUBLIC, "play", "record")
"""Where a live event holds cards every seat has seen played (a play, a finished trick)."""

Message = dict[str, Any]


def read_stream(
    url: str,
    headers: dict[str, str],
    stop: Callable[[list[Message]], bool],
    opened: threading.Event,
) -> list[Message]:
    """The SSE messages of `url` until an `end` event, or until `stop(messages)` is true
    (the connection is then dropped, as a lost network would)."""
    messages: list[Message] = []
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        opened.set()
        fields: dict[str, Any] = {}
        while True:
            line = response.readline()
            if not line:
                return messages
            text = line.decode().rstrip("\n")
            if text == "":
                if "data" in fields:
                    fields["data"] = json.loads(fields["data"])
                    messages.append(fields)
                    if fields.get("event") == "end" or stop(messages):
                        return messages
                fields = {}
            elif not text.startswith(":"):
                key, _, value = text.partition(": ")
                fields[key] = value


def follow(
    base: str, match_id: int, cookie: dict[str, str], first_open: threading.Event
) -> tuple[list[list[Message]], threading.Event, threading.Thread]:
    """Read the table's stream in three connections (dropped after its first moment, then
    after its first batch of live events), each resuming from the last id; returns the
    connections' messages (filled by the thread returned) and the event set once the first
    reconnection is open."""
    connections: list[list[Message]] = []
    reconnected = threading.Event()
    url = f"{base}/tables/{match_id}/live"

    def last_id() -> str:
        ids = [m["id"] for c in connections for m in c if "id" in m]
        return ids[-1]

    def read() -> None:
        connections.append(
            read_stream(
                url + "?after=0:0",
                cookie,
                lambda ms: any(m.get("event") == "moment" for m in ms),
                first_open,
            )
        )
        connections.append(
            read_stream(
                url,
                {**cookie, "Last-Event-ID": last_id()},
                lambda ms: any(m.get("event") is None for m in ms),
                reconnected,
            )
        )
        connections.append(
            read_stream(url, {**cookie, "Last-Event-ID": last_id()}, lambda ms: False, reconnected)
        )

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return connections, reconnected, thread


@pytest.fixture(params=["site alone", "live server in front"])
def front(request: pytest.FixtureRequest, app: Flask, database: str) -> Iterator[str]:
    """The public address: the site served alone, or `arena live` in front of it."""
    server: AbstractContextManager[Any]
    if request.param == "site alone":
        app.config.update(LIVE_STREAM_SECONDS=120.0, LIVE_POLL_SECONDS=0.1)
        server = LiveServer(app)
    else:
        server = LiveStack(database, secret=SECRET)
    with server as running:
        yield running.url


def test_the_persons_stream_carries_their_seat_only_and_resumes_after_a_drop(
    app: Flask,
    client: FlaskClient,
    auth: AuthActions,
    world: World,
    worker: Any,  # noqa: F811
    front: str,
) -> None:
    auth.login("alice", PASSWORD)
    match_id = new_table(client)
    session = client.get_cookie("session")
    assert session is not None
    cookie = {"Cookie": f"session={session.value}"}
    # a signed-out visitor gets no stream of the person's table
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{front}/tables/{match_id}/live", timeout=60)
    assert refused.value.code == 401
    opened = threading.Event()
    connections, reconnected, reader = follow(front, match_id, cookie, opened)
    assert opened.wait(60), "the stream never opened"
    thread, outcome = start_worker(match_id)
    # the person answers once the reader has dropped its first connection and resumed
    assert reconnected.wait(120), f"the reader never resumed: {connections}"
    play_through(client, match_id)
    thread.join(timeout=120)
    reader.join(timeout=120)
    assert outcome and outcome[0].action == "recorded", outcome
    assert len(connections) == 3, connections
    messages = [m for c in connections for m in c]
    assert messages[-1].get("event") == "end" and messages[-1]["data"]["status"] == "done"
    # positions only move on; every moment came once, in order, none missing
    positions = [read_position(m["id"]) for m in messages if "id" in m]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    moments = [m["data"]["number"] for m in messages if m.get("event") == "moment"]
    with sessions(app)() as db:
        written = db.query(TableMoment).filter(TableMoment.match_id == match_id).count()
        replay = replay_document(db, match_id)
    assert moments == list(range(1, written + 1))
    batches = [read_position(m["id"])[0] for m in messages if m.get("event") is None]
    assert batches and batches == sorted(set(batches))
    # nothing shows another seat's card before it is played
    assert replay is not None
    [hand] = replay["games"][0]["hands"]
    received = set(hand["received"][0]) if hand.get("received") else set()
    hidden = {card for seat, deal in enumerate(hand["deal"]) if seat != 0 for card in deal}
    hidden -= received
    for message in messages:
        public = PUBLIC if message.get("event") == "moment" else LIVE_PUBLIC
        shown = _cards(message["data"], public)
        assert not shown & hidden, (message.get("event"), sorted(shown & hidden))
    # a card another seat played reached the person as a live event
    events = [e for m in messages if m.get("event") is None for e in m["data"]]
    bots = [e["play"]["card"] for e in events if e["kind"] == "play" and e["play"]["seat"] != 0]
    assert bots, [e["kind"] for e in events]
    dealt = [e for e in events if e["kind"] == "hand"]
    assert dealt and all(
        set(cards) == {"XX"} for e in dealt for s, cards in enumerate(e["hand"]["deal"]) if s != 0
    )


def _cards(node: Any, public: tuple[str, ...]) -> set[str]:
    """`cards_outside_public` with the given public places."""
    if isinstance(node, dict):
        return set().union(*(_cards(v, public) for k, v in node.items() if k not in public))
    if isinstance(node, list):
        return set().union(*(_cards(item, public) for item in node))
    return cards_outside_public(node)
