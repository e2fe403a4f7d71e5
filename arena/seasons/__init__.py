"""Seasons: their lifecycle, matchmaking, and the scheduling of rounds.

Matchmaking (`matchmaking`) is pure; `rounds` and `lifecycle` load and store through
`arena.store` and run their own transactions; `entries` keeps each bot's place in its
seasons held by the version that plays for it.
"""

from .entries import (
    EntryError,
    Placement,
    default_season,
    enter_bot,
    next_step,
    pin_version,
    playing_version,
    promote_version,
    withdraw_bot,
)
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
    "EntryError",
    "History",
    "MatchmakingSettings",
    "Placement",
    "Player",
    "RoundReport",
    "SeasonError",
    "advance_seasons",
    "create_next_season",
    "create_season",
    "default_season",
    "enter_bot",
    "enter_season",
    "finish_season",
    "is_round_due",
    "make_tables",
    "next_step",
    "pin_version",
    "playing_version",
    "promote_version",
    "rotations",
    "schedule_round",
    "start_season",
    "withdraw",
    "withdraw_bot",
]
