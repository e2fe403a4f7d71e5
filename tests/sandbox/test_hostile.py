"""The hostile battery: each bot in hostile/ attacks from inside the sandbox (seat 1) while an
honest sandboxed bot (seat 0) stays at the table. Each test asserts that the attack is
contained (the bot's own report, the host's traps, no process left behind) and that the
honest seat still answers in time. Run it alone with ``pytest tests/sandbox``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.engine import preset
from arena.match.faults import FaultKind, exit_fault_kind
from arena.match.remote import GrpcSeat
from arena.match.runner import Entrant, MatchRunner
from arena.match.spec import house_seat, parse_bot_spec
from arena.match.verify import verify
from tests.sandbox.client import BotClient, BotFaultError
from tests.sandbox.conftest import HostTraps, MakeEnv, processes_of
from workers.sandbox import BotProcess, ExitKind, ExitReason, Sandbox, SandboxPolicy
from workers.sandbox.environment import platform_paths
from workers.sandbox.host import SandboxHost
from workers.sandbox.policy import KIB, MIB

pytestmark = pytest.mark.timeout(90)

TIGHT = SandboxPolicy(
    memory_bytes=128 * MIB,
    max_processes=48,
    cpu_seconds=4,
    cpu_cores=1.0,
    file_size_bytes=1 * MIB,
    tmp_bytes=4 * MIB,
    socket_dir_bytes=64 * KIB,
    log_bytes=16 * KIB,
    ready_timeout=15,
)
ATTACK_TIMEOUT = 30.0


@dataclasses.dataclass
class Seat:
    bot: BotProcess
    client: BotClient


@pytest.fixture(scope="module")
def honest(sandbox: Sandbox, make_env: MakeEnv) -> Iterator[Seat]:
    bot = sandbox.start(make_env("honest"), seat=0, policy=TIGHT)
    assert bot.wait_ready(), bot.exit_reason()
    client = BotClient(bot.address, seat=0)
    client.start()
    yield Seat(bot, client)
    client.close()
    assert bot.stop().kind is ExitKind.STOPPED
    assert processes_of(bot.uid) == []


def params(honest: Seat, traps: HostTraps, honest_env: Path) -> dict[str, Any]:
    """What the hostile bots aim at (written to their params.json)."""
    from workers.sandbox import launcher

    assert honest.bot.init_pid is not None
    return {
        "tcp_port": traps.tcp_port,
        "udp_port": traps.udp_port,
        "abstract_name": traps.abstract_name,
        "unix_path": traps.unix_path,
        "canary": str(traps.canary),
        "secret": traps.secret,
        "host_target": str(traps.write_target),
        "worker_code": launcher.__file__,
        "platform_site": sysconfig.get_paths()["purelib"],
        "platform_paths": [str(path) for path in platform_paths()],
        "worker_prefix": sys.prefix,
        "host_paths": [str(honest_env.parent), sys.base_prefix, str(Path.cwd())],
        "other_socket": f"/proc/{honest.bot.init_pid}/root/run/bot/bot.sock",
        "other_pid": honest.bot.pid,
        "runner_pid": os.getpid(),
        "other_env": str(honest_env),
        "other_bot_file": str(honest_env / "bot" / "honest.py"),
    }


@dataclasses.dataclass
class Run:
    bot: BotProcess
    reason: ExitReason
    reports: list[tuple[str, str]]
    stderr: str


class Arena:
    """Starts a hostile bot beside the honest one and checks what must hold afterwards."""

    def __init__(
        self, sandbox: Sandbox, make_env: MakeEnv, honest: Seat, traps: HostTraps, env_root: Path
    ) -> None:
        self.sandbox = sandbox
        self.make_env = make_env
        self.honest = honest
        self.traps = traps
        self.env_root = env_root
        self.started: list[BotProcess] = []

    def start(self, name: str, policy: SandboxPolicy = TIGHT, **extra: Any) -> BotProcess:
        """Start `name` at seat 1; `extra` goes to its params.json beside the targets."""
        honest_env = next((self.env_root / "versions").glob("honest-*"))
        env = self.make_env(name, params(self.honest, self.traps, honest_env) | extra)
        bot = self.sandbox.start(env, seat=1, policy=policy)
        self.started.append(bot)
        return bot

    def honest_answers(self) -> None:
        card, elapsed = self.honest.client.play(timeout=2.0)
        assert card == "2S" and elapsed < 1.0

    def finish(self, bot: BotProcess) -> Run:
        reason = bot.stop()
        assert processes_of(bot.uid) == [], "processes of the bot outlived stop()"
        for hierarchy in self.sandbox.cgroups.hierarchies:
            leftovers = [
                p.name
                for p in hierarchy.base.iterdir()
                if p.name.startswith(f"{os.getpid()}-") and "-seat1-" in p.name
            ]
            assert leftovers == [], f"cgroups left behind: {leftovers}"
        assert self.traps.untouched(), f"the host was reached: {self.traps.connections}"
        self.honest_answers()
        stderr = bot.stderr.text()
        reports = []
        for line in stderr.splitlines():
            if line.startswith("ATTACK "):
                outcome, _, text = line.removeprefix("ATTACK ").partition(" ")
                reports.append((outcome, text))
        print(f"{bot!r}: {reason}\n{stderr[-3000:]}", file=sys.stderr)
        return Run(bot, reason, reports, stderr)

    def attack(
        self,
        name: str,
        policy: SandboxPolicy = TIGHT,
        *,
        play_timeout: float = 20.0,
        expect_answer: bool = True,
    ) -> Run:
        """Start `name`, trigger its attack with a play, check the honest seat meanwhile."""
        bot = self.start(name, policy)
        try:
            assert bot.wait_ready(), bot.exit_reason()
            client = BotClient(bot.address)
            client.start()
            try:
                client.play(timeout=play_timeout)
                answered = True
            except BotFaultError:
                answered = False
            finally:
                client.close()
            self.honest_answers()
            if expect_answer:
                assert answered, f"the bot did not answer: {bot.stderr.text()[-2000:]}"
            deadline = time.monotonic() + ATTACK_TIMEOUT
            while "ATTACK DONE" not in bot.stderr.text() and bot.alive():
                assert time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            run = self.finish(bot)
        return run


@pytest.fixture
def arena(
    sandbox: Sandbox, make_env: MakeEnv, honest: Seat, traps: HostTraps, env_root: Path
) -> Iterator[Arena]:
    arena = Arena(sandbox, make_env, honest, traps, env_root)
    yield arena
    for bot in arena.started:  # a failed test still leaves nothing running
        bot.stop()


def assert_all_blocked(run: Run) -> None:
    escaped = [text for outcome, text in run.reports if outcome == "ESCAPED"]
    assert escaped == [], f"escaped: {escaped}"
    assert any(outcome == "BLOCKED" for outcome, _ in run.reports), run.stderr[-2000:]
    assert ("DONE", run.reports[-1][1]) in run.reports


# -- attacks contained by the sandbox's walls (the bot lives on and keeps playing) -------------

CONTAINED = [
    "net_tcp",
    "net_udp",
    "net_dns",
    "net_host_unix",
    "net_raw",
    "read_secrets",
    "read_worker_code",
    "read_other_bot",
    "write_outside",
    "env_secrets",
    "proc_snoop",
    "proc_global",
    "signal_others",
    "ptrace_attach",
    "setuid_binary",
    "user_namespace",
    "mount_fs",
    "keyring",
    "io_uring",
    "kernel_surface",
    "handle_escape",
    "fork_bomb",
    "thread_bomb",
    "disk_fill",
    "file_size",
]


@pytest.mark.parametrize("name", CONTAINED)
def test_attack_is_contained(arena: Arena, name: str) -> None:
    run = arena.attack(name)
    assert_all_blocked(run)
    assert run.reason.kind is ExitKind.STOPPED, run.reason


def test_fork_bomb_is_held_at_the_process_limit(arena: Arena) -> None:
    run = arena.attack("fork_bomb")
    assert_all_blocked(run)
    assert "refused" in run.reason.message  # the pids controller counted refusals


# -- attacks the sandbox ends by killing the bot ------------------------------------------------


def test_memory_hog_is_killed_for_memory(arena: Arena) -> None:
    run = arena.attack("memory_hog", expect_answer=False)
    assert run.reason.kind is ExitKind.MEMORY, run.reason
    assert "out of memory" in run.reason.message
    # The runner's fault says so too (issue 17: not text under "crash").
    assert exit_fault_kind(SandboxHost(run.bot).exit_reason()) is FaultKind.OUT_OF_MEMORY
    assert not any(outcome == "ESCAPED" for outcome, _ in run.reports)


def test_cpu_spin_is_killed_at_the_cpu_limit(arena: Arena) -> None:
    policy = dataclasses.replace(TIGHT, cpu_seconds=1.5)
    bot = arena.start("cpu_spin", policy)
    assert bot.wait_ready()
    client = BotClient(bot.address)
    client.start()
    client.play()
    deadline = time.monotonic() + 15
    while bot.alive():
        arena.honest_answers()
        assert time.monotonic() < deadline, "the spinning bot was not stopped"
        time.sleep(0.1)
    client.close()
    run = arena.finish(bot)
    assert run.reason.kind is ExitKind.CPU_TIME, run.reason
    assert exit_fault_kind(SandboxHost(bot).exit_reason()) is FaultKind.CPU_LIMIT


def test_cpu_spread_over_processes_is_added_up(arena: Arena) -> None:
    """Four children of 1.5 s each stay under RLIMIT_CPU; the cgroup's total does not."""
    policy = dataclasses.replace(TIGHT, cpu_seconds=2.5, cpu_cores=2.0)
    bot = arena.start("cpu_spin_children", policy)
    assert bot.wait_ready()
    client = BotClient(bot.address)
    client.start()
    client.play()
    deadline = time.monotonic() + 20
    while bot.alive():
        assert time.monotonic() < deadline, "the spinning children were not stopped"
        time.sleep(0.1)
    client.close()
    run = arena.finish(bot)
    assert run.reason.kind is ExitKind.CPU_TIME, run.reason


def test_output_flood_is_capped(arena: Arena) -> None:
    run = arena.attack("output_flood")
    assert run.reason.output_truncated
    assert "truncated" in run.reason.message
    assert run.bot.stdout.total >= 63 * MIB and run.bot.stderr.total >= 63 * MIB
    assert len(run.bot.stdout.data()) < TIGHT.log_bytes + 200
    assert len(run.bot.stderr.data()) < TIGHT.log_bytes + 200


def test_daemon_does_not_outlive_the_match(arena: Arena) -> None:
    bot = arena.start("daemonize")
    assert bot.wait_ready()
    client = BotClient(bot.address)
    client.start()
    client.play()
    client.close()
    time.sleep(0.5)
    assert len(processes_of(bot.uid)) >= 2  # the server and its daemon
    arena.finish(bot)  # asserts that none is left


def test_crash_is_reported_with_its_signal(arena: Arena) -> None:
    run = arena.attack("crash_segfault", expect_answer=False)
    assert run.reason.kind is ExitKind.CRASHED
    assert "SIGSEGV" in run.reason.message


def test_crash_at_import_is_reported_with_the_bots_error(arena: Arena) -> None:
    bot = arena.start("crash_at_import")
    assert not bot.wait_ready()
    run = arena.finish(bot)
    assert run.reason.kind is ExitKind.CRASHED
    assert "before it was ready" in run.reason.message
    assert "broken on purpose" in run.stderr


# -- attacks on the runner ----------------------------------------------------------------------


def test_never_ready_bot_is_given_up(arena: Arena) -> None:
    bot = arena.start("never_ready")
    started = time.monotonic()
    assert not bot.wait_ready(timeout=2.0)
    assert time.monotonic() - started < 4.0
    run = arena.finish(bot)
    assert run.reason.kind is ExitKind.NEVER_READY
    assert "no readiness line within 2 s" in run.reason.message


def test_fake_readiness_line_without_a_socket(arena: Arena) -> None:
    bot = arena.start("fake_ready")
    assert not bot.wait_ready(timeout=2.0)
    run = arena.finish(bot)
    assert run.reason.kind is ExitKind.NEVER_READY
    assert "no socket at /run/bot/bot.sock" in run.reason.message
    assert "(still so after 2 s)" in run.reason.message  # looked for until the deadline


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("socket_symlink_seat", "a symbolic link"),
        ("socket_symlink_host", "a symbolic link"),
        ("socket_plain_file", "a regular file"),
    ],
)
def test_socket_swapped_before_dialling_is_refused(arena: Arena, name: str, found: str) -> None:
    bot = arena.start(name)
    assert not bot.wait_ready(timeout=60.0)
    run = arena.finish(bot)  # also: the host's listener got no connection
    assert run.reason.kind is ExitKind.NEVER_READY
    assert f"/run/bot/bot.sock is {found}, not a socket" in run.reason.message
    # Given up on what stands at the path at once, not at the readiness deadline.
    assert "still so after" not in run.reason.message


def test_socket_swapped_after_dialling_changes_nothing(arena: Arena) -> None:
    bot = arena.start("socket_swap_later")
    assert bot.wait_ready()
    client = BotClient(bot.address)
    client.start()
    client.play()  # the bot now swaps its socket for a link to the honest seat's
    client.close()
    fresh = BotClient(bot.address)  # a new connection through the pinned descriptor
    try:
        assert fresh.ready() == "SocketSwapLaterBot"
    finally:
        fresh.close()
    arena.finish(bot)


@pytest.mark.parametrize("name", ["huge_reply", "malformed_reply", "slow_reply"])
def test_bad_replies_become_faults(arena: Arena, name: str) -> None:
    bot = arena.start(name)
    assert bot.wait_ready()
    client = BotClient(bot.address)
    client.start()
    started = time.monotonic()
    with pytest.raises(BotFaultError):
        client.play(timeout=3.0)
    assert time.monotonic() - started < 4.0
    client.close()
    arena.honest_answers()
    arena.finish(bot)


ANNOUNCED_BOUND = 64 * MIB
"""What huge_announce may write on one connection once it has announced 2 GiB: its
STREAMING report's step. Hung up at once, it writes what the runner's windows had granted
(1 MiB here); before, the runner read on for the rest of the bot's turn (over 0.8 GiB)."""


def announce_reports(run: Run, outcome: str) -> dict[int, dict[str, str]]:
    """huge_announce's `outcome` reports (``key=value ...``), by connection number."""
    found = {}
    for said, text in run.reports:
        if said == outcome:
            fields = dict(field.split("=", 1) for field in text.split())
            found[int(fields["connection"])] = fields
    return found


@pytest.mark.parametrize("attacks", [1, 3])
def test_a_huge_announced_answer_ends_the_connection_and_the_turn(
    arena: Arena, attacks: int
) -> None:
    """Issue 30: a bot announces a 2 GiB answer on its first play (of each of its first
    `attacks` connections) and streams junk into it. The runner's receive cap refuses it;
    the seat must hang up that connection at once (the bot's next write fails), fault the
    decision as malformed, and answer its later decisions by the fault policy: a fresh
    connection that plays on (1 attack), or disqualification at the third fault (3)."""
    bot = arena.start("huge_announce", attacks=attacks)
    host = SandboxHost(bot)
    entrants = [Entrant("announcer", GrpcSeat(bot.address, "announcer", host=host))] + [
        Entrant(f"house {i}", house_seat(parse_bot_spec("house:random"), i)) for i in (1, 2, 3)
    ]
    rules = preset("standard").replace(target_score=None, max_hands=1)
    try:
        outcome = MatchRunner(rules, entrants, 7).run()  # the production clock
    finally:
        run = arena.finish(bot)
    assert not outcome.void, outcome.void_reason
    verify(outcome.v1)
    faults = [f for f in outcome.v1["faults"] if f["entrant"] == 0]
    assert [f["kind"] for f in faults] == ["malformed"] * attacks, faults
    for fault in faults:
        assert fault["detail"] == (
            "the answer announced 2147483647 bytes, over the 262144-byte limit; "
            "the connection was closed"
        )
    plays = [
        play
        for trick in outcome.v1["games"][0]["hands"][0]["tricks"]
        for play in trick["plays"]
        if play["seat"] == 0
    ]
    faulted = [i for i, play in enumerate(plays) if "fault" in play]
    assert faulted == list(range(attacks))  # its first plays: one per attacked connection
    connections = announce_reports(run, "CONNECTED")
    if attacks < 3:  # reconnected: a new connection, whose every answer is its own
        assert not outcome.results[0].disqualified
        assert not any("fault" in play or "auto" in play for play in plays[attacks:])
        assert sorted(connections) == list(range(1, attacks + 2)), run.stderr[-3000:]
    else:  # disqualified at its third fault: the defaults from then on
        assert outcome.results[0].disqualified
        assert all(play.get("auto") for play in plays[attacks:])
        assert sorted(connections) == list(range(1, attacks + 1)), run.stderr[-3000:]
    # Each attacked connection was closed before the runner dialled again (the bot looks
    # at its socket as the next one arrives) and the bot's next write on it failed, far
    # below what it wrote while the runner kept reading. (The last one's report may be
    # missing: a disqualified bot is stopped while frozen, before it writes again.)
    assert all(c["attacked_still_open"] == "" for c in connections.values()), connections
    ends = announce_reports(run, "WROTE")
    attacked = set(range(1, attacks + 1))
    if outcome.results[0].disqualified:
        attacked.discard(attacks)
    assert attacked <= set(ends), run.stderr[-3000:]
    for end in ends.values():
        assert end["ended"] in ("BrokenPipeError", "ConnectionResetError"), ends
        assert int(end["bytes"]) < ANNOUNCED_BOUND, ends
    assert not any(said == "STREAMING" for said, _ in run.reports), run.stderr[-3000:]


def test_the_battery_has_enough_distinct_attacks() -> None:
    attacks = {path.stem for path in (Path(__file__).parent / "hostile").glob("*.py")}
    attacks -= {"_attack", "honest"}
    assert len(attacks) >= 25


def test_packages_inside_the_mounts_are_covered(arena: Arena) -> None:
    """The production layout's risk, on this machine: the interpreter the sandbox mounts
    (for its standard library) has packages installed beside it, as /usr/local would if
    the platform were pip-installed there. The positive control: they are there on the
    host; the attack: none of them can even be listed from inside."""
    import sys as system

    mounted = [Path("/usr"), Path(system.base_prefix).resolve()]
    inside = [
        path
        for path in platform_paths()
        if any(root == path or root in path.parents for root in mounted) and any(path.iterdir())
    ]
    assert inside, "nothing installed inside the mounts here: the test would prove nothing"
    run = arena.attack("read_worker_code")
    assert_all_blocked(run)
    blocked = {text.partition(":")[0] for outcome, text in run.reports if outcome == "BLOCKED"}
    for path in inside:
        assert f"list {path}" in blocked
    for name in ("arena", "workers.sandbox", "web", "flask", "sqlalchemy", "celery"):
        assert f"import {name}" in blocked
