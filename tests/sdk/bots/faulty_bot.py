"""A bot whose behaviour the test chooses through its hand (for the fault tests).

Holding AH it raises; holding KH it answers something that is not a card; holding JH it
answers a legal-looking card that is not legal; holding TH it thinks forever.
"""

import time
from typing import Any

from hearts_bot import Bot
from hearts_bot.views import PassView, PlayView


class FaultyBot(Bot):
    def pass_cards(self, view: PassView) -> Any:
        if "AH" in view.hand:
            return "QS"  # a string, not a list of cards
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> Any:
        if "AH" in view.hand:
            raise ZeroDivisionError("the bot divided by zero")
        if "KH" in view.hand:
            return 42
        if "JH" in view.hand:
            return "2D" if "2D" not in view.legal else view.legal[0]
        if "TH" in view.hand:
            while True:
                time.sleep(0.05)
        return view.legal[0]
