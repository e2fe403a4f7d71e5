"""`hearts-bot replay` / `arena replay ask` as a contestant runs them: a match played with
`arena match run`, then its recorded decisions put to a bot process again."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import text_format
from hearts_bot import transport

from arena.bots import HeuristicBot
from arena.engine import preset
from arena.match import protocol, replay_view
from arena.match import replay as replay_io
from arena.match.faults import FaultKind, SeatFault
from arena.match.reask import reask, recorded_decisions
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from web.replays import redact

from .test_cli import LOW_BOT, ROOT, arena
from .test_runner import ScriptedSeat

BOTS = ROOT / "tests" / "match" / "bots"
HIGH_BOT = BOTS / "high_bot.py"
NOTING_BOT = BOTS / "noting_bot.py"

pytestmark = pytest.mark.timeout(240)


def hearts_bot(*args):
    """`hearts-bot ARGS` with this checkout's `arena` command (as a contestant has it)."""
    env = {**os.environ, "HEARTS_ARENA": str(Path(sys.executable).parent / "arena")}
    return subprocess.run(
        [sys.executable, "-m", "hearts_bot", *map(str, args)],
        check=False,
        capture_output=True,
        text=True,
        timeout=200,
        cwd=ROOT,
        env=env,
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A match of the SDK's example bot (seat 0) and the noting bot (seat 2) against house
    bots, its replay compressed and plain."""
    folder = tmp_path_factory.mktemp("reask")
    out = folder / "match.json.gz"
    arena(
        "match", "run", "--bot", LOW_BOT, "--bot", "house:random", "--bot", NOTING_BOT,
        "--bot", "house:heuristic", "--seed", 5, "--hands", 5, "--no-sandbox", "--quiet",
        "--out", out,
    )  # fmt: skip
    plain = folder / "match.json"
    replay_io.save(replay_io.load(out, replay_view.VERSIONS), plain)  # as written: v2
    return out, plain


def test_a_deterministic_bot_reproduces_every_recorded_answer(played):
    compressed, plain = played
    for path in (compressed, plain):
        done = hearts_bot("replay", path, "--seat", 0, "--all", LOW_BOT)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "same: all 69 answer(s) are the recorded ones." in done.stdout
        assert "arena replay ask" in done.stderr  # delegated to the platform's command


def test_a_bot_that_answers_differently_gets_the_differences_listed(played):
    compressed, _ = played
    done = hearts_bot("replay", compressed, "--seat", 0, "--all", HIGH_BOT)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DIFFERENT:" in done.stdout and "of 69 answer(s) differ: #1," in done.stdout
    assert "random numbers" in done.stdout  # why a difference can be legitimate
    rows = [line.split() for line in done.stdout.splitlines() if line[:4].strip().isdigit()]
    assert rows and all(row[0].isdigit() for row in rows)
    assert rows[0][:3] == ["1", "1", "pass"]  # the first pass: highest against lowest cards


def test_one_decision_is_shown_with_what_was_asked_and_both_notes(played):
    compressed, _ = played
    done = hearts_bot("replay", compressed, "--seat", 2, "--decision", 20, "--request", NOTING_BOT)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    query = out.split("the query sent:")[1].split("recorded:")[0]
    assert "state {" in query and "legal_cards:" in query and "seat: 2" in query
    assert "decision 20: hand 2," in out and "asked with: hand " in out and "; legal " in out
    # The note counts the tricks the bot was told of: the notifications came as in the match.
    recorded = out.split("recorded note: ")[1].split("your bot:")[0]
    again = out.split("its note: ")[1]
    assert "after " in recorded and recorded.split() == again.split()[: len(recorded.split())]
    assert "(same)" in out


def test_a_replay_downloaded_from_the_site_reasks_the_owners_seat(played, tmp_path):
    compressed, _ = played
    downloaded = tmp_path / "match-1.json"
    document = redact(replay_view.load(compressed), readable={0})  # the site's download for seat 0
    downloaded.write_text(json.dumps(document))
    assert "note" not in json.dumps(document["games"])  # seat 2's notes are hidden from seat 0
    done = hearts_bot("replay", downloaded, "--seat", 2, "--all", NOTING_BOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_decision_out_of_range_or_an_edited_replay_is_a_clear_error(played, tmp_path):
    compressed, _ = played
    done = arena("replay", "ask", compressed, LOW_BOT, "--seat", 0, "--decision", 999,
                 "--no-sandbox", check=False)  # fmt: skip
    assert done.returncode == 2 and "choose from 1 to 69" in done.stdout + done.stderr
    done = arena("replay", "ask", compressed, LOW_BOT, "--seat", 7, "--all", "--no-sandbox",
                 check=False)  # fmt: skip
    assert done.returncode == 2 and "no seat 7" in done.stdout + done.stderr
    edited = replay_view.load(compressed)  # v1's layout, as the site serves it
    edited["games"][0]["hands"][0]["tricks"][0]["winner"] = (
        3 - edited["games"][0]["hands"][0]["tricks"][0]["winner"]
    )
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    done = arena("replay", "ask", path, LOW_BOT, "--seat", 0, "--all", "--no-sandbox",
                 check=False)  # fmt: skip
    assert done.returncode == 2 and "does not verify" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    edited_v2 = replay_io.load(compressed, replay_view.VERSIONS)  # the file as written
    edited_v2["games"][0]["hands"][0]["actions"][5]["value"] = "ZZ"
    path.write_text(json.dumps(edited_v2))
    done = arena("replay", "ask", path, LOW_BOT, "--seat", 0, "--all", "--no-sandbox",
                 check=False)  # fmt: skip
    assert done.returncode == 2 and "does not re-play" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    incomplete = replay_io.load(compressed, replay_view.VERSIONS)
    del incomplete["time_policy"]
    path.write_text(json.dumps(incomplete))
    done = arena("replay", "ask", path, LOW_BOT, "--seat", 0, "--all", "--no-sandbox",
                 check=False)  # fmt: skip
    assert done.returncode == 2 and "incomplete or malformed" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


# -- the re-run itself, in process: faults, disqualification, duplicate sets ----------


def test_a_rerun_reproduces_faults_disqualification_and_every_game_of_a_duplicate_set():
    def timeout(view):
        raise SeatFault(FaultKind.TIMEOUT, "scripted")

    # Entrant 1 faults three times (a timeout, then junk) and is disqualified in game 1.
    bad = ScriptedSeat({4: timeout, 9: lambda view: "junk", 20: lambda view: "ZZ"})
    entrants = [
        Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) if i != 1 else Entrant("bad", bad)
        for i in range(4)
    ]
    rules = preset("standard").replace(target_score=None, max_hands=2)
    outcome = MatchRunner(rules, entrants, seed=6, duplicate=True).run()
    replay = outcome.v1
    assert outcome.results[1].disqualified and len(replay["games"]) == 4
    for game, record in enumerate(replay["games"]):
        seat = record["seating"].index(2)
        numbers = [d.number for d in recorded_decisions(replay, game, seat)]
        answers = transport.run(reask(replay, game, seat, numbers, InProcessSeat(HeuristicBot(2))))
        assert [a.decision.number for a in answers] == numbers
        assert all(a.same for a in answers), [a for a in answers if not a.same]
    # The faulty seat: its recorded faults never count as the same answer.
    seat = replay["games"][0]["seating"].index(1)
    decisions = recorded_decisions(replay, 0, seat)
    assert [d.fault for d in decisions if d.fault] == ["timeout", "malformed", "malformed"]
    answers = transport.run(
        reask(replay, 0, seat, [d.number for d in decisions], InProcessSeat(HeuristicBot(9)))
    )
    faulted = [a for a in answers if a.decision.fault]
    assert len(faulted) == 3 and not any(a.same for a in faulted)


class RecordsItsQueries(InProcessSeat):
    """A house bot that keeps the text of every query it is asked (as the protocol would
    send it) and takes 1.25 s of a manual clock on every fifth, drawing on its bank."""

    def __init__(self, clock=None):
        super().__init__(HeuristicBot(2))
        self.clock = clock
        self.queries = []

    def _took(self, query):
        self.queries.append(text_format.MessageToString(query, as_utf8=True))
        if self.clock is not None:
            self.clock["t"] += 1.25 if len(self.queries) % 5 == 0 else 0.002

    async def choose_pass(self, view, count, context, timeout):
        self._took(protocol.pass_query(view, count, context))
        return await super().choose_pass(view, count, context, timeout)

    async def choose_play(self, view, context, timeout):
        self._took(protocol.play_query(view, context))
        return await super().choose_play(view, context, timeout)


def test_the_rebuilt_queries_are_the_ones_the_match_sent_clock_and_bank_included():
    clock = {"t": 0.0}
    original = RecordsItsQueries(clock)
    entrants = [Entrant(f"h{i}", InProcessSeat(HeuristicBot(i))) for i in range(4)]
    entrants[2] = Entrant("recorder", original)
    rules = preset("standard").replace(target_score=None, max_hands=3)
    replay = MatchRunner(rules, entrants, seed=8, now=lambda: clock["t"]).run().v1
    banks = {tuple(re.findall(r"bank_remaining \{[^}]*\}", text)) for text in original.queries}
    assert len(banks) > 1  # the slow decisions drew on the bank: the clock is in the queries
    again = RecordsItsQueries()
    numbers = [d.number for d in recorded_decisions(replay, 0, 2)]
    answers = transport.run(reask(replay, 0, 2, numbers, again))
    assert len(original.queries) == len(numbers) == 3 * 13 + 3  # three passing hands
    assert again.queries == original.queries
    assert [answer.request for answer in answers] == original.queries
    assert all(answer.same for answer in answers)
