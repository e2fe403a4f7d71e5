"""A bot that answers the decisions added by issue 23 away from the SDK's defaults: it
pledges to take no hearts, subtracts the moon it shoots, and as dealer calls two cards to
the right where the rules let it choose the count (004 'Passing cards', 'Scoring
variants', 'Shooting the moon'), and exposes every card it may (Gong Zhu); it plays its
lowest legal card."""

from hearts_bot import Bot
from hearts_bot.cards import by_rank
from hearts_bot.rules import PassDirection
from hearts_bot.views import (
    CallPassView,
    ExposeView,
    MoonChoiceView,
    PassView,
    PlayView,
    PledgeView,
)


class DecidingBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return sorted(view.passable, key=by_rank)[: view.count]

    def play_card(self, view: PlayView) -> str:
        return min(view.legal, key=by_rank)

    def pledge(self, view: PledgeView) -> bool:
        return True

    def choose_moon(self, view: MoonChoiceView) -> str:
        return "subtract"

    def expose(self, view: ExposeView) -> list[str]:
        return list(view.exposable)

    def call_pass(self, view: CallPassView) -> PassDirection | tuple[PassDirection, int]:
        if 2 in view.counts and PassDirection.RIGHT in view.options:
            return PassDirection.RIGHT, 2
        return view.options[0]
