"""Breaks a rule whenever it can: a held card that is not legal, else the first legal one."""

from hearts_bot import Bot, PassView, PlayView


class IllegalBot(Bot):
    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        illegal = [card for card in view.hand if card not in view.legal]
        return illegal[0] if illegal else view.legal[0]
