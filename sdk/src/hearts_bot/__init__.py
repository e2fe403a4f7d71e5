"""The Hearts Arena bot SDK: subclass `Bot`, implement two methods, `run` it.

>>> from hearts_bot import Bot, PassView, PlayView
>>> class LowBot(Bot):
...     def pass_cards(self, view: PassView) -> list[str]:
...         return list(view.hand[-view.count:])
...     def play_card(self, view: PlayView) -> str:
...         return view.legal[0]
>>> LowBot().name
'LowBot'
"""

from .bot import Bot
from .cards import Card
from .rules import PassDirection, RulesView
from .server import READY_PREFIX, BotServer, run, serve
from .views import (
    Clock,
    HandEnded,
    HandStarted,
    HandView,
    MatchEnded,
    MatchInfo,
    PassView,
    PlayView,
    Trick,
    TrickEnded,
)

__all__ = [
    "READY_PREFIX",
    "Bot",
    "BotServer",
    "Card",
    "Clock",
    "HandEnded",
    "HandStarted",
    "HandView",
    "MatchEnded",
    "MatchInfo",
    "PassDirection",
    "PassView",
    "PlayView",
    "RulesView",
    "Trick",
    "TrickEnded",
    "run",
    "serve",
]
