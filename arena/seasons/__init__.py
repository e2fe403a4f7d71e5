"""Seasons: their lifecycle, matchmaking, and the scheduling of rounds.

Matchmaking (`matchmaking`) is pure; `rounds` and `lifecycle` load and store through
`arena.store` and run their own transactions.
"""

from .errors import SeasonError
from .lifecycle import (
    AdvanceReport,
    advance_seasons,
    create_next_season,
    create_season,
    enter_season,
    finish_season,
    start_season,
    withdraw,
)
from .matchmaking import History, MatchmakingSettings, Player, make_tables, rotations
from .rounds import Enqueue, RoundReport, is_round_due, schedule_round

__all__ = [
    "AdvanceReport",
    "Enqueue",
    "History",
    "MatchmakingSettings",
    "Player",
    "RoundReport",
    "SeasonError",
    "advance_seasons",
    "create_next_season",
    "create_season",
    "enter_season",
    "finish_season",
    "is_round_due",
    "make_tables",
    "rotations",
    "schedule_round",
    "start_season",
    "withdraw",
]
