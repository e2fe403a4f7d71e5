"""`arena bench analysis` (issue 33): it prints the cost and the seeds' agreement of a real
analysis, and the agreement it reports is the overlap of what the two analyses flagged."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.analysis import Settings
from arena.benchmarks.analysis import measure
from arena.cli import main
from arena.engine import Rules
from arena.engine.presets import PRESETS, preset
from tests.workers.conftest import sandbox_or_skip
from tests.workers.processes import (
    cmdline,
    descendants_of,
    in_session,
    session_of,
    wait_until,
)

FAST = Settings(samples=8, playouts=1, seed=1)


def test_the_command_prints_core_seconds_and_agreement_for_each_match() -> None:
    result = CliRunner().invoke(
        main,
        [
            *("bench", "analysis", "--rules", "pledge", "--hands", "2", "--matches", "2"),
            *("--samples", "8", "--playouts", "1", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output[result.output.index("[") :])
    assert [f["match_seed"] for f in figures] == [1, 2]
    for f in figures:
        assert f["hands"] == 2 and f["decisions"] > 0
        assert len(f["core_seconds"]) == 2 and all(s >= 0 for s in f["core_seconds"])
        for name in ("flagged_agreement", "marked_agreement", "worst_agreement"):
            assert 0.0 <= f[name] <= 1.0


def test_two_analyses_with_one_seed_agree_exactly_and_other_seeds_are_measured() -> None:
    rules = preset("standard").replace(target_score=None, max_hands=1)
    settings = Settings(samples=8, playouts=1, seed=3)
    same = measure(rules, 5, settings, other_seed=3)
    assert same.flagged[0] == same.flagged[1]
    assert (same.flagged_agreement, same.marked_agreement, same.worst_agreement) == (1.0,) * 3
    other = measure(rules, 5, settings, other_seed=4)
    assert other.decisions == same.decisions  # the same match, judged decision by decision
    assert other.flagged[0] == same.flagged[0]  # the first analysis repeats exactly


def test_several_presets_in_one_call_each_named_in_order() -> None:
    result = CliRunner().invoke(
        main,
        [
            *("bench", "analysis", "--rules", "two_player,pledge", "--hands", "1"),
            *("--matches", "1", "--samples", "8", "--playouts", "1", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output[result.output.index("[") :])
    assert [f["rules"] for f in figures] == ["two_player", "pledge"]
    assert all(f["hands"] == 1 and f["decisions"] > 0 for f in figures)
    # two players and four judge different decisions: each preset was dealt its own rules
    assert figures[0]["decisions"] != figures[1]["decisions"]
    text = CliRunner().invoke(
        main,
        [
            *("bench", "analysis", "--rules", "two_player,pledge", "--hands", "1"),
            *("--matches", "1", "--samples", "8", "--playouts", "1"),
        ],
    )
    assert text.exit_code == 0, text.output
    assert text.output.index("two_player: core-seconds") < text.output.index("pledge: core-seconds")


def test_an_unknown_preset_in_the_list_is_refused_before_any_analysis() -> None:
    result = CliRunner().invoke(main, ["bench", "analysis", "--rules", "standard,nosuch"])
    assert result.exit_code == 2
    assert "no such preset: nosuch" in result.output


def test_all_presets_lists_every_preset(monkeypatch: pytest.MonkeyPatch) -> None:
    """--all-presets measures every preset in name order (the measurement replaced by a
    record of the rules it was given: fifty real analyses would take half an hour)."""
    import arena.benchmarks.analysis as bench

    seen: list[int] = []

    def measure_rules(rules: Rules, match_seed: int, *args: object, **kwargs: object) -> Any:
        seen.append(rules.players)
        return measure(preset("two_player").replace(target_score=None, max_hands=1), 1, FAST, 2)

    monkeypatch.setattr(bench, "measure", measure_rules)
    result = CliRunner().invoke(
        main, ["bench", "analysis", "--all-presets", "--matches", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output[result.output.index("[") :])
    assert [f["rules"] for f in figures] == sorted(PRESETS)
    assert seen == [preset(name).players for name in sorted(PRESETS)]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_season_beside_analyses_counts_its_matches_and_analyses() -> None:
    """`--season` on the real path, small: a season of two one-hand matches alone, then with
    one analysis of a one-hand match queued beside it on its own worker."""
    sandbox_or_skip()
    result = CliRunner().invoke(
        main,
        [
            *("bench", "analysis", "--season", "2", "--season-hands", "1", "--matches", "1"),
            *("--hands", "1", "--repeats", "1", "--json"),
        ],
    )
    assert result.exit_code == 0, result.output
    runs = json.loads(result.output[result.output.index("[") :])
    assert [r["analyses_queued"] for r in runs] == [0, 1]
    # the analysis was asked in the season's own database, where its worker reads
    assert [r["analyses_asked"] for r in runs] == [0, 1]
    for run in runs:
        assert run["matches"] == run["done"] == 2
        assert run["seconds"] > 0
        assert run["per_minute"] == pytest.approx(run["done"] / run["seconds"] * 60, rel=0.01)
        assert 0 <= run["analyses_done"] <= run["analyses_asked"]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_stopped_season_bench_leaves_no_analysis_worker_running(tmp_path: Path) -> None:
    """SIGTERM ends `arena bench analysis --season` and every process it started, each in
    a session of its own (the season's match worker, the analysis worker); before,
    SIGTERM killed the bench before its `finally` stopped them, and they kept running
    (one was found two hours later)."""
    sandbox_or_skip()
    stderr = tmp_path / "stderr"
    bench = subprocess.Popen(
        [
            *(sys.executable, "-m", "arena.cli", "bench", "analysis", "--season", "2"),
            *("--season-hands", "1", "--matches", "20", "--hands", "13", "--repeats", "1"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=stderr.open("wb"),
        start_new_session=True,  # its own session: what is left of it can be found
    )
    sessions = {bench.pid}

    def analysis_worker() -> int:
        """The analysis worker's pid once the bench has started it (0 before)."""
        assert bench.poll() is None, stderr.read_text()
        return next((p for p in descendants_of(bench.pid) if "analysis@" in cmdline(p)), 0)

    try:
        wait_until(analysis_worker, 600, "the analysis worker to start")
        # every process the bench started, the season's match worker too, in whatever
        # session it was started
        sessions |= {session_of(pid) for pid in descendants_of(bench.pid)} - {0}
        bench.send_signal(signal.SIGTERM)
        assert bench.wait(timeout=120) == 0, stderr.read_text()
        for session in sorted(sessions):
            wait_until(session_ended(session), 60, f"session {session} to end")
    finally:
        for session in sessions:
            for pid in in_session(session):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        if bench.poll() is None:
            bench.kill()
        bench.wait()


def session_ended(session: int) -> Callable[[], bool]:
    return lambda: not in_session(session)
