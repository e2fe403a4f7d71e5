"""The viewer and the pages as a player reads them, in real Chromium: each card of a trick
in front of its player, the viewing seat at the bottom, one colour per highlight with a
legend, bot notes beside their decisions (as text), tables inside their cards (scrolling
on a phone), a match watched live until it turns into its replay, a replay opened from a
file written by `arena replay view`, and signing up back to the page one came from.
Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from arena.engine import preset
from arena.match import replay as replay_io
from arena.store import write_transaction
from arena.store.live import LiveWriter, clear_events
from arena.store.models import Replay
from tests.web.browser.conftest import SCREENSHOTS, screenshot
from tests.web.factories import PASSWORD
from web.bench import add_match, play_and_record
from web.database import sessions
from web.replays import replay_document

ROOT = Path(__file__).resolve().parents[3]
EVIL = '<img src=x onerror="window.pwned=1">'


def _add_notes(document: dict[str, Any]) -> dict[str, Any]:
    """The replay with bot notes as the notes branch records them: on plays and passes,
    one of them HTML that must stay text, and the counts kept and dropped per entrant."""
    hand = document["games"][0]["hands"][0]
    for trick in hand["tricks"][:2]:
        for play in trick["plays"]:
            play["note"] = f"seat {play['seat']}: {play['card']} is safe here"
    hand["tricks"][0]["plays"][1]["note"] = EVIL
    for entry in hand["passes"]:
        entry["note"] = f"dumping {' '.join(entry['cards'])}"
    document["notes"] = [{"kept": 10 + i, "dropped": i} for i in range(len(document["entrants"]))]
    return document


def _store_notes(app, match_id: int) -> dict[str, Any]:
    with sessions(app)() as db:
        stored = replay_document(db, match_id)
        assert stored is not None
        document = _add_notes(stored)
        content = replay_io.dumps(document)
        db.rollback()
        with write_transaction(db):
            db.execute(
                update(Replay)
                .where(Replay.match_id == match_id)
                .values(content=content, sha256=hashlib.sha256(content).hexdigest())
            )
    return document


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _nearest_seat(page, play) -> str:
    x, y = _centre(play.bounding_box())
    best = None
    for seat in page.locator(".seat").all():
        sx, sy = _centre(seat.bounding_box())
        distance = (sx - x) ** 2 + (sy - y) ** 2
        if best is None or distance < best[0]:
            best = (distance, seat.get_attribute("data-seat"))
    assert best is not None
    return best[1]


def test_each_card_lies_in_front_of_its_player_and_a_seat_view_sits_at_the_bottom(site, page):
    server, world = site
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    page.wait_for_selector('#viewer[data-ready="true"]')
    plays = page.locator(".trick .play").all()
    assert len(plays) == 4
    for play in plays:
        assert _nearest_seat(page, play) == play.get_attribute("data-play-seat")
    assert page.locator('.seat[data-seat="0"]').get_attribute("data-position") == "b"

    page.locator("#viewer").focus()
    page.keyboard.press("2")  # seat 2's view: seat 2 at the bottom
    assert page.locator("#viewer").get_attribute("data-view") == "2"
    assert page.locator('.seat[data-seat="2"]').get_attribute("data-position") == "b"
    boxes = {s.get_attribute("data-seat"): s.bounding_box() for s in page.locator(".seat").all()}
    assert max(boxes, key=lambda seat: boxes[seat]["y"]) == "2"
    for play in page.locator(".trick .play").all():
        assert _nearest_seat(page, play) == play.get_attribute("data-play-seat")
    mine = page.locator('.trick .play[data-play-seat="2"]').bounding_box()
    others = [
        p.bounding_box() for p in page.locator('.trick .play:not([data-play-seat="2"])').all()
    ]
    assert all(mine["y"] > box["y"] for box in others)  # its own card lies nearest to it
    screenshot(page, "viewer-seat-2-at-the-bottom")


def test_the_legend_names_each_highlight_once(site, page):
    server, world = site
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    page.wait_for_selector('#viewer[data-ready="true"]')
    legend = page.locator(".legend li")
    texts = legend.all_inner_texts()
    assert texts == [
        "to play",
        "wins the trick",
        "received in the pass",
        "fault or played for the bot",
        "has a bot note",
    ]
    # One colour, one meaning: the ring of the to-play seat, the trick's winner and a
    # received card differ from each other.
    rings = page.evaluate(
        """() => ['turn', 'winner', 'received', 'fault'].map((name) =>
            getComputedStyle(document.querySelector(`.legend .swatch.${name}`)).boxShadow)"""
    )
    colours = [ring.split(")")[0] for ring in rings]
    assert len(set(colours)) == 4, rings
    winner = page.locator(".trick .play.winner .card")
    assert winner.evaluate("(el) => getComputedStyle(el).boxShadow").split(")")[0] == colours[1]


def _sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/signin")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".who >> text=Sign out")


def test_bot_notes_show_beside_their_decisions_as_text(site, page, app):
    server, world = site
    _store_notes(app, world.match_id)
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    page.wait_for_selector('#viewer[data-ready="true"]')
    assert page.locator(".notes .notes-list li").count() == 0  # notes are their owners'
    _sign_in(page, server.url, "root")  # an admin reads every seat's notes
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    page.wait_for_selector('#viewer[data-ready="true"]')
    notes = page.locator(".notes .notes-list li")
    assert notes.count() == 4
    texts = page.locator(".notes .note-text").all_inner_texts()
    assert EVIL in texts  # shown as the text it is
    assert page.locator(".notes img").count() == 0
    assert page.evaluate("window.pwned") is None
    assert page.locator(".trick .play.noted").count() == 4
    counts = page.locator(".note-counts li").all_inner_texts()
    assert counts[0].endswith("10 kept, 0 dropped")
    screenshot(page, "replay-notes-1280")

    page.locator("#viewer").focus()
    page.keyboard.press("1")  # seat 1's view: its own note only
    assert page.locator(".notes .notes-list li").count() == 1
    assert page.locator(".notes .notes-list li").get_attribute("data-note-seat") == "1"
    page.keyboard.press("a")
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=0&c=1")
    page.wait_for_selector('#viewer[data-step="1-1-0-1"]')
    assert page.locator(".notes .notes-list li").count() == 4  # the four passes
    assert "dumping" in page.locator(".notes .notes-list").inner_text()


def test_the_replay_with_notes_on_a_phone(site, browser, app):
    server, world = site
    _store_notes(app, world.match_id)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    _sign_in(phone, server.url, "root")
    phone.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=4")
    phone.wait_for_selector('#viewer[data-ready="true"]')
    assert phone.evaluate("document.documentElement.scrollWidth") <= 392
    assert phone.locator(".notes .notes-list li").count() == 4
    screenshot(phone, "replay-notes-390")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.locator(".viewer-panel").screenshot(path=str(SCREENSHOTS / "replay-notes-390-viewer.png"))
    context.close()


TABLE_FIT = """() => [...document.querySelectorAll('main table.table')].map((table) => {
    const wrap = table.closest('.table-wrap');
    const card = table.closest('.panel') || document.querySelector('main');
    return {
      id: table.id || table.className,
      wrapped: Boolean(wrap),
      scrolls: wrap ? wrap.scrollWidth > wrap.clientWidth + 1 : false,
      hinted: wrap ? wrap.classList.contains('scrolls-more') : false,
      reachable: wrap ? wrap.getAttribute('tabindex') === '0' && wrap.role === 'region' : false,
      inside: wrap.getBoundingClientRect().right <= card.getBoundingClientRect().right + 1,
    };
})"""


def _pages(server, world) -> dict[str, str]:
    return {
        "match": f"{server.url}/matches/{world.match_id}",
        "ladder": f"{server.url}/ladder",
        "bot": f"{server.url}/bots/{world.alice_bot_id}",
        "season": f"{server.url}/seasons/{world.season_id}",
        "home": f"{server.url}/",
    }


def test_no_table_overflows_its_card_at_1280_px(site, page):
    server, world = site
    for name, url in _pages(server, world).items():
        page.goto(url)
        page.wait_for_load_state("load")
        tables = page.evaluate(TABLE_FIT)
        assert tables, f"{name}: no table"
        for table in tables:
            assert table["wrapped"] and table["inside"], (name, table)
            assert not table["scrolls"], (name, table)
        if name in ("ladder", "bot", "home"):
            screenshot(page, f"{name}-1280")


def test_tables_scroll_inside_their_card_on_a_phone_and_show_it(site, browser):
    server, world = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = context.new_page()
    scrolling = []
    for name, url in _pages(server, world).items():
        phone.goto(url)
        phone.wait_for_load_state("load")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 392, name
        for table in phone.evaluate(TABLE_FIT):
            assert table["wrapped"] and table["inside"], (name, table)
            assert table["hinted"] == table["scrolls"], (name, table)
            assert table["reachable"] == table["scrolls"], (name, table)  # by keyboard too
            if table["scrolls"]:
                scrolling.append((name, table["id"]))
        if name in ("ladder", "bot"):
            screenshot(phone, f"{name}-390")
    assert ("match", "seats") in scrolling
    # Scrolled to its end, a table no longer fades: there is no more to see.
    phone.goto(_pages(server, world)["match"])
    phone.wait_for_load_state("load")
    wrap = phone.locator("#seats").locator("xpath=..")
    wrap.evaluate(
        "(el) => { el.scrollLeft = el.scrollWidth; el.dispatchEvent(new Event('scroll')); }"
    )
    assert "scrolls-more" not in (wrap.get_attribute("class") or "")
    context.close()


def test_a_match_watched_live_turns_into_its_replay(site, page, app):
    """The runner plays with house bots in a thread, its events stored by the worker's
    `LiveWriter`; it waits after the first trick until the page has shown its cards."""
    server, world = site
    with sessions(app)() as db, write_transaction(db):
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=preset("standard"),
            seed=23,
        )
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector('#viewer[data-live="true"] [data-live-waiting]')

    writer = LiveWriter(sessions(app), match_id, interval=0.05)
    seen = threading.Event()
    failures: list[BaseException] = []

    def on_event(event: dict[str, Any]) -> None:
        writer(event)
        if event["kind"] == "trick" and event["trick"] == 0 and not seen.is_set():
            writer.flush()
            seen.wait(timeout=60)  # the page must show this trick before the match goes on

    def run() -> None:
        try:
            with sessions(app)() as db:
                play_and_record(db, match_id, on_event=on_event)
                clear_events(db, match_id)  # what the worker does once the match is stored
        except BaseException as error:  # reported by the test below
            failures.append(error)

    player = threading.Thread(target=run, daemon=True)
    player.start()
    try:
        page.wait_for_selector('#viewer[data-live="true"][data-ready="true"]')
        page.wait_for_selector('#viewer[data-step="1-1-1-4"]')  # following: the first trick
        assert page.locator(".trick .play").count() == 4
        assert page.locator("[data-live-badge]").is_visible()
        # No other seat's cards before they are played: a watcher sees only backs.
        assert page.locator(".seat .hand .card:not(.back)").count() == 0
        assert page.locator(".seat .hand .card.back").count() == 4 * 13 - 4
        screenshot(page, "live-first-trick")
    finally:
        seen.set()
    page.wait_for_selector('#viewer[data-ready="true"]:not([data-live])', timeout=60_000)
    player.join(timeout=60)
    assert not failures, failures
    assert page.locator("#score-sheet").is_visible()
    assert page.locator(".seat .hand .card.back").count() == 0  # the replay shows every hand


def test_a_replay_file_written_by_arena_replay_view_renders(site, browser, app, tmp_path):
    _server, world = site
    document = _store_notes(app, world.match_id)
    source = tmp_path / "match.json"
    source.write_text(json.dumps(document))
    out = tmp_path / "viewer.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena.cli",
            "replay",
            "view",
            str(source),
            "--out",
            str(out),
            "--no-open",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=1&c=4")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    assert tab.locator(".trick .play").count() == 4
    assert EVIL in tab.locator(".notes").inner_text()
    assert tab.locator(".notes img").count() == 0
    tab.locator("#viewer").focus()
    tab.keyboard.press("3")
    assert tab.locator('.seat[data-seat="3"]').get_attribute("data-position") == "b"
    assert tab.locator('.seat[data-seat="1"] .hand .card:not(.back)').count() == 0
    screenshot(tab, "replay-view-file")
    context.close()
    assert not problems, problems


@pytest.mark.parametrize(
    ("start", "landing"),
    [("ladder", "/seasons/"), ("offsite", "/")],
)
def test_signing_up_keeps_the_page_one_came_from(site, page, start, landing):
    server, _world = site
    if start == "ladder":
        page.goto(f"{server.url}/ladder")
        came_from = page.url
        page.click(".who >> text=Sign up")
    else:
        came_from = f"{server.url}/"
        page.goto(f"{server.url}/signup?next=https://evil.example/")
    page.fill("#username", f"dora{start}")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("text=Welcome,")
    assert page.url == came_from
    assert page.url.startswith(server.url + landing)


def test_a_v2_file_and_a_kind_without_a_v1_place_show_in_the_viewer(browser, tmp_path):
    """A v2 file opens in the viewer (re-played into v1's layout), and a decision filed
    under a hand's `decisions` (a kind v1 has no place for) is listed at the pass with its
    kind, value and fault, with no branch for its kind in replay.js. (The v2 document is
    converted from a stored v1 one: a match cannot run inside Playwright's event loop.)"""
    from arena.match.replay_v2 import from_v1
    from arena.match.viewer import render_page

    fixture = ROOT / "tests" / "match" / "fixtures" / "v1-standard.json.gz"
    shown = replay_io.load(fixture)
    written = from_v1(shown).to_dict()
    assert written["version"] == 2
    shown["games"][0]["hands"][0]["decisions"] = [
        {"kind": "wager", "seat": 2, "value": ["QS", 3], "ms": 1.5, "fault": "timeout"}
    ]
    pages = {"v2": render_page(written), "decisions": render_page(shown)}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    for name, html in pages.items():
        out = tmp_path / f"{name}.html"
        out.write_text(html, encoding="utf-8")
        tab = context.new_page()
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=1&c=4")
        tab.wait_for_selector('#viewer[data-ready="true"]')
        assert tab.locator(".trick .play").count() == 4
        if name == "decisions":
            tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=0&c=1")
            line = tab.locator('.decisions [data-kind="wager"]')
            line.wait_for()
            assert line.inner_text().startswith("seat 2 wager: QS 3")
            assert "timeout" in line.inner_text()
            screenshot(tab, "replay-other-decisions")
    context.close()
    assert not problems, problems


def test_an_enfle_replay_shows_each_pickup_and_who_went_out(browser, tmp_path):
    """004 'Enfle': the viewer says who could not follow and what it took up, puts those
    cards in its hand, and says who went out. (The match runs in a subprocess: a match
    cannot run inside Playwright's event loop.)"""
    from arena.match.replay_view import VERSIONS, readable
    from arena.match.viewer import render_page

    written = tmp_path / "enfle.json"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "run", "--rules", "enfle", "--quiet"]
        + [
            arg
            for seat in range(4)
            for arg in ("--bot", f"house:{('random', 'heuristic')[seat % 2]}")
        ]
        + ["--seed", "5", "--out", str(written)],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    shown = replay_io.load(written, VERSIONS)
    v1 = readable(shown)
    hand = v1["games"][0]["hands"][0]
    t = next(i for i, trick in enumerate(hand["tricks"]) if "pickup" in trick)
    up = hand["tricks"][t]["pickup"]
    out = tmp_path / "enfle.html"
    out.write_text(render_page(shown), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    count = len(hand["tricks"][t]["plays"])
    tab.goto(out.resolve().as_uri() + f"#g=1&h=1&t={t + 1}&c={count}")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    line = tab.locator(".pickup")
    line.wait_for()
    assert line.inner_text().startswith(f"seat {up['seat']} cannot follow and takes up")
    screenshot(tab, "replay-enfle-pickup")
    last = len(hand["tricks"])
    tab.goto(out.resolve().as_uri() + f"#g=1&h=1&t={last}&c={len(hand['tricks'][-1]['plays'])}")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    assert f"seat {hand['went_out']} is out of cards and wins" in tab.content()
    context.close()
    assert not problems, problems


def test_the_pledges_show_at_the_pass_and_the_shooters_choice_after_the_last_trick(
    browser, tmp_path
):
    """004's no-hearts pledge and the shooter's choice (filed under a hand's `decisions`
    in v1's layout) are worded: the pledges at the pass, the shooter's choice with the
    last trick (it is made after it), never at the pass; a called count shows in the
    pass's caption. (Written into a stored replay: the viewer draws, it does not verify.)"""
    from arena.match.viewer import render_page

    fixture = ROOT / "tests" / "match" / "fixtures" / "v1-standard.json.gz"
    shown = replay_io.load(fixture)
    hand = shown["games"][0]["hands"][0]
    hand["decisions"] = [
        {"kind": "pledge", "seat": 1, "value": True, "ms": 1.0},
        {"kind": "pledge", "seat": 2, "value": False, "ms": 1.0},
        {"kind": "moon_choice", "seat": 3, "value": "subtract", "ms": 2.0},
    ]
    hand["call"] = {"seat": hand["dealer"], "direction": "left", "count": 2, "ms": 1.0}
    out = tmp_path / "pledge.html"
    out.write_text(render_page(shown), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=0&c=1")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    pledge = tab.locator('.decisions [data-kind="pledge"]')
    pledge.first.wait_for()
    assert pledge.first.inner_text() == "seat 1 pledges to take no hearts"
    assert pledge.nth(1).inner_text() == "seat 2 makes no pledge"
    assert tab.locator('.decisions [data-kind="moon_choice"]').count() == 0
    assert "left, 2 cards (the dealer's call)" in tab.locator(".trick .caption").inner_text()
    last = len(hand["tricks"])
    tab.goto(out.resolve().as_uri() + f"#g=1&h=1&t={last}&c=4")
    choice = tab.locator('.decisions [data-kind="moon_choice"]')
    choice.wait_for()
    assert choice.inner_text() == "seat 3 shot the moon: subtracts it from his own score"
    tab.goto(out.resolve().as_uri() + f"#g=1&h=1&t={last - 1}&c=4")
    tab.locator(".trick .play").first.wait_for()
    assert tab.locator('.decisions [data-kind="moon_choice"]').count() == 0
    screenshot(tab, "replay-pledge-and-moon-choice")
    context.close()
    assert not problems, problems


def _card_text(code: str) -> str:
    """A card as the viewer writes it in a line of text: "TH" is "10♥"."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}[code[1]]


def test_rickety_kates_refused_queen_and_its_replacement_show_at_the_pass(browser, tmp_path):
    """Rickety Kate: the receiver's refusal of a passed QS and the card its giver passed in
    its place (filed under a hand's `decisions` in v1's layout) are worded at the pass, and
    the cards received are those of the exchange that followed. (A real match, run in a
    subprocess: a match cannot run inside Playwright's event loop.)"""
    from arena.match.replay_view import VERSIONS, readable
    from arena.match.viewer import render_page

    written = tmp_path / "rickety_kate.json"
    subprocess.run(
        [sys.executable, "-m", "arena.cli", "match", "run", "--rules", "rickety_kate"]
        + ["--quiet", "--hands", "2", "--seed", "1", "--out", str(written)]
        + [arg for _ in range(4) for arg in ("--bot", "house:heuristic")],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    shown = replay_io.load(written, VERSIONS)
    hands = readable(shown)["games"][0]["hands"]
    h, hand = next(
        (i, hand)
        for i, hand in enumerate(hands)
        if any(d["kind"] == "replace_pass" for d in hand.get("decisions", []))
    )
    refusal = next(d for d in hand["decisions"] if d["kind"] == "refuse_queen")
    replacement = next(d for d in hand["decisions"] if d["kind"] == "replace_pass")
    assert "QS" not in hand["received"][refusal["seat"]]
    out = tmp_path / "rickety_kate.html"
    out.write_text(render_page(shown), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(out.resolve().as_uri() + f"#g=1&h={h + 1}&t=0&c=1")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    refused = tab.locator('.decisions [data-kind="refuse_queen"]')
    refused.wait_for()
    assert refused.inner_text() == f"seat {refusal['seat']} refuses the Q♠ passed to it"
    replaced = tab.locator('.decisions [data-kind="replace_pass"]')
    assert replaced.inner_text() == (
        f"seat {replacement['seat']} passes {_card_text(replacement['value'])} in the refused "
        "Q♠'s place"
    )
    # The pass went with the replacement in the QS's place: the giver keeps the QS.
    giver_line = tab.locator(".passes div", has_text=f"{replacement['seat']} → ")
    assert "(Q♠ refused)" in giver_line.first.inner_text()
    screenshot(tab, "replay-rickety-kate-refused-queen")
    context.close()
    assert not problems, problems


def test_gong_zhus_exposures_show_before_the_first_trick(browser, tmp_path):
    """Gong Zhu's exposed cards (filed under a hand's `decisions` in v1's layout) are worded
    before play: "exposes QS JD" or "exposes nothing", one line per seat. The replay is a
    real match of house bots, the random ones exposing now and then."""
    from concurrent.futures import ThreadPoolExecutor

    from arena.bots import HOUSE_BOTS
    from arena.match.runner import Entrant, MatchRunner
    from arena.match.seats import InProcessSeat
    from arena.match.viewer import render_page

    rules = preset("gong_zhu").replace(max_hands=1, target_score=None)
    seats = [InProcessSeat(HOUSE_BOTS["random"](seat)) for seat in range(4)]
    runner = MatchRunner(rules, [Entrant(f"r{s}", seat) for s, seat in enumerate(seats)], 5)
    with ThreadPoolExecutor(1) as pool:  # Playwright's own event loop runs in this thread
        outcome = pool.submit(runner.run).result()
    hand = outcome.v1["games"][0]["hands"][0]
    exposed = [d for d in hand["decisions"] if d["kind"] == "expose"]
    assert len(exposed) == 4 and any(d["value"] for d in exposed)
    out = tmp_path / "gong_zhu.html"
    out.write_text(render_page(outcome.v1), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=0&c=1")  # the step before the first trick
    tab.wait_for_selector('#viewer[data-ready="true"]')
    lines = tab.locator('.decisions [data-kind="expose"]')
    lines.first.wait_for()
    assert lines.count() == 4
    for i, decision in enumerate(exposed):
        shown = " ".join(_card_text(card) for card in decision["value"])
        said = f"exposes {shown}" if decision["value"] else "exposes nothing"
        assert lines.nth(i).inner_text() == f"seat {decision['seat']} {said}"
    screenshot(tab, "replay-gong-zhu-exposures")
    context.close()
    assert not problems, problems
