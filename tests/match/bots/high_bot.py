"""A deterministic bot that plays its highest legal card and passes its lowest: it answers
most decisions differently from sdk/examples/low_bot.py (for `replay ask`)."""

from hearts_bot import Bot
from hearts_bot.cards import by_rank
from hearts_bot.views import PassView, PlayView


class HighBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return sorted(view.passable, key=by_rank)[: view.count]

    def play_card(self, view: PlayView) -> str:
        return max(view.legal, key=by_rank)
