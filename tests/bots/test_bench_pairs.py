"""`arena bench bots --pair`: any two house bots, every search bot with the same budget."""

from __future__ import annotations

import json
import time

import pytest
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


def test_the_cpu_clock_reaches_every_search_bot_of_a_pair():
    # `--clock cpu`: both bots count their own thread's CPU time, so a loaded machine
    # gives them the same work per move rather than the same wait.
    for name in ("expert", "strong"):
        built = spec(name, 0.02, None, "cpu").build(1)
        assert isinstance(built, StrongBot) and built.clock is time.thread_time
        wall = spec(name, 0.02, None).build(1)
        assert isinstance(wall, StrongBot) and wall.clock is time.perf_counter
    assert spec("heuristic", 0.02, None, "cpu") == BotSpec("heuristic")
    with pytest.raises(ValueError, match="unknown clock 'sundial'"):
        StrongBot(1, clock="sundial")


def test_the_command_passes_its_clock_to_the_search_bots():
    runner = CliRunner()
    args = ["bench", "bots", "--pair", "expert:strong", "--deals", "2", "--workers", "1"]
    result = runner.invoke(
        main, [*args, "--strong-time", "0.005", "--strong-samples", "2", "--clock", "cpu", "--json"]
    )
    assert result.exit_code == 0, result.output
    (pair,) = json.loads(result.output)
    assert "clock=cpu" in pair["bot"] and "clock=cpu" in pair["field"]
    assert pair["hands"] == 8
    refused = runner.invoke(main, [*args, "--clock", "sundial"])
    assert refused.exit_code != 0 and "sundial" in refused.output
