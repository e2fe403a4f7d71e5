"""Spectators of a human table (issue 34, item 2): a table made with "show spectators
every hand's cards once the hand is over" shows them every seat's cards of a hand in that
hand's `hand_end` event, and no card of the hand in play before it; without it, nothing
hidden is shown until the match is stored. Checked on the wire of both live servers: the
site's own stream (web/live.py) and the live server (web/crowd.py, real processes), which
share one rule (`web.live.Cut`); and the table's form, which sets it."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from sqlalchemy import update

from arena.store import write_transaction
from arena.store.live import append_events, clear_events
from arena.store.models import Match, MatchStatus
from arena.store.people import HumanTable
from tests.web.conftest import csrf_token
from tests.web.factories import PASSWORD
from tests.web.test_live import _messages, _recorded_events
from web.crowdbench import LiveStack, watch_streams

SECRET = "test secret"  # the site's key in tests/web/conftest.py
PERSON_SEAT = 2
CARD = re.compile(r"^[2-9TJQKA][CDSH]$")


def _human_table(db, world, *, shows: bool) -> tuple[int, list[dict[str, Any]]]:
    """A running match with its live events stored, made a human table (bob's seat 2)."""
    match_id, events = _recorded_events(db, world)
    with write_transaction(db):
        db.add(
            HumanTable(
                match_id=match_id,
                user_id=world.bob_id,
                seat=PERSON_SEAT,
                per_decision=60.0,
                show_after_hand=shows,
            )
        )
    return match_id, events


def _cards(node: Any, *, skip_plays: bool) -> set[str]:
    """Every card text in `node` (a played card's `card` left out with `skip_plays`: it is
    on the table, everyone sees it)."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if skip_plays and key == "card":
                continue
            found |= _cards(value, skip_plays=skip_plays)
    elif isinstance(node, list):
        for item in node:
            found |= _cards(item, skip_plays=skip_plays)
    elif isinstance(node, str) and CARD.match(node):
        found.add(node)
    return found


def _check_hands(shown: list[dict[str, Any]], told: list[dict[str, Any]], *, shows: bool) -> int:
    """Every event an anonymous spectator was sent, against what the runner told: no card
    but a played one in any event of a hand in play; a finished hand's every card in its
    `hand_end` when the table shows them, none when it does not. The hands ended."""
    assert [e["kind"] for e in shown] == [e["kind"] for e in told][: len(shown)]
    ended = 0
    for event, original in zip(shown, told, strict=False):
        assert "seed" not in event.get("hand", {})
        if event["kind"] == "play":
            assert "note" not in event["play"]
        if event["kind"] != "hand_end":
            assert not _cards(event, skip_plays=True), event  # the hand is in play
            continue
        ended += 1
        hand, full = event["hand"], original["hand"]
        if not shows:
            assert not _cards(hand, skip_plays=True)
            assert all(set(cards) == {"XX"} for cards in hand["deal"])
            continue
        assert hand["deal"] == full["deal"]  # every seat's, the person's included
        assert len(_cards(hand["deal"], skip_plays=False)) == 52
        assert hand.get("received") == full.get("received")
        assert [p["cards"] for p in hand.get("passes", [])] == [
            p["cards"] for p in full.get("passes", [])
        ]
        assert not any("note" in p for t in hand["tricks"] for p in t["plays"])
    return ended


@pytest.mark.parametrize("shows", [False, True], ids=["off", "on"])
def test_the_sites_stream_shows_a_finished_hand_only_at_a_table_that_says_so(
    app, client, db, world, shows
):
    match_id, told = _human_table(db, world, shows=shows)
    with write_transaction(db):
        db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.DONE))
    messages = _messages(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
    assert messages[-1] == {"event": "end", "data": {"status": "done"}}
    shown = [e for m in messages[:-1] for e in m["data"]]
    assert len(shown) == len(told)
    assert _check_hands(shown, told, shows=shows) >= 2
    api = _messages(client.get(f"/api/v1/matches/{match_id}/live").get_data(as_text=True))
    assert [e for m in api[:-1] for e in m["data"]] == shown


def test_mid_match_a_spectator_sees_the_hand_that_ended_and_no_card_of_the_one_in_play(
    app, client, auth, db, world
):
    match_id, told = _human_table(db, world, shows=True)
    ends = [i for i, e in enumerate(told) if e["kind"] == "hand_end"]
    second = [i for i, e in enumerate(told) if e["kind"] == "play"]
    cut = next(i for i in second if i > ends[0] + 10)  # the second hand's tricks under way
    clear_events(db, match_id)  # as the worker left them, the match running
    append_events(db, match_id, told[: ends[0] + 1])
    append_events(db, match_id, told[ends[0] + 1 : cut])
    app.config.update(LIVE_STREAM_SECONDS=0.0, LIVE_POLL_SECONDS=0.0)
    body = client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    messages = _messages(body)
    assert all(m.get("event") is None for m in messages)  # it runs: no end
    shown = [e for m in messages for e in m["data"]]
    assert len(shown) == cut
    assert _check_hands(shown, told, shows=True) == 1
    in_play = shown[ends[0] + 1 :]
    dealt = next(e for e in in_play if e["kind"] == "hand")
    assert all(set(cards) == {"XX"} for cards in dealt["hand"]["deal"])
    assert not _cards(in_play, skip_plays=True)
    # a bot's owner sees their own seat in play, still no other seat's
    auth.login("alice")  # alice's bot is entrant 0, at seat 0
    owner = [
        e
        for m in _messages(client.get(f"/matches/{match_id}/live").get_data(as_text=True))
        for e in m["data"]
    ]
    hand = next(e for e in owner[ends[0] + 1 :] if e["kind"] == "hand")["hand"]
    original = next(e for e in told[ends[0] + 1 :] if e["kind"] == "hand")["hand"]
    assert hand["deal"][0] == original["deal"][0]
    assert all(set(hand["deal"][s]) == {"XX"} for s in (1, 2, 3))
    finished = owner[ends[0]]["hand"]
    assert finished["deal"] == told[ends[0]]["hand"]["deal"]


@pytest.mark.parametrize("shows", [False, True], ids=["off", "on"])
def test_the_live_server_cuts_a_human_table_with_the_same_rule(database, db, world, shows):
    match_id, told = _human_table(db, world, shows=shows)
    with write_transaction(db):
        db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.DONE))
    with LiveStack(database, secret=SECRET) as stack:
        (stream,) = asyncio.run(watch_streams(f"{stack.url}/matches/{match_id}/live", 1))
    assert stream[-1][1] == {"event": "end", "data": {"status": "done"}}
    shown = [e for _, m in stream if m.get("event") is None for e in m["data"]]
    assert len(shown) == len(told)
    assert _check_hands(shown, told, shows=shows) >= 2


def test_the_tables_form_sets_what_spectators_see(client, auth, db, world):
    auth.login("alice", PASSWORD)
    form = client.get("/tables/new").get_data(as_text=True)
    assert 'name="show_after_hand"' in form and "once the hand is over" in form
    made = []
    for checked in (False, True):
        data = {
            "preset": "standard",
            "opponents": "house/heuristic-1, house/random-1, house/heuristic-2",
            "seat": "0",
            "seconds": "60",
            "hands": "1",
            "csrf_token": csrf_token(client, "/tables/new"),
        }
        if checked:
            data["show_after_hand"] = "y"
        response = client.post("/tables/new", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        match_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
        made.append(match_id)
        page = client.get(f"/tables/{match_id}").get_data(as_text=True)
        said = "every hand's cards once the hand is over" if checked else "only the cards played"
        assert said in page.split('id="spectators"')[1].split("</span>")[0]
        with write_transaction(db):  # one table at a time: the first one is over
            db.execute(update(Match).where(Match.id == match_id).values(status=MatchStatus.VOID))
    db.rollback()
    assert [db.get(HumanTable, m).show_after_hand for m in made] == [False, True]
