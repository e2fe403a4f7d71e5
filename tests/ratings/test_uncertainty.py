"""The Bayesian skill beside each Elo, and which ladder places are settled."""

from __future__ import annotations

import pytest

from arena.ratings.uncertainty import (
    DEFAULT_SKILL,
    ELO_PER_MU,
    Skill,
    probability_better,
    rate_skills,
    settled_ranks,
    sigma_as_elo,
)


def test_a_table_moves_the_skills_by_place_and_narrows_them() -> None:
    after = rate_skills([DEFAULT_SKILL] * 4, [1, 2, 3, 4])
    assert [s.mu for s in after] == sorted((s.mu for s in after), reverse=True)
    assert all(s.sigma < DEFAULT_SKILL.sigma for s in after)


def test_sigma_keeps_shrinking_with_games() -> None:
    skills = [DEFAULT_SKILL] * 4
    sigmas = []
    for game in range(60):
        places = [1 + (seat + game) % 4 for seat in range(4)]
        skills = list(rate_skills(skills, places))
        sigmas.append(skills[0].sigma)
    assert sigmas[59] < sigmas[29] < sigmas[9] < DEFAULT_SKILL.sigma


def test_probability_better() -> None:
    assert probability_better(Skill(30, 2), Skill(30, 2)) == 0.5
    assert probability_better(Skill(40, 1), Skill(30, 1)) > 0.999
    a, b = Skill(27, 3), Skill(25, 4)
    assert probability_better(a, b) + probability_better(b, a) == pytest.approx(1)
    assert probability_better(Skill(2, 0), Skill(1, 0)) == 1.0


def test_settled_ranks_need_both_neighbours_apart() -> None:
    ladder = [Skill(50, 1), Skill(40, 1), Skill(39.5, 1), Skill(20, 1)]
    assert settled_ranks(ladder) == (True, False, False, True)
    assert settled_ranks([Skill(30, 8)]) == (True,)
    assert settled_ranks([]) == ()


def test_sigma_in_elo_points() -> None:
    assert sigma_as_elo(1.0) == pytest.approx(ELO_PER_MU)
    assert 29 < ELO_PER_MU < 30


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="at least two"):
        rate_skills([DEFAULT_SKILL], [1])
    with pytest.raises(ValueError, match="places for"):
        rate_skills([DEFAULT_SKILL] * 2, [1])
