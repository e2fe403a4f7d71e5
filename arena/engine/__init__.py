"""The Hearts rules engine: cards, rules and presets, hands and games.

Standard library only (the C core is our own extension). The rules logic runs in
the C core when it is built, or in the pure-Python reference (``ARENA_PUREPYTHON=1``).
"""

from .backend import BACKEND_NAME
from .cards import CARDS, Card, CardParseError, CardSet, Suit
from .game import Game, GameOverError
from .hand import (
    Hand,
    HandOverError,
    IllegalPassError,
    IllegalPlayError,
    OutOfTurnError,
    Phase,
    SeatView,
    Trick,
)
from .presets import PRESETS, preset
from .rules import (
    BrokenBy,
    FirstTrick,
    KittyTaker,
    KittyVisibility,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    Rules,
    RulesError,
)

__all__ = [
    "BACKEND_NAME",
    "CARDS",
    "PRESETS",
    "BrokenBy",
    "Card",
    "CardParseError",
    "CardSet",
    "FirstTrick",
    "Game",
    "GameOverError",
    "Hand",
    "HandOverError",
    "IllegalPassError",
    "IllegalPlayError",
    "KittyTaker",
    "KittyVisibility",
    "LeadRule",
    "MoonRule",
    "Opening",
    "OutOfTurnError",
    "PassDirection",
    "Phase",
    "Rules",
    "RulesError",
    "SeatView",
    "Suit",
    "Trick",
    "preset",
]
