"""Domino Hearts (000 'Domino Hearts'): a `Hand` played from six-card hands and a stock.

"Each player receives six cards, dealt one at a time. The remainder of the pack is placed
face down in the center of the table, forming the stock. ... a player who cannot follow
suit to the lead must draw cards from the top of the stock until he can play. After the
stock is exhausted, a player unable to follow suit may discard. The game continues until
all cards have been won in tricks, with each player dropping out as his cards are
exhausted. If a player wins a trick with his last card, the turn to lead passes to the
first active player on his left. The last survivor must keep all the cards remaining in
his hand."

`DominoHand` is a `Hand` (the runner, views and replays use one API) whose backend is the
Domino core: `arena.engine.variants._domino` in C, or `arena.engine.variants.domino_reference` under
``ARENA_PUREPYTHON=1``. Draws are not decisions: the engine makes them when a seat void
in the suit led is to play, and records them (`draws`). Tricks hold one play per seat
still in, so a trick may be shorter than the table. docs/rules.md gives every choice made
where the source is silent.

>>> from arena.engine.variants.domino import DominoHand, domino_rules
>>> hand = DominoHand.deal(domino_rules(players=3), seed=11, dealer=0)
>>> hand.phase.value, hand.to_play, hand.stock_size, [len(hand.hand_of(s)) for s in range(3)]
('playing', 1, 34, [6, 6, 6])
>>> while not hand.is_over:
...     hand.play(hand.legal_plays().first())
>>> sum(hand.points())
13
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .. import presets
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
from ..rules import MoonRule, PassDirection, Rules
from .own_state import OwnStateHand

__all__ = ["DOMINO_BACKEND_NAME", "DominoHand", "domino_rules", "search_position"]

ERR_HAND_OVER = 1
ERR_BAD_CARD = 3
ERR_NOT_IN_HAND = 4
ERR_MUST_FOLLOW_SUIT = 7
ERR_NOT_BROKEN = 9
_MOON_KINDS = {MoonRule.NONE: 0, MoonRule.OLD: 1}


_core, DOMINO_BACKEND_NAME = family_core("domino")


def domino_rules(players: int = 4, **changes: Any) -> Rules:
    """The `domino` preset's rules for 2..7 players (`arena.engine.presets.domino`), with
    any `changes` (`Rules.replace`). Raises RulesError for a table outside 2..7."""
    rules = presets.domino(players)
    return rules.replace(**changes) if changes else rules


def search_position(
    rules: Rules,
    hands: Sequence[int],
    stock: Sequence[int],
    *,
    leader: int,
    broken: bool,
    trick: Sequence[tuple[int, int]],
) -> Any:
    """A backend state (C or reference) that plays on from a position mid-hand, for search
    (`arena.bots.domino_search`): hand masks by seat, the stock's card indices top first,
    the trick in progress as (seat, card index) from its leader. The cards already won are
    left out and the state scores only what is won from here, with no moon (the caller
    adds what was taken before and judges the moon). The state has `legal_mask`, `push`,
    `pop`, `to_play`, `phase` (2 when over), `current_trick`, `taken` and `points`.

    Raises ValueError for an impossible position (a card twice, a trick out of turn)."""
    return _core.position(
        rules.players,
        0,
        tuple(hands),
        tuple(stock),
        tuple(rules.card_values.get(card, 0) for card in CARDS[:52]),
        0,
        0,
        leader,
        broken,
        tuple(trick),
    )


class DominoHand(OwnStateHand):
    """One Domino Hearts deal. Build it with `DominoHand.deal` or `DominoHand.from_cards`
    (or `Hand.deal`, which hands Domino rules over to this class)."""

    __slots__ = ()
    GAME = "Domino Hearts"

    def __init__(  # the same shape as Hand's, plus the stock
        self,
        rules: Rules,
        hands: Sequence[int],
        kitty: int = 0,
        *,
        dealer: int,
        pass_direction: PassDirection | str = PassDirection.HOLD,
        seed: int,
        declarer: int | None = None,
        stock: Sequence[int] = (),
    ) -> None:
        if not rules.domino:
            raise ValueError("DominoHand needs rules with domino true (000 'Domino Hearts')")
        if kitty or declarer is not None or PassDirection(pass_direction) is not PassDirection.HOLD:
            raise ValueError("Domino Hearts has no kitty, no declarer and no pass")
        _check_seat(rules, dealer, "dealer")
        self.rules = rules
        self._base_rules = rules
        self.players = rules.players
        self.dealer = dealer
        self.pass_direction = PassDirection.HOLD
        self.seed = seed & 0xFFFFFFFFFFFFFFFF
        try:
            self._state = _core.DominoState(
                rules.players,
                dealer,
                tuple(hands),
                tuple(stock),
                tuple(rules.card_values.get(card, 0) for card in CARDS[:52]),
                _MOON_KINDS[rules.moon],
                rules.effective_moon_points,
            )
        except ValueError as error:
            raise ValueError(f"impossible deal: {error}") from None
        self._history = ((), (), (0,) * rules.players)
        self._actions = []
        self._init_later_decisions()  # the pledge and the shooter's choice: never asked here
        self._pass_record = None
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
    ) -> DominoHand:
        """Shuffle with `seed` (the SplitMix64 deal of every game) and deal six cards a seat
        one at a time from the dealer's left; the rest is the stock, in order."""
        _check_seat(rules, dealer, "dealer")
        seed &= 0xFFFFFFFFFFFFFFFF
        hands, stock = _core.deal(rules.players, seed, dealer)
        return cls(
            rules,
            hands,
            dealer=dealer,
            pass_direction=pass_direction or PassDirection.HOLD,
            seed=seed,
            declarer=declarer,
            stock=stock,
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
        stock: Iterable[CardLike] | str = (),
    ) -> DominoHand:
        """A deal from explicit hands (text like ``'2C 3C QS'`` or `Card`s) and the stock's
        top cards, top first; the rest of the pack follows them in the stock in card order
        (2C 3C … AH). Raises ValueError for a card given twice."""
        if len(cards_by_seat) != rules.players:
            raise ValueError(f"expected cards for {rules.players} seats, got {len(cards_by_seat)}")
        if CardSet(kitty):
            raise ValueError("Domino Hearts has no kitty")
        masks = []
        for seat, cards in enumerate(cards_by_seat):
            listed = [to_card(c) for c in (cards.split() if isinstance(cards, str) else cards)]
            if len(set(listed)) != len(listed):
                raise ValueError(f"seat {seat} is given the same card twice")
            masks.append(CardSet(listed).mask)
        order = [to_card(c) for c in (stock.split() if isinstance(stock, str) else stock)]
        given = CardSet(order).mask
        dealt = 0
        for mask in masks:
            dealt |= mask
        order += [card for card in CARDS[:52] if not (given | dealt) & card.mask]
        return cls(
            rules,
            masks,
            dealer=dealer,
            pass_direction=pass_direction,
            seed=seed,
            declarer=declarer,
            stock=tuple(card.index for card in order),
        )

    # -- Domino's own state ---------------------------------------------------------

    @property
    def stock_size(self) -> int:
        """Cards left in the face-down stock."""
        return int(self._state.stock_size)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock's cards, top first (hidden from every seat: views give its size)."""
        return tuple(CARDS[c] for c in self._state.stock())

    def in_play(self, seat: int) -> bool:
        """Whether `seat` takes part in the current trick ("each player dropping out as
        his cards are exhausted"); False for everyone once the hand is over."""
        _check_seat(self.rules, seat, "seat")
        return bool(self._state.active >> seat & 1)

    def drawn(self, seat: int) -> int:
        """How many cards `seat` has drawn from the stock."""
        _check_seat(self.rules, seat, "seat")
        return int(self._state.drawn(seat))

    _TAKES_ACTIONS = True

    def _record_engine_actions(self) -> None:
        """The engine's own actions: the draws made since the last recorded one (a seat
        that cannot follow draws when its turn comes), as `DecisionKind.DRAW`."""
        recorded = sum(1 for action in self._actions if action.kind is DecisionKind.DRAW)
        for _, seat, card in self.draws()[recorded:]:
            self._actions.append(Action(DecisionKind.DRAW, seat, card))

    def _apply_other(self, action: Action) -> None:
        """A draw is never applied from outside: the engine drew it when the action before
        it was applied, so a replayer skips the draws it reads and compares them with
        `history` (arena.match.verify does)."""
        if action.kind is not DecisionKind.DRAW:
            super()._apply_other(action)
        raise IllegalActionError(
            "a draw is the engine's own action (000 'Domino Hearts'): replay the choices and "
            "compare the draws in `history`"
        )

    def draws(self) -> tuple[tuple[int, int, Card], ...]:
        """Every draw so far, in order: (trick number, seat, card)."""
        return tuple((t, s, CARDS[c]) for t, s, c in self._state.draws())

    @property
    def kept(self) -> CardSet:
        """Once over: the cards charged outside tricks ("The last survivor must keep all
        the cards remaining in his hand", with the stock left)."""
        return _cardset(self._state.kept)

    @property
    def kept_by(self) -> int | None:
        """Who keeps `kept`: the last survivor, or the last trick's winner when the last
        trick emptied every hand with the stock not yet drawn; None if nothing is kept."""
        seat: int = self._state.kept_by
        return None if seat < 0 else seat

    # -- Hand's API on the Domino core --------------------------------------------

    def taken(self, seat: int) -> CardSet:
        """Cards `seat` has won, and once over the cards it keeps (`kept`)."""
        _check_seat(self.rules, seat, "seat")
        mask = self._state.taken(seat)
        if self._state.kept_by == seat:
            mask |= self._state.kept
        return _cardset(mask)

    def _finished(self) -> tuple[tuple[Trick, ...], tuple[int, ...]]:
        raw = self._state.history()
        cached_raw, tricks, points = self._history
        if raw == cached_raw:
            return tricks, points
        value_of = self.rules.card_values.get
        built = tuple(
            Trick(leader, tuple((s, CARDS[c]) for s, c in plays), winner)
            for leader, plays, winner in raw
        )
        taken = [0] * self.players
        for trick in built:
            taken[trick.winner] += sum(value_of(card, 0) for _, card in trick.plays)
        self._history = (raw, built, tuple(taken))
        return built, tuple(taken)

    def _out_of_turn_why(self, seat: int) -> str:
        return "" if self.in_play(seat) else " (it is out of cards: 000 'Domino Hearts')"

    def points(self, totals: Sequence[int] | None = None) -> tuple[int, ...]:
        """Each seat's score: the values of the cards it took or kept; a moon (every heart
        won in tricks: kept cards never make one)
        scores 0 and everyone else 13. Raises ValueError before the hand is over."""
        if not self.is_over:
            raise ValueError("the hand is not over: points are scored after the last trick")
        if totals is not None and len(tuple(totals)) != self.players:
            raise ValueError(f"expected {self.players} totals, got {len(tuple(totals))}")
        return tuple(self._state.points())

    def view(self, seat: int) -> SeatView:
        """What `seat` may know: its hand (drawn cards included), the tricks, the stock's
        size, who is still in and how many cards each seat drew; never the stock's cards."""
        _check_seat(self.rules, seat, "seat")
        tricks, _ = self._finished()
        value_of = self.rules.card_values.get
        points = tuple(
            sum(value_of(card, 0) for card in self.taken(s)) for s in range(self.players)
        )
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
            hearts_broken=self.hearts_broken,
            points_taken=points,
            kitty=None,
            stock_size=self.stock_size,
            in_play=tuple(self.in_play(s) for s in range(self.players)),
            drawn=tuple(self.drawn(s) for s in range(self.players)),
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
            ERR_MUST_FOLLOW_SUIT: f"{who} must follow suit: {led_name} were led (a seat void "
            "in the suit draws from the stock until it can follow: 000 'Domino Hearts')",
            ERR_NOT_BROKEN: "hearts have not been broken",
        }.get(code, f"error code {code}")
        return IllegalPlayError(
            f"illegal play {card} by {who}: {reason}", card=card, seat=seat, code=code
        )

    def __repr__(self) -> str:
        return (
            f"<DominoHand players={self.players} dealer={self.dealer} "
            f"phase={self.phase.value} trick={self.trick_number} stock={self.stock_size}>"
        )


register_family("domino", DominoHand)
