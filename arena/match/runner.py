"""The match runner: deals, asks each seat for its decisions under its clock, applies them
through the engine, applies the fault policy, and writes everything into a replay.

A match is one game to the rules' end, or a duplicate set: the same game seed replayed
once per rotation, entrant `b` sitting at seat `(b + r) % n` in rotation `r`, so every
entrant plays every seat's cards once. Bots' failures are `Fault` records; anything else
that goes wrong is our bug and voids the match (it is never scored).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
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
from arena.engine.rules import PassDirection, Settlement
from arena.engine.variants.domino import DominoHand

from .clock import Clock, TimePolicy
from .faults import Fault, FaultKind, FaultPolicy, SeatFault
from .judging import JUDGES
from .notes import NoteBook
from .replay import REPLAY_FORMAT, REPLAY_VERSION, cap_log
from .seats import DecisionContext, GameInfo, Seat

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

    replay: dict[str, Any]
    results: tuple[EntrantResult, ...]
    void: bool
    void_reason: str | None


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
complete record). The records are the replay's own, still being written: a callback
copies what it keeps. It runs between decisions, never inside a bot's time.
"""


class _HandTable:
    """What every decision of one hand shares (the hand, who sits where, which game and
    hand it is, the totals before it), and the hand's replay record being written: each
    decision kind's entry goes where replay v1 keeps it (`before` / `after`)."""

    __slots__ = (
        "_drew",
        "bids",
        "domino",
        "drawn",
        "game_index",
        "hand",
        "multi",
        "number",
        "plays",
        "record",
        "scores",
        "seating",
    )

    def __init__(
        self,
        hand: Hand,
        seating: list[int],
        game_index: int,
        number: int,
        scores: tuple[int, ...],
        record: dict[str, Any],
    ) -> None:
        self.hand = hand
        self.seating = seating  # seating[seat] is the entrant in that seat
        self.game_index = game_index
        self.number = number
        self.scores = scores
        self.record = record
        self.plays: list[dict[str, Any]] = []  # the trick in play
        self.bids: list[dict[str, Any]] = []  # Auction Hearts
        self.drawn = 0  # Domino Hearts: the draws recorded so far
        self.domino = isinstance(hand, DominoHand)
        self.multi: dict[str, Any] | None = None  # Four-Penny: the multi-round in play
        self._drew: list[str] = []  # Domino Hearts: drawn before the play being asked

    def passes_done(self, runner: MatchRunner) -> None:
        """After the call and the passes (at the first other decision, or the hand's end):
        what each seat received, told to the event callback once."""
        record, hand = self.record, self.hand
        if "received" in record:
            return
        record["received"] = [[str(c) for c in hand.received(s)] for s in range(hand.players)]
        runner._emit(
            "passes", game=self.game_index, passes=record["passes"], received=record["received"]
        )

    def before(self, runner: MatchRunner, decision: Decision) -> dict[str, Any]:
        """What the record needs from before the action is applied."""
        kind = decision.kind
        if kind is DecisionKind.PLAY:
            if "received" not in self.record:
                self.passes_done(runner)
            if self.domino:
                drew = new_draws(self.hand, self.drawn, decision.seat)
                self.drawn += len(drew)
                self._drew = drew
        elif kind is DecisionKind.PENNY_PLAY:
            if self.multi is None:
                self.multi = {
                    "leader": self.hand.leader,
                    "start": len(self.hand.tricks()),
                    "plays": [],
                }
        elif kind not in (DecisionKind.CALL, DecisionKind.PASS):
            self.passes_done(runner)
        return self.record

    async def after(self, runner: MatchRunner, decision: Decision, entry: dict[str, Any]) -> None:
        """Write the decision's entry where replay v1 keeps its kind."""
        hand, record, kind = self.hand, self.record, decision.kind
        if kind is DecisionKind.PLAY:
            if self._drew:  # drawn before this play, by the seat playing it
                entry["drew"] = self._drew
            self.plays.append(entry)
            tricks = record["tricks"]
            if runner.on_event is not None:  # no event built when nobody watches
                runner._emit("play", game=self.game_index, trick=len(tricks), play=entry)
            if hand.trick_number != decision.trick or hand.is_over:
                trick = hand.tricks()[-1]
                tricks.append({"leader": trick.leader, "plays": self.plays, "winner": trick.winner})
                runner._emit(
                    "trick", game=self.game_index, trick=len(tricks) - 1, record=tricks[-1]
                )
                self.plays = []
                number, trick_number = self.number, decision.trick
                for s in range(hand.players):
                    await runner._notify(
                        self.seating[s], partial(_call, "trick_ended", number, trick_number, trick)
                    )
        elif kind is DecisionKind.PENNY_PLAY:
            multi = self.multi
            assert multi is not None
            multi["plays"].append(entry)
            if len(multi["plays"]) == hand.players * hand.players:
                # 003 'FOUR-PENNY HEARTS': n * n plays around the table, then each penny's
                # winner. (No TrickEnd is sent for a penny-round: its cards are not played
                # by consecutive seats, which the message assumes.)
                winners = [trick.winner for trick in hand.tricks()[multi["start"] :]]
                record.setdefault("multi_rounds", []).append(
                    {"leader": multi["leader"], "plays": multi["plays"], "winners": winners}
                )
                self.multi = None
        elif kind is DecisionKind.PASS:
            record["passes"].append(entry)
        elif kind is DecisionKind.CALL:
            if hand.pass_split:  # a split: "direction" says so, "split" how each card goes
                entry["direction"] = PassDirection.SPLIT.value
                entry["split"] = [d.value for d in hand.pass_split]
            record["call"] = entry
        elif kind is DecisionKind.BID:
            self.bids.append(entry)
        elif kind is DecisionKind.NAMING:
            auction = hand.auction
            assert auction is not None
            assert hand.scoring_suit is not None
            record["auction"] = {
                "bids": self.bids,
                "declarer": decision.seat,
                "bid": auction.winning_bid,
                "standing": auction.standing is not None,
                "naming": entry,
            }
            record["scoring_suit"] = hand.scoring_suit.letter
        elif kind is DecisionKind.REVEAL:
            record.setdefault("reveals", []).append(entry)
            if hand.scoring_suit is not None:
                record["scoring_suit"] = hand.scoring_suit.letter


_PLAY = DecisionKind.PLAY
_new_tuple = tuple.__new__  # Action(...) without its Python-level __new__: every decision


def _cards(value: Any) -> list[str]:
    return [str(c) for c in value]


_SHOWN: dict[DecisionKind, Callable[[int, Any, float], dict[str, Any]]] = {
    DecisionKind.PLAY: lambda seat, card, ms: {"seat": seat, "card": str(card), "ms": ms},
    DecisionKind.PENNY_PLAY: lambda seat, move, ms: {
        "seat": seat,
        "penny": move[0],
        "card": str(move[1]),
        "ms": ms,
    },
    DecisionKind.PASS: lambda seat, cards, ms: {"seat": seat, "cards": _cards(cards), "ms": ms},
    DecisionKind.REVEAL: lambda seat, card, ms: {"seat": seat, "card": str(card), "ms": ms},
    DecisionKind.CALL: lambda seat, called, ms: {"seat": seat, "direction": str(called), "ms": ms},
    DecisionKind.BID: lambda seat, chips, ms: {"seat": seat, "bid": chips, "ms": ms},
    DecisionKind.NAMING: lambda seat, suit, ms: {"seat": seat, "suit": str(suit), "ms": ms},
}
"""A decision kind's answer in replay v1's form (the key the viewer and the verifier read)."""


def _substitute(kind: DecisionKind, default: Any) -> tuple[str, ...]:
    """What a fault record says was played instead."""
    if kind is DecisionKind.PASS:
        return tuple(_cards(default))
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
        replay = self._replay_header(games_total)
        self._emit("match", header=replay)
        void_reason: str | None = None
        try:
            for game_index in range(games_total):
                replay["games"].append(await self._play_game(game_index, games_total))
        except Exception:  # our bug, never a bot's: the match is void
            void_reason = traceback.format_exc(limit=8)
            log.exception("match %s voided by a platform error", self.match_id)
        finally:
            await self._close_seats()
        results = self._results(replay["games"])
        replay["faults"] = [fault.to_dict() for fault in self._faults]
        replay["logs"] = [cap_log(e.seat.log_excerpt()) for e in self.entrants]
        replay["notes"] = self._notes.to_replay()
        replay["result"] = {
            "void": void_reason is not None,
            "void_reason": void_reason,
            "entrants": [r.to_dict() for r in results],
        }
        replay["finished_at"] = dt.datetime.now(dt.UTC).isoformat()
        return MatchOutcome(replay, results, void_reason is not None, void_reason)

    def _replay_header(self, games_total: int) -> dict[str, Any]:
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "match_id": self.match_id,
            "started_at": dt.datetime.now(dt.UTC).isoformat(),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "match_format": "duplicate" if self.duplicate else "single",
            "time_policy": dataclasses.asdict(self.time_policy),
            "fault_policy": dataclasses.asdict(self.fault_policy),
            "entrants": [
                {"index": i, "name": e.name, "version": e.version, "label": e.seat.label}
                for i, e in enumerate(self.entrants)
            ],
            "games": [],
        }

    def _seating(self, game_index: int) -> list[int]:
        """seating[seat] = the entrant sitting there in this rotation."""
        n = self.rules.players
        seating = [0] * n
        for entrant in range(n):
            seating[(entrant + game_index) % n] = entrant
        return seating

    async def _play_game(self, game_index: int, games_total: int) -> dict[str, Any]:
        rules, n = self.rules, self.rules.players
        seating = self._seating(game_index)
        game = Game(rules, self.seed)
        record: dict[str, Any] = {"index": game_index, "seating": seating, "hands": []}
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
            record["hands"].append(await self._play_hand(game, game_index, seating))
            if self.on_progress is not None:
                self.on_progress(
                    Progress(game_index, games_total, game.hand_number, tuple(game.totals))
                )
        record["totals"] = list(game.totals)
        if rules.lives:
            record["lives"] = list(game.lives)
        record["ranking"] = list(game.ranking())
        # Together: each seat's end waits for its bot to finish the stream.
        await _together(
            self._notify(seating[seat], partial(_call, "end_game", tuple(game.totals), False))
            for seat in range(n)
        )
        return record

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

    async def _play_hand(self, game: Game, game_index: int, seating: list[int]) -> dict[str, Any]:
        hand, rules, n = game.hand, self.rules, self.rules.players
        number = game.hand_number
        scores = tuple(game.totals)
        self._pot = game.pot
        self._lives = tuple(game.lives)
        record: dict[str, Any] = {
            "number": number,
            "seed": game.hand_seeds[-1],
            "dealer": hand.dealer,
            "pass_direction": hand.pass_direction.value,
            "deal": [[str(c) for c in hand.hand_of(s)] for s in range(n)],
            "kitty": [str(c) for c in hand.kitty],
            "passes": [],
            "tricks": [],
        }
        for seat in range(n):
            view, context = hand.view(seat), self._context(seating[seat], number, scores)
            await self._notify(seating[seat], partial(_call, "hand_started", view, context))
        table = _HandTable(hand, seating, game_index, number, scores, record)
        self._emit("hand", game=game_index, hand=record)
        # The one loop: the hand says what it asks, the seat answers, the runner judges,
        # applies and records it (docs/decisions/0006-decisions-as-data.md).
        while (decision := hand.pending()) is not None:
            await self._take(table, decision)
        table.passes_done(self)
        points = game.finish_hand()
        record["points"] = list(points)
        record["totals"] = list(game.totals)
        if rules.settlement is not Settlement.POINTS:
            record["penalty_points"] = list(game.hand_points[-1])
            record["pot"] = game.pot
        if rules.lives:
            record["lives"] = list(game.lives)
        record["kitty_owner"] = hand.kitty_owner
        if isinstance(hand, DominoHand) and hand.kept_by is not None:
            # "The last survivor must keep all the cards remaining in his hand."
            record["kept"] = {"seat": hand.kept_by, "cards": [str(c) for c in hand.kept]}
        record["moon"] = self._shooter(hand)
        if record["moon"] is not None:
            self._moons[seating[record["moon"]]] += 1
        for seat in range(n):
            self._hands[seating[seat]] += 1
            await self._notify(
                seating[seat], partial(_call, "hand_ended", number, points, tuple(game.totals))
            )
        self._emit("hand_end", game=game_index, hand=record)
        return record

    def _emit(self, kind: str, **data: Any) -> None:
        """Tell the event callback; its failure is logged and never stops the match."""
        if self.on_event is None:
            return
        try:
            self.on_event({"kind": kind, **data})
        except Exception:
            log.exception("match %s: the event callback failed; the match goes on", self.match_id)

    def _shooter(self, hand: Hand) -> int | None:
        rules = self.rules
        needed = (rules.penalty_cards | rules.moon_requires).mask
        if rules.moon.value == "none" or not needed:
            return None
        twice = rules.deck_copies.twice & needed if rules.cancellation else 0  # both copies
        for seat in range(rules.players):
            taken = hand.taken(seat)
            if needed & ~taken.mask == 0 and twice & ~taken.twice == 0:
                return seat
        return None

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
        the action once through `Hand.apply`, and write it into the hand's record."""
        hand, seat, kind = table.hand, decision.seat, decision.kind
        entrant = table.seating[seat]
        if kind is not _PLAY or table.domino or "received" not in table.record:
            table.before(self, decision)
        if self._disqualified[entrant]:
            hand.apply(Action(kind, seat, decision.default))
            entry = _SHOWN[kind](seat, decision.default, 0.0)
            entry["auto"] = True
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
                shown = _SHOWN[kind](seat, value, _ms(elapsed))
                shown["fault"] = fault.kind.value
            else:
                hand.apply(_new_tuple(Action, (kind, seat, value)))
                shown = _SHOWN[kind](seat, value, _ms(elapsed))
            entry = self._noted(entrant, shown)
        await table.after(self, decision, entry)

    def _noted(self, entrant: int, record: dict[str, Any]) -> dict[str, Any]:
        """The decision's record with the bot's note on its answer, if it sent one that the
        entrant's note budget keeps (a faulty answer's note too: it says what the bot
        meant)."""
        text = self.entrants[entrant].seat.take_note()
        if text:
            note = self._notes.keep(entrant, text)
            if note is not None:
                record["note"] = note
        return record

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

    def _results(self, games: list[dict[str, Any]]) -> tuple[EntrantResult, ...]:
        n = self.rules.players
        scores, lives = match_scores(games, n)
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


def new_draws(hand: Hand, seen: int, seat: int) -> list[str]:
    """Domino Hearts: the cards `seat` drew from the stock since the first `seen` draws
    of the hand (the engine draws for a seat that cannot follow when its turn comes, so
    they are the seat to play's); [] in every other game."""
    if not isinstance(hand, DominoHand):
        return []
    fresh = hand.draws()[seen:]
    assert all(drawer == seat for _, drawer, _ in fresh), "a draw by a seat not to play"
    return [str(card) for _, _, card in fresh]


async def _together(calls: Iterable[Awaitable[None]]) -> None:
    """Await every call at once, then raise the first exception any of them raised (so
    none is left running behind a failure)."""
    for outcome in await asyncio.gather(*calls, return_exceptions=True):
        if isinstance(outcome, BaseException):
            raise outcome


async def _call(method: str, *args: Any, seat: Seat) -> None:
    """Call a notification method by name (lets notifications be built with `partial`)."""
    await getattr(seat, method)(*args)


def match_scores(games: Sequence[dict[str, Any]], players: int) -> tuple[list[int], list[int]]:
    """Per entrant, its totals summed over the games played, and (Danger Hearts) the lives
    it had left at their ends, summed likewise (0 for rules without lives)."""
    scores, lives = [0] * players, [0] * players
    for game in games:
        if "totals" not in game:
            continue
        for seat, total in enumerate(game["totals"]):
            scores[game["seating"][seat]] += total
        for seat, left in enumerate(game.get("lives", ())):
            lives[game["seating"][seat]] += left
    return scores, lives


def rank_entrants(
    scores: Sequence[int], disqualified: Sequence[bool], lives: Sequence[int] | None = None
) -> list[int]:
    """1 = best (lowest score; with `lives`, Danger Hearts: the most lives first); ties
    share a rank; disqualified entrants share the last rank.

    >>> rank_entrants([10, 5, 10, 0], [False, False, False, True])
    [2, 1, 2, 4]
    >>> rank_entrants([10, 5, 30, 0], [False] * 4, lives=[2, 0, 2, 1])
    [1, 4, 2, 3]
    """
    left = lives if lives is not None else [0] * len(scores)
    keys = [
        (dq, 0 if dq else -alive, 0 if dq else score)
        for score, dq, alive in zip(scores, disqualified, left, strict=True)
    ]
    return [1 + sum(other < key for other in keys) for key in keys]
