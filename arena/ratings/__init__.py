"""Ratings: Elo for free-for-all tables, a Bayesian skill beside it, and rank agreement.

Pure functions over plain values; the store applies them to rows (`arena.store.results`).
"""

from .correlation import spearman
from .elo import (
    DEFAULT_ELO,
    EloRating,
    EloSettings,
    expected_score,
    pairwise_result,
    places_from_scores,
    rate_table,
)
from .uncertainty import DEFAULT_SKILL, Skill, probability_better, rate_skills, settled_ranks

__all__ = [
    "DEFAULT_ELO",
    "DEFAULT_SKILL",
    "EloRating",
    "EloSettings",
    "Skill",
    "expected_score",
    "pairwise_result",
    "places_from_scores",
    "probability_better",
    "rate_skills",
    "rate_table",
    "settled_ranks",
    "spearman",
]
