"""A match's CPU account: its parts add up, and the sandboxed match accounts for its bots.

Shape and plausibility only (no figure is held against a time): `arena bench sandbox`
prints the figures.
"""

from __future__ import annotations

import pytest

from tests.workers.conftest import sandbox_or_skip
from workers.accounting import PARTS, MatchAccount
from workers.match_cost import measure_match_cost


class _Stopped:
    def __init__(self, ready: float | None, stop: float | None, warm: bool = False) -> None:
        self.cpu_at_ready = ready
        self.cpu_at_stop = stop
        self.warm = warm


def test_an_account_adds_its_parts_and_its_bots():
    account = MatchAccount(seats=0.01, runner=0.2, recording=0.03)
    account.add_bots([_Stopped(0.12, 0.2, True), _Stopped(0.1, None), _Stopped(None, None)])
    assert account.sandboxed == 3
    assert account.warm == 1
    assert account.bots_start == pytest.approx(0.22)
    assert account.bots_play == pytest.approx(0.08)  # a bot without a stop figure: none
    figures = account.to_dict()
    assert figures["total"] == pytest.approx(sum(figures[part] for part in PARTS))
    assert figures["total"] == pytest.approx(0.54)


@pytest.mark.timeout(300)
def test_a_sandboxed_match_costs_its_bots_and_an_in_process_one_does_not():
    sandbox_or_skip()
    cost = measure_match_cost(hands=1, repeats=1)
    parts = cost.sandboxed_parts
    assert parts["sandboxed"] == 4
    assert parts["warm"] == 4  # the starter bots are forked from the warm template
    assert all(parts[part] > 0 for part in PARTS)
    assert parts["total"] == pytest.approx(sum(parts[part] for part in PARTS), rel=1e-6)
    assert cost.in_process > 0
    # The same match's sandboxed seats cost at least their bots' own trees more.
    assert cost.sandboxed > cost.in_process
    assert cost.sandboxed >= parts["bots_start"] + parts["bots_play"]
