"""Bot notes in a real match: bot processes over gRPC, the runner bounding what they send,
the replay keeping each note beside its decision, verify ignoring them, show printing them."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.notes import NOTE_MAX_CHARS, NOTES_MAX_BYTES_PER_MATCH, NoteBook
from arena.match.replay import decision_records
from arena.match.verify import verify

from .test_cli import ROOT, arena

BOTS = ROOT / "tests" / "match" / "bots"
NOTING = BOTS / "noting_bot.py"
CHATTY = BOTS / "chatty_bot.py"

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def noted(tmp_path_factory):
    """A match: the noting bot in seat 0, the chatty bot in seat 2, house bots between."""
    out = tmp_path_factory.mktemp("notes") / "match.json"
    arena(
        "match", "run", "--bot", NOTING, "--bot", "house:random", "--bot", CHATTY,
        "--bot", "house:heuristic", "--seed", 3, "--hands", 8, "--no-sandbox", "--quiet",
        "--out", out,
    )  # fmt: skip
    return out, replay_view.load(out)  # the runner wrote v2; the notes read in v1's layout


def notes_of(replay, seat):
    return [
        (decision.kind, decision.record["note"])
        for hand in replay["games"][0]["hands"]
        for decision in decision_records(hand)
        if decision.record["seat"] == seat and "note" in decision.record
    ]


def test_each_decision_keeps_its_note_beside_it(noted):
    _, replay = noted
    jsonschema.validate(replay, replay_io.schema())
    notes = notes_of(replay, 0)
    plays = [note for kind, note in notes if kind == "play"]
    passes = [note for kind, note in notes if kind == "pass"]
    assert len(plays) == 8 * 13 and plays[0] == "lowest of 1 legal\nafter 0 tricks seen"
    assert all("from a hook" not in note for _, note in notes)  # never kept
    # The pass notes were 3,000 characters: cut, marked.
    assert passes and all(len(n) == NOTE_MAX_CHARS and n.endswith("…") for n in passes)
    assert replay["notes"][0] == {"kept": len(notes), "dropped": 0}
    assert notes_of(replay, 1) == [] and replay["notes"][1] == {"kept": 0, "dropped": 0}


def test_notes_past_the_match_budget_are_dropped_and_counted(noted):
    _, replay = noted
    kept = notes_of(replay, 2)
    decisions = 8 * 13 + 6  # every play, and the passes of the six passing hands
    size = sum(len(note.encode()) for _, note in kept)
    assert size <= NOTES_MAX_BYTES_PER_MATCH
    assert replay["notes"][2] == {"kept": len(kept), "dropped": decisions - len(kept)}
    assert replay["notes"][2]["dropped"] > 0


def test_verify_ignores_the_notes(noted, tmp_path):
    replay = copy.deepcopy(noted[1])
    assert verify(replay)
    for hand in replay["games"][0]["hands"]:
        for decision in decision_records(hand):
            decision.record["note"] = "rewritten"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(replay))
    assert "OK" in arena("replay", "verify", edited).stdout


def test_show_prints_the_notes_unless_asked_not_to(noted):
    out, _ = noted
    shown = arena("replay", "show", out, "--ascii").stdout
    assert "note, seat 0: lowest of 1 legal" in shown
    assert "notes: chatty_bot" in shown and "dropped" in shown
    assert "note, seat" not in arena("replay", "show", out, "--ascii", "--no-notes").stdout


def test_the_runner_bounds_whatever_a_bot_sends():
    book = NoteBook(2, budget=2500)
    assert book.keep(0, "\x00\x07\x1b" + "z" * 5000) == "z" * (NOTE_MAX_CHARS - 1) + "…"
    assert book.keep(0, " \x00 ") is None  # nothing left once cleaned: not a note at all
    assert book.keep(0, "é" * 600) is not None  # 1,200 bytes: 1,002 + 1,200 fit in 2,500
    assert book.keep(0, "a" * 400) is None  # 298 bytes left: dropped whole
    assert book.keep(0, "b" * 297) == "b" * 297
    assert book.keep(1, "other entrant, other budget") is not None
    assert book.to_replay() == [{"kept": 3, "dropped": 1}, {"kept": 1, "dropped": 0}]
