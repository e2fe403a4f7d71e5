"""`CancellationHand`: one deal of Cancellation Hearts, with the `Hand` API over two packs.

000 'Cancellation Hearts' and 003 'CANCELLATION HEARTS': two packs shuffled together, so
each card may be there twice; two copies of one card in a trick cancel and neither can
win it; a trick nobody wins is set aside for the next trick's winner, its leader leading
again; the widow goes with the first trick; an unwon last trick and the set-aside tricks
are discarded unscored. The rules live in the backend: the C module ``_cancellation``, or
the pure-Python reference `arena.engine.variants.cancellation_reference` under
``ARENA_PUREPYTHON=1`` (the same switch as the other games). This class answers what
`Hand` answers, with `CardMultiset` where two copies can be held (`hand_of`, `taken`,
`kitty`) and a `Trick.winner` of -1 for a trick nobody won.

>>> from arena.engine.presets import cancellation
>>> hand = CancellationHand.deal(cancellation(), seed=7)
>>> hand.players, len(hand.hand_of(0)), len(hand.kitty)
(8, 13, 0)
>>> while not hand.is_over:
...     hand.play(hand.legal_plays().first())
>>> sum(hand.points()) + sum(hand.rules.value_of(c) for c in hand.discarded) <= 52 * 8
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .. import config as core_config
from ..backend import family_core
from ..cards import CARDS, Card, CardLike, CardSet, Suit, to_card
from ..hand import (
    Hand,
    HandOverError,
    IllegalPassError,
    IllegalPlayError,
    OutOfTurnError,
    Phase,
    SeatView,
    Trick,
    register_family,
)
from ..multiset import CardMultiset
from ..rules import FirstTrick, KittyVisibility, LeadRule, MoonRule, Opening, PassDirection, Rules
from . import cancellation_reference as reference

backend, _ = family_core("cancellation")
"""The backend module in use: ``_cancellation`` (C) or the reference."""

_PHASES = (Phase.PASSING, Phase.PLAYING, Phase.OVER)
_PASS_OFFSETS: dict[PassDirection, Callable[[int], int]] = {
    PassDirection.HOLD: lambda n: 0,
    PassDirection.LEFT: lambda n: 1,
    PassDirection.RIGHT: lambda n: n - 1,
    PassDirection.ACROSS: lambda n: n // 2,
}


def cancellation_config(rules: Rules) -> reference.CancellationConfig:
    """The integer configuration both backends play `rules` by (cached on the rules).

    Raises ValueError for rules without `cancellation`."""
    if not rules.cancellation:
        raise ValueError("cancellation_config needs rules with cancellation (two packs)")
    cached: reference.CancellationConfig | None = rules.__dict__.get("_cancellation_cfg")
    if cached is None:
        copies = rules.deck_copies
        values = [0] * 52
        for card, value in rules.card_values.items():
            values[card.index] = value
        cached = reference.CancellationConfig(
            players=rules.players,
            hand_size=rules.hand_size,
            deck_once=copies.mask,
            deck_twice=copies.twice,
            widow_size=rules.kitty_size,
            pass_count=rules.pass_count
            if any(d is not PassDirection.HOLD for d in rules.pass_schedule)
            else 0,
            opening=list(Opening).index(rules.opening),
            first_trick=list(FirstTrick).index(rules.first_trick),
            lead_rule=list(LeadRule).index(rules.lead_rule),
            broken_by=list(type(rules.broken_by)).index(rules.broken_by),
            values=tuple(values),
            moon=list(MoonRule).index(rules.moon),
            moon_points=rules.effective_moon_points,
        )
        rules.__dict__["_cancellation_cfg"] = cached
    return cached


def _multiset(pair: tuple[int, int]) -> CardMultiset:
    return CardMultiset.from_masks(pair[0], pair[1])


class CancellationHand(Hand):
    """One Cancellation deal: build it with `deal` (from a seed) or `from_cards`.

    A `Hand` to its users (the game, the runner, the views): every public member is
    answered here from the two-pack backend; the other games' phases (the dealer's call,
    the auction, the reveal) are never entered, so `Hand`'s own members for them answer
    "not due"."""

    legal_mask: Callable[[], int]
    """The distinct legal cards as a bitmask; 0 while passing or when over."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[tuple[int, int]],
        widow: tuple[int, int],
        *,
        dealer: int,
        pass_direction: PassDirection | str,
        seed: int,
    ) -> None:
        self.rules = rules
        self.players = n = rules.players
        self.dealer = dealer
        self.pass_direction = PassDirection(pass_direction)
        self.seed = seed
        offset = _PASS_OFFSETS.get(self.pass_direction)
        if offset is None:
            raise ValueError(f"Cancellation Hearts cannot pass {self.pass_direction.value}")
        try:
            self._state: Any = backend.CancellationState(
                cancellation_config(rules), tuple(hands), widow, dealer, offset(n)
            )
        except ValueError as error:
            raise ValueError(f"impossible deal: {error}") from None
        self.legal_mask = self._state.legal_mask
        self.try_play_index = self._state.play
        self.push_index = self._state.push
        self.try_pass_indices = self._state.pass_cards
        # The other games' phases, never entered (Hand's members read these).
        self._base_rules = rules
        self._init_later_decisions()  # the pledge and the shooter's choice: never asked here
        self._pass_record = None
        self._history = ((), (), (0,) * n)
        self._actions = []

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int,
        *,
        dealer: int = 0,
        pass_direction: PassDirection | str | None = None,
        declarer: int | None = None,
    ) -> CancellationHand:
        """Shuffle the double pack with `seed` and deal from the dealer's left (000 "as far
        as they will go evenly"; the rest is the widow). `declarer` must be None."""
        if declarer is not None:
            raise ValueError("Cancellation Hearts has no declarer")
        _check_seat(rules, dealer, "dealer")
        seed &= 0xFFFFFFFFFFFFFFFF
        direction = rules.pass_schedule[0] if pass_direction is None else pass_direction
        hands, widow = backend.deal(cancellation_config(rules), seed, dealer)
        return cls(rules, hands, widow, dealer=dealer, pass_direction=direction, seed=seed)

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
    ) -> CancellationHand:
        """A deal from explicit cards per seat (a card named twice is held twice) and the
        widow (`kitty`). Raises ValueError when they do not make a deal of these rules (and
        for a `declarer`: there is no auction)."""
        if declarer is not None:
            raise ValueError("Cancellation Hearts has no declarer")
        _check_seat(rules, dealer, "dealer")
        if len(cards_by_seat) != rules.players:
            raise ValueError(f"expected cards for {rules.players} seats, got {len(cards_by_seat)}")
        hands = [CardMultiset(cards) for cards in cards_by_seat]
        widow = CardMultiset(kitty)
        return cls(
            rules,
            [(hand.mask, hand.twice) for hand in hands],
            (widow.mask, widow.twice),
            dealer=dealer,
            pass_direction=pass_direction,
            seed=seed,
        )

    # -- state --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Passing, playing or over."""
        return _PHASES[self._state.phase]

    @property
    def is_over(self) -> bool:
        """True once every trick has been played."""
        return bool(self._state.phase == core_config.PHASE_OVER)

    @property
    def to_play(self) -> int | None:
        """The seat to play, or None while passing and when the hand is over."""
        seat: int = self._state.to_play
        return None if seat < 0 else seat

    @property
    def trick_number(self) -> int:
        """The 0-based number of the trick in play."""
        return int(self._state.trick_number)

    @property
    def hearts_broken(self) -> bool:
        """Whether hearts (or points, by the rules' breaking setting) have been broken."""
        return bool(self._state.broken)

    @property
    def booster_suit(self) -> Suit | None:
        """Always None (no Booster Nines with two packs)."""
        return None

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the current trick; -1 while passing."""
        return int(self._state.leader)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) pairs played to the unfinished trick, in order."""
        leader, n = self._state.leader, self.players
        trick = self._state.current_trick()
        return tuple(((leader + i) % n, CARDS[c]) for i, c in enumerate(trick))

    def hand_of(self, seat: int) -> CardMultiset:
        """The cards `seat` holds now (a card twice when it holds both copies)."""
        _check_seat(self.rules, seat, "seat")
        return _multiset(self._state.hand(seat))

    def seat_holding(self, card: CardLike) -> int | None:
        """The first seat (from seat 0) that holds `card`, or None."""
        mask = to_card(card).mask
        for seat in range(self.players):
            if self._state.hand(seat)[0] & mask:
                return seat
        return None

    def taken(self, seat: int) -> CardMultiset:
        """The copies `seat` has won (set-aside tricks and the widow included once taken)."""
        _check_seat(self.rules, seat, "seat")
        return _multiset(self._state.taken(seat))

    def tricks_won(self, seat: int) -> int:
        """How many tricks `seat` has won (set-aside tricks it collected not counted)."""
        _check_seat(self.rules, seat, "seat")
        return int(self._state.tricks_won(seat))

    @property
    def kitty(self) -> CardMultiset:
        """The widow's cards (all of them: views decide who may see them)."""
        return _multiset(self._state.widow)

    @property
    def kitty_owner(self) -> int | None:
        """The seat that took the widow, or None."""
        owner: int = self._state.widow_owner
        return None if owner < 0 else owner

    @property
    def set_aside(self) -> CardMultiset:
        """The copies of unwon tricks (and the widow while the first trick is unwon) waiting
        for the next trick's winner (003 "also wins any tricks that have been set aside")."""
        return _multiset(self._state.set_aside())

    @property
    def discarded(self) -> CardMultiset:
        """The copies discarded unscored: the last trick and the set-aside tricks, when
        nobody won the last trick (003)."""
        return _multiset(self._state.discarded())

    def passed(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` gave in the pass, in the order given."""
        _check_seat(self.rules, seat, "seat")
        return tuple(CARDS[i] for i in self._state.passed(seat))

    def received(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` received, once every pass is made."""
        _check_seat(self.rules, seat, "seat")
        return tuple(CARDS[i] for i in self._state.received(seat))

    def passable(self, seat: int) -> CardMultiset:
        """The cards `seat` may pass now: its hand while passing; empty otherwise."""
        _check_seat(self.rules, seat, "seat")
        if self._state.phase != core_config.PHASE_PASSING:
            return CardMultiset()
        return self.hand_of(seat)

    @property
    def passes_pending(self) -> tuple[int, ...]:
        """Seats that still have to pass."""
        if self._state.phase != core_config.PHASE_PASSING:
            return ()
        return tuple(s for s in range(self.players) if not self._state.passed(s))

    def tricks(self) -> tuple[Trick, ...]:
        """Every finished trick in order; `winner` is -1 for a trick nobody won."""
        n = self.players
        return tuple(
            Trick(leader, tuple(((leader + i) % n, CARDS[c]) for i, c in enumerate(cards)), winner)
            for leader, cards, winner in self._state.history()
        )

    def points_taken(self) -> tuple[int, ...]:
        """Each seat's points from the tricks it has taken so far (a trick nobody won counted
        for the winner of the next trick won), before any moon; the widow's are left out,
        as every seat sees it (it lies face down)."""
        value = self.rules.card_values.get
        taken = [0] * self.players
        waiting = 0
        for trick in self.tricks():
            waiting += sum(value(card, 0) for _, card in trick.plays)
            if trick.winner >= 0:
                taken[trick.winner] += waiting
                waiting = 0
        return tuple(taken)

    # -- moves --------------------------------------------------------------------

    def legal_plays(self) -> CardSet:
        """The distinct cards the seat to play may play now."""
        return CardSet.from_mask(self._state.legal_mask())

    def is_legal(self, card: CardLike) -> bool:
        """Whether `card` may be played now by the seat to play."""
        return bool(self._state.check_play(to_card(card).index) == 0)

    def illegal_reason(self, card: CardLike) -> str | None:
        """Why the seat to play may not play `card` now, or None if it may."""
        card = to_card(card)
        code = self._state.check_play(card.index)
        return str(self._play_error(code, card)) if code else None

    def play(self, card: CardLike, seat: int | None = None) -> None:
        """Play `card` for the seat to play (checked against `seat` when given).

        Raises IllegalPlayError (OutOfTurnError, HandOverError) saying which rule forbids it.
        """
        self._play_as(to_card(card), seat)

    def push(self, card: CardLike) -> None:
        """Play without checking (for search); undo with `pop`."""
        self._state.push(to_card(card).index)

    def pop(self) -> None:
        """Undo the last `play` or `push` (IndexError when there is nothing to undo)."""
        self._state.pop()

    def apply_pass(self, seat: int, cards: Iterable[CardLike] | str) -> None:
        """Give `seat`'s pass (a card twice passes both copies). Raises IllegalPassError."""
        _check_seat(self.rules, seat, "seat")
        if isinstance(cards, str):
            cards = cards.split()
        chosen = [to_card(card) for card in cards]
        code = self._state.pass_cards(seat, tuple(card.index for card in chosen))
        if code:
            raise IllegalPassError(self._pass_message(code, seat, chosen), seat=seat, code=code)

    def points(self, totals: Sequence[int] | None = None) -> tuple[int, ...]:
        """Each seat's score for this deal. Raises ValueError before the hand is over."""
        if not self.is_over:
            raise ValueError("the hand is not over: points are scored after the last trick")
        if totals is not None and len(totals) != self.players:
            raise ValueError(f"expected {self.players} totals, got {len(totals)}")
        return tuple(self._state.points())

    # -- views --------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """Everything `seat` may know now: its own cards (a multiset), everything played,
        the widow only as the rules' kitty_visibility allows."""
        _check_seat(self.rules, seat, "seat")
        tricks = self.tricks()
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            phase=self.phase,
            to_play=self.to_play,
            hand=self.hand_of(seat),
            legal=self.legal_plays() if self.to_play == seat else CardSet(),
            passed=self.passed(seat),
            received=self.received(seat),
            current_trick=self.current_trick,
            tricks=tricks,
            hearts_broken=self.hearts_broken,
            points_taken=self.points_taken(),
            kitty=self._visible_kitty(seat, len(tricks)),
        )

    def _visible_kitty(self, seat: int, tricks_done: int) -> CardMultiset | None:
        if not self.rules.kitty_size:
            return None
        visibility = self.rules.kitty_visibility
        if (
            visibility is KittyVisibility.FACE_UP
            or (visibility is KittyVisibility.AFTER_FIRST_TRICK and tricks_done >= 1)
            or (visibility is KittyVisibility.TAKER_ONLY and self.kitty_owner == seat)
        ):
            return self.kitty
        return None

    # -- messages -----------------------------------------------------------------

    def _play_error(self, code: int, card: Card) -> IllegalPlayError:
        seat = self.to_play
        who = f"seat {seat}" if seat is not None else "nobody"
        if code == core_config.ERR_HAND_OVER:
            return HandOverError(
                f"cannot play {card}: the hand is over", card=card, seat=seat, code=code
            )
        if code == core_config.ERR_PASSING:
            pending = ", ".join(str(s) for s in self.passes_pending)
            return OutOfTurnError(
                f"cannot play {card}: seats {pending} still have to pass",
                card=card,
                seat=seat,
                code=code,
            )
        trick = self._state.current_trick()
        led = CARDS[trick[0]].suit if trick else None
        reason = {
            core_config.ERR_BAD_CARD: f"{card} is not in play under these rules",
            core_config.ERR_NOT_IN_HAND: f"{who} does not hold {card}",
            core_config.ERR_MUST_LEAD_OPENING_CARD: "the first trick must be opened with the "
            "lowest club",
            core_config.ERR_MUST_FOLLOW_SUIT: f"{who} must follow suit: "
            + (f"{led.name.lower()} were led" if led is not None else "a suit was led"),
            core_config.ERR_FIRST_TRICK_POINTS: "no point cards on the first trick "
            "while other cards can be played (000 'The Play')",
            core_config.ERR_NOT_BROKEN: "hearts have not been broken"
            if self.rules.lead_rule is LeadRule.HEARTS_BROKEN
            else "points have not been broken",
        }.get(code, f"error code {code}")
        return IllegalPlayError(
            f"illegal play {card} by {who}: {reason}", card=card, seat=seat, code=code
        )

    def _pass_message(self, code: int, seat: int, cards: list[Card]) -> str:
        text = " ".join(str(card) for card in cards) or "nothing"
        reason = {
            core_config.ERR_NOT_PASSING: "no pass is due now"
            + (" (this is a hold hand)" if self.pass_direction is PassDirection.HOLD else ""),
            core_config.ERR_BAD_SEAT: f"there is no seat {seat}",
            core_config.ERR_ALREADY_PASSED: f"seat {seat} has already passed",
            core_config.ERR_PASS_COUNT: f"a {self.pass_direction.value} pass is "
            f"{self.rules.pass_count} cards, not {len(cards)}",
            core_config.ERR_PASS_NOT_IN_HAND: f"seat {seat} does not hold every card passed",
            core_config.ERR_PASS_COPIES: f"seat {seat} passes a card more often than it holds "
            "it (two packs: a card may be passed twice only by a seat holding both copies)",
        }.get(code, f"error code {code}")
        return f"illegal pass by seat {seat} ({text}): {reason}"

    def __repr__(self) -> str:
        return (
            f"<CancellationHand {self.rules.name} dealer={self.dealer} "
            f"pass={self.pass_direction.value} phase={self.phase.value} trick={self.trick_number}>"
        )


def _check_seat(rules: Rules, seat: int, what: str) -> None:
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"{what} {seat!r} is not a seat of a {rules.players}-player game")


register_family("cancellation", CancellationHand)
