"""Judging a bot's answer: is it a card (or cards) it may give now, and if not, which
fault is it? The runner asks; these say what counts, so the rules of a legal answer live
in one place, apart from the clock and the match's bookkeeping.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.engine import Card, CardParseError, CardSet, Hand, IllegalBidError, PassDirection
from arena.engine.auction import parse_suit
from arena.engine.cards import to_card
from arena.engine.decisions import CountedCall, Decision, DecisionKind
from arena.engine.variants.penny import PennyHand, PennyMove

from .faults import FaultKind, SeatFault


def judge_card(
    answer: object, hand: Hand, seat: int, legal: CardSet
) -> tuple[Card | None, SeatFault | None]:
    """A play: the card, or the fault (malformed, not held, or illegal with the rule's
    own reason). `legal` is the hand's legal set, passed in so the common case is one
    set test."""
    try:
        card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
    except CardParseError as error:
        return None, SeatFault(FaultKind.MALFORMED, str(error))
    if card in legal:  # the usual answer: held and allowed, nothing to explain
        return card, None
    if card not in hand.hand_of(seat):
        return None, SeatFault(
            FaultKind.NOT_HELD, f"played {card}, which seat {seat} does not hold"
        )
    reason = hand.illegal_reason(card)
    if reason is not None:
        return None, SeatFault(FaultKind.ILLEGAL, reason)
    return card, None


def judge_penny_play(
    answer: object, hand: PennyHand, seat: int
) -> tuple[tuple[int, Card] | None, SeatFault | None]:
    """A play during a Four-Penny multi-round: a (penny, card), or a card alone that goes
    to the lowest-numbered penny where it is legal; otherwise the fault (malformed, not
    held, or illegal with the rule's own reason, naming the penny)."""
    penny: object = None
    if isinstance(answer, PennyMove):
        penny, answer = answer.penny, answer.card
    try:
        card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
    except CardParseError as error:
        return None, SeatFault(FaultKind.MALFORMED, str(error))
    if card not in hand.hand_of(seat):
        return None, SeatFault(
            FaultKind.NOT_HELD, f"played {card}, which seat {seat} does not hold"
        )
    if penny is None:
        target = hand.default_penny(card)
        if target is None:
            reason = hand.illegal_reason(card) or f"{card} is legal on no penny"
            return None, SeatFault(FaultKind.ILLEGAL, reason)
        return (target, card), None
    if not isinstance(penny, int) or isinstance(penny, bool):
        return None, SeatFault(FaultKind.MALFORMED, f"{penny!r} is not a penny number")
    if not hand.is_legal(card, penny):
        reason = hand.illegal_reason(card, penny) or f"{card} may not go to penny {penny}"
        return None, SeatFault(FaultKind.ILLEGAL, reason)
    return (penny, card), None


def judge_pass(
    answer: object, held: CardSet, passable: CardSet, count: int, seat: int
) -> tuple[tuple[Card, ...], SeatFault | None]:
    """A pass: `count` distinct cards held and passable (a card twice only when `held`
    holds both copies, Cancellation Hearts), or the fault."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence):
        return (), SeatFault(
            FaultKind.MALFORMED, f"a pass must be a list of cards, not {type(answer).__name__}"
        )
    try:
        cards = tuple(to_card(c) for c in answer)
    except CardParseError as error:
        return (), SeatFault(FaultKind.MALFORMED, str(error))
    if len(cards) != count:
        return (), SeatFault(FaultKind.ILLEGAL, f"passed {len(cards)} cards; the pass is {count}")
    if len(set(cards)) != count:
        # Cancellation Hearts (two packs): a card twice only when both copies are held.
        over = [c for c in set(cards) if cards.count(c) > (2 if held.twice & c.mask else 1)]
        if over or not held.twice:
            return (), SeatFault(FaultKind.ILLEGAL, "passed the same card twice")
    missing = [str(c) for c in cards if c not in held]
    if missing:
        return (), SeatFault(
            FaultKind.NOT_HELD, f"passed {' '.join(missing)}, not held by seat {seat}"
        )
    forbidden = [str(c) for c in cards if c not in passable]
    if forbidden:
        return (), SeatFault(
            FaultKind.ILLEGAL,
            f"passed {' '.join(forbidden)}, which these rules forbid passing (004 'Passing cards')",
        )
    return cards, None


def judge_call(
    answer: object,
    options: Sequence[PassDirection],
    split_directions: Sequence[PassDirection] = (),
    count: int = 0,
    counts: Sequence[int] = (),
) -> tuple[PassDirection | tuple[PassDirection, ...] | CountedCall | None, SeatFault | None]:
    """A dealer's call (003 'Simple variations'): one of `options`, or, where
    `split_directions` is not empty, a split of `count` directions (or of any of `counts`)
    each one of them; or, where `counts` lists more than `count` (004 'Passing cards': "The
    Dealer may choose how many cards"), a `CountedCall` of an option and one of `counts`;
    otherwise the fault."""
    if isinstance(answer, CountedCall):
        return _judge_counted(answer, options, counts or (count,))
    if isinstance(answer, (list, tuple)):
        sizes = [c for c in (counts or (count,)) if c >= 2]
        if len(answer) in sizes:
            count = len(answer)
        return _judge_split(answer, split_directions, count)
    try:
        called = PassDirection(str(answer))
    except ValueError:
        return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not a pass direction")
    if called not in options:
        allowed = ", ".join(d.value for d in options)
        return None, SeatFault(
            FaultKind.ILLEGAL, f"called {called.value}; the options are {allowed}"
        )
    return called, None


def _judge_counted(
    answer: CountedCall, options: Sequence[PassDirection], counts: Sequence[int]
) -> tuple[CountedCall | None, SeatFault | None]:
    """A call with its count: an option, and a count of `counts`."""
    called, fault = judge_call(answer.direction, options)
    if fault is not None or called is None:
        return None, fault
    count = answer.size
    if not isinstance(count, int) or isinstance(count, bool) or count not in counts:
        allowed = ", ".join(str(c) for c in counts)
        return None, SeatFault(
            FaultKind.ILLEGAL, f"called {count!r} cards; the dealer may call {allowed}"
        )
    return CountedCall(PassDirection(str(called)), count), None


def _judge_split(
    answer: Sequence[object], allowed: Sequence[PassDirection], count: int
) -> tuple[tuple[PassDirection, ...] | None, SeatFault | None]:
    """A split call: `count` directions, each one of `allowed`."""
    if not allowed:
        return None, SeatFault(FaultKind.ILLEGAL, "called a split; these rules allow none")
    split = []
    for direction in answer:
        try:
            split.append(PassDirection(str(direction)))
        except ValueError:
            return None, SeatFault(
                FaultKind.MALFORMED, f"{direction!r} in a split is not a pass direction"
            )
    if len(split) != count:
        return None, SeatFault(
            FaultKind.ILLEGAL, f"a split of {len(split)} directions; {count} cards are passed"
        )
    wrong = [d.value for d in split if d not in allowed]
    if wrong:
        ways = ", ".join(d.value for d in allowed)
        return None, SeatFault(
            FaultKind.ILLEGAL, f"a split card goes {wrong[0]}; a split's cards go {ways}"
        )
    return tuple(split), None


def judge_reveal(answer: object, held: CardSet, seat: int) -> tuple[Card | None, SeatFault | None]:
    """A face-down card (Heartless): any card held, or the fault."""
    try:
        card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
    except CardParseError as error:
        return None, SeatFault(FaultKind.MALFORMED, str(error))
    if card not in held:
        return None, SeatFault(
            FaultKind.NOT_HELD, f"revealed {card}, which seat {seat} does not hold"
        )
    return card, None


def judge_bid(answer: object, low: int, high: int) -> tuple[int | None, SeatFault | None]:
    """An Auction Hearts bid (000: "A player must either bid higher than the preceding bid
    or pass"): None (a pass), or whole chips in `low`..`high`; otherwise the fault."""
    if answer is None:
        return None, None
    if not isinstance(answer, int) or isinstance(answer, bool):
        return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not a number of chips")
    if not low <= answer <= high:
        return None, SeatFault(
            FaultKind.ILLEGAL, f"bid {answer} chips; a bid now is {low}..{high} chips, or a pass"
        )
    return answer, None


def judge_suit(answer: object) -> tuple[str | None, SeatFault | None]:
    """The declarer's suit to avoid (000 'Auction Hearts'): its letter, or the fault."""
    try:
        return parse_suit(answer, None).letter, None  # type: ignore[arg-type]  # from a bot
    except IllegalBidError:
        return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not a suit (C, D, S or H)")


def judge_moon_choice(answer: object) -> tuple[str | None, SeatFault | None]:
    """The shooter's choice (004 'Shooting the moon'): "add" or "subtract", or the fault."""
    if answer in ("add", "subtract"):
        return str(answer), None
    return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not 'add' or 'subtract'")


def judge_pledge(answer: object) -> tuple[bool | None, SeatFault | None]:
    """The no-hearts pledge (004 'Scoring variants'): True or False, or the fault."""
    if isinstance(answer, bool):
        return answer, None
    return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not a pledge (true or false)")


def judge_queen_refusal(answer: object) -> tuple[bool | None, SeatFault | None]:
    """Rickety Kate's refusal of the passed QS: True (refuse) or False, or the fault."""
    if isinstance(answer, bool):
        return answer, None
    return None, SeatFault(FaultKind.MALFORMED, f"{answer!r} is not a refusal (true or false)")


def judge_replacement(
    answer: object, legal: CardSet, seat: int
) -> tuple[Card | None, SeatFault | None]:
    """Rickety Kate: the card passed in the refused QS's place ("another card must be
    passed in its place"): one of the giver's cards outside its pass; the QS, a card
    already passed or one not held is an illegal answer (the default is applied)."""
    try:
        card = to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
    except CardParseError as error:
        return None, SeatFault(FaultKind.MALFORMED, str(error))
    if card not in legal:
        return None, SeatFault(
            FaultKind.ILLEGAL,
            f"seat {seat} cannot pass {card} in the refused QS's place: another card of its "
            "hand, not already passed, goes instead",
        )
    return card, None


def judge_expose(
    answer: object, held: CardSet, exposable: CardSet, seat: int
) -> tuple[tuple[Card, ...] | None, SeatFault | None]:
    """Gong Zhu's exposed cards: distinct cards of `exposable` (of the AH, QS, JD and TC,
    those the seat holds), possibly none, in card order; or the fault."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence):
        return None, SeatFault(
            FaultKind.MALFORMED, f"an exposure is a list of cards, not {type(answer).__name__}"
        )
    try:
        cards = tuple(to_card(c) for c in answer)
    except CardParseError as error:
        return None, SeatFault(FaultKind.MALFORMED, str(error))
    if len(set(cards)) != len(cards):
        return None, SeatFault(FaultKind.ILLEGAL, "exposed the same card twice")
    missing = [str(c) for c in cards if c not in held]
    if missing:
        return None, SeatFault(
            FaultKind.NOT_HELD, f"exposed {' '.join(missing)}, not held by seat {seat}"
        )
    wrong = [str(c) for c in cards if c not in exposable]
    if wrong:
        return None, SeatFault(
            FaultKind.ILLEGAL,
            f"exposed {' '.join(wrong)}: only the AH, QS, JD and TC may be exposed (Gong Zhu)",
        )
    return tuple(sorted(cards)), None


_Judge = Callable[[object, Decision, Hand], tuple[Any, "SeatFault | None"]]
JUDGES: dict[DecisionKind, _Judge] = {
    DecisionKind.PLAY: lambda a, d, h: (
        (a, None) if a.__class__ is Card and a in d.legal else judge_card(a, h, d.seat, d.legal)
    ),
    DecisionKind.PENNY_PLAY: lambda a, d, h: judge_penny_play(a, h, d.seat),  # type: ignore[arg-type]
    DecisionKind.PASS: lambda a, d, h: judge_pass(a, h.hand_of(d.seat), d.legal, d.size, d.seat),
    DecisionKind.REVEAL: lambda a, d, h: judge_reveal(a, d.legal, d.seat),
    DecisionKind.CALL: lambda a, d, h: judge_call(
        a, d.legal, h.rules.split_directions, h.rules.pass_count, h.call_counts
    ),
    DecisionKind.BID: lambda a, d, h: judge_bid(a, *d.legal),
    DecisionKind.NAMING: lambda a, d, h: judge_suit(a),
    DecisionKind.MOON_CHOICE: lambda a, d, h: judge_moon_choice(a),
    DecisionKind.PLEDGE: lambda a, d, h: judge_pledge(a),
    DecisionKind.REFUSE_QUEEN: lambda a, d, h: judge_queen_refusal(a),
    DecisionKind.REPLACE_PASS: lambda a, d, h: judge_replacement(a, d.legal, d.seat),
    DecisionKind.EXPOSE: lambda a, d, h: judge_expose(a, h.hand_of(d.seat), d.legal, d.seat),
}
"""A decision kind's judge: (the answer in the engine's form for `Action.value`, None) or
(None, the fault). DRAW and PICKUP are the engine's own and never judged."""


def judge(answer: object, decision: Decision, hand: Hand) -> tuple[Any, SeatFault | None]:
    """A seat's answer to `decision`, judged by its kind's rule."""
    return JUDGES[decision.kind](answer, decision, hand)
