"""Watching a match live: the SSE stream of its events, cut per watcher, and the home
page's matches playing now and just finished."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select, update

from arena.engine import preset
from arena.store import write_transaction
from arena.store.live import (
    LiveWatch,
    LiveWriter,
    append_events,
    clear_events,
    events_after,
    watch,
    watched,
)
from arena.store.models import Match, MatchStatus, Replay
from web import database
from web.bench import add_match, play_and_record


def _messages(body: str) -> list[dict[str, Any]]:
    """The SSE messages of `body`: each its fields (event, id, data as JSON)."""
    found = []
    for block in body.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.strip()
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            found.append(fields)
    return found


def _recorded_events(db, world) -> tuple[int, list[dict[str, Any]]]:
    """A match played by house bots whose events were kept, with notes added to seat 0's
    and seat 1's plays; then put back to `running` with its events stored in two batches,
    as a worker leaves them mid-match."""
    with write_transaction(db):
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=preset("standard"),
            seed=11,
        )
    events: list[dict[str, Any]] = []
    play_and_record(db, match_id, on_event=lambda e: events.append(json.loads(json.dumps(e))))
    for event in events:
        if event["kind"] == "play" and event["play"]["seat"] in (0, 1):
            event["play"]["note"] = f"seat {event['play']['seat']} thinks <b>hard</b>"
    with write_transaction(db):  # as it was while it was played: running, no replay
        db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.RUNNING))
        db.execute(delete(Replay).where(Replay.match_id == match_id))
    half = len(events) // 2
    append_events(db, match_id, events[:half])
    append_events(db, match_id, events[half:])
    return match_id, events


def _finish(db, match_id: int) -> None:
    with write_transaction(db):
        db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.DONE))


def test_a_watcher_sees_played_cards_but_no_hand_seed_or_note_of_others(client, db, world):
    match_id, events = _recorded_events(db, world)
    _finish(db, match_id)  # the stream then sends what is stored and ends
    response = client.get(f"/matches/{match_id}/live")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    messages = _messages(response.get_data(as_text=True))
    assert messages[-1] == {"event": "end", "data": {"status": "done"}}
    shown = [event for message in messages[:-1] for event in message["data"]]
    assert [e["kind"] for e in shown] == [e["kind"] for e in events]
    header = shown[0]["header"]
    assert "seed" not in header
    assert header["entrants"][0]["name"] == events[0]["header"]["entrants"][0]["name"]
    hands = [e["hand"] for e in shown if e["kind"] == "hand"]
    assert hands
    for hand in hands:
        assert "seed" not in hand
        assert all(card == "XX" for cards in hand["deal"] for card in cards)
        assert all(len(cards) == 13 for cards in hand["deal"])
    plays = [e["play"] for e in shown if e["kind"] == "play"]
    assert len(plays) == sum(1 for e in events if e["kind"] == "play")
    assert all(play["card"] != "XX" for play in plays)  # played cards are on the table
    assert not any("note" in play for play in plays)
    passes = [p for e in shown if e["kind"] == "passes" for p in e["passes"]]
    assert passes
    assert all(card == "XX" for p in passes for card in p["cards"])


def test_an_owner_sees_their_own_seat_and_notes_only(client, auth, db, world):
    match_id, events = _recorded_events(db, world)
    _finish(db, match_id)
    auth.login("alice")  # alice's bot is entrant 0
    messages = _messages(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
    shown = [event for message in messages[:-1] for event in message["data"]]
    seatings = {e["game"]: e["seating"] for e in shown if e["kind"] == "game"}
    first = next(e for e in shown if e["kind"] == "hand")
    mine = seatings[first["game"]].index(0)
    original = next(e for e in events if e["kind"] == "hand")
    assert first["hand"]["deal"][mine] == original["hand"]["deal"][mine]
    others = [s for s in range(4) if s != mine]
    assert all(set(first["hand"]["deal"][s]) == {"XX"} for s in others)
    noted = [e["play"] for e in shown if e["kind"] == "play" and "note" in e["play"]]
    assert noted
    assert {play["seat"] for play in noted} == {mine}


def test_a_watcher_resumes_after_the_last_batch_it_saw(client, db, world):
    match_id, _events = _recorded_events(db, world)
    _finish(db, match_id)
    (first_id, _), (second_id, second) = events_after(db, match_id)
    db.rollback()
    response = client.get(f"/matches/{match_id}/live", headers={"Last-Event-ID": str(first_id)})
    messages = _messages(response.get_data(as_text=True))
    assert [m.get("id") for m in messages] == [str(second_id), None]
    assert len(messages[0]["data"]) == len(second)
    assert client.get(f"/matches/{match_id}/live?after=x").status_code == 400


def test_an_owner_resuming_mid_match_still_sees_their_seat(client, auth, db, world):
    """The seating was told in a batch the watcher had already: the stream finds it."""
    match_id, _events = _recorded_events(db, world)
    _finish(db, match_id)
    (first_id, _), _second = events_after(db, match_id)
    db.rollback()
    auth.login("alice")
    response = client.get(f"/matches/{match_id}/live?after={first_id}")
    shown = [e for m in _messages(response.get_data(as_text=True))[:-1] for e in m["data"]]
    hands = [e["hand"] for e in shown if e["kind"] in ("hand", "hand_end")]
    assert hands
    for hand in hands:  # one game: alice's entrant 0 sits at seat 0
        assert "XX" not in hand["deal"][0]
        assert set(hand["deal"][1]) == {"XX"}


def test_the_stream_of_a_stored_match_ends_at_once_and_unknown_matches_are_404(client, world):
    messages = _messages(client.get(f"/matches/{world.match_id}/live").get_data(as_text=True))
    assert messages == [{"event": "end", "data": {"status": "done"}}]
    assert client.get("/matches/999999/live").status_code == 404


def test_a_running_match_streams_until_its_time_is_up(app, client, db, world):
    """A bounded stream: the browser reconnects; no `end` while the match runs."""
    match_id, _events = _recorded_events(db, world)
    app.config.update(LIVE_STREAM_SECONDS=0.0, LIVE_POLL_SECONDS=0.0)
    messages = _messages(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
    assert len(messages) == 2
    assert all(m.get("event") is None for m in messages)


def test_too_many_watchers_get_503_with_a_retry_after(app, client, db, world):
    app.config.update(LIVE_MAX_STREAMS=0)
    response = client.get(f"/matches/{world.match_id}/live")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"


def test_the_live_page_and_the_home_page_show_a_running_match(client, db, world):
    match_id, _events = _recorded_events(db, world)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'data-live-url="/matches/{match_id}/live"' in page
    home = client.get("/").get_data(as_text=True)
    playing = home.split('id="playing-now"')[1].split("</section>")[0]
    assert f'href="/matches/{match_id}"' in playing
    finished = home.split('id="just-finished"')[1].split("</section>")[0]
    assert f'href="/matches/{world.match_id}"' in finished
    assert f'href="/matches/{match_id}"' not in finished


def test_clearing_a_stored_matchs_events(db, world):
    match_id, _events = _recorded_events(db, world)
    db.rollback()
    assert clear_events(db, match_id) == 2
    assert events_after(db, match_id) == []


def test_the_api_streams_the_same_events(client, db, world):
    match_id, events = _recorded_events(db, world)
    _finish(db, match_id)
    messages = _messages(client.get(f"/api/v1/matches/{match_id}/live").get_data(as_text=True))
    assert messages[-1]["event"] == "end"
    assert sum(len(m["data"]) for m in messages[:-1]) == len(events)


def test_a_hidden_seats_note_on_a_pledge_or_a_moon_choice_is_not_shown_live() -> None:
    # The pledges and the shooter's choice (004) sit under a hand's `decisions`; what a
    # seat decided is public, its note is its owner's.
    from web.live import redact_hand

    decisions: list[dict[str, Any]] = [
        {"kind": "pledge", "seat": 1, "value": True, "note": "no hearts here"},
        {"kind": "moon_choice", "seat": 2, "value": "add", "note": "I lead"},
    ]
    hand = {"seed": 7, "decisions": decisions}
    shown = redact_hand(hand, hidden={1})
    assert shown["decisions"] == [
        {"kind": "pledge", "seat": 1, "value": True},
        {"kind": "moon_choice", "seat": 2, "value": "add", "note": "I lead"},
    ]
    assert decisions[0]["note"] == "no hearts here"  # the record is left as it was


def test_a_stream_tells_the_worker_the_match_is_watched_while_it_runs(app, client, db, world):
    match_id, _events = _recorded_events(db, world)
    db.rollback()
    assert not watched(db, match_id)
    app.config.update(LIVE_STREAM_SECONDS=0.0, LIVE_POLL_SECONDS=0.0)
    client.get(f"/matches/{match_id}/live").get_data()
    assert watched(db, match_id)
    client.get(f"/matches/{world.match_id}/live").get_data()  # stored: no one to tell
    assert db.scalar(select(LiveWatch.match_id).where(LiveWatch.match_id == world.match_id)) is None


def test_a_watcher_arriving_mid_match_is_streamed_the_whole_match_so_far(app, client, db, world):
    """The worker's on-demand writer keeps a match's events until a stream says someone
    watches; the watcher's next poll gets all of them, and the rest as they come."""
    with write_transaction(db):
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=preset("standard"),
            seed=5,
        )
    app.config.update(LIVE_STREAM_SECONDS=0.0, LIVE_POLL_SECONDS=0.0)
    writer = LiveWriter(database.sessions(app), match_id, on_demand=True, poll=0)
    told: list[dict[str, Any]] = []
    first: list[list[dict[str, Any]]] = []

    def sink(event: dict[str, Any]) -> None:
        told.append(json.loads(json.dumps(event)))
        if len(told) == 300:  # the third hand or so: a watcher opens the page
            body = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
            first.append([e for m in _messages(body) for e in m["data"]])
        elif len(told) > 300 and len(told) % 50 == 0:
            # The watcher's page stays open: its stream says so every second. (Played
            # on a loaded machine, the rest of the match outlasted the one beat of the
            # request above, and the writer rightly stopped writing.)
            with database.sessions(app)() as session:
                watch(session, match_id)
        writer(event)

    play_and_record(db, match_id, on_event=sink)
    writer.flush()
    assert first == [[]]  # nothing was written before: the stream had nothing yet
    body = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    messages = _messages(body)
    assert messages[-1]["event"] == "end"
    streamed = [event for message in messages[:-1] for event in message["data"]]
    assert [e["kind"] for e in streamed] == [e["kind"] for e in told]
    assert streamed[0]["kind"] == "match" and len(told) > 600
    plays = [e["play"]["card"] for e in streamed if e["kind"] == "play"]
    assert plays == [e["play"]["card"] for e in told if e["kind"] == "play"]


def test_a_stream_sends_every_batch_before_the_end_however_many_there_are(client, db, world):
    """A match played slowly (a loaded machine) leaves more batches than one read takes:
    the stream reads on, and says the match ended only after the last."""
    from web.live import READ_LIMIT

    match_id, _events = _recorded_events(db, world)
    clear_events(db, match_id)
    count = READ_LIMIT + 20
    for index in range(count):
        append_events(db, match_id, [{"kind": "note", "index": index}])
    _finish(db, match_id)
    messages = _messages(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
    assert [m["data"][0]["index"] for m in messages[:-1]] == list(range(count))
    assert messages[-1] == {"event": "end", "data": {"status": "done"}}
