"""The contestant's loop, end to end, as a new user meets it (docs/tutorial.md).

The whole platform runs for real (`arena platform`: the site, two Celery workers with
the sandbox, beat, on a SQLite database in a temporary folder and a free port), and a
new user goes through it in Chromium and a shell: sign up → a token from the account
page → the page's own `arena login` line → `arena bot upload` → validated in the
sandbox → a rated match in the default season with no other step → the owner reads the
bot's notes in the replay, another user does not → v2 uploaded → the next round plays
v2 → `hearts-bot replay` on the downloaded replay gives v2's recorded answers exactly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.ports import free_port
from tests.web.browser.conftest import screenshot
from tests.web.factories import PASSWORD
from tests.workers.processes import wait_until
from tests.workers.test_platform import ctrl_c, start_platform

BIN = Path(sys.executable).parent

# Deterministic bots (same question, same answer) that explain each decision in a note.
BOT_V1 = """\
from hearts_bot import Bot, run
from hearts_bot.cards import by_rank


class JourneyBot(Bot):
    def pass_cards(self, view):
        self.note("v1 passes its highest cards")
        return sorted(view.passable, key=by_rank)[-view.count:]

    def play_card(self, view):
        card = min(view.legal, key=by_rank)
        self.note(f"v1: lowest of {len(view.legal)} legal")
        return card


if __name__ == "__main__":
    run(JourneyBot())
"""
BOT_V2 = (
    BOT_V1.replace("v1", "v2")
    .replace("card = min(view.legal, key=by_rank)", "card = max(view.legal, key=by_rank)")
    .replace("lowest", "highest")
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture
def platform(tmp_path: Path) -> Iterator[str]:
    """`arena platform` on a free port in a folder of its own; its URL."""
    if shutil.which("bwrap") is None or os.geteuid() != 0:
        pytest.skip("the sandbox needs root and bubblewrap (apt-get install bubblewrap)")
    port = free_port()
    log = tmp_path / "platform.log"
    process = start_platform(tmp_path, port, log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _answers(url), 120, "the site to answer")
        yield url
    finally:
        ctrl_c(process)
        print(log.read_text(errors="replace")[-6000:])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=5) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def _api(url: str, token: str, path: str) -> Any:
    request = urllib.request.Request(
        url + path, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def _shell(*args: str, cwd: Path, config: Path) -> subprocess.CompletedProcess[str]:
    """A command as a contestant types it, with the venv's commands on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "HEARTS_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["ARENA_CONFIG"] = str(config)  # never the login of whoever runs the tests
    return subprocess.run(
        list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


def _sign_up(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/signup")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(f"text=Welcome, {username}.")


def _rated_match(url: str, token: str, bot_id: int, version: int) -> dict[str, Any] | None:
    """A finished, rated match of `bot_id` played by its version `version`, if any."""
    for line in _api(url, token, f"/api/v1/bots/{bot_id}/matches?per_page=50")["items"]:
        if line["version"] == version and line["status"] == "done":
            match = _api(url, token, f"/api/v1/matches/{line['match_id']}")
            if match["rated"]:
                return {**match, "seat": line["seat"]}
    return None


def test_a_new_contestant_goes_from_sign_up_to_an_improved_ranked_bot(
    platform: str, browser: Any, tmp_path: Path
) -> None:
    url = platform
    config = tmp_path / "login.json"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    # Sign up, and make a token: the account page gives the line to run in a shell.
    _sign_up(page, url, "newcomer")
    page.goto(f"{url}/account")
    page.fill("#name", "laptop")
    page.click("#submit")
    login_line = page.locator("#login-command").inner_text()
    assert login_line.startswith(f"arena login {url} --token ha_")
    screenshot(page, "journey-01-token")
    token = login_line.rsplit(" ", 1)[1]

    signed = _shell(*login_line.split(), cwd=tmp_path, config=config)
    assert signed.returncode == 0, signed.stderr
    assert "signed in" in signed.stdout

    # Upload v1 from the shell, with nothing but what the page showed.
    (tmp_path / "journey.py").write_text(BOT_V1)
    uploaded = _shell("arena", "bot", "upload", "journey.py", "--wait", cwd=tmp_path, config=config)
    assert uploaded.returncode == 0, uploaded.stdout + uploaded.stderr
    assert "journey v1: ready" in uploaded.stdout
    assert "Demo season" in uploaded.stdout  # it says where it will play
    me = _api(url, token, "/api/v1/bots?owner=newcomer")["items"][0]
    bot_id = me["id"]

    # It plays a rated match in the default season with no other step.
    found: dict[str, Any] = {}

    def played(version: int) -> bool:
        match = _rated_match(url, token, bot_id, version)
        if match:
            found.update(match)
        return match is not None

    wait_until(lambda: played(1), 300, "a rated match of v1")
    first = dict(found)

    # The owner reads the bot's notes beside its decisions; another user does not.
    step = f"{url}/matches/{first['id']}#g=1&h=1&t=1&c=4"
    page.goto(step)
    page.wait_for_selector('#viewer[data-ready="true"]')
    notes = page.locator(".notes .notes-list").inner_text()
    assert "v1: lowest of" in notes
    screenshot(page, "journey-02-notes-owner")
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    stranger = other.new_page()
    _sign_up(stranger, url, "onlooker")
    stranger.goto(step)
    stranger.wait_for_selector('#viewer[data-ready="true"]')
    assert stranger.locator(".notes .notes-list li").count() == 0
    assert "v1: lowest of" not in stranger.content()  # nor anywhere in the page
    other.close()

    # v2: uploaded the same way; the next round plays it in the bot's place.
    (tmp_path / "journey.py").write_text(BOT_V2)
    again = _shell("arena", "bot", "upload", "journey.py", "--wait", cwd=tmp_path, config=config)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "journey v2: ready" in again.stdout
    found.clear()
    wait_until(lambda: played(2), 300, "a rated match of v2")
    second = dict(found)
    page.goto(f"{url}/bots/{bot_id}")
    screenshot(page, "journey-03-bot-page")

    # The downloaded replay: v2's recorded answers, asked again locally, come out the same.
    replay = _api(url, token, f"/api/v1/matches/{second['id']}/replay")
    path = tmp_path / f"match-{second['id']}.json"
    path.write_text(json.dumps(replay))
    asked = _shell(
        "hearts-bot", "replay", path.name, "--seat", str(second["seat"]), "--all", "journey.py",
        cwd=tmp_path, config=config,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stdout + asked.stderr
    assert "same: all " in asked.stdout
    assert "DIFFERENT" not in asked.stdout
    # and v1's code, asked the same questions, is told apart: the check can fail.
    (tmp_path / "journey_v1.py").write_text(BOT_V1)
    old = _shell(
        "hearts-bot", "replay", path.name, "--seat", str(second["seat"]), "--all",
        "journey_v1.py", cwd=tmp_path, config=config,
    )  # fmt: skip
    assert old.returncode == 1, old.stdout + old.stderr
    assert "DIFFERENT:" in old.stdout
    context.close()
