"""Its own code raises on every play."""

from hearts_bot import Bot, PassView, PlayView


class RaisingBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        raise RuntimeError("my strategy has a bug")
