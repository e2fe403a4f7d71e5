"""Protocol benchmarks: raw gRPC round trips, a decision through the SDK, a match's pace.

``python -m arena.benchmarks.protocol`` (and ``arena bench protocol``, which calls `run`)
measures,
with every server in its own process on Unix sockets and a grpc.aio client:

* ``raw unary`` / ``raw stream``: a trivial ~200-byte echo, as a unary call and as one
  message on a long-lived bidirectional stream (gRPC alone, no SDK);
* ``decision``: a full mid-hand PlayCardQuery through the SDK's server to a trivial bot;
* ``match``: decisions per second for four trivial SDK bots in four processes, asked in
  turn as a match does (a load generator deals and plays real hands, following suit);
* with ``--compare``, the same match pace over raw echo servers with unary calls and with
  streams (the figures behind docs/decisions/0002-protocol-transport.md).

The numbers are per round trip, medians over a few repeats (min..max in brackets).

It used to ship inside the SDK (``hearts_bot.bench``); it is the arena's tooling, not
what a bot needs to serve, so it lives here: the SDK's wheel carries only the serving
path and the contestant's commands (docs/benchmarks.md, "Starting a bot").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from concurrent import futures
from typing import Any

import grpc
import grpc.aio
from hearts_bot.bot import Bot
from hearts_bot.cards import DECK, Card, card_order, rank_of
from hearts_bot.convert import pass_direction_to_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2
from hearts_bot.rules import PassDirection, RulesView
from hearts_bot.server import READY_PREFIX
from hearts_bot.views import PassView, PlayView

_EOF: Any = grpc.aio.EOF  # type: ignore[attr-defined]  # missing from the grpc stubs
ECHO_SERVICE = "bench.Echo"
READY_TIMEOUT_SECONDS = 20.0
CALL_TIMEOUT_SECONDS = 600.0
CLOSE_GRACE_SECONDS = 10.0  # for a bot to read what is left and end the stream
TRIVIAL_PAYLOAD_BYTES = 200


class FirstLegalBot(Bot):
    """The trivial bot of the benchmarks: the first legal card, the first cards of the hand."""

    def pass_cards(self, view: PassView) -> list[Card]:
        return list(view.passable[: view.count])

    def play_card(self, view: PlayView) -> Card:
        return view.legal[0]


@dataclasses.dataclass(frozen=True)
class Measure:
    """One benchmark figure: the median of `samples` (seconds per call, or a rate)."""

    name: str
    samples: tuple[float, ...]
    unit: str  # "s" (per round trip) or "decisions/s"
    detail: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def format(self) -> str:
        """A human line: ``name  0.312 ms  [0.301..0.340]  detail``."""

        def show(value: float) -> str:
            return f"{value * 1000:.3f} ms" if self.unit == "s" else f"{value:,.0f} {self.unit}"

        low, high = min(self.samples), max(self.samples)
        spread = f"[{show(low)} .. {show(high)}]"
        return f"{self.name:<34} {show(self.median):>18}  {spread:<40} {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        """For --json."""
        return {
            "name": self.name,
            "unit": self.unit,
            "median": self.median,
            "samples": list(self.samples),
            "detail": self.detail,
        }


# -- processes ---------------------------------------------------------------------------


@contextlib.contextmanager
def server_processes(commands: Sequence[Sequence[str]]) -> Iterator[list[str]]:
    """Start each command (which must print a READY line with its address); yield the
    addresses; kill every process on exit, whatever happens."""
    processes: list[subprocess.Popen[str]] = []
    try:
        addresses = []
        for command in commands:
            process = subprocess.Popen(
                list(command), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
            processes.append(process)
            addresses.append(wait_ready(process))
        yield addresses
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()


def wait_ready(process: subprocess.Popen[str], timeout: float = READY_TIMEOUT_SECONDS) -> str:
    """The address from the process's ``HEARTS-BOT READY <address>`` line.

    Raises RuntimeError if the process exits or stays silent for `timeout` seconds.
    """
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([process.stdout], [], [], left)
        if not readable:
            break
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"{process.args!r} exited ({process.wait()}) before it was ready")
        if line.startswith(READY_PREFIX):
            return line.removeprefix(READY_PREFIX).strip()
    raise RuntimeError(f"{process.args!r} printed no ready line in {timeout:.0f} s")


def bot_command(spec: str, address: str) -> list[str]:
    """The command that serves the bot `spec` at `address` (what the arena runs too)."""
    return [sys.executable, "-m", "hearts_bot", "serve", spec, "--address", address]


def echo_command(address: str) -> list[str]:
    """The command that runs a raw echo server at `address`."""
    return [sys.executable, "-m", "arena.benchmarks.protocol", "echo-server", address]


def _identity(data: bytes) -> bytes:
    return data


def echo_server(address: str) -> None:
    """A raw gRPC echo server (unary and bidirectional stream); runs until killed."""

    def unary(request: bytes, context: grpc.ServicerContext) -> bytes:
        return request

    def stream(requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        yield from requests

    handler = grpc.method_handlers_generic_handler(
        ECHO_SERVICE,
        {
            "Unary": grpc.unary_unary_rpc_method_handler(unary, _identity, _identity),
            "Stream": grpc.stream_stream_rpc_method_handler(stream, _identity, _identity),
        },
    )
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=4),
        handlers=[handler],
        options=[("grpc.so_reuseport", 0)],
    )
    server.add_insecure_port(address)
    server.start()
    print(f"{READY_PREFIX} {address}", flush=True)
    server.wait_for_termination()


# -- clients -------------------------------------------------------------------------------


class RoundTrip:
    """One way of sending a message to one server and awaiting its answer."""

    async def __call__(self, payload: Any) -> Any:
        raise NotImplementedError

    async def close(self) -> None:
        """Release the call and the channel."""


class UnaryEcho(RoundTrip):
    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.call = self.channel.unary_unary(
            f"/{ECHO_SERVICE}/Unary", request_serializer=_identity, response_deserializer=_identity
        )

    async def __call__(self, payload: Any) -> Any:
        return await self.call(payload, timeout=CALL_TIMEOUT_SECONDS)

    async def close(self) -> None:
        await self.channel.close(None)


class StreamEcho(RoundTrip):
    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.stream = self.channel.stream_stream(
            f"/{ECHO_SERVICE}/Stream", request_serializer=_identity, response_deserializer=_identity
        )(timeout=CALL_TIMEOUT_SECONDS)  # type: ignore[call-arg]  # the stubs want an iterator

    async def __call__(self, payload: Any) -> Any:
        await self.stream.write(payload)
        return await self.stream.read()

    async def close(self) -> None:
        await self.stream.done_writing()
        self.stream.cancel()
        await self.channel.close(None)


class BotStream(RoundTrip):
    """A PlayMatch stream to an SDK bot: `__call__` sends a request and, for a query,
    awaits the answer (checking its request_id); notifications are only written."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.stream = bot_pb2_grpc.BotServiceStub(self.channel).PlayMatch(  # type: ignore[call-arg]
            timeout=CALL_TIMEOUT_SECONDS
        )
        self.next_id = 0
        self.wants_notifications = False

    def request(self, **kind: Any) -> bot_pb2.PlayMatchRequest:
        self.next_id += 1
        return bot_pb2.PlayMatchRequest(request_id=self.next_id, **kind)

    async def __call__(self, payload: Any) -> Any:
        request = (
            payload if isinstance(payload, bot_pb2.PlayMatchRequest) else self.request(**payload)
        )
        await self.stream.write(request)
        if request.WhichOneof("kind") not in ("match_start", "pass_cards", "play_card"):
            return None
        answer: Any = await self.stream.read()
        if answer is _EOF or answer.request_id != request.request_id:
            raise RuntimeError(f"bad answer to request {request.request_id}: {answer!r}")
        return answer

    async def start(self, match_start: game_pb2.MatchStart) -> None:
        answer = await self(self.request(match_start=match_start))
        self.wants_notifications = answer.match_start.wants_notifications

    async def close(self) -> None:
        """Half-close, then wait (boundedly) for the bot to end the stream: cancelling at
        once could drop the last notifications before the bot has read them."""
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.stream.done_writing()
        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.TimeoutError):
            await asyncio.wait_for(self._drain(), CLOSE_GRACE_SECONDS)
        self.stream.cancel()
        await self.channel.close(None)

    async def _drain(self) -> None:
        """Read until the bot ends the stream; what it still sends is not wanted."""
        while await self.stream.read() is not _EOF:
            continue


async def time_calls(send: Callable[[], Awaitable[Any]], calls: int, warmup: int = 200) -> float:
    """Seconds per call of `send`, after `warmup` untimed calls."""
    for _ in range(warmup):
        await send()
    start = time.perf_counter()
    for _ in range(calls):
        await send()
    return (time.perf_counter() - start) / calls


# -- realistic messages: a load generator that deals and plays (following suit only) ------

STANDARD = RulesView()


def match_start_message(seat: int, rules: RulesView = STANDARD) -> game_pb2.MatchStart:
    """A MatchStart for `seat` (one second per decision, a ten-second bank)."""
    return game_pb2.MatchStart(
        match_id="bench",
        rules=rules_to_proto(rules),
        seat=seat,
        players=[game_pb2.Player(seat=s, name=f"bot {s}") for s in range(rules.players)],
        clock=_clock(),
    )


def _clock() -> game_pb2.Clock:
    clock = game_pb2.Clock()
    clock.per_decision.FromMilliseconds(1000)
    clock.bank_remaining.FromMilliseconds(10_000)
    return clock


class HandDriver:
    """Plays hands of the standard game against four PlayMatch streams, in turn.

    Not a rules engine: it follows suit and nothing else, which is all a load needs.
    Counts the queries it sends.
    """

    def __init__(self, seats: Sequence[RoundTrip], seed: int = 1) -> None:
        self.seats = seats
        self.rng = random.Random(seed)
        self.rules_message = rules_to_proto(STANDARD)
        self.scores = [0] * 4
        self.decisions = 0

    def _state(self, seat: int, hand_number: int, hand: list[Card], **more: Any) -> Any:
        return game_pb2.HandState(
            rules=self.rules_message,
            seat=seat,
            hand_number=hand_number,
            dealer=hand_number % 4,
            hand=sorted(hand, key=card_order),
            scores=self.scores,
            clock=_clock(),
            **more,
        )

    async def _ask(self, seat: int, **kind: Any) -> bot_pb2.PlayMatchResponse:
        self.decisions += 1
        answer: bot_pb2.PlayMatchResponse = await self.seats[seat](kind)
        return answer

    async def _notify(self, seat: int, **kind: Any) -> None:
        stream = self.seats[seat]
        if isinstance(stream, BotStream) and stream.wants_notifications:
            await stream(kind)

    async def play_hand(self, hand_number: int) -> None:
        deck = list(DECK)
        self.rng.shuffle(deck)
        hands = [deck[i * 13 : (i + 1) * 13] for i in range(4)]
        direction = STANDARD.pass_direction(hand_number)
        pb_direction = pass_direction_to_proto(direction)
        for seat in range(4):
            await self._notify(
                seat,
                hand_start=game_pb2.HandStart(
                    hand_number=hand_number,
                    dealer=hand_number % 4,
                    hand=hands[seat],
                    pass_direction=pb_direction,
                    scores=self.scores,
                ),
            )
        passed: list[list[Card]] = [[] for _ in range(4)]
        received: list[list[Card]] = [[] for _ in range(4)]
        if direction is not PassDirection.HOLD:
            offset = {PassDirection.LEFT: 1, PassDirection.RIGHT: 3, PassDirection.ACROSS: 2}
            for seat in range(4):
                to = (seat + offset[direction]) % 4
                answer = await self._ask(
                    seat,
                    pass_cards=game_pb2.PassCardsQuery(
                        state=self._state(
                            seat, hand_number, hands[seat], pass_direction=pb_direction
                        ),
                        direction=pb_direction,
                        count=3,
                        recipients=[to] * 3,
                    ),
                )
                chosen = list(answer.pass_cards.cards)
                if len(set(chosen)) != 3 or not set(chosen) <= set(hands[seat]):
                    chosen = hands[seat][:3]
                passed[seat] = chosen
                received[to] = chosen
            for seat in range(4):
                hands[seat] = [c for c in hands[seat] if c not in passed[seat]] + received[seat]
        leader = next(seat for seat in range(4) if "2C" in hands[seat])
        tricks: list[game_pb2.Trick] = []
        for trick_number in range(13):
            cards: list[Card] = []
            for turn in range(4):
                seat = (leader + turn) % 4
                hand = hands[seat]
                follow = [c for c in hand if cards and c[1] == cards[0][1]]
                legal = sorted(follow or hand, key=card_order)
                if trick_number == 0 and turn == 0:
                    legal = ["2C"]
                answer = await self._ask(
                    seat,
                    play_card=game_pb2.PlayCardQuery(
                        state=self._state(
                            seat,
                            hand_number,
                            hand,
                            pass_direction=pb_direction,
                            passed=passed[seat],
                            received=received[seat],
                            tricks=tricks,
                            current_trick=game_pb2.Trick(leader=leader, cards=cards),
                        ),
                        legal_cards=legal,
                    ),
                )
                card = answer.play_card.card if answer.play_card.card in legal else legal[0]
                hand.remove(card)
                cards.append(card)
            led = cards[0][1]
            best = max((i for i in range(4) if cards[i][1] == led), key=lambda i: rank_of(cards[i]))
            winner = (leader + best) % 4
            trick = game_pb2.Trick(leader=leader, cards=cards, winner=winner)
            tricks.append(trick)
            for seat in range(4):
                await self._notify(
                    seat,
                    trick_end=game_pb2.TrickEnd(
                        hand_number=hand_number, trick_number=trick_number, trick=trick
                    ),
                )
            leader = winner
        for seat in range(4):
            await self._notify(
                seat,
                hand_end=game_pb2.HandEnd(
                    hand_number=hand_number, hand_scores=[0] * 4, scores=self.scores
                ),
            )


# -- the benchmarks --------------------------------------------------------------------------


async def _raw(kind: Callable[[str], RoundTrip], address: str, calls: int) -> float:
    client = kind(address)
    payload = os.urandom(TRIVIAL_PAYLOAD_BYTES)
    try:
        return await time_calls(lambda: client(payload), calls)
    finally:
        await client.close()


def _decision_request(stream: BotStream) -> Callable[[], Awaitable[Any]]:
    """A mid-hand query (trick 6, two cards on the table), as a runner would send it."""
    rules = rules_to_proto(STANDARD)
    tricks = [
        game_pb2.Trick(leader=t % 4, cards=[DECK[t * 4 + i] for i in range(4)], winner=t % 4)
        for t in range(6)
    ]
    hand = ["2S", "5S", "9S", "QS", "3H", "8H", "KH"]
    state = game_pb2.HandState(
        rules=rules,
        seat=2,
        hand_number=3,
        dealer=3,
        hand=hand,
        scores=[12, 30, 7, 51],
        pass_direction=pass_direction_to_proto("hold"),
        tricks=tricks,
        current_trick=game_pb2.Trick(leader=0, cards=["4S", "JS"]),
        broken=True,
        clock=_clock(),
    )
    query = game_pb2.PlayCardQuery(state=state, legal_cards=["2S", "5S", "9S", "QS"])
    return lambda: stream({"play_card": query})


async def _decision(address: str, calls: int) -> float:
    stream = BotStream(address)
    try:
        await stream.start(match_start_message(2))
        return await time_calls(_decision_request(stream), calls)
    finally:
        await stream.close()


async def match_pace(addresses: Sequence[str], hands: int, transport: str) -> float:
    """Decisions per second over `hands` hands played in turn against the servers at
    `addresses`; transport: sdk (bots), or unary or stream (raw echo servers: the
    transport alone, as `arena bench match` also reports it)."""
    seats: list[RoundTrip]
    if transport == "sdk":
        streams = [BotStream(address) for address in addresses]
        for seat, stream in enumerate(streams):
            await stream.start(match_start_message(seat))
        seats = list(streams)
    else:
        kind: Callable[[str], RoundTrip] = UnaryEcho if transport == "unary" else StreamEcho
        seats = [_EchoSeat(kind(address)) for address in addresses]
    driver = HandDriver(seats)
    try:
        await driver.play_hand(0)  # warm-up
        driver.decisions = 0
        start = time.perf_counter()
        for hand_number in range(1, hands + 1):
            await driver.play_hand(hand_number)
        return driver.decisions / (time.perf_counter() - start)
    finally:
        for each in seats:
            await each.close()


class _EchoSeat(RoundTrip):
    """A seat backed by a raw echo server: sends the real request bytes and gets them
    back, answering with the first legal card (transport cost only, no SDK)."""

    def __init__(self, inner: RoundTrip) -> None:
        self.inner = inner
        self.next_id = 0

    async def __call__(self, payload: Any) -> Any:
        self.next_id += 1
        request = bot_pb2.PlayMatchRequest(request_id=self.next_id, **payload)
        echoed = bot_pb2.PlayMatchRequest.FromString(await self.inner(request.SerializeToString()))
        if echoed.HasField("play_card"):
            card = echoed.play_card.legal_cards[0]
            return bot_pb2.PlayMatchResponse(
                request_id=self.next_id, play_card=game_pb2.PlayCardAnswer(card=card)
            )
        cards = echoed.pass_cards.state.hand[:3]
        return bot_pb2.PlayMatchResponse(
            request_id=self.next_id, pass_cards=game_pb2.PassCardsAnswer(cards=cards)
        )

    async def close(self) -> None:
        await self.inner.close()


def run(
    *,
    calls: int = 2000,
    hands: int = 20,
    repeats: int = 3,
    compare: bool = False,
    bot: str = "arena.benchmarks.protocol:FirstLegalBot",
    progress: Callable[[str], None] | None = None,
) -> list[Measure]:
    """Run the protocol benchmarks; every server runs in its own process.

    `calls` round trips per sample, `hands` hands per match sample, `repeats` samples
    per figure; `compare` adds the unary-vs-stream match comparison over raw echo
    servers. Raises RuntimeError if a server does not start.
    """
    say = progress or (lambda text: None)
    results: list[Measure] = []
    with tempfile.TemporaryDirectory(prefix="hearts-bench-") as tmp:
        echo = [echo_command(f"unix:{tmp}/echo{i}.sock") for i in range(4)]
        bots = [bot_command(bot, f"unix:{tmp}/bot{i}.sock") for i in range(4)]
        with server_processes(echo) as echo_addresses, server_processes(bots) as bot_addresses:

            def sample(
                name: str, unit: str, detail: str, measure: Callable[[], Coroutine[Any, Any, float]]
            ) -> None:
                say(name)
                values = tuple(asyncio.run(measure()) for _ in range(repeats))
                results.append(Measure(name, values, unit, detail))

            sample(
                "raw gRPC unary round trip",
                "s",
                f"{TRIVIAL_PAYLOAD_BYTES}-byte echo",
                lambda: _raw(UnaryEcho, echo_addresses[0], calls),
            )
            sample(
                "raw gRPC stream round trip",
                "s",
                f"{TRIVIAL_PAYLOAD_BYTES}-byte echo",
                lambda: _raw(StreamEcho, echo_addresses[0], calls),
            )
            sample(
                "decision through the SDK",
                "s",
                "mid-hand PlayCardQuery, stream",
                lambda: _decision(bot_addresses[0], calls),
            )
            sample(
                "match: 4 SDK bots, 4 processes",
                "decisions/s",
                f"{hands} hands, in turn",
                lambda: match_pace(bot_addresses, hands, "sdk"),
            )
            if compare:
                sample(
                    "match over raw unary (echo)",
                    "decisions/s",
                    "4 echo processes",
                    lambda: match_pace(echo_addresses, hands, "unary"),
                )
                sample(
                    "match over raw stream (echo)",
                    "decisions/s",
                    "4 echo processes",
                    lambda: match_pace(echo_addresses, hands, "stream"),
                )
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.benchmarks.protocol [--calls N] [--hands N] [--repeats N]
    [--compare] [--json]``."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.benchmarks.protocol",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command")
    echo = sub.add_parser("echo-server", help="run a raw echo server (used by the benchmark)")
    echo.add_argument("address")
    parser.add_argument("--calls", type=int, default=2000, help="round trips per sample")
    parser.add_argument("--hands", type=int, default=20, help="hands per match sample")
    parser.add_argument("--repeats", type=int, default=3, help="samples per figure")
    parser.add_argument("--compare", action="store_true", help="add unary vs stream matches")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.command == "echo-server":
        echo_server(args.address)
        return 0
    results = run(
        calls=args.calls,
        hands=args.hands,
        repeats=args.repeats,
        compare=args.compare,
        progress=None
        if args.json
        else lambda name: print(f"measuring {name} ...", file=sys.stderr),
    )
    if args.json:
        print(json.dumps([result.to_dict() for result in results], indent=2))
    else:
        for result in results:
            print(result.format())
        by_name = {result.name: result.median for result in results}
        decision = by_name["decision through the SDK"]
        print(
            f"decision / raw round trip: {decision / by_name['raw gRPC unary round trip']:.2f}x "
            f"unary, {decision / by_name['raw gRPC stream round trip']:.2f}x stream"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
