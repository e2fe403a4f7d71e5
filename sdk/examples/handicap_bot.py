"""HandicapBot: the heuristic starter with a handicap, a sparring partner of known strength.

It plays `starter:heuristic`'s rules (`hearts_bot.starters.heuristic_bot`) except that
with probability p it plays a uniformly random legal card instead. p is read from a file
`handicap.txt` beside this one (one number in [0, 1]; 0 when there is none). The C++ and
TypeScript starter kits (sdk/starters) play the same rules with the same file, so bots
of the three kinds with p spread over them have a known order of strength: that is how
`arena bench rehearsal` makes its entrants (docs/scaling.md). Serve it with
`hearts-bot serve examples/handicap_bot.py`.
"""

from __future__ import annotations

import random
from pathlib import Path

from hearts_bot import Card, PlayView, run
from hearts_bot.starters.heuristic_bot import HeuristicBot


def read_handicap(path: Path) -> float:
    """The probability in `path` (0 when the file is missing or holds no such number)."""
    try:
        p = float(path.read_text().strip())
    except (OSError, ValueError):
        return 0.0
    return p if 0.0 <= p <= 1.0 else 0.0


class HandicapBot(HeuristicBot):
    """The heuristic starter, random with probability `handicap`."""

    def __init__(self, handicap: float | None = None) -> None:
        super().__init__()
        here = Path(__file__).with_name("handicap.txt")
        self.handicap = read_handicap(here) if handicap is None else handicap
        self.rng = random.Random()

    def play_card(self, view: PlayView) -> Card:
        if self.handicap > 0 and self.rng.random() < self.handicap:
            return self.rng.choice(view.legal)
        return super().play_card(view)


if __name__ == "__main__":
    run(HandicapBot())
