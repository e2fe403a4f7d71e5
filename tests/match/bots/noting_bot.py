"""A deterministic bot that explains itself with `Bot.note` (for the notes tests).

Each play says why in a short note; each pass sends a 3,000-character note (cut to 1,000);
the hand-start hook notes too (discarded: no decision is in progress), which also makes
the arena send it every notification. It counts the tricks it was told of and says so in
its notes, so a re-asked decision reproduces only if the notifications came as in the
match.
"""

from hearts_bot import Bot, HandStarted, TrickEnded
from hearts_bot.cards import by_rank
from hearts_bot.views import PassView, PlayView


class NotingBot(Bot):
    def __init__(self) -> None:
        super().__init__()
        self.tricks_seen = 0

    def on_hand_start(self, event: HandStarted) -> None:
        self.note("from a hook: never kept")

    def on_trick_end(self, event: TrickEnded) -> None:
        self.tricks_seen += 1

    def pass_cards(self, view: PassView) -> list[str]:
        self.note("passing my highest cards " + "=" * 3000)
        return sorted(view.passable, key=by_rank)[-view.count :]

    def play_card(self, view: PlayView) -> str:
        card = min(view.legal, key=by_rank)
        self.note(f"lowest of {len(view.legal)} legal")
        self.note(f"after {self.tricks_seen} tricks seen")
        return card
