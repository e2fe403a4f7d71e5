"""Frozen off-turn: a sandboxed bot's cgroup is frozen while it is not answering, so it
uses CPU only on its own time; notifications still reach it.

The bot here (hostile/think_off_turn.py) spins a thread from its first decision: without
freezing it would burn a core all match long.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.engine import preset
from arena.match.clock import TimePolicy
from arena.match.remote import GrpcSeat, turn_host
from arena.match.runner import Entrant, MatchRunner
from arena.match.spec import house_seat, parse_bot_spec
from tests.sandbox.client import BotClient
from tests.sandbox.conftest import HOSTILE, MakeEnv, processes_of, sandbox_or_skip
from workers.sandbox import BotProcess, Sandbox, SandboxPolicy

pytestmark = pytest.mark.timeout(120)


def wait_until(condition: object, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.01)


def frozen(bot: BotProcess) -> bool:
    assert bot._cgroup is not None
    return bot._cgroup.frozen() is True


def cpu(bot: BotProcess) -> float:
    used = bot.cpu_seconds()
    assert used is not None
    return used


def test_a_frozen_bot_uses_no_cpu_and_runs_again_once_thawed(
    sandbox: Sandbox, make_env: MakeEnv
) -> None:
    bot = sandbox.start(make_env("think_off_turn"), seat=1, policy=SandboxPolicy(cpu_seconds=60))
    try:
        if not bot.freezable:
            pytest.skip(f"no cgroup v2 freezer here: {sandbox.cgroups.describe()}")
        assert bot.wait_ready(20), bot.exit_reason()
        client = BotClient(bot.address)
        client.start()
        client.play(timeout=10)  # starts the spinning thread
        before = cpu(bot)
        wait_until(lambda: cpu(bot) > before + 0.05, "spinning")  # it thinks off-turn...
        bot.freeze()
        wait_until(lambda: frozen(bot), "frozen")
        held = cpu(bot)
        time.sleep(0.3)
        assert cpu(bot) == held  # ...not once frozen
        bot.thaw()
        assert not frozen(bot)
        wait_until(lambda: cpu(bot) > held, "running again")
        client.play(timeout=10)  # and it still answers
        client.close()
    finally:
        bot.stop()


def test_a_sandboxed_seat_is_frozen_between_its_turns_and_gets_its_notifications(
    tmp_path: Path,
) -> None:
    from workers.sandbox import start_bot_file

    sandbox_or_skip()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "bot.py").write_text((HOSTILE / "think_off_turn.py").read_text())
    host = start_bot_file(tmp_path / "mine" / "bot.py", seat=0)
    if not host.process.freezable:
        host.stop()
        pytest.skip("no cgroup v2 freezer here")
    turns = turn_host(host)
    assert turns is not None
    states: list[bool] = []  # at each of the seat's calls: was it frozen after a freeze?
    thaws: list[bool] = []

    class Watched:
        def __getattr__(self, name: str) -> object:
            return getattr(host, name)

        def thaw(self) -> None:
            thaws.append(True)
            host.thaw()

        def freeze(self) -> None:
            host.freeze()
            wait_until(lambda: frozen(host.process), "frozen after the answer")
            states.append(True)

    watched = Watched()
    seat = GrpcSeat(host.address, "thinker", host=watched)  # type: ignore[arg-type]
    rules = preset("standard").replace(target_score=None, max_hands=2)
    entrants = [Entrant("thinker", seat)] + [
        Entrant(f"house {i}", house_seat(parse_bot_spec("house:random"), i)) for i in range(1, 4)
    ]
    try:
        outcome = MatchRunner(rules, entrants, 7, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        host.stop()
    assert not outcome.void, outcome.void_reason
    assert outcome.replay["faults"] == []
    assert len(states) > 26  # frozen after each decision
    # Thawed only for what it answers (MatchStart, then each of its decisions) and once at
    # the game's end to read to the end: never for a notification, which waits in its
    # socket while it is frozen...
    [game] = outcome.replay["games"]
    decisions = [a for hand in game["hands"] for a in hand["actions"] if a["seat"] == 0]
    assert len(thaws) == 1 + len(decisions) + 1
    # ...and is still handled, every one of them, on its next turn.
    assert "NOTIFIED tricks=26 hands=2" in host.log_excerpt()


@pytest.mark.parametrize("path", ["warm", "cold"])
def test_only_the_bots_own_processes_are_in_the_frozen_group(
    path: str, sandbox: Sandbox, make_env: MakeEnv
) -> None:
    """The freezer's cost is per task it holds, so it holds the bot's processes (and the
    children they start) and nothing else: bubblewrap and the sandbox's init (the warm
    start's placeholder) stay in the bot's group, outside its frozen leaf, where its
    limits and accounting still cover them."""
    starter = sandbox if path == "warm" else Sandbox(warm=False)
    if path == "warm" and starter.templates is None:
        pytest.skip("warm starts are off here (ARENA_WARM_STARTS=0)")
    bot = starter.start(make_env("sleeping_children"), seat=1)
    try:
        if not bot.freezable:
            pytest.skip(f"no cgroup v2 freezer here: {sandbox.cgroups.describe()}")
        assert bot.wait_ready(30), bot.exit_reason()
        assert bot.warm is (path == "warm"), bot.cold_reason
        client = BotClient(bot.address)
        client.start()
        client.play(timeout=10)  # starts the two children
        group = bot._cgroup
        assert group is not None
        leaf = group.bot_procs_file()
        assert leaf is not None
        sandbox_own = leaf.parent.parent / "cgroup.procs"

        def listed(path: Path) -> set[int]:
            return {int(pid) for pid in path.read_text().split()}

        wait_until(lambda: len(listed(leaf)) == 3, "the bot and its two children in the leaf")
        assert listed(leaf) == set(processes_of(bot.uid))  # the bot's, and only the bot's
        outside = listed(sandbox_own)
        assert bot.init_pid in outside and len(outside) == 2  # bubblewrap and the init
        assert not outside & set(processes_of(bot.uid))
        bot.freeze()
        wait_until(lambda: frozen(bot), "frozen")
        assert "frozen 0" in (sandbox_own.parent / "cgroup.events").read_text().split("\n")
        bot.thaw()
        client.play(timeout=10)
        client.close()
    finally:
        bot.stop()
        if starter is not sandbox:
            starter.close()
    assert processes_of(bot.uid) == []
