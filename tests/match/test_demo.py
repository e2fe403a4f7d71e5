"""`arena demo` plays every preset through the runner's own decision path: whatever the
rules ask (a pass, a call, a bid, a reveal, a pledge, an exposure, a refusal of the QS, the
shooter's choice, a play), the house bots answer it and the judge accepts it. Before, the
demo drove passes and plays only, and stopped on the first other decision."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from arena.bots import HOUSE_BOTS
from arena.cli import main
from arena.engine import PRESETS, preset
from arena.engine.decisions import DecisionKind
from arena.match import house

# Presets whose every hand asks a kind besides the pass and the play.
ASKED_EVERY_HAND = {
    "pledge": DecisionKind.PLEDGE,
    "gong_zhu": DecisionKind.EXPOSE,
    "heartless": DecisionKind.REVEAL,
    "auction": DecisionKind.BID,
    "dealer_calls": DecisionKind.CALL,
    "four_penny": DecisionKind.PENNY_PLAY,
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_demo_plays_two_hands_of_every_preset(name: str, monkeypatch) -> None:
    rules = preset(name).replace(max_hands=2)
    bots = [HOUSE_BOTS["heuristic" if s % 2 else "random"](s) for s in range(rules.players)]
    asked: dict[int, set[DecisionKind]] = {}
    answer = house.answer

    def recorded(seat, decision, hand, context):
        asked.setdefault(context.hand_number, set()).add(decision.kind)
        return answer(seat, decision, hand, context)

    monkeypatch.setattr(house, "answer", recorded)
    game = house.play_game(rules, bots, 7)
    assert game.is_over and len(game.hand_scores) == len(asked) >= 1
    for kinds in asked.values():
        assert DecisionKind.PLAY in kinds or DecisionKind.PENNY_PLAY in kinds
        if name in ASKED_EVERY_HAND:
            assert ASKED_EVERY_HAND[name] in kinds


def test_arena_demo_seats_the_presets_own_table_by_default() -> None:
    result = CliRunner().invoke(main, ["demo", "--rules", "extra_cards", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "seat 2 (heuristic)" in result.output and "seat 3" not in result.output
    assert "Winner:" in result.output
