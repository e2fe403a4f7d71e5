"""Answers every fifth play after 0.5 s: far past any test's allowance."""

import time

from hearts_bot import Bot, PassView, PlayView


class SlowBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def __init__(self) -> None:
        super().__init__()
        self.plays = 0

    def play_card(self, view: PlayView) -> str:
        self.plays += 1
        if self.plays % 5 == 0:
            time.sleep(0.5)
        return view.legal[0]
