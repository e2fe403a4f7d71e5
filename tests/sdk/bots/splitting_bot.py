"""A dealer that always splits the pass where the rules allow it (003 'Simple variations':
"Pass one card to the right and two cards to the left"): card i goes the i-th of
`view.split_directions`, round again when the pass is longer than the list."""

from hearts_bot import Bot
from hearts_bot.rules import PassDirection
from hearts_bot.views import CallPassView, PassView, PlayView


class SplittingBot(Bot):
    def call_pass(self, view: CallPassView) -> PassDirection | list[PassDirection]:
        ways = view.split_directions
        if not ways:
            return view.options[0]
        return [ways[i % len(ways)] for i in range(view.rules.pass_count)]

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.passable[: view.count])

    def play_card(self, view: PlayView) -> str:
        return view.legal[0]
