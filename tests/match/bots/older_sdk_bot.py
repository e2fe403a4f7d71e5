"""A bot as an SDK from before issue 23 serves it: its match_start answer lists no later
query (`MatchStartAnswer.answers` empty) and no rule whose state it reads
(`MatchStartAnswer.reads` empty), and it cannot answer the pledge or the shooter's
choice (it raises, as an old SDK refuses a query kind it cannot read). The arena must
answer those for it, never ask them."""

import hearts_bot.session
from hearts_bot import Bot
from hearts_bot.cards import by_rank
from hearts_bot.views import (
    ExposeView,
    MoonChoiceView,
    PassView,
    PlayView,
    PledgeView,
    RefuseQueenView,
    ReplacePassView,
)

hearts_bot.session.LATER_QUERIES = ()  # what a match_start answer from before them lists
hearts_bot.session.READS = ()  # nor did it read a first trick of more cards than players


class OlderSdkBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return sorted(view.passable, key=by_rank)[-view.count :]

    def play_card(self, view: PlayView) -> str:
        return min(view.legal, key=by_rank)

    def pledge(self, view: PledgeView) -> bool:
        raise RuntimeError("an SDK from before issue 23 cannot read a pledge query")

    def choose_moon(self, view: MoonChoiceView) -> str:
        raise RuntimeError("an SDK from before issue 23 cannot read a moon_choice query")

    def refuse_queen(self, view: RefuseQueenView) -> bool:
        raise RuntimeError("an older SDK cannot read a refuse_queen query")

    def replace_pass(self, view: ReplacePassView) -> str:
        raise RuntimeError("an older SDK cannot read a replace_pass query")

    def expose(self, view: ExposeView) -> list[str]:
        raise RuntimeError("an SDK from before exposures cannot read an expose query")
