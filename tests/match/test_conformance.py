"""The protocol probes (arena/match/conformance.py) and `arena bot check --command`: a bot
in any language is checked as an upload is; a bot that accepts malformed or out-of-order
requests fails, naming the probe."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.commands.bot import bot
from arena.engine import preset
from arena.match.conformance import PROBES, run_probes
from arena.match.process import BotProcess

pytestmark = pytest.mark.timeout(120)

LAX = Path(__file__).parent / "commands" / "lax_bot.py"


def test_the_sdks_server_passes_every_probe() -> None:
    host = BotProcess("hearts_bot.starters.random_bot:RandomBot")
    try:
        assert host.wait_ready(30), host.log_excerpt()
        assert run_probes(host.address, preset("standard")) == []
    finally:
        host.stop()


def test_a_lax_server_fails_the_probes_and_each_is_named() -> None:
    host = BotProcess("lax", command=[sys.executable, str(LAX)])
    try:
        assert host.wait_ready(30), host.log_excerpt()
        problems = run_probes(host.address, preset("standard"))
    finally:
        host.stop()
    assert len(problems) == len(PROBES)  # it refuses none, and keeps answering Ready
    assert "a query before match_start" in problems[0]
    assert "not FAILED_PRECONDITION" in problems[0]


def test_arena_bot_check_command_fails_a_lax_bot_with_the_probe() -> None:
    result = CliRunner().invoke(bot, ["check", "--command", f"{sys.executable} {LAX}"])
    assert result.exit_code == 1, result.output
    assert "protocol: on a query before match_start" in result.output


def test_arena_bot_check_command_passes_a_conformant_bot(tmp_path: Path) -> None:
    serve = f"{sys.executable} -m hearts_bot serve starter:heuristic"
    result = CliRunner().invoke(bot, ["check", "--command", serve, "--rules", "omnibus"])
    assert result.exit_code == 0, result.output
    assert "malformed and out-of-order requests refused" in result.output


def test_arena_bot_check_wants_a_spec_or_a_command_and_no_sandbox_for_a_command() -> None:
    neither = CliRunner().invoke(bot, ["check"])
    assert neither.exit_code == 2 and "SPEC or --command" in neither.output
    sandboxed = CliRunner().invoke(bot, ["check", "--command", "./bot", "--sandbox"])
    assert sandboxed.exit_code == 2 and "never in the sandbox" in sandboxed.output
    missing = CliRunner().invoke(bot, ["check", "--command", "./no-such-bot"])
    assert missing.exit_code == 2 and "cannot run './no-such-bot'" in missing.output
