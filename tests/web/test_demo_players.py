""" "House" means one thing: the demo season's ranked players are demo players, owned by
the `demo` account, told apart from the house bots (seat-fillers, never ranked) on the
ladder, the home page, the challenge page, a bot's page and in the API (`is_demo`)."""

from __future__ import annotations

from arena.seasons import enter_season
from arena.store import write_transaction
from arena.store.models import Season
from web.bench import add_match, play_and_record
from workers.seed import ensure_demo_players

from .factories import WORLD_RULES, row


def _demo_at_a_table(db, world) -> list[int]:
    """Two demo players entered in the world's season, one match played with them beside
    alice and bob: the demo players are rated and ranked."""
    with write_transaction(db):
        versions = ensure_demo_players(db, players=(("heuristic", 1), ("random", 1)))
        season = row(db, Season, world.season_id)
        for version in versions:
            enter_season(db, season, version, replace_previous=False)
        ids = [v.id for v in versions]
        match_id = add_match(
            db,
            season_id=world.season_id,
            version_ids=[world.alice_version_id, world.bob_version_id, *ids],
            rules=WORLD_RULES,
            seed=7,
        )
    play_and_record(db, match_id)
    return ids


def test_demo_players_are_ranked_as_demo_not_house(client, world, db):
    _demo_at_a_table(db, world)
    body = client.get(f"/api/v1/seasons/{world.season_id}/ladder").get_json()
    demo = [line for line in body["items"] if line["bot"].startswith("demo-")]
    assert len(demo) == 2
    for line in demo:
        assert line["owner"] == "demo" and line["is_demo"] and not line["is_house"]
        assert line["rank"] >= 1
    others = [line for line in body["items"] if not line["bot"].startswith("demo-")]
    assert others and not any(line["is_demo"] for line in others)
    assert body["house"] and all(not h["bot"].startswith("demo-") for h in body["house"])

    page = client.get(f"/seasons/{world.season_id}/ladder").get_data(as_text=True)
    ladder = page[: page.index('id="house-bots"')]
    assert (
        ladder.count('class="badge demo"') == 2 and '<span class="badge">house</span>' not in ladder
    )
    assert "<td>house</td>" not in ladder  # no ranked line is owned by the house
    panel = page[page.index('id="house-bots"') :]
    assert "never take a rank" in panel and "demo-" not in panel.split("</table>")[0]

    bot = client.get(f"/api/v1/bots/{demo[0]['bot_id']}").get_json()
    assert bot["is_demo"] and not bot["is_house"] and bot["owner"] == "demo"
    shown = client.get(f"/bots/{demo[0]['bot_id']}").get_data(as_text=True)
    assert 'id="demo-note"' in shown and "A house bot" not in shown

    home = client.get("/").get_data(as_text=True)
    assert 'class="badge demo"' in home


def test_the_challenge_page_names_demo_players_apart_from_house_bots(client, auth, world, db):
    _demo_at_a_table(db, world)
    auth.login("alice")
    page = client.get("/challenge").get_data(as_text=True)
    house = page[page.index('id="house-opponents"') :].split("</p>")[0]
    demo = page[page.index('id="demo-opponents"') :].split("</p>")[0]
    assert "house/heuristic-1" in house and "demo-" not in house
    assert "demo/demo-heuristic-1" in demo and "demo/demo-random-1" in demo
