"""The decisions of issue 23 in real matches: the no-hearts pledge (004 'Scoring variants'),
the shooter's choice (004 'Shooting the moon') and the dealer's count (004 'Passing
cards'). Bot processes (the SDK's example bot, and a bot that answers away from the
defaults) answer each new query over gRPC; a seat that faults gets the decision's default;
the replays verify by their actions and in v1's layout; `arena replay ask` re-asks them;
and a replay written before the shooter was asked still verifies."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import PassDirection, Rules, SeatView, preset
from arena.engine.decisions import CountedCall
from arena.match.clock import TimePolicy
from arena.match.faults import FaultPolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.replay_v2 import ReplayV2, from_v1, verify_v2
from arena.match.replay_view import to_v1
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat
from arena.match.verify import ReplayMismatchError, verify

from .test_cli import LOW_BOT, ROOT, arena

DECIDING_BOT = ROOT / "tests" / "match" / "bots" / "deciding_bot.py"

pytestmark = pytest.mark.timeout(240)

# Only the QS scores, so whoever takes it has taken every penalty card: every hand is a
# moon, and under the shooter's choice every hand ends with the shooter's decision.
QUEEN_ONLY = preset("standard").replace(
    name="queen_only", card_values={"QS": 13}, moon="shooters_choice", max_hands=4,
    target_score=None,
)  # fmt: skip


def _grpc_match(rules: Rules, specs: Sequence[Path | str], seed: int = 3) -> MatchOutcome:
    """A match with each seat a bot process over gRPC (`hearts-bot serve SPEC`)."""
    hosts = [BotProcess(spec) for spec in specs]
    try:
        entrants = [
            Entrant(f"{Path(str(spec)).stem} {i}", GrpcSeat(host.address, str(spec), host=host))
            for i, (spec, host) in enumerate(zip(specs, hosts, strict=True))
        ]
        return MatchRunner(rules, entrants, seed, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        for host in hosts:
            host.stop()


def _actions(outcome: MatchOutcome, kind: str) -> list[Any]:
    return [
        action
        for game in outcome.document.games
        for hand in game.hands
        for action in hand.actions
        if action.kind == kind
    ]


def _verified(outcome: MatchOutcome) -> None:
    assert not outcome.void, outcome.void_reason
    assert verify_v2(outcome.document).decisions > 0
    assert verify(outcome.v1).decisions == verify_v2(outcome.document).decisions


def test_bot_processes_answer_the_pledge_and_the_pledges_score() -> None:
    rules = preset("pledge").replace(max_hands=3, target_score=None)
    outcome = _grpc_match(rules, [DECIDING_BOT, LOW_BOT, DECIDING_BOT, LOW_BOT])
    _verified(outcome)
    pledges = _actions(outcome, "pledge")
    assert len(pledges) == 3 * 4 and not outcome.v1["faults"]
    # the deciding bot pledges, the SDK's example bot keeps the default: no pledge
    assert {a.seat: a.value for a in pledges} == {0: True, 1: False, 2: True, 3: False}
    for hand in outcome.v1["games"][0]["hands"]:
        assert [d["kind"] for d in hand["decisions"]] == ["pledge"] * 4
        assert [d["seat"] for d in hand["decisions"]] == [
            (hand["dealer"] + k) % 4 for k in (1, 2, 3, 4)
        ]


def test_bot_processes_answer_the_shooters_choice_and_it_scores() -> None:
    outcome = _grpc_match(QUEEN_ONLY, [DECIDING_BOT, LOW_BOT, DECIDING_BOT, LOW_BOT])
    _verified(outcome)
    chosen = _actions(outcome, "moon_choice")
    assert len(chosen) == 4, "every hand is a moon under these rules"
    for game in outcome.document.games:
        for hand in game.hands:
            (choice,) = [a for a in hand.actions if a.kind == "moon_choice"]
            if choice.seat in (0, 2):  # the deciding bot subtracts
                assert choice.value == "subtract"
                assert hand.points[choice.seat] == -13
            else:  # the example bot answers the engine's pick, never a fault
                assert choice.fault is None and choice.value in ("add", "subtract")


def test_bot_processes_call_the_count_and_everyone_passes_it() -> None:
    rules = preset("dealer_counts").replace(max_hands=4, target_score=None)
    outcome = _grpc_match(rules, [DECIDING_BOT, LOW_BOT, DECIDING_BOT, LOW_BOT])
    _verified(outcome)
    for hand in outcome.v1["games"][0]["hands"]:
        call = hand["call"]
        if hand["dealer"] in (0, 2):
            assert (call["direction"], call["count"]) == ("right", 2)
            assert all(len(given["cards"]) == 2 for given in hand["passes"])
        else:  # the SDK's default: the first option, pass_count cards
            assert call["direction"] == "left" and "count" not in call
            assert all(len(given["cards"]) == 3 for given in hand["passes"])


class Faulting(InProcessSeat):
    """Answers every new decision with something that is not an answer."""

    async def choose_pledge(self, view: SeatView, context: DecisionContext, timeout: float) -> bool:
        return "maybe"  # type: ignore[return-value]  # the fault under test

    async def choose_moon(
        self, view: SeatView, default: str, context: DecisionContext, timeout: float
    ) -> str:
        return "double"

    async def choose_call(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> PassDirection | str | tuple[PassDirection | str, ...] | CountedCall:
        return CountedCall(PassDirection.RIGHT, 9)


def _faulting_match(rules: Rules) -> MatchOutcome:
    seats: list[InProcessSeat] = [Faulting(HOUSE_BOTS["heuristic"](0))]
    seats += [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in (1, 2, 3)]
    entrants = [Entrant(f"e{i}", s) for i, s in enumerate(seats)]
    return MatchRunner(rules, entrants, 5, fault_policy=FaultPolicy(max_faults=100)).run()


@pytest.mark.parametrize(
    ("rules", "kind", "default"),
    [
        (preset("pledge").replace(max_hands=2, target_score=None), "pledge", False),
        (QUEEN_ONLY, "moon_choice", None),
        (preset("dealer_counts").replace(max_hands=4, target_score=None), "call", "left"),
    ],
)
def test_a_faulting_seat_gets_the_default(rules: Rules, kind: str, default: object) -> None:
    outcome = _faulting_match(rules)
    _verified(outcome)  # verify checks a faulted action is the decision's default
    own = [
        a
        for game in outcome.document.games
        for hand in game.hands
        for a in hand.actions
        if a.kind == kind and game.seating[a.seat] == 0
    ]
    assert own, f"seat 0 was never asked a {kind}"
    for action in own:
        assert action.fault is not None
        if default is not None:
            assert action.value == default
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert len(faults) == len(own)


def _without_moon_choices(document: ReplayV2) -> ReplayV2:
    """The document as the runner wrote it before the shooter was asked: no moon_choice."""
    games = tuple(
        dataclasses.replace(
            game,
            hands=tuple(
                dataclasses.replace(
                    hand, actions=tuple(a for a in hand.actions if a.kind != "moon_choice")
                )
                for hand in game.hands
            ),
        )
        for game in document.games
    )
    return dataclasses.replace(document, games=games)


def test_a_replay_written_before_the_shooter_was_asked_still_verifies() -> None:
    # The heuristic bots answer the engine's pick: without the actions the replay is what
    # the runner wrote before the kind existed, and it verifies, in v2 and in v1.
    seats = [InProcessSeat(HOUSE_BOTS["heuristic"](i)) for i in range(4)]
    outcome = MatchRunner(QUEEN_ONLY, [Entrant(f"e{i}", s) for i, s in enumerate(seats)], 9).run()
    assert len(_actions(outcome, "moon_choice")) == 4
    old = _without_moon_choices(outcome.document)
    assert verify_v2(old).hands == 4
    v1 = to_v1(old)
    assert all("decisions" not in hand for hand in v1["games"][0]["hands"])
    assert verify(v1).hands == 4
    assert verify_v2(from_v1(v1)).hands == 4


def test_a_shooters_choice_against_the_pick_does_not_verify_without_its_action() -> None:
    # The deciding bot always subtracts: where the engine would have added, leaving its
    # answer out changes the scores, and verify names them (so the test above can fail).
    outcome = _grpc_match(QUEEN_ONLY, [DECIDING_BOT] * 4)
    _verified(outcome)
    assert {a.value for a in _actions(outcome, "moon_choice")} == {"subtract"}
    with pytest.raises(ReplayMismatchError, match="points"):
        verify_v2(_without_moon_choices(outcome.document))


def test_the_cli_runs_and_verifies_the_pledge_and_replay_ask_re_asks_it(tmp_path: Path) -> None:
    out = tmp_path / "pledge.json"
    arena(
        "match", "run", "--rules", "pledge", "--bot", DECIDING_BOT, "--bot", "house:random",
        "--bot", LOW_BOT, "--bot", "house:heuristic", "--seed", 4, "--hands", 2,
        "--no-sandbox", "--quiet", "--out", out,
    )  # fmt: skip
    assert "every score confirmed" in arena("replay", "verify", out).stdout
    done = arena("replay", "ask", out, DECIDING_BOT, "--seat", 0, "--all", "--no-sandbox")
    assert "same: all" in done.stdout, done.stdout
    low = arena("replay", "ask", out, LOW_BOT, "--seat", 0, "--all", "--no-sandbox", check=False)
    assert low.returncode == 1 and "pledge" in low.stdout and "no pledge" in low.stdout


def test_the_cli_runs_dealer_counts_and_replay_ask_re_asks_the_call(tmp_path: Path) -> None:
    out = tmp_path / "counts.json"
    arena(
        "match", "run", "--rules", "dealer_counts", "--bot", DECIDING_BOT, "--bot", LOW_BOT,
        "--bot", "house:random", "--bot", "house:heuristic", "--seed", 4, "--hands", 4,
        "--no-sandbox", "--quiet", "--out", out,
    )  # fmt: skip
    assert "every score confirmed" in arena("replay", "verify", out).stdout
    done = arena("replay", "ask", out, DECIDING_BOT, "--seat", 0, "--all", "--no-sandbox")
    assert "same: all" in done.stdout, done.stdout
    shown = arena("replay", "show", out).stdout
    assert "the dealer calls right, 2 cards" in shown


OLDER_SDK_BOT = ROOT / "tests" / "match" / "bots" / "older_sdk_bot.py"


@pytest.mark.parametrize(
    "rules", [preset("pledge").replace(max_hands=2, target_score=None), QUEEN_ONLY]
)
def test_a_bot_from_an_older_sdk_is_answered_for_never_asked(rules: Rules) -> None:
    """MatchStartAnswer.answers: a bot that does not list the pledge or the shooter's
    choice (one built before them) is never sent those queries, which it could not read;
    the arena applies the default, recorded as its own answer (auto), not a fault, and the
    replay verifies. The bots that list them are asked as before."""
    outcome = _grpc_match(rules, [OLDER_SDK_BOT, DECIDING_BOT, OLDER_SDK_BOT, DECIDING_BOT])
    _verified(outcome)
    assert not outcome.v1["faults"]
    kind = "pledge" if rules.no_hearts_pledge else "moon_choice"
    decided = _actions(outcome, kind)
    assert decided, f"these rules ask {kind}"
    for action in decided:
        older = action.seat in (0, 2)
        assert action.auto is older and action.fault is None
        if kind == "pledge":
            assert action.value is (not older)  # the deciding bot pledges; the default: no
