"""The live server (`arena live`, web/crowd.py) as it runs: real processes (the site under
waitress and the live server in front of it, `web.crowdbench.LiveStack`) on this test's
database (SQLite and PostgreSQL), real SSE connections, live events written through the
store as a worker writes them."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from sqlalchemy import update

from arena.engine import preset
from arena.store import write_transaction
from arena.store.live import append_events, clear_events, events_after, watched
from arena.store.models import Match, MatchStatus
from tests.web.test_live import _recorded_events
from web.bench import add_match
from web.crowdbench import LiveStack, watch_streams
from web.live import READ_LIMIT

SECRET = "test secret"  # the site's key in tests/web/conftest.py: its cookies are valid here


def _cookie(client, auth, name: str) -> dict[str, str]:
    auth.login(name)
    cookie = client.get_cookie("session")
    assert cookie is not None
    return {"Cookie": f"session={cookie.value}"}


def _events(stream: list[tuple[float, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [e for _, m in stream if m.get("event") is None for e in m["data"]]


def _set_status(db, match_id: int, status: MatchStatus) -> None:
    with write_transaction(db):
        db.execute(update(Match).where(Match.id == match_id).values(status=status))


def add_many_batches(db, world) -> int:
    """A finished match whose live events are more batches than one read takes."""
    with write_transaction(db):
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=preset("standard"),
            seed=12,
        )
    for index in range(READ_LIMIT + 20):
        append_events(db, match_id, [{"kind": "note", "index": index}])
    _set_status(db, match_id, MatchStatus.DONE)
    return match_id


def test_fifty_watchers_get_each_batch_cut_for_them_from_one_read_per_poll(
    database, client, auth, db, world
):
    match_id, events = _recorded_events(db, world)
    half = len(events) // 2
    clear_events(db, match_id)
    append_events(db, match_id, events[:half])  # the first half is there before they come
    alice = _cookie(client, auth, "alice")  # alice's bot is entrant 0
    url_base: list[str] = []
    counted: dict[str, Any] = {}
    errors: list[BaseException] = []

    def play_on(stack: LiveStack) -> None:
        try:
            before = stack.status()
            after = before
            deadline = time.monotonic() + 30
            # Polls with every stream open and nothing to send (ten or so: a second
            # on a quiet machine).
            while after["polls"] - before["polls"] < 10 and time.monotonic() < deadline:
                time.sleep(0.2)
                after = stack.status()
            counted.update(before=before, after=after)
            append_events(db, match_id, events[half:])  # as the worker writes it
            time.sleep(0.5)
            _set_status(db, match_id, MatchStatus.DONE)
        except BaseException as error:
            errors.append(error)

    with LiveStack(database, secret=SECRET) as stack:
        url_base.append(stack.url)
        url = f"{stack.url}/matches/{match_id}/live"

        async def both() -> tuple[list[Any], list[Any]]:
            writer: list[threading.Thread] = []

            def opened(_count: int) -> None:
                if len(writer) == 0:
                    writer.append(threading.Thread(target=play_on, args=(stack,)))
                    writer[0].start()

            gate = asyncio.Event()

            def anonymous_open(count: int) -> None:
                gate.set()

            anonymous_task = asyncio.create_task(watch_streams(url, 25, opened=anonymous_open))
            await asyncio.wait_for(gate.wait(), timeout=60)
            owners = await watch_streams(url, 25, headers=alice, opened=opened)
            anonymous = await anonymous_task
            writer[0].join(timeout=30)
            return anonymous, owners

        anonymous, owners = asyncio.run(both())
    assert not errors
    # One read per poll for all fifty: the statements on the live events are the polls.
    before, after = counted["before"], counted["after"]
    assert before["open_streams"] == after["open_streams"] == 50
    assert after["matches"] == 1
    polls = after["polls"] - before["polls"]
    assert polls >= 10
    # One statement a poll, for all fifty (one read may be under way when either count
    # is taken: its statement counted, its poll not yet).
    assert abs(after["statements"] - before["statements"] - polls) <= 1
    kinds = [e["kind"] for e in events]
    for stream in anonymous + owners:
        assert stream[-1][1] == {"event": "end", "data": {"status": "done"}}
        assert [e["kind"] for e in _events(stream)] == kinds
        ids = [int(m["id"]) for _, m in stream if "id" in m]
        assert len(ids) == 2 and ids == sorted(ids)
    for stream in anonymous:
        shown = _events(stream)
        for event in shown:
            if event["kind"] in ("hand", "hand_end"):
                assert all(card == "XX" for cards in event["hand"]["deal"] for card in cards)
                assert "seed" not in event["hand"]
            if event["kind"] == "passes":
                assert all(card == "XX" for p in event["passes"] for card in p["cards"])
        assert not any("note" in e["play"] for e in shown if e["kind"] == "play")
    originals = [e for e in events if e["kind"] == "hand"]
    for stream in owners:
        shown = _events(stream)
        hands = [e for e in shown if e["kind"] == "hand"]
        assert len(hands) == len(originals)
        for hand, original in zip(hands, originals, strict=True):
            assert hand["hand"]["deal"][0] == original["hand"]["deal"][0]  # alice's seat
            for seat in (1, 2, 3):  # another owner's hidden cards: never
                assert set(hand["hand"]["deal"][seat]) == {"XX"}
        noted = {e["play"]["seat"] for e in shown if e["kind"] == "play" and "note" in e["play"]}
        assert noted == {0}


def test_a_watcher_resumes_after_its_last_event_id_with_its_own_cut(
    database, client, auth, db, world
):
    match_id, _events_told = _recorded_events(db, world)
    (first_id, _), (second_id, second) = events_after(db, match_id)
    db.rollback()
    _set_status(db, match_id, MatchStatus.DONE)
    alice = _cookie(client, auth, "alice")
    many = add_many_batches(db, world)
    with LiveStack(database, secret=SECRET) as stack:
        url = f"{stack.url}/matches/{match_id}/live"
        (stream,) = asyncio.run(
            watch_streams(url, 1, headers={**alice, "Last-Event-ID": str(first_id)})
        )
        (by_query,) = asyncio.run(watch_streams(f"{url}?after={second_id}", 1))
        (all_of_them,) = asyncio.run(watch_streams(f"{stack.url}/matches/{many}/live", 1))
    # More batches than one read takes: every one before the end.
    assert [m["data"][0]["index"] for _, m in all_of_them[:-1]] == list(range(READ_LIMIT + 20))
    assert all_of_them[-1][1] == {"event": "end", "data": {"status": "done"}}
    assert [m.get("id") for _, m in stream] == [str(second_id), None]
    shown = _events(stream)
    assert len(shown) == len(second)
    hands = [e["hand"] for e in shown if e["kind"] in ("hand", "hand_end")]
    assert hands
    for hand in hands:  # the seating was told in the batch it had: it is found again
        assert "XX" not in hand["deal"][0]
        assert set(hand["deal"][1]) == {"XX"}
    assert [m for _, m in by_query] == [{"event": "end", "data": {"status": "done"}}]


def test_a_running_match_is_marked_watched_and_bad_requests_get_the_sites_answers(
    database, db, world
):
    match_id, _events_told = _recorded_events(db, world)
    db.rollback()
    assert not watched(db, match_id)
    with LiveStack(database, secret=SECRET) as stack:

        async def watch_a_moment() -> None:
            stop = asyncio.Event()

            async def until_watched() -> None:  # the stream's beat, however loaded we are
                deadline = time.monotonic() + 30
                while not await asyncio.to_thread(watched, db, match_id):
                    if time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.2)
                stop.set()

            checking: list[asyncio.Task[None]] = []

            def opened(_count: int) -> None:
                checking.append(asyncio.create_task(until_watched()))

            await watch_streams(f"{stack.url}/matches/{match_id}/live", 3, opened=opened, stop=stop)
            await asyncio.gather(*checking)

        asyncio.run(watch_a_moment())
        assert watched(db, match_id)  # the worker now writes this match's events
        for path, status in (
            ("/matches/999999/live", 404),
            (f"/matches/{match_id}/live?after=x", 400),
        ):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(stack.url + path, timeout=10)
            assert refused.value.code == status, path
        request = urllib.request.Request(
            f"{stack.url}/api/v1/matches/{match_id}/live",
            headers={"Authorization": "Bearer not-a-token"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 401
        assert "Bearer" in refused.value.headers["WWW-Authenticate"]
        # A HEAD gets the stream's head and nothing after it (no stream is opened).
        head = urllib.request.Request(f"{stack.url}/matches/{match_id}/live", method="HEAD")
        with urllib.request.urlopen(head, timeout=10) as answer:
            assert answer.status == 200
            assert answer.headers["Content-Type"].startswith("text/event-stream")
            assert answer.read() == b""
        # Every other page is the site's, through the live server in front of it.
        with urllib.request.urlopen(f"{stack.url}/matches/{match_id}", timeout=10) as page:
            assert page.status == 200
            assert f'data-live-url="/matches/{match_id}/live"' in page.read().decode()
        # The watchers left: their streams are closed at once, not at the next keep-alive.
        deadline = time.monotonic() + 5
        while stack.status()["open_streams"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert stack.status()["open_streams"] == 0
