"""`arena bench sandbox`: what the sandbox costs, for the same bot sandboxed and not.

Three figures per mode, in one run:

* **start to ready**: from asking for the bot to its readiness line and pinned socket
  (median over `starts` starts, the two modes interleaved after one warm-up each);
* **round trip**: one mid-hand PlayCardQuery answered over a PlayMatch stream (median
  per call over `rounds` rounds of `calls` calls, after a warm-up);
* **idle memory**: the proportional set size (PSS) of every process of the bot once it
  idles after answering (bubblewrap's two processes included when sandboxed);
* **frozen off-turn** (`FreezeFigures`): a sandboxed bot's decision as a table plays it,
  its turn alternating with another sandboxed seat's, once thawed for its request and
  frozen on its answer (what the runner does), once left running; the two kinds of
  round alternate, and each gives a median per decision, so the figures come as a
  median with the range over rounds. The difference is split: the two freezer writes'
  own time, and the CPU per decision of the asking thread and of the bot's tree (its
  cgroup), frozen against left running: what the round trip's time does not show.

The sandbox lives in ``workers.sandbox``, imported here lazily: the benchmark belongs to
the ``arena bench`` family, but only this function reaches into the workers' package.
"""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workers.sandbox.accounting import StartupParts

BOT_SOURCE = '''"""The benchmark's bot: the first legal card, the first cards of the hand."""

from hearts_bot import Bot


class FirstLegal(Bot):
    def pass_cards(self, view):
        return list(view.hand[: view.count])

    def play_card(self, view):
        return view.legal[0]
'''


@dataclasses.dataclass(frozen=True)
class SandboxFigures:
    """One mode's figures (seconds and bytes)."""

    mode: str
    start_to_ready: float
    round_trip: float
    idle_memory: int
    starts: int
    calls: int


@dataclasses.dataclass(frozen=True)
class FreezeFigures:
    """A decision's round trip at a table, frozen off-turn or not (seconds per decision,
    each the median over rounds, with the lowest and highest round), and where the
    difference goes: the two freezer writes, and the CPU of both sides."""

    frozen: float
    frozen_range: tuple[float, float]
    unfrozen: float
    unfrozen_range: tuple[float, float]
    calls: int
    freezable: bool
    """False where the bot could not be frozen (no cgroup v2): both figures unfrozen."""
    thaw_write: float = 0.0
    """The thaw's write to ``cgroup.freeze`` (it returns once every task is woken)."""
    freeze_write: float = 0.0
    """The freeze's write (it returns once every task is told to stop)."""
    runner_cpu: tuple[float, float] = (0.0, 0.0)
    """CPU seconds of the asking thread per decision, (frozen, left running): its side of
    the round trip, with the two writes when frozen (`time.thread_time`)."""
    bot_cpu: tuple[float, float] = (0.0, 0.0)
    """CPU seconds of the bot's whole tree per decision, (frozen, left running), from its
    cgroup: its answer, with its threads' wake-ups into and out of the freezer."""

    @property
    def cost(self) -> float:
        """What freezing adds to a decision, as a fraction of the unfrozen round trip."""
        return self.frozen / self.unfrozen - 1

    @property
    def cpu_cost(self) -> float:
        """What freezing adds to a decision's CPU (the asking thread's and the bot's), as a
        fraction of the unfrozen decision's."""
        running = self.runner_cpu[1] + self.bot_cpu[1]
        return (self.runner_cpu[0] + self.bot_cpu[0]) / running - 1 if running else 0.0

    def describe_split(self) -> str:
        """One line: the writes and the CPU per decision, frozen against left running."""
        us = 1e6
        return (
            f"thaw write {self.thaw_write * us:.0f} µs, freeze write "
            f"{self.freeze_write * us:.0f} µs; CPU per decision, frozen / left running: "
            f"asking thread {self.runner_cpu[0] * us:.0f} / {self.runner_cpu[1] * us:.0f} µs, "
            f"bot {self.bot_cpu[0] * us:.0f} / {self.bot_cpu[1] * us:.0f} µs "
            f"({self.cpu_cost:+.1%} CPU)"
        )


@dataclasses.dataclass
class _Round:
    """One round of `_turns`: per-decision means of what it measured."""

    freezing: bool
    wall: float
    runner_cpu: float
    bot_cpu: float
    thaw_write: float
    freeze_write: float


def _pss(pids: set[int]) -> int:
    """Bytes of proportional set size of `pids` (from smaps_rollup)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
        except OSError:
            continue
    return total


def _query(seat: int) -> Any:
    from hearts_bot.convert import pass_direction_to_proto, rules_to_proto
    from hearts_bot.proto.hearts.v1 import game_pb2
    from hearts_bot.rules import RulesView

    clock = game_pb2.Clock()
    clock.per_decision.FromMilliseconds(1000)
    clock.bank_remaining.FromMilliseconds(10_000)
    state = game_pb2.HandState(
        rules=rules_to_proto(RulesView()),
        seat=seat,
        hand_number=3,
        dealer=3,
        hand=["2S", "5S", "9S", "QS", "3H", "8H", "KH"],
        scores=[12, 30, 7, 51],
        pass_direction=pass_direction_to_proto("hold"),
        current_trick=game_pb2.Trick(leader=(seat + 2) % 4, cards=["4S", "JS"]),
        broken=True,
        clock=clock,
    )
    return game_pb2.PlayCardQuery(state=state, legal_cards=["2S", "5S", "9S", "QS"])


async def _round_trips(addresses: dict[str, str], calls: int, rounds: int) -> dict[str, float]:
    """Median seconds per decision for each bot: `rounds` rounds of `calls` decisions,
    the bots taking turns within each round (so both see the same machine)."""
    from arena.benchmarks.protocol import BotStream, match_start_message, time_calls

    streams = {mode: BotStream(address) for mode, address in addresses.items()}
    samples: dict[str, list[float]] = {mode: [] for mode in addresses}
    query = _query(2)

    def decide(stream: BotStream) -> Callable[[], Awaitable[Any]]:
        return lambda: stream({"play_card": query})

    try:
        for stream in streams.values():
            await stream.start(match_start_message(2))
            await time_calls(decide(stream), calls)
        for _ in range(rounds):
            for mode, stream in streams.items():
                samples[mode].append(await time_calls(decide(stream), calls, warmup=10))
        return {mode: statistics.median(values) for mode, values in samples.items()}
    finally:
        for stream in streams.values():
            await stream.close()


async def _turns(bot: Any, other_address: str, calls: int, rounds: int) -> list[_Round]:
    """Rounds of decisions of `bot` (a BotProcess) that alternate frozen and unfrozen: each
    of its decisions is followed by one of the other seat's (its off-turn), as at a table;
    only `bot`'s decision (with the thaw and the freeze) is timed, and its tree's CPU is
    read from its cgroup over the round (frozen, it uses none on the other seat's turns)."""
    from arena.benchmarks.protocol import BotStream, match_start_message

    mine, other = BotStream(bot.address), BotStream(other_address)
    query, other_query = _query(2), _query(3)
    found: list[_Round] = []
    clock, cpu = time.perf_counter, time.thread_time
    try:
        await mine.start(match_start_message(2))
        await other.start(match_start_message(3))
        for index in range(2 * rounds + 2):  # the first two rounds warm up
            freezing = index % 2 == 0
            if not freezing:
                bot.thaw()  # left running all round
            wall = runner = thawing = freezing_write = 0.0
            bot_before = bot.cpu_seconds() or 0.0
            for _ in range(calls):
                start, start_cpu = clock(), cpu()
                if freezing:
                    bot.thaw()
                    thawed = clock()
                    thawing += thawed - start
                await mine({"play_card": query})
                if freezing:
                    answered = clock()
                    bot.freeze()
                    freezing_write += clock() - answered
                wall += clock() - start
                runner += cpu() - start_cpu
                await other({"play_card": other_query})  # the other seat's turn
            if index >= 2:
                bot_used = (bot.cpu_seconds() or 0.0) - bot_before
                found.append(
                    _Round(
                        freezing,
                        wall / calls,
                        runner / calls,
                        bot_used / calls,
                        thawing / calls,
                        freezing_write / calls,
                    )
                )
        bot.thaw()
        return found
    finally:
        await mine.close()
        await other.close()


def run_frozen(
    *, calls: int = 200, rounds: int = 10, work_dir: Path | None = None
) -> FreezeFigures:
    """Measure a sandboxed bot's decision frozen off-turn and not (see `FreezeFigures`).

    Raises workers.sandbox.SandboxUnavailableError when this machine cannot sandbox.
    """
    from workers.sandbox import Sandbox, build_environment

    sandbox = Sandbox()
    with tempfile.TemporaryDirectory(prefix="arena-bench-freeze-", dir=work_dir) as folder:
        root = Path(folder)
        root.chmod(0o755)
        (root / "upload").mkdir()
        (root / "upload" / "bot.py").write_text(BOT_SOURCE)
        env = build_environment(
            root / "upload", root / "env", runtime_root=root / "state", offline=True
        )
        bots = [sandbox.start(env, seat=seat) for seat in (2, 3)]
        try:
            for bot in bots:
                if not bot.wait_ready(60):
                    raise RuntimeError(f"a bot did not start: {bot.exit_reason()}")
            found = asyncio.run(_turns(bots[0], bots[1].address, calls, rounds))
        finally:
            for bot in bots:
                bot.stop()
        frozen = [r for r in found if r.freezing]
        unfrozen = [r for r in found if not r.freezing]

        def median(rounds: list[_Round], field: str) -> float:
            return statistics.median(float(getattr(r, field)) for r in rounds)

        return FreezeFigures(
            median(frozen, "wall"),
            (min(r.wall for r in frozen), max(r.wall for r in frozen)),
            median(unfrozen, "wall"),
            (min(r.wall for r in unfrozen), max(r.wall for r in unfrozen)),
            calls * rounds,
            bots[0].freezable,
            thaw_write=median(frozen, "thaw_write"),
            freeze_write=median(frozen, "freeze_write"),
            runner_cpu=(median(frozen, "runner_cpu"), median(unfrozen, "runner_cpu")),
            bot_cpu=(median(frozen, "bot_cpu"), median(unfrozen, "bot_cpu")),
        )


def run(
    *, starts: int = 10, calls: int = 200, rounds: int = 25, work_dir: Path | None = None
) -> list[SandboxFigures]:
    """Measure the same bot sandboxed and unsandboxed; [sandboxed, unsandboxed].

    Raises workers.sandbox.SandboxUnavailableError when this machine cannot sandbox.
    """
    from workers.sandbox import BotProcess, Sandbox, build_environment, start_unsandboxed

    sandbox = Sandbox()
    with tempfile.TemporaryDirectory(prefix="arena-bench-sandbox-", dir=work_dir) as folder:
        root = Path(folder)
        root.chmod(0o755)
        (root / "upload").mkdir()
        (root / "upload" / "bot.py").write_text(BOT_SOURCE)
        env = build_environment(
            root / "upload", root / "env", runtime_root=root / "state", offline=True
        )

        def start(mode: str) -> BotProcess:
            if mode == "sandboxed":
                return sandbox.start(env, seat=0)
            return start_unsandboxed(env.bot_dir / env.entry, seat=0, python=env.python)

        def ready_time(mode: str) -> float:
            with start(mode) as bot:
                if not bot.wait_ready(60):
                    raise RuntimeError(f"the {mode} bot did not start: {bot.exit_reason()}")
                assert bot.ready_at is not None
                return bot.ready_at - bot.started

        modes = ("sandboxed", "unsandboxed")
        for mode in modes:
            ready_time(mode)  # warm-up (page cache, .pyc)
        ready: dict[str, list[float]] = {mode: [] for mode in modes}
        for _ in range(starts):
            for mode in modes:
                ready[mode].append(ready_time(mode))
        bots = [start(mode) for mode in modes]
        try:
            for bot in bots:
                if not bot.wait_ready(60):
                    raise RuntimeError(f"a bot did not start: {bot.exit_reason()}")
            trips = asyncio.run(
                _round_trips(
                    {mode: bot.address for mode, bot in zip(modes, bots, strict=True)},
                    calls,
                    rounds,
                )
            )
            time.sleep(0.5)
            memory = {mode: _pss(bot.processes()) for mode, bot in zip(modes, bots, strict=True)}
        finally:
            for bot in bots:
                bot.stop()
        figures = [
            SandboxFigures(
                mode,
                statistics.median(ready[mode]),
                trips[mode],
                memory[mode],
                starts,
                calls * rounds,
            )
            for mode in modes
        ]
        return figures


def run_startup(*, starts: int = 10, work_dir: Path | None = None) -> StartupParts:
    """The benchmark bot's start-to-ready CPU by part (`accounting.measure_startup`).

    Raises workers.sandbox.SandboxUnavailableError when this machine cannot sandbox.
    """
    from workers.sandbox import build_environment
    from workers.sandbox.accounting import measure_startup

    with tempfile.TemporaryDirectory(prefix="arena-bench-startup-", dir=work_dir) as folder:
        root = Path(folder)
        root.chmod(0o755)
        (root / "upload").mkdir()
        (root / "upload" / "bot.py").write_text(BOT_SOURCE)
        env = build_environment(
            root / "upload", root / "env", runtime_root=root / "state", offline=True
        )
        return measure_startup(env, starts)
