"""The match runner with in-process seats: fault policy, clocks, duplicate sets, determinism.

Real bot processes over gRPC are exercised in tests/match/test_grpc_match.py; these tests
pin the runner's own logic with seats that misbehave on purpose.
"""

import asyncio
import itertools

import jsonschema
import pytest

from arena.bots import HeuristicBot, RandomBot
from arena.engine import CARDS, preset
from arena.match import replay as replay_io
from arena.match import replay_v2
from arena.match.clock import TimePolicy
from arena.match.faults import FaultKind, FaultPolicy, SeatFault
from arena.match.replay_v2 import verify_v2
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.standings import rank_entrants
from arena.match.verify import ReplayMismatchError, verify


class ScriptedSeat(InProcessSeat):
    """A heuristic bot that misbehaves on chosen decisions (by decision number)."""

    def __init__(self, misbehave, label="scripted"):
        super().__init__(HeuristicBot(), label)
        self.misbehave = misbehave  # decision number -> callable(view) returning an answer
        self.decisions = itertools.count()
        self.closed = False

    async def choose_play(self, view, context, timeout):
        n = next(self.decisions)
        if n in self.misbehave:
            return self.misbehave[n](view)
        return await super().choose_play(view, context, timeout)

    async def close(self):
        self.closed = True


def house(seed=0):
    return Entrant("heuristic", InProcessSeat(HeuristicBot(seed)))


def run(entrants, seed=3, **kwargs):
    outcome = MatchRunner(preset("standard"), entrants, seed, **kwargs).run()
    assert not outcome.void, outcome.void_reason
    jsonschema.validate(outcome.v1, replay_io.schema())
    verify(outcome.v1)
    assert outcome.replay["version"] == 2  # the runner writes v2; `v1` is its view
    jsonschema.validate(outcome.replay, replay_v2.schema())
    verify_v2(outcome.document)
    return outcome


def test_a_match_of_house_bots_is_recorded_and_verifies():
    outcome = run([house(i) for i in range(4)])
    assert sorted(r.rank for r in outcome.results)[0] == 1
    assert outcome.v1["games"][0]["totals"] == [r.score for r in outcome.results]


def raise_fault(kind):
    def answer(view):
        raise SeatFault(kind, f"scripted {kind.value}")

    return answer


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (lambda view: "ZZ", FaultKind.MALFORMED),
        (lambda view: 42, FaultKind.MALFORMED),
        (lambda view: next(c for c in CARDS if c not in view.hand), FaultKind.NOT_HELD),
        (raise_fault(FaultKind.CRASH), FaultKind.CRASH),
        (raise_fault(FaultKind.TIMEOUT), FaultKind.TIMEOUT),
    ],
)
def test_each_bad_answer_is_a_fault_and_the_game_goes_on(answer, kind):
    bad = ScriptedSeat({5: answer})
    outcome = run([Entrant("bad", bad), house(1), house(2), house(3)])
    faults = outcome.v1["faults"]
    assert [f["kind"] for f in faults] == [kind.value]
    assert faults[0]["entrant"] == 0 and faults[0]["substitute"]
    assert not outcome.results[0].disqualified
    assert outcome.results[0].faults == 1


def test_an_illegal_card_is_a_fault_with_the_rule_named():
    def illegal(view):
        others = [c for c in view.hand if c not in view.legal]
        return others[0] if others else view.legal.first()

    # Decision 1 of seat 0's bot is on trick 0 or 1, where following suit usually binds;
    # try several seeds until an illegal card exists, then check the record.
    for seed in range(20):
        outcome = run(
            [Entrant("bad", ScriptedSeat({1: illegal})), house(1), house(2), house(3)], seed=seed
        )
        if outcome.v1["faults"]:
            fault = outcome.v1["faults"][0]
            assert fault["kind"] == "illegal"
            assert "illegal play" in fault["detail"]
            return
    pytest.fail("no seed gave the scripted bot an illegal card to try")


def test_three_faults_disqualify_and_rank_last():
    bad = ScriptedSeat({n: (lambda view: "junk") for n in range(3)})
    outcome = run([Entrant("bad", bad), house(1), house(2), house(3)])
    result = outcome.results[0]
    assert result.disqualified and result.faults == 3
    assert result.rank == 4
    assert bad.closed
    # After disqualification its cards are played automatically and it is asked nothing.
    autos = [
        p
        for h in outcome.v1["games"][0]["hands"]
        for t in h["tricks"]
        for p in t["plays"]
        if p.get("auto")
    ]
    assert autos and all(p["seat"] == 0 for p in autos)


def test_a_slow_answer_beyond_the_allowance_is_a_timeout():
    clock_values = {"t": 0.0}  # a manual clock: time passes only when the seat says so

    def now():
        return clock_values["t"]

    class SlowSeat(InProcessSeat):
        calls = 0

        async def choose_play(self, view, context, timeout):
            SlowSeat.calls += 1
            if SlowSeat.calls == 2:
                clock_values["t"] += timeout + 0.5
            return await super().choose_play(view, context, timeout)

    outcome = run(
        [Entrant("slow", SlowSeat(HeuristicBot())), house(1), house(2), house(3)],
        time_policy=TimePolicy(per_decision=0.1, bank=0.2),
        now=now,
    )
    timeouts = [f for f in outcome.v1["faults"] if f["kind"] == "timeout"]
    assert len(timeouts) == 1
    assert "allowed 300.0 ms" in timeouts[0]["detail"]


def test_the_bank_pays_for_overtime_then_runs_out():
    from arena.match.clock import Clock

    clock = Clock(TimePolicy(per_decision=0.1, bank=1.0))
    assert clock.allowance == pytest.approx(1.1)
    clock.charge(0.05)
    assert clock.bank == pytest.approx(1.0)
    clock.charge(0.6)
    assert clock.bank == pytest.approx(0.5)
    clock.exhaust()
    assert clock.allowance == pytest.approx(0.1)


def test_a_bot_that_cannot_start_is_disqualified_at_once():
    class DeadSeat(InProcessSeat):
        async def start_game(self, info):
            raise SeatFault(FaultKind.NOT_READY, "never answered Ready within 10 s")

    outcome = run([Entrant("dead", DeadSeat(RandomBot())), house(1), house(2), house(3)])
    assert outcome.results[0].disqualified and outcome.results[0].rank == 4
    assert outcome.v1["faults"][0]["kind"] == "not_ready"


def test_a_platform_error_voids_the_match():
    class BrokenSeat(InProcessSeat):
        async def choose_play(self, view, context, timeout):
            raise RuntimeError("our bug")  # not a SeatFault: the platform's fault

    outcome = MatchRunner(
        preset("standard"), [Entrant("x", BrokenSeat(RandomBot())), house(1), house(2), house(3)], 1
    ).run()
    assert outcome.void
    assert "our bug" in (outcome.void_detail or "")  # the traceback, for the log
    # What is published (the replay, the match page) names an incident, not the exception:
    # its message may quote a bot's answer, and the traceback names the workers' files.
    reason = outcome.void_reason or ""
    assert reason.startswith("a platform error, not a bot's (incident ")
    assert "our bug" not in reason and "Traceback" not in reason
    assert outcome.replay["result"]["void_reason"] == reason
    assert "our bug" not in str(outcome.replay)
    assert outcome.v1["result"]["void"]


def test_duplicate_set_gives_every_bot_every_seat_once():
    entrants = [Entrant(f"b{i}", InProcessSeat(HeuristicBot(i))) for i in range(4)]
    outcome = run(entrants, duplicate=True)
    games = outcome.v1["games"]
    assert len(games) == 4
    for entrant in range(4):
        seats = sorted(g["seating"].index(entrant) for g in games)
        assert seats == [0, 1, 2, 3]
    # The same deals in every rotation: hand 0 of each game is identical.
    deals = {tuple(map(tuple, g["hands"][0]["deal"])) for g in games}
    assert len(deals) == 1
    # With deterministic bots, the entrant holding seat s's cards plays them the same way
    # as any other deterministic copy would: identical bots give identical games.
    assert len({tuple(g["totals"]) for g in games}) == 1


def test_same_seed_same_decisions_same_replay():
    def once():
        entrants = [Entrant(f"r{i}", InProcessSeat(RandomBot(i))) for i in range(4)]
        return replay_io.strip_timings(run(entrants, seed=11).v1)

    assert once() == once()


def test_tampered_replay_names_the_first_mismatch():
    outcome = run([house(i) for i in range(4)])
    tampered = replay_io.loads(replay_io.dumps(outcome.v1))
    tampered["games"][0]["hands"][1]["points"][0] += 1
    with pytest.raises(ReplayMismatchError, match=r"games\[0\]\.hands\[1\]\.points"):
        verify(tampered)
    swapped = replay_io.loads(replay_io.dumps(outcome.v1))
    plays = swapped["games"][0]["hands"][0]["tricks"][2]["plays"]
    plays[0]["card"], plays[1]["card"] = plays[1]["card"], plays[0]["card"]
    with pytest.raises(ReplayMismatchError, match=r"tricks\[2\]\.plays\[0\]"):
        verify(swapped)


def test_rank_entrants_puts_disqualified_last_and_shares_ties():
    assert rank_entrants([5, 5, 9, 1], [False, False, False, False]) == [2, 2, 4, 1]
    assert rank_entrants([5, 50, 9, 1], [True, False, False, True]) == [3, 2, 1, 3]


def test_fault_policy_must_allow_one_fault():
    with pytest.raises(ValueError, match="max_faults"):
        FaultPolicy(max_faults=0)


class EndingSeat(InProcessSeat):
    """A house bot whose end of game and closing take a turn of the event loop, counting
    how many seats are ending (or closing) at the same moment."""

    ending = 0
    most_ending = 0
    closing = 0
    most_closing = 0

    def __init__(self, seed, *, end_fails=False, close_fails=False):
        super().__init__(HeuristicBot(seed), f"ending {seed}")
        self.end_fails, self.close_fails = end_fails, close_fails
        self.ended = self.closed = False

    async def end_game(self, totals, aborted):
        cls = type(self)
        cls.ending += 1
        cls.most_ending = max(cls.most_ending, cls.ending)
        await asyncio.sleep(0)  # every other seat's end starts before this one finishes
        cls.ending -= 1
        self.ended = True
        if self.end_fails:
            raise RuntimeError("a platform bug in a seat's end of game")

    async def close(self):
        cls = type(self)
        cls.closing += 1
        cls.most_closing = max(cls.most_closing, cls.closing)
        await asyncio.sleep(0)
        cls.closing -= 1
        self.closed = True
        if self.close_fails:
            raise RuntimeError("the bot host would not stop")


@pytest.fixture
def ending_seats(monkeypatch):
    for name in ("ending", "most_ending", "closing", "most_closing"):
        monkeypatch.setattr(EndingSeat, name, 0)
    return EndingSeat


def test_every_seat_ends_its_game_and_closes_at_once(ending_seats):
    seats = [ending_seats(i) for i in range(4)]
    run([Entrant(f"e{i}", seat) for i, seat in enumerate(seats)])
    assert all(seat.ended and seat.closed for seat in seats)
    assert ending_seats.most_ending == 4
    assert ending_seats.most_closing == 4


def test_a_seat_that_fails_to_close_is_logged_and_the_others_still_close(ending_seats, caplog):
    seats = [ending_seats(i, close_fails=i == 1) for i in range(4)]
    outcome = run([Entrant(f"e{i}", seat) for i, seat in enumerate(seats)])
    assert all(seat.closed for seat in seats)
    assert not outcome.void  # closing is after the match: a bot host that lingers voids nothing
    assert "closing seat ending 1 failed" in caplog.text


def test_a_platform_error_ending_a_game_voids_it_after_every_seat_ended_and_closed(ending_seats):
    seats = [ending_seats(i, end_fails=i == 0) for i in range(4)]
    entrants = [Entrant(f"e{i}", seat) for i, seat in enumerate(seats)]
    outcome = MatchRunner(preset("standard"), entrants, 3).run()
    assert outcome.void and "a platform bug" in (outcome.void_detail or "")
    assert all(seat.ended and seat.closed for seat in seats)
