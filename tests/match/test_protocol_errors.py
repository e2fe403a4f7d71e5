"""A protocol error ends the seat's connection at once (issue 30): an answer over the
receive cap, in its turn or between its turns, is a `malformed` fault naming the sizes;
the seat's next decision dials a new connection and the match goes on.

The bot is a gRPC server in this process that sends raw bytes, so it can send what no SDK
would; the other seats are house bots. The sandboxed version, with a bot that streams
junk after announcing 2 GiB, is tests/sandbox/test_hostile.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.engine import preset
from arena.match.clock import TimePolicy
from arena.match.protocol import bot_pb2, game_pb2
from arena.match.remote import MAX_ANSWER_BYTES, GrpcSeat
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.spec import house_seat, parse_bot_spec
from arena.match.verify import verify

pytestmark = pytest.mark.timeout(60)

OVERSIZED = MAX_ANSWER_BYTES + 4096
DETAIL = (
    f"the answer announced {OVERSIZED} bytes, over the {MAX_ANSWER_BYTES}-byte limit; "
    "the connection was closed"
)


class OversizedBot:
    """Answers honestly, except once: on the first play query (`when="play"`) or the
    first trick_end notification (`when="notification"`) it sends `OVERSIZED` bytes.
    `gone` is set once the runner has ended that stream; `streams` counts PlayMatch calls.
    """

    def __init__(self, when: str) -> None:
        self.when = when
        self.sent = False
        self.gone = asyncio.Event()
        self.streams = 0

    def ready(self, request: bytes, context: Any) -> bytes:
        return bot_pb2.ReadyResponse(bot_name="oversized").SerializeToString()

    async def play_match(
        self, requests: AsyncIterator[bytes], context: Any
    ) -> AsyncIterator[bytes]:
        self.streams += 1
        try:
            async for raw in requests:
                request = bot_pb2.PlayMatchRequest.FromString(raw)
                kind = request.WhichOneof("kind")
                if (
                    not self.sent
                    and kind == {"play": "play_card", "notification": "trick_end"}[self.when]
                ):
                    self.sent = True
                    yield b"\x0a" + b"x" * (OVERSIZED - 1)  # bytes, never parsed
                elif kind == "match_start":
                    yield self.answer(
                        request, match_start=game_pb2.MatchStartAnswer(wants_notifications=True)
                    )
                elif kind == "pass_cards":
                    cards = request.pass_cards.state.hand[: request.pass_cards.count]
                    yield self.answer(request, pass_cards=game_pb2.PassCardsAnswer(cards=cards))
                elif kind == "play_card":
                    card = request.play_card.legal_cards[0]
                    yield self.answer(request, play_card=game_pb2.PlayCardAnswer(card=card))
        finally:
            if self.sent:
                self.gone.set()

    @staticmethod
    def answer(request: Any, **kind: Any) -> bytes:
        message = bot_pb2.PlayMatchResponse(request_id=request.request_id, **kind)
        return bytes(message.SerializeToString())

    def handler(self) -> grpc.GenericRpcHandler[Any, Any]:
        def same(data: bytes) -> bytes:
            return data

        return grpc.method_handlers_generic_handler(
            "hearts.v1.BotService",
            {
                "Ready": grpc.unary_unary_rpc_method_handler(self.ready, same, same),
                "PlayMatch": grpc.stream_stream_rpc_method_handler(self.play_match, same, same),
            },
        )


class AfterTheHangUp(GrpcSeat):
    """A seat whose decisions, once its bot has sent the oversized message, wait until
    the bot saw the stream go: so the failure comes between two of its turns."""

    def __init__(self, address: str, bot: OversizedBot) -> None:
        super().__init__(address, "oversized")
        self.bot = bot

    async def decide(self, *args: Any) -> Any:
        if self.bot.sent:
            await self.bot.gone.wait()
        return await super().decide(*args)


def play(tmp_path: Path, bot: OversizedBot) -> MatchOutcome:
    async def scenario() -> MatchOutcome:
        server = grpc.aio.server(handlers=[bot.handler()])
        address = f"unix:{tmp_path}/oversized.sock"
        server.add_insecure_port(address)
        await server.start()
        try:
            seat = (
                GrpcSeat(address, "oversized")
                if bot.when == "play"
                else AfterTheHangUp(address, bot)
            )
            entrants = [Entrant("oversized", seat)] + [
                Entrant(f"house {i}", house_seat(parse_bot_spec("house:random"), i))
                for i in (1, 2, 3)
            ]
            rules = preset("standard").replace(target_score=None, max_hands=1)
            policy = TimePolicy(per_decision=2.0, bank=5.0, ready_timeout=10.0)
            return await MatchRunner(rules, entrants, 11, time_policy=policy).run_async()
        finally:
            await server.stop(0)

    outcome = asyncio.run(scenario())
    assert not outcome.void, outcome.void_reason
    verify(outcome.v1)
    return outcome


def seat_plays(outcome: MatchOutcome) -> list[dict[str, Any]]:
    tricks = outcome.v1["games"][0]["hands"][0]["tricks"]
    return [play for trick in tricks for play in trick["plays"] if play["seat"] == 0]


@pytest.mark.parametrize("when", ["play", "notification"])
def test_an_oversized_answer_is_malformed_and_the_seat_plays_on_over_a_new_connection(
    tmp_path: Path, when: str
) -> None:
    bot = OversizedBot(when)
    outcome = play(tmp_path, bot)
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert [(f["kind"], f["detail"]) for f in faults] == [("malformed", DETAIL)]
    # In its turn: the play it was asked. Between turns (after the first trick): its next
    # play, asked after the hang-up, is where the failure is recorded.
    faulted = [i for i, play in enumerate(seat_plays(outcome)) if "fault" in play]
    assert faulted == [0 if when == "play" else 1]
    assert bot.gone.is_set()  # the runner ended the stream it was sent on
    assert bot.streams == 2  # and opened one more, for its next decision: answered
    assert not outcome.results[0].disqualified
    assert not any("auto" in play for play in seat_plays(outcome))
