"""Protocol probes: malformed and out-of-order requests a bot must refuse, and live on.

Part of the checks a bot passes before it plays rated matches (`check.check_seat`, run
by `arena bot check`, `hearts-bot check` and the upload validation), whatever language
the bot is written in. Each probe opens a `PlayMatch` stream, sends what
docs/protocol.md ("Errors and status codes") says a bot must refuse, and expects the
stream to end with that status, within a deadline; after each, the bot must still
answer `Ready`. The SDK's server passes them by itself; the starter kits implement them.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import grpc
import grpc.aio
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2

from arena.engine import Rules

from .protocol import clock_message, rules_message

PROBE_DEADLINE = 5.0
"""Seconds a bot has to end one probe's stream (it answers at once when it refuses)."""
CHANNEL_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.max_receive_message_length", 1024 * 1024),
    ("grpc.enable_retries", 0),
)
INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
Request = bot_pb2.PlayMatchRequest


@dataclasses.dataclass(frozen=True)
class Probe:
    """One malformed or out-of-order stream and the status it must end with."""

    name: str
    messages: Callable[[Rules], list[bot_pb2.PlayMatchRequest]]
    expected: grpc.StatusCode


def _start(rules: Rules, request_id: int = 1) -> bot_pb2.PlayMatchRequest:
    return Request(
        request_id=request_id,
        match_start=game_pb2.MatchStart(
            match_id="protocol-probe",
            rules=rules_message(rules),
            seat=0,
            players=[game_pb2.Player(seat=s, name=f"seat {s}") for s in range(rules.players)],
            clock=clock_message(1.0, 10.0),
        ),
    )


def _end(rules: Rules, request_id: int) -> bot_pb2.PlayMatchRequest:
    return Request(
        request_id=request_id,
        match_end=game_pb2.MatchEnd(
            reason=game_pb2.MATCH_END_REASON_COMPLETED, scores=[0] * rules.players
        ),
    )


def _play_without_legal_cards(request_id: int) -> bot_pb2.PlayMatchRequest:
    state = game_pb2.HandState(seat=0, hand=["2C", "3C"], current_trick=game_pb2.Trick(leader=0))
    return Request(request_id=request_id, play_card=game_pb2.PlayCardQuery(state=state))


PROBES: tuple[Probe, ...] = (
    Probe("a query before match_start", lambda r: [_play_without_legal_cards(1)], PRECONDITION),
    Probe("a request_id of 0", lambda r: [_start(r, 0)], INVALID),
    Probe("a message with no kind", lambda r: [_start(r), Request(request_id=2)], INVALID),
    Probe("a second match_start", lambda r: [_start(r), _start(r, 2)], PRECONDITION),
    Probe(
        "a request_id that does not increase",
        lambda r: [_start(r, 5), _end(r, 5)],
        PRECONDITION,
    ),
    Probe(
        "a play_card query with no legal cards",
        lambda r: [_start(r), _play_without_legal_cards(2)],
        INVALID,
    ),
    Probe(
        "a message after match_end",
        lambda r: [_start(r), _end(r, 2), _end(r, 3)],
        PRECONDITION,
    ),
)


async def _stream_status(stub: Any, messages: list[bot_pb2.PlayMatchRequest]) -> grpc.StatusCode:
    call = stub.PlayMatch(timeout=PROBE_DEADLINE)
    try:
        for message in messages:
            await call.write(message)
        await call.done_writing()
        async for _answer in call:
            pass
        return grpc.StatusCode.OK
    except grpc.aio.AioRpcError as error:
        return error.code()
    except grpc.aio.UsageError:  # the bot ended the stream while we were still writing
        code: grpc.StatusCode = await call.code()
        return code


async def _alive(stub: Any) -> bool:
    try:
        await stub.Ready(bot_pb2.ReadyRequest(), timeout=PROBE_DEADLINE)
    except grpc.aio.AioRpcError:
        return False
    return True


async def probe_protocol(
    address: str,
    rules: Rules,
    *,
    thaw: Callable[[], None] = lambda: None,
) -> list[str]:
    """Run every probe against the bot serving at `address`; the problems found (empty:
    conformant). `thaw` lets a sandboxed bot run (it is left running, as it starts: the
    match's seat freezes it between its turns from then on)."""
    problems: list[str] = []
    channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
    try:
        stub: Any = bot_pb2_grpc.BotServiceStub(channel)  # typed for the sync API
        thaw()
        for probe in PROBES:
            code = await _stream_status(stub, probe.messages(rules))
            alive = await _alive(stub)
            if code != probe.expected:
                problems.append(
                    f"protocol: on {probe.name} the bot's stream ended with {code.name}, "
                    f"not {probe.expected.name} (docs/protocol.md, 'Errors and status codes')"
                )
            if not alive:
                problems.append(f"protocol: after {probe.name} the bot no longer answers Ready")
                break
    finally:
        await channel.close(None)
    return problems


def run_probes(address: str, rules: Rules) -> list[str]:
    """`probe_protocol` from synchronous code."""
    return asyncio.run(probe_protocol(address, rules))
