"""Thinks on the other seats' time: from its first decision a thread spins for ever (what a
search bot would do between its turns). It also counts the notifications it gets and says
so at the end of the match, to show they are all delivered while it is frozen off-turn."""

import sys
import threading

from hearts_bot import Bot, HandEnded, MatchEnded, PassView, PlayView, TrickEnded


def spin() -> None:
    count = 0
    while True:
        count += 1


class ThinkOffTurnBot(Bot):
    thinking: threading.Thread | None = None
    tricks = 0
    hands = 0

    def start_thinking(self) -> None:
        if self.thinking is None:
            self.thinking = threading.Thread(target=spin, daemon=True)
            self.thinking.start()

    def pass_cards(self, view: PassView) -> list[str]:
        self.start_thinking()
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        self.start_thinking()
        return view.legal[0]

    def on_trick_end(self, event: TrickEnded) -> None:
        self.tricks += 1

    def on_hand_end(self, event: HandEnded) -> None:
        self.hands += 1

    def on_match_end(self, event: MatchEnded) -> None:
        print(f"NOTIFIED tricks={self.tricks} hands={self.hands}", file=sys.stderr, flush=True)
