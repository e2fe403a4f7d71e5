"""The report of owners whose bots do better together than their results elsewhere say."""

from __future__ import annotations

import random

from arena.ratings.batch import TableResult
from arena.ratings.collusion import collusion_report, flag_collusion


def season(seed: int, *, help_points: float) -> tuple[list[TableResult], dict[int, str]]:
    """12 bots of 12 owners, 600 random tables of four; bots 0 and 1 (owners a0, a1)
    dump `help_points` per hand on the others whenever they share a table."""
    rng = random.Random(seed)
    theta = [rng.uniform(-2, 2) for _ in range(12)]
    owners = {i: f"a{i}" for i in range(12)}
    tables = []
    hands = 10
    for _ in range(600):
        players = rng.sample(range(12), 4)
        per_hand = [6.5 + theta[p] + rng.gauss(0, 8 / hands**0.5) for p in players]
        if 0 in players and 1 in players:
            for seat, p in enumerate(players):
                per_hand[seat] += -help_points if p in (0, 1) else help_points
        tables.append(TableResult(tuple(players), tuple(x * hands for x in per_hand), hands))
    return tables, owners


def test_a_pair_helping_each_other_is_flagged_first() -> None:
    tables, owners = season(1, help_points=1.5)
    flagged = flag_collusion(tables, owners)
    assert flagged and flagged[0].owners == ("a0", "a1")
    assert flagged[0].residual < -1.0 and flagged[0].tables >= 30
    assert len(flagged) == 1


def test_honest_seasons_flag_nobody() -> None:
    for seed in range(5):
        tables, owners = season(seed, help_points=0.0)
        report = collusion_report(tables, owners)
        assert len(report) == 66  # every pair of 12 owners met
        assert flag_collusion(tables, owners) == []


def test_unknown_owners_are_nobodys_pair() -> None:
    tables, owners = season(2, help_points=1.5)
    del owners[0]
    assert all("a0" not in p.owners for p in collusion_report(tables, owners))
