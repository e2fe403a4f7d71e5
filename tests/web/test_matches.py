"""The match page and its replay: seats, score sheet, faults, the viewer, the download."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from sqlalchemy import select

from arena.match.verify import verify
from web.replays import HIDDEN_DETAIL


def test_match_page(client, world):
    page = client.get(f"/matches/{world.match_id}").get_data(as_text=True)
    for part in ('id="seats"', 'id="viewer"', 'id="score-sheet"', 'id="faults"', "replay.js"):
        assert part in page, part
    assert "Spring" in page
    assert HIDDEN_DETAIL.replace("'", "&#39;") in page
    assert "bench fault at call" not in page  # the fault's text is alice's
    assert "data-jump" in page
    assert client.get("/matches/999").status_code == 404


def test_owner_sees_their_fault_texts_on_the_match_page(client, auth, world):
    auth.login("alice")
    page = client.get(f"/matches/{world.match_id}").get_data(as_text=True)
    assert "bench fault at call" in page
    assert f"/bots/{world.alice_bot_id}/logs/{world.match_id}" in page


def replay_of(client, world, **headers):
    response = client.get(f"/matches/{world.match_id}/replay.json", headers=headers)
    assert response.status_code == 200
    assert (
        response.headers["Content-Disposition"]
        == f'attachment; filename="match-{world.match_id}.json"'
    )
    return response


def test_the_replay_download_blanks_other_bots_logs_and_fault_texts(client, auth, world):
    replay = replay_of(client, world).json
    assert replay["format"] == "hearts-arena-replay"
    assert replay["logs"] == ["", "", "", ""]
    assert {f["detail"] for f in replay["faults"]} == {HIDDEN_DETAIL}
    assert verify(replay)  # still a valid, self-verifying replay
    auth.login("alice")
    mine = replay_of(client, world).json
    assert "owner eyes only" in mine["logs"][0]
    assert all("bench fault" in f["detail"] for f in mine["faults"])
    auth.logout()
    auth.login("bob")
    theirs = replay_of(client, world).json
    assert theirs["logs"][0] == ""


def test_the_replay_is_gzipped_for_clients_that_accept_it(client, world):
    response = replay_of(client, world, **{"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.data))["match_id"] == str(world.match_id)
    plain = replay_of(client, world, **{"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers


def test_a_queued_match_has_no_replay_yet(client, world, db):
    from arena.engine import preset
    from web.bench import add_match

    match_id = add_match(
        db,
        season_id=None,
        version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
        rules=preset("standard"),
        seed=1,
    )
    db.commit()
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "There is no replay yet" in page
    assert "Challenge" in page
    assert client.get(f"/matches/{match_id}/status").json["status"] == "queued"
    missing = client.get(f"/matches/{match_id}/replay.json", headers={"Accept": "application/json"})
    assert missing.status_code == 404
    assert "queued" in missing.json["error"]["message"]
    assert client.get("/matches/999/status").status_code == 404


def test_the_stored_replay_is_v2_and_the_site_serves_its_v1_view(client, world, db):
    from arena.match import replay as replay_io
    from arena.store.models import Replay

    stored = db.scalar(select(Replay.content).where(Replay.match_id == world.match_id))
    assert replay_io.loads(stored, (2,))["version"] == 2  # the runner wrote v2
    served = replay_of(client, world).json
    assert served["version"] == 1 and served["games"][0]["hands"][0]["tricks"]
    assert verify(served)


def test_a_v1_replay_stored_before_v2_still_shows(client, world, db):
    """A database's rows written before replay v2 hold v1 bytes: read by their version."""
    from arena.store.bots import sha256_hex
    from arena.store.models import Replay

    fixture = Path(__file__).parents[1] / "match" / "fixtures" / "v1-standard.json.gz"
    row = db.scalar(select(Replay).where(Replay.match_id == world.match_id))
    row.content = fixture.read_bytes()
    row.sha256, row.size = sha256_hex(row.content), len(row.content)
    db.commit()
    served = replay_of(client, world).json
    assert served["version"] == 1 and served["match_id"] == "golden-standard"
    assert verify(served)
    page = client.get(f"/matches/{world.match_id}").get_data(as_text=True)
    assert 'id="viewer"' in page and 'id="score-sheet"' in page
