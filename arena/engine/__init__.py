"""The Hearts rules engine: cards, rules and presets, hands and games.

Standard library only (the C core is our own extension). The rules logic runs in
the C core when it is built, or in the pure-Python reference (``ARENA_PUREPYTHON=1``).
"""

from . import options, variants  # noqa: F401 - OPTIONS checks Rules; the families register
from .auction import Auction, IllegalBidError
from .backend import BACKEND_NAME, batch_path
from .cards import CARDS, JOKERS, Card, CardParseError, CardSet, Suit
from .game import Game, GameOverError
from .hand import (
    Hand,
    HandOverError,
    IllegalCallError,
    IllegalExposureError,
    IllegalMoonChoiceError,
    IllegalPassError,
    IllegalPlayError,
    IllegalPledgeError,
    IllegalQueenRefusalError,
    IllegalRevealError,
    OutOfTurnError,
    Phase,
    SeatView,
    Trick,
)
from .heartless import scoring_suit_of
from .multiset import CardMultiset
from .presets import PRESETS, preset
from .rules import (
    SCORING_QUEENS,
    BrokenBy,
    FirstTrick,
    JokerKind,
    KittyTaker,
    KittyVisibility,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    Rules,
    RulesError,
    ScoringSuitChoice,
)
from .variants.cancellation import CancellationHand

__all__ = [
    "BACKEND_NAME",
    "CARDS",
    "JOKERS",
    "PRESETS",
    "SCORING_QUEENS",
    "Auction",
    "BrokenBy",
    "CancellationHand",
    "Card",
    "CardMultiset",
    "CardParseError",
    "CardSet",
    "FirstTrick",
    "Game",
    "GameOverError",
    "Hand",
    "HandOverError",
    "IllegalBidError",
    "IllegalCallError",
    "IllegalExposureError",
    "IllegalMoonChoiceError",
    "IllegalPassError",
    "IllegalPlayError",
    "IllegalPledgeError",
    "IllegalQueenRefusalError",
    "IllegalRevealError",
    "JokerKind",
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
    "ScoringSuitChoice",
    "SeatView",
    "Suit",
    "Trick",
    "batch_path",
    "preset",
    "scoring_suit_of",
]
