"""`arena bench match`: what the match runner adds on top of gRPC, with real bot processes.

Four trivial SDK bots (the first legal card) each serve in their own process on a Unix
socket; the runner plays full games to 100 points against them. Printed beside two
measures of the transport without the runner or a bot: the raw gRPC stream round trip of
a trivial call (the baseline the issue measures the runner against), and whole hands'
queries sent to four raw echo processes in turn (what a match pays gRPC before anyone
does any work: one process after another, on two cores, costs more than one warm
process asked again and again).
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import tempfile
import time
from typing import Any, cast

from hearts_bot import transport

from arena.benchmarks import protocol
from arena.engine import preset
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.replay_v2 import ReplayV2
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import Seat

TRIVIAL_BOT = "arena.benchmarks.protocol:FirstLegalBot"


@dataclasses.dataclass(frozen=True)
class MatchFigures:
    """The figures `arena bench match` prints."""

    raw_round_trip: float  # seconds, a 200-byte echo on a long-lived stream
    transport_alone: float  # seconds per decision, whole hands' queries to 4 echo processes
    decision: float  # seconds per decision through the runner
    decisions_per_second: float
    games_per_second: float
    games: int
    decisions: int
    runner_cpu: float  # seconds of this process's CPU (every thread) per decision
    bots_cpu: float  # seconds of the four bot processes' CPU together per decision
    runner_own_cpu: float = 0.0
    """Seconds of the runner's own CPU per decision: the event loop's thread, less what
    that thread spent inside the seats' calls (building, sending and reading messages:
    the transport), so what is left is the engine, judging, clocks and the record."""

    @property
    def ratio(self) -> float:
        """A decision's cost as a multiple of the raw round trip."""
        return self.decision / self.raw_round_trip

    @property
    def transport_ratio(self) -> float:
        """The transport alone, taken in turn, as a multiple of the raw round trip: the
        least `ratio` could be with a runner and bots that did nothing."""
        return self.transport_alone / self.raw_round_trip


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds a live process has used (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _decisions(document: ReplayV2) -> int:
    """The decisions the bots were asked (the engine's own draws aside)."""
    return sum(
        1
        for game in document.games
        for hand in game.hands
        for action in hand.actions
        if action.kind != "draw"
    )


def transport_figures(calls: int = 2000, hands: int = 20, repeats: int = 3) -> tuple[float, float]:
    """(seconds per trivial 200-byte echo on a long-lived gRPC stream, seconds per
    decision of whole hands whose queries go to four echo processes in turn), each the
    best of `repeats` samples."""
    with (
        tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp,
        protocol.server_processes(
            [protocol.echo_command(f"unix:{tmp}/echo{i}.sock") for i in range(4)]
        ) as addresses,
    ):

        async def round_trip() -> float:
            client = protocol.StreamEcho(addresses[0])
            payload = os.urandom(protocol.TRIVIAL_PAYLOAD_BYTES)
            try:
                return await protocol.time_calls(lambda: client(payload), calls)
            finally:
                await client.close()

        async def in_turn() -> float:
            return 1.0 / await protocol.match_pace(addresses, hands, "stream")

        raw = min(transport.run(round_trip()) for _ in range(repeats))
        alone = min(transport.run(in_turn()) for _ in range(repeats))
        return raw, alone


class Metered:
    """A seat that counts the CPU its calling thread spends inside the seat's calls.

    The runner is sequential (one question at a time), so the thread's CPU between a
    call and its return is the transport's: the message built and sent, the stream's
    reader tasks, the answer read. Every attribute is the seat's own; coroutine methods
    are timed."""

    def __init__(self, seat: Any, meter: list[float]) -> None:
        self._seat = seat
        self._meter = meter
        self.label = seat.label

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._seat, name)
        if not inspect.iscoroutinefunction(method):
            return method
        meter = self._meter

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return await method(*args, **kwargs)
            finally:
                meter[0] += time.thread_time() - started

        return timed


def _play(hosts: list[BotProcess], seed: int, meter: list[float] | None = None) -> int:
    """One game to 100 as its own match (a fresh runner, seats and channels, as a
    single-game match gets); returns its decisions. With `meter`, the seats' own CPU
    in this thread is added to `meter[0]`."""
    seats = [GrpcSeat(h.address, f"trivial {i}") for i, h in enumerate(hosts)]
    entrants = [
        Entrant(f"trivial {i}", seat if meter is None else cast(Seat, Metered(seat, meter)))
        for i, seat in enumerate(seats)
    ]
    outcome = MatchRunner(preset("standard"), entrants, seed).run()
    if outcome.void or outcome.replay["faults"]:
        raise RuntimeError(f"benchmark match went wrong: {outcome.replay['faults']}")
    return _decisions(outcome.document)


def measure(games: int = 5, calls: int = 2000, seed: int = 1) -> MatchFigures:
    """Play `games` games to 100 against four trivial bot processes; time everything
    but one untimed warm-up game (first-use costs in both processes are not the pace)."""
    raw, alone = transport_figures(calls)
    hosts = [BotProcess(TRIVIAL_BOT) for _ in range(4)]
    try:
        for host in hosts:
            if not host.wait_ready(20):
                raise RuntimeError(f"trivial bot did not start: {host.log_excerpt()}")
        _play(hosts, seed - 1)
        decisions = 0
        meter = [0.0]
        bots_before = sum(process_cpu_seconds(host.pid) for host in hosts)
        cpu_before = time.process_time()
        thread_before = time.thread_time()
        start = time.perf_counter()
        for game in range(games):
            decisions += _play(hosts, seed + game, meter)
        elapsed = time.perf_counter() - start
        runner_cpu = time.process_time() - cpu_before
        runner_own = time.thread_time() - thread_before - meter[0]
        bots_cpu = sum(process_cpu_seconds(host.pid) for host in hosts) - bots_before
    finally:
        for host in hosts:
            host.stop()
    return MatchFigures(
        raw,
        alone,
        elapsed / decisions,
        decisions / elapsed,
        games / elapsed,
        games,
        decisions,
        runner_cpu / decisions,
        bots_cpu / decisions,
        runner_own / decisions,
    )
