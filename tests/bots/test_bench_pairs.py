"""`arena bench bots --pair`: any two house bots, every search bot with the same budget."""

from __future__ import annotations

import json

from click.testing import CliRunner

from arena.benchmarks.bots import BotSpec, bench_pair, spec
from arena.bots import ExpertBot, StrongBot
from arena.cli import main


def test_a_pair_gives_every_search_bot_the_same_budget():
    expert, strong = spec("expert", 0.02, 7), spec("strong", 0.02, 7)
    built = expert.build(1)
    assert isinstance(built, ExpertBot) and built.max_samples == 7
    assert built.time_per_move == 0.02
    other = strong.build(1)
    assert isinstance(other, StrongBot) and not isinstance(other, ExpertBot)
    assert (other.time_per_move, other.max_samples) == (0.02, 7)
    assert spec("heuristic", 0.02, 7) == BotSpec("heuristic")


def test_the_expert_plays_in_the_harness_against_the_strong_bot():
    figures = bench_pair(spec("expert", None, 3), spec("strong", None, 3), deals=2, workers=1)
    assert figures.bot.startswith("expert") and figures.field.startswith("strong")
    assert figures.hands == 8 and figures.bot_time.decisions > 0


def test_the_command_measures_a_named_pair_and_refuses_an_unknown_bot():
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["bench", "bots", "--pair", "heuristic:random", "--deals", "2", "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    (pair,) = json.loads(result.output)
    assert (pair["bot"], pair["field"], pair["hands"]) == ("heuristic", "random", 8)
    refused = runner.invoke(main, ["bench", "bots", "--pair", "expert:nobody", "--deals", "2"])
    assert refused.exit_code != 0 and "known bots" in refused.output
