"""A bot whose every decision carries a 2,000-character note: it runs past the per-match
note budget, so the arena drops (and counts) its later notes."""

from hearts_bot import Bot
from hearts_bot.views import PassView, PlayView


class ChattyBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        self.note("p" * 2000)
        return list(view.passable[: view.count])

    def play_card(self, view: PlayView) -> str:
        self.note("c" * 2000)
        return view.legal[0]
