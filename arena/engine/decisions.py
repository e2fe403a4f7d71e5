"""Decisions as data: what a hand asks next (`Decision`) and the answer it applies (`Action`).

Why values: every kind of decision (the dealer's call, a pass, a bid, the naming of a
suit, a face-down card, a play, a Four-Penny play) used to have its own method on every
seat, in the runner, the verifier and the renderer. Following OpenSpiel's
`legal_actions()` / `apply_action()`, the hand now says what it asks as one value
(`Hand.pending()`), takes one value back (`Hand.apply(action)`), and keeps the actions
it applied as its record (`Hand.history`): one loop can answer any hand, and one list
replays it. A new kind is one room in `arena.engine.phases` (its legal answers and their
application, its codec, its words) and, to ask bots over hearts.v1, its entry in the
tables that speak to them (docs/engine.md 'How to add a decision kind').

>>> from arena.engine import Hand, preset
>>> from arena.engine.decisions import Action, DecisionKind
>>> hand = Hand.deal(preset("standard"), seed=7)
>>> decision = hand.pending()
>>> decision.kind.value, decision.seat, decision.size
('pass', 0, 3)
>>> while (decision := hand.pending()) is not None:
...     hand.apply(Action(decision.kind, decision.seat, decision.default))
>>> sum(hand.points()), len(hand.history)
(26, 56)
>>> hand.history[4].kind.value, str(hand.history[4].value)
('play', '2C')
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple, cast


class DecisionKind(StrEnum):
    """What is asked: one member per kind of decision; `value` is the replay's name."""

    CALL = "call"
    """003 'Simple variations': the dealer calls the pass (a `PassDirection`, or a tuple of
    them for a split), or, where the rules let him choose the count too (004 'Passing
    cards', `Rules.pass_call_counts`), a `CountedCall`. A bare direction passes
    `pass_count` cards (as every call did before counts), a split one per direction."""
    PASS = "pass"
    """The cards a seat passes (a tuple of `Card`, in order)."""
    BID = "bid"
    """000 'Auction Hearts': chips (an int), or None for a pass."""
    NAMING = "naming"
    """000 'Auction Hearts': the declarer's suit to avoid (its letter)."""
    REVEAL = "reveal"
    """003 'HEARTLESS': the card a seat lays face down (a `Card`)."""
    PLAY = "play"
    """The card a seat plays (a `Card`)."""
    PENNY_PLAY = "penny_play"
    """003 'FOUR-PENNY HEARTS', a multi-round: a (penny, `Card`)."""
    DRAW = "draw"
    """000 'Domino Hearts': a card drawn from the stock. The engine's own action: never
    pending, recorded in `Hand.history` when it happens, checked by `Hand.apply`."""
    PICKUP = "pickup"
    """004 'Enfle': the cards a seat that cannot follow takes up (every trick won so far and
    the current trick's cards), a tuple of `Card` in card order. The engine's own action,
    as DRAW: never pending, recorded in `Hand.history`, refused by `Hand.apply`."""
    MOON_CHOICE = "moon_choice"
    """004 'Shooting the moon': after the last trick, the shooter "add"s the moon to the
    others or "subtract"s it from himself (a str), where the moon rule lets him choose
    (`Hand.moon_choice_offered`); the default is the engine's pick."""
    PLEDGE = "pledge"
    """004 'Scoring variants': after the pass, before the first card, each seat from the
    dealer's left pledges to take no hearts (True) or not (False); the default is False."""
    REFUSE_QUEEN = "refuse_queen"
    """Rickety Kate (M. Kerwin, `Rules.queen_refusal`): "The receiving player has the right
    to refuse the Queen of Spades": once every seat has chosen its pass, before the
    exchange, the seat the QS is passed to refuses it (True) or accepts it (False, the
    default)."""
    REPLACE_PASS = "replace_pass"
    """Rickety Kate: after a refusal, "another card must be passed in its place": the giver
    names one card (a `Card`) of its hand, not in its pass; the default is its lowest such
    card by rank, then by suit (clubs, diamonds, spades, hearts)."""
    EXPOSE = "expose"
    """Gong Zhu (Pagat): "There are four cards which may be exposed by their holders before
    the start of play": after the pass (Gong Zhu has none), each seat from the dealer's left
    exposes any of the AH, QS, JD and TC it holds (a tuple of `Card`, possibly empty: the
    default)."""


def kind_named(value: str) -> DecisionKind:
    """The decision kind named `value`: a member above, or, for a name none has, a new kind
    of that name (for a room registered from outside the engine, `arena.engine.phases`:
    a test's, a plug-in's). A new kind is a `DecisionKind` like the others
    (`DecisionKind(value)` finds it, a replay names it by `value`), though not one of the
    members a loop over `DecisionKind` lists (the kinds every bot protocol table covers).

    >>> kind_named("pledge") is DecisionKind.PLEDGE
    True
    >>> kind_named("toy_bet") is DecisionKind("toy_bet")
    True
    """
    known = DecisionKind._value2member_map_.get(value)
    if known is not None:
        return cast(DecisionKind, known)
    if not value or not value.replace("_", "").isalnum() or not value.islower():
        raise ValueError(f"{value!r} is not a decision kind's name (lower case, digits and _)")
    kind = str.__new__(DecisionKind, value)
    kind._name_ = value.upper()
    kind._value_ = value
    DecisionKind._value2member_map_[value] = kind
    return kind


ENGINE_KINDS = frozenset({DecisionKind.DRAW, DecisionKind.PICKUP})
"""The kinds the engine takes itself (never asked, never applied from outside): a replayer
compares them with `Hand.history` instead of applying them."""


class CountedCall(NamedTuple):
    """A dealer's call with its count (004 'Passing cards': "The Dealer may choose how many
    cards and where to pass"): `direction` (a `PassDirection` value) and `size`, the cards
    each seat passes, one of the rules' `pass_call_counts` (named as `Decision.size`; a
    tuple's own `count` is a method)."""

    direction: str
    size: int


class Decision(NamedTuple):
    """What the hand asks next: its `kind`, the `seat` that answers, the `legal` answers
    (a `CardSet` for a play, a reveal or the passable cards; the options for a call; the
    (lowest, highest) chips for a bid; the suit letters for a naming; the (penny, card)
    moves for a penny play), the `size` of a pass (its cards), and the `default` the
    runner applies when the seat faults or is out of the match (a legal answer a replay
    can check). A named tuple: one is made for every decision, and a tuple is the
    cheapest immutable value Python makes."""

    kind: DecisionKind
    seat: int
    legal: Any
    default: Any
    size: int = 0
    trick: int | None = None
    """The trick a play belongs to (its number in the hand); None before the tricks."""


class Action(NamedTuple):
    """One answer applied to a hand: `kind`, `seat`, and `value` in the kind's form (see
    `DecisionKind`)."""

    kind: DecisionKind
    seat: int
    value: Any


class IllegalActionError(ValueError):
    """An action of a kind or seat the hand does not ask for now."""
