"""A real Prometheus (Debian's package, the binary the compose image runs) scraping a real
site's protected /metrics with the bearer token, the alert rules loaded, and the console
dashboard served with the site's real numbers; every expression of both dashboards runs
on it. Skipped with the reason where the `prometheus` binary is absent (apt-get install
prometheus; .ci/run installs it, and under CI a missing binary fails instead)."""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import signal
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask

from arena.ports import free_port
from arena.store import migrate, write_transaction
from arena.store.models import Match
from tests.deploy.dashboards import (
    CONSOLE,
    CONSOLE_LIBRARY,
    console_expressions,
    grafana_expressions,
)
from tests.web.conftest import make_app
from tests.web.factories import WORLD_RULES, World, build_world
from tests.web.live import LiveServer
from tests.workers.processes import wait_until
from web.bench import add_match
from web.database import dispose, sessions

pytestmark = pytest.mark.timeout(180)

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "the-scrape-token-of-this-test"


def prometheus_binary() -> str:
    found = shutil.which("prometheus")
    if found is None:
        reason = "the prometheus binary is not installed (Debian: apt-get install prometheus)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI is set, so this test must run")
        pytest.skip(reason)
    return found


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except urllib.error.URLError:
        return 0, ""  # not listening (yet)


class Prometheus:
    """`prometheus` on a free port of 127.0.0.1 with a configuration of the test's own."""

    def __init__(self, binary: str, folder: Path, config: dict[str, Any]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (folder / "prometheus.yml").write_text(yaml.safe_dump(config))
        self.log = (folder / "prometheus.log").open("wb")
        self.process = subprocess.Popen(
            [
                binary,
                f"--config.file={folder / 'prometheus.yml'}",
                f"--storage.tsdb.path={folder / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
                f"--web.console.templates={CONSOLE.parent}",
                f"--web.console.libraries={CONSOLE_LIBRARY.parent}",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def query(self, expression: str) -> tuple[int, dict[str, Any]]:
        status, body = get(
            f"{self.url}/api/v1/query?" + urllib.parse.urlencode({"query": expression})
        )
        return status, json.loads(body)

    def value(self, expression: str) -> float | None:
        status, answer = self.query(expression)
        assert status == 200, answer
        result = answer["data"]["result"]
        return float(result[0]["value"][1]) if result else None

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[LiveServer, World, Flask]]:
    """The site on a migrated SQLite database holding a season with a recorded match and
    three queued ones; /metrics answers the bearer token only (no network allowed)."""
    path = tmp_path / "arena.db"
    migrate.upgrade(f"sqlite:///{path}")
    app = make_app(f"sqlite:///{path}", METRICS_ALLOW="", METRICS_TOKEN=TOKEN)
    try:
        with sessions(app)() as db:
            world = build_world(db, app)
            with write_transaction(db):
                match = db.get(Match, world.match_id)
                assert match is not None
                seats = [seat.bot_version_id for seat in match.seats]
                for seed in (21, 22, 23):
                    add_match(db, season_id=None, version_ids=seats, rules=WORLD_RULES, seed=seed)
        with LiveServer(app) as server:
            yield server, world, app
    finally:
        dispose(app)


@pytest.fixture
def prometheus(tmp_path: Path, site: tuple[LiveServer, World, Flask]) -> Iterator[Prometheus]:
    binary = prometheus_binary()
    server, _world, _app = site
    folder = tmp_path / "prometheus"
    folder.mkdir()
    (folder / "token").write_text(TOKEN)
    shutil.copy(ROOT / "deploy" / "prometheus-alerts.yml", folder / "prometheus-alerts.yml")
    target = server.url.removeprefix("http://")
    # deploy/prometheus.yml's jobs, pointed at this machine; and one without the token,
    # which the site must refuse.
    deployed = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    site_job = next(j for j in deployed["scrape_configs"] if j["job_name"] == "arena-site")
    site_job = {
        **site_job,
        "scrape_interval": "1s",
        "authorization": {**site_job["authorization"], "credentials_file": str(folder / "token")},
        "static_configs": [{"targets": [target]}],
    }
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": deployed["rule_files"],
        "scrape_configs": [
            site_job,
            {
                "job_name": "without-the-token",
                "scrape_interval": "1s",
                "metrics_path": "/metrics",
                "static_configs": [{"targets": [target]}],
            },
        ],
    }
    running = Prometheus(binary, folder, config)
    try:
        wait_until(lambda: get(f"{running.url}/-/ready")[0] == 200, 60, "Prometheus ready")
        yield running
    finally:
        running.stop()


def targets(prometheus: Prometheus) -> dict[str, dict[str, Any]]:
    _status, body = get(f"{prometheus.url}/api/v1/targets")
    return {t["labels"]["job"]: t for t in json.loads(body)["data"]["activeTargets"]}


def tile(page: str, title: str) -> str:
    """The figure of the console page's tile named `title`."""
    found = re.search(
        r'<div class="v"><a [^>]*>([^<]*)</a></div>\s*<div class="t">' + re.escape(title) + "<",
        page,
    )
    assert found, f"no tile {title!r}"
    return html.unescape(found.group(1)).strip()


def test_prometheus_scrapes_the_sites_metrics_with_the_token_and_serves_the_dashboard(
    prometheus: Prometheus, site: tuple[LiveServer, World, Flask]
) -> None:
    server, world, _app = site
    for _ in range(3):
        assert get(f"{server.url}/bots/{world.alice_bot_id}")[0] == 200
    wait_until(
        lambda: prometheus.value(
            "sum(arena_http_requests_total{job='arena-site', route='/bots/<int:bot_id>'})"
        ),
        60,
        "the site's counted requests in Prometheus",
    )

    # The token opened the protected path; without it the site refused the same scrape.
    def both_scraped() -> dict[str, dict[str, Any]] | None:
        found = targets(prometheus)
        refused = found["without-the-token"]["health"] == "down"
        return found if refused and found["arena-site"]["health"] == "up" else None

    jobs = wait_until(both_scraped, 30, "both targets scraped")
    assert jobs is not None
    assert "403" in jobs["without-the-token"]["lastError"]
    assert prometheus.value("arena_queue_depth{queue='matches'}") == 3
    assert prometheus.value(f"arena_season_rounds{{season='{world.season_id}'}}") is not None

    # The alert rules of deploy/prometheus-alerts.yml are loaded and evaluate cleanly.
    def rules() -> list[dict[str, Any]]:
        _status, body = get(f"{prometheus.url}/api/v1/rules")
        return [r for g in json.loads(body)["data"]["groups"] for r in g["rules"]]

    def evaluated() -> list[dict[str, Any]] | None:
        found = rules()
        done = all(r.get("lastEvaluation", "").startswith("2") for r in found)
        return found if found and done and all(r["health"] == "ok" for r in found) else None

    loaded = wait_until(evaluated, 30, "the alert rules evaluated")
    assert loaded is not None
    expected = yaml.safe_load((ROOT / "deploy" / "prometheus-alerts.yml").read_text())
    assert {r["name"] for r in loaded} == {
        r["alert"] for g in expected["groups"] for r in g["rules"]
    }

    # The console dashboard, served by Prometheus with the site's real numbers (a rate
    # needs two scrapes).
    wait_until(lambda: prometheus.value("sum(rate(arena_http_requests_total[5m]))"), 30, "a rate")
    status, page = get(f"{prometheus.url}/consoles/arena.html")
    assert status == 200, page[:2000]
    assert tile(page, "matches queued") == "3"
    assert tile(page, "uploads waiting") == "1"  # alice's pending version
    assert tile(page, "matches running") == "0"
    assert float(tile(page, "site requests / s")) > 0
    assert re.search(rf"<td>{world.season_id}</td>\s*<td>\d+</td>", page), "no season row"
    assert "error executing template" not in page


@pytest.mark.parametrize("dashboard", ["console", "grafana"])
def test_every_dashboard_expression_is_valid_promql_on_a_real_prometheus(
    prometheus: Prometheus, dashboard: str
) -> None:
    expressions = console_expressions() if dashboard == "console" else grafana_expressions()
    refused = {}
    for expression in expressions:
        status, answer = prometheus.query(expression)
        if status != 200 or answer.get("status") != "success":
            refused[expression] = answer.get("error")
    assert not refused
    # and the checker is not blind: a malformed expression is refused here
    assert prometheus.query("sum(rate(arena_http_requests_total[5m])")[0] == 400


def test_the_deployed_configuration_and_rules_pass_promtool(tmp_path: Path) -> None:
    prometheus_binary()
    promtool = shutil.which("promtool")
    assert promtool is not None  # the same package
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    (tmp_path / "token").write_text(TOKEN)
    for job in config["scrape_configs"]:
        if "authorization" in job:
            job["authorization"]["credentials_file"] = str(tmp_path / "token")
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    shutil.copy(ROOT / "deploy" / "prometheus-alerts.yml", tmp_path / "prometheus-alerts.yml")
    checked = subprocess.run(
        [promtool, "check", "config", str(tmp_path / "prometheus.yml")],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    rules = yaml.safe_load((ROOT / "deploy" / "prometheus-alerts.yml").read_text())["groups"]
    count = sum(len(group["rules"]) for group in rules)
    assert f"SUCCESS: {count} rules found" in checked.stdout + checked.stderr


GRAPHS = re.findall(r'<div id="(g-[a-z]+)">', CONSOLE.read_text())


def test_the_console_page_draws_its_graphs_in_a_browser(
    prometheus: Prometheus, site: tuple[LiveServer, World, Flask]
) -> None:
    """Debian's Prometheus serves the scripts and styles the page names (d3, Rickshaw,
    prom_console.js under /classic/static): in Chromium every graph draws, the queue's
    with the site's data, and nothing the page asks for fails."""
    chromium = Path(os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium"))
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is not installed ({chromium}); CI is set")
        pytest.skip(f"Chromium is not installed ({chromium}): apt-get install chromium")
    from playwright.sync_api import sync_playwright

    wait_until(lambda: prometheus.value("max(arena_queue_depth)") is not None, 60, "a scrape")
    assert len(GRAPHS) == 12
    failed: list[str] = []
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--headless", "--no-sandbox"], headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.on(
                "response",
                lambda answer: (
                    failed.append(f"{answer.status} {answer.url}") if answer.status >= 400 else None
                ),
            )
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{prometheus.url}/consoles/arena.html", wait_until="networkidle")
            for graph in GRAPHS:
                # a drawn graph holds Rickshaw's svg, an empty one says so
                page.wait_for_function(
                    "id => { const n = document.getElementById(id);"
                    " return n.querySelector('svg') || n.textContent.includes('No timeseries'); }",
                    arg=graph,
                    timeout=30_000,
                )
            queue_drawn = page.evaluate("document.querySelectorAll('#g-queue svg path').length")
        finally:
            browser.close()
    assert not failed
    assert not errors
    assert queue_drawn > 0
