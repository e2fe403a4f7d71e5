"""`arena bench replay-page` measures what it says: the page's two paths agree on the sheet
and the faults, and each path is timed in every round."""

from __future__ import annotations

from click.testing import CliRunner

from arena.cli import main
from arena.engine import preset
from web.replaybench import PATHS, bench_replay_page, describe, page_before, page_now, stored_match


def test_the_bench_times_every_path_of_a_short_match() -> None:
    figures = bench_replay_page(preset("standard").replace(max_hands=2), 3, repeats=2, rounds=2)
    assert figures.hands == 2 and figures.decisions == 2 * (4 + 52)
    assert [sorted(r) for r in figures.rounds] == [sorted(PATHS)] * 2
    assert all(len(times) == 2 for r in figures.rounds for times in r.values())
    text = describe(figures)
    assert all(path in text for path in PATHS) and "before / now" in text


def test_both_paths_build_the_same_page_for_a_game_to_100() -> None:
    content = stored_match(preset("standard"), 1)
    sheet, faults = page_now(content)
    assert (sheet, faults) == page_before(content)
    assert max(sheet[-1].totals) >= 100


def test_the_command_runs() -> None:
    result = CliRunner().invoke(
        main, ["bench", "replay-page", "--rules", "spot", "--repeats", "1", "--rounds", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "before / now" in result.output
