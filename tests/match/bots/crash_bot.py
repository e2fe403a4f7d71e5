"""Plays normally, then kills its own process on its tenth play."""

import os

from hearts_bot import Bot, PassView, PlayView


class CrashBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def __init__(self) -> None:
        super().__init__()
        self.plays = 0

    def play_card(self, view: PlayView) -> str:
        self.plays += 1
        if self.plays == 10:
            print("crash bot: goodbye", flush=True)
            os._exit(3)
        return view.legal[0]
