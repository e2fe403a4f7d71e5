"""The Hearts Arena bot SDK: subclass `Bot`, implement two methods, `run` it.

>>> from hearts_bot import Bot, PassView, PlayView
>>> class LowBot(Bot):
...     def pass_cards(self, view: PassView) -> list[str]:
...         return list(view.passable[-view.count:])
...     def play_card(self, view: PlayView) -> str:
...         return view.legal[0]
>>> LowBot().name
'LowBot'
"""

# ruff: noqa: E402  (the polling engine must be chosen before the imports below load grpc)
from .transport import tune_grpc

tune_grpc()  # before anything below imports grpc

from .bot import Bot
from .cards import Card
from .rules import PassDirection, RulesView
from .server import READY_PREFIX, BotServer, run, serve
from .views import (
    BidView,
    CallPassView,
    Clock,
    HandEnded,
    HandStarted,
    HandView,
    MatchEnded,
    MatchInfo,
    NameSuitView,
    PassView,
    PlayView,
    RevealView,
    Trick,
    TrickEnded,
)

__all__ = [
    "READY_PREFIX",
    "BidView",
    "Bot",
    "BotServer",
    "CallPassView",
    "Card",
    "Clock",
    "HandEnded",
    "HandStarted",
    "HandView",
    "MatchEnded",
    "MatchInfo",
    "NameSuitView",
    "PassDirection",
    "PassView",
    "PlayView",
    "RevealView",
    "RulesView",
    "Trick",
    "TrickEnded",
    "run",
    "serve",
]
