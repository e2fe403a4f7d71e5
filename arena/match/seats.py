"""Seats: how the runner reaches a bot. In-process for house bots and tests; gRPC for the rest.

A seat answers decisions from a `SeatView` (exactly what that seat may know) and
raises `SeatFault` when its bot fails; notifications never raise. The runner, not the
seat, judges time and legality, so every kind of seat is held to the same rules. Seats
are asynchronous because a remote bot's answer is awaited on a gRPC stream; an
in-process bot simply answers at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, NamedTuple, Protocol

from arena.bots import HouseBot
from arena.engine import Card, CardSet, PassDirection, Rules, SeatView, Trick
from arena.engine.decisions import CountedCall, Decision, DecisionKind
from arena.engine.phases import room_of
from arena.engine.variants.penny import PennyMove

from .clock import TimePolicy


@dataclasses.dataclass(frozen=True)
class GameInfo:
    """What a seat is told when a game of the match starts."""

    rules: Rules
    seat: int
    match_id: str
    game_index: int
    games: int
    seed: int
    time: TimePolicy


class DecisionContext(NamedTuple):
    """What the view does not hold: the game so far and the seat's clock. (A named tuple:
    one is made for every decision, and a frozen dataclass's construction cost the
    runner more than the rest of its bookkeeping.)"""

    hand_number: int
    scores: tuple[int, ...]
    per_decision: float
    bank_remaining: float
    pot: int = 0  # chips waiting in the pot (chip settlements)
    lives: tuple[int, ...] = ()  # Danger Hearts: each seat's lives left before this hand


class _LaterKinds(frozenset[DecisionKind]):
    """The kinds listed, and every kind hearts.v1 has no query for (a room registered with
    the engine beyond `DecisionKind`'s members: a test's, a plug-in's)."""

    def __contains__(self, kind: object) -> bool:
        return frozenset.__contains__(self, kind) or (
            isinstance(kind, DecisionKind) and kind not in _CHOOSERS
        )


LATER_KINDS: frozenset[DecisionKind] = _LaterKinds(
    {
        DecisionKind.MOON_CHOICE,
        DecisionKind.PLEDGE,
        DecisionKind.REFUSE_QUEEN,
        DecisionKind.REPLACE_PASS,
        DecisionKind.EXPOSE,
    }
)
"""The decisions whose queries came after hearts.v1's first release (issue 23): a seat is
asked them only when it `answers` them; otherwise the runner applies the default itself,
recorded as the platform's answer, never a fault (a bot built on an older SDK would refuse
a query it cannot read and lose the match). Gong Zhu's exposures came later still: an older
bot exposes nothing. A kind without a hearts.v1 query is one too: no bot over gRPC is asked
it, and a house bot only when it has the method its room names (`Room.house_methods`)."""


class Seat(Protocol):
    """One bot at the table."""

    label: str

    def answers(self, kind: DecisionKind) -> bool:
        """Whether the bot answers decisions of `kind` (asked for the `LATER_KINDS` only)."""
        ...

    async def start_game(self, info: GameInfo) -> None:
        """A game begins (raises SeatFault if the bot cannot be reached)."""
        ...

    async def decide(
        self, decision: Decision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Any:
        """The answer to `decision` (what `decision.kind` asks: cards to pass, a card, a
        (penny, card) as `PennyMove`, a call, chips or None, a suit letter) from `view`,
        within `timeout` seconds; anything else is judged and faulted by the runner
        (raises SeatFault when the bot fails)."""
        ...

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        """Notification: a hand was dealt."""
        ...

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        """Notification: a trick is complete."""
        ...

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        """Notification: a hand is over."""
        ...

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        """Notification: the game is over."""
        ...

    async def close(self) -> None:
        """Release the bot (stop its process, close the channel); idempotent."""
        ...

    def log_excerpt(self) -> str:
        """What the bot wrote to its logs (capped), for its owner."""
        ...

    def take_note(self) -> str:
        """The note the bot attached to its last answer ("" for none), forgotten once
        taken; the runner takes it after every decision and bounds it itself."""
        ...


class InProcessSeat:
    """A trusted house bot called directly: no transport, no process.

    `decide` reaches the house bot's method for the kind through one table
    (`_CHOOSERS`); the `choose_*` methods adapt each to the bot's own interface, and a
    test seat overrides one of them to misbehave on one kind only."""

    def __init__(self, bot: HouseBot, label: str | None = None) -> None:
        self.bot = bot
        self.label = label or f"house:{bot.name}"

    async def start_game(self, info: GameInfo) -> None:
        """Nothing to set up."""

    def decide(
        self, decision: Decision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Coroutine[Any, Any, Any]:
        """Ask the house bot through its kind's chooser (its coroutine is returned as it
        is: a frame less on every decision)."""
        if decision.kind is _PLAY:  # most decisions: straight to the bot's card
            return self.choose_play(view, context, timeout)
        chooser = _CHOOSERS.get(decision.kind)
        if chooser is None:  # a kind beyond hearts.v1's: the method its room names
            return self.choose_by_room(decision, view, context, timeout)
        return chooser(self, decision, view, context, timeout)

    async def choose_by_room(
        self, decision: Decision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Any:
        """Ask the bot through the method the kind's room names (`Room.house_methods`),
        called with the view and the decision (`answers` says whether it has one)."""
        return self._room_method(decision.kind)(view, decision)

    def _room_method(self, kind: DecisionKind) -> Any:
        name = room_of(kind).house_methods.get(kind)
        return getattr(self.bot, name, None) if name else None

    async def choose_pass(
        self, view: SeatView, count: int, context: DecisionContext, timeout: float
    ) -> Sequence[Card | str]:
        """Ask the bot."""
        return self.bot.pass_cards(view, count)

    async def choose_play(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> Card | str | PennyMove:
        """Ask the bot (during a Four-Penny multi-round its `play_penny`, if it has one)."""
        choose = getattr(self.bot, "play_penny", None)
        if view.legal_moves and choose is not None:
            penny, card = choose(view)
            return PennyMove(penny, card)
        return self.bot.play_card(view)

    async def choose_reveal(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> Card | str:
        """Ask the bot."""
        return self.bot.reveal_card(view)

    async def choose_call(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> PassDirection | str | tuple[PassDirection | str, ...] | CountedCall:
        """Ask the bot."""
        called = self.bot.call_pass(view)
        if isinstance(called, (PassDirection, str, CountedCall)):
            return called
        return tuple(called)

    async def choose_bid(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> int | str | None:
        """Ask the bot."""
        return self.bot.bid(view)

    async def choose_suit(self, view: SeatView, context: DecisionContext, timeout: float) -> str:
        """Ask the bot."""
        return self.bot.name_suit(view).letter

    async def choose_moon(
        self, view: SeatView, default: str, context: DecisionContext, timeout: float
    ) -> str:
        """Ask the bot (004 'Shooting the moon'), telling it the engine's pick."""
        return self.bot.choose_moon(view, default)

    async def choose_pledge(self, view: SeatView, context: DecisionContext, timeout: float) -> bool:
        """Ask the bot (004 'Scoring variants')."""
        return self.bot.pledge(view)

    async def choose_queen_refusal(
        self, view: SeatView, context: DecisionContext, timeout: float
    ) -> bool:
        """Ask the bot (Rickety Kate's refusal of a passed QS)."""
        return self.bot.refuse_queen(view)

    async def choose_replacement(
        self, view: SeatView, legal: CardSet, context: DecisionContext, timeout: float
    ) -> Card:
        """Ask the bot (Rickety Kate: the card in the refused QS's place)."""
        return self.bot.replace_pass(view, legal)

    async def choose_exposure(
        self, view: SeatView, exposable: CardSet, context: DecisionContext, timeout: float
    ) -> tuple[Card, ...]:
        """Ask the bot (Gong Zhu's exposed cards)."""
        return tuple(self.bot.expose(view, exposable))

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        """House bots decide from the view alone."""

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        """House bots decide from the view alone."""

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        """House bots decide from the view alone."""

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        """Nothing to tear down."""

    async def close(self) -> None:
        """Nothing to release."""

    def log_excerpt(self) -> str:
        """House bots do not log."""
        return ""

    def take_note(self) -> str:
        """House bots take no notes."""
        return ""

    def answers(self, kind: DecisionKind) -> bool:
        """House bots answer every kind of hearts.v1 (the `HouseBot` protocol has a method
        for each), and a kind beyond it when the bot has the method its room names."""
        return kind in _CHOOSERS or self._room_method(kind) is not None


_Chooser = Callable[
    [InProcessSeat, Decision, SeatView, DecisionContext, float], Coroutine[Any, Any, Any]
]
_CHOOSERS: dict[DecisionKind, _Chooser] = {
    DecisionKind.PASS: lambda s, d, v, c, t: s.choose_pass(v, d.size, c, t),
    DecisionKind.PLAY: lambda s, d, v, c, t: s.choose_play(v, c, t),
    DecisionKind.PENNY_PLAY: lambda s, d, v, c, t: s.choose_play(v, c, t),
    DecisionKind.CALL: lambda s, d, v, c, t: s.choose_call(v, c, t),
    DecisionKind.BID: lambda s, d, v, c, t: s.choose_bid(v, c, t),
    DecisionKind.NAMING: lambda s, d, v, c, t: s.choose_suit(v, c, t),
    DecisionKind.REVEAL: lambda s, d, v, c, t: s.choose_reveal(v, c, t),
    DecisionKind.MOON_CHOICE: lambda s, d, v, c, t: s.choose_moon(v, d.default, c, t),
    DecisionKind.PLEDGE: lambda s, d, v, c, t: s.choose_pledge(v, c, t),
    DecisionKind.REFUSE_QUEEN: lambda s, d, v, c, t: s.choose_queen_refusal(v, c, t),
    DecisionKind.REPLACE_PASS: lambda s, d, v, c, t: s.choose_replacement(v, d.legal, c, t),
    DecisionKind.EXPOSE: lambda s, d, v, c, t: s.choose_exposure(v, d.legal, c, t),
}
"""A decision kind's house-bot method (DRAW and PICKUP are the engine's own, never asked)."""

_PLAY = DecisionKind.PLAY
