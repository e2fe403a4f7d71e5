"""The expert's moon plan: when a seat may still shoot, and the playout policy that tries.

With every seat greedy in the playouts, the seat searching dodges points in each of its
imagined futures, so its search never sees what a moon attempt is worth. The engine's
playout policy `SHOOT + s` (contract "Playouts") plays seat s for every trick while no
other seat has taken a penalty card, every other decision as the mixed policy; the
expert plays each candidate out under both plans and keeps the better plan's mean
(`arena.bots.expert.search_plays`). 004 'Shooting the moon' (and 001's moon rules, as the
rules' `moon` field selects them): the seat that takes every penalty card scores none and
the others score the moon.
"""

from __future__ import annotations

from arena.engine import SeatView
from arena.engine.config import MOON_NONE

SHOOT = 16
"""The first shooter policy: `SHOOT + s` has seat s play the shooter's plan."""


def moon_open(view: SeatView) -> bool:
    """Whether `view.seat` may still take every penalty card: the rules have a moon and no
    other seat has taken a card worth points (the shooter's plan is pointless otherwise,
    and the engine would play it as the mixed policy anyway)."""
    cfg = view.play_config()
    if cfg.moon == MOON_NONE or cfg.joker_kind:
        return False
    values = cfg.values
    for trick in view.tricks:
        if trick.winner != view.seat and any(values[c.index] > 0 for _, c in trick.plays):
            return False
    return True


def shooter_policy(seat: int) -> int:
    """The playout policy in which `seat` plays the shooter's plan."""
    return SHOOT + seat
