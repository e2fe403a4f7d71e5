"""`Hand`: one deal of Hearts, from the deal through the pass and the tricks to its points.

The rules themselves (legal plays, passing, trick resolution, scoring) live in the
backend (the C core, or the pure-Python reference under ``ARENA_PUREPYTHON=1``); this
class turns the backend's ints into cards, its error codes into specific exceptions
with readable messages, and its state into per-seat views.

>>> from arena.engine import Hand, preset
>>> hand = Hand.deal(preset("standard"), seed=7)
>>> hand.phase
<Phase.PASSING: 'passing'>
>>> for seat in range(4):
...     hand.apply_pass(seat, list(hand.hand_of(seat))[:3])
>>> hand.to_play == hand.seat_holding("2C")
True
>>> str(hand.legal_plays())
'2C'
>>> hand.play("2C")
>>> while not hand.is_over:
...     hand.play(hand.legal_plays().first())
>>> sum(hand.points())
26
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import config as core_config
from . import phases as _phases
from .auction import Auction
from .backend import core
from .cards import CARDS, Card, CardLike, CardSet, Suit, to_card
from .decisions import Action, CountedCall, Decision, DecisionKind, IllegalActionError
from .options import FAMILY_READERS, family_of
from .phases import Room, Stage, room_of
from .phases import selected as _selected
from .phases.passing import pass_message
from .phases.tricks import play_reason
from .royal import royal_points
from .rules import (
    _PASS_KINDS,
    KittyVisibility,
    PassDirection,
    Rules,
    ScoringSuitChoice,
)

_new_cardset = object.__new__
_NO_CARDS = CardSet()
_set_mask = vars(CardSet)["mask"].__set__


def _cardset(mask: int) -> CardSet:
    """Wrap a backend mask without re-validating it (the hot path of `legal_plays`)."""
    result: CardSet = _new_cardset(CardSet)
    _set_mask(result, mask)
    return result


# The rooms' errors and names, kept importable from here (the hand's own API before the
# phases had rooms: `from arena.engine.hand import IllegalPlayError` still works).
Phase = _phases.Phase
IllegalPlayError = _phases.IllegalPlayError
OutOfTurnError = _phases.OutOfTurnError
HandOverError = _phases.HandOverError
IllegalPassError = _phases.IllegalPassError
IllegalCallError = _phases.IllegalCallError
IllegalRevealError = _phases.IllegalRevealError
IllegalPledgeError = _phases.IllegalPledgeError
IllegalExposureError = _phases.IllegalExposureError
IllegalMoonChoiceError = _phases.IllegalMoonChoiceError
IllegalQueenRefusalError = _phases.IllegalQueenRefusalError
exposed_config = _phases.exposed_config

_PHASES = (Phase.PASSING, Phase.PLAYING, Phase.OVER)
_FIXED_SIZE_PASSES = frozenset({PassDirection.HOLD, PassDirection.SCATTER, PassDirection.STAR})
"""Passes whose size is not `pass_count` (`Rules.pass_size`): a called count leaves them be."""
_PLAYING = Phase.PLAYING
_STATE_PLAYING = core_config.PHASE_PLAYING
_PLAY_KIND = DecisionKind.PLAY


_new_tuple = tuple.__new__  # a named tuple without its Python-level __new__ (the hot path)


@dataclasses.dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, every (seat, card) in play order, and who won it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> CardSet:
        """The trick's cards as a set."""
        return CardSet(card for _, card in self.plays)


@dataclasses.dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: its own cards, everything played, never others' hands."""

    seat: int
    rules: Rules
    dealer: int
    pass_direction: PassDirection
    phase: Phase
    to_play: int | None
    hand: CardSet
    legal: CardSet
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    hearts_broken: bool
    points_taken: tuple[int, ...]
    """Each seat's points from the tricks it has won so far, as the hand scores them (the
    Royal Hearts queens applied), before any moon."""
    kitty: CardSet | None
    reveals: tuple[Card | None, ...] = ()
    """Per seat, its revealed card (003 'HEARTLESS'): the seat's own at once, the others'
    once every seat has revealed, None otherwise; () under a fixed scoring suit."""
    scoring_suit: Suit | None = None
    """The scoring suit once chosen: revealed (003 'HEARTLESS') or named by the declarer
    (000 'Auction Hearts'); None before, and always None under a fixed scoring suit."""
    bids: tuple[tuple[int, int | None], ...] = ()
    """000 'Auction Hearts': every bid so far as (seat, chips), None for a pass, in order."""
    declarer: int | None = None
    """000 'Auction Hearts': who names the suit to avoid, once known."""
    booster_suit: Suit | None = None
    """Booster Nines (004 'Other Variations'): the suit the current trick must be led in,
    because the last trick held the nine of its led suit (the leader leads it if he holds
    any); None when there is no such obligation, and always None without `booster_nines`."""
    pass_split: tuple[PassDirection, ...] = ()
    """After the dealer called a split (003 'Simple variations'): each passed card's
    direction, card i of every pass going `pass_split[i]`; () otherwise."""
    pledges: tuple[bool | None, ...] = ()
    """The no-hearts pledge (004 'Scoring variants'): per seat True (pledged), False
    (declined) or None (not asked yet); () without the pledge."""
    exposed: tuple[CardSet | None, ...] = ()
    """Gong Zhu's exposed cards (`Rules.exposures`): per seat the cards it exposed (face up,
    so every seat sees them), None while it has not answered; () without exposures."""
    moon_choice: str | None = None
    """The shooter's choice once made ("add" or "subtract", 004 'Shooting the moon')."""
    extra_card_seats: tuple[int, ...] = ()
    """002 'Alternatives to the "Kitty"' (`Rules.extra_cards_first_trick`): the seats dealt
    one card more than the others, each playing it to the first trick after the round (so
    the first trick's plays, in `current_trick` and `tricks`, hold those seats twice); ()
    otherwise."""
    queen_offer: tuple[int, int] | None = None
    """Rickety Kate (`Rules.queen_refusal`): (giver, receiver) of the passed QS, shown to
    those two only: the giver from its pass on, the receiver once asked whether it refuses
    it; None for every other seat (they know nothing of it) and when no QS was offered."""
    queen_refused: bool | None = None
    """With `queen_offer`: the receiver's answer (True refused, False accepted), None
    before it (and for the other seats)."""

    stock_size: int | None = None
    """000 'Domino Hearts': the cards left in the face-down stock; None in other games."""
    in_play: tuple[bool, ...] = ()
    """Domino Hearts: per seat, whether it still takes part (holds cards when the current
    trick is led); () in other games, where every seat plays every trick."""
    drawn: tuple[int, ...] = ()
    """Domino Hearts: per seat, how many cards it has drawn from the stock (the draws are
    public, the cards are not: the seat's own are in `hand`); () in other games."""

    pennies: tuple[tuple[tuple[int, Card], ...], ...] = ()
    """003 'FOUR-PENNY HEARTS': per penny, the (seat, card) plays of the multi-round in play
    (the first is the penny-round's lead); () outside the multi-rounds
    (`arena.engine.variants.penny`)."""
    legal_moves: tuple[tuple[int, Card], ...] = ()
    """003 'FOUR-PENNY HEARTS': the (penny, card) pairs this seat may play now; () when it is
    not to play or outside the multi-rounds."""
    multi_round: int | None = None
    """003 'FOUR-PENNY HEARTS': the 0-based multi-round in play (their count once the hand is
    over); None outside the multi-rounds. `tricks` then holds the opening tricks, then every
    finished penny-round, multi-round by multi-round and penny by penny."""

    pickups: tuple[tuple[int, int, tuple[Card, ...]], ...] = ()
    """004 'Enfle': every pickup so far as (trick number, seat, the cards it took up, in card
    order): a seat that cannot follow takes up the tricks won and the trick in progress (its
    trick in `tricks` has winner -1); () in other games. The cards were all played face up,
    so every seat knows them."""

    def replace(self, **changes: Any) -> SeatView:
        """This view with `changes` made: `dataclasses.replace`, at a third of its cost
        (the penny games build a view per penny for every card a search plays: 35 % of
        an analysis's CPU went to `dataclasses.replace`, docs/benchmarks.md)."""
        values = list(_VIEW_VALUES(self))
        for name, value in changes.items():
            if name not in _VIEW_INDEX:
                raise TypeError(f"SeatView has no field {name!r}")
            values[_VIEW_INDEX[name]] = value
        return SeatView(*values)

    def play_config(self) -> core_config.CoreConfig:
        """The core configuration this seat's hand plays by: `rules`', with Gong Zhu's
        exposed cards once every seat has answered (their play rule, an exposed TC's
        quadrupling; `rules` already holds the doubled values). A search or a belief
        built from the view reads this, not `rules.core_config()`."""
        if not self.exposed or None in self.exposed:
            return self.rules.core_config()
        shown = CardSet(card for cards in self.exposed if cards for card in cards)
        if not shown:
            return self.rules.core_config()
        return exposed_config(self.rules, shown)

    @property
    def core_pass_kind(self) -> int | tuple[int, ...]:
        """The backend's pass kind of this hand's pass (a tuple of offsets for a split), for
        bots that rebuild the hand's state from sampled deals."""
        n = self.rules.players
        if self.pass_split:
            return tuple(d.core_kind(n) for d in self.pass_split)
        return self.pass_direction.core_kind(n)


_VIEW_FIELDS = tuple(field.name for field in dataclasses.fields(SeatView))
_VIEW_VALUES = operator.attrgetter(*_VIEW_FIELDS)
_VIEW_INDEX = {name: i for i, name in enumerate(_VIEW_FIELDS)}


def _nothing_legal() -> int:
    """`Hand.legal_mask` while revealing: nobody may play yet."""
    return 0


def _refuse_play(index: int) -> int:
    """`Hand.try_play_index` while revealing: ERR_PASSING, the code for "the hand has not
    reached its play yet" (an error code must be positive, and nothing changes)."""
    return core_config.ERR_PASSING


def _refuse_pass(seat: int, cards: tuple[int, ...]) -> int:
    """`Hand.try_pass_indices` before the dealer's call: ERR_NOT_PASSING (nothing is
    passed until the pass is known)."""
    return core_config.ERR_NOT_PASSING


def _refuse_push(index: int) -> None:
    """`Hand.push_index` while revealing: a ValueError, as the backends' push in the
    passing phase."""
    raise ValueError(f"push({index}): the hand is still revealing (003 'HEARTLESS')")


class Hand:
    """One deal: build it with `Hand.deal` (from a seed) or `Hand.from_cards`."""

    __slots__ = (
        "_actions",
        "_base_rules",
        "_called_count",
        "_held",
        "_history",
        "_pass_record",
        "_pass_rooms",
        "_room_of",
        "_rooms",
        "_state",
        "dealer",
        "declarer_given",
        "extra_card_seats",
        "game_totals",
        "legal_mask",
        "pass_direction",
        "pass_split",
        "players",
        "push_index",
        "rules",
        "seed",
        "try_pass_indices",
        "try_play_index",
    )

    # The fast path for search and simulation: the backend's own methods, bound once, so a
    # decision costs one C call and no Python frame (see docs/engine.md 'Speed').
    extra_card_seats: tuple[int, ...]
    """002 'Alternatives to the "Kitty"' (`Rules.extra_cards_first_trick`): the seats dealt
    one card more than the others, each playing it to the first trick after the round; ()
    otherwise (and in every variant family, which refuses the rule)."""

    legal_mask: Callable[[], int]
    """The legal cards as a bitmask (bit i = card index i); 0 while passing, revealing or
    when over."""
    try_play_index: Callable[[int], int]
    """Play card index i if legal: returns 0, or an `arena.engine.config` ERR_* code and
    changes nothing (ERR_PASSING while passing or revealing)."""
    push_index: Callable[[int], None]
    """Play card index i unchecked (legality is the caller's promise); undo with `pop`."""
    try_pass_indices: Callable[[int, tuple[int, ...]], int]
    """Give seat's pass as card indices: returns 0, or an ERR_* code and changes nothing."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        kitty: int,
        *,
        dealer: int,
        pass_direction: PassDirection | str,
        seed: int,
        declarer: int | None = None,
    ) -> None:
        self.rules = rules
        self.players = players = rules.players
        self.dealer = dealer
        direction = (
            pass_direction
            if pass_direction.__class__ is PassDirection
            else PassDirection(pass_direction)
        )
        if direction is PassDirection.SPLIT:
            raise ValueError("a split pass is only ever the dealer's call (Hand.apply_call)")
        self.pass_direction: PassDirection = direction
        self.pass_split: tuple[PassDirection, ...] = ()
        """After a split call (003 'Simple variations'): each passed card's direction, in the
        order of the pass (card i of every pass goes `pass_split[i]`); () otherwise."""
        self.seed = seed
        # A pass the dealer calls is not known yet: the backend holds the deal as a hold
        # hand until the call, then is rebuilt with the pass called (`apply_call`).
        calling = direction is PassDirection.DEALER_CALLS
        try:
            self._state: Any = core.HandState(
                rules.core_config(),
                hands if hands.__class__ is tuple else tuple(hands),
                kitty,
                dealer,
                core_config.PASS_HOLD if calling else _PASS_KINDS[direction, players],
                seed & 0xFFFFFFFFFFFFFFFF,
            )
        except ValueError as error:
            raise ValueError(f"impossible deal: {error}") from None
        self._history: tuple[Any, tuple[Trick, ...], tuple[int, ...]] = ((), (), (0,) * players)
        self._actions: list[Action] = []
        self._base_rules = rules
        self._pass_record: tuple[tuple[tuple[int, ...], ...], ...] | None = None
        if declarer is not None:
            if rules.scoring_suit_choice is not ScoringSuitChoice.AUCTION:
                raise ValueError(
                    "a declarer is carried over only under scoring_suit_choice 'auction'"
                )
            _check_seat(rules, declarer, "declarer")
        self._init_later_decisions(declarer)
        if rules.extra_cards_first_trick:
            self.extra_card_seats = tuple(
                seat for seat, mask in enumerate(hands) if mask.bit_count() > rules.hand_size
            )
        if calling and DecisionKind.CALL not in self._room_of:
            raise ValueError("a pass the dealer calls needs rules with pass_call_options")
        self._bind_fast_path()
        if not calling:
            self._watch_pass()
        for room in self._rooms:  # the phases asked from the deal (the call, the auction)
            if room.stage is Stage.DEAL:
                room.begun = True
                room.begin()

    def _init_later_decisions(self, declarer: int | None = None) -> None:
        """The state added after the variant families (the rooms' phases, 002's extra
        cards): a family that builds its own state calls this too."""
        self.declarer_given = declarer
        self.extra_card_seats = ()
        self.game_totals: tuple[int, ...] = (0,) * self.players
        """The game's totals before this hand (`Game` sets them when it deals): the moon
        rules that look at the game (the shooter's choice, add unless losing, subtract after
        a score) read them to ask and to score."""
        self._called_count: int | None = None
        self._held = 0
        self._rooms: tuple[Room, ...] = tuple(room(self) for room in _selected(self.rules))
        """The phases the rules select (`arena.engine.phases`), in the hand's order."""
        self._room_of = {kind: room for room in self._rooms for kind in room.kinds}
        self._pass_rooms = tuple(room for room in self._rooms if room.stage is Stage.PASS)
        """The phases asked during the pass (Rickety Kate's refusal of a passed QS)."""

    def _watch_pass(self) -> None:
        """Under REVEALED rules the end of the pass starts the reveal phase (at once on a
        hold hand), under the no-hearts pledge the pledges and under Gong Zhu's exposures
        the exposures, so the pass entry point is wrapped; a room asked during the pass
        (Rickety Kate's refusal of a passed QS) takes the passes before that entry point."""
        if any(room.stage is Stage.EXCHANGE for room in self._rooms):
            self.try_pass_indices = self._try_pass_then_rooms
            if self._state.phase == core_config.PHASE_PLAYING:
                self.resume()
        if self._state.phase == core_config.PHASE_PASSING:
            for room in self._pass_rooms:
                self.try_pass_indices = room.watch_pass(self.try_pass_indices)

    # -- Rickety Kate's refusal of a passed QS (`arena.engine.phases.queen_refusal`) ----

    @property
    def queen_pending(self) -> tuple[DecisionKind, int] | None:
        """(kind, seat) of the refusal decision due now: the receiver's `REFUSE_QUEEN` once
        every other seat has passed, then after a refusal the giver's `REPLACE_PASS`; None
        otherwise."""
        room = self._room_of.get(DecisionKind.REFUSE_QUEEN)
        return None if room is None else room.due()  # type: ignore[attr-defined]

    @property
    def queen_offer(self) -> tuple[int, int] | None:
        """(giver, receiver) of the QS passed under `queen_refusal`, from the giver's pass
        on; None when the QS was not passed (or the giver had no other card to give)."""
        room = self._room_of.get(DecisionKind.REFUSE_QUEEN)
        return None if room is None else room.offer  # type: ignore[attr-defined]

    @property
    def queen_refused(self) -> bool | None:
        """The receiver's answer to the QS offered: True refused, False accepted, None not
        (yet) asked."""
        room = self._room_of.get(DecisionKind.REFUSE_QUEEN)
        return None if room is None else room.refused  # type: ignore[attr-defined]

    @property
    def _held_pass(self) -> tuple[int, tuple[int, ...]] | None:
        """A pass a room holds back during the pass (the QS's, until its receiver answers)."""
        for room in self._pass_rooms:
            if room.held is not None:
                return room.held
        return None

    def apply_queen_refusal(self, seat: int, refuse: bool) -> None:
        """The receiver of the passed QS refuses it (True) or accepts it (False: the pass is
        exchanged as given). Raises IllegalQueenRefusalError when no refusal is due from
        `seat` or the answer is not a bool."""
        self._take(DecisionKind.REFUSE_QUEEN, seat, refuse)

    def apply_replacement(self, seat: int, card: CardLike) -> None:
        """After a refusal, the giver names the card passed in the QS's place (in the QS's
        position in its pass), and the pass is exchanged. Raises IllegalQueenRefusalError
        when no replacement is due from `seat` or the card is not one of the giver's
        cards outside its pass (nor the QS, nor a forbidden card)."""
        self._take(DecisionKind.REPLACE_PASS, seat, card)

    # -- the rooms' phases (arena.engine.phases) ----------------------------------------

    def _try_pass_then_rooms(self, seat: int, cards: tuple[int, ...]) -> int:
        """`try_pass_indices` with phases after the exchange: the pass that completes it
        begins the first of them."""
        code: int = self._state.apply_pass(seat, cards)
        if not code and self._state.phase == core_config.PHASE_PLAYING:
            self.resume()
        return code

    def hold(self) -> None:
        """A room's phase begins (`arena.engine.phases.HandPort`): nobody may play until it
        is done."""
        self._held += 1
        self.legal_mask = _nothing_legal
        self.try_play_index = _refuse_play
        self.push_index = _refuse_push
        self.try_pass_indices = _refuse_pass

    def resume(self) -> None:
        """A room's phase is done (or the exchange is): the next phase after the exchange
        begins, else the play."""
        if self._held:
            self._held -= 1
        for room in self._rooms:
            if room.stage is Stage.EXCHANGE and not room.begun:
                room.begun = True
                room.begin()
                return
        if not self._waiting:
            self._bind_fast_path()

    def restart(self, rules: Rules, *, dealer: int | None = None, config: Any = None) -> None:
        """Play from the hands as they are, under `rules` (a room's phase changed them: a
        scoring suit, exposed cards), as a hold hand: a new backend state whose pass record
        is kept for `passed`/`received`, led from `dealer`'s left (default the dealer)."""
        old, n = self._state, self.players
        if self._pass_record is None:
            self._pass_record = (
                tuple(old.passed(s) for s in range(n)),
                tuple(old.received(s) for s in range(n)),
            )
        self._state = core.HandState(
            rules.core_config() if config is None else config,
            tuple(old.hand(s) for s in range(n)),
            old.kitty,
            self.dealer if dealer is None else dealer,
            core_config.PASS_HOLD,
            self.seed & 0xFFFFFFFFFFFFFFFF,
        )
        self.rules = rules
        self._history = ((), (), (0,) * n)
        self._bind_fast_path()

    def core_points(self, totals: Sequence[int], choice: int | None = None) -> tuple[int, ...]:
        """The backend's scores of the finished hand for the game `totals`, with a moon
        choice's code (`config.MOON_CHOICE_*`) when given."""
        target = self.rules.target_score or 0
        if choice is None:
            return tuple(self._state.points(tuple(totals), target))
        return tuple(self._state.points(tuple(totals), target, choice))

    def shooter(self) -> int:
        """The seat that shot the moon by the backend's reckoning, or -1."""
        seat: int = self._state.shooter()[0]
        return seat

    def check(self, action: Action) -> Any:
        """`action.value` in the form `apply` takes, if the hand may take it now from
        `action.seat`; raises the kind's error, marked with the fault it is
        (`phases.fault_of`: malformed, not_held or illegal), otherwise. Changes nothing:
        the engine is the one judge of an answer (the runner asks it, then applies)."""
        kind = action.kind
        room = self._room_of.get(kind)
        if room is not None:
            return room.check(kind, action.seat, action.value)
        return room_of(kind).judge(self, kind, action.seat, action.value)

    def _take(self, kind: DecisionKind, seat: int, value: Any) -> None:
        """Check and apply an answer to a room's phase (not recorded: `apply` records)."""
        room = self._room_of.get(kind)
        if room is None:  # the rules have no such phase: its room says so
            room_of(kind).judge(self, kind, seat, value)
            raise IllegalActionError(f"{kind.value} is never asked under {self.rules.name}")
        room.apply(kind, seat, room.check(kind, seat, value))

    def _waiting_room(self) -> Room | None:
        """The room whose phase is asking now, if any."""
        for room in self._rooms:
            if room.waiting:
                return room
        return None

    @property
    def pledges_pending(self) -> tuple[int, ...]:
        """(seat,) for the seat whose no-hearts pledge is due; () otherwise."""
        room = self._room_of.get(DecisionKind.PLEDGE)
        return () if room is None else room.due  # type: ignore[attr-defined]

    @property
    def pledges(self) -> tuple[bool | None, ...]:
        """Per seat, its no-hearts pledge: True pledged, False declined, None not yet asked
        (or rules without the pledge)."""
        room = self._room_of.get(DecisionKind.PLEDGE)
        return (None,) * self.players if room is None else tuple(room.pledges)  # type: ignore[attr-defined]

    def apply_pledge(self, seat: int, pledge: bool) -> None:
        """`seat` pledges to take no hearts this hand (True) or not (False), in turn from
        the dealer's left (`arena.engine.phases.pledging`). Raises IllegalPledgeError when
        no pledge is due from `seat` or the answer is not a bool."""
        self._take(DecisionKind.PLEDGE, seat, pledge)

    @property
    def exposures_pending(self) -> tuple[int, ...]:
        """(seat,) for the seat whose Gong Zhu exposure is due; () otherwise."""
        room = self._room_of.get(DecisionKind.EXPOSE)
        return () if room is None else room.due  # type: ignore[attr-defined]

    @property
    def exposures(self) -> tuple[CardSet | None, ...]:
        """Per seat, the cards it exposed (None before it answered, or without exposures)."""
        room = self._room_of.get(DecisionKind.EXPOSE)
        return (None,) * self.players if room is None else tuple(room.exposures)  # type: ignore[attr-defined]

    @property
    def exposed_cards(self) -> CardSet:
        """Every card exposed in this hand so far."""
        room = self._room_of.get(DecisionKind.EXPOSE)
        return _NO_CARDS if room is None else room.exposed  # type: ignore[attr-defined]

    def exposable(self, seat: int) -> CardSet:
        """The cards `seat` may expose: those of Pagat's four ("ace of hearts, queen of
        spades, jack of diamonds, ten of clubs") it holds; empty without exposures."""
        room = self._room_of.get(DecisionKind.EXPOSE)
        return _NO_CARDS if room is None else room.exposable(seat)  # type: ignore[attr-defined]

    def apply_exposure(self, seat: int, cards: Iterable[CardLike] | str) -> None:
        """`seat` exposes `cards` (any of its exposable cards, possibly none), in turn from
        the dealer's left (`arena.engine.phases.exposing`). Raises IllegalExposureError
        when no exposure is due from `seat` or a card is not one it may expose."""
        self._take(DecisionKind.EXPOSE, seat, cards)

    def moon_choice_offered(self, totals: Sequence[int] | None = None) -> tuple[int, str] | None:
        """(shooter, the engine's pick) when a seat shot the moon and the rules let him
        choose with these game `totals` (default `game_totals`); None otherwise
        (`arena.engine.phases.moon_choice`)."""
        room = self._room_of.get(DecisionKind.MOON_CHOICE)
        return None if room is None else room.offered(totals)  # type: ignore[attr-defined]

    @property
    def moon_choice(self) -> str | None:
        """The shooter's answer ("add" or "subtract") once given; None before or without."""
        room = self._room_of.get(DecisionKind.MOON_CHOICE)
        return None if room is None else room.choice  # type: ignore[attr-defined]

    def apply_moon_choice(self, seat: int, choice: str) -> None:
        """The shooter chooses "add" (the moon's worth to every other seat) or "subtract"
        (from his own score). Raises IllegalMoonChoiceError when no choice is due from
        `seat` (`moon_choice_offered`) or it is neither word."""
        self._take(DecisionKind.MOON_CHOICE, seat, choice)

    # -- the dealer's call (003 'Simple variations': `arena.engine.phases.calling`) ------

    @property
    def calls_pending(self) -> tuple[int, ...]:
        """(dealer,) while the dealer has a pass to call; () otherwise."""
        decision = self._asking(DecisionKind.CALL)
        return () if decision is None else (decision.seat,)

    @property
    def call_counts(self) -> tuple[int, ...]:
        """The counts the dealer may call now (004 'Passing cards': "The Dealer may choose
        how many cards and where to pass"): the rules' `pass_call_counts`, or
        (`pass_count`,) when they list none; () when no call is due."""
        room = self._room_of.get(DecisionKind.CALL)
        return () if room is None else room.counts  # type: ignore[attr-defined]

    @property
    def pass_size(self) -> int:
        """How many cards each seat passes this hand: the count the dealer called (for a
        pass whose size is its count: left, right, across, two seats, centre), else the
        rules' size for the direction."""
        called = self._called_count
        if called is not None and self.pass_direction not in _FIXED_SIZE_PASSES:
            return called
        return self.rules.pass_size(self.pass_direction)

    @property
    def call_options(self) -> tuple[PassDirection, ...]:
        """The passes the dealer may call now (the rules' `pass_call_options`); ()
        when no call is due."""
        room = self._room_of.get(DecisionKind.CALL)
        return () if room is None else room.options  # type: ignore[attr-defined]

    def apply_call(
        self, direction: PassDirection | str | Sequence[PassDirection | str] | CountedCall
    ) -> None:
        """The dealer calls this hand's pass (003 'Simple variations': "The dealer chooses
        the passing rule"): one of `call_options`, or, under `Rules.pass_call_split`, a
        split: a sequence of one direction per passed card, each one of
        `Rules.split_directions` ("Pass one card to the right and two cards to the left").
        The hand goes on as if dealt with that pass: passing, or (a hold) straight to the
        reveal or the play.

        Raises IllegalCallError when no call is due or the call is not allowed.

        >>> from arena.engine import Hand, preset
        >>> rules = preset("dealer_calls")
        >>> hand = Hand.deal(rules, 7, dealer=2, pass_direction="dealer_calls")
        >>> hand.phase.value, hand.calls_pending
        ('calling', (2,))
        >>> hand.apply_call("right")
        >>> hand.phase.value, hand.pass_direction.value, len(hand.passes_pending)
        ('passing', 'right', 4)
        >>> hand = Hand.deal(rules, 7, dealer=2, pass_direction="dealer_calls")
        >>> hand.apply_call(["right", "left", "left"])
        >>> hand.pass_direction.value, [d.value for d in hand.pass_split]
        ('split', ['right', 'left', 'left'])
        """
        self._take(DecisionKind.CALL, self.dealer, direction)

    def call_pass(
        self, direction: PassDirection, split: tuple[PassDirection, ...], count: int
    ) -> None:
        """The dealer's call is made (`HandPort`): the backend is dealt again from the hands
        as dealt, passing `direction` (after a split, card i goes `split[i]`) `count` cards
        each; the call's hold is lifted and the hand goes on to the pass."""
        n = self.players
        kind = tuple(_PASS_KINDS[d, n] for d in split) if split else _PASS_KINDS[direction, n]
        config = self.rules.core_config()
        if count != config.pass_count:
            config = config._replace(pass_count=count)
        old = self._state
        self._state = core.HandState(
            config,
            tuple(old.hand(s) for s in range(n)),
            old.kitty,
            self.dealer,
            kind,
            self.seed & 0xFFFFFFFFFFFFFFFF,
        )
        self.pass_direction = direction
        self.pass_split = split
        self._called_count = count
        self._held -= 1
        self._bind_fast_path()
        self._watch_pass()

    def _bind_fast_path(self) -> None:
        """Bind the fast-path attributes to the backend state's own methods."""
        state = self._state
        self.legal_mask = state.legal_mask
        self.try_play_index = state.play
        self.push_index = state.push
        self.try_pass_indices = state.apply_pass

    @classmethod
    def deal(
        cls,
        rules: Rules,
        seed: int,
        *,
        dealer: int = 0,
        pass_direction: PassDirection | str | None = None,
        declarer: int | None = None,
    ) -> Hand:
        """Shuffle and deal deterministically from `seed` (the first hand's pass by default).

        `declarer` is for Auction Hearts only: the seat that names the suit without bidding
        because the last deal's pot was not won (`arena.engine.auction`).

        A variant family's rules are dealt by its own class (`register_family`, chosen by
        `options.family_of`): two packs (`Rules.cancellation`) by `CancellationHand`, Domino
        Hearts by `DominoHand`, the penny games by `PennyHand`, Enfle by `EnfleHand`
        (arena.engine.variants)."""
        family = _family(cls, rules)
        if family is not None:  # a variant family deals its own hands
            return family.deal(
                rules, seed, dealer=dealer, pass_direction=pass_direction, declarer=declarer
            )
        _check_seat(rules, dealer, "dealer")
        direction = rules.pass_schedule[0] if pass_direction is None else pass_direction
        seed &= 0xFFFFFFFFFFFFFFFF
        hands, kitty = core.deal(rules.core_config(), seed, dealer)
        return cls(
            rules,
            hands,
            kitty,
            dealer=dealer,
            pass_direction=direction,
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
    ) -> Hand:
        """A hand from explicit cards per seat (text like ``'2C 3C QS'`` or `Card`s).

        Raises ValueError naming the problem when the cards do not form a deal of these
        rules (wrong counts, a card twice, cards missing or not in play). Two-pack rules
        (`Rules.cancellation`) are dealt by `CancellationHand`, where a card may be twice.
        """
        family = _family(cls, rules)
        if family is not None:  # a variant family builds its own hands
            return family.from_cards(
                rules,
                cards_by_seat,
                pass_direction=pass_direction,
                dealer=dealer,
                kitty=kitty,
                seed=seed,
                declarer=declarer,
            )
        _check_seat(rules, dealer, "dealer")
        if len(cards_by_seat) != rules.players:
            raise ValueError(f"expected cards for {rules.players} seats, got {len(cards_by_seat)}")
        masks = [CardSet(cards).mask for cards in cards_by_seat]
        for seat, cards in enumerate(cards_by_seat):
            count = len(cards.split()) if isinstance(cards, str) else len(list(cards))
            if count != masks[seat].bit_count():
                raise ValueError(f"seat {seat} is given the same card twice")
        return cls(
            rules,
            masks,
            CardSet(kitty).mask,
            dealer=dealer,
            pass_direction=PassDirection(pass_direction),
            seed=seed,
            declarer=declarer,
        )

    # -- state --------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """Passing, revealing (003 'HEARTLESS' only), playing or over."""
        if self._held and (room := self._waiting_room()) is not None:
            return room.phase_now()
        return _PHASES[self._state.phase]

    @property
    def is_over(self) -> bool:
        """True once every trick has been played."""
        return bool(self._state.phase == core_config.PHASE_OVER)

    @property
    def _waiting(self) -> bool:
        """True while a decision before the plays is due (the dealer's call, the auction,
        the reveals, the pledges, the exposures): nobody may play yet, though the backend
        state may already be in its play phase."""
        return self._held > 0

    @property
    def to_play(self) -> int | None:
        """The seat to play, or None while passing or revealing and when the hand is over."""
        seat: int = self._state.to_play
        return None if seat < 0 or self._waiting else seat

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
        """Booster Nines (004 'Other Variations': "if a nine is played then an extra round in
        the suit is played"): the suit the current trick must be led in when its leader holds
        a card of it, because the last trick held the nine of the suit led; None otherwise
        (and once the hand is over). It stays set while the trick is played."""
        suit = int(self._state.booster)
        return None if suit < 0 or self._waiting else Suit(suit)

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the current trick; -1 while passing or revealing."""
        return -1 if self._waiting else int(self._state.leader)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) pairs played to the unfinished trick, in order."""
        order = self._play_order(self._state.leader, self._state.trick_number == 0)
        # `order` names the seats of the whole trick; the cards so far are its start
        return tuple(
            zip(order, (CARDS[index] for index in self._state.current_trick()), strict=False)
        )

    def _play_order(self, leader: int, first: bool) -> tuple[int, ...]:
        """The seats that play a trick, in order: round the table from the leader, and on
        the first trick the seats dealt an extra card again (002)."""
        n = self.players
        return play_order(leader, n, self.extra_card_seats if first else ())

    def hand_of(self, seat: int) -> CardSet:
        """The cards `seat` holds now."""
        _check_seat(self.rules, seat, "seat")
        return _cardset(self._state.hand(seat))

    def seat_holding(self, card: CardLike) -> int | None:
        """The seat that holds `card`, or None."""
        mask = to_card(card).mask
        for seat in range(self.players):
            if self._state.hand(seat) & mask:
                return seat
        return None

    def taken(self, seat: int) -> CardSet:
        """Cards `seat` has won so far (the kitty included once taken)."""
        _check_seat(self.rules, seat, "seat")
        return _cardset(self._state.taken(seat))

    def tricks_won(self, seat: int) -> int:
        """How many tricks `seat` has won."""
        _check_seat(self.rules, seat, "seat")
        return int(self._state.tricks_won(seat))

    @property
    def kitty(self) -> CardSet:
        """The kitty's cards (all of them: views decide who may see them)."""
        return _cardset(self._state.kitty)

    @property
    def kitty_owner(self) -> int | None:
        """The seat that took the kitty, or None."""
        owner: int = self._state.kitty_owner
        return None if owner < 0 else owner

    def passed(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` gave in the pass, in the order given."""
        _check_seat(self.rules, seat, "seat")
        record = self._pass_record
        indices = record[0][seat] if record is not None else self._state.passed(seat)
        held = self._held_pass
        if held is not None and held[0] == seat:
            indices = held[1]
        return tuple(CARDS[i] for i in indices)

    def received(self, seat: int) -> tuple[Card, ...]:
        """The cards `seat` received, once the pass has been exchanged."""
        _check_seat(self.rules, seat, "seat")
        record = self._pass_record
        indices = record[1][seat] if record is not None else self._state.received(seat)
        return tuple(CARDS[i] for i in indices)

    def passable(self, seat: int) -> CardSet:
        """The cards `seat` may pass now: its hand minus the rules' `pass_forbidden`, during
        the passing phase; empty otherwise (a hold hand, or once play has begun).

        Why: 004 'Passing cards' lets a table prohibit passing the Ace, King and/or Queen
        of Spades, so a bot choosing its pass needs the cards it may choose from.

        >>> from arena.engine import Hand, preset
        >>> rules = preset("standard").replace(pass_forbidden="QS KS AS")
        >>> hand = Hand.from_cards(rules, [
        ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QS KS AS",
        ...     "QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        ...     "QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
        ...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        ... ], pass_direction="left")
        >>> str(hand.hand_of(0) - hand.passable(0))
        'QS KS AS'
        >>> len(hand.passable(3))
        13
        >>> try:
        ...     hand.apply_pass(0, "2C 3C QS")
        ... except IllegalPassError as error:
        ...     print(error.code, str(error).split(": ")[1])
        16 QS may not be passed under these rules (004 'Passing cards'
        """
        _check_seat(self.rules, seat, "seat")
        if self._state.phase != core_config.PHASE_PASSING:
            return CardSet()
        return _cardset(self._state.hand(seat) & ~self.rules.pass_forbidden.mask)

    @property
    def passes_pending(self) -> tuple[int, ...]:
        """Seats that still have to pass."""
        if self._state.phase != core_config.PHASE_PASSING:
            return ()
        held = self._held_pass
        held_seat = -1 if held is None else held[0]
        return tuple(s for s in range(self.players) if not self._state.passed(s) and s != held_seat)

    # -- the auction (000 'Auction Hearts': `arena.engine.phases.bidding`) ----------------

    @property
    def auction(self) -> Auction | None:
        """The deal's auction under scoring_suit_choice 'auction' (None otherwise). Read it;
        change it only through `apply_bid` and `apply_naming`."""
        room = self._room_of.get(DecisionKind.BID)
        return None if room is None else room.auction  # type: ignore[attr-defined]

    @property
    def bids_pending(self) -> tuple[int, ...]:
        """(seat,) for the seat whose bid is due; () otherwise."""
        decision = self._asking(DecisionKind.BID)
        return () if decision is None else (decision.seat,)

    @property
    def names_pending(self) -> tuple[int, ...]:
        """(declarer,) while the declarer has the suit to name; () otherwise."""
        decision = self._asking(DecisionKind.NAMING)
        return () if decision is None else (decision.seat,)

    def _asking(self, kind: DecisionKind) -> Decision | None:
        """The decision of `kind` its room asks now, if any."""
        room = self._room_of.get(kind)
        decision = None if room is None else room.pending()
        return decision if decision is not None and decision.kind is kind else None

    @property
    def declarer(self) -> int | None:
        """Who names (or named) the suit to be avoided; None before the bidding ends and
        without an auction."""
        auction = self.auction
        return None if auction is None else auction.declarer

    def apply_bid(self, seat: int, amount: int | None) -> None:
        """`seat` bids `amount` chips for the right to name the suit, or passes with None
        (000 'Auction Hearts': "A player must either bid higher than the preceding bid or
        pass"). Raises IllegalBidError when no bid is due from `seat` or the amount is not
        allowed (`Auction.bid`).

        >>> from arena.engine import Hand, preset
        >>> hand = Hand.deal(preset("auction"), 3, dealer=0)
        >>> hand.phase.value, hand.bids_pending
        ('bidding', (1,))
        >>> for seat, amount in [(1, 2), (2, None), (3, 4), (0, None)]:
        ...     hand.apply_bid(seat, amount)
        >>> hand.phase.value, hand.names_pending
        ('naming', (3,))
        >>> hand.apply_naming(3, "S")
        >>> hand.scoring_suit.name, hand.to_play, hand.rules.value_of("2S")
        ('SPADES', 3, 1)
        """
        self._take(DecisionKind.BID, seat, amount)

    def apply_naming(self, seat: int, suit: Suit | str) -> None:
        """The declarer names the suit to be avoided: `rules` becomes
        `base_rules.for_scoring_suit(suit)` and play begins, the declarer to lead. Raises
        IllegalBidError when no naming is due from `seat` or `suit` is not a suit."""
        self._take(DecisionKind.NAMING, seat, suit)

    # -- the reveal (003 'HEARTLESS') -----------------------------------------------

    @property
    def base_rules(self) -> Rules:
        """The rules the hand was dealt under. `rules` is the same until a Heartless hand's
        scoring suit is revealed, then `base_rules.for_scoring_suit(scoring_suit)`."""
        return self._base_rules

    @property
    def reveals_pending(self) -> tuple[int, ...]:
        """Seats that still have to reveal a card (empty outside the reveal phase)."""
        room = self._room_of.get(DecisionKind.REVEAL)
        return () if room is None else room.due  # type: ignore[attr-defined]

    def revealed(self, seat: int) -> Card | None:
        """The card `seat` revealed, or None if it has not (or the rules have no reveal)."""
        _check_seat(self.rules, seat, "seat")
        room = self._room_of.get(DecisionKind.REVEAL)
        return None if room is None else room.reveals[seat]  # type: ignore[attr-defined]

    @property
    def scoring_suit(self) -> Suit | None:
        """The scoring suit once chosen: revealed (003 'HEARTLESS', once every seat has
        revealed) or named by the declarer (000 'Auction Hearts'); None before that, and
        always None under a fixed scoring suit (whose `rules.card_values` say what scores)."""
        room = self._room_of.get(DecisionKind.REVEAL) or self._room_of.get(DecisionKind.BID)
        return None if room is None else room.suit  # type: ignore[attr-defined]

    def apply_reveal(self, seat: int, card: CardLike) -> None:
        """Show `seat`'s face-down card (003 'HEARTLESS': after the pass "each player lays
        one card face down on the table"; `arena.engine.phases.revealing`). The card stays in
        the seat's hand. Seats reveal in any order; when the last one does, the scoring suit
        is chosen (`scoring_suit_of`), `rules` becomes `base_rules.for_scoring_suit(suit)`
        and play begins. Raises IllegalRevealError when no reveal is due, for a bad seat, a
        seat that has revealed already, or a card it does not hold.

        >>> from arena.engine import Hand, preset
        >>> hand = Hand.from_cards(preset("heartless"), [
        ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        ...     "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        ...     "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        ... ])
        >>> hand.phase.value, hand.reveals_pending
        ('revealing', (0, 1, 2, 3))
        >>> for seat, card in enumerate(["KC", "QD", "AS", "2H"]):
        ...     hand.apply_reveal(seat, card)
        >>> hand.scoring_suit.name, hand.rules.value_of("QD"), hand.to_play
        ('SPADES', 13, 0)
        """
        self._take(DecisionKind.REVEAL, seat, card)

    def tricks(self) -> tuple[Trick, ...]:
        """Every finished trick, in order."""
        return self._finished()[0]

    def _finished(self) -> tuple[tuple[Trick, ...], tuple[int, ...]]:
        """The finished tricks and the points taken in them per seat, rebuilt only when the
        backend's history changed (a view is asked for at every decision)."""
        raw = self._state.history()
        cached_raw, tricks, points = self._history
        if raw == cached_raw:
            return tricks, points
        n, value_of = self.players, self.rules.card_values.get
        kept = tricks[: len(raw)] if raw[: len(cached_raw)] == cached_raw else ()
        built = list(kept)
        taken = [0] * n
        for trick in kept:
            taken[trick.winner] += sum(value_of(card, 0) for _, card in trick.plays)
        for number, (leader, cards, winner) in enumerate(raw[len(kept) :], len(kept)):
            order = self._play_order(leader, number == 0)
            plays = tuple(zip(order, (CARDS[c] for c in cards), strict=True))
            built.append(Trick(leader, plays, winner))
            taken[winner] += sum(value_of(CARDS[c], 0) for c in cards)
        if self.rules.royal_queens:  # 004 'Royal Hearts': the queens' powers apply
            taken = royal_running(self.rules, built, n)
        self._history = (raw, tuple(built), tuple(taken))
        return self._history[1], self._history[2]

    # -- moves --------------------------------------------------------------------

    def legal_plays(self) -> CardSet:
        """The cards the seat to play may play now (empty while passing, revealing or when
        over)."""
        return _cardset(self.legal_mask())

    def is_legal(self, card: CardLike) -> bool:
        """Whether `card` may be played now by the seat to play."""
        return self._check_play(to_card(card)) == 0

    def illegal_reason(self, card: CardLike) -> str | None:
        """Why the seat to play may not play `card` now, or None if it may."""
        card = to_card(card)
        code = self._check_play(card)
        return str(self._play_error(code, card)) if code else None

    def _check_play(self, card: Card) -> int:
        if self._waiting:
            return core_config.ERR_PASSING
        code: int = self._state.check_play(card.index)
        return code

    def play(self, card: CardLike, seat: int | None = None) -> None:
        """Play `card` for the seat to play (checked against `seat` when given).

        Raises IllegalPlayError (OutOfTurnError, HandOverError) saying which rule forbids it.
        """
        if card.__class__ is not Card:
            card = to_card(card)
        if self._waiting:
            raise self._play_error(core_config.ERR_PASSING, card)
        self._play_as(card, seat)

    def _play_as(self, card: Card, seat: int | None) -> None:
        """Play `card` on the backend state, for `seat` if given (the seat to play
        otherwise): the turn, the hand's end and the rules' codes turned into their errors.
        The variant families play through it too, each with its own backend state."""
        state = self._state
        if seat is not None and seat != state.to_play:
            if state.phase == core_config.PHASE_OVER:
                raise HandOverError(
                    f"cannot play {card}: the hand is over",
                    card=card,
                    seat=seat,
                    code=core_config.ERR_HAND_OVER,
                )
            raise OutOfTurnError(
                f"seat {seat} cannot play {card}: it is "
                + ("the passing phase" if state.to_play < 0 else f"seat {state.to_play}'s turn")
                + self._out_of_turn_why(seat),
                card=card,
                seat=seat,
                code=0,
            )
        code = state.play(card.index)
        if code:
            raise self._play_error(code, card)

    def _out_of_turn_why(self, seat: int) -> str:
        """Said after "it is seat N's turn" when `seat` tries to play out of turn (a family
        whose seats can be out of play, Domino Hearts, says why)."""
        return ""

    # -- decisions as data (docs/decisions/0006) ------------------------------------

    def pending(self) -> Decision | None:
        """What the hand asks next, as a value; None once the hand is over.

        One branch per phase; the legal answers come from the backend (the C core's
        legal mask for a play). The order is the rules' own: the dealer's call, the passes
        in seat order, the bids and the naming, the reveals, then the plays."""
        if (  # the common case first, without the `phase` property: every trick's plays
            self._PLAIN_PHASES and self._state.phase == _STATE_PLAYING and not self._waiting
        ):
            return self._pending_play()
        phase = self.phase
        if phase is _PLAYING:
            return self._pending_play()
        if self._held and (room := self._waiting_room()) is not None:
            return room.pending()
        if phase is Phase.OVER:
            for room in self._rooms:
                if room.stage is Stage.END and (decision := room.pending()) is not None:
                    return decision
            return None
        if phase is Phase.PASSING:
            for room in self._pass_rooms:  # a decision during the pass (the refusal of a QS)
                if (decision := room.pending()) is not None:
                    return decision
            seat = self.passes_pending[0]
            passable = self.passable(seat)
            count = self.pass_size
            return Decision(DecisionKind.PASS, seat, passable, tuple(list(passable)[:count]), count)
        raise AssertionError(f"no decision for the phase {phase.value}")

    def _pending_play(self) -> Decision:
        """The play asked now (a variant with other plays overrides this)."""
        mask = self.legal_mask()
        seat = self.to_play
        assert seat is not None
        assert mask, "a seat to play with no legal card"
        # The default is the lowest legal card (CardSet.first, inlined: every play asks).
        first = CARDS[(mask & -mask).bit_length() - 1]
        return _new_tuple(Decision, (_PLAY_KIND, seat, _cardset(mask), first, 0, self.trick_number))

    def apply(self, action: Action) -> None:
        """Validate and apply one action, and append it to `history`.

        Raises the kind's own error (IllegalPlayError, IllegalPassError, IllegalCallError,
        IllegalBidError, IllegalRevealError, IllegalPledgeError, IllegalQueenRefusalError,
        IllegalMoonChoiceError)
        when the answer is not allowed, and IllegalActionError for a kind the hand never
        asks (a draw that is not the engine's)."""
        kind, seat, value = action.kind, action.seat, action.value
        if kind is DecisionKind.PLAY:
            self.play(value, seat=seat)
        elif kind is DecisionKind.PASS:
            self.apply_pass(seat, value)
        elif (room := self._room_of.get(kind)) is not None:
            room.apply(kind, seat, room.check(kind, seat, value))
        else:
            self._refuse_unasked(action)
            return
        self._actions.append(action)
        if self._TAKES_ACTIONS:
            self._record_engine_actions()

    _TAKES_ACTIONS = False
    _PLAIN_PHASES = True
    """Whether the backend state's phase is the hand's play phase (not so for a family
    whose play is its own, such as the penny-rounds)."""
    """Whether the engine takes actions of its own (Domino Hearts' draws)."""

    def _refuse_unasked(self, action: Action) -> None:
        """A kind whose phase these rules lack: its room's error; else `_apply_other`."""
        try:
            room = room_of(action.kind)
        except KeyError:
            room = None
        if room is not None and room.stage is not Stage.TRICKS:
            room.judge(self, action.kind, action.seat, action.value)
        self._apply_other(action)

    def _apply_other(self, action: Action) -> None:
        """A kind only a variant asks (it overrides this); here always an error."""
        raise IllegalActionError(f"{action.kind.value} is never asked under {self.rules.name}")

    def _record_engine_actions(self) -> None:
        """Append the actions the engine took itself after the last one (a variant that
        takes some overrides this)."""

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied through `apply` (and the engine's own, such as Domino
        draws), in order: the hand's one record. `push`/`pop` (search) leave it alone."""
        return tuple(self._actions)

    def push(self, card: CardLike) -> None:
        """Play without checking (for search: the caller guarantees legality); undo with `pop`."""
        self.push_index(to_card(card).index)

    def pop(self) -> None:
        """Undo the last `play` or `push` (IndexError when there is nothing to undo)."""
        self._state.pop()

    def apply_pass(self, seat: int, cards: Iterable[CardLike] | str) -> None:
        """Give `seat`'s pass (ordered: in a scatter pass the i-th card goes i+1 seats left;
        in a star pass the first card goes `n // 2` seats left, the second `(n + 1) // 2`).

        Only cards of `passable(seat)` may be given. Raises IllegalPassError saying what
        is wrong.
        """
        _check_seat(self.rules, seat, "seat")
        if isinstance(cards, str):
            cards = cards.split()
        chosen = [to_card(card) for card in cards]
        code = self.try_pass_indices(seat, tuple(card.index for card in chosen))
        if code:
            raise IllegalPassError(self._pass_message(code, seat, chosen), seat=seat, code=code)

    def points(self, totals: Sequence[int] | None = None) -> tuple[int, ...]:
        """Each seat's score for this hand (moon rules may look at the game `totals`): the
        shooter's choice when he made one (`apply_moon_choice`; the engine's pick
        otherwise), then the no-hearts pledges (004 'Scoring variants': kept -10, broken
        +10, on top of the moon: a pledger who shot the moon took hearts and broke it).

        Raises ValueError before the hand is over.
        """
        if not self.is_over:
            raise ValueError("the hand is not over: points are scored after the last trick")
        totals = tuple(totals) if totals is not None else (0,) * self.players
        if len(totals) != self.players:
            raise ValueError(f"expected {self.players} totals, got {len(totals)}")
        scores = self.core_points(totals)
        for room in self._rooms:
            scores = room.score(scores, totals)
        return scores

    # -- views --------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """Everything `seat` may know now, and nothing it may not (other hands, a hidden kitty)."""
        _check_seat(self.rules, seat, "seat")
        tricks, points = self._finished()
        to_play = self.to_play
        rooms: dict[str, Any] = {}
        for room in self._rooms:
            rooms.update(room.view(seat))
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            pass_direction=self.pass_direction,
            phase=self.phase,
            to_play=to_play,
            hand=self.hand_of(seat),
            legal=self.legal_plays() if to_play == seat else _NO_CARDS,
            passed=self.passed(seat),
            received=self.received(seat),
            current_trick=self.current_trick,
            tricks=tricks,
            hearts_broken=self.hearts_broken,
            points_taken=points,
            kitty=self._visible_kitty(seat, len(tricks)),
            scoring_suit=self.scoring_suit,
            booster_suit=self.booster_suit,
            pass_split=self.pass_split,
            extra_card_seats=self.extra_card_seats,
            **rooms,
        )

    def _visible_kitty(self, seat: int, tricks_done: int) -> CardSet | None:
        """002 'Kitty variants': face up, shown after the first trick, taker only, or secret."""
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
        """The error of a play the backend refuses with `code` (its words: the play's
        room, `phases.tricks.play_reason`; a play too soon: who has still to do what)."""
        seat = self.to_play
        who = f"seat {seat}" if seat is not None else "nobody"
        if code == core_config.ERR_HAND_OVER:
            return HandOverError(
                f"cannot play {card}: the hand is over", card=card, seat=seat, code=code
            )
        if code == core_config.ERR_PASSING:
            return OutOfTurnError(
                f"cannot play {card}: {self._still_to()}", card=card, seat=seat, code=code
            )
        reason = play_reason(self, code, card, who)
        return IllegalPlayError(
            f"illegal play {card} by {who}: {reason}", card=card, seat=seat, code=code
        )

    def _still_to(self) -> str:
        """Who has still to do what before the first card (a play too soon)."""
        room = self._waiting_room()
        if room is not None:
            return room.still_to()
        for room in self._pass_rooms:  # a decision during the pass (the refusal of a QS)
            if room.pending() is not None:
                return room.still_to()
        return f"seats {', '.join(str(s) for s in self.passes_pending)} still have to pass"

    def _pass_message(self, code: int, seat: int, cards: list[Card]) -> str:
        return pass_message(self, code, seat, cards)

    def __repr__(self) -> str:
        return (
            f"<Hand {self.rules.name} dealer={self.dealer} pass={self.pass_direction.value} "
            f"phase={self.phase.value} trick={self.trick_number}>"
        )

    # -- what a family adds to a hand, for its readers: arena.match asks these and never
    # tests a variant's class. Nothing here; each family overrides what it has.

    @property
    def engine_acts(self) -> bool:
        """Whether the engine adds actions of its own to `history` after an answered one
        (Domino Hearts' draws, Enfle's pickups)."""
        return self._TAKES_ACTIONS

    def draws(self) -> tuple[tuple[int, int, Card], ...]:
        """Domino Hearts: every draw from the stock so far (trick, seat, card); none here."""
        return ()

    def pickups(self) -> tuple[tuple[int, int, CardSet], ...]:
        """Enfle: every pickup so far (trick, seat, the cards taken up); none here."""
        return ()

    @property
    def kept_by(self) -> int | None:
        """Domino Hearts: who keeps cards outside the tricks (`kept`); None here."""
        return None

    @property
    def kept(self) -> CardSet:
        """Domino Hearts: the cards `kept_by` keeps outside the tricks; none here."""
        return _NO_CARDS

    @property
    def goes_out(self) -> bool:
        """Whether a seat ends the hand by going out (Enfle; the seat: `went_out`)."""
        return False

    @property
    def went_out(self) -> int | None:
        """The seat that got rid of all its cards (Enfle); None here, and when a cap ended
        the hand."""
        return None


def play_order(leader: int, players: int, extra_seats: Sequence[int] = ()) -> tuple[int, ...]:
    """Who plays a trick's cards, in order: each seat round the table from the leader, then
    each of `extra_seats` again in the same order (002 'Alternatives to the "Kitty" in 3 or
    5 player games': "allow the player with them to play an additional card on the first
    trick"; our reading: after the round).

    >>> play_order(2, 5, (3, 1))
    (2, 3, 4, 0, 1, 3, 1)
    """
    round_ = tuple((leader + i) % players for i in range(players))
    return round_ + tuple(seat for seat in round_ if seat in extra_seats)


def royal_running(rules: Rules, tricks: Sequence[Trick], players: int) -> list[int]:
    """Each seat's Royal Hearts points from the tricks it has won so far."""
    won: list[list[Card]] = [[] for _ in range(players)]
    for trick in tricks:
        won[trick.winner].extend(card for _, card in trick.plays)
    return [royal_points(rules.card_values, cards) for cards in won]


_FAMILIES: dict[str, type[Hand]] = {}
"""The one registry of variant families (arena.engine.variants): a family's name (its
`reader` in `options.OPTIONS`) and its Hand class, registered by the family's own module
(`register_family`) so this module never imports a variant (an import-linter contract
keeps it so). Which family plays a `Rules` is the table's to say (`options.family_of`)."""


def register_family(name: str, hand_class: type[Hand]) -> None:
    """Make `Hand.deal` and `Hand.from_cards` hand the rules of family `name` to
    `hand_class` (called once, by the family's module, which `arena.engine` imports).

    Raises ValueError for a name no option of `OPTIONS` is read by, or one registered
    twice: a family is chosen by its options, so it must have some."""
    if name not in FAMILY_READERS or name in _FAMILIES:
        raise ValueError(f"variant family {name!r} has no options in OPTIONS or is registered")
    _FAMILIES[name] = hand_class


def _family(cls: type[Hand], rules: Rules) -> type[Hand] | None:
    """The family that plays `rules` when `Hand` itself is asked (None: plain Hearts, or a
    family's own class asked already)."""
    if cls is not Hand:
        return None
    name = family_of(rules)
    return None if name is None else _FAMILIES[name]


def _check_seat(rules: Rules, seat: int, what: str) -> None:
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"{what} {seat!r} is not a seat of a {rules.players}-player game")
