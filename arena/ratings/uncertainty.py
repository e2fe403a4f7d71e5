"""How sure a rating is: a Bayesian Plackett-Luce skill (openskill) kept beside each Elo.

Why a second rating: Elo is a point estimate with a fixed step; it says where a bot is but
not how sure that is, and a bot that played 5 tables looks as settled as one that played
500. openskill's Plackett-Luce model (Weng and Lin 2011, algorithm 4) is built for
free-for-all rankings: it keeps for every player a Gaussian belief about its skill, a
mean `mu` and a standard deviation `sigma`, and each table's ranking narrows it. `sigma`
is the "how sure" the ladder shows, converted into Elo points with `sigma_as_elo`.

Why the conversion works: for two players whose skills are known exactly, Plackett-Luce
gives P(a above b) = 1 / (1 + exp(-(mu_a - mu_b) / c)) with c = beta * sqrt(2), and Elo
gives 1 / (1 + 10 ** (-(R_a - R_b) / 400)); the two agree when one unit of mu is
400 / (ln 10 * c) Elo points (about 29.5 with openskill's default beta = 25/6).

A rank is *settled* when the model is at least 95% sure that the bot's skill is above
the next bot's and below the previous bot's (`settled_ranks`): two independent Gaussian
beliefs a and b give P(a > b) = Phi((mu_a - mu_b) / sqrt(sigma_a^2 + sigma_b^2)).

>>> a, b = rate_skills([DEFAULT_SKILL, DEFAULT_SKILL], [1, 2])
>>> a.mu > DEFAULT_SKILL.mu > b.mu and a.sigma < DEFAULT_SKILL.sigma
True
>>> round(sigma_as_elo(DEFAULT_SKILL.sigma))
246
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma never reaches 0,
so a bot whose strength changes can still move)."""

ELO_PER_MU: Final = 400.0 / (math.log(10.0) * MODEL.beta * math.sqrt(2.0))
"""Elo points per unit of Plackett-Luce mu (see the module docstring)."""

SETTLED_CONFIDENCE: Final = 0.95


@dataclasses.dataclass(frozen=True)
class Skill:
    """A Gaussian belief about a player's skill (Plackett-Luce units)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """A conservative skill: mu - 3 sigma (99.7% of the belief lies above it)."""
        return self.mu - 3.0 * self.sigma


DEFAULT_SKILL: Final = Skill()


def rate_skills(skills: Sequence[Skill], places: Sequence[int]) -> tuple[Skill, ...]:
    """Every player's belief after one table, in the same order (places: 1 = best, ties share).

    Raises ValueError when there are fewer than two players or the lengths differ.
    """
    if len(skills) < 2:
        raise ValueError(f"a rated table needs at least two players, not {len(skills)}")
    if len(places) != len(skills):
        raise ValueError(f"{len(places)} places for {len(skills)} players")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return tuple(Skill(team[0].mu, team[0].sigma) for team in rated)


def sigma_as_elo(sigma: float) -> float:
    """A Plackett-Luce standard deviation expressed in Elo points."""
    return sigma * ELO_PER_MU


def probability_better(a: Skill, b: Skill) -> float:
    """P(a's true skill > b's) under the two independent Gaussian beliefs."""
    spread = math.sqrt(a.sigma**2 + b.sigma**2)
    if spread == 0.0:
        return 1.0 if a.mu > b.mu else 0.0 if a.mu < b.mu else 0.5
    return 0.5 * (1.0 + math.erf((a.mu - b.mu) / (spread * math.sqrt(2.0))))


def settled_ranks(
    ladder: Sequence[Skill], confidence: float = SETTLED_CONFIDENCE
) -> tuple[bool, ...]:
    """For a ladder listed best first, whether each row's place is settled.

    A row is settled when it is above the next row and below the previous row with at
    least `confidence` probability each (a missing neighbour imposes nothing).

    >>> settled_ranks([Skill(40, 1), Skill(30, 1), Skill(29, 1)])
    (True, False, False)
    """
    above_next = [
        probability_better(ladder[i], ladder[i + 1]) >= confidence for i in range(len(ladder) - 1)
    ]
    return tuple(
        (i == 0 or above_next[i - 1]) and (i == len(ladder) - 1 or above_next[i])
        for i in range(len(ladder))
    )
