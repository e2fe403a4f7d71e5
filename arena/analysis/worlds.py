"""Sampled worlds: a whole `Hand` rebuilt at a seat's decision from what that seat knew.

The C playouts judge the plays and passes of the one-pack game (`evaluator`); every other
decision (the dealer's call, a bid, the suit named, a face-down card, a pledge, an
exposure, the refusal of a passed QS and its replacement, a penny-round's card, the
passes of the two-pack and penny games) is judged on worlds: the cards the seat could not
see are dealt anew, consistently with its view, into a real `Hand`, the hand's record is
re-applied up to the decision, and each answer is then applied and played to the hand's
end through the engine's own decision loop (`arena.match.house.answer`, the house bots'),
so every rule the engine plays is modelled.

What the seat knew is all that reaches a world:

- the record is `seen_record`'s: every action of the hand before the decision, with the
  value of each one the seat did not see (another seat's pass, a face-down card before
  every seat showed its own, a refusal of the QS between two other seats) replaced by
  `HIDDEN`; a world answers those as the model would, on its own cards;
- the hidden cards are dealt from the view: before the pass is exchanged (a call, a pass,
  a refusal) every card the seat cannot see is dealt at random (`deal_mode`); after it,
  the one-pack game's inference (`Belief`: voids, the cards it passed, exposed and shown
  cards) deals the others' cards now, and the penny games' own (`_penny_holdings`: the
  same facts, their pennies read as tricks).

A sampled deal the record does not fit (a public answer the world's cards make illegal)
is dropped and another drawn.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from arena.bots.belief import Belief, bits
from arena.engine import Card, CardSet, Hand, PassDirection, SeatView
from arena.engine.decisions import ENGINE_KINDS, Action, DecisionKind
from arena.engine.rules import PennyPlay, Rules

HIDDEN: Final = "hidden"
"""The value of an action the seat did not see (`seen_record`)."""

EXCHANGE_KINDS = frozenset(
    {
        DecisionKind.CALL,
        DecisionKind.PASS,
        DecisionKind.REFUSE_QUEEN,
        DecisionKind.REPLACE_PASS,
    }
)
"""The kinds answered before the pass is exchanged: a world after the exchange starts from
the cards then held and leaves them out."""

_QS = Card.from_str("QS")


def seen_record(history: Sequence[Action], view: SeatView) -> tuple[Action, ...]:
    """The hand's actions (`history`, before the decision) as `view`'s seat saw them: the
    value of every action it could not see replaced by `HIDDEN`, the engine's own actions
    (Domino's draws, Enfle's pickups: a world makes them again) left out."""
    seat = view.seat
    offer = view.queen_offer
    seen = []
    for action in history:
        kind = action.kind
        if kind in ENGINE_KINDS:
            continue
        hidden = action.seat != seat and (
            kind is DecisionKind.PASS
            or kind is DecisionKind.REPLACE_PASS
            or (kind is DecisionKind.REFUSE_QUEEN and (offer is None or seat not in offer))
            or (
                kind is DecisionKind.REVEAL
                and (not view.reveals or view.reveals[action.seat] is None)
            )
        )
        seen.append(Action(kind, action.seat, HIDDEN) if hidden else action)
    return tuple(seen)


@dataclasses.dataclass(frozen=True)
class Table:
    """What the analysis knows of a hand beyond the seat's view, all of it public: how it
    was dealt (dealer, pass, a declarer carried over in Auction Hearts), the game's
    totals before it, and its number in the game."""

    rules: Rules
    """The rules the hand was dealt under (`Hand.base_rules`: before Heartless' reveal or
    Auction Hearts' naming changed the view's)."""
    dealer: int
    pass_direction: PassDirection
    declarer: int | None
    totals: tuple[int, ...]
    number: int = 0


@dataclasses.dataclass(frozen=True)
class Deal:
    """A sampled deal: each seat's cards (a list, a card twice in two packs) and the kitty."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]


@dataclasses.dataclass(frozen=True)
class RealDeal:
    """A hand's real deal, read at its start (for the hindsight, `rollout.evaluate_on_real`):
    each seat's cards, the kitty, and Domino Hearts' stock, top first."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    stock: tuple[Card, ...] = ()
    maker: Any = Hand
    """The hand's class (Domino's `from_cards` takes the stock)."""

    @classmethod
    def of(cls, hand: Hand) -> RealDeal:
        """`hand`'s deal, before any of its actions."""
        stock = tuple(getattr(hand, "stock", ()))
        cards = tuple(tuple(hand.hand_of(s)) for s in range(hand.players))
        return cls(cards, tuple(hand.kitty), stock, type(hand) if stock else Hand)

    def build(self, table: Table, record: Sequence[Action]) -> Hand:
        """The real hand with `record` (real answers, the engine's own actions left out:
        the hand makes them again) applied. Raises ValueError when the record does not
        re-play (our bug: it is the replay's)."""
        extra: dict[str, Any] = {"stock": list(self.stock)} if self.stock else {}
        hand: Hand = self.maker.from_cards(
            table.rules,
            [list(cards) for cards in self.hands],
            pass_direction=table.pass_direction,
            dealer=table.dealer,
            kitty=list(self.kitty),
            declarer=table.declarer,
            **extra,
        )
        hand.game_totals = table.totals
        for action in record:
            if action.kind not in ENGINE_KINDS:
                hand.apply(action)
        return hand


def deal_mode(kind: DecisionKind) -> bool:
    """Whether a decision comes before the pass is exchanged (its world is dealt from the
    start of the hand), rather than after it (dealt from the cards held now)."""
    return kind in EXCHANGE_KINDS


class Worlds:
    """The worlds of one decision: `sample` a deal, `build` the hand at the decision from
    it (None when the record does not fit it), as often as there are answers to try."""

    def __init__(
        self,
        view: SeatView,
        table: Table,
        record: Sequence[Action],
        kind: DecisionKind,
        model: Any,
    ) -> None:
        self.view = view
        self.table = table
        self.kind = kind
        self.model = model
        self.dealt = deal_mode(kind)
        self.record = tuple(a for a in record if self.dealt or a.kind not in EXCHANGE_KINDS)
        if not self.dealt and view.rules.penny_play is PennyPlay.NONE:
            self.belief: Belief | None = Belief.from_view(view)
        else:
            self.belief = None

    def sample(self, rng: random.Random) -> Deal:
        """One deal of the cards the seat cannot see. Raises InconsistentBeliefError when
        none fits the view."""
        if self.dealt:
            return _dealt_cards(self.view, rng)
        if self.belief is not None:
            deal = self.belief.sample(rng)
            n = self.view.rules.players
            hands = tuple(
                tuple(CardSet.from_mask(deal[s] | self.belief.played[s])) for s in range(n)
            )
            return Deal(hands, tuple(CardSet.from_mask(deal[n])))
        return _penny_holdings(self.view, rng)

    def build(self, deal: Deal) -> Hand | None:
        """A hand dealt `deal`, with the record re-applied (the hidden answers the model's),
        at the decision; None when the record does not fit the deal."""
        view, table = self.view, self.table
        try:
            hand = Hand.from_cards(
                table.rules,
                [list(cards) for cards in deal.hands],
                pass_direction=table.pass_direction if self.dealt else PassDirection.HOLD,
                dealer=table.dealer,
                kitty=list(deal.kitty),
                declarer=table.declarer,
            )
        except ValueError:
            return None
        hand.game_totals = table.totals
        for action in self.record:
            decision = hand.pending()
            if decision is None or decision.kind is not action.kind:
                return None
            if decision.seat != action.seat:
                return None
            value = action.value
            if value is HIDDEN:
                value = self.model.answer(decision, hand)
                if action.kind is DecisionKind.PASS:
                    value = self._offered_queen(action.seat, value, hand)
            try:
                hand.apply(Action(action.kind, action.seat, value))
            except (ValueError, TypeError):
                return None
        decision = hand.pending()
        if decision is None or decision.kind is not self.kind or decision.seat != view.seat:
            return None
        return hand

    def _offered_queen(self, giver: int, cards: Any, hand: Hand) -> Any:
        """Rickety Kate: a hidden pass known to hold the QS (the view's `queen_offer`)
        holds it in the world too, in place of the model's last card."""
        offer = self.view.queen_offer
        if offer is None or offer[0] != giver or _QS in cards:
            return cards
        if _QS not in hand.hand_of(giver):
            return cards
        return (*tuple(cards)[:-1], _QS)


def _dealt_cards(view: SeatView, rng: random.Random) -> Deal:
    """Before the exchange: the seat's cards (and a kitty it sees) fixed, every other card
    dealt at random by the hand sizes, the QS to its giver where the view shows it offered
    (Rickety Kate)."""
    rules = view.rules
    n, me = rules.players, view.seat
    pool = list(rules.deck_copies if rules.cancellation else rules.deck)
    for card in view.hand:
        pool.remove(card)
    kitty: list[Card] = []
    if view.kitty is not None:
        kitty = list(view.kitty)
        for card in kitty:
            pool.remove(card)
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    offer = view.queen_offer
    if offer is not None and offer[0] != me and _QS in pool:
        pool.remove(_QS)
        hands[offer[0]].append(_QS)
    rng.shuffle(pool)
    extra = set(view.extra_card_seats)
    at = 0
    for seat in range(n):
        if seat == me:
            continue
        need = rules.hand_size + (seat in extra) - len(hands[seat])
        hands[seat].extend(pool[at : at + need])
        at += need
    kitty.extend(pool[at:])
    return Deal(tuple(tuple(h) for h in hands), tuple(kitty))


def _penny_holdings(view: SeatView, rng: random.Random, tries: int = 24) -> Deal:
    """The penny games after the pass: every card played is its player's, the cards this
    seat passed are its receiver's until played, a seat that did not follow a trick's or a
    penny's suit holds none of it; the rest is dealt at random by the cards each holds."""
    rules = view.rules
    n, me = rules.players, view.seat
    played = [0] * n
    voids: list[set[int]] = [set() for _ in range(n)]
    rounds: list[Iterable[tuple[int, Card]]] = [t.plays for t in view.tricks]
    rounds.append(view.current_trick)
    rounds.extend(view.pennies)
    for each in rounds:
        plays = tuple(each)
        if not plays:
            continue
        led = plays[0][1].suit
        for seat, card in plays:
            played[seat] |= card.mask
            if card.suit is not led and led is not None:
                voids[seat].add(int(led))
    played_all = 0
    for mask in played:
        played_all |= mask
    kitty = view.kitty.mask if view.kitty is not None else 0
    known = [0] * n
    offset = view.pass_direction.offset(n) if view.passed else None
    if offset:
        receiver = (me + offset) % n
        known[receiver] = CardSet(view.passed).mask & ~played_all
    pool = rules.deck.mask & ~played_all & ~view.hand.mask & ~kitty
    for mask in known:
        pool &= ~mask
    extra = set(view.extra_card_seats)
    need = [
        rules.hand_size + (s in extra) - played[s].bit_count() - known[s].bit_count()
        for s in range(n)
    ]
    need[me] = 0
    cards = bits(pool)
    for attempt in range(tries + 1):
        rng.shuffle(cards)
        held = list(known)
        left = list(cards)
        for seat in sorted(range(n), key=lambda s: -len(voids[s])):
            if not need[seat]:
                continue
            suits = voids[seat] if attempt < tries else set()
            allowed = [c for c in left if c // 13 not in suits]
            if len(allowed) < need[seat]:
                break
            for index in allowed[: need[seat]]:
                held[seat] |= 1 << index
                left.remove(index)
        else:
            held[me] = view.hand.mask
            hands = tuple(tuple(CardSet.from_mask(held[s] | played[s])) for s in range(n))
            hidden_kitty = 0
            for index in left:
                hidden_kitty |= 1 << index
            return Deal(hands, tuple(CardSet.from_mask(kitty | hidden_kitty)))
    raise AssertionError("the last attempt ignores voids and always deals")
