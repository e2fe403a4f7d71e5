"""The runner writes replay v2 (docs/decisions/0006-decisions-as-data.md): every preset's
document matches its schema and verifies by its actions; its v1 view (replay_view.to_v1)
verifies as v1 and converts back to the same document. Replay v1 files written before
the change (tests/match/fixtures) still load, verify, render and open in the viewer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import PRESETS, preset
from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.faults import FaultPolicy
from arena.match.render import render
from arena.match.replay_v2 import REPLAY_V2, ReplayV2, from_v1, schema, verify_v2
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import verify
from arena.match.viewer import render_page

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("v1-*.json.gz"))
PLAYERS = {"star": 5, "joker": 3, "cancellation": 8}


class Wrong(InProcessSeat):
    """Answers "ZZ" every fourth decision (any kind): faults, then disqualification."""

    asked = 0

    async def decide(self, decision: Any, view: Any, context: Any, timeout: float) -> Any:
        self.asked += 1
        if self.asked % 4 == 0:
            return "ZZ"
        return await super().decide(decision, view, context, timeout)


def _outcome(name: str) -> Any:
    rules = preset(name, PLAYERS.get(name)).replace(max_hands=3)
    seats = [InProcessSeat(HOUSE_BOTS["random"](i)) for i in range(rules.players)]
    seats[1] = Wrong(HOUSE_BOTS["heuristic"](1))
    entrants = [Entrant(f"e{i}", seat) for i, seat in enumerate(seats)]
    return MatchRunner(rules, entrants, 13, fault_policy=FaultPolicy(max_faults=3)).run()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_runner_writes_v2_whose_v1_view_loses_nothing(name: str) -> None:
    outcome = _outcome(name)
    written = json.loads(json.dumps(outcome.replay))  # as stored
    assert written["version"] == REPLAY_V2
    jsonschema.validate(written, schema())
    document = ReplayV2.from_dict(written)
    assert document == outcome.document
    checked = verify_v2(document)
    assert checked.decisions > 0
    faulted = [a for g in document.games for h in g.hands for a in h.actions if a.fault]
    assert len(faulted) == len(outcome.replay["faults"]) == 3  # the seat faulted out
    assert any(a.auto for g in document.games for h in g.hands for a in h.actions)
    view = replay_view.readable(written)
    assert view == outcome.v1
    jsonschema.validate(view, replay_io.schema())
    assert verify(view).hands == checked.hands
    assert from_v1(view) == document  # nothing of the document is lost in v1's layout


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_a_v1_replay_written_before_v2_still_loads_verifies_renders_and_views(path: Path) -> None:
    stored = replay_io.load(path)
    assert stored["version"] == 1
    assert replay_view.load(path) == stored  # a v1 file is read as it is
    verify(stored)
    document = from_v1(stored)
    verify_v2(document)
    # Its v2 document re-plays into exactly the v1 file the old runner wrote.
    assert replay_view.to_v1(document) == stored
    assert any("Trick" in line or "trick" in line for line in render(stored, pretty=False))
    assert stored["match_id"] in render_page(stored)


def test_a_v2_replay_renders_and_views_as_its_v1_layout() -> None:
    outcome = _outcome("standard")
    assert list(render(outcome.replay)) == list(render(outcome.v1))
    assert render_page(outcome.replay) == render_page(outcome.v1)


def test_a_v2_document_that_does_not_replay_is_a_replay_error() -> None:
    written = json.loads(json.dumps(_outcome("standard").replay))
    written["games"][0]["hands"][0]["actions"][3]["value"] = "ZZ"
    with pytest.raises(replay_io.ReplayError, match="does not re-play"):
        replay_view.readable(written)


def test_a_kind_without_a_place_in_v1_is_kept_in_order_and_shown() -> None:
    """A new decision kind needs no branch in v1's writer, the text or the viewer: it is
    filed under the hand's `decisions` with its kind and value, and shown as such. (No
    kind of today's lacks a place: a kind named here, with no room in the engine, as a
    replay from a newer platform may hold, stands in for a new one.)"""
    from arena.engine import Game
    from arena.engine.decisions import Decision, kind_named
    from arena.match.replay import decision_records
    from arena.match.replay_v2 import ActionRecord

    game = Game(preset("standard"), 5)
    writer = replay_view.HandWriter(game.hand, 0, game.hand_seeds[-1])
    new = Decision(kind_named("wager"), 2, (), None)
    action = ActionRecord("wager", 2, ["QS", 3], 12.5, "illegal", "why not")
    writer.after(new, replay_view.v1_entry(action))
    record = writer.record
    assert record["decisions"] == [
        {"kind": "wager", "seat": 2, "value": ["QS", 3], "ms": 12.5, "fault": "illegal",
         "note": "why not"}
    ]  # fmt: skip
    assert [d.kind for d in decision_records(record)] == ["wager"]
    outcome = _outcome("standard")
    shown = outcome.v1
    shown["games"][0]["hands"][0]["decisions"] = record["decisions"]
    text = "\n".join(render(shown, pretty=False))
    assert "seat 2 wager: QS 3 [illegal]" in text and "why not" in text
