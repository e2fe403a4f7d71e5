"""`Bot`: the base class a contestant subclasses (two decisions, optional event hooks, and
`note` to explain a decision to yourself).

>>> from hearts_bot.cards import lowest
>>> class LowBot(Bot):
...     def pass_cards(self, view: PassView) -> list[str]:
...         return sorted(view.passable, key=by_rank)[-view.count:]
...     def play_card(self, view: PlayView) -> str:
...         return lowest(view.legal)
>>> LowBot().name, LowBot().wants_notifications
('LowBot', False)
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from .cards import Card, by_rank
from .notes import clean_note
from .rules import PassDirection
from .views import (
    BidView,
    CallPassView,
    ExposeView,
    HandEnded,
    HandStarted,
    MatchEnded,
    MatchInfo,
    MoonChoiceView,
    NameSuitView,
    PassView,
    PlayView,
    PledgeView,
    RefuseQueenView,
    ReplacePassView,
    RevealView,
    TrickEnded,
)

_NOTIFICATION_HOOKS = ("on_hand_start", "on_trick_end", "on_hand_end")
_NOTES = "_hearts_bot_notes"
"""The instance attribute holding the notes of the decision in progress (set by `note`,
so a subclass's own __init__ need not call ours)."""


class Bot(abc.ABC):
    """A Hearts bot: implement `pass_cards` and `play_card`; override hooks as you need.

    Each method is called with a frozen view holding everything the seat knows, so a bot
    may keep no state at all. The hooks let a bot that keeps state follow the match;
    the arena sends the hand, trick and hand-end events only to a bot that overrides
    at least one of their hooks. Time spent in hooks counts against the next decision.
    An exception raised by any method fails the match's stream (the arena records a
    crash); the server itself keeps running.
    """

    name: str = ""
    """The name the bot reports to the arena (default: the class name)."""

    def __init__(self) -> None:
        if not self.name:
            self.name = type(self).__name__

    @abc.abstractmethod
    def pass_cards(self, view: PassView) -> Sequence[Card]:
        """Return `view.count` distinct cards from `view.hand` to pass.

        On a scatter pass the i-th card goes to seat `view.recipients[i]`.
        """

    @abc.abstractmethod
    def play_card(self, view: PlayView) -> Card:
        """Return one card from `view.legal`."""

    def play_penny(self, view: PlayView) -> tuple[int | None, Card]:
        """Four-Penny Hearts, during a multi-round (several tricks open at once, `view.pennies`):
        the (penny, card) to play, one of `view.legal_moves`. By default `play_card`'s card on
        the lowest-numbered penny where it is legal (`view.default_penny`); a penny of None
        leaves that choice to the arena, which makes the same one."""
        card = self.play_card(view)
        return view.default_penny(card), card

    def call_pass(
        self, view: CallPassView
    ) -> PassDirection | Sequence[PassDirection] | tuple[PassDirection, int]:
        """As dealer, where the rules let the dealer call the pass: one of `view.options`,
        or, where `view.split_directions` is not empty, a split: one direction per passed
        card, each from `view.split_directions` (card i of every pass goes the i-th).
        Where `view.counts` is not empty (004 'Passing cards': "The Dealer may choose how
        many cards and where to pass"), `(direction, count)` with a count from it; a bare
        direction passes `view.rules.pass_count`. By default the first option."""
        return view.options[0]

    def bid(self, view: BidView) -> int | None:
        """Auction Hearts: chips to bid, `view.min_bid`..`view.max_bid`, for the right to
        name the suit to avoid; None to pass. By default a pass (if everyone passes, the
        first to bid names the suit for nothing)."""
        return None

    def choose_moon(self, view: MoonChoiceView) -> str:
        """After shooting the moon, where the rules let the shooter choose (004 'Shooting
        the moon'): "add" (`view.worth` to every other seat) or "subtract" (off this
        seat's own score). By default `view.default`, the engine's pick: add while this
        seat would still lead the game, else subtract (or add until subtracting is
        allowed)."""
        return view.default

    def pledge(self, view: PledgeView) -> bool:
        """After the pass (004 'Scoring variants'): True to pledge to take no hearts this
        hand (`view.points` off if kept, on if broken). By default False: no pledge, so a
        bot written before the pledge scores as it always did."""
        return False

    def refuse_queen(self, view: RefuseQueenView) -> bool:
        """Rickety Kate (`rules.queen_refusal`): `view.giver` passes you the QS; True to
        refuse it ("The receiving player has the right to refuse the Queen of Spades"),
        so the giver passes another card instead. By default False: accept, the platform's
        answer for a bot that is not asked, so a bot written before the refusal plays as
        it always did.

        A simple override: refuse unless you hold four spades or more below the QS to
        guard it (the house bots' rule, docs/bots.md)."""
        return False

    def replace_pass(self, view: ReplacePassView) -> Card:
        """Rickety Kate: the card passed in the refused QS's place, one of `view.legal`.
        By default `view.default`: the lowest card by rank, then suit."""
        return view.default

    def expose(self, view: ExposeView) -> Sequence[Card]:
        """Gong Zhu, before the first card: the cards of `view.exposable` (the AH, QS, JD
        and TC held) to expose, doubling their value; an exposed card may not be played
        the first time its suit is led unless it is your only card of that suit. By
        default none, so a bot written before exposures plays as it always did."""
        return ()

    def name_suit(self, view: NameSuitView) -> str:
        """Auction Hearts, as the highest bidder: the suit to avoid, "C", "D", "S" or "H".
        By default the suit this seat holds fewest of (the first such in C D S H order),
        so it is soonest free to throw that suit's cards away."""
        held = dict.fromkeys("CDSH", 0)
        for card in view.hand:
            held[card[-1]] += 1
        return min(held, key=held.__getitem__)

    def reveal_card(self, view: RevealView) -> Card:
        """Heartless: the card to lay face down, which helps pick the scoring suit (the
        suit of the highest card shown scores). By default the lowest card held, which
        sways the choice least; override it to steer the suit away from your hand."""
        return min(view.hand, key=by_rank)

    def on_match_start(self, match: MatchInfo) -> None:  # noqa: B027 (optional hook)
        """A match begins (called first, and again if the arena reconnects)."""

    def on_hand_start(self, event: HandStarted) -> None:  # noqa: B027
        """A hand was dealt."""

    def on_trick_end(self, event: TrickEnded) -> None:  # noqa: B027
        """A trick is complete."""

    def on_hand_end(self, event: HandEnded) -> None:  # noqa: B027
        """A hand is over and scored."""

    def on_match_end(self, event: MatchEnded) -> None:  # noqa: B027
        """The match is over (always called, whether or not the bot wants notifications)."""

    def note(self, text: object) -> None:
        """Attach a note to the answer being decided, for your eyes only: the arena keeps it
        beside this decision in the replay, and the site shows it to the bot's owner alone.

        Call it from a decision method (`play_card`, `pass_cards`, `call_pass`, `bid`,
        `name_suit`, `reveal_card`, `play_penny`); several calls in one decision are joined
        by newlines; a note made anywhere else (a hook, `__init__`) is discarded. A note
        is cut to 1,000 characters, and a bot's notes past 64 KiB in a match are dropped
        (`hearts_bot.notes`); costs nothing when unused.

        >>> from hearts_bot.cards import lowest
        >>> class Explains(Bot):
        ...     def pass_cards(self, view): return list(view.passable[: view.count])
        ...     def play_card(self, view):
        ...         self.note(f"{len(view.legal)} legal, lowest first")
        ...         return lowest(view.legal)
        """
        notes: list[str] = self.__dict__.setdefault(_NOTES, [])
        notes.append(str(text))

    @property
    def wants_notifications(self) -> bool:
        """Whether the bot overrides a hand, trick or hand-end hook (the arena then sends
        those events; otherwise it saves itself the messages)."""
        cls = type(self)
        return any(getattr(cls, hook) is not getattr(Bot, hook) for hook in _NOTIFICATION_HOOKS)


def take_note(bot: Bot) -> str:
    """The notes `bot` made since the last call, joined and cleaned ("" for none), and
    forget them. The session calls it around every decision."""
    notes: list[str] | None = bot.__dict__.pop(_NOTES, None)
    return clean_note("\n".join(notes)) if notes else ""
