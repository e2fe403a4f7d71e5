"""The runner's event callback (watching a match live): its events tell the whole match
in order, and a callback that fails changes nothing of the match."""

from __future__ import annotations

import copy
from typing import Any

from arena.bots import HeuristicBot
from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat


def entrants() -> list[Entrant]:
    return [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(4)]


def test_the_events_retell_the_replay_hand_by_hand_and_card_by_card() -> None:
    events: list[dict[str, Any]] = []
    outcome = MatchRunner(
        preset("standard"),
        entrants(),
        5,
        duplicate=True,
        on_event=lambda e: events.append(copy.deepcopy(e)),
    ).run()
    replay = outcome.v1
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "match"
    assert events[0]["header"]["entrants"] == replay["entrants"]
    games = [e for e in events if e["kind"] == "game"]
    assert [(e["game"], e["seating"]) for e in games] == [
        (g["index"], g["seating"]) for g in replay["games"]
    ]
    for g, game in enumerate(replay["games"]):
        ends = [e["hand"] for e in events if e["kind"] == "hand_end" and e["game"] == g]
        assert ends == game["hands"]
        starts = [e["hand"] for e in events if e["kind"] == "hand" and e["game"] == g]
        assert [h["deal"] for h in starts] == [h["deal"] for h in game["hands"]]
        assert all(h["tricks"] == [] for h in starts)  # told as dealt, before any play
        plays = [e["play"] for e in events if e["kind"] == "play" and e["game"] == g]
        assert plays == [p for h in game["hands"] for t in h["tricks"] for p in t["plays"]]
        tricks = [e["record"] for e in events if e["kind"] == "trick" and e["game"] == g]
        assert tricks == [t for h in game["hands"] for t in h["tricks"]]
    # Each hand in order: dealt, passed, its cards, its end.
    first_hand = kinds[kinds.index("hand") : kinds.index("hand_end") + 1]
    assert first_hand[:2] == ["hand", "passes"]
    assert first_hand.count("play") == 52
    assert first_hand.count("trick") == 13
    assert first_hand[-1] == "hand_end"


def test_a_failing_callback_changes_nothing_of_the_match() -> None:
    def broken(event: dict[str, Any]) -> None:
        raise RuntimeError("the database is gone")

    quiet = MatchRunner(preset("standard"), entrants(), 9).run()
    told = MatchRunner(preset("standard"), entrants(), 9, on_event=broken).run()
    assert not told.void
    assert replay_io.strip_timings(told.v1)["games"] == (replay_io.strip_timings(quiet.v1)["games"])
