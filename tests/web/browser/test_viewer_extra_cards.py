"""002's extra cards in the viewer, in real Chromium: 002 'Alternatives to the "Kitty" in 3
or 5 player games' ("Deal out the extra cards to players and allow the player with them to
play an additional card on the first trick"; ../shared/rules/002_*.txt). The first trick
holds players + extra cards, one seat playing twice (our reading: after the round, in play
order from the leader). A user stepping through it must see both cards of that seat in its
place on the felt, the extra one labelled, the one winning card marked (not both of the
winner's), who plays next (the extra-card seat after the round, the winner after the trick)
and each seat's card count. The match runs in a subprocess (a match cannot run inside
Playwright's event loop). Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser.conftest import screenshot
from tests.web.browser.test_viewer import _nearest_seat

ROOT = Path(__file__).resolve().parents[3]
ORDER = "23456789TJQKA"


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _match(tmp_path: Path, players: int) -> tuple[Path, dict[str, Any]]:
    """A recorded match of preset `extra_cards`: its viewer page (`arena replay view`) and
    its v1 layout (what the viewer draws)."""
    written = tmp_path / f"extra-{players}.json"
    bots = [
        arg
        for seat in range(players)
        for arg in ("--bot", ("house:random", "house:heuristic")[seat % 2])
    ]
    _run(
        "-m", "arena.cli", "match", "run", "--rules", "extra_cards", "--quiet", *bots,
        "--seed", "5", "--out", str(written),
    )  # fmt: skip
    page = tmp_path / f"extra-{players}.html"
    _run("-m", "arena.cli", "replay", "view", str(written), "--out", str(page), "--no-open")
    shown = _run(
        "-c",
        "import json, sys; from pathlib import Path; from arena.match.replay_view import load;"
        " json.dump(load(Path(sys.argv[1])), sys.stdout)",
        str(written),
    )
    return page, json.loads(shown)


def _winning_card(trick: dict[str, Any]) -> str:
    """The highest card of the suit led: what wins a trick in these rules (no trumps)."""
    led = trick["plays"][0]["card"][1]
    return max(
        (p["card"] for p in trick["plays"] if p["card"][1] == led), key=lambda c: ORDER.index(c[0])
    )


def _counts(tab: Any) -> list[int]:
    seats = tab.locator(".seat").all()
    return [tab.locator(f'.seat[data-seat="{s}"] .hand .card').count() for s in range(len(seats))]


@pytest.mark.parametrize("players", [3, 5])
def test_the_extra_card_seat_shows_both_cards_and_the_winner_leads_the_next_trick(
    browser, tmp_path, players
):
    page, v1 = _match(tmp_path, players)
    assert v1["rules"]["extra_cards_first_trick"] is True
    hands = v1["games"][0]["hands"]
    extra = 1 if players == 3 else 2
    # A hand whose first trick the extra-card seat wins with one of its two cards: the
    # hardest case to draw (seed 5 has one at each size).
    h, hand = next(
        (h, hand)
        for h, hand in enumerate(hands)
        if [p["seat"] for p in hand["tricks"][0]["plays"]].count(hand["tricks"][0]["winner"]) == 2
    )
    first = hand["tricks"][0]
    plays = first["plays"]
    assert len(plays) == players + extra
    deal = [len(cards) for cards in hand["deal"]]
    extra_seats = [seat for seat, n in enumerate(deal) if n > min(deal)]
    assert len(extra_seats) == extra

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    url = page.resolve().as_uri()
    tab.goto(f"{url}#g=1&h={h + 1}&t=0&c=0")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    assert _counts(tab) == deal
    for seat in range(players):
        meta = tab.locator(f'.seat[data-seat="{seat}"] .meta').inner_text()
        assert ("holds an extra card" in meta) == (seat in extra_seats)

    # Card by card through the first trick, by the keyboard.
    tab.goto(f"{url}#g=1&h={h + 1}&t=1&c=1")
    tab.wait_for_selector(f'#viewer[data-step="1-{h + 1}-1-1"]')
    tab.locator("#viewer").focus()
    for c in range(1, len(plays) + 1):
        if c > 1:
            tab.keyboard.press("ArrowRight")
        tab.wait_for_selector(f'#viewer[data-step="1-{h + 1}-1-{c}"]')
        assert tab.locator(".trick .play").count() == c
        after = plays[c]["seat"] if c < len(plays) else first["winner"]
        assert tab.locator(".seat.to-play").get_attribute("data-seat") == str(after)
        held = [deal[s] - sum(1 for p in plays[:c] if p["seat"] == s) for s in range(players)]
        assert _counts(tab) == held, f"card {c}"
        if c == players:
            assert "extra card" in tab.locator(".trick .extra-cards").inner_text()
            screenshot(tab, f"replay-extra-cards-{players}-after-the-round")

    screenshot(tab, f"replay-extra-cards-{players}-first-trick")
    # The trick is over: its caption says the extra cards were played.
    assert "played" in tab.locator(".trick .extra-cards").inner_text()
    # The whole first trick: each extra-card seat's two cards side by side in its place,
    # the second labelled; one winning card, the highest of the suit led.
    for seat in extra_seats:
        pair_box = tab.locator(f'.trick .play-pair[data-pair-seat="{seat}"]')
        pair = pair_box.locator(".play")
        assert pair.count() == 2
        assert "extra" not in (pair.nth(0).get_attribute("class") or "")
        assert "extra" in (pair.nth(1).get_attribute("class") or "")
        assert "extra card" in pair.nth(1).inner_text()
        one, two = pair.nth(0).bounding_box(), pair.nth(1).bounding_box()
        assert one["x"] + one["width"] <= two["x"] or two["x"] + two["width"] <= one["x"]
        # In the seat's place: where a single card of that seat lies (the compass cell of
        # its position; with 3 seats, nearest its player, as test_viewer checks with 4).
        where = tab.locator(f'.seat[data-seat="{seat}"]').get_attribute("data-position")
        assert f"pos-{where}" in (pair_box.get_attribute("class") or "")
        if players == 3:
            for play in pair.all():
                assert _nearest_seat(tab, play) == str(seat)
    won = tab.locator(".trick .play.winner")
    assert won.count() == 1
    assert won.locator(".card").get_attribute("data-card") == _winning_card(first)
    assert won.get_attribute("data-play-seat") == str(first["winner"])
    assert f"won by seat {first['winner']}" in tab.locator(".trick").inner_text()
    for seat in extra_seats:
        meta = tab.locator(f'.seat[data-seat="{seat}"] .meta').inner_text()
        assert "holds an extra card" not in meta
    assert len(set(_counts(tab))) == 1  # every seat holds as many cards now

    # The next trick: the winner leads it, and it holds one card a seat.
    tab.keyboard.press("ArrowRight")
    tab.wait_for_selector(f'#viewer[data-step="1-{h + 1}-2-1"]')
    assert hand["tricks"][1]["leader"] == first["winner"]
    lead = tab.locator(".trick .play")
    assert lead.count() == 1
    assert lead.get_attribute("data-play-seat") == str(first["winner"])
    assert tab.locator(".trick .extra-cards").count() == 0
    tab.keyboard.press("Shift+ArrowRight")
    tab.wait_for_selector(f'#viewer[data-step="1-{h + 1}-2-{players}"]')
    assert tab.locator(".trick .play-pair").count() == 0
    context.close()
    assert not problems, problems


def test_after_the_round_of_a_live_first_trick_the_extra_card_seat_is_to_play(browser, tmp_path):
    """A first trick played round once, its extra cards not played yet (as a live match
    shows it: the next card is not known): the seat to play is the first extra-card seat
    in play order from the leader, not the seat after the last one."""
    from arena.match.viewer import render_page

    _page, v1 = _match(tmp_path, 5)
    game = v1["games"][0]

    def first_extra(hand: dict[str, Any]) -> int:
        deal = [len(cards) for cards in hand["deal"]]
        leader = hand["tricks"][0]["leader"]
        return next(s for s in ((leader + i) % 5 for i in range(5)) if deal[s] > min(deal))

    # A hand whose leader holds no extra card: the seat after the last one (the leader
    # again) would be the wrong guess.
    hand = next(hand for hand in game["hands"] if first_extra(hand) != hand["tricks"][0]["leader"])
    first = hand["tricks"][0]
    expected = first_extra(hand)
    assert first["plays"][5]["seat"] == expected
    hand["tricks"] = [{**first, "plays": first["plays"][:5], "winner": -1, "partial": True}]
    for key in ("points", "totals"):
        hand.pop(key, None)
    game["hands"] = [hand]
    for key in ("totals", "ranking"):
        game.pop(key, None)
    out = tmp_path / "partial.html"
    out.write_text(render_page(v1), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(out.resolve().as_uri() + "#g=1&h=1&t=1&c=5")
    tab.wait_for_selector('#viewer[data-ready="true"]')
    assert tab.locator(".trick .play").count() == 5
    assert tab.locator(".seat.to-play").get_attribute("data-seat") == str(expected)
    context.close()
    assert not problems, problems
