"""The tricks' own kinds: a play, a Four-Penny play, and the engine's own draws (Domino
Hearts) and pickups (Enfle). The hand asks and applies them itself (they are its core);
their rooms judge a seat's answer against what the hand asks, and keep the kinds' codecs
and words."""

from __future__ import annotations

from typing import Any

from .. import config as core_config
from ..cards import CARDS, Card, CardParseError, Suit, to_card
from ..decisions import DecisionKind, IllegalActionError
from ..rules import Opening
from .room import Room, Show, cards_text, refused


class IllegalPlayError(ValueError):
    """A card that may not be played now; `reason` says which rule forbids it."""

    def __init__(self, message: str, *, card: Card | None, seat: int | None, code: int) -> None:
        super().__init__(message)
        self.card = card
        self.seat = seat
        self.code = code


class OutOfTurnError(IllegalPlayError):
    """A play by a seat whose turn it is not."""


class HandOverError(IllegalPlayError):
    """A play after the last trick."""


def asked(hand: Any, kind: DecisionKind, seat: int) -> Any:
    """The decision `hand` asks now, if it is of `kind` and for `seat`; raises the
    IllegalActionError (illegal) otherwise."""
    decision = hand.pending()
    if decision is None or decision.kind is not kind or decision.seat != seat:
        asking = "nothing" if decision is None else f"seat {decision.seat}'s {decision.kind.value}"
        raise refused(
            IllegalActionError(
                f"seat {seat} cannot answer a {kind.value} now: the hand asks {asking}"
            ),
            "illegal",
        )
    return decision


def read_card(answer: object) -> Card:
    """A card from a seat's answer; a malformed one is refused."""
    try:
        return to_card(answer)  # type: ignore[arg-type]  # anything a bot sent
    except CardParseError as parse:
        raise refused(ValueError(str(parse)), "malformed") from None


class PlayRoom(Room):
    """A card played to the trick: one of the hand's legal plays."""

    kinds = (DecisionKind.PLAY,)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return to_card(data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        return f"You play {show(data)}" if you else f"seat {seat} plays {show(data)}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        decision = asked(hand, kind, seat)
        card = read_card(answer)
        if card in decision.legal:  # the usual answer: held and allowed
            return card
        if card not in hand.hand_of(seat):
            raise refused(
                IllegalPlayError(
                    f"played {card}, which seat {seat} does not hold", card=card, seat=seat, code=0
                ),
                "not_held",
            )
        reason = hand.illegal_reason(card)
        if reason is None:
            return card
        raise refused(IllegalPlayError(reason, card=card, seat=seat, code=0), "illegal")


class PennyPlayRoom(Room):
    """003 'FOUR-PENNY HEARTS', a multi-round: a (penny, card), or a card alone that goes to
    the lowest-numbered penny where it is legal (`default_penny`)."""

    kinds = (DecisionKind.PENNY_PLAY,)

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        return [value[0], str(value[1])]

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        penny, card = data
        return penny, to_card(card)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        who = "You play" if you else f"seat {seat} plays"
        return f"{who} {show(data[1])} to penny {data[0]}"

    @classmethod
    def judge(cls, hand: Any, kind: DecisionKind, seat: int, answer: object) -> Any:
        asked(hand, kind, seat)
        penny: object = None
        if isinstance(answer, tuple) and hasattr(answer, "penny") and hasattr(answer, "card"):
            penny, answer = answer.penny, answer.card  # a `PennyMove`
        card = read_card(answer)
        if card not in hand.hand_of(seat):
            raise refused(
                IllegalPlayError(
                    f"played {card}, which seat {seat} does not hold", card=card, seat=seat, code=0
                ),
                "not_held",
            )
        if penny is None:
            target = hand.default_penny(card)
            if target is None:
                reason = hand.illegal_reason(card) or f"{card} is legal on no penny"
                raise refused(IllegalPlayError(reason, card=card, seat=seat, code=0), "illegal")
            return target, card
        if not isinstance(penny, int) or isinstance(penny, bool):
            raise refused(ValueError(f"{penny!r} is not a penny number"), "malformed")
        if not hand.is_legal(card, penny):
            reason = hand.illegal_reason(card, penny) or f"{card} may not go to penny {penny}"
            raise refused(IllegalPlayError(reason, card=card, seat=seat, code=0), "illegal")
        return penny, card


class DrawRoom(Room):
    """000 'Domino Hearts': a card drawn from the stock, the engine's own action."""

    kinds = (DecisionKind.DRAW,)

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return to_card(data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        who = "You draw" if you else f"seat {seat} draws"
        return f"{who} {show(data)} from the stock"


class PickupRoom(Room):
    """004 'Enfle': the cards a seat that cannot follow takes up, the engine's own action."""

    kinds = (DecisionKind.PICKUP,)

    @classmethod
    def encode(cls, kind: DecisionKind, value: Any) -> Any:
        return [str(card) for card in value]

    @classmethod
    def decode(cls, kind: DecisionKind, data: Any) -> Any:
        return tuple(to_card(card) for card in data)

    @classmethod
    def words(
        cls, kind: DecisionKind, seat: int, data: Any, show: Show = str, *, you: bool = False
    ) -> str:
        n = len(data)
        who = "You cannot follow and take up" if you else f"seat {seat} cannot follow and takes up"
        return f"{who} {n} card{'' if n == 1 else 's'}: " + cards_text(data, show)


def play_reason(hand: Any, code: int, card: Card, who: str) -> str:
    """Why the backend refuses `card` (its ERR_* `code`), in the rule's words: the message
    of the `IllegalPlayError` a play raises (`hand`'s trick, rules and hands say which
    suit was led, which card opens, which suit Booster Nines makes the leader lead)."""
    # The suit to follow: the first suited card's (a joker has none, 004 'Joker Hearts').
    led = next((c.suit for _, c in hand.current_trick if c.suit is not None), None)
    if code == core_config.ERR_MUST_LEAD_OPENING_CARD:
        return f"the first trick must be opened with {_opening_card(hand)}"
    if code == core_config.ERR_MUST_FOLLOW_SUIT:
        return f"{who} must follow suit: " + (
            f"{_suit_name(led)} were led" if led is not None else "a suit was led"
        )
    if code == core_config.ERR_BOOSTER_SUIT:
        return (
            f"{who} must lead {_suit_name(hand.booster_suit or Suit.CLUBS)}: a nine of that "
            "suit was played to the last trick (004 'Other Variations', Booster Nines: an "
            "extra round in the suit)"
        )
    if code == core_config.ERR_NOT_BROKEN:
        broken = "hearts" if hand.rules.lead_rule.value == "hearts_broken" else "points"
        return f"{broken} have not been broken"
    return {
        core_config.ERR_BAD_CARD: f"{card} is not in play under these rules",
        core_config.ERR_NOT_IN_HAND: f"{who} does not hold {card}",
        core_config.ERR_MUST_LEAD_CLUB: "the first trick must be opened with a club",
        core_config.ERR_FIRST_TRICK_POINTS: "no point cards on the first trick "
        "while other cards can be played (000 'The Play')",
        core_config.ERR_JOKER_HELD: f"{card} may not be played yet: the joker goes only "
        "on a trick holding the ace or a court card of hearts, or as the only card left to "
        "play (004 'Joker Hearts', 1911: \"It cannot be thrown away, excepting when hearts "
        'are led and an ace or court card is played")',
        core_config.ERR_QUEEN_FIRST_CHANCE: f"{who} must play the QS now: it goes on the "
        "first trick its holder legitimately can (001 'VARIATION 1: BLACK MARIAH': \"by "
        "playing it as the first discard in a voided suit, or by playing it when an "
        'opponent leads A of spades or K of spades")',
        core_config.ERR_EXPOSED_CARD: f"{card} was exposed: it may not be played the first "
        "time its suit is led, the lead included, unless it is its holder's only card of "
        'the suit (Gong Zhu, Wikipedia: "An exposed card may not be played the first time '
        'its suit is led, including the lead itself, unless it is a singleton")',
    }.get(code, f"error code {code}")


def _opening_card(hand: Any) -> Card | None:
    """The lowest club in the hands, or spade under the lowest-spade opening."""
    suit = Suit.SPADES if hand.rules.opening is Opening.LOWEST_SPADE else Suit.CLUBS
    held = 0
    for seat in range(hand.players):
        held |= hand.hand_of(seat).mask & suit.mask
    return CARDS[(held & -held).bit_length() - 1] if held else None


def _suit_name(suit: Suit) -> str:
    return suit.name.lower()
