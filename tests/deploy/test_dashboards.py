"""Both dashboards (the Prometheus console page in deploy/prometheus/ and the Grafana JSON
in deploy/grafana/) name only metrics our code registers, and each shows every figure a
season's health needs (issue 36). The registries are imported, not read from the docs:
a renamed metric fails here. A real Prometheus runs every expression in
tests/deploy/test_prometheus.py."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from prometheus_client import PROCESS_COLLECTOR
from prometheus_client.metrics_core import Metric
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

from arena.store import migrate
from arena.store.metrics import PlatformCollector, store_metrics
from tests.deploy.dashboards import (
    PROMETHEUS_OWN,
    console_expressions,
    grafana_expressions,
    metric_names,
)
from web.metrics import _request_metrics
from workers.metrics import worker_metrics

SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
    "summary": ("_sum", "_count", "_created"),
    "gauge": ("",),
    "info": ("_info",),
}

# What a season's health needs at a glance (the brief of issue 36, item 1): each must be
# read by both dashboards.
REQUIRED = {
    "queue depth": "arena_queue_depth",
    "oldest task age": "arena_queue_oldest_age_seconds",
    "matches started": "arena_matches_started_total",
    "matches finished": "arena_matches_finished_total",
    "matches faulted": "arena_matches_faulted_total",
    "matches re-run": "arena_matches_reaped_total",
    "matches put back": "arena_matches_requeued_total",
    "match duration": "arena_match_duration_seconds_bucket",
    "CPU by part": "arena_match_cpu_seconds_sum",
    "bot starts": "arena_bot_starts_total",
    "sandbox refusals": "arena_sandbox_refusals_total",
    "request rate": "arena_http_requests_total",
    "request latency": "arena_http_request_duration_seconds_bucket",
    "commit latency": "arena_store_commit_seconds_bucket",
    "pool use": "arena_store_connections_in_use",
    "season rounds": "arena_season_rounds",
}


def exposed(families: Iterable[Metric]) -> set[str]:
    """The sample names Prometheus sees for these families."""
    return {family.name + suffix for family in families for suffix in SUFFIXES[family.type]}


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """Every sample name our code exports: the site's request metrics, the workers', the
    store's, the platform collector's (from a real, migrated database) and the process
    collector the site's registry includes."""
    objects = [
        *_request_metrics(),
        *(getattr(worker_metrics(), f.name) for f in dataclasses.fields(worker_metrics())),
        *(getattr(store_metrics(), f.name) for f in dataclasses.fields(store_metrics())),
    ]
    families = [family for metric in objects for family in metric.collect()]
    path = Path(tmp_path_factory.mktemp("dashboards")) / "arena.db"
    migrate.upgrade(f"sqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    try:
        families.extend(PlatformCollector(sessionmaker(engine)).collect())
    finally:
        engine.dispose()
    families.extend(PROCESS_COLLECTOR.collect())
    return exposed(families)


def test_the_registries_give_the_names_the_docs_list(registered: set[str]) -> None:
    # The fixture itself is checked: a family lost from it would let a dashboard through.
    assert set(REQUIRED.values()) <= registered
    assert {"arena_season_round_finish_seconds", "process_cpu_seconds_total"} <= registered


@pytest.mark.parametrize(
    ("dashboard", "expressions"),
    [("console", console_expressions), ("grafana", grafana_expressions)],
)
def test_every_expression_names_only_metrics_our_code_registers(
    registered: set[str], dashboard: str, expressions: Callable[[], list[str]]
) -> None:
    found = expressions()
    assert len(found) >= 30, f"{dashboard}: only {len(found)} expressions found"
    for expression in found:
        names = metric_names(expression)
        assert names, f"{dashboard}: no metric in {expression!r}"
        unknown = names - registered - PROMETHEUS_OWN
        assert not unknown, f"{dashboard}: {expression!r} names {unknown}, which nothing exports"


@pytest.mark.parametrize("expressions", [console_expressions, grafana_expressions])
def test_each_dashboard_shows_what_a_seasons_health_needs(
    expressions: Callable[[], list[str]],
) -> None:
    named = set().union(*(metric_names(e) for e in expressions()))
    missing = {what for what, name in REQUIRED.items() if name not in named}
    assert not missing


def test_a_misspelled_or_foreign_name_is_caught(registered: set[str]) -> None:
    assert metric_names("60 * sum(rate(arena_matchs_finished_total[5m]))") - registered
    assert metric_names("node_load1 > 4") - registered - PROMETHEUS_OWN == {"node_load1"}
    # a label value or a grouping label is never taken for a metric
    assert metric_names("max by (queue) (arena_queue_depth{queue='node_load1'})") == {
        "arena_queue_depth"
    }
