"""The live viewer tells the truth (issue 31, item 5), in real Chromium, at 1280 and 390 px.

A match of house bots is played in a thread, its events stored by the worker's
`LiveWriter`; the runner waits at chosen moments until the pages have drawn them: the
deal of the first hand (before any pass), the first finished trick, the last card of the
second trick before the server has said who won it. At each, what the page says is
checked against what is so: the match is running (not queued), the hands it shows as
backs are not called "face up", a pass to come is not also "no pass", a finished trick
marks its winner and frames the seat that leads next, the counters say "of 13" and
"so far". When the match ends the page opens its replay at the end.
Screenshots: artifacts/screenshots/live-*.png.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from arena.engine import preset
from arena.store import write_transaction
from arena.store.live import LiveWriter, clear_events
from tests.web.browser.conftest import screenshot
from web.bench import add_match, play_and_record
from web.database import sessions


class _Pauses:
    """The runner's side: at the events a test names, flush the writer and wait until the
    test says the pages have drawn them."""

    def __init__(self, writer: LiveWriter, stops: dict[str, Callable[[dict[str, Any]], bool]]):
        self.writer = writer
        self.stops = stops
        self.reached: dict[str, threading.Event] = {name: threading.Event() for name in stops}
        self.go_on: dict[str, threading.Event] = {name: threading.Event() for name in stops}

    def __call__(self, event: dict[str, Any]) -> None:
        self.writer(event)
        for name, stop in self.stops.items():
            if not self.reached[name].is_set() and stop(event):
                self.writer.flush()
                self.reached[name].set()
                self.go_on[name].wait(timeout=90)

    def release(self) -> None:
        for event in self.go_on.values():
            event.set()


def _last_card_of_second_trick(plays: list[int]) -> Callable[[dict[str, Any]], bool]:
    """True at the fourth play of the hand's second trick (its result not sent yet)."""

    def stop(event: dict[str, Any]) -> bool:
        if event["kind"] == "play" and event["game"] == 0 and event["trick"] == 1:
            plays[0] += 1
            return plays[0] == 4
        return False

    return stop


def test_a_live_match_says_what_is_so_and_its_replay_opens_at_the_end(site, browser, app):
    server, world = site
    with sessions(app)() as db, write_transaction(db):
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=preset("standard"),
            seed=23,
        )
    desk = browser.new_context(viewport={"width": 1280, "height": 800})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    errors: list[str] = []
    tabs = []
    for context in (desk, phone):
        context.set_default_timeout(20_000)
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{server.url}/matches/{match_id}")
        tab.wait_for_selector('#viewer[data-live="true"] [data-live-waiting]')
        tabs.append(tab)
    page, small = tabs
    assert page.locator("h1 .status").inner_text().lower() == "queued"  # nothing played yet

    seconds: list[int] = [0]
    writer = LiveWriter(sessions(app), match_id, interval=0.05)
    pauses = _Pauses(
        writer,
        {
            # the first hand is dealt; its passes are still to come
            "deal": lambda e: e["kind"] == "hand" and e["game"] == 0,
            "first trick": lambda e: e["kind"] == "trick" and e["trick"] == 0,
            "second trick's last card": _last_card_of_second_trick(seconds),
        },
    )
    failures: list[BaseException] = []

    def run() -> None:
        try:
            with sessions(app)() as db:
                play_and_record(db, match_id, on_event=pauses)
                clear_events(db, match_id)  # what the worker does once the match is stored
        except BaseException as error:  # reported below
            failures.append(error)

    player = threading.Thread(target=run, daemon=True)
    player.start()
    try:
        # -- the deal: a pass to come, every other hand a back ---------------------------
        assert pauses.reached["deal"].wait(60)
        for tab in tabs:
            tab.wait_for_selector('#viewer[data-live="true"][data-step="1-1-0-0"]')
            assert tab.locator("h1 .status").inner_text().lower() == "running"
            assert tab.locator("[data-match-status]").inner_text() == "running"
            caption = tab.locator(".trick .caption").inner_text()
            assert caption == "Deal · pass left"
            assert "no pass this hand" not in tab.locator(".trick").inner_text()
            assert tab.locator(".seat .hand .card.back").count() == 52
            shown = tab.locator('#replay-view option[value="all"]').inner_text()
            assert "face up" not in shown and "hidden" in shown
            assert "Hand 1 of 1 so far" in tab.locator(".position").inner_text()
        screenshot(page, "live-deal-1280")
        screenshot(small, "live-deal-390")
        pauses.go_on["deal"].set()

        # -- the first trick, finished: its winner marked, the next leader framed --------
        assert pauses.reached["first trick"].wait(60)
        for tab in tabs:
            tab.wait_for_selector('#viewer[data-step="1-1-1-4"]')
            won = tab.locator(".trick .play.winner")
            assert won.count() == 1
            winner = won.get_attribute("data-play-seat")
            assert f"won by seat {winner}" in tab.locator(".trick").inner_text()
            framed = tab.locator(".seat.to-play")
            assert framed.count() == 1 and framed.get_attribute("data-seat") == winner
            assert tab.locator(".trick .caption").inner_text() == "Trick 1 of 13"
            assert "Hand 1 of 1 so far · trick 1 of 13 · card 4" in (
                tab.locator(".position").inner_text()
            )
        screenshot(page, "live-first-trick-1280")
        screenshot(small, "live-first-trick-390")
        pauses.go_on["first trick"].set()

        # -- all four cards of trick 2 down, its result not sent: the step waits for it --
        assert pauses.reached["second trick's last card"].wait(60)
        page.wait_for_selector('#viewer[data-step="1-1-2-3"]')
        time.sleep(1.0)  # several polls of the stream: the fourth card is held back
        assert page.locator("#viewer").get_attribute("data-step") == "1-1-2-3"
        assert page.locator(".trick .play").count() == 3
        assert page.locator(".seat.to-play").count() == 1  # the fourth card's seat: to play
        pauses.go_on["second trick's last card"].set()
    finally:
        pauses.release()

    # -- the end: the replay opens at its end, not where the live view was ----------------
    page.wait_for_selector('#viewer[data-ready="true"]:not([data-live])', timeout=90_000)
    player.join(timeout=90)
    assert not failures, failures
    assert page.locator("h1 .status").inner_text().lower() == "done"
    opened = page.locator("#viewer").get_attribute("data-step")
    page.locator("#viewer").focus()
    page.keyboard.press("End")
    assert page.locator("#viewer").get_attribute("data-step") == opened
    assert "so far" not in page.locator(".position").inner_text()
    screenshot(page, "live-ended-replay-1280")
    desk.close()
    phone.close()
    assert not errors, errors
