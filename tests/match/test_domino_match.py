"""Domino Hearts through the runner: short tricks, the draws and the survivor's cards are
recorded, the replay is valid and verifies, and verify names a tampered draw."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from arena.bots import HeuristicBot, RandomBot
from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.render import render
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import ReplayMismatchError, verify


def _match(players: int, seed: int = 4, **kwargs: Any) -> dict[str, Any]:
    entrants = [
        Entrant(f"b{i}", InProcessSeat(HeuristicBot(i) if i % 2 else RandomBot(i)))
        for i in range(players)
    ]
    outcome = MatchRunner(preset("domino", players), entrants, seed, **kwargs).run()
    assert not outcome.void, outcome.void_reason
    jsonschema.validate(outcome.v1, replay_io.schema())
    return outcome.v1


def _plays(replay: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        play
        for game in replay["games"]
        for hand in game["hands"]
        for trick in hand["tricks"]
        for play in trick["plays"]
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_a_domino_match_is_recorded_and_verifies(players: int) -> None:
    replay = _match(players)
    checked = verify(replay)
    assert checked.hands == len(replay["games"][0]["hands"])
    hands = replay["games"][0]["hands"]
    assert all(len(hand["deal"][seat]) == 6 for hand in hands for seat in range(players))
    assert all(hand["pass_direction"] == "hold" and hand["passes"] == [] for hand in hands)
    assert any("drew" in play for play in _plays(replay))
    sizes = [len(trick["plays"]) for hand in hands for trick in hand["tricks"]]
    assert min(sizes) >= 2
    if players > 2:  # players drop out: tricks shrink
        assert min(sizes) < players


def test_every_card_of_a_hand_is_dealt_drawn_or_kept_once() -> None:
    replay = _match(3)
    for hand in replay["games"][0]["hands"]:
        dealt = [card for cards in hand["deal"] for card in cards]
        drawn = [
            card for trick in hand["tricks"] for p in trick["plays"] for card in p.get("drew", [])
        ]
        played = [p["card"] for trick in hand["tricks"] for p in trick["plays"]]
        kept = hand.get("kept", {}).get("cards", [])
        # Each card is played once or kept; what was dealt or drawn is among them, and
        # the rest never left the stock (kept by the survivor or the last trick's winner).
        assert len(played + kept) == len(set(played + kept)) == 52
        assert len(dealt + drawn) == len(set(dealt + drawn))
        assert set(dealt + drawn) <= set(played + kept)
        assert sum(hand["points"]) in (13, 26)  # 13, or a moon: 13 to each other seat


def test_a_duplicate_domino_match_verifies() -> None:
    replay = _match(3, seed=9, duplicate=True)
    assert verify(replay).games == 3


def _first_draw(replay: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    for h, hand in enumerate(replay["games"][0]["hands"]):
        for t, trick in enumerate(hand["tricks"]):
            for p, play in enumerate(trick["plays"]):
                if play.get("drew"):
                    return f"games[0].hands[{h}].tricks[{t}].plays[{p}].drew", play
    raise AssertionError("no draw in the match")


def test_verify_names_a_tampered_draw() -> None:
    replay = _match(3)
    tampered = copy.deepcopy(replay)
    where, play = _first_draw(tampered)
    play["drew"] = [*reversed(play["drew"]), "AS"]
    with pytest.raises(ReplayMismatchError) as caught:
        verify(tampered)
    assert caught.value.where == where


def test_verify_names_a_missing_draw() -> None:
    replay = _match(3)
    tampered = copy.deepcopy(replay)
    where, play = _first_draw(tampered)
    del play["drew"]
    with pytest.raises(ReplayMismatchError) as caught:
        verify(tampered)
    assert caught.value.where == where


def test_verify_names_a_tampered_survivors_hand() -> None:
    replay = _match(3)
    tampered = copy.deepcopy(replay)
    number, hand = next(
        (n, hand) for n, hand in enumerate(tampered["games"][0]["hands"]) if "kept" in hand
    )
    hand["kept"]["seat"] = (hand["kept"]["seat"] + 1) % 3
    with pytest.raises(ReplayMismatchError) as caught:
        verify(tampered)
    assert caught.value.where == f"games[0].hands[{number}].kept"


def test_verify_names_a_play_by_a_seat_that_dropped_out() -> None:
    replay = _match(4)
    tampered = copy.deepcopy(replay)
    h, t = next(
        (h, t)
        for h, hand in enumerate(tampered["games"][0]["hands"])
        for t, trick in enumerate(hand["tricks"])
        if len(trick["plays"]) < 4
    )
    trick = tampered["games"][0]["hands"][h]["tricks"][t]
    out = next(s for s in range(4) if s not in {p["seat"] for p in trick["plays"]})
    trick["plays"][-1]["seat"] = out
    with pytest.raises(ReplayMismatchError) as caught:
        verify(tampered)
    assert (
        caught.value.where
        == f"games[0].hands[{h}].tricks[{t}].plays[{len(trick['plays']) - 1}].seat"
    )


def test_replay_show_says_the_draws_and_the_survivors_cards() -> None:
    replay = _match(3)
    lines = list(render(replay, pretty=False))
    assert any("(drew " in line for line in lines)
    assert any(" keeps " in line for line in lines)
    # A trick of two plays when a seat is out: "trick N: s:c  s:c  → seat w".
    tricks = [line for line in lines if line.strip().startswith("trick")]
    assert any(line.count(":") == 3 for line in tricks)


def test_a_faulty_bot_gets_a_legal_default_after_drawing() -> None:
    class Wrong(InProcessSeat):
        async def choose_play(self, view, context, timeout):
            return "ZZ"

    entrants = [
        Entrant("bad", Wrong(RandomBot())),
        *(Entrant(f"b{i}", InProcessSeat(HeuristicBot(i))) for i in range(1, 3)),
    ]
    outcome = MatchRunner(preset("domino", 3), entrants, 2).run()
    assert not outcome.void
    verify(outcome.v1)
    faults = outcome.v1["faults"]
    assert faults and faults[0]["kind"] == "malformed"
    assert outcome.results[0].disqualified
    # Its defaults (then its automatic plays once disqualified) are recorded and verified,
    # draws included.
    seat0 = [p for p in _plays(outcome.v1) if p["seat"] == 0 and p["card"]]
    assert all(p.get("fault") or p.get("auto") for p in seat0)
