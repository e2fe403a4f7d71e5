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

import gc

# The imports below (asyncio, grpc, protobuf, the SDK: about 200 modules) only create
# objects that live as long as the process; the cyclic collector, left on, scans them
# again and again while they load, about 15 % of a bot's start-up CPU. Off while they
# load, as it was before if it was on (docs/benchmarks.md, "Starting a bot").
_collecting = gc.isenabled()
gc.disable()
try:
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
        ExposeView,
        HandEnded,
        HandStarted,
        HandView,
        MatchEnded,
        MatchInfo,
        MoonChoiceView,
        NameSuitView,
        PassView,
        PlayView,
        PledgeView,
        RefuseQueenView,
        ReplacePassView,
        RevealView,
        Trick,
        TrickEnded,
    )
finally:
    if _collecting:
        gc.enable()

__all__ = [
    "READY_PREFIX",
    "BidView",
    "Bot",
    "BotServer",
    "CallPassView",
    "Card",
    "Clock",
    "ExposeView",
    "HandEnded",
    "HandStarted",
    "HandView",
    "MatchEnded",
    "MatchInfo",
    "MoonChoiceView",
    "NameSuitView",
    "PassDirection",
    "PassView",
    "PlayView",
    "PledgeView",
    "RefuseQueenView",
    "ReplacePassView",
    "RevealView",
    "RulesView",
    "Trick",
    "TrickEnded",
    "run",
    "serve",
]
