"""Plays the first legal card and follows the match through every notification; at the
end it prints what it was told, for the test to read in its log."""

from hearts_bot import Bot, HandEnded, HandStarted, MatchEnded, PassView, PlayView, TrickEnded


class ListeningBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.hands = 0
        self.tricks = 0
        self.ended = 0

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        return view.legal[0]

    def on_hand_start(self, event: HandStarted) -> None:
        self.hands += 1

    def on_trick_end(self, event: TrickEnded) -> None:
        self.tricks += 1

    def on_hand_end(self, event: HandEnded) -> None:
        self.ended += 1

    def on_match_end(self, event: MatchEnded) -> None:
        print(
            f"listening bot: {self.hands} hands, {self.tricks} tricks, {self.ended} hand ends, "
            f"{event.hands_played} played",
            flush=True,
        )
