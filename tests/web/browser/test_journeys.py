"""What a person does on the site, in real Chromium: sign up, upload a bot and watch it
validate, open the ladder, step through a replay with the keyboard, look through one
seat's eyes, follow a deep link. Screenshots: artifacts/screenshots/."""

from __future__ import annotations

import re
import time

import pytest
from sqlalchemy import select

from arena.engine import PRESETS, preset
from arena.store import write_transaction
from arena.store.bots import set_version_status
from arena.store.models import Bot, BotVersion, VersionStatus
from tests.web.browser.conftest import screenshot
from tests.web.factories import BOT_SOURCE, PASSWORD, row
from web.database import sessions


def _recorded(site, app, rules, seed):
    """A match of `rules` between alice's and bob's bots and two more, played by house
    bots and recorded: (the live server, the match's id)."""
    from web.bench import add_match, play_and_record

    server, world = site
    with sessions(app)() as db:
        match_id = add_match(
            db,
            season_id=None,
            version_ids=[world.alice_version_id, world.bob_version_id, 4, 5],
            rules=rules,
            seed=seed,
        )
        db.commit()
        play_and_record(db, match_id)
    return server, match_id


def _open_replay(page, url):
    """Open a match page at `url`, wait for the viewer, and return its replay JSON."""
    page.goto(url)
    page.wait_for_selector('#viewer[data-ready="true"]')
    return page.evaluate(
        "fetch(document.querySelector('#viewer').dataset.replayUrl).then(r => r.json())"
    )


def test_sign_up_upload_and_watch_it_validate(site, page, app):
    """Sign up, upload a bot file, and watch its page follow the validation live.

    The workers are not part of this test, so the test plays the worker's side of the
    contract between them and the site, which is the database: it moves the version
    pending → validating → ready with a log through `arena.store.bots.set_version_status`,
    the function a validating worker calls, while the page polls. Nothing of the site is
    faked: the page learns of each change through its own JSON endpoint.
    """
    server, _world = site
    page.goto(f"{server.url}/signup")
    page.fill("#username", "carol")
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("#submit")
    page.wait_for_selector("text=Welcome, carol.")
    assert page.locator(".who").inner_text().startswith("carol")

    page.click("nav >> text=Upload")
    page.fill("#name", "owl")
    page.set_input_files(
        "#file", files=[{"name": "owl.py", "mimeType": "text/x-python", "buffer": BOT_SOURCE}]
    )
    page.click("#submit")
    page.wait_for_selector("text=Uploaded owl version 1.")
    status = page.locator("#version-status [data-status]")
    assert status.get_attribute("data-status") == "pending"
    screenshot(page, "01-upload-pending")

    with sessions(app)() as db:
        version_id = db.scalar(
            select(BotVersion.id).join(Bot).where(Bot.name == "owl", BotVersion.number == 1)
        )
        db.rollback()
        with write_transaction(db):
            set_version_status(db, row(db, BotVersion, version_id), VersionStatus.VALIDATING)
        page.wait_for_selector('#version-status [data-status="validating"]')
        assert "current" in page.locator('.progress li[data-step="validating"]').get_attribute(
            "class"
        )
        screenshot(page, "02-upload-validating")
        with write_transaction(db):
            set_version_status(
                db,
                row(db, BotVersion, version_id),
                VersionStatus.READY,
                reason="passed: 20 hands against house bots, no faults",
                detail="owl: thinking…\nowl: done\n",
            )
    page.wait_for_selector('#version-status [data-status="ready"]')
    page.wait_for_selector("#version-log >> text=owl: done")
    assert "passed: 20 hands" in page.locator("#version-reason").inner_text()
    screenshot(page, "03-upload-ready")


def test_ladder(site, page):
    """The ladder: the season's bots with Elo ± uncertainty, sortable, a season selector."""
    server, _world = site
    page.goto(f"{server.url}/ladder")
    page.wait_for_selector("#ladder")
    assert re.search(r"/seasons/\d+/ladder$", page.url)
    names = page.locator("#ladder tbody tr td:nth-child(2) a").all_inner_texts()
    assert "shark" in names
    assert "minnow" in names
    assert page.locator("#season-choice").is_visible()
    screenshot(page, "04-ladder")
    page.click("#ladder thead >> text=Games")
    page.wait_for_url(re.compile(r"sort=games"))
    assert page.locator('#ladder th[aria-sort="descending"]').inner_text().startswith("Games")


def step(page) -> str:
    return page.locator("#viewer").get_attribute("data-step")


def test_replay_with_the_keyboard_and_one_seats_view(site, page):
    """Step through a match by card, trick and hand with the keyboard; then one seat's view
    hides every other hand."""
    server, world = site
    page.goto(f"{server.url}/matches/{world.match_id}")
    page.wait_for_selector('#viewer[data-ready="true"]')
    assert step(page) == "1-1-0-0"  # game 1, hand 1, the deal
    page.locator("#viewer").focus()
    page.keyboard.press("ArrowRight")  # the pass
    assert step(page) == "1-1-0-1"
    page.keyboard.press("ArrowRight")  # the first card of the first trick
    assert step(page) == "1-1-1-1"
    assert page.locator(".trick .play").count() == 1
    page.keyboard.press("Shift+ArrowRight")  # to the end of that trick
    assert step(page) == "1-1-1-4"
    assert page.locator(".trick .play").count() == 4
    assert page.locator(".trick .play.winner").count() == 1
    page.keyboard.press("Shift+ArrowRight")  # the whole second trick
    assert step(page) == "1-1-2-4"
    page.keyboard.press("ArrowLeft")
    assert step(page) == "1-1-2-3"
    page.keyboard.press("PageDown")  # the next hand
    assert step(page) == "1-2-0-0"
    assert "h=2" in page.url
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    screenshot(page, "05-replay-all-hands")

    # Every hand face up: 52 minus the cards played are visible in the seats.
    assert page.locator(".seat .hand .card.back").count() == 0

    page.keyboard.press("0")  # seat 0's view
    assert page.locator("#viewer").get_attribute("data-view") == "0"
    mine = page.locator('.seat[data-seat="0"] .hand .card')
    assert mine.count() > 0
    assert page.locator('.seat[data-seat="0"] .hand .card.back').count() == 0
    for seat in (1, 2, 3):
        hand = page.locator(f'.seat[data-seat="{seat}"] .hand')
        assert hand.locator(".card").count() > 0
        assert hand.locator(".card:not(.back)").count() == 0, f"seat {seat}'s cards are visible"
        assert hand.locator("[data-card]").count() == 0
    # Other seats' passes are not shown either (only the cards on the table).
    assert page.locator('.seat[data-face-up="false"] .meta .card').count() == 0
    screenshot(page, "06-replay-seat-0-view")

    page.keyboard.press("a")
    assert page.locator(".seat .hand .card.back").count() == 0

    before = step(page)
    page.keyboard.press("+")
    page.keyboard.press("+")
    page.keyboard.press("Space")  # play
    assert page.locator('[data-action="play"]').get_attribute("aria-pressed") == "true"
    page.wait_for_selector(f'#viewer:not([data-step="{before}"])')
    page.keyboard.press("Space")  # pause
    assert page.locator('[data-action="play"]').get_attribute("aria-pressed") == "false"
    paused = step(page)
    time.sleep(0.6)
    assert step(page) == paused


def test_deep_link_to_a_trick(site, page):
    """A link to hand 2, trick 3, card 2 opens the viewer there, in the seat view asked for."""
    server, world = site
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=2&t=3&c=2&view=1")
    page.wait_for_selector('#viewer[data-ready="true"]')
    assert step(page) == "1-2-3-2"
    assert page.locator("#viewer").get_attribute("data-view") == "1"
    assert page.locator(".trick .play").count() == 2
    assert "Hand 2 of 8 · " in page.locator(".position").inner_text()  # a stored match: no "so far"
    assert "trick 3 of 13 · card 2" in page.locator(".position").inner_text()
    screenshot(page, "07-replay-deep-link")
    # The score sheet's links move the viewer within the page.
    page.click("#score-sheet a >> text=3")
    page.wait_for_selector('#viewer[data-step="1-3-0-0"]')


def test_match_page_on_a_phone(site, browser):
    """The match page at phone width: the table stacks and nothing overflows sideways."""
    server, world = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server.url}/matches/{world.match_id}#g=1&h=1&t=1&c=3")
    page.wait_for_selector('#viewer[data-ready="true"]')
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page is {width}px wide on a 390px screen"
    screenshot(page, "08-replay-phone")
    context.close()


def test_a_chip_game_replay_shows_chips_and_the_pot(site, page, app):
    """000's chip scoring: the viewer shows each hand's points, the chips they cost and
    the pot carried over, never adding points to the chip totals."""
    server, match_id = _recorded(site, app, preset("sweepstakes").replace(max_hands=4), 2)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}#g=1&h=2&t=0&c=0")
    headers = page.locator("table.scores th").all_inner_texts()
    assert headers == ["Seat", "Hand", "Chips", "Paid in all"]
    first = replay["games"][0]["hands"][0]
    pot = first["pot"]
    assert page.locator("table.scores caption.pot").inner_text() == (
        f"pot: {pot} chip{'' if pot == 1 else 's'}"
    )
    # At the start of hand 2 each total is what the seat paid in hand 1, in chips.
    totals = page.locator("table.scores tbody tr td:last-child").all_inner_texts()
    assert totals == [str(t) for t in first["totals"]]
    screenshot(page, "09-replay-sweepstakes")


def test_a_heartless_replay_shows_the_face_down_cards_and_the_suit(site, page, app):
    """003's Heartless: after the pass the viewer shows each seat's face-down card and
    the suit they chose, and counts that suit's points, not hearts'."""
    server, match_id = _recorded(
        site, app, preset("heartless").replace(target_score=None, max_hands=2), 3
    )
    replay = _open_replay(page, f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=1")
    hand = replay["games"][0]["hands"][0]
    reveals = page.locator(".reveals")
    assert reveals.get_attribute("data-scoring-suit") == hand["scoring_suit"]
    suit = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}[hand["scoring_suit"]]
    assert f"{suit} score" in reveals.inner_text()
    assert reveals.locator(".card").count() == 4
    screenshot(page, "10-replay-heartless")
    # At the end of the hand each seat's points are the hand's own (its suit and queen).
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t=13&c=4")
    page.wait_for_selector('#viewer[data-step="1-1-13-4"]')
    shown = page.locator("table.scores tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [str(p) for p in hand["points"]]


def test_an_auction_replay_shows_the_bids_and_the_named_suit(site, page, app):
    """000's Auction Hearts: after the deal the viewer shows each bid in turn, who names
    which suit to avoid for how many chips, and counts that suit's cards a point each."""
    server, match_id = _recorded(site, app, preset("auction").replace(max_hands=2), 3)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=1")
    hand = replay["games"][0]["hands"][0]
    auction = hand["auction"]
    box = page.locator(".auction")
    assert box.get_attribute("data-declarer") == str(auction["declarer"])
    text = box.inner_text()
    suit = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}[hand["scoring_suit"]]
    assert f"seat {auction['declarer']} names {suit} to avoid" in text
    for bid in auction["bids"]:
        assert f"seat {bid['seat']}: {'pass' if bid['bid'] is None else bid['bid']}" in text
    assert page.locator(".caption").inner_text() == "The auction"
    screenshot(page, "11-replay-auction")
    # At the end of the hand each seat's points are its cards of the named suit.
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t=13&c=4")
    page.wait_for_selector('#viewer[data-step="1-1-13-4"]')
    shown = page.locator("table.scores tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [str(p) for p in hand["penalty_points"]]


def test_a_danger_replay_shows_each_seats_lives(site, page, app):
    """004's Danger Hearts: the running scores show each seat's lives, as they were before
    the hand and, at its last card, after it."""
    server, match_id = _recorded(site, app, preset("danger").replace(max_hands=3), 4)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}#g=1&h=2&t=0&c=0")
    first, second = replay["games"][0]["hands"][:2]
    headers = page.locator("table.scores th").all_inner_texts()
    assert headers == ["Seat", "Hand", "Lives", "Total"]
    shown = page.locator("table.scores td.lives").all_inner_texts()
    assert shown == [str(left) for left in first["lives"]]  # before hand 2: after hand 1
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=2&t=13&c=4")
    page.wait_for_selector('#viewer[data-step="1-2-13-4"]')
    shown = page.locator("table.scores td.lives").all_inner_texts()
    assert shown == [str(left) for left in second["lives"]]


def test_a_split_call_is_shown_card_by_card(site, page, app):
    """003 'Simple variations': a dealer who splits the pass ("one card to the right and two
    cards to the left") is shown with each card's direction, in the pass's order."""
    rules = preset("dealer_calls").replace(target_score=None, max_hands=4)
    for seed in range(1, 20):  # the random house bot splits a third of its calls
        server, match_id = _recorded(site, app, rules, seed)
        replay = _open_replay(page, f"{server.url}/matches/{match_id}")
        hands = replay["games"][0]["hands"]
        split = [i for i, hand in enumerate(hands) if "split" in hand["call"]]
        if split:
            break
    assert split, "no split call in 19 matches"
    number = split[0] + 1
    page.goto(f"{server.url}/matches/{match_id}#g=1&h={number}&t=0&c=0")
    page.wait_for_selector(f'#viewer[data-step="1-{number}-0-0"]')
    ways = ", ".join(hands[split[0]]["call"]["split"])
    caption = page.locator(".caption").inner_text()
    assert caption == f"Deal · pass split: {ways} (the dealer's call)"
    screenshot(page, "12-replay-split-call")


def test_a_four_penny_replay_draws_the_pennies_of_a_multi_round_side_by_side(site, page, app):
    """003 'FOUR-PENNY HEARTS': at a multi-round's last card the four pennies stand side by
    side, each with its four cards in play order and its winner marked; mid-way, each shows
    the cards played to it so far."""
    server, match_id = _recorded(site, app, preset("four_penny").replace(max_hands=1), 6)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}")
    hand = replay["games"][0]["hands"][0]
    multi = hand["multi_rounds"][0]
    t = len(hand["tricks"]) + 1
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={t}&c=16")
    page.wait_for_selector(f'#viewer[data-step="1-1-{t}-16"]')
    assert "Multi-round 1 of 3" in page.locator(".trick .caption").inner_text()
    pennies = page.locator(".pennies .penny")
    assert pennies.count() == 4
    for p in range(4):
        column = pennies.nth(p)
        assert column.locator(".card").count() == 4
        seats = column.locator(".play").evaluate_all("els => els.map(e => e.dataset.playSeat)")
        assert seats == [str(play["seat"]) for play in multi["plays"] if play["penny"] == p]
        labels = column.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert labels == [play["card"] for play in multi["plays"] if play["penny"] == p]
        assert f"won by seat {multi['winners'][p]}" in column.inner_text()
        winner = column.locator(".play.winner")
        assert winner.count() == 1
        assert winner.get_attribute("data-play-seat") == str(multi["winners"][p])
    screenshot(page, "four-penny-multi-round")
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={t}&c=6")
    page.wait_for_selector(f'#viewer[data-step="1-1-{t}-6"]')
    counts = [page.locator(f'.penny[data-penny="{p}"] .card').count() for p in range(4)]
    assert counts == [sum(1 for play in multi["plays"][:6] if play["penny"] == p) for p in range(4)]
    assert "multi-round 1 · card 6" in page.locator("#viewer").inner_text()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_replay_is_drawn_to_the_end_of_its_first_hand(site, page, app, name):
    """Issue 9: the viewer draws a replay of every preset. One hand, played by house
    bots; at its last card the scores table shows the hand's recorded totals."""
    from arena.store.bots import HOUSE_USERNAME
    from arena.store.models import User
    from web.bench import add_match, play_and_record

    server, world = site
    rules = preset(name).replace(max_hands=1)
    with sessions(app)() as db:
        house = db.scalars(
            select(BotVersion.id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .join(User, User.id == Bot.owner_id)
            .where(User.username == HOUSE_USERNAME)
            .order_by(BotVersion.id)
        ).all()
        versions = [world.alice_version_id, world.bob_version_id, *house][: rules.players]
        match_id = add_match(db, season_id=None, version_ids=versions, rules=rules, seed=5)
        db.commit()
        play_and_record(db, match_id)
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector('#viewer[data-ready="true"]')
    replay = page.evaluate(
        "fetch(document.querySelector('#viewer').dataset.replayUrl).then(r => r.json())"
    )
    hand = replay["games"][0]["hands"][0]
    # The last trick's own plays: fewer than the players in Domino Hearts.
    tricks = hand["tricks"]  # none in Five-Penny Hearts: no opening trick
    trick, card = len(tricks), len(tricks[-1]["plays"]) if tricks else rules.players
    if hand.get("multi_rounds"):  # Four-Penny Hearts: the last multi-round's last play
        trick, card = trick + len(hand["multi_rounds"]), rules.players**2
    last = f"1-1-{trick}-{card}"
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={trick}&c={card}")
    page.wait_for_selector(f'#viewer[data-step="{last}"]')
    totals = page.locator("table.scores tbody tr td:last-child").all_inner_texts()
    assert totals == [str(t) for t in hand["totals"]]
    if rules.jokers:
        # 004 'Joker Hearts': the deal's jokers are drawn as jokers (🃏 and their number).
        page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=0")
        page.wait_for_selector('#viewer[data-step="1-1-0-0"]')
        jokers = page.locator(".card.joker")
        assert jokers.count() == rules.jokers
        assert jokers.first.inner_text().replace("\n", "") == "🃏1"
        assert jokers.first.get_attribute("aria-label") == "joker 1"


def test_a_cancellation_replay_shows_twins_and_a_trick_nobody_won(site, page, app):
    """000/003 Cancellation Hearts: two packs, so a seat may hold a card twice (the viewer
    draws both copies), and a trick whose cards of the suit led all met their twins is won
    by nobody: the viewer says so, and marks no winner."""
    rules = preset("cancellation_four").replace(max_hands=3)
    server, match_id = _recorded(site, app, rules, 3)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}#g=1&h=1&t=0&c=0")
    hands = replay["games"][0]["hands"]
    unwon = [
        (h, t)
        for h, hand in enumerate(hands)
        for t, trick in enumerate(hand["tricks"])
        if trick["winner"] == -1
    ]
    assert unwon, "no trick nobody won in these hands: pick another seed"
    h, t = unwon[0]
    deal = hands[h]["deal"]
    seat, twin = next((s, c) for s, cards in enumerate(deal) for c in cards if cards.count(c) == 2)
    page.goto(f"{server.url}/matches/{match_id}#g=1&h={h + 1}&t=0&c=0")
    page.wait_for_selector(f'#viewer[data-step="1-{h + 1}-0-0"]')
    held = page.locator(f'section[data-seat="{seat}"] .hand .card[data-card="{twin}"]')
    assert held.count() == 2
    trick = hands[h]["tricks"][t]
    page.goto(f"{server.url}/matches/{match_id}#g=1&h={h + 1}&t={t + 1}&c={rules.players}")
    page.wait_for_selector(f'#viewer[data-step="1-{h + 1}-{t + 1}-{rules.players}"]')
    assert "nobody wins" in page.locator(".trick .unwon").inner_text()
    assert page.locator(".trick .play.winner").count() == 0
    shown = page.locator(".trick .play .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert shown == [play["card"] for play in trick["plays"]]
    screenshot(page, "cancellation-unwon-trick")


def test_domino_replay_shows_draws_the_stock_and_the_survivors_cards(site, page, app):
    """000 'Domino Hearts': a seat's drawn cards join its hand before it plays, the stock
    counts down, a short trick is drawn whole, and the last survivor's cards are shown."""
    server, match_id = _recorded(site, app, preset("domino").replace(max_hands=1), 3)
    replay = _open_replay(page, f"{server.url}/matches/{match_id}")
    hand = replay["games"][0]["hands"][0]
    t, c, play = next(
        (t, c, play)
        for t, trick in enumerate(hand["tricks"], 1)
        for c, play in enumerate(trick["plays"])
        if play.get("drew")
    )
    # Before the play that follows the draws: the drawing seat already holds them all.
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={t}&c={c}")
    page.wait_for_selector(f'#viewer[data-step="1-1-{t}-{c}"]')
    held = page.locator(f'section[data-seat="{play["seat"]}"] .hand .card').count()
    drawn_before = sum(
        len(p.get("drew", [])) for trick in hand["tricks"][: t - 1] for p in trick["plays"]
    ) + sum(len(p.get("drew", [])) for p in hand["tricks"][t - 1]["plays"][: c + 1])
    stock = page.locator(".trick .stock").inner_text()
    assert stock == f"stock: {52 - 24 - drawn_before} cards"
    assert held >= len(play["drew"])
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={t}&c={c + 1}")
    page.wait_for_selector(f'#viewer[data-step="1-1-{t}-{c + 1}"]')
    note = page.locator(f'.plays [data-play-seat="{play["seat"]}"]').inner_text()
    assert f"drew {len(play['drew'])}" in note
    short = next(i for i, trick in enumerate(hand["tricks"], 1) if len(trick["plays"]) < 4)
    size = len(hand["tricks"][short - 1]["plays"])
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={short}&c={size}")
    page.wait_for_selector(f'#viewer[data-step="1-1-{short}-{size}"]')
    assert page.locator(".plays .play").count() == size
    last = len(hand["tricks"])
    size = len(hand["tricks"][-1]["plays"])
    page.goto(f"{server.url}/matches/{match_id}#g=1&h=1&t={last}&c={size}")
    page.wait_for_selector(f'#viewer[data-step="1-1-{last}-{size}"]')
    meta = page.locator(f'section[data-seat="{hand["kept"]["seat"]}"] .meta').inner_text()
    assert f"keeps {len(hand['kept']['cards'])}" in meta
