"""The match page reads the stored replay as it is: a v2 row's score sheet and faults come
from the document itself, and its viewer's JSON alone is re-played into v1's layout."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.store.models import Replay
from web.replays import score_sheet


def test_the_match_page_of_a_v2_replay_re_plays_nothing(client, world, db, monkeypatch):
    stored = replay_io.loads(
        db.scalar(select(Replay.content).where(Replay.match_id == world.match_id))
    )
    assert stored["version"] == 2
    assert not any(entrant["moons"] for entrant in stored["result"]["entrants"])
    expected = score_sheet(replay_view.readable(stored))  # the sheet as v1's layout gives it

    def engine(*args: object) -> None:
        raise AssertionError("the match page re-played the replay through the engine")

    monkeypatch.setattr(replay_view, "Game", engine)
    assert score_sheet(stored) == expected
    response = client.get(f"/matches/{world.match_id}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'id="score-sheet"' in page and 'id="faults"' in page
    last = expected[-1]
    assert all(f'<small class="total">{total}</small>' in page for total in last.totals)
    # The viewer's JSON is v1's layout: that one still needs the engine.
    with pytest.raises(AssertionError, match="re-played"):
        client.get(f"/matches/{world.match_id}/replay.json")


def test_a_bots_log_page_reads_the_stored_replay_as_it_is(client, auth, world, monkeypatch):
    monkeypatch.setattr(replay_view, "Game", None)  # logs and faults: no engine needed
    auth.login("alice")
    page = client.get(f"/bots/{world.alice_bot_id}/logs/{world.match_id}")
    assert page.status_code == 200
    assert "owner eyes only" in page.get_data(as_text=True)
