"""A bot that overrides every hook and logs each call on stderr (for the tests)."""

import sys

from hearts_bot import Bot, HandEnded, HandStarted, MatchEnded, MatchInfo, TrickEnded
from hearts_bot.views import PassView, PlayView


class RecordingBot(Bot):
    def log(self, *words: object) -> None:
        print("EVENT", *words, file=sys.stderr, flush=True)

    def on_match_start(self, match: MatchInfo) -> None:
        self.log("match_start", match.seat, match.rules.name, match.players[0])

    def on_hand_start(self, event: HandStarted) -> None:
        self.log("hand_start", event.hand_number, event.pass_direction, len(event.hand))

    def on_trick_end(self, event: TrickEnded) -> None:
        self.log("trick_end", event.trick_number, event.trick.winner, *event.trick.cards)

    def on_hand_end(self, event: HandEnded) -> None:
        self.log("hand_end", event.hand_number, *event.scores)

    def on_match_end(self, event: MatchEnded) -> None:
        self.log("match_end", event.reason, *event.scores)

    def pass_cards(self, view: PassView) -> list[str]:
        self.log("pass", view.direction, view.count, *view.recipients)
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        self.log("play", view.trick_number, view.led_suit, view.time_left)
        return view.legal[-1]
