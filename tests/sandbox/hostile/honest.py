"""An honest bot: the first legal card, the first cards of the hand, a log line per hand."""

import sys

from hearts_bot import Bot, PassView, PlayView


class HonestBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        print(f"passing from hand {view.hand_number}", file=sys.stderr, flush=True)
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        return view.legal[0]
