"""Which answers of a decision are judged, how each is named, and where a decision is (its
phase) -- for every kind the engine asks (docs/analysis.md 'What is judged').

An answer is named by the replay's own text of it (the kind's room's codec, `encode`,
written out: a card "QS", a pass "QS KH 2C", a call "left" or "left 2", a bid "3" or
"pass", a suit "H", a penny-round's card "2 QS" (penny, card), a pledge or a refusal
"true" / "false", an exposure "QS JD" or "none", a shooter's choice "add").

Where a kind's answers are few, every legal one is judged; where they are many, the
candidates are said here: a bid (pass, the chosen bid and the `BID_SPAN` lowest legal
bids), a face-down card in Heartless (the chosen card and the highest card of each suit
held: the card that pulls the scoring suit hardest), a replacement for a refused QS and
a penny-round's card (the chosen answer and the heuristic house bot's most likely ones:
`CANDIDATES` and `PENNY_CANDIDATES` of them), the passes of the two-pack and penny games
(the chosen pass and the combinations of the heuristic bot's most dangerous cards).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from arena.bots import HeuristicBot
from arena.engine import Card, CardSet, SeatView
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.phases import room_of

BID_SPAN = 4
"""Auction Hearts: the lowest legal bids judged beside a pass and the chosen bid."""
CANDIDATES = 5
"""A replacement card's candidates beside the chosen answer."""
PENNY_CANDIDATES = 2
"""A penny-round card's candidates beside the chosen answer (there are 48 such decisions
a hand in the four-penny game, each judged on whole hands played in Python)."""
PASS_EXTRA = 1
"""A family's pass candidates: the combinations of its `count + PASS_EXTRA` most dangerous
cards (four passes of three; each is judged on whole hands played in Python, and with ten
the passes were half a penny match's cost)."""

PHASE_OF_KIND = {
    DecisionKind.CALL: "call",
    DecisionKind.BID: "auction",
    DecisionKind.NAMING: "auction",
    DecisionKind.REVEAL: "reveal",
    DecisionKind.PLEDGE: "pledge",
    DecisionKind.EXPOSE: "expose",
    DecisionKind.REFUSE_QUEEN: "queen_refusal",
    DecisionKind.REPLACE_PASS: "queen_refusal",
    DecisionKind.MOON_CHOICE: "moon_choice",
    DecisionKind.PASS: "pass",
}
"""The phase of every kind that is not a card played to a trick (those are "lead",
"follow" or "discard")."""

_QS = Card.from_str("QS")
_MODEL = HeuristicBot(0)


def answer_text(kind: DecisionKind, value: Any) -> str:
    """`value` named as the replay writes it (see the module)."""
    return _text(room_of(kind).encode(kind, value))


def _text(data: Any) -> str:
    if data is None:
        return "pass"
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, (list, tuple)):
        return " ".join(_text(item) for item in data) or "none"
    return str(data)


def candidates(decision: Decision, view: SeatView, chosen: Any) -> list[tuple[str, Any]]:
    """The answers judged, as (text, value), the chosen answer first (it wins ties);
    one answer when the decision is forced."""
    kind = decision.kind
    values = [chosen, *_others(decision, view, chosen)]
    named: dict[str, Any] = {}
    for value in values:
        named.setdefault(answer_text(kind, value), value)
    return list(named.items())


def legal_count(decision: Decision) -> int:
    """How many legal answers the decision has (1: forced)."""
    kind, legal = decision.kind, decision.legal
    if kind is DecisionKind.BID:
        lowest, highest = legal
        return 1 + max(0, int(highest) - int(lowest) + 1)
    if kind is DecisionKind.EXPOSE:
        return 1 << len(legal)
    if kind is DecisionKind.PASS:
        return 2 if len(legal) > decision.size else 1
    return len(legal)


def _others(decision: Decision, view: SeatView, chosen: Any) -> list[Any]:
    kind, legal = decision.kind, decision.legal
    if kind is DecisionKind.BID:
        lowest, highest = legal
        return [None, *range(lowest, min(highest, lowest + BID_SPAN - 1) + 1)]
    if kind is DecisionKind.EXPOSE:
        cards = list(legal)
        return [
            tuple(combo)
            for size in range(len(cards) + 1)
            for combo in itertools.combinations(cards, size)
        ]
    if kind is DecisionKind.REVEAL:
        by_suit: dict[Any, Card] = {}
        for card in legal:
            if card.suit not in by_suit or card.rank > by_suit[card.suit].rank:
                by_suit[card.suit] = card
        return list(by_suit.values())
    if kind is DecisionKind.REPLACE_PASS:
        ordered = _MODEL.pass_cards(view, len(view.hand))
        return [card for card in ordered if card in legal][:CANDIDATES]
    if kind is DecisionKind.PENNY_PLAY:
        return _penny_candidates(view, list(legal))
    if kind is DecisionKind.PASS:
        top = _MODEL.pass_cards(view, decision.size + PASS_EXTRA)
        return [tuple(combo) for combo in itertools.combinations(top, decision.size)]
    return list(legal)


def _penny_candidates(view: SeatView, moves: Sequence[tuple[int, Card]]) -> list[Any]:
    """A penny-round's card: the heuristic bot's move, then per penny its lowest and highest
    legal card, up to `PENNY_CANDIDATES`."""
    found = [_MODEL.play_penny(view)]
    for penny in sorted({p for p, _ in moves}):
        cards = [card for p, card in moves if p == penny]
        low = min(cards, key=lambda c: (c.rank, int(c.suit or 0)))
        high = max(cards, key=lambda c: (c.rank, int(c.suit or 0)))
        found.extend([(penny, low), (penny, high)])
    unique = list(dict.fromkeys(found))
    return unique[:PENNY_CANDIDATES]


def phase_of(decision: Decision, view: SeatView, chosen: Any) -> tuple[str, int | None]:
    """(phase, the play's place in its trick or penny: 0 the lead; None for a decision
    that is not a card played)."""
    kind = decision.kind
    if kind in PHASE_OF_KIND:
        return PHASE_OF_KIND[kind], None
    if kind is DecisionKind.PENNY_PLAY:
        plays = view.pennies[chosen[0]]
        cards = CardSet(card for penny, card in decision.legal if penny == chosen[0])
    else:
        plays = view.current_trick
        cards = CardSet(view.legal)
    if not plays:
        return "lead", 0
    led = plays[0][1].suit
    return ("follow" if all(c.suit == led for c in cards) else "discard"), len(plays)


def concerns_queen(decision: Decision, view: SeatView, chosen: Any) -> bool:
    """Whether the ♠Q is at stake: legal to play or in the trick (a play), in the hand
    passed from or offered (a pass, a refusal), exposable (Gong Zhu)."""
    kind = decision.kind
    if kind is DecisionKind.PLAY:
        return _QS in view.legal or any(card == _QS for _, card in view.current_trick)
    if kind is DecisionKind.PENNY_PLAY:
        plays = view.pennies[chosen[0]]
        return any(c == _QS for _, c in decision.legal) or any(c == _QS for _, c in plays)
    if kind in (DecisionKind.PASS, DecisionKind.REPLACE_PASS, DecisionKind.REFUSE_QUEEN):
        return _QS in view.hand or kind is DecisionKind.REFUSE_QUEEN
    if kind is DecisionKind.EXPOSE:
        return _QS in decision.legal
    return False
