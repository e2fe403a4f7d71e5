"""`GrpcSeat`: a bot reached over `hearts.v1` — one PlayMatch stream per game, answers awaited
under the seat's clock, every failure turned into a `SeatFault`.

A background task reads the stream into a queue, so a timed-out query leaves the stream
intact: the late answer arrives with an older request id and is dropped. A broken stream
is reopened once per decision with `MatchStart.resumed`; a dead process is a crash.
A stream that fails (an answer over the receive cap, one that does not parse, any error
status) takes its connection with it at once: grpc's core reads a connection for as long
as it is open, so a bot that announced a huge answer could otherwise make the runner read
junk for the rest of its turn; the next stream dials a new connection.
Play queries are one message per game, patched in place (`protocol.PlayRequests`): the
runner's time per decision is mostly gRPC's, and this keeps the rest small.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

import grpc

from arena.engine import SeatView, Trick
from arena.engine.decisions import Decision, DecisionKind

from . import protocol
from .faults import FaultKind, SeatFault, exit_fault_kind
from .inbox import Inbox
from .protocol import bot_pb2, bot_pb2_grpc, game_pb2
from .seats import LATER_KINDS, DecisionContext, GameInfo

log = logging.getLogger(__name__)

_STREAM_END = object()
_EOF: Any = grpc.aio.EOF  # type: ignore[attr-defined]  # missing from the grpc stubs
_EXCHANGES = protocol.EXCHANGES
MAX_ANSWER_BYTES = 256 * 1024
"""The largest answer the runner takes (gRPC's receive cap); a larger one is refused."""
CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", MAX_ANSWER_BYTES),
    ("grpc.enable_retries", 0),
    # Each channel its own connection: one dialled after a hang-up never gets the old one.
    ("grpc.use_local_subchannel_pool", 1),
)
_TOO_LARGE = re.compile(r"larger than max \((\d+) vs\. (\d+)\)")


class _UnreadableAnswerError(ValueError):
    """An answer that does not parse as a PlayMatchResponse (grpc hands on None)."""


def _refused(item: object) -> SeatFault | None:
    """The fault of an answer the bot sent that the runner cannot take (over the receive
    cap, not a PlayMatchResponse) or of its own error status (INTERNAL: its code raised,
    or grpc refused what it sent); None for a stream that broke or ended otherwise.

    >>> _refused(_UnreadableAnswerError("no PlayMatchResponse")).detail
    'unreadable answer: no PlayMatchResponse; the connection was closed'
    >>> _refused(None) is None  # the stream's end: no answer refused
    True
    """
    closed = "the connection was closed"
    if isinstance(item, _UnreadableAnswerError):
        return SeatFault(FaultKind.MALFORMED, f"unreadable answer: {item}; {closed}")
    if not isinstance(item, grpc.aio.AioRpcError):
        return None
    code, details = item.code(), item.details() or ""
    if code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        size = _TOO_LARGE.search(details)
        if size is not None:
            announced, limit = size.groups()
            return SeatFault(
                FaultKind.MALFORMED,
                f"the answer announced {announced} bytes, over the {limit}-byte limit; {closed}",
            )
        return SeatFault(FaultKind.MALFORMED, f"the answer was refused: {details}; {closed}")
    if code is grpc.StatusCode.INTERNAL:
        return SeatFault(FaultKind.ERROR, f"the bot failed: {details}")
    return None


class BotHost(Protocol):
    """What runs the bot: a local process or a sandbox (or nothing, for a bare address)."""

    address: str

    def wait_ready(self, timeout: float) -> bool:
        """True once the bot's server is listening."""
        ...

    def exit_reason(self) -> object | None:
        """Why the bot's process ended (its text says it, and says "before it was ready"
        of a bot that ended before its readiness line: the seat adds nothing; a `kind`
        attribute, such as the sandbox's ExitReason's "memory" or "cpu_time", types the
        fault), or None while it runs."""
        ...

    def log_excerpt(self) -> str:
        """The bot's captured output, capped."""
        ...

    def stop(self) -> None:
        """Stop everything the bot started."""
        ...


class TurnHost(Protocol):
    """A `BotHost` that can stop its bot between turns (the sandbox's, with a cgroup).

    The seat thaws the bot before each request and freezes it once the answer is in, so a
    bot runs on its own time only; notifications are written to it frozen (they wait in its
    socket until its next turn), and it is thawed at a game's end to read to the end.
    """

    def thaw(self) -> None:
        """Let the bot run."""
        ...

    def freeze(self) -> None:
        """Stop the bot until the next `thaw`."""
        ...


def turn_host(host: object) -> TurnHost | None:
    """`host` if it can freeze its bot between turns, else None."""
    if callable(getattr(host, "thaw", None)) and callable(getattr(host, "freeze", None)):
        return cast(TurnHost, host)
    return None


class GrpcSeat:
    """A remote bot; `host` (when given) is stopped with the seat, and, if it can (a
    `TurnHost`), keeps the bot frozen while it is not its turn."""

    def __init__(
        self,
        address: str,
        label: str,
        *,
        host: BotHost | None = None,
        names: Sequence[str] = (),
        connect: Callable[[str], grpc.aio.Channel] | None = None,
    ) -> None:
        self.address = address
        self.label = label
        self.host = host
        self._turns = turn_host(host)
        self.names = tuple(names)
        self._connect = connect or (
            lambda target: grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)
        )
        self._channel: grpc.aio.Channel | None = None
        self._stub: Any = None
        self._call: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._answers: Inbox[Any] = Inbox()
        self._next_id = 0
        self._wants_notifications = False
        self._later_answered: frozenset[str] = frozenset()  # listed in its match_start answer
        self._broken: str | None = None
        self._info: GameInfo | None = None
        self._hands = 0
        self._ready = False
        self._plays: protocol.PlayRequests | None = None
        self._note = ""  # the last answer's note, until the runner takes it

    # -- connection ----------------------------------------------------------------

    async def _wait_ready(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        if self.host is not None:
            ready = await asyncio.to_thread(self.host.wait_ready, timeout)
            if not ready:
                reason = self.host.exit_reason()
                if reason is not None:  # its words say it was before readiness
                    raise SeatFault(exit_fault_kind(reason), f"the bot {reason}")
                raise SeatFault(FaultKind.NOT_READY, f"the bot was not ready within {timeout:g} s")
        self._dial()
        last = "no answer"
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise SeatFault(
                    FaultKind.NOT_READY, f"Ready got no answer within {timeout:g} s ({last})"
                )
            try:
                await self._stub.Ready(bot_pb2.ReadyRequest(), timeout=min(remaining, 1.0))
                self._ready = True
                return
            except grpc.aio.AioRpcError as error:
                last = f"{error.code().name}: {error.details()}"
                crashed = self._crash_fault()
                if crashed:
                    raise crashed from None
                await asyncio.sleep(0.02)

    def _dial(self) -> None:
        """A new channel (its connection is made on first use) and its stub."""
        self._channel = self._connect(self.address)
        self._stub = bot_pb2_grpc.BotServiceStub(self._channel)

    def _crash_fault(self) -> SeatFault | None:
        """The fault of a bot whose process ended (its kind typed by the host's exit:
        out of memory, CPU limit, else a crash); None while it runs."""
        if self.host is None:
            return None
        reason = self.host.exit_reason()
        if reason is None:
            return None
        return SeatFault(exit_fault_kind(reason), f"the bot process {reason}")

    async def _open_stream(self, resumed: bool) -> None:
        assert self._info is not None
        await self._drop_stream()
        if self._channel is None:  # hung up after a failed stream
            self._dial()
        self._call = self._stub.PlayMatch()
        self._answers = Inbox()
        self._reader = asyncio.create_task(self._read(self._call, self._answers))
        self._broken = None
        start = protocol.match_start(
            self._info, self.names or [f"seat {s}" for s in range(self._info.rules.players)]
        )
        start.resumed = resumed
        answer = await self._exchange_on_turn(
            self._info.time.ready_timeout,
            "match_start",
            bot_pb2.PlayMatchRequest(match_start=start),
        )
        self._wants_notifications = answer.match_start.wants_notifications
        self._later_answered = frozenset(answer.match_start.answers)
        self._note = ""  # a note on match_start belongs to no decision: ignored
        missing = protocol.unread_rules(self._info.rules, answer.match_start.reads)
        if missing:  # out before its first card, not failing on a state it refuses
            raise SeatFault(FaultKind.UNSUPPORTED_RULES, protocol.unread_rules_detail(missing))

    async def _read(self, call: Any, answers: Inbox[Any]) -> None:
        """Hand the stream's answers to `answers`, then what ended it. A failure (an error
        status, such as the receive cap's RESOURCE_EXHAUSTED, or an answer that does not
        parse) hangs the connection up before it is handed on."""
        failure: Exception | None = None
        try:
            while (response := await call.read()) is not _EOF:
                if response is None:  # grpc logs a failed parse and hands on None
                    failure = _UnreadableAnswerError(
                        "the answer does not parse as a PlayMatchResponse"
                    )
                    break
                answers.put(response)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # an error status (AioRpcError), or a read grpc refused
            failure = error.with_traceback(None)  # its frames hold the call (see _hang_up)
        ours = call is self._call  # not a stream the seat has already dropped
        del call  # the seat's reference is then the call's last (see _hang_up)
        if failure is not None:
            if ours:
                await self._hang_up()
            answers.put(failure)
        answers.put(_STREAM_END)

    async def _hang_up(self) -> None:
        """Close the connection now: cancel the call, drop every reference to it and close
        the channel. grpc's core keeps reading a connection while a call on it lives (a
        cancelled call too), so a bot streaming junk after a refused answer would cost
        the runner CPU for as long as its turn lasts; with the call gone and the channel
        closed the socket is closed and the bot's next write fails (EPIPE). The next
        stream dials a new channel (`_open_stream`)."""
        call, channel = self._call, self._channel
        self._call = self._channel = self._stub = None
        if call is not None:
            call.cancel()
            del call
        if channel is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(channel.close(None))

    async def _drop_stream(self) -> None:
        if self._call is not None:
            self._call.cancel()
            self._call = None
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None

    # -- one query -------------------------------------------------------------------

    async def _stream_fault(self, item: object) -> SeatFault:
        refused = _refused(item)
        if refused is not None:  # the bot's answer, not its death: no waiting for one
            return self._crash_fault() or refused
        # A dying process closes its sockets before it can be reaped: give it a moment,
        # so a crash is reported as a crash and not as a dropped connection.
        crashed = self._crash_fault()
        for _ in range(25):
            if crashed or self.host is None:
                break
            await asyncio.sleep(0.01)
            crashed = self._crash_fault()
        if crashed:
            return crashed
        if isinstance(item, grpc.aio.AioRpcError):
            code, details = item.code(), item.details() or ""
            if code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION):
                return SeatFault(
                    FaultKind.DISCONNECT, f"the bot rejected the request ({code.name}): {details}"
                )
            return SeatFault(FaultKind.DISCONNECT, f"the stream ended: {code.name} {details}")
        if isinstance(item, Exception):
            return SeatFault(FaultKind.MALFORMED, f"unreadable answer: {item}")
        return SeatFault(FaultKind.DISCONNECT, "the bot closed the stream")

    async def _exchange(self, timeout: float, expected: str, request: Any) -> Any:
        """Send one query (its request_id is set here) and await its answer under
        `timeout` (raises SeatFault)."""
        self._next_id += 1
        request.request_id = request_id = self._next_id
        # The deadline is kept on the real clock: an event loop's timers may fire a little
        # early (uvloop's have millisecond resolution and a cached "now"), and a bot must
        # never lose a decision before its allowance is over.
        end = time.perf_counter() + timeout
        writing = True
        try:
            # One timer for the write and the answer: each asyncio.timeout is a timer
            # handle and a context object, and this is every decision's hot path.
            async with asyncio.timeout(timeout):
                try:
                    await self._call.write(request)
                except (
                    grpc.aio.AioRpcError,
                    grpc.aio.UsageError,
                    asyncio.InvalidStateError,
                ) as error:
                    self._broken = str(error)
                    raise await self._stream_fault(await self._failure(error)) from None
                writing = False
                item = await self._answer(request_id)
        except TimeoutError:
            if writing:
                raise self._timeout_fault(timeout) from None
            item = await self._late_answer(request_id, end, timeout)
        if item is _STREAM_END or isinstance(item, Exception):
            self._broken = "stream ended"
            raise await self._stream_fault(item)
        if item.request_id != request_id:
            raise SeatFault(
                FaultKind.MALFORMED, f"answer for request {item.request_id}, expected {request_id}"
            )
        got = item.WhichOneof("kind")
        if got != expected:
            raise SeatFault(
                FaultKind.MALFORMED, f"answered {got or 'nothing'} to a {expected} query"
            )
        self._note = item.note
        return item

    async def _failure(self, otherwise: object) -> object:
        """What ended the stream as its reader hands it on (an answer refused, say: a
        write on the ended call only says that it is over), or `otherwise` if the reader
        says nothing but the end within a second."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                item = await self._answer(self._next_id + 1)
                if isinstance(item, Exception):
                    return item
        return otherwise

    @staticmethod
    def _timeout_fault(timeout: float) -> SeatFault:
        return SeatFault(FaultKind.TIMEOUT, f"no answer within {timeout * 1000:.0f} ms")

    async def _answer(self, request_id: int) -> Any:
        """The first answer from the stream's reader with an id of at least `request_id`
        (older ids are late answers to queries that timed out), or the item that ended
        the stream."""
        while True:
            item = await self._answers.get()  # cancelling a get loses no item
            if item is _STREAM_END or isinstance(item, Exception) or item.request_id >= request_id:
                return item

    async def _late_answer(self, request_id: int, end: float, timeout: float) -> Any:
        """The answer after the timer fired: a timer that fired early (`end`, a
        `time.perf_counter` value, has not passed) waits again; TIMEOUT once it has."""
        while (remaining := end - time.perf_counter()) > 0:
            try:
                async with asyncio.timeout(remaining):
                    return await self._answer(request_id)
            except TimeoutError:
                continue
        raise self._timeout_fault(timeout)

    async def _query(self, timeout: float, expected: str, request: Any) -> Any:
        if self._broken is None and self._call is None:
            # Its reader hung up since the last decision (a late answer refused, say):
            # that failure is this decision's fault.
            self._broken = "hung up"
            raise await self._stream_fault(await self._failure(_STREAM_END))
        if self._broken is not None:
            crashed = self._crash_fault()
            if crashed:
                raise crashed
            try:  # one reconnection attempt per decision
                await self._open_stream(resumed=True)
            except SeatFault as fault:
                raise SeatFault(fault.kind, f"reconnecting failed: {fault.detail}") from None
        return await self._exchange_on_turn(timeout, expected, request)

    async def _exchange_on_turn(self, timeout: float, expected: str, request: Any) -> Any:
        """`_exchange`, with the bot thawed from the request until its answer (or fault)."""
        if self._turns is None:
            return await self._exchange(timeout, expected, request)
        self._turns.thaw()
        try:
            return await self._exchange(timeout, expected, request)
        finally:
            self._turns.freeze()

    # -- the Seat protocol -------------------------------------------------------------

    async def start_game(self, info: GameInfo) -> None:
        """Wait for the bot (first game only) and open this game's stream."""
        self._info = info
        self._hands = 0
        self._plays = protocol.PlayRequests()
        if not self._ready:
            await self._wait_ready(info.time.ready_timeout)
        await self._open_stream(resumed=False)

    def answers(self, kind: DecisionKind) -> bool:
        """A later query (`LATER_KINDS`) only if the bot listed it in its match_start
        answer (`MatchStartAnswer.answers`); every other kind always."""
        return kind not in LATER_KINDS or _EXCHANGES[kind].field in self._later_answered

    async def decide(
        self, decision: Decision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Any:
        """Ask the decision with its kind's messages (`protocol.EXCHANGES`, the one table);
        a play's request is this game's patched message (`protocol.PlayRequests`)."""
        exchange = _EXCHANGES[decision.kind]
        field = exchange.field
        if field == "play_card":
            assert self._plays is not None
            request = self._plays(view, context)
        else:
            request = protocol.request_for(decision, view, context)
        answer = await self._query(timeout, field, request)
        return exchange.read(getattr(answer, field))

    async def _notify(self, **kind: Any) -> None:
        """Write a notification with the bot as it is (frozen off-turn): it waits in the
        bot's socket, and the bot, reading its stream in order, handles it on its next
        turn, on its own clock. Not thawing for it saves two freezer writes and the wake-up
        of every thread of the bot per notification (docs/decisions/0004); what can pile up
        between two turns is a few tricks' worth, far within the socket's buffer and the
        stream's flow-control window."""
        if self._broken is not None or self._call is None:
            return
        self._next_id += 1
        try:
            async with asyncio.timeout(1.0):  # not wait_for: no task per notification
                await self._call.write(bot_pb2.PlayMatchRequest(request_id=self._next_id, **kind))
        except (
            TimeoutError,
            grpc.aio.AioRpcError,
            grpc.aio.UsageError,
            asyncio.InvalidStateError,
        ) as error:
            self._broken = f"notification failed: {error}"

    def _thaw_to_deliver(self) -> None:
        """Thawed at the game's end, so that it reads what is waiting in its stream (its
        notifications and MatchEnd) to the end and closes it."""
        if self._turns is not None:
            self._turns.thaw()

    def _freeze_after_delivery(self) -> None:
        """Frozen again once the game's stream is closed, until the next game's start."""
        if self._turns is not None:
            self._turns.freeze()

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        """Notification, if the bot asked for them."""
        if self._wants_notifications:
            await self._notify(hand_start=protocol.hand_start(view, context))

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        """Notification, if the bot asked for them."""
        if self._wants_notifications and self._info is not None and self._info.rules.domino:
            # Domino Hearts: a trick holds one card per seat still in, which TrickEnd's
            # "seat (leader + i) % players" cannot say.
            await self._notify(
                domino_trick_end=protocol.domino_trick_end(hand_number, trick_number, trick)
            )
        elif self._wants_notifications:
            await self._notify(
                trick_end=game_pb2.TrickEnd(
                    hand_number=hand_number,
                    trick_number=trick_number,
                    trick=protocol.trick_message(
                        trick, None if self._info is None else self._info.rules.players
                    ),
                )
            )

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        """Notification, if the bot asked for them."""
        self._hands += 1
        if self._wants_notifications:
            await self._notify(
                hand_end=game_pb2.HandEnd(
                    hand_number=hand_number, hand_scores=list(points), scores=list(totals)
                )
            )

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        """Always sent: MatchEnd; then the stream is half-closed, and dropped once the bot
        has ended it (it reads everything first, so `on_match_end` runs before the bot
        host may be stopped) or after a second."""
        await self._notify(match_end=protocol.match_end(totals, self._hands, aborted))
        self._thaw_to_deliver()  # thawed while it reads to the end and closes the stream
        if self._call is not None and self._broken is None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    await self._call.done_writing()
                    if self._reader is not None:
                        await self._reader  # ends with the stream's status
        await self._drop_stream()
        self._freeze_after_delivery()  # and frozen between games

    async def close(self) -> None:
        """Drop the stream and channel and stop the bot's host."""
        await self._drop_stream()
        if self._channel is not None:
            with contextlib.suppress(Exception):
                await self._channel.close(None)
            self._channel = None
        if self.host is not None:
            await asyncio.to_thread(self.host.stop)

    def log_excerpt(self) -> str:
        """The host's captured output (nothing for a bare address)."""
        return self.host.log_excerpt() if self.host is not None else ""

    def take_note(self) -> str:
        """The last answer's note, as the bot sent it (the runner cleans and bounds it)."""
        note, self._note = self._note, ""
        return note
