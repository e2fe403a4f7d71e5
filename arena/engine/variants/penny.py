"""`PennyHand`: a `Hand` of 003 'FOUR-PENNY HEARTS', several tricks in play at once.

003 'FOUR-PENNY HEARTS': "Each penny marks a round of Hearts called a 'penny-round'. Each
completed penny-round will contain exactly four cards. Four penny-rounds are played at the
same time, and are called a 'multi-round'." With three or five players there are three or
five pennies ('THREE-PENNY AND FIVE-PENNY HEARTS').

The deal, the pass and the regular opening tricks are the `Hand`'s own (the C core or the
reference); once `rules.penny_openings` tricks are done the multi-rounds are played by the
penny core (`arena.engine.variants._penny`, or `arena.engine.variants.penny_reference` under
``ARENA_PUREPYTHON=1``). A move is then a (penny, card) pair: `legal_moves`, `play(card,
penny=...)`. A card given without a penny goes to `default_penny(card)`, the
lowest-numbered penny where that card is legal, so code written for one trick at a time
(`legal_plays`, `play(card)`, the fast path) keeps working. Scores are standard Hearts
("Then the points are scored as in standard Hearts").

>>> from arena.engine import Hand
>>> from arena.engine.presets import four_penny
>>> hand = Hand.deal(four_penny(), seed=5, pass_direction="hold")
>>> type(hand).__name__, str(hand.legal_plays())
('PennyHand', '2C')
>>> while hand.trick_number < 1:
...     hand.play(hand.legal_plays().first())
>>> hand.multi_round, len(hand.pennies), len(hand.hand_of(0))
(0, 4, 12)
>>> penny, card = hand.legal_moves()[0]
>>> hand.play(card, penny=penny)
>>> hand.pennies[penny][0][1] == card
True
>>> while not hand.is_over:
...     hand.play(hand.legal_plays().first())
>>> sum(hand.points()) in (26, 78)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .. import config as core_config
from ..backend import IS_C, family_core
from ..cards import CARDS, Card, CardLike, CardSet, to_card
from ..decisions import Action, Decision, DecisionKind
from ..hand import (
    Hand,
    HandOverError,
    IllegalPlayError,
    OutOfTurnError,
    Phase,
    SeatView,
    Trick,
    _cardset,
    register_family,
)
from ..reference import derive
from ..rules import MoonRule, PassDirection, PennyPlay, Rules
from .penny_reference import ERR_BAD_PENNY, ERR_PENNY_FULL, ERR_PENNY_PLAYED

# The penny core follows the hearts core: C beside C, the reference beside the reference.
PennyState = family_core("penny", c_allowed=IS_C)[0].PennyState

__all__ = ["PennyHand", "PennyMove", "PennyState", "penny_points"]


Plays = tuple[tuple[int, Card], ...]


class PennyMove(NamedTuple):
    """A card and the penny it is played to (what a seat answers during a multi-round;
    a card alone goes to `PennyHand.default_penny`)."""

    penny: int
    card: Card | str


class PennyHand(Hand):
    """A hand under `rules.penny_play` 'simple' or 'advanced' (`Hand.deal` and
    `Hand.from_cards` build one for such rules)."""

    __slots__ = ("_penny", "_undo")
    _PLAIN_PHASES = False  # the multi-rounds are played by the penny state, not the hand's

    def __init__(self, rules: Rules, hands: Sequence[int], kitty: int, **kwargs: Any) -> None:
        if rules.penny_play is PennyPlay.NONE:
            raise ValueError("a PennyHand needs rules with penny_play 'simple' or 'advanced'")
        self._penny: Any = None
        self._undo: list[Any] = []
        super().__init__(rules, hands, kitty, **kwargs)
        self._start_pennies()

    # -- the switch from the opening tricks to the multi-rounds ----------------------

    def _bind_fast_path(self) -> None:
        """The fast path goes through this class, which knows which phase plays."""
        self.legal_mask = self._legal_mask
        self.try_play_index = self._try_play_index
        self.push_index = self._push_index
        self.try_pass_indices = self._try_pass_indices

    def _try_pass_indices(self, seat: int, cards: tuple[int, ...]) -> int:
        code: int = self._state.apply_pass(seat, cards)
        if not code:
            self._start_pennies()
        return code

    def call_pass(
        self, direction: PassDirection, split: tuple[PassDirection, ...], count: int
    ) -> None:
        """`Hand.call_pass`; a hold called under rules without opening tricks starts the
        multi-rounds at once."""
        super().call_pass(direction, split, count)
        self._start_pennies()

    def _start_pennies(self) -> None:
        """Once the opening tricks are done, hand the position to the penny core: "The
        player who wins the first trick becomes the first lead player" (003; with five
        players "the player to the left of the dealer", the core's opening leader)."""
        state, rules = self._state, self.rules
        if (
            self._penny is not None
            or self.calls_pending  # the dealer has not called the pass yet
            or state.phase != core_config.PHASE_PLAYING
            or state.trick_number < rules.penny_openings
        ):
            return
        derived = derive(rules.core_config())
        n = self.players
        self._penny = PennyState(
            n,
            int(rules.penny_play is PennyPlay.ADVANCED),
            rules.penny_rounds,
            tuple(state.hand(s) for s in range(n)),
            tuple(state.taken(s) for s in range(n)),
            tuple(state.tricks_won(s) for s in range(n)),
            state.leader,
            int(state.broken),
            derived.lead_restricted,
            derived.breaking,
        )

    # -- the penny-rounds ---------------------------------------------------------------

    @property
    def in_multi_rounds(self) -> bool:
        """True once the opening tricks are done (the multi-rounds are being played)."""
        return self._penny is not None

    @property
    def multi_round(self) -> int | None:
        """The 0-based multi-round in play (the count once over); None before the first."""
        return None if self._penny is None else int(self._penny.multi_round)

    @property
    def pennies(self) -> tuple[Plays, ...]:
        """Per penny, the (seat, card) plays of the multi-round in play, in order: the first
        is the penny-round's lead. () before the multi-rounds."""
        if self._penny is None:
            return ()
        return tuple(
            tuple((seat, CARDS[card]) for seat, card in plays) for plays in self._penny.pennies()
        )

    def legal_moves(self) -> tuple[tuple[int, Card], ...]:
        """The (penny, card) pairs the seat to play may play now, by penny then card. Before
        the multi-rounds a move is a card alone: (-1, card) for each legal card."""
        if self._penny is None:
            return tuple((-1, card) for card in _cardset(self._state.legal_mask()))
        return tuple(
            (penny, card)
            for penny, mask in enumerate(self._penny.legal_masks())
            for card in _cardset(mask)
        )

    def _pending_play(self) -> Decision:
        """During the multi-rounds a play is a (penny, card): `DecisionKind.PENNY_PLAY`,
        its legal moves by penny then card, the first the default."""
        if self._penny is None:
            return super()._pending_play()
        moves = self.legal_moves()
        seat = self.to_play
        assert seat is not None
        return Decision(DecisionKind.PENNY_PLAY, seat, moves, moves[0], trick=self.trick_number)

    def _apply_other(self, action: Action) -> None:
        """A multi-round play: `action.value` is (penny, card)."""
        if action.kind is not DecisionKind.PENNY_PLAY:
            super()._apply_other(action)
        penny, card = action.value
        self.play(card, seat=action.seat, penny=penny)
        self._actions.append(action)

    def default_penny(self, card: CardLike) -> int | None:
        """Where a card given without a penny goes: the lowest-numbered penny where it is
        legal; None when it is legal on none (or before the multi-rounds)."""
        if self._penny is None:
            return None
        mask = to_card(card).mask
        for penny, legal in enumerate(self._penny.legal_masks()):
            if legal & mask:
                return penny
        return None

    # -- state ----------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self._penny is None:
            return super().phase
        return Phase.OVER if self._penny.over else Phase.PLAYING

    @property
    def is_over(self) -> bool:
        return self._penny is not None and bool(self._penny.over)

    @property
    def to_play(self) -> int | None:
        if self._penny is None:
            return super().to_play
        seat: int = self._penny.to_play
        return None if seat < 0 else seat

    @property
    def trick_number(self) -> int:
        """The 0-based number of the first trick not finished (the opening tricks, then
        every penny-round counts as a trick)."""
        if self._penny is None:
            return super().trick_number
        return self.rules.penny_openings + len(self._penny.history())

    @property
    def hearts_broken(self) -> bool:
        if self._penny is None:
            return super().hearts_broken
        return bool(self._penny.broken)

    @property
    def leader(self) -> int:
        """The opening trick's leader, then the multi-round's lead player."""
        if self._penny is None:
            return super().leader
        return int(self._penny.leader)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The opening trick in play; () during the multi-rounds (see `pennies`)."""
        if self._penny is None:
            return super().current_trick
        return ()

    def hand_of(self, seat: int) -> CardSet:
        if self._penny is None:
            return super().hand_of(seat)
        return _cardset(self._penny.hand(self._seat(seat)))

    def seat_holding(self, card: CardLike) -> int | None:
        mask = to_card(card).mask
        for seat in range(self.players):
            if self.hand_of(seat).mask & mask:
                return seat
        return None

    def taken(self, seat: int) -> CardSet:
        if self._penny is None:
            return super().taken(seat)
        return _cardset(self._penny.taken(self._seat(seat)))

    def tricks_won(self, seat: int) -> int:
        if self._penny is None:
            return super().tricks_won(seat)
        return int(self._penny.tricks_won(self._seat(seat)))

    def _seat(self, seat: int) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat {seat!r} is not a seat of a {self.players}-player game")
        return seat

    def _finished(self) -> tuple[tuple[Trick, ...], tuple[int, ...]]:
        """The opening tricks, then every finished penny-round (multi-round by multi-round,
        penny by penny) as a `Trick` led by its first card's seat."""
        openings, points = super()._finished()
        if self._penny is None:
            return openings, points
        value_of = self.rules.card_values.get
        taken = list(points)
        built = list(openings)
        for _penny, plays, winner in self._penny.history():
            cards = tuple((seat, CARDS[card]) for seat, card in plays)
            built.append(Trick(cards[0][0], cards, winner))
            taken[winner] += sum(value_of(card, 0) for _, card in cards)
        return tuple(built), tuple(taken)

    # -- moves -----------------------------------------------------------------------------

    def _legal_mask(self) -> int:
        if self._penny is None:
            mask: int = self._state.legal_mask()
            return mask
        union = 0
        for mask in self._penny.legal_masks():
            union |= mask
        return union

    def _try_play_index(self, index: int) -> int:
        if self._penny is None:
            code: int = self._state.play(index)
            if not code:
                self._start_pennies()
            return code
        return self._play_on(self._default_penny_index(index), index)

    def _play_on(self, penny: int, index: int) -> int:
        """Play card `index` to `penny` in the penny core: 0, or its error code and no
        change. A play is kept undoable (`pop`) as the core's own plays are."""
        snapshot = self._penny.copy()
        code: int = self._penny.play(penny, index)
        if not code:
            self._undo.append(snapshot)
        return code

    def _default_penny_index(self, index: int) -> int:
        """The penny a card index goes to without one: its lowest legal penny, else the
        lowest with room (so the error names the card's own fault)."""
        state = self._penny
        bit = 1 << index if 0 <= index < 64 else 0
        room = -1
        for penny, legal in enumerate(state.legal_masks()):
            if legal & bit:
                return penny
            if room < 0 and state.check(penny, index) not in (ERR_PENNY_FULL, ERR_PENNY_PLAYED):
                room = penny
        return max(room, 0)

    def _push_index(self, index: int) -> None:
        """Unchecked play for search: before the multi-rounds the core's push; during them
        the card goes to its default penny (ValueError if it is legal on none)."""
        if self._penny is None:
            self._state.push(index)
            self._start_pennies()
            return
        code = self._play_on(self._default_penny_index(index), index)
        if code:
            raise ValueError(f"push({index}): {CARDS[index]} may not be played now (code {code})")

    def pop(self) -> None:
        """Undo the last `play` or `push` (across the switch to the multi-rounds too);
        IndexError when there is nothing to undo."""
        if self._penny is None:
            self._state.pop()
            return
        if self._undo:
            self._penny = self._undo.pop()
            return
        if self.rules.penny_openings == 0:
            raise IndexError("pop(): nothing to undo")
        self._penny = None
        self._state.pop()

    def is_legal(self, card: CardLike, penny: int | None = None) -> bool:
        """Whether `card` may be played now (to `penny` when given, else to any penny)."""
        if self._penny is None:
            return super().is_legal(card)
        card = to_card(card)
        if penny is None:
            return self.default_penny(card) is not None
        return bool(self._penny.check(penny, card.index) == 0)

    def illegal_reason(self, card: CardLike, penny: int | None = None) -> str | None:
        """Why `card` (to `penny`, or to its default penny) may not be played, or None."""
        if self._penny is None:
            return super().illegal_reason(card)
        card = to_card(card)
        target = self._default_penny_index(card.index) if penny is None else penny
        code = self._penny.check(target, card.index)
        return str(self._penny_error(code, card, target)) if code else None

    def play(self, card: CardLike, seat: int | None = None, penny: int | None = None) -> None:
        """Play `card` (to `penny` during the multi-rounds; without one, to its default
        penny). Raises IllegalPlayError naming the rule, as `Hand.play`."""
        if self._penny is None:
            if penny is not None and penny >= 0:
                card = to_card(card)
                raise IllegalPlayError(
                    f"cannot play {card} to penny {penny}: the opening tricks are played one "
                    "at a time (003 'FOUR-PENNY HEARTS')",
                    card=card,
                    seat=seat,
                    code=ERR_BAD_PENNY,
                )
            super().play(card, seat)
            self._start_pennies()
            return
        card = to_card(card)
        to_play = self.to_play
        if seat is not None and seat != to_play:
            if to_play is None:
                raise HandOverError(
                    f"cannot play {card}: the hand is over",
                    card=card,
                    seat=seat,
                    code=core_config.ERR_HAND_OVER,
                )
            raise OutOfTurnError(
                f"seat {seat} cannot play {card}: it is seat {to_play}'s turn",
                card=card,
                seat=seat,
                code=0,
            )
        target = self._default_penny_index(card.index) if penny is None else penny
        code = self._play_on(target, card.index)
        if code:
            raise self._penny_error(code, card, target)

    def points(self, totals: Sequence[int] | None = None) -> tuple[int, ...]:
        """Standard Hearts scores ("Then the points are scored as in standard Hearts"),
        the moon by `rules.moon` ('none', 'old' or 'new')."""
        if not self.is_over:
            raise ValueError("the hand is not over: points are scored after the last trick")
        if totals is not None and len(totals) != self.players:
            raise ValueError(f"expected {self.players} totals, got {len(totals)}")
        return penny_points(self.rules, [self.taken(s).mask for s in range(self.players)])

    def view(self, seat: int) -> SeatView:
        """`Hand.view`, plus the open penny-rounds and the (penny, card) moves."""
        base = super().view(seat)
        if self._penny is None:
            return base
        return base.replace(
            pennies=self.pennies,
            legal_moves=self.legal_moves() if self.to_play == seat else (),
            multi_round=self.multi_round,
        )

    def _penny_error(self, code: int, card: Card, penny: int) -> IllegalPlayError:
        seat = self.to_play
        who = f"seat {seat}" if seat is not None else "nobody"
        n = self.players
        plays = self._penny.pennies()[penny] if 0 <= penny < n else ()
        reason = {
            ERR_BAD_PENNY: f"there is no penny {penny} (pennies 0..{n - 1})",
            ERR_PENNY_FULL: f'penny {penny} already holds its {n} cards (003: "Each '
            f'completed penny-round will contain exactly {n} cards")',
            ERR_PENNY_PLAYED: f"{who} has played to penny {penny} already (003, the simple "
            'version: "each player plays one card to each penny-round")',
            core_config.ERR_MUST_FOLLOW_SUIT: f"{who} must follow suit on penny {penny}: "
            + (f"{CARDS[plays[0][1]].suit.name.lower()} were led" if plays else "")
            + ' (003: "A player must play a card of the suit that was led to a penny-round, '
            'if possible")',
            core_config.ERR_NOT_BROKEN: f"{card} may not be led to penny {penny}: no scoring "
            'card has been played (003: "a scoring card cannot be led until a scoring card has '
            'been played on a penny-round")',
            core_config.ERR_NOT_IN_HAND: f"{who} does not hold {card}",
            core_config.ERR_BAD_CARD: f"{card} is not in play under these rules",
        }
        if code == core_config.ERR_HAND_OVER:
            return IllegalPlayError(
                f"cannot play {card}: the hand is over", card=card, seat=seat, code=code
            )
        return IllegalPlayError(
            f"illegal play {card} to penny {penny} by {who}: "
            + reason.get(code, f"error code {code}"),
            card=card,
            seat=seat,
            code=code,
        )


def penny_points(rules: Rules, taken: Sequence[int]) -> tuple[int, ...]:
    """Standard Hearts scores from each seat's taken cards: the card values summed; a
    seat that took every penalty card shot the moon (000 'Shooting the Moon'): 'old' gives
    it 0 and everyone else the moon's worth, 'new' takes the worth off its own score."""
    derived = derive(rules.core_config())
    values = derived.values
    raw = [sum(values[c] for c in range(52) if mask >> c & 1) for mask in taken]
    required = derived.shoot_required
    if rules.moon is MoonRule.NONE or not derived.penalty:
        return tuple(raw)
    shooter = next((s for s, mask in enumerate(taken) if mask & required == required), -1)
    if shooter < 0:
        return tuple(raw)
    worth = rules.effective_moon_points
    if rules.moon is MoonRule.NEW:
        return tuple(-worth if s == shooter else score for s, score in enumerate(raw))
    return tuple(0 if s == shooter else score + worth for s, score in enumerate(raw))


register_family("penny", PennyHand)
