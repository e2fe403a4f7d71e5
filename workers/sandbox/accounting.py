"""Where a sandboxed bot's CPU goes: start-up by parts, and a whole match against in-process bots.

Every figure comes from the kernel's CPU accounting, never from a wall clock: the bot's
cgroup (``cpu.stat``, every process of its tree: bubblewrap, the shell, setpriv, the
interpreter and anything it starts) and this process's own ``getrusage`` (the worker's
side: spawning, the runner, the in-process bots).

**Start-up by parts** (`measure_startup`): the same sandbox is started with four commands
in turn, each printing the readiness line where its work ends, and the bot's cgroup is
read when that line arrives; each part is the difference between two rungs:

=====================  =====================================================================
rung                   what runs inside the sandbox before the readiness line
=====================  =====================================================================
sandbox set-up         bubblewrap, the launch script and setpriv, then ``sh -c echo``
interpreter start      ... then the bot's interpreter, with its venv's ``site``
imports                ... then ``import hearts_bot.cli`` (grpc, asyncio, protobuf, the SDK)
serving                the real bot: its file loaded, the gRPC server started, ready
=====================  =====================================================================

**A match** (`measure_match`): the same match (rules, seed, hands) played by four
sandboxed copies of the SDK's random starter bot and by four in-process house random
bots, interleaved; core-seconds of everything each took, start to stop.
"""

from __future__ import annotations

import dataclasses
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .environment import BotEnvironment, build_environment
from .launcher import Sandbox
from .process import READY_PREFIX, BotProcess

RUNGS = ("sandbox set-up", "interpreter start", "imports", "serving")
_MARK = f"print({READY_PREFIX.decode()!r}, flush=True)"
_HOLD = "import signal; signal.pause()"
PROBE_TIMEOUT = 60.0


def self_cpu_seconds() -> float:
    """User plus system CPU seconds of this process so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclasses.dataclass(frozen=True)
class StartupParts:
    """A sandboxed bot's start-up CPU by parts (seconds, medians over `starts` starts)."""

    parts: dict[str, float]
    """Each part of RUNGS: its rung's median minus the previous rung's (never below 0)."""
    rungs: dict[str, float]
    """Each rung's median cgroup CPU at its readiness line."""
    worker: float
    """The worker's own CPU per start (spawning, the cgroup, waiting for readiness)."""
    starts: int

    @property
    def bot_total(self) -> float:
        """The bot's whole tree, start to ready (the last rung)."""
        return self.rungs[RUNGS[-1]]

    @property
    def total(self) -> float:
        """Start to ready, both sides."""
        return self.bot_total + self.worker


class _ProbeSandbox(Sandbox):
    """The same sandbox, running `probe` (if set) in place of the SDK's server."""

    probe: list[str] | None = None

    def inner_command(self, env: BotEnvironment, uid: int) -> list[str]:
        command = super().inner_command(env, uid)
        if self.probe is None:
            return command
        return [*command[: command.index("--") + 1], *self.probe]


def _probe_commands(env: BotEnvironment) -> dict[str, list[str] | None]:
    python = str(env.python)
    return {
        "sandbox set-up": ["/bin/sh", "-c", f"echo {READY_PREFIX.decode()}; exec sleep 600"],
        "interpreter start": [python, "-B", "-c", f"{_MARK}; {_HOLD}"],
        "imports": [python, "-B", "-c", f"import hearts_bot.cli; {_MARK}; {_HOLD}"],
        "serving": None,
    }


def _wait_for_line(bot: BotProcess, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while READY_PREFIX.decode() not in bot.stdout.text():
        if not bot.alive() or time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def _rung_cpu(sandbox: _ProbeSandbox, env: BotEnvironment, probe: list[str] | None) -> float:
    """The bot tree's CPU when its rung printed the readiness line."""
    sandbox.probe = probe
    bot = sandbox.start(env, seat=0)
    try:
        if probe is None:
            ready = bot.wait_ready(PROBE_TIMEOUT)
            used = bot.cpu_at_ready
        else:
            ready = _wait_for_line(bot, PROBE_TIMEOUT)
            used = bot.cpu_seconds()
        if not ready or used is None:
            raise RuntimeError(
                f"a start-up probe failed ({bot.exit_reason()}; no cgroup CPU accounting "
                f"if None: {used}): {bot.log_excerpt()[-2000:]}"
            )
        return used
    finally:
        bot.stop()


def _serving_worker_cpu(sandbox: _ProbeSandbox, env: BotEnvironment) -> float:
    sandbox.probe = None
    before = self_cpu_seconds()
    bot = sandbox.start(env, seat=0)
    try:
        if not bot.wait_ready(PROBE_TIMEOUT):
            raise RuntimeError(f"the bot did not start: {bot.exit_reason()}")
        return self_cpu_seconds() - before
    finally:
        bot.stop()


def measure_startup(env: BotEnvironment, starts: int = 10) -> StartupParts:
    """Start `env`'s bot `starts` times per rung (rungs interleaved, after one warm-up
    each) and split its start-to-ready CPU into RUNGS' parts.

    Raises SandboxUnavailableError when this machine cannot sandbox, RuntimeError when a
    probe does not reach its line (or no cgroup accounts for the bot's CPU).
    """
    sandbox = _ProbeSandbox()
    probes = _probe_commands(env)
    samples: dict[str, list[float]] = {rung: [] for rung in RUNGS}
    worker: list[float] = []
    for index in range(starts + 1):
        for rung in RUNGS:
            value = _rung_cpu(sandbox, env, probes[rung])
            if index:
                samples[rung].append(value)
        value = _serving_worker_cpu(sandbox, env)
        if index:
            worker.append(value)
    rungs = {rung: statistics.median(values) for rung, values in samples.items()}
    parts: dict[str, float] = {}
    previous = 0.0
    for rung in RUNGS:
        parts[rung] = max(0.0, rungs[rung] - previous)
        previous = max(previous, rungs[rung])
    return StartupParts(parts, rungs, statistics.median(worker), starts)


# -- a whole match ---------------------------------------------------------------------------

STARTER = "random_bot.py"
"""The SDK's starter bot played sandboxed (``hearts_bot/starters``)."""


@dataclasses.dataclass(frozen=True)
class MatchCpu:
    """Core-seconds of one match, sandboxed starter bots against in-process house bots
    (medians over `repeats` interleaved pairs, with the lowest and highest)."""

    hands: int | None
    """Hands per match (None: the standard game to 100)."""
    sandboxed: float
    sandboxed_range: tuple[float, float]
    sandboxed_bots: float
    """Of `sandboxed`, the four bots' trees (start to stop, their cgroups)."""
    in_process: float
    in_process_range: tuple[float, float]
    repeats: int

    @property
    def ratio(self) -> float:
        """Sandboxed over in-process."""
        return self.sandboxed / self.in_process


def _match_rules(hands: int | None) -> Any:
    from arena.engine import preset

    rules = preset("standard")
    if hands is not None:
        rules = rules.replace(target_score=None, max_hands=hands, moon="old")
    return rules


def _play(rules: Any, seats: Sequence[Any], seed: int) -> None:
    from arena.match.runner import Entrant, MatchRunner

    entrants = [Entrant(f"seat {index}", seat) for index, seat in enumerate(seats)]
    outcome = MatchRunner(rules, entrants, seed).run()
    if outcome.void or outcome.replay["faults"]:
        raise RuntimeError(f"the benchmark's match went wrong: {outcome.replay['faults']}")


def _sandboxed_match(
    sandbox: Sandbox, env: BotEnvironment, rules: Any, seed: int
) -> tuple[float, float]:
    """(everything, the bots' part) in core-seconds: four sandboxed bots, start to stop."""
    from arena.match.remote import GrpcSeat

    before = self_cpu_seconds()
    bots = [sandbox.start(env, seat=seat) for seat in range(4)]
    try:
        seats = [GrpcSeat(bot.address, f"starter {bot.seat}", host=_Host(bot)) for bot in bots]
        _play(rules, seats, seed)
    finally:
        for bot in bots:
            bot.stop()
    worker = self_cpu_seconds() - before
    used = [bot.cpu_at_stop for bot in bots]
    if any(value is None for value in used):
        raise RuntimeError("no cgroup CPU accounting for the sandboxed bots")
    bots_cpu = sum(value for value in used if value is not None)
    return worker + bots_cpu, bots_cpu


def _in_process_match(rules: Any, seed: int) -> float:
    from arena.bots import HOUSE_BOTS
    from arena.match.seats import InProcessSeat

    before = self_cpu_seconds()
    _play(rules, [InProcessSeat(HOUSE_BOTS["random"](seed + seat)) for seat in range(4)], seed)
    return self_cpu_seconds() - before


class _Host:
    """A `BotProcess` as the runner's `BotHost` (ready, thaw, freeze, stop)."""

    def __init__(self, bot: BotProcess) -> None:
        self.bot = bot
        self.address = bot.address

    def wait_ready(self, timeout: float) -> bool:
        return self.bot.wait_ready(timeout)

    def exit_reason(self) -> str | None:
        reason = self.bot.exit_reason()
        return None if reason is None else reason.message

    def log_excerpt(self) -> str:
        return self.bot.log_excerpt()

    def thaw(self) -> None:
        self.bot.thaw()

    def freeze(self) -> None:
        self.bot.freeze()

    def stop(self) -> None:
        self.bot.stop()


def starter_environment(root: Path) -> BotEnvironment:
    """The SDK's random starter bot, built as an upload under `root`."""
    from importlib import resources

    upload = root / "starter"
    upload.mkdir()
    source = resources.files("hearts_bot").joinpath(f"starters/{STARTER}").read_text()
    (upload / "bot.py").write_text(source)
    return build_environment(upload, root / "env", runtime_root=root / "state", offline=True)


def measure_match(
    hands: int | None = 3,
    repeats: int = 3,
    seed: int = 1,
    work_dir: Path | None = None,
    progress: Callable[[str], None] = lambda text: None,
) -> MatchCpu:
    """Play the same match with four sandboxed starter bots and with four in-process
    house bots, `repeats` times each, interleaved (after one untimed pair).

    Raises SandboxUnavailableError when this machine cannot sandbox.
    """
    rules = _match_rules(hands)
    sandbox = Sandbox()
    with tempfile.TemporaryDirectory(prefix="arena-bench-match-cpu-", dir=work_dir) as folder:
        root = Path(folder)
        root.chmod(0o755)
        env = starter_environment(root)
        sandboxed: list[tuple[float, float]] = []
        in_process: list[float] = []
        for index in range(repeats + 1):
            progress(f"match {index}/{repeats}")
            pair = _sandboxed_match(sandbox, env, rules, seed)
            alone = _in_process_match(rules, seed)
            if index:
                sandboxed.append(pair)
                in_process.append(alone)
    totals = [total for total, _ in sandboxed]
    return MatchCpu(
        hands,
        statistics.median(totals),
        (min(totals), max(totals)),
        statistics.median(bots for _, bots in sandboxed),
        statistics.median(in_process),
        (min(in_process), max(in_process)),
        repeats,
    )
