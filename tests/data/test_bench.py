"""`arena bench export` and `arena bench baseline` on small seasons: the export's child
process reports its peak memory and its files, and the four estimators are measured on
a season read back as recorded."""

from __future__ import annotations

from arena.data.bench import bench_baseline, bench_export, describe_baseline, describe_export
from tests.workers.processes import in_session


def test_the_export_bench_measures_a_child_process() -> None:
    figures = bench_export(matches=6, entrants=4)
    assert figures.matches >= 6
    assert figures.hands > figures.matches
    assert figures.peak_rss_kib >= figures.rss_after_imports_kib > 0
    assert figures.files["matches.jsonl.gz"] > 0
    assert "peak resident memory" in "\n".join(describe_export(figures))


def test_the_baseline_bench_measures_four_estimators() -> None:
    bench = bench_baseline(sets=4, strengths=(0.0, 0.5, 1.0, 0.25))
    assert [e.name for e in bench.estimators] == [
        "single games",
        "single games + baseline",
        "duplicate sets",
        "duplicate sets + baseline",
    ]
    assert bench.games == 4 * bench.sets
    assert bench.deals < bench.hands  # a set's rotations share their deals' references
    single, adjusted, duplicate, both = bench.estimators
    assert adjusted.seconds_per_hand > single.seconds_per_hand == duplicate.seconds_per_hand
    assert both.seconds_per_hand < adjusted.seconds_per_hand
    assert bench.efficiency(single) == 1.0
    assert len(bench.halves) == 2
    assert "per core-s" in "\n".join(describe_baseline(bench))


def test_arena_bench_export_prints_its_figures_as_json() -> None:
    """`arena bench export --json`: stdout is one JSON object (the bar goes to stderr),
    with the season played by two child processes."""
    import json

    from click.testing import CliRunner

    from arena.commands.data_bench import bench_export as command

    result = CliRunner().invoke(
        command, ["--matches", "6", "--entrants", "4", "--processes", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["matches"] >= 6 and figures["hands"] > figures["matches"]
    assert figures["peak_rss_kib"] >= figures["rss_after_imports_kib"] > 0
    assert figures["files"]["hands.parquet"] > 0


def test_a_stopped_export_bench_leaves_no_player_running(tmp_path) -> None:
    """SIGTERM (a service manager's or `kill`'s stop) ends `arena bench export` and the
    child processes playing its season with it; before, the players kept running."""
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "arena.cli", "bench", "export", "--matches", "5000"]
    bench = subprocess.Popen(
        [*command, "--processes", "2", "--json"],
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "stderr").open("wb"),
        start_new_session=True,  # its own session: what is left of it can be found
    )
    try:
        deadline = time.monotonic() + 120
        while len(in_session(bench.pid)) < 3:  # the bench and its children started
            assert bench.poll() is None, (tmp_path / "stderr").read_text()
            assert time.monotonic() < deadline, "the players never started"
            time.sleep(0.1)
        bench.send_signal(signal.SIGTERM)
        assert bench.wait(timeout=120) == 0, (tmp_path / "stderr").read_text()
        deadline = time.monotonic() + 60
        while in_session(bench.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert in_session(bench.pid) == [], "processes of the bench left running"
    finally:
        if bench.poll() is None or in_session(bench.pid):
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
