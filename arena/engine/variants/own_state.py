"""`OwnStateHand`: what the families that keep the whole hand in a state of their own share.

Why a base: Domino Hearts and Enfle each play every trick in their own core (a stock, a
pickup), with no pass, no kitty and no Booster Nines, so the parts of `Hand` that read the
hearts core answer the same way for both: nothing passed, an empty kitty, the unfinished
trick and a play checked by the family's state. Written once here; each family says its
name (`GAME`) and, where it has one, why a seat out of turn is out of turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import CARDS, Card, CardLike, CardSet, Suit, to_card
from ..config import ERR_NOT_PASSING
from ..hand import Hand, IllegalPassError, _check_seat

__all__ = ["OwnStateHand"]


class OwnStateHand(Hand):
    """A `Hand` whose family state (`self._state`) plays every trick; subclasses set
    `GAME` and build the state themselves."""

    __slots__ = ()
    GAME = ""
    """The family's name in messages ("Domino Hearts", "Enfle")."""

    @staticmethod
    def _refuse_pass(seat: int, cards: tuple[int, ...]) -> int:
        """The fast path's pass (`try_pass_indices`): there is no pass, so always
        ERR_NOT_PASSING."""
        return ERR_NOT_PASSING

    @property
    def booster_suit(self) -> Suit | None:
        """Always None: no Booster Nines in these games."""
        return None

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) pairs played to the unfinished trick, in order."""
        return tuple((s, CARDS[c]) for s, c in self._state.current_trick())

    @property
    def kitty(self) -> CardSet:
        """Always empty: the undealt cards, if any, are not a kitty."""
        return CardSet()

    @property
    def kitty_owner(self) -> int | None:
        return None

    def passed(self, seat: int) -> tuple[Card, ...]:
        _check_seat(self.rules, seat, "seat")
        return ()

    def received(self, seat: int) -> tuple[Card, ...]:
        _check_seat(self.rules, seat, "seat")
        return ()

    def play(self, card: CardLike, seat: int | None = None) -> None:
        """Play `card` for the seat to play (checked against `seat` when given). Raises
        IllegalPlayError (OutOfTurnError, HandOverError) saying which rule forbids it."""
        self._play_as(to_card(card), seat)

    def _check_play(self, card: Card) -> int:
        code: int = self._state.check_play(card.index)
        return code

    def apply_pass(self, seat: int, cards: Iterable[CardLike] | str) -> None:
        """There is no pass: always IllegalPassError."""
        _check_seat(self.rules, seat, "seat")
        raise IllegalPassError(
            f"illegal pass by seat {seat}: no pass is due now ({self.GAME} has no pass)",
            seat=seat,
            code=ERR_NOT_PASSING,
        )
