"""`arena bench ratings --separation` in small: it runs every format and says what it found."""

from __future__ import annotations

from click.testing import CliRunner

from arena.benchmarks.separation import QUICK_FIELD, bench_separation, describe, separated
from arena.commands.bench import bench
from arena.ratings.batch import Standing


def test_a_quick_run_covers_every_format_and_reports_each() -> None:
    figures = bench_separation(strengths=QUICK_FIELD, max_single=16, max_duplicate=6, bootstrap=20)
    assert [(r.duplicate, r.active) for r in figures.runs] == [
        (False, False),
        (False, True),
        (True, False),
        (True, True),
    ]
    assert all(run.checkpoints for run in figures.runs)
    assert set(figures.truth) == set(range(len(QUICK_FIELD)))
    # the heuristic bot (strength 1) takes fewer points than the random bot (strength 0)
    assert figures.truth[QUICK_FIELD.index(1.0)] < figures.truth[QUICK_FIELD.index(0.0)]
    text = describe(figures)
    rows = [line.split("|")[0].split() for line in text.splitlines() if "|" in line][1:]
    assert [" ".join(words) for words in rows] == [
        "single games no",
        "single games + luck no",
        "single games yes",
        "single games + luck yes",
        "duplicate sets no",
        "duplicate sets + luck no",
        "duplicate sets yes",
        "duplicate sets + luck yes",
    ]


def test_separated_means_disjoint_intervals() -> None:
    def standing(entrant: int, low: float, high: float) -> Standing:
        return Standing(entrant, 1, (low + high) / 2, low, high, 10, 1, 1)

    rows = [standing(0, 0.0, 1.0), standing(1, 1.5, 2.0), standing(2, 1.8, 3.0)]
    assert separated(rows, [(0, 1), (0, 2)])
    assert not separated(rows, [(1, 2)])
    assert not separated(rows, [(0, 9)])  # an entrant without a standing is not separated


def test_the_command_runs_quick() -> None:
    result = CliRunner().invoke(bench, ["ratings", "--quick", "--separation"])
    assert result.exit_code == 0, result.output
    assert "--separation" in result.output and "duplicate sets + luck" in result.output
