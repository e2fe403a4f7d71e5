"""Intervals and tie groups on the ladder, the final results and the API; the season's
luck figures from its own replays; the owner-pair report for admins."""

from __future__ import annotations

from sqlalchemy import select

from arena.seasons import finish_season
from arena.seasons.evidence import store_evidence
from arena.store import write_transaction
from arena.store.bots import ensure_house_bots
from arena.store.models import Season, SeasonEntry
from web.bench import add_match, play_and_record

from .factories import WORLD_RULES, row


def play_some(db, world, count: int) -> None:
    """`count` more recorded matches of the world's season: alice, bob and two house bots
    (in-process house bots play every seat, with real replays)."""
    house = [v.id for v in ensure_house_bots(db)]
    db.commit()
    for i in range(count):
        with write_transaction(db):
            match_id = add_match(
                db,
                season_id=world.season_id,
                version_ids=[
                    world.alice_version_id,
                    world.bob_version_id,
                    *house[i % 3 : i % 3 + 2],
                ],
                rules=WORLD_RULES,  # the season's rules (tests/web/factories.py)
                seed=100 + i,
            )
        play_and_record(db, match_id)


def test_the_ladder_shows_95_percent_intervals_and_tie_groups(client, world, db):
    play_some(db, world, 3)
    page = client.get(f"/seasons/{world.season_id}/ladder").get_data(as_text=True)
    assert "95 % interval" in page and "Tie group" in page
    assert "ranks 1–" in page  # after four games nobody is told apart yet
    body = client.get(f"/api/v1/seasons/{world.season_id}/ladder").get_json()
    line = body["items"][0]
    low, high = line["elo_interval"]
    assert low < line["elo"] < high
    assert abs((high - low) - 2 * 1.96 * line["elo_error"]) < 1.0
    assert line["tie_group"][0] == 1 and line["tie_label"].startswith("1")


def test_a_finished_season_freezes_the_batch_fit_with_intervals(client, auth, world, db):
    play_some(db, world, 6)
    assert client.get(f"/api/v1/seasons/{world.season_id}/final").status_code == 409
    assert finish_season(db, world.season_id)
    entries = db.scalars(
        select(SeasonEntry).where(
            SeasonEntry.season_id == world.season_id, SeasonEntry.final_rank.is_not(None)
        )
    ).all()
    # alice and bob are ranked; the house bots that filled the seats take no place
    assert {e.bot_version_id for e in entries} == {world.alice_version_id, world.bob_version_id}
    unranked = db.scalars(
        select(SeasonEntry).where(
            SeasonEntry.season_id == world.season_id, SeasonEntry.final_rank.is_(None)
        )
    ).all()
    assert unranked and all(e.bot_version.bot.is_house for e in unranked)
    for entry in entries:
        assert entry.final_low is not None and entry.final_high is not None
        assert entry.final_low <= entry.final_points <= entry.final_high
        assert entry.final_tie_first <= entry.final_rank <= entry.final_tie_last
    assert sorted(e.final_rank for e in entries) == list(range(1, len(entries) + 1))
    report = row(db, Season, world.season_id).final_report
    assert report is not None and report["tables"] == 7 and report["fitted"] == len(entries)

    body = client.get(f"/api/v1/seasons/{world.season_id}/final").get_json()
    first = body["items"][0]
    assert first["rank"] == 1 and first["interval"][0] <= first["points_vs_field"]
    assert first["tie_group"][0] == 1 and body["report"]["tables"] == 7
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "Points / hand vs field" in page
    # two ranked entrants, told apart by their intervals after seven games: one place each
    assert 'class="tie-group">1<' in page and 'class="tie-group">2<' in page

    evidence = store_evidence(db, world.season_id)
    assert evidence["games"] == 7 and evidence["duplicate_reduction"] is None
    assert evidence["luck_reduction"] > 0
    db.rollback()
    stored = row(db, Season, world.season_id).final_report
    assert stored is not None and stored["evidence"]["games"] == 7
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert "Luck measured" in page and "single games only" in page
    auth.login("root")  # the organiser choosing the next season's format sees it too
    form = client.get("/seasons/new").get_data(as_text=True)
    assert 'id="format-evidence"' in form and "single games only" in form


def test_only_admins_see_the_owner_pairs(client, auth, world, db):
    play_some(db, world, 2)
    assert 'id="owner-pairs"' not in client.get(f"/seasons/{world.season_id}").get_data(
        as_text=True
    )
    auth.login("alice")
    assert 'id="owner-pairs"' not in client.get(f"/seasons/{world.season_id}").get_data(
        as_text=True
    )
    auth.logout()
    auth.login("root")
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert 'id="owner-pairs"' in page and "alice + bob" in page


def test_the_final_order_of_an_unknown_season_is_a_404(client):
    assert client.get("/api/v1/seasons/999/final").status_code == 404


def test_an_organiser_turns_on_active_table_choice(client, auth, world, db):
    auth.login("root")
    form = {
        "name": "Active",
        "preset": "standard",
        "players": "4",
        "starts_at": "2031-06-01T12:00",
        "ends_at": "2031-07-01T12:00",
        "cadence_minutes": "30",
        "active_choice": "y",
        "csrf_token": auth.token(),
    }
    assert client.post("/seasons/new", data=form).status_code == 302
    season = db.scalars(select(Season).where(Season.name == "Active")).one()
    assert season.matchmaking["active_choice"] is True
    assert season.matchmaking["duplicate_sets"] is False
    assert "active table choice" in client.get(f"/seasons/{season.id}").get_data(as_text=True)


def test_tie_groups_count_ranked_entrants_only(client, world, db):
    """House fillers are rated but take no rank: a tie group never reaches past the last
    ranked line (two ranked bots and their fillers said "ranks 1–4")."""
    play_some(db, world, 3)
    body = client.get(f"/api/v1/seasons/{world.season_id}/ladder").get_json()
    assert body["house"], "the season's house fillers are rated"
    ranked = len(body["items"])
    assert ranked == 2
    for line in body["items"]:
        first, last = line["tie_group"]
        assert 1 <= first <= line["rank"] <= last <= ranked, line
    page = client.get(f"/seasons/{world.season_id}/ladder").get_data(as_text=True)
    assert "ranks 1–2" in page and f"ranks 1–{ranked + 1}" not in page
