"""Rickety Kate's refusal of a passed QS through the runner: bots in their own processes
over gRPC answer `refuse_queen` and `replace_pass`, a bad answer is a fault judged by
`arena.match.judging` (the default applied), a bot from an older SDK is never asked (the
defaults, recorded as the platform's answers), and every replay verifies (v2 and v1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.bots import HOUSE_BOTS
from arena.engine import Card, CardSet, SeatView, preset
from arena.match.faults import FaultPolicy
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import DecisionContext, InProcessSeat

from .test_cli import LOW_BOT, ROOT
from .test_pledge_moon_count import OLDER_SDK_BOT, _actions, _grpc_match, _verified

REFUSING_BOT = ROOT / "tests" / "match" / "bots" / "refusing_bot.py"
RULES = preset("rickety_kate").replace(max_hands=8, target_score=None)

pytestmark = pytest.mark.timeout(240)


def _hands(outcome: MatchOutcome) -> list[Any]:
    return [hand for game in outcome.document.games for hand in game.hands]


def test_bot_processes_refuse_the_queen_and_the_replacement_is_passed_instead() -> None:
    # Seats 0 and 1 pass the QS whenever they hold it and refuse every QS, and replace it
    # with their highest card; 2 and 3 keep the SDK's defaults (accept; the lowest card).
    outcome = _grpc_match(RULES, [REFUSING_BOT, REFUSING_BOT, LOW_BOT, LOW_BOT])
    _verified(outcome)
    assert not outcome.v1["faults"]
    refusals = _actions(outcome, "refuse_queen")
    assert refusals, "the QS was never passed"
    for action in refusals:
        assert action.value is (action.seat in (0, 1)) and action.fault is None
    replaced = _actions(outcome, "replace_pass")
    assert replaced, "no QS was refused"
    assert all(a.seat in (0, 3) and a.fault is None for a in replaced)
    for hand in outcome.v1["games"][0]["hands"]:
        kinds = [d["kind"] for d in hand.get("decisions", [])]
        if "replace_pass" in kinds:
            (entry,) = [d for d in hand["decisions"] if d["kind"] == "replace_pass"]
            receiver = (entry["seat"] + 1) % 4  # the pass goes left
            assert "QS" not in hand["received"][receiver]
            assert entry["value"] in hand["received"][receiver]


class Faulting(InProcessSeat):
    """Refuses with a word, and offers the QS itself as its replacement."""

    async def choose_queen_refusal(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> bool:
        return "maybe"  # type: ignore[return-value]  # the fault under test

    async def choose_replacement(
        self, view: SeatView, legal: CardSet, context: DecisionContext, timeout: float
    ) -> Card:
        return Card.from_str("QS")


class AlwaysRefuses(InProcessSeat):
    async def choose_queen_refusal(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> bool:
        return True

    async def choose_pass(
        self, view: SeatView, count: int, context: DecisionContext, timeout: float
    ) -> list[Card]:
        held = list(view.hand)
        queen = [c for c in held if str(c) == "QS"]
        return (queen + [c for c in held if str(c) != "QS"])[:count]


def test_an_illegal_refusal_or_replacement_is_a_fault_and_the_default_applies() -> None:
    # Seat 0 passes the QS whenever it holds it (left, to seat 1, who always refuses) and
    # answers both decisions badly; its neighbours pass it the QS too.
    seats: list[InProcessSeat] = [
        Faulting(HOUSE_BOTS["heuristic"](0)),
        AlwaysRefuses(HOUSE_BOTS["heuristic"](1)),
        InProcessSeat(HOUSE_BOTS["heuristic"](2)),
        AlwaysRefuses(HOUSE_BOTS["heuristic"](3)),
    ]
    entrants = [Entrant(f"e{i}", s) for i, s in enumerate(seats)]
    outcome = MatchRunner(
        RULES.replace(max_hands=8), entrants, 5, fault_policy=FaultPolicy(max_faults=100)
    ).run()
    _verified(outcome)  # verify checks a faulted action is the decision's default
    own = [
        (hand, a)
        for game in outcome.document.games
        for hand in game.hands
        for a in hand.actions
        if a.kind in ("refuse_queen", "replace_pass") and game.seating[a.seat] == 0
    ]
    kinds = {a.kind for _, a in own}
    assert kinds == {"refuse_queen", "replace_pass"}, kinds
    for _, action in own:
        assert action.fault is not None
        if action.kind == "refuse_queen":
            assert action.value is False
        else:
            assert action.value != "QS"
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert len(faults) == len(own)


def test_a_bot_from_an_older_sdk_is_never_asked_to_refuse_or_replace() -> None:
    """MatchStartAnswer.answers: a bot that does not list refuse_queen and replace_pass is
    answered for with the defaults (accept; the lowest card), recorded as auto, never a
    fault; the refusing bots are asked as before."""
    outcome = _grpc_match(
        RULES.replace(max_hands=6), [OLDER_SDK_BOT, REFUSING_BOT, OLDER_SDK_BOT, REFUSING_BOT]
    )
    _verified(outcome)
    assert not outcome.v1["faults"]
    decided = _actions(outcome, "refuse_queen") + _actions(outcome, "replace_pass")
    older_kinds = {a.kind for a in decided if a.seat in (0, 2)}
    assert "refuse_queen" in older_kinds or "replace_pass" in older_kinds, decided
    for action in decided:
        older = action.seat in (0, 2)
        assert action.auto is older and action.fault is None
        if older and action.kind == "refuse_queen":
            assert action.value is False


def test_the_cli_shows_the_refusal_and_replay_ask_re_asks_it(tmp_path: Path) -> None:
    """`arena replay show` words the refusal and its replacement; `arena replay ask`
    re-asks them of the bot that made them (the same answers) and of one that would not."""
    from .test_cli import arena

    out = tmp_path / "rk.json"
    arena(
        "match", "run", "--rules", "rickety_kate", "--bot", REFUSING_BOT, "--bot", REFUSING_BOT,
        "--bot", LOW_BOT, "--bot", LOW_BOT, "--seed", 3, "--hands", 8,
        "--no-sandbox", "--quiet", "--out", out,
    )  # fmt: skip
    assert "every score confirmed" in arena("replay", "verify", out).stdout
    shown = arena("replay", "show", out).stdout
    assert "refuses the QS passed to it" in shown
    assert "in the refused QS's place" in shown
    done = arena("replay", "ask", out, REFUSING_BOT, "--seat", 1, "--all", "--no-sandbox")
    assert "same: all" in done.stdout, done.stdout
    low = arena("replay", "ask", out, LOW_BOT, "--seat", 1, "--all", "--no-sandbox", check=False)
    assert low.returncode == 1 and "accept" in low.stdout, low.stdout
