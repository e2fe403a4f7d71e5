"""A person plays at a table in real Chromium against three bots (issue 34, items 1 and 4).

The person (alice) opens a table from a bot's page ("play against this bot"), and the
worker's own task (`workers.matches.execute_match`, in a thread, on the site's database)
plays the match, asking the person's seat through the store. The test answers every
decision on the page by clicking only cards and options the page offers as legal (every
other card is disabled), plays once by keyboard and once by a tap on a 390 px phone,
reloads the page in the middle and goes on, and ends with the match recorded and
`arena replay verify` passing on its stored replay; the page takes its updates from the
table's stream (web/table_live.py) and never polls. The same for Auction Hearts, whose
bids (and the naming, when the person wins the auction) are options with their words,
with no stream place left on the site: the page falls back to polling the state.
Screenshots of a hand in play at 1280 and 390 px go to artifacts/screenshots/ (the copies
in docs/images/human-table-*.png are from one run, looked at).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from arena.match.replay import dumps
from arena.store.models import Bot, Match, MatchStatus, User
from tests.web.browser.conftest import screenshot
from tests.web.factories import PASSWORD
from web.database import sessions
from web.replays import stored_replay
from workers.config import Settings

pytestmark = pytest.mark.timeout(600)

TABLE = "document.getElementById('table')"


@pytest.fixture
def worker(app: Flask, tmp_path: Path) -> Iterator[Settings]:
    """This process configured as a worker on the site's database."""
    from workers.app import app as celery_app
    from workers.app import configure

    chosen = Settings(
        data_dir=tmp_path / "data",
        database_url=app.config["DATABASE_URL"],
        broker_url="memory://",
        result_backend=None,
    )
    configure(celery_app, chosen)
    yield chosen
    configure(celery_app, Settings.from_environ())


def run_match_in_thread(match_id: int) -> tuple[threading.Thread, list[Any]]:
    """The worker's task for `match_id`, in a thread; its summary or error in the list."""
    from workers.matches import execute_match

    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(execute_match(match_id))
        except BaseException as error:  # reported by the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def sign_in(page: Any, url: str, username: str) -> None:
    page.goto(f"{url}/signin")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".who >> text=Sign out")


def house_bot_id(app: Flask, name: str) -> int:
    with sessions(app)() as db:
        bot_id = db.scalar(
            select(Bot.id)
            .join(User, User.id == Bot.owner_id)
            .where(User.username == "house", Bot.name == name)
        )
    assert bot_id is not None
    return int(bot_id)


def open_table(
    page: Any, url: str, app: Flask, preset: str, opponents: str, *, via: str = "bot"
) -> int:
    """From a house bot's page ("play against this bot") or the challenge page ("sit at a
    table"): the new table's form, filled and sent; the table's match id."""
    if via == "bot":
        page.goto(f"{url}/bots/{house_bot_id(app, 'heuristic-1')}")
        page.click("#play-against")
        page.wait_for_selector("#new-table")
        assert "house/heuristic-1" in page.input_value("#opponents")
    else:
        page.goto(f"{url}/challenge")
        page.click("#play-yourself a")
        page.wait_for_selector("#new-table")
    page.select_option("#preset", preset)
    page.fill("#opponents", opponents)
    page.fill("#seconds", "120")
    page.fill("#hands", "1")
    page.click("#submit")
    page.wait_for_selector("#table")
    return int(page.url.rstrip("/").split("/")[-1])


def wait_for_turn_or_end(page: Any) -> bool:
    """True when the page asks the person something; False once the match has ended."""
    page.wait_for_function(
        f"() => {TABLE}.dataset.asking === 'true' || "
        f"['done', 'failed', 'void'].includes({TABLE}.dataset.status)",
        timeout=120_000,
    )
    return page.locator("#table").get_attribute("data-asking") == "true"


def check_only_legal_choosable(page: Any) -> list[str]:
    """The legal cards (enabled, highlighted); every other card of the hand is disabled."""
    legal = page.locator("#hand button.card.legal:not([disabled])")
    others = page.locator("#hand button.card:not(.legal)")
    for i in range(others.count()):
        assert others.nth(i).is_disabled(), others.nth(i).get_attribute("data-card")
    return [legal.nth(i).get_attribute("data-card") for i in range(legal.count())]


def answer_once(page: Any, *, by_keyboard: bool = False, tap: Any = None) -> tuple[str, str]:
    """Answer the decision asked now with legal cards or an offered option; its (kind, number)."""
    table = page.locator("#table")
    kind = table.get_attribute("data-kind")
    number = table.get_attribute("data-number")
    choices = page.locator("#choices button.choice")
    if choices.count():
        assert page.locator("#hand button.card:not([disabled])").count() == 0
        choices.nth(choices.count() - 1).click()  # the last: the highest bid, a pledge…
    else:
        legal = check_only_legal_choosable(page)
        low, _high = (int(x) for x in table.get_attribute("data-pick").split(","))
        assert legal and len(legal) >= low
        if by_keyboard and low == 1:
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused == legal[0]
            page.keyboard.press("Enter")
        elif tap is not None and low == 1:
            tap.locator(f'#hand button.card.legal[data-card="{legal[-1]}"]').tap()
        else:
            for card in legal[: max(low, 1) if low else 0]:
                page.click(f'#hand button.card[data-card="{card}"]')
            if page.locator("#confirm").is_visible():
                page.click("#confirm")
    page.wait_for_function(
        f"() => {TABLE}.dataset.answered === '{number}' || {TABLE}.dataset.number !== '{number}'"
        f" || ['done', 'failed', 'void'].includes({TABLE}.dataset.status)",
        timeout=60_000,
    )
    return str(kind), str(number)


def verify_stored_replay(app: Flask, match_id: int, tmp_path: Path) -> dict[str, Any]:
    with sessions(app)() as db:
        match = db.get(Match, match_id)
        assert match is not None and match.status is MatchStatus.DONE, match and match.status
        replay = stored_replay(db, match_id)
    assert replay is not None
    path = tmp_path / f"match-{match_id}.json"
    path.write_bytes(dumps(replay))
    checked = subprocess.run(
        [sys.executable, "-m", "arena.cli", "replay", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "OK" in checked.stdout
    return replay


def no_fault_of_the_person(replay: dict[str, Any]) -> None:
    person = [e["index"] for e in replay["entrants"] if e["label"].endswith("(a person)")]
    assert person == [0], replay["entrants"]
    assert [f for f in replay["faults"] if f["entrant"] == 0] == []


def test_a_person_plays_a_whole_hand_with_a_pass_reloads_and_the_match_verifies(
    site, browser, app, worker, tmp_path
):
    server, _world = site
    app.config["LIVE_MAX_STREAMS"] = 16  # three pages stream, and a reload's old stream
    desk = browser.new_context(viewport={"width": 1280, "height": 900})
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    watcher = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page, small, spectator = desk.new_page(), phone.new_page(), watcher.new_page()
    for tab, who in ((page, "alice"), (small, "alice"), (spectator, "bob")):
        tab.set_default_timeout(30_000)
        tab.on("pageerror", lambda error: errors.append(str(error)))
        sign_in(tab, server.url, who)
    polls: list[str] = []  # the desk page's state requests: its updates come by the stream
    page.on("request", lambda r: polls.append(r.url) if "/state" in r.url else None)
    match_id = open_table(
        page, server.url, app, "standard", "house/heuristic-1, house/random-1, house/heuristic-2"
    )
    small.goto(f"{server.url}/tables/{match_id}")
    spectator.goto(f"{server.url}/tables/{match_id}")  # another person: the match's page
    assert spectator.url.endswith(f"/matches/{match_id}")
    spectator.wait_for_selector('#viewer[data-live="true"]')
    page.wait_for_selector('#table[data-updates="stream"][data-connection="ok"]')
    thread, outcome = run_match_in_thread(match_id)
    kinds: list[str] = []
    bots_seen = 0
    shot = reloaded = tapped = typed = False
    while wait_for_turn_or_end(page):
        kind = page.locator("#table").get_attribute("data-kind")
        plays = kinds.count("play")
        if kind == "play" and plays == 3 and not reloaded:  # the middle of the hand
            page.reload()
            page.wait_for_selector('#table[data-asking="true"]')
            reloaded = True
        on_table = page.locator("#trick .t-play").count()
        bots_seen += page.locator("#trick .t-play:not(.mine)").count()
        if kind == "play" and plays >= 4 and on_table and not shot:  # a trick under way
            now = page.locator("#table").get_attribute("data-number")
            small.wait_for_selector(f'#table[data-asking="true"][data-number="{now}"]')
            screenshot(page, "human-table-1280")
            screenshot(small, "human-table-390")
            # a spectator watches live: the person's hand is backs, as every seat's
            spectator.wait_for_selector("#viewer .trick .play")
            person = spectator.locator('#viewer .seat[data-seat="0"] .hand .card')
            assert person.count() > 0
            assert spectator.locator('#viewer .seat[data-seat="0"] .hand .card.back').count() == (
                person.count()
            )
            assert spectator.locator("#viewer .seat .hand .card:not(.back)").count() == 0
            assert (
                "alice (a person)" in spectator.locator('#viewer .seat[data-seat="0"]').inner_text()
            )
            screenshot(spectator, "human-table-spectator-1280")
            # thumb-sized: no sideways scrolling, every card of the hand at least 40 px
            assert small.evaluate("document.documentElement.scrollWidth") <= 390
            sizes = small.evaluate(
                "[...document.querySelectorAll('#hand button.card')]"
                ".map(b => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
            )
            assert sizes and all(w >= 40 and h >= 44 for w, h in sizes), sizes
            shot = True
        use_tap = kind == "play" and plays >= 5 and not tapped
        use_keys = kind == "play" and plays >= 8 and not typed
        done_kind, _number = answer_once(page, by_keyboard=use_keys, tap=small if use_tap else None)
        tapped |= use_tap
        typed |= use_keys
        kinds.append(done_kind)
    thread.join(timeout=120)
    assert outcome and not isinstance(outcome[0], BaseException), outcome
    assert outcome[0].action == "recorded", outcome
    assert kinds[0] == "pass" and kinds.count("play") == 13, kinds
    assert reloaded and shot and tapped and typed
    page.wait_for_selector("#done:not([hidden])")
    # The bots' cards reached the page by its stream: it asked the state only when loaded,
    # reloaded and at the end (never polled), and stayed on the stream throughout.
    assert bots_seen > 0
    assert page.locator("#table").get_attribute("data-updates") == "stream"
    assert len(polls) <= 3, polls
    replay = verify_stored_replay(app, match_id, tmp_path)
    no_fault_of_the_person(replay)
    desk.close()
    phone.close()
    watcher.close()
    assert not errors, errors


def test_a_person_bids_in_an_auction_reloads_loses_the_connection_and_the_match_verifies(
    site, browser, app, worker, tmp_path
):
    server, _world = site
    # No stream place left on the site: the page is refused its stream (503) and falls
    # back to polling the state, and the whole table still plays, reloads and resumes.
    app.config["LIVE_MAX_STREAMS"] = 0
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, server.url, "alice")
    match_id = open_table(
        page,
        server.url,
        app,
        "auction",
        "house/heuristic-1, house/random-1, house/heuristic-2",
        via="challenge",
    )
    thread, outcome = run_match_in_thread(match_id)
    kinds: list[str] = []
    words: list[str] = []
    reloaded = cut = False
    while wait_for_turn_or_end(page):
        if len(kinds) == 5 and not reloaded:
            page.reload()
            page.wait_for_selector('#table[data-asking="true"]')
            reloaded = True
        if len(kinds) == 8 and not cut:  # the connection is lost, then comes back
            context.set_offline(True)
            page.wait_for_selector('#table[data-connection="lost"]')
            context.set_offline(False)
            page.wait_for_selector('#table[data-connection="ok"][data-asking="true"]')
            assert "Connection lost" not in page.locator("#refused").inner_text()
            cut = True
        options = page.locator("#choices button.choice")
        words += [options.nth(i).inner_text() for i in range(options.count())]
        if page.locator("#table").get_attribute("data-kind") == "bid" and options.count():
            screenshot(page, "human-table-auction-1280")
        kinds.append(answer_once(page)[0])
    thread.join(timeout=120)
    assert outcome and not isinstance(outcome[0], BaseException), outcome
    assert outcome[0].action == "recorded", outcome
    assert "bid" in kinds and "play" in kinds, kinds
    assert any("bid" in w for w in words) and any("pass" in w for w in words), words[:6]
    assert reloaded and cut
    assert page.locator("#table").get_attribute("data-updates") == "polling"
    replay = verify_stored_replay(app, match_id, tmp_path)
    no_fault_of_the_person(replay)
    context.close()
    assert not errors, errors
