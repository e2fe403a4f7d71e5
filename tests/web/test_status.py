"""The admins' status page: what the workers wrote to the database, admins only."""

import socket

from arena.store.heartbeats import beat
from arena.store.types import utc_now


def test_status_is_for_admins_only(client, auth, world):
    assert client.get("/admin/status").status_code == 302  # sign in first
    auth.login("alice")
    assert client.get("/admin/status").status_code == 403


def test_status_shows_queues_running_matches_and_heartbeats(client, auth, world, db):
    now = utc_now()
    beat(
        db,
        "worker@test",
        role="worker",
        hostname=socket.gethostname(),
        pid=4242,
        started_at=now,
        info={},
    )
    beat(
        db,
        "dispatch",
        role="dispatch",
        hostname=socket.gethostname(),
        pid=4243,
        started_at=now,
        info={"queues": {"matches": 7, "validate": 2}},
    )
    db.commit()
    auth.login("root")
    page = client.get("/admin/status").get_data(as_text=True)
    assert "worker@test" in page and "4242" in page
    assert "matches" in page and ">7<" in page
    assert "Running now" in page
    assert "done:" in page  # the world holds one recorded match


def test_status_without_workers_says_so(client, auth, world):
    auth.login("root")
    page = client.get("/admin/status").get_data(as_text=True)
    assert "No dispatch has run yet" in page
    assert "No worker or beat has reported yet" in page


def test_status_says_how_the_embedded_broker_is(client, auth, world, db):
    # issue 31, item 19: the platform's supervisor writes the broker's heartbeat.
    beat(
        db,
        "broker@test",
        role="broker",
        hostname=socket.gethostname(),
        pid=4244,
        started_at=utc_now(),
        info={
            "state": "running",
            "pid": 4245,
            "restarts": 2,
            "last_exit": "killed by signal 9 (SIGKILL)",
        },
    )
    db.commit()
    auth.login("root")
    page = client.get("/admin/status").get_data(as_text=True)
    assert "broker: running, restarted 2 times (last: killed by signal 9 (SIGKILL))" in page
