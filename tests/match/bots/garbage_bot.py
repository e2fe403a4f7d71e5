"""Answers with text that is not a card at all."""

from hearts_bot import Bot, PassView, PlayView


class GarbageBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        return "the queen, obviously"
