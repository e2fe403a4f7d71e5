"""Bots' notes on the site: beside each decision for the bot's owner (and the admins),
removed for everyone else, in the replay the viewer fetches and the download."""

from __future__ import annotations

import copy

from sqlalchemy import select

from arena.match import replay as replay_io
from arena.match.replay import decision_records
from arena.match.verify import verify
from arena.store import write_transaction
from arena.store.models import Replay
from web.replays import redact, replay_document


def add_notes(db, match_id):
    """Give every decision a note naming its entrant (alice's bot is entrant 0, bob's 1)."""
    replay = replay_document(db, match_id)
    assert replay is not None
    for game in replay["games"]:
        for hand in game["hands"]:
            for decision in decision_records(hand):
                entrant = game["seating"][decision.record["seat"]]
                decision.record["note"] = f"entrant {entrant} thinks"
    replay["notes"] = [{"kept": 1, "dropped": 0} for _ in replay["entrants"]]
    db.rollback()  # the read above began a transaction; the write lock must come first
    with write_transaction(db):
        row = db.scalar(select(Replay).where(Replay.match_id == match_id))
        row.content = replay_io.dumps(replay)
    return replay


def noted_entrants(replay):
    return {
        note.split()[1]
        for game in replay["games"]
        for hand in game["hands"]
        for decision in decision_records(hand)
        if (note := decision.record.get("note"))
    }


def download(client, world):
    response = client.get(f"/matches/{world.match_id}/replay.json")
    assert response.status_code == 200
    return response.json


def test_only_the_owner_and_the_admins_read_a_bots_notes(client, auth, world, db):
    add_notes(db, world.match_id)
    anonymous = download(client, world)
    assert noted_entrants(anonymous) == set()
    assert verify(anonymous)  # still a whole, self-verifying replay
    assert anonymous["notes"][0] == {"kept": 1, "dropped": 0}  # counts are public
    auth.login("alice")
    assert noted_entrants(download(client, world)) == {"0"}
    auth.logout()
    auth.login("bob")
    assert noted_entrants(download(client, world)) == {"1"}
    auth.logout()
    auth.login("root")
    assert noted_entrants(download(client, world)) == {"0", "1", "2", "3"}


def test_redact_leaves_the_stored_document_as_it_was(world, db):
    replay = add_notes(db, world.match_id)
    before = copy.deepcopy(replay)
    shown = redact(replay, readable={2})
    assert replay == before
    assert noted_entrants(shown) == {"2"}
    assert redact(replay, readable={0, 1, 2, 3})["games"] == replay["games"]
