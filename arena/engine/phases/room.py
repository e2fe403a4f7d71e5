"""A decision kind's room: the one place that knows a kind (its legal answers and their
application, its value's codec, its words), and the registry the rest asks.

Why: the knowledge of a kind was spread over `Hand`, the runner's judges, the replay's
codec, the text replay, `arena replay ask` and the viewer, so a new kind touched twenty
files and two judges kept the same rules in step by care. OpenSpiel keeps each phase as
one pair (`XLegalActions`, `ApplyXAction`) beside its `ActionToString`; a room is that
pair, plus the value's JSON form and a sentence, for one phase of a hand.

A room is a class. Its class methods speak of the kind alone (`encode`, `decode`,
`words`, and `judge` for a kind the hand itself asks); an instance is the phase's state
in one hand, made by `Hand` for the rooms whose `selects(rules)` is true, and it reaches
the hand only through `HandPort` (public members, never the hand's private state).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum, StrEnum
from typing import Any, ClassVar, Protocol

from ..cards import Card, CardSet
from ..decisions import Decision, DecisionKind, IllegalActionError
from ..rules import PassDirection, Rules


class Phase(StrEnum):
    """Where a hand stands."""

    # 003 'Simple variations': "The dealer chooses the passing rule" (a schedule entry
    # 'dealer_calls'); the deal is made, the dealer calls, then everyone passes.
    CALLING = "calling"
    # 000 'Auction Hearts': "players bid after the deal for the privilege of naming the
    # suit to be avoided"; then "The highest bidder ... names the suit" (`arena.engine.auction`).
    BIDDING = "bidding"
    NAMING = "naming"
    PASSING = "passing"
    # 003 'HEARTLESS': after the pass "each player lays one card face down on the table";
    # only rules with scoring_suit_choice 'revealed' enter this phase.
    REVEALING = "revealing"
    # 004 'Scoring variants': "A player may declare before the first card is played that he
    # or she will not take any hearts" (rules with no_hearts_pledge only).
    PLEDGING = "pledging"
    # Gong Zhu (Pagat): "There are four cards which may be exposed by their holders before
    # the start of play" (rules with exposures only).
    EXPOSING = "exposing"
    # A room registered without a phase name of its own (`Room.phase`).
    DECIDING = "deciding"
    PLAYING = "playing"
    OVER = "over"


class Stage(IntEnum):
    """When a room's phase is asked, in the hand's order."""

    DEAL = 0
    """From the deal, before the pass (the dealer's call, the auction)."""
    PASS = 1
    """During the pass (a refusal of a passed card)."""
    EXCHANGE = 2
    """Once the pass is exchanged, before the first card (the reveal, the pledge, the
    exposures); such phases run one after the other, in the registry's order."""
    TRICKS = 3
    """The tricks' own kinds (a play, a pass, a draw): asked by the hand itself."""
    END = 4
    """After the last trick (the shooter's choice)."""


Show = Callable[[str], str]
"""How a sentence shows a card's text (`str`: as it is; the viewer and the text replay may
draw it with its suit's symbol)."""

FAULTS = ("malformed", "not_held", "illegal")
"""What an engine error says of a refused answer (`fault_of`): the runner's fault kinds."""


def refused(error: ValueError, fault: str) -> ValueError:
    """`error` marked with the fault it is (one of `FAULTS`), for `fault_of`."""
    error.fault = fault  # type: ignore[attr-defined]  # any ValueError may carry it
    return error


def fault_of(error: BaseException) -> str:
    """The fault an engine error names (`refused`): "illegal" when it names none."""
    return str(getattr(error, "fault", "illegal"))


class HandPort(Protocol):
    """What a room may use of a hand: public members only (the narrow interface)."""

    rules: Rules
    players: int
    dealer: int
    seed: int
    game_totals: tuple[int, ...]
    pass_direction: PassDirection
    declarer_given: int | None
    """000 'Auction Hearts': the declarer carried over from a deal whose pot nobody won."""

    @property
    def base_rules(self) -> Rules: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def passes_pending(self) -> tuple[int, ...]: ...

    @property
    def pass_size(self) -> int: ...

    def hand_of(self, seat: int) -> CardSet: ...

    def taken(self, seat: int) -> CardSet: ...

    def hold(self) -> None:
        """Nobody may pass or play until `resume`."""

    def resume(self) -> None:
        """The room's phase is done: the next phase begins, or the play."""

    def call_pass(
        self, direction: PassDirection, split: tuple[PassDirection, ...], count: int
    ) -> None:
        """The dealer's call is made: the hand is dealt again with the pass called (each
        card its own way after a split, `count` cards) and goes on to the pass."""

    def restart(self, rules: Rules, *, dealer: int | None = None, config: Any = None) -> None:
        """Play from the hands as they are under `rules` (a hold hand, the pass record kept)."""

    def core_points(self, totals: Sequence[int], choice: int | None = None) -> tuple[int, ...]:
        """The backend's scores for `totals` (with a moon choice's code)."""
        ...

    def shooter(self) -> int:
        """The seat that shot the moon by the backend's reckoning, or -1."""
        ...


def first_unanswered(hand: HandPort, answers: Sequence[object | None]) -> tuple[int, ...]:
    """(seat,) for the first seat from the dealer's left whose answer is still None; ()
    when every seat has answered (a phase asked of each seat in turn: pledges, exposures)."""
    n = hand.players
    for step in range(1, n + 1):
        seat = (hand.dealer + step) % n
        if answers[seat] is None:
            return (seat,)
    return ()


class Room:
    """One phase of a hand and its kinds of decision (see the module's docstring).

    The class methods are the kind's: `encode`/`decode` (the value's JSON form in a replay),
    `words` (the sentence said about an answer, on the server, for the text replay, the
    viewer and `arena replay ask`), `judge` (for a kind the hand asks itself). An instance
    is the phase in one hand: `pending`, `check`, `apply`, `waiting`, `still_to`, `view`,
    `score`."""

    kinds: ClassVar[tuple[DecisionKind, ...]] = ()
    stage: ClassVar[Stage] = Stage.TRICKS
    phase: ClassVar[Phase] = Phase.DECIDING
    error: ClassVar[type[ValueError]] = IllegalActionError
    held: tuple[int, tuple[int, ...]] | None = None
    """A `Stage.PASS` room: the pass it holds back (seat, card indices), if any; the hand
    shows it as that seat's pass and asks that seat for no other."""
    house_methods: ClassVar[dict[DecisionKind, str]] = {}
    """The house bot's method that answers a kind (`arena.match.seats`: a kind the seats'
    table does not name is asked through it, called with the seat's view and the decision;
    a bot without it is answered by the decision's default)."""

    # -- the kind's own ------------------------------------------------------------------

    @classmethod
    def selects(cls, rules: Rules) -> bool:
        """Whether a hand under `rules` has this phase (a tricks' kind has none)."""
        return False

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        """An answer as a replay keeps it (JSON): a card's text by default."""
        return value if value is None or isinstance(value, (bool, int)) else str(value)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        """A replay's value in the form `Hand.apply` takes."""
        return data

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        """What seat `seat` did, answering `data` (the JSON form), as a sentence: in the
        third person ("seat 2 bids 3 chips") for the replay, the viewer and the text; said
        to the person in that seat when `you` ("You bid 3 chips"), for a person's table
        (arena/match/human.py), which would otherwise speak of them as "seat 2".
        Every room says both (tests/engine/test_phases.py asks each kind for each)."""
        raise NotImplementedError(f"{cls.__name__} has no words for {kind.value}")

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        """A tricks' kind: `answer` in the engine's form if `hand` may take it now from
        `seat`; raises the kind's error (marked with its fault, `refused`) otherwise."""
        raise refused(
            IllegalActionError(f"{kind.value} is never asked under {hand.rules.name}"), "illegal"
        )

    # -- the phase in one hand -----------------------------------------------------------

    def __init__(self, hand: HandPort) -> None:
        self.hand = hand
        self.waiting = False
        """True while the phase has a decision to ask (play waits on it)."""
        self.begun = False
        """Set by the hand when it begins an exchange-stage phase (`Hand.resume`)."""

    def begin(self) -> None:
        """The phase's stage has come: hold the hand and ask (at once under `Stage.DEAL`,
        once the pass is exchanged under `Stage.EXCHANGE`). Calls `hand.resume()` when
        there is nothing to ask."""
        self.waiting = True
        self.hand.hold()

    def finish(self) -> None:
        """The phase is done: the hand goes on."""
        self.waiting = False
        self.hand.resume()

    def pending(self) -> Decision | None:
        """The decision asked now, or None."""
        return None

    def check(self, kind: DecisionKind, seat: int, answer: object) -> Any:
        """`answer` in the engine's form if the phase may take it now from `seat`; raises
        the room's error marked with its fault (`refused`) otherwise. Changes nothing."""
        raise NotImplementedError(
            f"{type(self).__name__} runs no phase of its own: the hand judges {kind.value}"
        )

    def apply(self, kind: DecisionKind, seat: int, value: Any) -> None:
        """Take a checked answer (`check` is called first by `Hand.apply`)."""
        raise NotImplementedError(
            f"{type(self).__name__} runs no phase of its own: the hand applies {kind.value}"
        )

    def watch_pass(
        self, give: Callable[[int, tuple[int, ...]], int]
    ) -> Callable[[int, tuple[int, ...]], int]:
        """A `Stage.PASS` room: the hand's pass entry point (seat, card indices -> 0 or an
        ERR_* code) it takes in place of `give`, which it calls to pass a seat's cards on."""
        return give

    def phase_now(self) -> Phase:
        """The hand's phase while this one asks (`phase`, unless it has more than one)."""
        return self.phase

    def still_to(self) -> str:
        """Who has still to do what, said when a card is played too soon."""
        return "the hand is still " + self.phase.value

    def view(self, seat: int) -> dict[str, Any]:
        """The `SeatView` fields this phase fills for `seat`."""
        return {}

    def score(self, scores: tuple[int, ...], totals: Sequence[int]) -> tuple[int, ...]:
        """The hand's scores as this phase changes them (after the backend's)."""
        return scores


_ROOMS: dict[DecisionKind, type[Room]] = {}
_ORDER: list[type[Room]] = []


def register(room: type[Room]) -> type[Room]:
    """Make `room` the one room of each of its kinds (a class decorator). Raises ValueError
    for a kind that has a room already, or a room with no kinds."""
    if not room.kinds:
        raise ValueError(f"{room.__name__} names no decision kind")
    taken = [kind.value for kind in room.kinds if kind in _ROOMS]
    if taken:
        raise ValueError(f"{', '.join(taken)} already has a room")
    for kind in room.kinds:
        _ROOMS[kind] = room
    _ORDER.append(room)
    return room


def unregister(room: type[Room]) -> None:
    """Take `room` out of the registry (a test's room, registered for the test)."""
    _ORDER.remove(room)
    for kind in room.kinds:
        del _ROOMS[kind]


def room_of(kind: DecisionKind) -> type[Room]:
    """The room of `kind` (KeyError for a kind without one)."""
    return _ROOMS[kind]


def kinds() -> tuple[DecisionKind, ...]:
    """Every kind with a room, in the registry's order."""
    return tuple(_ROOMS)


def rooms() -> tuple[type[Room], ...]:
    """Every registered room, in the registry's order."""
    return tuple(_ORDER)


def selected(rules: Rules) -> tuple[type[Room], ...]:
    """The rooms whose phases a hand under `rules` has, by stage, then in registry order."""
    return tuple(sorted((r for r in _ORDER if r.selects(rules)), key=lambda r: r.stage))


def words(kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False) -> str:
    """The sentence of an answer `data` (its JSON form) by `seat`: its room's words (said
    to the person in `seat` when `you`, `Room.words`)."""
    return _ROOMS[kind].words(kind, seat, data, show, you=you)


def cards_text(cards: Sequence[Card | str], show: Show = str) -> str:
    """Cards as their texts (each through `show`), space-separated."""
    return " ".join(show(str(card)) for card in cards)
