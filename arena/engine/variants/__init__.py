"""The variant families: games the hearts `Hand` does not play itself, each in its rooms.

A family is a Hand subclass, a pure-Python reference and a C binding
(``variants._<family>``, built by setup.py from arena/engine/_core): Cancellation Hearts
(two packs), Domino Hearts (a stock), the penny games (several tricks at once) and Enfle
(a seat that cannot follow takes up the tricks). Each registers with
`arena.engine.hand.register_family` under the name its options are read by in
`arena.engine.options.OPTIONS`; `options.family_of` picks the family from the `Rules`,
and `backend.family_core` its core. The hearts engine never imports this package (an
import-linter contract): importing ``arena.engine`` imports it, so every family is
registered before a hand is dealt.

Auction, Royal Hearts and Heartless are not families: they are options the hearts `Hand`
plays itself (arena/engine/auction.py, royal.py, heartless.py), so they stay beside it.
"""

from . import cancellation, domino, enfle, penny

__all__ = ["cancellation", "domino", "enfle", "penny"]
