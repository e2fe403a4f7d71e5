"""The match runner: deals, asks each seat for its decisions under its clock, applies them
through the engine, applies the fault policy, and writes everything into a replay (v2:
each hand's actions as the loop takes them, `replay_v2.py`).

A match is one game to the rules' end, or a duplicate set: the same game seed replayed
once per rotation, entrant `b` sitting at seat `(b + r) % n` in rotation `r`, so every
entrant plays every seat's cards once. Bots' failures are `Fault` records; anything else
that goes wrong is our bug and voids the match (it is never scored).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import functools
import logging
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from typing import Any

from hearts_bot import transport

from arena.engine import Game, Hand, Rules
from arena.engine.decisions import Action, Decision, DecisionKind

from .clock import Clock, TimePolicy
from .faults import Fault, FaultKind, FaultPolicy, SeatFault
from .judging import JUDGES
from .notes import NoteBook
from .replay import REPLAY_FORMAT, REPLAY_VERSION, cap_log
from .replay_v2 import ActionRecord, GameRecord, HandRecord, ReplayV2, to_json
from .replay_view import HandWriter, shooter, to_v1, v1_entry
from .seats import LATER_KINDS, DecisionContext, GameInfo, Seat
from .standings import match_scores, rank_entrants

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Entrant:
    """A bot in the match: its name and version for the record, and the seat that reaches it."""

    name: str
    seat: Seat
    version: str = ""


@dataclasses.dataclass(frozen=True)
class EntrantResult:
    """One entrant's outcome over the whole match."""

    entrant: int
    name: str
    score: int
    rank: int
    faults: int
    disqualified: bool
    hands: int
    moons: int
    lives: int | None = None
    """Danger Hearts: the lives left at the end, summed over the games (None without)."""

    def to_dict(self) -> dict[str, Any]:
        """The replay's form: `lives` only where the rules have lives."""
        data = dataclasses.asdict(self)
        if self.lives is None:
            del data["lives"]
        return data


@dataclasses.dataclass(frozen=True)
class MatchOutcome:
    """The replay document and the result it proves (void when the platform broke)."""

    document: ReplayV2
    results: tuple[EntrantResult, ...]
    void: bool
    void_reason: str | None
    """Why the match is void, as everyone may read it (the page, the replay, the API)."""
    void_detail: str | None = None
    """The platform error's traceback, for the log and the developers: never published,
    since an exception's message may quote a bot's answer and names the workers' files."""

    @functools.cached_property
    def replay(self) -> dict[str, Any]:
        """The replay as it is stored: replay v2's JSON form (replay.dumps, replay.save)."""
        return self.document.to_dict()

    @functools.cached_property
    def v1(self) -> dict[str, Any]:
        """The replay in v1's layout, re-played from the document (replay_view.to_v1):
        what the viewer, `arena replay show` and the other v1 readers are given."""
        return to_v1(self.document)


@dataclasses.dataclass(frozen=True)
class Progress:
    """Told to the progress callback after every hand."""

    game: int
    games: int
    hand: int
    totals: tuple[int, ...]


EventSink = Callable[[dict[str, Any]], None]
"""The event callback: told {"kind": ..., ...} as the match is played, to watch it live.

Kinds: "match" (header: the replay's header), "game" (game, seating), "hand" (game, hand:
the hand's record as dealt), "passes" (game, passes, received), "play" (game, trick: its
index in the hand, play), "trick" (game, trick, record), "hand_end" (game, hand: the
complete record). The records are in replay v1's layout (`replay_view.HandWriter`, written
only while a callback listens), still being written: a callback copies what it keeps. It
runs between decisions, never inside a bot's time.
"""


class _HandTable:
    """What every decision of one hand shares (the hand, who sits where, which game and
    hand it is, the totals before it) and the hand's actions as replay v2 records them;
    with a `writer` (only while someone watches the match) its v1 record for the live
    events."""

    __slots__ = (
        "actions",
        "engine_acts",
        "game_index",
        "hand",
        "number",
        "scores",
        "seating",
        "seen",
        "writer",
    )

    def __init__(
        self,
        hand: Hand,
        seating: list[int],
        game_index: int,
        number: int,
        scores: tuple[int, ...],
        writer: HandWriter | None,
    ) -> None:
        self.hand = hand
        self.seating = seating  # seating[seat] is the entrant in that seat
        self.game_index = game_index
        self.number = number
        self.scores = scores
        self.writer = writer
        self.actions: list[ActionRecord] = []
        self.engine_acts = hand.engine_acts
        self.seen = 0  # Domino, Enfle: how much of `hand.history` is in `actions`

    def record(self, action: ActionRecord) -> None:
        """Append the answered action, then the engine's own actions it led to (Domino
        Hearts' draws, Enfle's pickups, in `hand.history` after it)."""
        self.actions.append(action)
        if self.engine_acts:
            history = self.hand.history
            for engine in history[self.seen + 1 :]:
                self.actions.append(
                    ActionRecord(engine.kind.value, engine.seat, to_json(engine.kind, engine.value))
                )
            self.seen = len(history)


_PLAY = DecisionKind.PLAY
_new_tuple = tuple.__new__  # Action(...) without its Python-level __new__: every decision


def _substitute(kind: DecisionKind, default: Any) -> tuple[str, ...]:
    """What a fault record says was played instead."""
    if kind is DecisionKind.PASS:
        return tuple(str(c) for c in default)
    if kind is DecisionKind.PENNY_PLAY:
        return (str(default[1]),)
    return (str(default if default is not None else "pass"),)


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 3)


class MatchRunner:
    """Runs one match; `run()` never raises for a bot's behaviour."""

    def __init__(
        self,
        rules: Rules,
        entrants: Sequence[Entrant],
        seed: int,
        *,
        duplicate: bool = False,
        time_policy: TimePolicy | None = None,
        fault_policy: FaultPolicy | None = None,
        match_id: str | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        now: Callable[[], float] = time.perf_counter,
        on_event: EventSink | None = None,
    ) -> None:
        if len(entrants) != rules.players:
            raise ValueError(f"{rules.name} needs {rules.players} entrants, got {len(entrants)}")
        self.rules = rules
        self.entrants = tuple(entrants)
        self.seed = seed
        self.duplicate = duplicate
        self.time_policy = time_policy or TimePolicy()
        self.fault_policy = fault_policy or FaultPolicy()
        self.match_id = match_id or uuid.uuid4().hex
        self.on_progress = on_progress
        self.on_event = on_event
        self._now = now
        n = rules.players
        self._clocks = [Clock(self.time_policy) for _ in range(n)]
        self._faults: list[Fault] = []
        self._fault_count = [0] * n
        self._disqualified = [False] * n
        self._moons = [0] * n
        self._hands = [0] * n
        self._pot = 0  # the pot of the game in play, for the decision contexts
        self._lives: tuple[int, ...] = ()  # Danger Hearts: each seat's lives left
        self._notes = NoteBook(n)

    # -- the match ---------------------------------------------------------------

    def run(self) -> MatchOutcome:
        """Play the match and return its replay and result (runs its own event loop)."""
        return transport.run(self.run_async())

    async def run_async(self) -> MatchOutcome:
        """Play the match inside a running event loop."""
        games_total = self.rules.players if self.duplicate else 1
        header = self._replay_header()
        started_at = dt.datetime.now(dt.UTC).isoformat()
        self._emit(
            "match",
            header={
                "format": REPLAY_FORMAT,
                "version": REPLAY_VERSION,  # the live events are v1's records
                **header,
                "started_at": started_at,
                "games": [],
            },
        )
        games: list[GameRecord] = []
        void_reason: str | None = None
        void_detail: str | None = None
        try:
            for game_index in range(games_total):
                games.append(await self._play_game(game_index, games_total))
        except Exception:  # our bug, never a bot's: the match is void
            void_detail = traceback.format_exc(limit=8)
            incident = uuid.uuid4().hex[:12]
            void_reason = (
                f"a platform error, not a bot's (incident {incident} in the workers' log): "
                "the match is void and rates no one"
            )
            log.exception(
                "match %s voided by a platform error (incident %s)", self.match_id, incident
            )
        finally:
            await self._close_seats()
        results = self._results(games)
        document = ReplayV2(
            header,
            tuple(games),
            tuple(fault.to_dict() for fault in self._faults),
            {
                "void": void_reason is not None,
                "void_reason": void_reason,
                "entrants": [r.to_dict() for r in results],
            },
            {
                "started_at": started_at,
                "logs": [cap_log(e.seat.log_excerpt()) for e in self.entrants],
                "notes": self._notes.to_replay(),
                "finished_at": dt.datetime.now(dt.UTC).isoformat(),
            },
        )
        return MatchOutcome(document, results, void_reason is not None, void_reason, void_detail)

    def _replay_header(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "match_format": "duplicate" if self.duplicate else "single",
            "time_policy": dataclasses.asdict(self.time_policy),
            "fault_policy": dataclasses.asdict(self.fault_policy),
            "entrants": [
                {"index": i, "name": e.name, "version": e.version, "label": e.seat.label}
                for i, e in enumerate(self.entrants)
            ],
        }

    def _seating(self, game_index: int) -> list[int]:
        """seating[seat] = the entrant sitting there in this rotation."""
        n = self.rules.players
        seating = [0] * n
        for entrant in range(n):
            seating[(entrant + game_index) % n] = entrant
        return seating

    async def _play_game(self, game_index: int, games_total: int) -> GameRecord:
        rules, n = self.rules, self.rules.players
        seating = self._seating(game_index)
        game = Game(rules, self.seed)
        hands: list[HandRecord] = []
        self._emit("game", game=game_index, seating=seating)
        # Every seat starts at once: starting is mostly waiting (a bot's Ready, its new
        # stream), and one seat after another took 15 ms a game (docs/benchmarks.md).
        started = await asyncio.gather(
            *(self._start(seat, seating[seat], game_index, games_total) for seat in range(n))
        )
        for seat, failed in enumerate(started):  # in seat order, as the replay must be
            if failed is not None:
                fault, elapsed = failed
                # A bot that cannot even start is out of the match at once.
                await self._record_fault(
                    seating[seat], seat, game_index, 0, None, fault.kind, fault.detail, (), elapsed
                )
                await self._disqualify(seating[seat])
        while not game.is_over:
            hands.append(await self._play_hand(game, game_index, seating))
            if self.on_progress is not None:
                self.on_progress(
                    Progress(game_index, games_total, game.hand_number, tuple(game.totals))
                )
        # Together: each seat's end waits for its bot to finish the stream.
        await _together(
            self._notify(seating[seat], partial(_call, "end_game", tuple(game.totals), False))
            for seat in range(n)
        )
        return GameRecord(
            game_index,
            tuple(seating),
            tuple(hands),
            tuple(game.totals),
            tuple(game.ranking()),
            tuple(game.lives) if rules.lives else None,
        )

    async def _start(
        self, seat: int, entrant: int, game_index: int, games_total: int
    ) -> tuple[SeatFault, float] | None:
        """Start the entrant's seat for this game: None, or its fault and the time taken."""
        if self._disqualified[entrant]:
            return None
        info = GameInfo(
            self.rules, seat, self.match_id, game_index, games_total, self.seed, self.time_policy
        )
        started = self._now()
        try:
            await self.entrants[entrant].seat.start_game(info)
        except SeatFault as fault:
            return fault, self._now() - started
        return None

    async def _play_hand(self, game: Game, game_index: int, seating: list[int]) -> HandRecord:
        hand, n = game.hand, self.rules.players
        number = game.hand_number
        scores = tuple(game.totals)
        seed, dealer, direction = game.hand_seeds[-1], hand.dealer, hand.pass_direction.value
        self._pot = game.pot
        self._lives = tuple(game.lives)
        for seat in range(n):
            view, context = hand.view(seat), self._context(seating[seat], number, scores)
            await self._notify(seating[seat], partial(_call, "hand_started", view, context))
        writer = None
        if self.on_event is not None:  # the v1 records of the live events, when watched
            writer = HandWriter(hand, number, seed, game_index, self._emit)
            self._emit("hand", game=game_index, hand=writer.record)
        table = _HandTable(hand, seating, game_index, number, scores, writer)
        # The one loop: the hand says what it asks, the seat answers, the runner judges,
        # applies and records it (docs/decisions/0006-decisions-as-data.md).
        while (decision := hand.pending()) is not None:
            await self._take(table, decision)
        points = game.finish_hand()
        if writer is not None:
            self._emit("hand_end", game=game_index, hand=writer.finish(game, points))
        moon = shooter(self.rules, hand)
        if moon is not None:
            self._moons[seating[moon]] += 1
        for seat in range(n):
            self._hands[seating[seat]] += 1
            await self._notify(
                seating[seat], partial(_call, "hand_ended", number, points, tuple(game.totals))
            )
        return HandRecord(
            number,
            seed,
            dealer,
            direction,  # as dealt: a dealer's call replaces it in the hand
            tuple(table.actions),
            tuple(points),
            tuple(game.totals),
        )

    def _emit(self, kind: str, **data: Any) -> None:
        """Tell the event callback; its failure is logged and never stops the match."""
        if self.on_event is None:
            return
        try:
            self.on_event({"kind": kind, **data})
        except Exception:
            log.exception("match %s: the event callback failed; the match goes on", self.match_id)

    # -- decisions ---------------------------------------------------------------

    def _context(self, entrant: int, hand_number: int, scores: tuple[int, ...]) -> DecisionContext:
        clock = self._clocks[entrant]
        return DecisionContext(
            hand_number, scores, self.time_policy.per_decision, clock.bank, self._pot, self._lives
        )

    async def _ask(
        self, entrant: int, ask: Callable[[float], Awaitable[Any]]
    ) -> tuple[Any, float, SeatFault | None]:
        """Call the bot under its clock: (answer, elapsed seconds, fault or None)."""
        clock = self._clocks[entrant]
        allowance = clock.allowance
        started = self._now()
        try:
            answer = await ask(allowance)
        except SeatFault as fault:
            elapsed = self._now() - started
            if fault.kind is FaultKind.TIMEOUT:
                clock.exhaust()
            else:
                clock.charge(elapsed)
            return None, elapsed, fault
        elapsed = self._now() - started
        if elapsed > allowance:
            clock.exhaust()
            return (
                None,
                elapsed,
                SeatFault(
                    FaultKind.TIMEOUT,
                    f"answered after {_ms(elapsed)} ms; allowed {_ms(allowance)} ms",
                ),
            )
        clock.charge(elapsed)
        return answer, elapsed, None

    async def _take(self, table: _HandTable, decision: Decision) -> None:
        """One decision: ask the seat under its clock (its default when it is out of the
        match), judge the answer once, on a fault record it and apply the default, apply
        the action once through `Hand.apply`, and record it as the hand's next action."""
        hand, seat, kind = table.hand, decision.seat, decision.kind
        entrant = table.seating[seat]
        writer = table.writer
        if writer is not None:
            writer.before(decision)
        if self._disqualified[entrant] or (
            kind in LATER_KINDS and not self.entrants[entrant].seat.answers(kind)
        ):
            # Out of the match, or a later query its bot does not read: the default.
            value = decision.default
            hand.apply(Action(kind, seat, value))
            action = ActionRecord(kind.value, seat, to_json(kind, value), 0.0, None, None, True)
        else:
            view = hand.view(seat)
            context = self._context(entrant, table.number, table.scores)
            bot = self.entrants[entrant].seat
            answer, elapsed, fault = await self._ask(
                entrant, lambda t: bot.decide(decision, view, context, t)
            )
            if fault is None:
                value, fault = JUDGES[kind](answer, decision, hand)
            if fault is not None:
                value = decision.default
                await self._record_fault(
                    entrant,
                    seat,
                    table.game_index,
                    table.number,
                    decision.trick,
                    fault.kind,
                    fault.detail,
                    _substitute(kind, value),
                    elapsed,
                )
                hand.apply(Action(kind, seat, value))
                faulted: str | None = fault.kind.value
            else:
                hand.apply(_new_tuple(Action, (kind, seat, value)))
                faulted = None
            action = ActionRecord(
                kind.value,
                seat,
                str(value) if kind is _PLAY else to_json(kind, value),
                _ms(elapsed),
                faulted,
                self._note(entrant),
            )
        table.record(action)
        if writer is not None:
            writer.after(decision, v1_entry(action))
        if kind is _PLAY and (hand.trick_number != decision.trick or hand.is_over):
            trick = hand.tricks()[-1]
            for s in range(hand.players):
                await self._notify(
                    table.seating[s],
                    partial(_call, "trick_ended", table.number, decision.trick, trick),
                )

    def _note(self, entrant: int) -> str | None:
        """The bot's note on its answer, if it sent one that the entrant's note budget
        keeps (a faulty answer's note too: it says what the bot meant)."""
        text = self.entrants[entrant].seat.take_note()
        return self._notes.keep(entrant, text) if text else None

    # -- faults, notifications and results ----------------------------------------

    async def _record_fault(
        self,
        entrant: int,
        seat: int,
        game_index: int,
        hand: int,
        trick: int | None,
        kind: FaultKind,
        detail: str,
        substitute: tuple[str, ...],
        elapsed: float,
    ) -> None:
        self._faults.append(
            Fault(
                entrant,
                seat,
                game_index,
                hand,
                trick,
                kind,
                detail[:2000],
                substitute,
                _ms(elapsed),
            )
        )
        self._fault_count[entrant] += 1
        if self._fault_count[entrant] >= self.fault_policy.max_faults:
            await self._disqualify(entrant)

    async def _close_seats(self) -> None:
        """Close every seat at once. Closing is mostly waiting for a bot's process to exit
        after SIGTERM (30–60 ms each, measured with `arena match run`), so one after another
        added about 100 ms to every match of four bots."""
        outcomes = await asyncio.gather(
            *(entrant.seat.close() for entrant in self.entrants), return_exceptions=True
        )
        for entrant, outcome in zip(self.entrants, outcomes, strict=True):
            if isinstance(outcome, Exception):
                log.error("closing seat %s failed", entrant.seat.label, exc_info=outcome)
            elif isinstance(outcome, BaseException):
                raise outcome

    async def _disqualify(self, entrant: int) -> None:
        if not self._disqualified[entrant]:
            self._disqualified[entrant] = True
            try:
                await self.entrants[entrant].seat.close()
            except Exception:
                log.exception("closing disqualified seat %s failed", entrant)

    async def _notify(self, entrant: int, send: Callable[..., Awaitable[None]]) -> None:
        if self._disqualified[entrant]:
            return
        try:
            await send(seat=self.entrants[entrant].seat)
        except SeatFault as fault:
            log.info("notification to entrant %s failed: %s", entrant, fault)

    def _results(self, games: Sequence[GameRecord]) -> tuple[EntrantResult, ...]:
        n = self.rules.players
        played = [{"seating": g.seating, "totals": g.totals, "lives": g.lives or ()} for g in games]
        scores, lives = match_scores(played, n)
        ranks = rank_entrants(scores, self._disqualified, lives if self.rules.lives else None)
        return tuple(
            EntrantResult(
                entrant=i,
                name=self.entrants[i].name,
                score=scores[i],
                rank=ranks[i],
                faults=self._fault_count[i],
                disqualified=self._disqualified[i],
                hands=self._hands[i],
                moons=self._moons[i],
                lives=lives[i] if self.rules.lives else None,
            )
            for i in range(n)
        )


async def _together(calls: Iterable[Awaitable[None]]) -> None:
    """Await every call at once, then raise the first exception any of them raised (so
    none is left running behind a failure)."""
    for outcome in await asyncio.gather(*calls, return_exceptions=True):
        if isinstance(outcome, BaseException):
            raise outcome


async def _call(method: str, *args: Any, seat: Seat) -> None:
    """Call a notification method by name (lets notifications be built with `partial`)."""
    await getattr(seat, method)(*args)
