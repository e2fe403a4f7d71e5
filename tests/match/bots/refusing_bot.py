"""A bot for Rickety Kate's refusal of a passed QS: it passes the QS whenever it holds it,
refuses every QS passed to it, and replaces a refused QS with its highest card allowed (not
the SDK's default, the lowest); it plays its lowest legal card."""

from hearts_bot import Bot
from hearts_bot.cards import by_rank
from hearts_bot.views import PassView, PlayView, RefuseQueenView, ReplacePassView


class RefusingBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        rest = sorted((c for c in view.passable if c != "QS"), key=by_rank)
        first = ["QS"] if "QS" in view.passable else []
        return (first + rest)[: view.count]

    def play_card(self, view: PlayView) -> str:
        return min(view.legal, key=by_rank)

    def refuse_queen(self, view: RefuseQueenView) -> bool:
        assert view.queen_offer == (view.giver, view.seat)
        return True

    def replace_pass(self, view: ReplacePassView) -> str:
        assert "QS" in view.passed and "QS" not in view.legal
        return max(view.legal, key=by_rank)
