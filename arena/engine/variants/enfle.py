"""Enfle / Schwellen (004 'Enfle'): a `Hand` where a seat that cannot follow takes up the
tricks.

"Enfle (or Schwellen) is usually played by four persons with a piquet pack and for a
pool. The cards rank as at Hearts, and there is no trump suit. A player must follow suit
if he can, but if he cannot he may not discard, but must take up all tricks already won
and add them to his hand. Play is continued until one player gets rid of all his cards
and thus wins."

`EnfleHand` is a `Hand` (the runner, views and replays use one API) whose backend is the
Enfle core: `arena.engine.variants._enfle` in C, or `arena.engine.variants.enfle_reference`
under ``ARENA_PUREPYTHON=1``. A pickup is not a decision: the engine makes it when the seat
to play holds no card of the suit led, and records it in `history` as a
`DecisionKind.PICKUP` (`pickups()` lists them). Our choices where 004 is silent (the
current trick's cards go with the pickup, the picker leads, the score, the cap) are in
docs/rules.md 'Enfle' and arena/engine/_core/enfle.h.

>>> from arena.engine import preset
>>> hand = EnfleHand.deal(preset("enfle"), seed=11, dealer=3)
>>> hand.to_play, [len(hand.hand_of(s)) for s in range(4)]
(0, [8, 8, 8, 8])
>>> while not hand.is_over:
...     hand.play(hand.legal_plays().first())
>>> hand.winner is not None or hand.trick_number == MAX_TRICKS
True
>>> hand.points() == tuple(len(hand.hand_of(s)) for s in range(4))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..backend import family_core
from ..cards import CARDS, Card, CardLike, CardSet, to_card
from ..decisions import Action, DecisionKind, IllegalActionError
from ..hand import (
    HandOverError,
    IllegalPlayError,
    SeatView,
    Trick,
    _cardset,
    _check_seat,
    register_family,
)
from ..rules import PassDirection, Rules
from .own_state import OwnStateHand

__all__ = ["ENFLE_BACKEND_NAME", "MAX_TRICKS", "EnfleHand", "search_position"]

ERR_HAND_OVER = 1
ERR_BAD_CARD = 3
ERR_NOT_IN_HAND = 4
ERR_MUST_FOLLOW_SUIT = 7

_core, ENFLE_BACKEND_NAME = family_core("enfle")

MAX_TRICKS: int = _core.MAX_TRICKS
"""The cap on a hand's tricks (won, or broken off by a pickup): a hand could cycle for ever,
so after this many it ends and every seat scores the cards it holds (docs/rules.md)."""


def search_position(
    rules: Rules,
    hands: Sequence[int],
    won: Sequence[int],
    *,
    leader: int,
    trick: Sequence[int],
) -> Any:
    """A backend state (C or reference) that plays on from a position mid-hand, for search
    (`arena.bots.enfle_search`): hand masks by seat (every seat holds cards), each seat's
    won pile, the trick in progress's leader and its card indices from him. Its tricks and
    the cap count from here. The state has `legal_mask`, `push`, `pop`, `to_play`, `phase`
    (2 when over), `current_trick`, `winner` and `points`.

    Raises ValueError for an impossible position (a card twice, a seat to play void in the
    suit led)."""
    return _core.position(rules.players, tuple(hands), tuple(won), leader, tuple(trick))


class EnfleHand(OwnStateHand):
    """One Enfle deal. Build it with `EnfleHand.deal` or `EnfleHand.from_cards` (or
    `Hand.deal`, which hands Enfle rules over to this class)."""

    __slots__ = ()
    GAME = "Enfle"

    def __init__(  # the same shape as Hand's
        self,
        rules: Rules,
        hands: Sequence[int],
        kitty: int = 0,
        *,
        dealer: int,
        pass_direction: PassDirection | str = PassDirection.HOLD,
        seed: int,
        declarer: int | None = None,
    ) -> None:
        if not rules.enfle:
            raise ValueError("EnfleHand needs rules with enfle true (004 'Enfle')")
        if kitty or declarer is not None or PassDirection(pass_direction) is not PassDirection.HOLD:
            raise ValueError("Enfle has no kitty, no declarer and no pass")
        _check_seat(rules, dealer, "dealer")
        self.rules = rules
        self._base_rules = rules
        self.players = rules.players
        self.dealer = dealer
        self.pass_direction = PassDirection.HOLD
        self.seed = seed & 0xFFFFFFFFFFFFFFFF
        try:
            self._state = _core.EnfleState(rules.players, dealer, tuple(hands))
        except ValueError as error:
            raise ValueError(f"impossible deal: {error}") from None
        self._history = ((), (), (0,) * rules.players)
        self._actions = []
        self._pass_record = None
        self._init_later_decisions()  # no pledge nor moon in Enfle, but the hand's state
        state = self._state
        self.legal_mask = state.legal_mask
        self.try_play_index = state.play
        self.push_index = state.push
        self.try_pass_indices = self._refuse_pass

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int,
        *,
        dealer: int = 0,
        pass_direction: PassDirection | str | None = None,
        declarer: int | None = None,
    ) -> EnfleHand:
        """Shuffle the rules' pack (the piquet pack in the preset) with `seed` (the
        SplitMix64 shuffle of every game) and deal it one card at a time from the dealer's
        left."""
        _check_seat(rules, dealer, "dealer")
        seed &= 0xFFFFFFFFFFFFFFFF
        hands = _core.deal(rules.players, seed, dealer, rules.deck.mask)
        return cls(
            rules,
            hands,
            dealer=dealer,
            pass_direction=pass_direction or PassDirection.HOLD,
            seed=seed,
            declarer=declarer,
        )

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        cards_by_seat: Sequence[Iterable[CardLike] | str],
        *,
        pass_direction: PassDirection | str = PassDirection.HOLD,
        dealer: int = 0,
        kitty: Iterable[CardLike] | str = (),
        seed: int = 0,
        declarer: int | None = None,
    ) -> EnfleHand:
        """A deal from explicit hands (text like ``'7C 8C QS'`` or `Card`s); they need not
        be the whole pack nor of one size (hand-built positions for tests). Raises
        ValueError for a card given twice or an empty hand."""
        if len(cards_by_seat) != rules.players:
            raise ValueError(f"expected cards for {rules.players} seats, got {len(cards_by_seat)}")
        if CardSet(kitty):
            raise ValueError("Enfle has no kitty")
        masks = []
        for seat, cards in enumerate(cards_by_seat):
            listed = [to_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
            if len(set(listed)) != len(listed):
                raise ValueError(f"seat {seat} is given the same card twice")
            masks.append(CardSet(listed).mask)
        return cls(
            rules,
            masks,
            dealer=dealer,
            pass_direction=pass_direction,
            seed=seed,
            declarer=declarer,
        )

    # -- Enfle's own state ----------------------------------------------------------

    @property
    def winner(self) -> int | None:
        """The seat that got rid of all its cards ("and thus wins"); None before, and
        after a hand ended by the cap."""
        seat: int = self._state.winner
        return None if seat < 0 else seat

    @property
    def goes_out(self) -> bool:
        """Yes: a seat that gets rid of all its cards ends the hand (`went_out`)."""
        return True

    @property
    def went_out(self) -> int | None:
        """`winner`: the seat that went out, None when the cap ended the hand."""
        return self.winner

    def pickups(self) -> tuple[tuple[int, int, CardSet], ...]:
        """Every pickup so far, in order: (trick number, seat, the cards it took up)."""
        return tuple((t, s, _cardset(mask)) for t, s, mask in self._state.pickups())

    _TAKES_ACTIONS = True

    def _record_engine_actions(self) -> None:
        """The engine's own actions: the pickups made since the last recorded one (a seat
        that cannot follow takes up when its turn comes), as `DecisionKind.PICKUP`."""
        recorded = sum(1 for action in self._actions if action.kind is DecisionKind.PICKUP)
        for _, seat, cards in self.pickups()[recorded:]:
            self._actions.append(Action(DecisionKind.PICKUP, seat, tuple(cards)))

    def _apply_other(self, action: Action) -> None:
        """A pickup is never applied from outside: the engine made it when the play before
        it was applied, so a replayer skips the pickups it reads and compares them with
        `history` (arena.match.replay_v2 does)."""
        if action.kind is not DecisionKind.PICKUP:
            super()._apply_other(action)
        raise IllegalActionError(
            "a pickup is the engine's own action (004 'Enfle'): replay the plays and compare "
            "the pickups in `history`"
        )

    # -- Hand's API on the Enfle core -----------------------------------------------

    def taken(self, seat: int) -> CardSet:
        """The cards of the tricks `seat` won that lie on the table still (a pickup takes
        every won trick up)."""
        _check_seat(self.rules, seat, "seat")
        return _cardset(self._state.taken(seat))

    def _finished(self) -> tuple[tuple[Trick, ...], tuple[int, ...]]:
        """The tricks won and broken off (winner -1: a pickup), and per seat the cards it
        holds (the hand's score so far)."""
        raw = self._state.history()
        cached_raw, tricks, _ = self._history
        held = tuple(len(self.hand_of(s)) for s in range(self.players))
        if raw == cached_raw:
            return tricks, held
        built = tuple(
            Trick(leader, tuple((s, CARDS[c]) for s, c in plays), winner)
            for leader, plays, winner in raw
        )
        self._history = (raw, built, held)
        return built, held

    def points(self, totals: Sequence[int] | None = None) -> tuple[int, ...]:
        """Each seat's score: one point per card left in its hand (the seat that went out
        0; after the cap every seat its cards). Raises ValueError before the hand is over."""
        if not self.is_over:
            raise ValueError("the hand is not over: points are scored when a seat goes out")
        if totals is not None and len(tuple(totals)) != self.players:
            raise ValueError(f"expected {self.players} totals, got {len(tuple(totals))}")
        return tuple(self._state.points())

    def view(self, seat: int) -> SeatView:
        """What `seat` may know: its hand (the cards it took up included), every trick (a
        pickup's with winner -1), the pickups, and per seat the cards it holds
        (`points_taken`, the hand's score so far)."""
        _check_seat(self.rules, seat, "seat")
        tricks, held = self._finished()
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            phase=self.phase,
            to_play=self.to_play,
            hand=self.hand_of(seat),
            legal=self.legal_plays() if self.to_play == seat else CardSet(),
            passed=(),
            received=(),
            current_trick=self.current_trick,
            tricks=tricks,
            hearts_broken=False,
            points_taken=held,
            kitty=None,
            pickups=tuple((t, s, tuple(cards)) for t, s, cards in self.pickups()),
        )

    def _play_error(self, code: int, card: Card) -> IllegalPlayError:
        seat = self.to_play
        who = f"seat {seat}" if seat is not None else "nobody"
        if code == ERR_HAND_OVER:
            return HandOverError(
                f"cannot play {card}: the hand is over", card=card, seat=seat, code=code
            )
        trick = self._state.current_trick()
        led = CARDS[trick[0][1]].suit if trick else None
        led_name = led.name.lower() if led is not None else "a suit"
        reason = {
            ERR_BAD_CARD: f"{card} is not a card of the pack",
            ERR_NOT_IN_HAND: f"{who} does not hold {card}",
            ERR_MUST_FOLLOW_SUIT: f"{who} must follow suit: {led_name} were led (004 'Enfle': "
            '"A player must follow suit if he can")',
        }.get(code, f"error code {code}")
        return IllegalPlayError(
            f"illegal play {card} by {who}: {reason}", card=card, seat=seat, code=code
        )

    def __repr__(self) -> str:
        return (
            f"<EnfleHand players={self.players} dealer={self.dealer} "
            f"phase={self.phase.value} trick={self.trick_number}>"
        )


register_family("enfle", EnfleHand)
