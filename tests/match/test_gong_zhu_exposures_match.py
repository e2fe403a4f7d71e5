"""Gong Zhu's exposed cards (Pagat: "There are four cards which may be exposed by their
holders before the start of play") in real matches: bot processes answer the ExposeQuery
over gRPC, a bot from an SDK before it is answered for (never asked), the replays verify
by their actions and in v1's layout, and `arena match run` / `arena replay verify` /
`arena replay show` / `arena replay ask` carry them."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.engine import CardSet, preset

from .test_cli import arena
from .test_pledge_moon_count import (
    DECIDING_BOT,
    OLDER_SDK_BOT,
    _actions,
    _grpc_match,
    _verified,
)

pytestmark = pytest.mark.timeout(240)

GONG_ZHU = preset("gong_zhu").replace(max_hands=2, target_score=None)
EXPOSABLE = CardSet.parse("AH QS JD TC")


def test_bot_processes_expose_their_cards_and_the_replay_verifies() -> None:
    outcome = _grpc_match(GONG_ZHU, [DECIDING_BOT] * 4)
    _verified(outcome)
    exposed = _actions(outcome, "expose")
    assert len(exposed) == 2 * 4  # every seat, every hand, in turn from the dealer's left
    # The deciding bot exposes every card it may: the four cards, each hand.
    for hand in (exposed[:4], exposed[4:]):
        shown = [card for action in hand for card in action.value]
        assert CardSet.parse(" ".join(shown)) == EXPOSABLE and len(shown) == 4
    assert not outcome.v1["faults"]


def test_a_bot_from_an_older_sdk_is_never_asked_to_expose() -> None:
    outcome = _grpc_match(GONG_ZHU, [OLDER_SDK_BOT, DECIDING_BOT, OLDER_SDK_BOT, DECIDING_BOT])
    _verified(outcome)
    assert not outcome.v1["faults"]
    decided = _actions(outcome, "expose")
    assert len(decided) == 8
    for action in decided:
        older = action.seat in (0, 2)
        assert action.auto is older and action.fault is None
        if older:
            assert action.value == []  # the default: expose nothing


def test_the_cli_runs_verifies_and_shows_the_exposures(tmp_path: Path) -> None:
    out = tmp_path / "gong_zhu.json"
    arena(
        "match", "run", "--rules", "gong_zhu", "--bot", DECIDING_BOT, "--bot", "house:random",
        "--bot", "house:strong", "--bot", "house:heuristic", "--seed", 4, "--hands", 2,
        "--no-sandbox", "--quiet", "--out", out,
    )  # fmt: skip
    assert "every score confirmed" in arena("replay", "verify", out).stdout
    shown = arena("replay", "show", out).stdout
    assert "exposes" in shown, shown
    done = arena("replay", "ask", out, DECIDING_BOT, "--seat", 0, "--all", "--no-sandbox")
    assert "same: all" in done.stdout, done.stdout
