"""`arena bot check --rules NAME` cuts every preset to a short match without breaking it."""

from __future__ import annotations

import pytest

from arena.engine import preset
from arena.engine.presets import PRESETS
from arena.engine.rules import Settlement
from arena.match.check import check_rules


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_cuts_to_a_short_match(name: str) -> None:
    base = preset(name)
    short = check_rules(base, hands=2)
    assert short.max_hands == 2
    assert short.settlement is base.settlement
    if base.settlement is Settlement.POINTS:
        assert short.target_score is None  # the hand count alone ends the check
    else:
        assert short.target_score == base.target_score  # the stake chips settle against
