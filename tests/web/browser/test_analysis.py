"""The analysis of a match in real Chromium (issue 33): the owner asks for it, watches the
progress bar, and, once the real task has judged the match, finds the built blunder (a
seat that could duck the ♠Q takes it) marked in the list and in the viewer beside the
decision, with every card's evaluation; the bot page sums it up. Screenshots:
artifacts/screenshots/analysis-*.png (copies in docs/images/ for docs/analysis.md)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import select

from arena.store.models import MatchAnalysis
from tests.web.analysed import analysis_worker, record_built_match, run_analysis
from tests.web.browser.conftest import screenshot
from tests.web.factories import PASSWORD
from web.database import sessions

pytestmark = pytest.mark.long  # started first (tests/conftest.py)


def _sign_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/signin")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_selector(".who >> text=Sign out")


def test_an_analysed_match_marks_the_built_blunder_in_the_viewer_and_on_the_bot_page(
    site, page, app, database, tmp_path
):
    server, world = site
    built: list[tuple[int, int, str]] = []
    # In a thread: the match runner's event loop may not run in Playwright's thread.
    maker = threading.Thread(target=lambda: built.append(record_built_match(app, world)))
    maker.start()
    maker.join(timeout=120)
    match_id, trick, card = built[0]
    _sign_in(page, server.url, "alice")
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector('#viewer[data-ready="true"]')
    page.click("#ask-analysis")
    page.wait_for_selector("#analysis-progress")
    assert page.locator("#analysis").get_attribute("data-status") == "queued"
    page.locator("#analysis").scroll_into_view_if_needed()
    page.locator("#analysis").screenshot(
        path=str(screenshot(page, "analysis-01-asked").with_name("analysis-progress.png"))
    )

    with sessions(app)() as db:
        analysis_id = db.scalar(select(MatchAnalysis.id).where(MatchAnalysis.match_id == match_id))
    assert analysis_id is not None
    outcome: list[str] = []
    with analysis_worker(database, tmp_path / "data"):
        worker = threading.Thread(target=lambda: outcome.append(run_analysis(analysis_id)))
        worker.start()
        worker.join(timeout=240)
    assert outcome == ["done"]

    # The page was polling: it reloads into the result by itself.
    blunder = page.locator("#analysis-marks li.mark-blunder").first
    blunder.wait_for(timeout=30_000)
    assert f"trick {trick + 1}" in blunder.inner_text()
    first = page.locator("#analysis-marks li").first
    assert first.get_attribute("class") == "mark-blunder"  # the worst of the hand, listed first
    summary = page.locator("#analysis-summary tbody tr").nth(2)
    assert summary.locator('td[data-mark="blunder"]').inner_text() == "1"  # one blunder
    blunder.locator("a").click()
    box = page.locator("#analysis-decision .analysis-one.mark-blunder")
    box.wait_for()
    assert page.locator("#viewer").get_attribute("data-step").startswith(f"1-1-{trick + 1}-")
    text = box.inner_text()
    assert f"played {card}" in text and "blunder" in text and "cost" in text
    rows = box.locator("tbody tr")
    assert rows.count() >= 2
    chosen = box.locator(f'tr.chosen[data-answer="{card}"]')
    assert chosen.count() == 1
    best = box.locator("tr.best").get_attribute("data-answer")
    assert best != card and best.endswith("S")  # a lower spade: the duck
    assert float(chosen.locator("td").nth(4).inner_text()) >= 8.0
    page.locator("#viewer").scroll_into_view_if_needed()
    screenshot(page, "analysis-02-viewer-blunder")
    page.locator("#analysis-decision").screenshot(
        path=str(screenshot(page, "analysis-02-viewer-blunder").with_name("analysis-decision.png"))
    )

    # Another step of the viewer: another decision (or none), never the blunder's box.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => !document.querySelector('#analysis-decision .mark-blunder')")

    page.goto(f"{server.url}/bots/{world.alice_bot_id}")
    phases = page.locator("#bot-analysis-phases")
    phases.wait_for()
    assert "1 blunder" in page.locator("#bot-analysis").inner_text()
    worst = page.locator("#bot-analysis-worst li").first
    assert f"match #{match_id}, hand 1, trick {trick + 1}" in worst.inner_text()
    assert "blunder" in worst.inner_text()
    page.locator("#bot-analysis").scroll_into_view_if_needed()
    screenshot(page, "analysis-03-bot-page")
    page.locator("#bot-analysis").screenshot(
        path=str(screenshot(page, "analysis-03-bot-page").with_name("analysis-bot-summary.png"))
    )


def _analysed(app, world, database, tmp_path, match_id: int) -> dict[str, Any]:
    """The match analysed by the real task at the site's depth (with the hindsight), as
    asked by alice; the stored result."""
    from arena.store import analyses
    from arena.store.database import write_transaction
    from web.analyses import DEFAULT

    with sessions(app)() as db, write_transaction(db):
        analysis_id = analyses.request(
            db,
            match_id,
            world.alice_id,
            samples=DEFAULT.samples,
            playouts=DEFAULT.playouts,
            seed=DEFAULT.seed,
            hindsight=DEFAULT.hindsight,
        )[0].id
    outcome: list[str] = []
    with analysis_worker(database, tmp_path / "data"):
        worker = threading.Thread(target=lambda: outcome.append(run_analysis(analysis_id)))
        worker.start()
        worker.join(timeout=600)
    assert outcome == ["done"]
    with sessions(app)() as db:
        row = db.get(MatchAnalysis, analysis_id)
        assert row is not None and row.result is not None
        return row.result


def _built(app, world) -> tuple[int, int, str]:
    built: list[tuple[int, int, str]] = []
    # In a thread: the match runner's event loop may not run in Playwright's thread.
    maker = threading.Thread(target=lambda: built.append(record_built_match(app, world)))
    maker.start()
    maker.join(timeout=120)
    return built[0]


def test_the_hindsight_is_a_labelled_view_apart_and_the_fair_marks_stay_as_they_were(
    site, page, app, database, tmp_path
):
    server, world = site
    match_id, trick, card = _built(app, world)
    result = _analysed(app, world, database, tmp_path, match_id)
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector('#viewer[data-ready="true"]')
    marks = page.locator("#analysis-marks").inner_html()
    summary = page.locator("#analysis-summary").inner_html()
    page.locator("#analysis-marks li.mark-blunder a").first.click()
    box = page.locator("#analysis-decision")
    box.locator(".analysis-one.mark-blunder").wait_for()
    assert box.get_attribute("data-mode") == "fair"
    fair = box.locator(".analysis-one").first.inner_html()
    fair_button = box.locator('.analysis-switch button[data-view="fair"]')
    known_button = box.locator('.analysis-switch button[data-view="hindsight"]')
    assert fair_button.inner_text() == "Fair (what the seat knew)"
    assert known_button.inner_text() == "Hindsight (all hands known)"
    assert fair_button.get_attribute("aria-pressed") == "true"

    known_button.click()
    page.wait_for_selector('#analysis-decision[data-mode="hindsight"]')
    assert known_button.get_attribute("aria-pressed") == "true"
    about = page.locator("#analysis-hindsight-about").inner_text()
    assert "every hand known" in about and "no seat could know" in about
    assert "not a judgement" in about
    one = box.locator(".analysis-one.hindsight-one")
    assert one.count() == 1
    assert f"played {card}" in one.inner_text() and "with all hands known" in one.inner_text()
    assert one.locator(f'tr.chosen[data-answer="{card}"]').count() == 1
    assert one.locator("tr.best").count() == 1
    assert box.locator(".badge.mark, .mark-blunder").count() == 0  # no mark in hindsight
    assert box.locator("th").nth(1).inner_text() == "On the real deal vs table"
    # The marks and the summary are not touched by the switch.
    assert page.locator("#analysis-marks").inner_html() == marks
    assert page.locator("#analysis-summary").inner_html() == summary
    page.locator("#viewer").scroll_into_view_if_needed()
    box.screenshot(
        path=str(screenshot(page, "analysis-04-hindsight").with_name("analysis-hindsight.png"))
    )

    # The view stays chosen as the viewer moves: the pass's hindsight (each judged pass
    # exchanged on the real deal with the other seats' real passes), no mark either.
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=1")
    page.wait_for_function("() => document.querySelector('#viewer').dataset.step === '1-1-0-1'")
    passed = box.locator(".analysis-one.hindsight-one")
    passed.first.wait_for()
    assert box.get_attribute("data-mode") == "hindsight"
    passes = [d for d in result["decisions"] if d["kind"] == "pass"]
    assert passed.count() == len(passes) > 0
    text = passed.first.inner_text()
    assert "passed" in text and "with all hands known" in text
    assert "64 playouts per answer on the real deal" in text
    assert passed.first.locator("tr.chosen").count() == 1
    assert passed.first.locator("tr.best").count() == 1
    assert passed.first.locator("tbody tr").count() == len(passes[0]["answers"])
    assert box.locator(".badge.mark").count() == 0
    assert "no judged decision" not in box.inner_text()
    page.locator("#viewer").scroll_into_view_if_needed()
    passed.first.screenshot(  # one seat's pass: the four make a long box
        path=str(
            screenshot(page, "analysis-04b-hindsight-pass").with_name("analysis-hindsight-pass.png")
        )
    )
    fair_button.click()
    page.wait_for_selector('#analysis-decision[data-mode="fair"]')
    assert box.locator('.analysis-one[data-kind="pass"]').count() >= 1
    page.locator("#analysis-marks li.mark-blunder a").first.click()
    page.wait_for_function(
        "(t) => document.querySelector('#viewer').dataset.step.startsWith(`1-1-${t}-`)",
        arg=trick + 1,
    )
    box.locator(".analysis-one.mark-blunder").wait_for()
    assert box.locator(".analysis-one").first.inner_html() == fair  # as it was
    assert page.locator("#analysis-hindsight-about").count() == 0


def test_an_auction_match_shows_its_bids_and_naming_before_the_first_trick(
    site, page, app, database, tmp_path
):
    """A real match of Auction Hearts, analysed: its bids and the suit named are judged and
    shown at the viewer's step before the first trick, their phase in the summary."""
    from arena.engine import preset
    from arena.store.bots import ensure_house_bots
    from arena.store.database import write_transaction
    from web.bench import add_match, play_and_record

    server, world = site
    rules = preset("auction").replace(max_hands=1)
    ids: list[int] = []

    def play() -> None:
        with sessions(app)() as db:
            with write_transaction(db):
                house = ensure_house_bots(db)
                seats = [world.alice_version_id, house[0].id, house[1].id, house[3].id]
                ids.append(add_match(db, season_id=None, version_ids=seats, rules=rules, seed=3))
            play_and_record(db, ids[0])

    maker = threading.Thread(target=play)
    maker.start()
    maker.join(timeout=120)
    match_id = ids[0]
    result = _analysed(app, world, database, tmp_path, match_id)
    before = [d for d in result["decisions"] if d["kind"] in ("bid", "naming")]
    assert {d["kind"] for d in before} == {"bid", "naming"}
    assert all(d["phase"] == "auction" and d["trick"] is None for d in before)

    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=1")
    page.wait_for_selector('#viewer[data-ready="true"]')
    assert page.locator('#analysis-summary th[data-phase="auction"]').inner_text() == "Auction"
    box = page.locator("#analysis-decision")
    box.locator('.analysis-one[data-kind="naming"]').wait_for()
    assert box.locator('.analysis-one[data-kind="bid"]').count() == sum(
        d["kind"] == "bid" for d in before
    )
    naming = next(d for d in before if d["kind"] == "naming")
    text = box.locator('.analysis-one[data-kind="naming"]').inner_text()
    assert f"named {naming['chosen']}" in text and "(Auction)" in text
    heading = box.locator('.analysis-one[data-kind="naming"] th').first.inner_text()
    assert heading == "Suit"
    marked = page.locator(
        '#analysis-marks li[data-kind="naming"], #analysis-marks li[data-kind="bid"]'
    )
    for i in range(marked.count()):
        assert "before the first trick" in marked.nth(i).inner_text()
    page.locator("#viewer").scroll_into_view_if_needed()
    screenshot(page, "analysis-05-auction")
    box.screenshot(
        path=str(screenshot(page, "analysis-05-auction").with_name("analysis-auction.png"))
    )
    # A card of the first trick: the bids are not shown there.
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#viewer').dataset.step === '1-1-1-1'")
    assert box.locator('.analysis-one[data-kind="bid"]').count() == 0

    # The bot page lists the phases in which alice's bot lost points, by their names.
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/api/v1/bots/{world.alice_bot_id}/analysis") as r:
        summary = json.load(r)
    lost = [p for p, loss in summary["phases"].items() if loss]
    page.goto(f"{server.url}/bots/{world.alice_bot_id}")
    rows = page.locator("#bot-analysis-phases tbody tr[data-phase]")
    rows.first.wait_for()
    assert sorted(rows.nth(i).get_attribute("data-phase") for i in range(rows.count())) == sorted(
        lost
    )


KIND_PRESETS = ("dealer_calls", "heartless", "pledge", "gong_zhu", "rickety_kate", "four_penny")
"""Presets whose hands ask decisions other than a pass and a card to a trick: the dealer's
call, a face-down card, pledges, exposures, a refused ♠Q and its replacement, and the
penny-rounds' cards."""


def test_every_judged_decision_of_every_kind_is_shown_at_its_step_in_the_viewer(
    site, page, app, database, tmp_path
):
    """A real one-hand match of each preset (and one whose shooter chooses), analysed by
    the real task: every judged decision that is not a card to a trick, and the first
    cards, opened by its link (`analysis_labels.jump`) shows in the viewer's box, under
    its kind's words; the shooter's choice at the hand's last step only."""
    from arena.benchmarks.analysis import play_match
    from arena.engine import preset
    from arena.store.bots import ensure_house_bots
    from arena.store.database import write_transaction
    from tests.web.analysed import record_replay
    from web import analysis_labels as labels
    from web.bench import add_match, play_and_record

    server, world = site
    ids: dict[str, int] = {}

    def play() -> None:
        with sessions(app)() as db:
            for name in KIND_PRESETS:
                rules = preset(name).replace(max_hands=1)
                with write_transaction(db):
                    house = ensure_house_bots(db)
                    seats = [world.alice_version_id, *(h.id for h in house)]
                    ids[name] = add_match(
                        db,
                        season_id=None,
                        version_ids=seats[: rules.players],
                        rules=rules,
                        seed=3,
                    )
                play_and_record(db, ids[name])

    def moon() -> None:
        # A hand whose shooter may choose (omnibus_jack: seed 19, heuristic bots).
        rules = preset("omnibus_jack").replace(max_hands=1)
        replay = play_match(rules, 19, "heuristic")
        ids["omnibus_jack"] = record_replay(
            app, replay, rules, 19, lambda house: [world.alice_version_id, *house[:3]]
        )

    for job in (play, moon):
        maker = threading.Thread(target=job)
        maker.start()
        maker.join(timeout=300)
    kinds_seen: set[str] = set()
    for name in (*KIND_PRESETS, "omnibus_jack"):
        match_id = ids[name]
        result = _analysed(app, world, database, tmp_path, match_id)
        others = [d for d in result["decisions"] if d["kind"] not in ("play", "pass")]
        assert others, f"{name}: no decision of its own kind judged"
        cards = [d for d in result["decisions"] if d["kind"] == "play"][:3]
        page.goto(f"{server.url}/matches/{match_id}")
        page.wait_for_selector('#viewer[data-ready="true"]')
        for d in others + cards:
            where = f"{d['game']}-{d['hand']}-{d['action']}"
            jump = labels.jump(d, preset(name).replace(max_hands=1))
            page.evaluate("(hash) => { window.location.hash = hash; }", jump)
            shown = page.locator(f'#analysis-decision .analysis-one[data-decision="{where}"]')
            try:
                shown.wait_for(timeout=10_000)
            except Exception as error:
                step = page.locator("#viewer").get_attribute("data-step")
                raise AssertionError(f"{name}: {d} not shown at step {step}") from error
            verb = labels.kind_label(d["kind"], d["trick"]).verb
            assert f"{verb} {d['chosen']}" in shown.inner_text(), (name, d["kind"])
            if d["kind"] == "moon_choice":  # at the hand's last step, and only there
                assert page.locator("#viewer").get_attribute("data-hand-end") == "true"
                page.keyboard.press("ArrowLeft")
                page.wait_for_function(
                    "() => document.querySelector('#viewer').dataset.handEnd === 'false'"
                )
                assert shown.count() == 0
            if d["kind"] == "penny_play":  # its own step of the round, alone there
                t, c = jump.split("&t=")[1].split("&c=")
                step = page.locator("#viewer").get_attribute("data-step")
                assert step == f"1-1-{t}-{c}", (d, step)
                pennies = page.locator('#analysis-decision .analysis-one[data-kind="penny_play"]')
                assert pennies.count() == 1
            kinds_seen.add(d["kind"])
        if name == "four_penny":
            _a_penny_cards_mark_at_its_own_step(page, result, preset(name).replace(max_hands=1))
        if name == "rickety_kate":
            page.locator("#viewer").scroll_into_view_if_needed()
            screenshot(page, "analysis-06-rickety-kate")
    assert kinds_seen >= {
        "moon_choice",
        "call",
        "reveal",
        "pledge",
        "expose",
        "refuse_queen",
        "replace_pass",
        "penny_play",
        "play",
    }


def _a_penny_cards_mark_at_its_own_step(page, result: dict[str, Any], rules: Any) -> None:
    """A marked penny-round card (else the costliest) of a four-penny match: its mark at
    its own step of the multi-round, and gone one card later in the same round."""
    from web import analysis_labels as labels

    pennies = [d for d in result["decisions"] if d["kind"] == "penny_play"]
    in_rounds = [d for d in pennies if d.get("order") is not None]
    assert in_rounds, "no penny-round card with its order"
    ordered = sorted(in_rounds, key=lambda d: (d["mark"] is None, -d["loss"]))
    d = next((d for d in ordered if d["order"] < rules.players - 1), ordered[0])
    page.evaluate("(hash) => { window.location.hash = hash; }", labels.jump(d, rules))
    where = f"{d['game']}-{d['hand']}-{d['action']}"
    shown = page.locator(f'#analysis-decision .analysis-one[data-decision="{where}"]')
    shown.wait_for(timeout=10_000)
    step = page.locator("#viewer").get_attribute("data-step")
    assert step == labels.key(d, rules)
    if d["mark"]:
        assert f"mark-{d['mark']}" in shown.get_attribute("class")
        assert shown.locator(f".badge.mark.{d['mark']}").count() == 1
    assert "multi-round" in page.locator("#viewer").inner_text().lower()
    page.locator("#viewer").scroll_into_view_if_needed()
    screenshot(page, "analysis-07-penny-card")
    page.locator("#analysis-decision").screenshot(
        path=str(screenshot(page, "analysis-07-penny-card").with_name("analysis-penny.png"))
    )
    # One card on, in the same round: the next card's decision (or none), not this one.
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(was) => document.querySelector('#viewer').dataset.step !== was", arg=step
    )
    assert shown.count() == 0
