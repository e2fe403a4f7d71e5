"""`arena bench analysis` (issue 33): it prints the cost and the seeds' agreement of a real
analysis, and the agreement it reports is the overlap of what the two analyses flagged."""

from __future__ import annotations

import json

from click.testing import CliRunner

from arena.analysis import Settings
from arena.benchmarks.analysis import measure
from arena.cli import main
from arena.engine.presets import preset


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
