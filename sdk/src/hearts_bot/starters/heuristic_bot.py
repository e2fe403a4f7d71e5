"""HeuristicBot: avoid points with a few rules a beginner would use.

Pass: the most dangerous cards (QS, AS, KS, then high hearts, then other high cards).
Follow suit: the highest card that still loses the trick; if every card would win, the
lowest (or the highest when playing last, since the trick is ours anyway).
Void in the led suit: dump the QS, then the highest heart, then the highest card.
Lead: the lowest card.
"""

from __future__ import annotations

from hearts_bot import Bot, Card, PassView, PlayView
from hearts_bot.cards import HEARTS, QUEEN_OF_SPADES, highest, lowest, rank_of


def danger(card: Card) -> int:
    """How badly we want to pass `card`: bigger is worse to keep."""
    if card in ("QS", "AS", "KS"):
        return 100 + rank_of(card)
    if card[1] == HEARTS:
        return 50 + rank_of(card)
    return rank_of(card)


class HeuristicBot(Bot):
    """A short, readable rule-of-thumb bot."""

    def pass_cards(self, view: PassView) -> list[Card]:
        return sorted(view.passable, key=danger, reverse=True)[: view.count]

    def play_card(self, view: PlayView) -> Card:
        legal = view.legal
        if view.leading:
            return lowest(legal)
        led = view.led_suit
        following = [card for card in legal if card[1] == led]
        if following:
            winning = view.current_trick.winning_card()
            if winning is None:  # Cancellation Hearts: every card of the suit led cancelled
                twins = [card for card in following if card in view.current_trick.cards]
                if twins:
                    return twins[0]  # cancels too: still nobody wins
                return highest(following) if view.last_to_play else lowest(following)
            ducks = [card for card in following if rank_of(card) < rank_of(winning)]
            if ducks:
                return highest(ducks)
            return highest(following) if view.last_to_play else lowest(following)
        if QUEEN_OF_SPADES in legal:
            return QUEEN_OF_SPADES
        hearts = [card for card in legal if card[1] == HEARTS]
        return highest(hearts or legal)


if __name__ == "__main__":
    from hearts_bot import run

    run(HeuristicBot())
