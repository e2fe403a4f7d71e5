"""Where a sandboxed bot's start-up CPU goes, part by part, from the kernel's accounting.

Every figure comes from the kernel's CPU accounting, never from a wall clock: the bot's
cgroup (``cpu.stat``, every process of its tree: bubblewrap, the shell, setpriv, the
interpreter and anything it starts) and this process's own ``getrusage`` (the worker's
side: spawning the sandbox and waiting for its readiness).

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

**A warm start** (`StartupParts.warm`), interleaved with the rungs: the same bot forked
from the template (`warm.py`) into the same kind of sandbox, its tree's CPU at readiness
plus what the template and its child spent outside the tree (`BotProcess.cpu_at_ready`).

A whole match's cost, sandboxed against in-process, is `workers.match_cost`'s.
"""

from __future__ import annotations

import dataclasses
import resource
import statistics
import time

from .environment import BotEnvironment
from .kinds import AnyEnvironment
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
    """Each part of RUNGS: its rung's median minus the previous rung's (so they add up to
    the last rung; a small negative part is the machine's noise between two rungs)."""
    rungs: dict[str, float]
    """Each rung's median cgroup CPU at its readiness line."""
    worker: float
    """The worker's own CPU per start (spawning, the cgroup, waiting for readiness)."""
    starts: int
    warm: float | None = None
    """A warm start's CPU to readiness: the bot's tree, the template and its child (None
    where no template could start: the reason is `warm_problem`)."""
    warm_worker: float | None = None
    """The worker's own CPU per warm start."""
    warm_problem: str | None = None
    """Why the warm starts were cold, if they were."""

    @property
    def warm_share(self) -> float | None:
        """A warm start's CPU over a cold one's (the bot's side of each)."""
        return None if self.warm is None else self.warm / self.bot_total

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

    def inner_command(self, env: AnyEnvironment, uid: int) -> list[str]:
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


def _warm_cpu(sandbox: Sandbox, env: BotEnvironment) -> tuple[float, float, str | None]:
    """A warm start's CPU to readiness, the worker's, and why it was cold if it was."""
    before = self_cpu_seconds()
    bot = sandbox.start(env, seat=0)
    try:
        if not bot.wait_ready(PROBE_TIMEOUT) or bot.cpu_at_ready is None:
            raise RuntimeError(f"the warm bot did not start: {bot.exit_reason()}")
        return bot.cpu_at_ready, self_cpu_seconds() - before, bot.cold_reason
    finally:
        bot.stop()


def measure_startup(env: BotEnvironment, starts: int = 10) -> StartupParts:
    """Start `env`'s bot `starts` times per rung and warm (all interleaved, after one
    warm-up each) and split its cold start-to-ready CPU into RUNGS' parts.

    Raises SandboxUnavailableError when this machine cannot sandbox, RuntimeError when a
    probe does not reach its line (or no cgroup accounts for the bot's CPU).
    """
    sandbox = _ProbeSandbox(warm=False)  # the rungs are a cold start's
    warm_sandbox = Sandbox(warm=True)
    probes = _probe_commands(env)
    samples: dict[str, list[float]] = {rung: [] for rung in RUNGS}
    worker: list[float] = []
    warm: list[float] = []
    warm_worker: list[float] = []
    problem: str | None = None
    try:
        for index in range(starts + 1):
            for rung in RUNGS:
                value = _rung_cpu(sandbox, env, probes[rung])
                if index:
                    samples[rung].append(value)
            value = _serving_worker_cpu(sandbox, env)
            if index:
                worker.append(value)
            cpu, own, problem = _warm_cpu(warm_sandbox, env)
            if index:
                warm.append(cpu)
                warm_worker.append(own)
    finally:
        warm_sandbox.close()
    rungs = {rung: statistics.median(values) for rung, values in samples.items()}
    parts: dict[str, float] = {}
    previous = 0.0
    for rung in RUNGS:
        parts[rung] = rungs[rung] - previous
        previous = rungs[rung]
    return StartupParts(
        parts,
        rungs,
        statistics.median(worker),
        starts,
        warm=None if problem else statistics.median(warm),
        warm_worker=None if problem else statistics.median(warm_worker),
        warm_problem=problem,
    )
