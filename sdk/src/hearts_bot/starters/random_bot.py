"""RandomBot: passes and plays uniformly at random among its legal choices."""

from __future__ import annotations

import random

from hearts_bot import Bot, Card, PassView, PlayView


class RandomBot(Bot):
    """A uniformly random bot (seed it for repeatable play)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def pass_cards(self, view: PassView) -> list[Card]:
        return self.rng.sample(view.passable, view.count)

    def play_card(self, view: PlayView) -> Card:
        return self.rng.choice(view.legal)


if __name__ == "__main__":
    from hearts_bot import run

    run(RandomBot())
