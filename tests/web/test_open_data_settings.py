"""The open data's two settings on the site, on SQLite and PostgreSQL: an admin chooses a
season's data licence on its page, and a bot's owner ticks the box that publishes its
notes; both forms need their CSRF token, and no one else may use them."""

from __future__ import annotations

from sqlalchemy.orm import Session

from arena.data.export import LICENCES
from arena.store.models import Bot, Season
from tests.web.conftest import csrf_token
from tests.web.factories import row


def test_an_admin_sets_the_seasons_data_licence(client, auth, world, db: Session) -> None:
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert LICENCES["CC-BY-4.0"][0] in page  # the default, said to every visitor
    assert 'id="licence-form"' not in page
    url = f"/seasons/{world.season_id}/licence"

    auth.login("alice")  # not an admin
    refused = client.post(url, data={"licence": "CC0-1.0", "csrf_token": auth.token()})
    assert refused.status_code == 403
    auth.logout()

    auth.login("root")
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert 'id="licence-form"' in page
    assert client.post(url, data={"licence": "CC0-1.0"}).status_code == 400  # no CSRF token
    token = csrf_token(client, f"/seasons/{world.season_id}")
    assert client.post(url, data={"licence": "GPL-3.0", "csrf_token": token}).status_code == 400
    db.rollback()
    assert row(db, Season, world.season_id).data_licence == "CC-BY-4.0"

    saved = client.post(url, data={"licence": "CC0-1.0", "csrf_token": token})
    assert saved.status_code == 302
    db.rollback()
    assert row(db, Season, world.season_id).data_licence == "CC0-1.0"
    page = client.get(f"/seasons/{world.season_id}").get_data(as_text=True)
    assert LICENCES["CC0-1.0"][0] in page
    assert "Open data licence set to CC0-1.0." in page
    assert client.get(f"/api/v1/seasons/{world.season_id}/data").json["season"]["data_licence"] == (
        "CC0-1.0"
    )


def test_a_bots_owner_ticks_the_box_that_publishes_its_notes(
    client, auth, world, db: Session
) -> None:
    show = f"/bots/{world.alice_bot_id}"
    url = f"/bots/{world.alice_bot_id}/notes-public"
    assert 'id="notes-public-form"' not in client.get(show).get_data(as_text=True)

    auth.login("bob")  # not the owner
    assert client.post(url, data={"public": "y", "csrf_token": auth.token()}).status_code == 403
    assert 'id="notes-public-form"' not in client.get(show).get_data(as_text=True)
    auth.logout()
    db.rollback()
    assert row(db, Bot, world.alice_bot_id).notes_public is False

    auth.login("alice")
    page = client.get(show).get_data(as_text=True)
    assert 'id="notes-public-form"' in page and "checked" not in page.split("notes-public")[1]
    assert client.post(url, data={"public": "y"}).status_code == 400  # no CSRF token
    token = csrf_token(client, show)
    assert client.post(url, data={"public": "y", "csrf_token": token}).status_code == 302
    db.rollback()
    assert row(db, Bot, world.alice_bot_id).notes_public is True
    page = client.get(show).get_data(as_text=True)
    assert "will be published in the open data" in page
    form = page[
        page.index('id="notes-public-form"') : page.index(
            "</form>", page.index("notes-public-form")
        )
    ]
    assert "checked" in form

    # an unticked box is a withdrawal
    assert client.post(url, data={"csrf_token": token}).status_code == 302
    db.rollback()
    assert row(db, Bot, world.alice_bot_id).notes_public is False
    assert row(db, Bot, world.bob_bot_id).notes_public is False
