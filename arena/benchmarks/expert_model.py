"""`arena bench expert-model`: how often a bot's plays are the greedy card, to set the expert's ε.

The expert's model of another seat (`arena.bots.inference.PlayModel`) gives the greedy
card (the heuristic's) probability 1 − ε + ε/|legal| and every other legal card ε/|legal|.
Played hands of strong bots, compared play by play with the greedy card on the true deal,
give the share a that agrees, per kind of play; the ε that matches it is
(1 − a) / (1 − mean 1/|legal|). Forced plays are left out. The pass signal is counted the
same way: the dangerous cards a passer kept that were more dangerous than every card it
gave (`PlayModel.pass_factor`).
"""

from __future__ import annotations

import dataclasses

from arena.bots import StrongBot
from arena.bots.inference import DUMP, FOLLOW, LEAD, PlayModel
from arena.engine import Hand, preset
from arena.engine.decisions import Action, DecisionKind
from arena.match.house import answer
from arena.match.seats import DecisionContext, InProcessSeat

KINDS = {LEAD: "lead", FOLLOW: "follow", DUMP: "dump"}


@dataclasses.dataclass
class KindFigures:
    """Plays of one kind: how many, how many were the greedy card, the sum of 1/|legal|."""

    plays: int = 0
    greedy: int = 0
    inverse_legal: float = 0.0

    @property
    def agreement(self) -> float:
        """The share of plays that were the greedy card."""
        return self.greedy / self.plays if self.plays else 0.0

    @property
    def epsilon(self) -> float:
        """The ε of the model that agrees as often."""
        if not self.plays:
            return 1.0
        chance = self.inverse_legal / self.plays
        return min(1.0, (1 - self.agreement) / (1 - chance))


def calibrate(
    hands: int, samples: int = 30, seed: int = 0
) -> tuple[dict[str, KindFigures], int, int]:
    """Play `hands` standard hands of four strong bots (`samples` deals per decision) and
    compare every play of the others, seen from the last seat to play, with the greedy
    card on the true deal. Returns the figures per kind, the passes read and the dangerous
    cards their passers kept."""
    rules = preset("standard")
    figures = {name: KindFigures() for name in KINDS.values()}
    passes = kept = 0
    for index in range(seed, seed + hands):
        direction = rules.pass_schedule[index % len(rules.pass_schedule)]
        hand = Hand.deal(rules, index, dealer=index % 4, pass_direction=direction)
        seats = [
            InProcessSeat(StrongBot(index * 4 + s, time_per_move=None, max_samples=samples))
            for s in range(4)
        ]
        context = DecisionContext(0, (0,) * 4, 0.0, 0.0)
        read = False
        while (decision := hand.pending()) is not None:
            view = hand.view(decision.seat)
            if decision.kind is DecisionKind.PLAY and len(view.hand) == 1 and not read:
                read = True  # the last card of the hand's first seat to be down to one
                deal = (*(hand.view(s).hand.mask for s in range(4)), 0)
                model = PlayModel.from_view(view)
                for event in model.events:
                    chosen, legal = model.greedy(event, deal)
                    if legal.bit_count() == 1:
                        continue
                    kind = figures[KINDS[event[2]]]
                    kind.plays += 1
                    kind.greedy += chosen == event[1]
                    kind.inverse_legal += 1 / legal.bit_count()
                if model.passer >= 0:
                    passes += 1
                    kept += (deal[model.passer] & model.pass_kept).bit_count()
            value = answer(seats[decision.seat], decision, hand, context, view)
            hand.apply(Action(decision.kind, decision.seat, value))
    return figures, passes, kept
