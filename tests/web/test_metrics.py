"""The site's /metrics, served for real (`LiveServer`: a real port, real HTTP): requests
counted by their route template, outsiders refused, the store watched, and the queues and
seasons read from real rows at scrape time. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update
from sqlalchemy.orm import Session

from arena.store import write_transaction
from arena.store.models import BotVersion, Match
from tests.web.conftest import make_app
from tests.web.factories import WORLD_RULES, World
from tests.web.live import LiveServer
from web.bench import add_match
from web.database import dispose

TOKEN = "metrics-token-for-the-test"


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """Status and body of a GET (an HTTP error's too)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, by name and sorted labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(text: str, name: str, **labels: str) -> float | None:
    return samples(text).get((name, tuple(sorted(labels.items()))))


def test_a_request_is_counted_by_its_route_template_never_its_path(
    app: Flask, world: World
) -> None:
    with LiveServer(app) as server:
        # The registry is the process's: other tests' apps (their own routes) counted
        # before this one, so only the routes this test adds are judged.
        _status, earlier = fetch(f"{server.url}/metrics")
        assert fetch(f"{server.url}/bots/{world.alice_bot_id}")[0] == 200
        assert fetch(f"{server.url}/bots/987654")[0] == 404
        assert fetch(f"{server.url}/no/such/page-alice")[0] == 404
        status, text = fetch(f"{server.url}/metrics")
    assert status == 200
    route = "/bots/<int:bot_id>"
    requests = "arena_http_requests_total"
    assert value(text, requests, route=route, method="GET", status="200") is not None
    assert value(text, requests, route=route, method="GET", status="404") is not None
    assert value(text, requests, route="<unmatched>", method="GET", status="404") is not None
    templates = {rule.rule for rule in app.url_map.iter_rules()} | {"<unmatched>"}

    def routes(exposition: str) -> set[str]:
        return {v for (_name, labels) in samples(exposition) for k, v in labels if k == "route"}

    added = routes(text) - routes(earlier)
    assert added <= templates  # never a path asked for (the counts are checked above)
    assert "987654" not in text and "page-alice" not in text
    count = value(text, "arena_http_request_duration_seconds_count", route=route, method="GET")
    assert count is not None and count >= 2


def test_an_outsider_is_refused_and_the_token_lets_a_scraper_in(database: str) -> None:
    app = make_app(database, METRICS_ALLOW="198.51.100.0/24", METRICS_TOKEN=TOKEN)
    try:
        with LiveServer(app) as server:
            url = f"{server.url}/metrics"
            refused, body = fetch(url)  # 127.0.0.1 is outside the allowed network
            wrong, _ = fetch(url, {"Authorization": "Bearer not-the-token"})
            allowed, text = fetch(url, {"Authorization": f"Bearer {TOKEN}"})
    finally:
        dispose(app)
    assert (refused, wrong, allowed) == (403, 403, 200)
    assert "arena_http_requests_total" not in body
    assert "arena_queue_depth" in text


def test_a_forwarded_request_from_the_machine_is_an_outsiders(app: Flask) -> None:
    with LiveServer(app) as server:
        direct, _ = fetch(f"{server.url}/metrics")
        proxied, _ = fetch(f"{server.url}/metrics", {"X-Forwarded-For": "203.0.113.9"})
        forwarded, _ = fetch(f"{server.url}/metrics", {"Forwarded": "for=203.0.113.9"})
    assert (direct, proxied, forwarded) == (200, 403, 403)


def test_the_queues_depth_and_oldest_age_come_from_the_rows(
    app: Flask, db: Session, world: World
) -> None:
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    with write_transaction(db):
        match = db.get(Match, world.match_id)
        assert match is not None
        seats = [seat.bot_version_id for seat in match.seats]
        queued = [
            add_match(db, season_id=None, version_ids=seats, rules=WORLD_RULES, seed=seed)
            for seed in (11, 12, 13)
        ]
        db.execute(update(Match).where(Match.id == queued[0]).values(created_at=an_hour_ago))
        db.execute(
            update(BotVersion)
            .where(BotVersion.id == world.alice_pending_id)
            .values(created_at=an_hour_ago - timedelta(hours=1))
        )
    with LiveServer(app) as server:
        status, text = fetch(f"{server.url}/metrics")
    assert status == 200
    assert value(text, "arena_queue_depth", queue="matches") == 3
    assert value(text, "arena_queue_depth", queue="validate") == 1
    matches_age = value(text, "arena_queue_oldest_age_seconds", queue="matches")
    versions_age = value(text, "arena_queue_oldest_age_seconds", queue="validate")
    assert matches_age is not None and 3600 <= matches_age < 7200
    assert versions_age is not None and 7200 <= versions_age < 10800
    assert value(text, "arena_work_in_progress", kind="matches") == 0
    assert value(text, "arena_season_rounds", season=str(world.season_id)) is not None


def test_a_commit_through_the_site_is_timed_and_its_connection_returned(
    app: Flask, world: World
) -> None:
    with LiveServer(app) as server:
        _, before = fetch(f"{server.url}/metrics")
        with app.app_context():  # a write through the site's own sessions
            from web.database import sessions

            with sessions()() as session, write_transaction(session):
                session.execute(
                    update(BotVersion)
                    .where(BotVersion.id == world.alice_pending_id)
                    .values(status_reason="touched")
                )
        _, after = fetch(f"{server.url}/metrics")
    first = value(before, "arena_store_commit_seconds_count") or 0.0
    then = value(after, "arena_store_commit_seconds_count") or 0.0
    assert then >= first + 1
    assert value(after, "arena_store_connections_in_use") is not None


@pytest.mark.parametrize("allow", ["not-a-network", "198.51.100.0/24, 300.1.1.1"])
def test_a_malformed_allow_list_is_refused_at_start(database: str, allow: str) -> None:
    with pytest.raises(ValueError, match="ARENA_METRICS_ALLOW"):
        make_app(database, METRICS_ALLOW=allow)


DOCS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def documented_names() -> set[str]:
    """The names in docs/operations.md's "Metrics" table."""
    section = DOCS.read_text().split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(arena_[a-z_]+)` \|", section, flags=re.MULTILINE))


def exposed_names(text: str) -> set[str]:
    """The arena_ names of an exposition, as the docs write them (counters with `_total`,
    histograms without their `_bucket`/`_sum`/`_count`)."""
    names = set()
    for family in text_string_to_metric_families(text):
        for item in family.samples:
            if not item.name.startswith("arena_") or item.name.endswith("_created"):
                continue
            names.add(re.sub(r"_(bucket|sum|count)$", "", item.name))
    return names


def test_every_family_the_site_serves_is_documented(app: Flask, world: World) -> None:
    with LiveServer(app) as server:
        fetch(f"{server.url}/")
        _, text = fetch(f"{server.url}/metrics")
    served = exposed_names(text)
    assert {"arena_http_requests_total", "arena_queue_depth", "arena_season_rounds"} <= served
    assert served - documented_names() == set()
