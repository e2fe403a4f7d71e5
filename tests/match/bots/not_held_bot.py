"""Plays a card it does not hold (but that is real card text)."""

from hearts_bot import Bot, PassView, PlayView
from hearts_bot.cards import DECK


class NotHeldBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        return next(card for card in DECK if card not in view.hand)
