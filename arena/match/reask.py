"""Re-asking recorded decisions: put a seat's recorded questions to a bot again, over the
real protocol, and set its answers beside the recorded ones (`arena replay ask`).

The questions are not rebuilt by a second copy of the runner: the match is run again by
`MatchRunner` itself, every seat answering from the replay (`_Recorded`), on a clock that
advances by each decision's recorded time, so the runner deals the same cards, applies
the same actions, keeps the same clocks, faults and disqualifications, and builds the
same requests. The seat under question (`_Asking`) also forwards its game's messages to
the bot, so the bot sees the match start, every notification it asked for and the chosen
queries exactly as it would have; its answers are noted and the recorded ones applied.
The one approximation: a clock's bank is rebuilt from times recorded to the microsecond.
The replay is read in v1's layout (`replay_view.readable` gives it for either version):
its per-kind places say where each decision was asked, for people ("trick 3").
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from google.protobuf import text_format
from google.protobuf.message import Message

from arena.engine import Card, PassDirection, Rules, RulesError, SeatView, Trick
from arena.engine.decisions import CountedCall, DecisionKind
from arena.engine.decisions import Decision as EngineDecision
from arena.engine.variants.penny import PennyMove

from . import protocol
from .clock import TimePolicy
from .faults import FaultKind, FaultPolicy, SeatFault
from .replay import DecisionRecord, decision_records, strip_timings
from .runner import Entrant, MatchRunner
from .seats import LATER_KINDS, DecisionContext, GameInfo, Seat
from .sentences import without_words
from .verify import ReplayMismatchError, verify

_Ask = Callable[[Seat, float], Awaitable[Any]]
"""Puts the runner's question (its view and context) to a seat, with a timeout."""
_Query = Callable[[], Message]
"""Builds the runner's question as the protocol's query message (for people to read)."""

DEFAULT_TIMEOUT = 30.0
"""Seconds a re-asked bot may take per decision (the match's own clock is not the point)."""


class ReaskError(ValueError):
    """The replay cannot be re-asked as requested: it does not verify, has no such game,
    seat or decision, or does not re-run as recorded."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision a seat was asked in the recorded match."""

    number: int
    """Its number among the seat's decisions in its game, from 1."""
    game: int
    hand: int
    place: str
    """Where in the hand: "pass", "trick 3", "multi-round 1", …"""
    kind: str
    recorded: str
    """The answer applied, as text; with a fault, the arena's default."""
    fault: str | None
    note: str | None


@dataclasses.dataclass(frozen=True)
class Answer:
    """A bot's answer to a re-asked decision, beside the recorded one."""

    decision: Decision
    answer: str
    """As text in the recorded answer's form, or "(no answer: …)" when the bot failed."""
    note: str
    asked: str
    """What the seat held and could answer (its hand; the legal cards for a play)."""
    request: str
    """The query sent, in protobuf text format (the PlayMatchRequest's `kind`)."""

    @property
    def same(self) -> bool:
        """Whether the bot answered as recorded (a recorded fault never matches)."""
        return self.decision.fault is None and self.answer == self.decision.recorded


def match_settings(replay: dict[str, Any]) -> tuple[Rules, TimePolicy, FaultPolicy]:
    """The recorded match's rules, time policy and fault policy, once the replay verifies
    (ReaskError otherwise: a re-run of a replay that does not verify would ask questions
    no match asked). v1's verifier walks every kind, those filed under `decisions` (the
    pledges, the shooter's choice) too."""
    try:
        verify(replay)
        return (
            Rules.from_dict(replay["rules"]),
            TimePolicy(**replay["time_policy"]),
            FaultPolicy(**replay["fault_policy"]),
        )
    except (ReplayMismatchError, RulesError) as error:
        raise ReaskError(f"the replay does not verify: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ReaskError(f"the replay is incomplete or malformed: {error!r}") from None


def recorded_decisions(replay: dict[str, Any], game: int, seat: int) -> list[Decision]:
    """The decisions `seat` was asked in game `game` (from 0), numbered from 1; decisions
    the arena made for a disqualified bot (`auto`) were not asked and are left out.

    Raises ReaskError for a game or seat the replay does not have."""
    games = replay.get("games", [])
    if not 0 <= game < len(games):
        raise ReaskError(f"the replay has {len(games)} game(s); there is no game {game + 1}")
    players = len(games[game].get("seating", []))
    if not 0 <= seat < players:
        raise ReaskError(f"there is no seat {seat}: seats are 0 to {players - 1}")
    return [
        Decision(
            number=number,
            game=game,
            hand=hand,
            place=place,
            kind=kind,
            recorded=_recorded_text(kind, record),
            fault=record.get("fault"),
            note=record.get("note"),
        )
        for number, (hand, (kind, place, record)) in enumerate(_asked(replay, game, seat), 1)
    ]


def _asked(replay: dict[str, Any], game: int, seat: int) -> list[tuple[int, DecisionRecord]]:
    """The records of the decisions `seat` was asked in `game`, with their hand numbers."""
    return [
        (hand["number"], decision)
        for hand in replay["games"][game]["hands"]
        for decision in decision_records(hand)
        if decision.record["seat"] == seat and not decision.record.get("auto")
    ]


async def reask(
    replay: dict[str, Any],
    game: int,
    seat: int,
    numbers: Collection[int],
    bot: Seat,
    *,
    timeout: float = DEFAULT_TIMEOUT,
) -> list[Answer]:
    """Put decisions `numbers` (see `recorded_decisions`) of `seat` in game `game` to `bot`
    again, and return its answers in order. `bot` is started, told everything of that
    game that it would have been told, and closed.

    Raises ReaskError when the replay does not verify or does not re-run as recorded,
    when a number names no decision, and when the bot cannot be started."""
    rules, time_policy, fault_policy = match_settings(replay)
    decisions = recorded_decisions(replay, game, seat)
    wanted = set(numbers)
    if not wanted or not wanted <= set(range(1, len(decisions) + 1)):
        raise ReaskError(
            f"seat {seat} was asked {len(decisions)} decision(s) in game {game + 1}: "
            f"choose from 1 to {len(decisions)}"
        )
    clock = _Timeline()
    faults = replay.get("faults", [])
    seats: list[_Recorded] = []
    for entrant, entry in enumerate(replay["entrants"]):
        queues = _queues(replay, entrant)
        start_faults = {
            f["game"]: f for f in faults if f["entrant"] == entrant and not f["substitute"]
        }
        label = entry.get("label", entry["name"])
        seats.append(_Recorded(label, queues, start_faults, clock, _later_asked(replay, entrant)))
    target = replay["games"][game]["seating"][seat]
    records = [decision.record for _, decision in _asked(replay, game, seat)]
    chosen = {id(records[n - 1]): decisions[n - 1] for n in wanted}
    asking = _Asking(seats[target], bot, game, chosen, timeout)
    entrants = [
        Entrant(entry["name"], asking if i == target else seats[i], entry.get("version", ""))
        for i, entry in enumerate(replay["entrants"])
    ]
    runner = MatchRunner(
        rules,
        entrants,
        replay["seed"],
        duplicate=replay["match_format"] == "duplicate",
        time_policy=time_policy,
        fault_policy=fault_policy,
        match_id=replay["match_id"],
        now=clock.now,
    )
    outcome = await runner.run_async()
    if asking.failure is not None:
        raise ReaskError(f"the bot did not start: {asking.failure}")
    problem = next((s.problem for s in (*seats, asking) if s.problem), None)
    if problem is not None or outcome.void:
        raise ReaskError(f"the replay did not re-run as recorded: {problem or outcome.void_reason}")
    _check_rerun(replay, outcome.v1)
    missing = wanted - set(asking.given)
    if missing:
        raise ReaskError(f"decision(s) {sorted(missing)} were never asked in the re-run")
    return [asking.given[number] for number in sorted(wanted)]


def _check_rerun(recorded: dict[str, Any], rerun: dict[str, Any]) -> None:
    """The re-run's games equal the recorded ones (timings and notes aside), or the
    answers were given to questions the bot was never asked: ReaskError."""

    def games(replay: dict[str, Any]) -> Any:
        return _without_notes(strip_timings({"games": without_words(replay["games"])}))

    if games(recorded) != games(_unasked_moons_dropped(recorded, rerun)):
        raise ReaskError("the replay did not re-run as recorded (was it edited?)")


def _unasked_moons_dropped(recorded: dict[str, Any], rerun: dict[str, Any]) -> dict[str, Any]:
    """The re-run without the shooter's choices a replay written before the shooter was
    asked does not hold (004 'Shooting the moon': the engine's pick scored them then, and
    scores them again in the re-run, as the decision's default)."""
    rerun = {**rerun, "games": [dict(game) for game in rerun["games"]]}
    for game, old in zip(rerun["games"], recorded["games"], strict=False):
        hands = []
        for rerun_hand, was in zip(game["hands"], old["hands"], strict=False):
            hand = rerun_hand
            chose = [d for d in was.get("decisions", []) if d["kind"] == _MOON]
            if not chose and any(d["kind"] == _MOON for d in hand.get("decisions", [])):
                hand = dict(hand)
                kept = [d for d in hand["decisions"] if d["kind"] != _MOON]
                if kept:
                    hand["decisions"] = kept
                else:
                    del hand["decisions"]
            hands.append(hand)
        game["hands"] = hands + game["hands"][len(hands) :]
    return rerun


_MOON = DecisionKind.MOON_CHOICE.value


def _without_notes(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_notes(v) for k, v in node.items() if k != "note"}
    if isinstance(node, list):
        return [_without_notes(v) for v in node]
    return node


def _queues(replay: dict[str, Any], entrant: int) -> dict[str, deque[dict[str, Any]]]:
    """The entrant's asked decisions, by kind, in the order the runner asks them."""
    queues: dict[str, deque[dict[str, Any]]] = {}
    for game in replay["games"]:
        seating = game["seating"]
        for hand in game["hands"]:
            for kind, _, record in decision_records(hand):
                if seating[record["seat"]] == entrant and not record.get("auto"):
                    queues.setdefault(kind, deque()).append(record)
    return queues


def _later_asked(replay: dict[str, Any], entrant: int) -> dict[str, deque[bool]]:
    """For each later query kind (`LATER_KINDS`), whether the entrant's bot was asked each
    of its decisions, in order: the platform answered for a bot that did not list the
    query (`auto`), and the re-run must do the same."""
    later = {kind.value for kind in LATER_KINDS}
    asked: dict[str, deque[bool]] = {}
    for game in replay["games"]:
        seating = game["seating"]
        for hand in game["hands"]:
            for kind, _, record in decision_records(hand):
                if kind in later and seating[record["seat"]] == entrant:
                    asked.setdefault(kind, deque()).append(not record.get("auto"))
    return asked


def _recorded_text(kind: str, record: dict[str, Any]) -> str:
    """A recorded answer as text, in the form `_answer_text` gives a bot's."""
    if kind == "play":
        card = str(record["card"])
        return f"{card} on penny {record['penny']}" if "penny" in record else card
    if kind == "pass":
        return " ".join(record["cards"])
    if kind == "call":
        if "split" in record:
            return "split " + ",".join(record["split"])
        if "count" in record:  # 004 'Passing cards': where and how many
            return f"{record['direction']} {record['count']}"
        return str(record["direction"])
    if kind == "bid":
        return "pass" if record["bid"] is None else str(record["bid"])
    if kind == "naming":
        return str(record["suit"])
    if kind == "pledge":
        return "pledge" if record["value"] else "no pledge"
    if kind == "refuse_queen":  # Rickety Kate
        return "refuse" if record["value"] else "accept"
    if kind == "expose":  # Gong Zhu
        return "expose " + " ".join(record["value"]) if record["value"] else "expose none"
    if kind in ("moon_choice", "replace_pass"):
        return str(record["value"])
    return str(record["card"])  # reveal


def _answer_text(kind: str, answer: Any, view: SeatView) -> str:
    """A bot's answer (as a seat returns it) as text in the recorded form."""
    if kind == "play":
        if isinstance(answer, PennyMove):
            return f"{answer.card} on penny {answer.penny}"
        if view.legal_moves:  # a card alone goes to the lowest penny that takes it
            pennies = [penny for penny, card in view.legal_moves if str(card) == str(answer)]
            return f"{answer} on penny {min(pennies)}" if pennies else str(answer)
        return str(answer)
    if kind == "pass":
        return " ".join(str(card) for card in answer)
    if kind == "call":
        if isinstance(answer, CountedCall):
            return f"{getattr(answer.direction, 'value', answer.direction)} {answer.size}"
        if isinstance(answer, tuple):
            return "split " + ",".join(str(getattr(d, "value", d)) for d in answer)
        return str(getattr(answer, "value", answer))
    if kind == "bid":
        return "pass" if not answer else str(answer)
    if kind == "pledge":
        return "pledge" if answer is True else "no pledge" if answer is False else str(answer)
    if kind == "refuse_queen":
        return "refuse" if answer is True else "accept" if answer is False else str(answer)
    if kind == "expose" and isinstance(answer, (list, tuple)):  # Gong Zhu
        return "expose " + " ".join(map(str, answer)) if answer else "expose none"
    return str(answer)


def _asked_text(kind: str, view: SeatView) -> str:
    hand = " ".join(str(card) for card in view.hand)
    if kind == "play":
        return f"hand {hand}; legal {' '.join(str(card) for card in view.legal)}"
    return f"hand {hand}"


class _Timeline:
    """The runner's clock during a re-run: it moves only by the recorded times."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def now(self) -> float:
        return self.seconds

    def advance(self, milliseconds: float) -> None:
        self.seconds += milliseconds / 1000.0


class _Recorded:
    """A seat that answers what its entrant answered in the recording, taking the recorded
    time, and fails where it failed (so the runner faults, substitutes and disqualifies as
    it did)."""

    def __init__(
        self,
        label: str,
        queues: dict[str, deque[dict[str, Any]]],
        start_faults: dict[int, dict[str, Any]],
        clock: _Timeline,
        later_asked: dict[str, deque[bool]],
    ) -> None:
        self.label = label
        self.problem: str | None = None
        self._queues = queues
        self._start_faults = start_faults
        self._clock = clock
        self._later_asked = later_asked

    def answers(self, kind: DecisionKind) -> bool:
        """As recorded: whether the bot was asked its next decision of this later kind (the
        runner asks once per decision, so the record is taken here)."""
        queue = self._later_asked.get(kind.value)
        return queue.popleft() if queue else True

    def next_record(self, kind: str) -> dict[str, Any]:
        """The entrant's next recorded decision of this kind (the runner asks each kind in
        the recorded order); a question the recording never answered voids the re-run,
        and `problem` says why."""
        queue = self._queues.get(kind)
        if not queue:
            self.problem = f"{self.label} was asked a {kind} that the replay does not record"
            raise LookupError(self.problem)
        return queue.popleft()

    def replay_answer(self, kind: str, record: dict[str, Any]) -> Any:
        """The recorded answer (advancing the clock by its time), or its recorded fault."""
        self._clock.advance(float(record.get("ms", 0.0)))
        if "fault" in record:
            raise SeatFault(FaultKind(record["fault"]), "as recorded")
        if kind == "play":
            card = Card.from_str(record["card"])
            return PennyMove(record["penny"], card) if "penny" in record else card
        if kind == "pass":
            return list(record["cards"])
        if kind == "call":
            if "split" in record:
                return tuple(PassDirection(d) for d in record["split"])
            if "count" in record:
                return CountedCall(PassDirection(record["direction"]), record["count"])
            return PassDirection(record["direction"])
        if kind == "bid":
            return record["bid"]
        if kind == "naming":
            return record["suit"]
        if kind in ("pledge", "moon_choice", "refuse_queen"):  # filed under v1's `decisions`
            return record["value"]
        if kind == "replace_pass":  # Rickety Kate: a card, filed under `decisions` too
            return Card.from_str(record["value"])
        if kind == "expose":  # Gong Zhu, filed under v1's `decisions`
            return tuple(Card.from_str(card) for card in record["value"])
        return Card.from_str(record["card"])

    async def answer(self, kind: str, view: SeatView, ask: _Ask, query: _Query) -> Any:
        """The recorded answer to the runner's question (`ask` puts it to a seat, `query`
        builds its protocol message, the one the seat's `GrpcSeat` would send:
        tests/match/test_protocol.py checks that the two builders agree)."""
        return self.replay_answer(kind, self.next_record(kind))

    # -- the Seat protocol -------------------------------------------------------------

    async def start_game(self, info: GameInfo) -> None:
        """Fail as the entrant failed to start this game, if it did."""
        fault = self._start_faults.get(info.game_index)
        if fault is not None:
            self._clock.advance(float(fault.get("elapsed_ms", 0.0)))
            raise SeatFault(FaultKind(fault["kind"]), "as recorded")

    async def decide(
        self, decision: EngineDecision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Any:
        """The recorded answer (replay v1 files a Four-Penny play among the plays). A
        shooter's choice a replay written before the shooter was asked does not hold is
        the decision's default, the engine's pick that scored it then."""
        kind = "play" if decision.kind is DecisionKind.PENNY_PLAY else decision.kind.value
        if decision.kind is DecisionKind.MOON_CHOICE and not self._queues.get(kind):
            return decision.default
        exchange = protocol.EXCHANGES[decision.kind]
        return await self.answer(
            kind,
            view,
            lambda s, t: s.decide(decision, view, context, t),
            lambda: exchange.query(view, decision, context),
        )

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        """Recorded seats follow nothing."""

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        """Recorded seats follow nothing."""

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        """Recorded seats follow nothing."""

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        """Recorded seats follow nothing."""

    async def close(self) -> None:
        """Nothing to release."""

    def log_excerpt(self) -> str:
        return ""

    def take_note(self) -> str:
        return ""


class _Asking(_Recorded):
    """The seat under question: recorded answers for the runner, and in game `game` the
    bot beside them, told everything and asked the chosen decisions."""

    def __init__(
        self,
        recorded: _Recorded,
        bot: Seat,
        game: int,
        chosen: dict[int, Decision],
        timeout: float,
    ) -> None:
        super().__init__(
            recorded.label,
            recorded._queues,
            recorded._start_faults,
            recorded._clock,
            recorded._later_asked,
        )
        self.bot = bot
        self.game = game
        self.chosen = chosen  # id(record) → its decision
        self.timeout = timeout
        self.given: dict[int, Answer] = {}  # the bot's answers, by decision number
        self.failure: str | None = None
        self._live = False  # forwarding this game's messages to the bot

    async def answer(self, kind: str, view: SeatView, ask: _Ask, query: _Query) -> Any:
        record = self.next_record(kind)
        decision = self.chosen.get(id(record))
        if self._live and decision is not None:
            try:
                text = _answer_text(kind, await ask(self.bot, self.timeout), view)
            except SeatFault as fault:
                text = f"(no answer: {fault.kind.value} — {fault.detail})"
            self.given[decision.number] = Answer(
                decision,
                text,
                self.bot.take_note(),
                _asked_text(kind, view),
                text_format.MessageToString(query(), as_utf8=True),
            )
            if len(self.given) == len(self.chosen):
                await self._stop()  # nothing more to ask: the bot may go
        return self.replay_answer(kind, record)

    async def _stop(self) -> None:
        self._live = False
        await self.bot.close()

    async def start_game(self, info: GameInfo) -> None:
        if info.game_index == self.game:
            try:
                await self.bot.start_game(info)
            except SeatFault as fault:
                self.failure = f"{fault.kind.value}: {fault.detail}"
            else:
                self._live = True
        await super().start_game(info)

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        if self._live:
            await self.bot.hand_started(view, context)

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        if self._live:
            await self.bot.trick_ended(hand_number, trick_number, trick)

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        if self._live:
            await self.bot.hand_ended(hand_number, points, totals)

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        if self._live:
            await self.bot.end_game(totals, aborted)

    async def close(self) -> None:
        self._live = False
        await self.bot.close()
