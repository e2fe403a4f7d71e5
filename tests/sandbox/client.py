"""A small synchronous client of a bot, as the runner would dial it, for the sandbox tests."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import grpc
from hearts_bot.convert import pass_direction_to_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2
from hearts_bot.rules import RulesView

from arena.benchmarks.protocol import match_start_message
from workers.sandbox import CHANNEL_OPTIONS

_END = object()


class BotFaultError(Exception):
    """The bot failed to answer (timeout, error status, or a bad answer)."""


def play_query(seat: int = 1) -> game_pb2.PlayCardQuery:
    """A mid-hand PlayCardQuery for `seat` (a trick with two cards on it)."""
    clock = game_pb2.Clock()
    clock.per_decision.FromMilliseconds(1000)
    clock.bank_remaining.FromMilliseconds(10_000)
    hand = ["2S", "5S", "9S", "QS", "3H", "8H", "KH"]
    state = game_pb2.HandState(
        rules=rules_to_proto(RulesView()),
        seat=seat,
        hand_number=3,
        dealer=3,
        hand=hand,
        scores=[12, 30, 7, 51],
        pass_direction=pass_direction_to_proto("hold"),
        current_trick=game_pb2.Trick(leader=(seat + 2) % 4, cards=["4S", "JS"]),
        broken=True,
        clock=clock,
    )
    return game_pb2.PlayCardQuery(state=state, legal_cards=["2S", "5S", "9S", "QS"])


class BotClient:
    """One channel and one PlayMatch stream to a bot; every call has a deadline."""

    def __init__(self, address: str, seat: int = 1) -> None:
        self.seat = seat
        self.channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.stub = bot_pb2_grpc.BotServiceStub(self.channel)
        self.requests: queue.Queue[Any] = queue.Queue()
        self.answers: queue.Queue[Any] = queue.Queue()
        self.next_id = 0
        self.call: Any = None

    def ready(self, timeout: float = 5.0) -> str:
        try:
            return str(self.stub.Ready(bot_pb2.ReadyRequest(), timeout=timeout).bot_name)
        except grpc.RpcError as error:
            raise BotFaultError(f"Ready failed: {error.code()}") from None

    def _pump(self) -> None:
        try:
            for answer in self.call:
                self.answers.put(answer)
        except grpc.RpcError as error:
            self.answers.put(BotFaultError(f"stream failed: {error.code()} {error.details()}"))
        finally:
            self.answers.put(_END)

    def _ask(self, timeout: float, **kind: Any) -> bot_pb2.PlayMatchResponse:
        self.next_id += 1
        self.requests.put(bot_pb2.PlayMatchRequest(request_id=self.next_id, **kind))
        try:
            answer = self.answers.get(timeout=timeout)
        except queue.Empty:
            raise BotFaultError(f"no answer within {timeout} s") from None
        if answer is _END:
            self.answers.put(_END)
            raise BotFaultError("the stream ended")
        if isinstance(answer, BotFaultError):
            self.answers.put(_END)
            raise answer
        if answer.request_id != self.next_id:
            raise BotFaultError(f"answer to {answer.request_id}, expected {self.next_id}")
        return answer

    def start(self, timeout: float = 5.0) -> None:
        self.call = self.stub.PlayMatch(iter(self.requests.get, _END), timeout=600)
        threading.Thread(target=self._pump, daemon=True).start()
        self._ask(timeout, match_start=match_start_message(self.seat))

    def play(self, timeout: float = 2.0) -> tuple[str, float]:
        """The card played and the round trip in seconds (raises BotFaultError)."""
        start = time.perf_counter()
        answer = self._ask(timeout, play_card=play_query(self.seat))
        elapsed = time.perf_counter() - start
        card = answer.play_card.card
        if card not in ("2S", "5S", "9S", "QS"):
            raise BotFaultError(f"illegal or malformed card {card[:20]!r}")
        return card, elapsed

    def close(self) -> None:
        self.requests.put(_END)
        if self.call is not None:
            self.call.cancel()
        self.channel.close()
