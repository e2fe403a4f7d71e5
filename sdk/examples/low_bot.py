"""LowBot: the smallest sensible bot. Serve it with `hearts-bot serve examples/low_bot.py`."""

from hearts_bot import Bot, Card, PassView, PlayView, run
from hearts_bot.cards import by_rank


class LowBot(Bot):
    def pass_cards(self, view: PassView) -> list[Card]:
        # Give away the highest cards.
        return sorted(view.passable, key=by_rank)[-view.count :]

    def play_card(self, view: PlayView) -> Card:
        # Keep out of trouble: the lowest card we may play, the QS as soon as we may dump it.
        if "QS" in view.legal and not view.leading and view.led_suit != "S":
            return "QS"
        return min(view.legal, key=by_rank)


if __name__ == "__main__":
    run(LowBot())
