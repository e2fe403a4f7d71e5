"""Fixtures for the SDK's tests: bot servers in real subprocesses, clients, messages.

Every server is a real `python -m hearts_bot serve` process on a Unix socket; the
fixtures kill it in their finalizer whatever the test did, and every gRPC call has a
deadline, so no test can hang.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from hearts_bot.convert import pass_direction_to_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2
from hearts_bot.rules import RulesView

from arena.benchmarks.protocol import match_start_message, wait_ready

BOTS = Path(__file__).parent / "bots"
SDK = Path(__file__).resolve().parents[2] / "sdk"
DEADLINE = 10.0


@dataclass
class BotProcess:
    process: subprocess.Popen[str]
    address: str
    stderr_path: Path
    socket_path: Path

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text()

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def stub(self) -> bot_pb2_grpc.BotServiceStub:
        return bot_pb2_grpc.BotServiceStub(self.channel())


@pytest.fixture
def start_bot(tmp_path: Path) -> Iterator[Callable[..., BotProcess]]:
    """Start `hearts-bot serve SPEC` in a subprocess; all are killed at teardown."""
    started: list[subprocess.Popen[str]] = []

    def start(spec: str, address: str | None = None) -> BotProcess:
        index = len(started)
        socket_path = tmp_path / f"bot{index}.sock"
        stderr_path = tmp_path / f"bot{index}.stderr"
        address = address or f"unix:{socket_path}"
        with stderr_path.open("w") as stderr:
            process = subprocess.Popen(
                [sys.executable, "-m", "hearts_bot", "serve", spec, "--address", address],
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
        started.append(process)
        try:
            ready = wait_ready(process)
        except RuntimeError as error:
            raise AssertionError(f"{error}\nstderr:\n{stderr_path.read_text()}") from None
        return BotProcess(process, ready, stderr_path, socket_path)

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture
def random_bot(start_bot: Callable[..., BotProcess]) -> BotProcess:
    return start_bot("starter:random")


# -- messages --------------------------------------------------------------------------

RULES = RulesView()
HAND = ["3C", "7C", "QC", "4D", "TD", "2S", "9S", "QS", "AS", "5H", "8H", "JH", "AH"]


def state(**changes: Any) -> game_pb2.HandState:
    """A valid HandState for seat 2 (hand 1, passing left, nothing played yet)."""
    fields: dict[str, Any] = {
        "rules": rules_to_proto(RULES),
        "seat": 2,
        "hand_number": 0,
        "dealer": 0,
        "hand": HAND,
        "scores": [0, 0, 0, 0],
        "pass_direction": pass_direction_to_proto("left"),
    }
    fields.update(changes)
    message = game_pb2.HandState(**fields)
    message.clock.per_decision.FromMilliseconds(1000)
    message.clock.bank_remaining.FromMilliseconds(5000)
    return message


def pass_query(**changes: Any) -> game_pb2.PassCardsQuery:
    fields: dict[str, Any] = {
        "state": state(),
        "direction": pass_direction_to_proto("left"),
        "count": 3,
        "recipients": [3, 3, 3],
    }
    fields.update(changes)
    return game_pb2.PassCardsQuery(**fields)


def play_query(**changes: Any) -> game_pb2.PlayCardQuery:
    """Seat 2 follows a club lead (seat 0 led 2C, seat 1 played KC)."""
    fields: dict[str, Any] = {
        "state": state(current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"])),
        "legal_cards": ["3C", "7C", "QC"],
    }
    fields.update(changes)
    return game_pb2.PlayCardQuery(**fields)


def requests(*kinds: dict[str, Any], first_id: int = 1) -> list[bot_pb2.PlayMatchRequest]:
    """Numbered PlayMatchRequests; each entry is the keyword of one `kind`."""
    return [
        bot_pb2.PlayMatchRequest(request_id=first_id + index, **kind)
        for index, kind in enumerate(kinds)
    ]


def start_kind(seat: int = 2) -> dict[str, Any]:
    return {"match_start": match_start_message(seat)}


def end_kind() -> dict[str, Any]:
    return {
        "match_end": game_pb2.MatchEnd(
            reason=game_pb2.MATCH_END_REASON_COMPLETED, scores=[1, 2, 3, 4], hands_played=1
        )
    }


@dataclass
class StreamResult:
    responses: list[bot_pb2.PlayMatchResponse]
    code: grpc.StatusCode
    details: str


def play_stream(stub: bot_pb2_grpc.BotServiceStub, messages: Iterable[Any]) -> StreamResult:
    """Send `messages` on one PlayMatch stream, then half-close; collect the answers and
    the final status."""
    responses: list[bot_pb2.PlayMatchResponse] = []
    try:
        for response in stub.PlayMatch(iter(list(messages)), timeout=DEADLINE):
            responses.append(response)
    except grpc.RpcError as error:
        return StreamResult(responses, error.code(), error.details() or "")
    return StreamResult(responses, grpc.StatusCode.OK, "")


def assert_alive(bot: BotProcess) -> None:
    """The server still answers Ready and plays a fresh stream."""
    assert bot.process.poll() is None, bot.stderr
    stub = bot.stub()
    assert stub.Ready(bot_pb2.ReadyRequest(), timeout=DEADLINE).bot_name
    result = play_stream(stub, requests(start_kind(), {"play_card": play_query()}, end_kind()))
    assert result.code == grpc.StatusCode.OK, result.details
    assert result.responses[1].play_card.card in ("3C", "7C", "QC")
