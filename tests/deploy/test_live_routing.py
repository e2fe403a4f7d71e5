"""The deployment routes live streams to the live server (`arena live`, web/crowd.py):
docker-compose.yml runs it in front of the site, and its routes send the live URLs to
its streams and every other request to the site."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

import pytest
import yaml
from aiohttp.test_utils import make_mocked_request

from web import create_app
from web.crowd import LiveServer
from web.database import dispose

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_the_live_server_in_front_of_the_site() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    live = services["live"]
    command = live["command"]
    assert command[:2] == ["arena", "live"], shlex.join(command)
    assert command[command.index("--site") + 1] == "http://web:8000"
    port = command[command.index("--port") + 1]
    assert any(str(published).endswith(f":{port}") for published in live["ports"])
    assert live["image"] == services["web"]["image"]
    assert live["depends_on"]["web"]["condition"] == "service_healthy"
    assert f"127.0.0.1:{port}/live/status" in " ".join(live["healthcheck"]["test"])


@pytest.mark.parametrize(
    ("path", "handler"),
    [
        ("/matches/12/live", "stream"),
        ("/matches/12/live?after=40", "stream"),
        ("/api/v1/matches/12/live", "stream"),
        ("/live/status", "status"),
        ("/matches/12", "forward"),
        ("/matches/12/live/extra", "forward"),
        ("/seasons/1/ladder", "forward"),
        ("/", "forward"),
        ("/static/js/replay.js", "forward"),
    ],
)
def test_the_live_server_streams_the_live_urls_and_passes_the_rest_to_the_site(
    tmp_path: Path, path: str, handler: str
) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'arena.db'}", "SECRET_KEY": "k"})
    try:
        server = LiveServer(app, site="http://web:8000")
        application = server.application()

        async def resolve() -> str:
            request = make_mocked_request("GET", path, app=application)
            match = await application.router.resolve(request)
            return getattr(match.handler, "__name__", "")

        assert asyncio.run(resolve()) == handler
    finally:
        dispose(app)


def test_without_a_site_the_live_server_answers_only_the_live_urls(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'arena.db'}", "SECRET_KEY": "k"})
    try:
        application = LiveServer(app).application()

        async def status(path: str) -> int:
            request = make_mocked_request("GET", path, app=application)
            match = await application.router.resolve(request)
            refused = match.http_exception
            return 200 if refused is None else int(refused.status)

        assert asyncio.run(status("/matches/3/live")) == 200
        assert asyncio.run(status("/seasons/1/ladder")) == 404
    finally:
        dispose(app)
