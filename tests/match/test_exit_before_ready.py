"""A bot that exits before it is ready is reported at once, in the bot's words said once
(issue 31, items 1 and 2).

The bot is a real program (a shell script that prints to stderr and exits 2), run as the
local host runs it (`arena.match.process.BotProcess`), through the seat, the check and the
`arena bot check --command` command. No clock is read: every wait here is given longer
than the test may run, so a wait that returns at all returned because the process exited
(the test's timeout fails a wait that would sit out its deadline).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from arena.bots import HeuristicBot
from arena.engine import preset
from arena.match.check import check_seat
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat

pytestmark = pytest.mark.timeout(60)

_T = TypeVar("_T")

PAST_THE_TIMEOUT = 120.0
"""Every wait is given longer than the test may take (its timeout, 60 s)."""
REPOSITORY = Path(__file__).resolve().parents[2]
SAID_ONCE = "exited with status 2 before it was ready"


def in_a_thread(action: Callable[[], _T]) -> _T:
    """`action()` run in a daemon thread: the test's timeout interrupts the join here
    (the runner's event loop would hold the timeout's signal back until it returns)."""
    results: list[_T] = []
    thread = threading.Thread(target=lambda: results.append(action()), daemon=True)
    thread.start()
    thread.join()
    assert results, "the action raised (see the thread's traceback above)"
    return results[0]


@pytest.fixture
def dies(tmp_path: Path) -> Path:
    """A program that says why on stderr and exits 2 before any readiness line."""
    script = tmp_path / "dies.sh"
    script.write_text('#!/bin/sh\necho "no config, giving up" >&2\nexit 2\n')
    script.chmod(0o755)
    return script


@pytest.fixture
def dies_leaving_a_child(tmp_path: Path) -> Path:
    """Exits 2 while a process it started keeps its stdout open (no end of stdout)."""
    script = tmp_path / "orphan.sh"
    script.write_text("#!/bin/sh\nsleep 600 &\nexit 2\n")
    script.chmod(0o755)
    return script


def test_the_local_hosts_wait_ends_when_the_process_exits(dies: Path) -> None:
    host = BotProcess("dies", command=[str(dies)])
    try:
        assert host.wait_ready(PAST_THE_TIMEOUT) is False
        assert host.exit_reason() == SAID_ONCE
        assert "no config, giving up" in host.log_excerpt()
    finally:
        host.stop()


def test_an_exit_ends_the_wait_even_when_a_child_holds_its_stdout(
    dies_leaving_a_child: Path,
) -> None:
    host = BotProcess("orphan", command=[str(dies_leaving_a_child)])
    try:
        assert host.wait_ready(PAST_THE_TIMEOUT) is False
        assert host.exit_reason() == SAID_ONCE
    finally:
        host.stop()  # the sleep goes with its process group


def test_the_match_faults_it_at_once_in_words_said_once(dies: Path) -> None:
    host = BotProcess("dies", command=[str(dies)])
    rules = preset("standard").replace(target_score=None, max_hands=1)
    entrants = [Entrant("dies", GrpcSeat(host.address, "dies", host=host))] + [
        Entrant(f"house {i}", InProcessSeat(HeuristicBot(i))) for i in range(1, 4)
    ]
    runner = MatchRunner(rules, entrants, 3, time_policy=TimePolicy(ready_timeout=PAST_THE_TIMEOUT))
    try:
        outcome = in_a_thread(runner.run)
    finally:
        host.stop()
    faults = [f for f in outcome.replay["faults"] if f["entrant"] == 0]
    assert faults, outcome.replay["faults"]
    assert faults[0]["kind"] == "crash"
    assert faults[0]["detail"] == f"the bot {SAID_ONCE}"


def test_the_check_fails_it_at_once_in_words_said_once(dies: Path) -> None:
    host = BotProcess("dies", command=[str(dies)])
    seat = GrpcSeat(host.address, "dies", host=host)
    policy = TimePolicy(ready_timeout=PAST_THE_TIMEOUT)
    try:
        report = in_a_thread(lambda: asyncio.run(check_seat(seat, time_policy=policy)))
    finally:
        host.stop()
    assert not report.passed
    assert report.summary == f"failed: crash — the bot {SAID_ONCE}"
    assert report.summary.count("before it was ready") == 1


def test_arena_bot_check_says_it_once(dies: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "arena.cli", "bot", "check", "--command", f"./{dies.name}"],
        cwd=dies.parent,
        capture_output=True,
        text=True,
        timeout=50,
        env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPOSITORY)},
        check=False,
    )
    assert result.returncode == 1
    assert f"failed: crash — the bot {SAID_ONCE}" in result.stderr
    assert result.stderr.count("before it was ready") == 1
    assert "no config, giving up" in result.stderr
