"""A new decision kind is one room: a toy kind, written and registered in this module alone
(nothing else in the tree knows it), plays through a real match (issue 32, "Must show").

The toy: after the pass, each seat from the dealer's left wagers 0, 1 or 2 tokens (the
default 0), and each token wagered adds a point to its seat's score. The runner asks it of
in-process seats whose house bot has the method the room names, judges the answers through
the engine (an impossible wager is a fault, the default applied), answers for a gRPC bot
(its SDK has no query for the kind, as an older SDK has none for a later one), writes it in
replay v2, verifies it, and the text replay and the viewer say it in the room's words.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import jsonschema
import pytest

from arena.bots import RandomBot
from arena.engine import Hand, Rules, SeatView, preset
from arena.engine.decisions import Action, Decision, DecisionKind, kind_named
from arena.engine.phases import HandPort, Room, Stage, refused, register, unregister
from arena.match import replay_v2
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.render import render
from arena.match.replay_v2 import verify_v2
from arena.match.replay_view import readable
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.sentences import with_words
from arena.match.viewer import render_page

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]
SDK_BOT = ROOT / "tests" / "match" / "bots" / "deciding_bot.py"
TOY = kind_named("toy_wager")
TOY_RULES = preset("standard").replace(name="toy_rules", max_hands=2, target_score=None)
WAGERS = (0, 1, 2)


class IllegalToyWagerError(ValueError):
    """A toy wager that may not be made."""


class ToyWagerRoom(Room):
    """The toy kind's room: its phase, its judge, its codec (a plain int), its words."""

    kinds = (TOY,)
    stage = Stage.EXCHANGE
    error = IllegalToyWagerError
    house_methods: ClassVar[dict[DecisionKind, str]] = {TOY: "toy_wager"}

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        return rules.name == "toy_rules"

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Any = str, *, you: bool = False
    ) -> str:
        who = "You wager" if you else f"seat {seat} wagers"
        return f"{who} {data} token{'' if data == 1 else 's'}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        raise refused(IllegalToyWagerError("these rules have no toy wager"), "illegal")

    def __init__(self, hand: HandPort) -> None:
        super().__init__(hand)
        self.wagers: list[int | None] = [None] * hand.players

    @property
    def due(self) -> int | None:
        if not self.waiting:
            return None
        n = self.hand.players
        seats = ((self.hand.dealer + step) % n for step in range(1, n + 1))
        return next((seat for seat in seats if self.wagers[seat] is None), None)

    def pending(self) -> Decision | None:
        seat = self.due
        return None if seat is None else Decision(TOY, seat, WAGERS, 0)

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        if seat != self.due:
            raise refused(IllegalToyWagerError(f"it is not seat {seat}'s wager"), "illegal")
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise refused(IllegalToyWagerError(f"{answer!r} is not a number"), "malformed")
        if answer not in WAGERS:
            raise refused(IllegalToyWagerError(f"a wager is 0, 1 or 2, not {answer}"), "illegal")
        return answer

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        self.wagers[seat] = value
        if None not in self.wagers:
            self.finish()

    def still_to(self) -> str:
        return f"seat {self.due} has still to wager"

    def score(self, scores: tuple[int, ...], totals: Sequence[int]) -> tuple[int, ...]:
        return tuple(score + (wager or 0) for score, wager in zip(scores, self.wagers, strict=True))


class WageringBot(RandomBot):
    """A house bot that knows the toy kind: it wagers `wager` tokens."""

    def __init__(self, seed: int, wager: object) -> None:
        super().__init__(seed)
        self.wager = wager

    def toy_wager(self, view: SeatView, decision: Decision) -> object:
        assert decision.kind is TOY and view.seat == decision.seat
        return self.wager


@pytest.fixture
def toy_room() -> Iterator[type[Room]]:
    """The toy room, registered for the test only."""
    register(ToyWagerRoom)
    yield ToyWagerRoom
    unregister(ToyWagerRoom)


def _toy_actions(document: replay_v2.ReplayV2) -> list[replay_v2.ActionRecord]:
    return [a for g in document.games for h in g.hands for a in h.actions if a.kind == TOY.value]


def test_the_engine_runs_a_registered_kind_and_judges_it(toy_room: type[Room]) -> None:
    hand = Hand.deal(TOY_RULES, 5, pass_direction="hold")
    decision = hand.pending()
    assert decision == Decision(TOY, 1, WAGERS, 0)
    assert hand.phase.value == "deciding" and hand.to_play is None
    with pytest.raises(IllegalToyWagerError, match="0, 1 or 2") as refusal:
        hand.check(Action(TOY, 1, 3))
    assert getattr(refusal.value, "fault", None) == "illegal"
    with pytest.raises(ValueError, match="seat 1 has still to wager"):
        hand.play(hand.hand_of(hand.seat_holding("2C") or 0).first())
    for seat in (1, 2, 3, 0):
        hand.apply(Action(TOY, seat, seat % 3))
    assert [a.kind for a in hand.history] == [TOY] * 4
    assert hand.pending() is not None and hand.pending().kind is DecisionKind.PLAY  # type: ignore[union-attr]


def test_a_toy_kind_plays_through_a_real_match(toy_room: type[Room]) -> None:
    host = BotProcess(str(SDK_BOT))
    try:
        entrants = [
            Entrant("wagers two", InProcessSeat(WageringBot(0, 2))),
            Entrant("sdk bot", GrpcSeat(host.address, str(SDK_BOT), host=host)),
            Entrant("wagers five", InProcessSeat(WageringBot(2, 5))),  # impossible: a fault
            Entrant("plain house bot", InProcessSeat(RandomBot(3))),  # no method: default
        ]
        outcome = MatchRunner(TOY_RULES, entrants, 7, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        host.stop()
    assert not outcome.void, outcome.void_reason
    document = outcome.document

    # The runner asked it: every seat, every hand, in turn from the dealer's left.
    wagers = _toy_actions(document)
    assert len(wagers) == 2 * 4
    by_seat = {seat: [a for a in wagers if a.seat == seat] for seat in range(4)}
    assert all(a.value == 2 and a.fault is None and not a.auto for a in by_seat[0])
    # the gRPC bot's SDK has no query for the kind: answered for it, never asked
    assert all(a.value == 0 and a.fault is None and a.auto for a in by_seat[1])
    assert all(a.value == 0 and a.fault == "illegal" for a in by_seat[2])
    assert all(a.value == 0 and a.fault is None and a.auto for a in by_seat[3])
    faults = [f for f in outcome.v1["faults"] if f["kind"] == "illegal"]
    assert len(faults) == 2 and all("0, 1 or 2, not 5" in f["detail"] for f in faults)
    # the room's score: seat 0's two tokens a hand are in its points
    for game in document.games:
        for hand in game.hands:
            assert hand.points is not None and hand.points[0] >= 2

    # Replay v2 written (its schema's kinds come from the registry) and verified.
    assert TOY.value in replay_v2.schema()["$defs"]["action"]["properties"]["kind"]["enum"]
    jsonschema.validate(outcome.replay, replay_v2.schema())
    assert verify_v2(replay_v2.ReplayV2.from_dict(outcome.replay)).decisions > 0

    # The text replay and the viewer say it in the room's words.
    text = "\n".join(render(outcome.replay))
    assert "seat 0 wagers 2 tokens" in text and "seat 1 wagers 0 tokens" in text
    shown = with_words(readable(outcome.replay))["games"][0]["hands"][0]["decisions"]
    assert {d["kind"] for d in shown} == {TOY.value}
    assert {d["words"] for d in shown if d["seat"] == 0} == {"seat 0 wagers 2 tokens"}
    assert "seat 0 wagers 2 tokens" in render_page(outcome.replay)


def test_without_its_room_the_kind_is_never_asked() -> None:
    hand = Hand.deal(TOY_RULES, 5, pass_direction="hold")
    decision = hand.pending()
    assert decision is not None and decision.kind is DecisionKind.PLAY
