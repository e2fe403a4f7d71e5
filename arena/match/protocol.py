"""The arena's side of `hearts.v1`: engine views and events as protocol messages.

The generated stubs and the Rules mapping come from the SDK (one copy of each); this
module only builds messages from the engine's `SeatView`, so a remote bot is told
exactly what an in-process bot sees, nothing more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from google.protobuf.message import Message
from hearts_bot.convert import (
    ProtocolError,
    pass_direction_from_proto,
    pass_direction_to_proto,
    rules_to_proto,
)
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2, rules_pb2

from arena.engine import PassDirection, Rules, SeatView, Trick
from arena.engine.cards import CARDS, Card, CardSet
from arena.engine.decisions import ENGINE_KINDS, CountedCall, Decision, DecisionKind
from arena.engine.variants.penny import PennyMove

from .seats import DecisionContext, GameInfo

__all__ = ["bot_pb2", "bot_pb2_grpc", "game_pb2"]

_CARDS_BY_TEXT = {str(card): card for card in CARDS}
_TEXT: tuple[str, ...] = tuple(str(card) for card in CARDS)
"""Each card's protocol text, by card index (bit i of a CardSet mask is card i)."""
_PASS_PB = {direction: pass_direction_to_proto(direction.value) for direction in PassDirection}


_BYTE_TEXTS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(
        tuple(
            _TEXT[i] for bit in range(8) if value >> bit & 1 and (i := 8 * chunk + bit) < len(_TEXT)
        )
        for value in range(256)
    )
    for chunk in range((len(_TEXT) + 7) // 8)
)
"""The texts of the cards in each byte of a mask: `_BYTE_TEXTS[k][b]` for byte `k` = `b`."""


def _mask_texts(mask: int) -> list[str]:
    """The cards of a CardSet mask as text, lowest index first (the CardSet's own order).

    A byte at a time from a table (4x faster than a bit at a time; it runs twice per
    decision)."""
    texts: list[str] = []
    for chunk in _BYTE_TEXTS:
        if not mask:
            break
        texts += chunk[mask & 0xFF]
        mask >>= 8
    return texts


def _set_texts(cards: CardSet) -> list[str]:
    """A hand or kitty as text: a card twice when held twice (Cancellation Hearts)."""
    if not cards.twice:
        return _mask_texts(cards.mask)
    return [_TEXT[card.index] for card in cards]


def _winner(trick: Trick) -> int | None:
    """The winner for the wire: unset for a trick nobody won (Cancellation Hearts)."""
    return trick.winner if trick.winner >= 0 else None


def _texts(cards: Sequence[Card]) -> list[str]:
    return [_TEXT[card.index] for card in cards]


@lru_cache(maxsize=64)
def rules_message(rules: Rules) -> rules_pb2.Rules:
    """The protocol's Rules for a `Rules` value (cached: a match sends it with every query)."""
    return rules_to_proto(rules.to_dict())


def clock_message(per_decision: float, bank: float) -> game_pb2.Clock:
    """A Clock from seconds."""
    clock = game_pb2.Clock()
    clock.per_decision.FromNanoseconds(int(per_decision * 1e9))
    clock.bank_remaining.FromNanoseconds(int(bank * 1e9))
    return clock


def trick_seats(plays: Sequence[tuple[int, Card]], players: int) -> list[int]:
    """`Trick.seats` for a trick's (seat, card) plays: the seats, when they are not the
    consecutive seats from the leader; else empty, as on every trick but the first under
    002's extra cards ('Alternatives to the "Kitty" in 3 or 5 player games': "allow the
    player with them to play an additional card on the first trick"), whose extra cards
    are played after the round. Domino Hearts says its seats in its own fields (its
    tricks are never passed `players`, see `trick_message`).

    >>> trick_seats([(seat, CARDS[i]) for i, seat in enumerate((1, 2, 0, 1))], 3)
    []
    >>> trick_seats([(seat, CARDS[i]) for i, seat in enumerate((2, 3, 4, 0, 1, 3))], 5)
    [2, 3, 4, 0, 1, 3]
    """
    if not plays:
        return []
    leader = plays[0][0]
    seats = [seat for seat, _ in plays]
    if all(seat == (leader + i) % players for i, seat in enumerate(seats)):
        return []
    return seats


def trick_message(trick: Trick, players: int | None = None) -> game_pb2.Trick:
    """A finished trick; with `players`, its `seats` when they are not consecutive from
    the leader (the first trick under 002's extra cards, `trick_seats`). Domino Hearts
    leaves `players` out: its seats go in DominoTrickEnd and HandState.domino."""
    message = game_pb2.Trick(
        leader=trick.leader, cards=[_TEXT[c.index] for _, c in trick.plays], winner=_winner(trick)
    )
    if players is not None:
        message.seats[:] = trick_seats(trick.plays, players)
    return message


def hand_state(view: SeatView, context: DecisionContext) -> game_pb2.HandState:
    """Everything `view.seat` knows now, as the protocol's HandState, built from scratch.
    `PlayRequests` must build the same.

    The rules are the hand's own (`view.rules`): in Heartless they change once the
    scoring suit is revealed, and a bot must see the values it is playing for."""
    state = game_pb2.HandState(
        rules=rules_message(view.rules),
        seat=view.seat,
        hand_number=context.hand_number,
        dealer=view.dealer,
        hand=_set_texts(view.hand),
        scores=list(context.scores),
        pass_direction=_PASS_PB[view.pass_direction],
        passed=_texts(view.passed),
        received=_texts(sorted(view.received)),
        tricks=[trick_message(t, _players(view.rules)) for t in regular_tricks(view)],
        broken=view.hearts_broken,
        clock=clock_message(context.per_decision, context.bank_remaining),
        pot=context.pot,
        lives=context.lives,
    )
    if view.kitty is not None:
        state.kitty.extend(_set_texts(view.kitty))
    state.extra_card_seats[:] = view.extra_card_seats
    _set_reveals(state, view)
    _set_auction(state, view)
    state.pass_split[:] = [_PASS_PB[d] for d in view.pass_split]
    state.pledges[:] = _pledge_numbers(view)
    _set_queen_offer(state, view)
    _set_exposures(state, view)
    _set_domino(state, view)
    _set_pennies(state, view)
    return state


def _players(rules: Rules) -> int | None:
    """What `trick_message` needs to set a trick's `seats`: the seat count, or None in
    Domino Hearts, whose tricks' seats go in its own fields (HandState.domino.trick_seats,
    DominoTrickEnd.seats) and never in Trick.seats."""
    return None if rules.domino else rules.players


def current_trick_message(view: SeatView) -> game_pb2.Trick:
    """The trick in progress as `view.seat` sees it: led by this seat when empty, with its
    `seats` when they are not consecutive from the leader (002's extra cards, `trick_seats`)."""
    plays = view.current_trick
    message = game_pb2.Trick(
        leader=plays[0][0] if plays else view.seat, cards=[_TEXT[c.index] for _, c in plays]
    )
    players = _players(view.rules)
    if players is not None:
        message.seats[:] = trick_seats(plays, players)
    return message


def _pledge_numbers(view: SeatView) -> list[int]:
    """004 'Scoring variants': the pledges as the protocol sends them (1, 0, -1 unasked)."""
    return [-1 if pledged is None else int(pledged) for pledged in view.pledges]


def _set_queen_offer(state: game_pb2.HandState, view: SeatView) -> None:
    """Rickety Kate's passed QS (HandState.queen_offer), for its giver and receiver only
    (the view holds it for those two alone)."""
    offer = view.queen_offer
    if offer is None:
        state.ClearField("queen_offer")
        return
    state.queen_offer.giver, state.queen_offer.receiver = offer
    if view.queen_refused is None:
        state.queen_offer.ClearField("refused")
    else:
        state.queen_offer.refused = view.queen_refused


def _set_exposures(state: game_pb2.HandState, view: SeatView) -> None:
    """Gong Zhu's exposed cards: one entry per seat that has answered, in answering order
    (from the dealer's left); nothing without exposures."""
    del state.exposures[:]
    if not view.exposed:
        return
    n = len(view.exposed)
    for step in range(1, n + 1):
        seat = (view.dealer + step) % n
        shown = view.exposed[seat]
        if shown is not None:
            state.exposures.add(seat=seat, cards=_set_texts(shown))


def _set_domino(state: game_pb2.HandState, view: SeatView) -> None:
    """Domino Hearts: the stock's size, who is still in, the draws, and each trick's seats
    (a trick holds one card per seat still in); nothing in any other game."""
    if view.stock_size is None:
        state.ClearField("domino")
        return
    table = state.domino
    table.stock_size = view.stock_size
    table.in_play[:] = view.in_play
    table.drawn[:] = view.drawn
    del table.trick_seats[:]
    for trick in view.tricks:
        table.trick_seats.add(seats=[seat for seat, _ in trick.plays])


def domino_trick_end(hand_number: int, trick_number: int, trick: Trick) -> game_pb2.DominoTrickEnd:
    """Domino Hearts' TrickEnd: the trick with the seats that played it."""
    return game_pb2.DominoTrickEnd(
        hand_number=hand_number,
        trick_number=trick_number,
        trick=trick_message(trick),
        seats=[seat for seat, _ in trick.plays],
    )


def regular_tricks(view: SeatView) -> tuple[Trick, ...]:
    """The tricks that go to HandState.tricks: all of them, but in Four-Penny Hearts only
    the opening tricks (a penny-round's cards are not played by consecutive seats)."""
    if view.multi_round is None:
        return view.tricks
    return view.tricks[: view.rules.penny_openings]


def penny_round(
    penny: int, plays: Sequence[tuple[int, Card]], multi_round: int, winner: int | None = None
) -> game_pb2.PennyRound:
    """One penny-round: its cards with their seats, its leader and, once done, its winner."""
    message = game_pb2.PennyRound(
        penny=penny,
        cards=[game_pb2.PennyCard(seat=seat, card=_TEXT[card.index]) for seat, card in plays],
        multi_round=multi_round,
    )
    if plays:
        message.leader = plays[0][0]
    if winner is not None:
        message.winner = winner
    return message


def _set_pennies(state: game_pb2.HandState, view: SeatView) -> None:
    """003 'FOUR-PENNY HEARTS': the open penny-rounds, the multi-round, the finished ones."""
    del state.pennies[:]
    del state.finished_pennies[:]
    if view.multi_round is None:
        state.ClearField("multi_round")
        return
    state.multi_round = view.multi_round
    for penny, plays in enumerate(view.pennies):
        state.pennies.append(penny_round(penny, plays, view.multi_round))
    n, openings = view.rules.players, view.rules.penny_openings
    for i, trick in enumerate(view.tricks[openings:]):
        state.finished_pennies.append(penny_round(i % n, trick.plays, i // n, trick.winner))


def _reveal_texts(view: SeatView) -> list[str]:
    return [_TEXT[card.index] if card is not None else "" for card in view.reveals]


def _set_reveals(state: game_pb2.HandState, view: SeatView) -> None:
    """Heartless: the face-down cards this seat may see, and the suit they chose."""
    state.reveals[:] = _reveal_texts(view)
    state.scoring_suit = view.scoring_suit.letter if view.scoring_suit is not None else ""


def _set_auction(state: game_pb2.HandState, view: SeatView) -> None:
    """Auction Hearts: the bids so far and the declarer once known."""
    del state.bids[:]
    for seat, chips in view.bids:
        state.bids.add(seat=seat, chips=chips)
    if view.declarer is None:
        state.ClearField("declarer")
    else:
        state.declarer = view.declarer


def bid_query(view: SeatView, context: DecisionContext) -> game_pb2.BidQuery:
    """A BidQuery: the hand as dealt, the bids so far, and the range this seat may bid."""
    best = max((chips for _, chips in view.bids if chips is not None), default=0)
    return game_pb2.BidQuery(
        state=hand_state(view, context), min_bid=best + 1, max_bid=view.rules.max_bid
    )


def name_suit_query(view: SeatView, context: DecisionContext) -> game_pb2.NameSuitQuery:
    """A NameSuitQuery: the declarer's hand as dealt, every bid made."""
    return game_pb2.NameSuitQuery(state=hand_state(view, context))


def moon_choice_query(
    view: SeatView, decision: Decision, context: DecisionContext
) -> game_pb2.MoonChoiceQuery:
    """A MoonChoiceQuery: the shooter's view of the finished hand, the moon's worth, and
    the engine's pick (004 'Shooting the moon')."""
    worth = view.rules.effective_moon_points
    if view.rules.sun_points and all(t.winner == view.seat for t in view.tricks):
        worth = view.rules.sun_points  # 002/004: the sun takes the moon's place
    return game_pb2.MoonChoiceQuery(
        state=hand_state(view, context),
        worth=worth,
        default_subtract=decision.default == "subtract",
    )


def pledge_query(view: SeatView, context: DecisionContext) -> game_pb2.PledgeQuery:
    """A PledgeQuery: the hand after the pass, the pledge's worth, the answers so far
    (004 'Scoring variants')."""
    return game_pb2.PledgeQuery(state=hand_state(view, context), points=view.rules.pledge_points)


def refuse_queen_query(view: SeatView, context: DecisionContext) -> game_pb2.RefuseQueenQuery:
    """A RefuseQueenQuery (Rickety Kate): the receiver's hand before the exchange and who
    passes it the QS."""
    offer = view.queen_offer
    assert offer is not None, "the receiver asked sees the offer"
    return game_pb2.RefuseQueenQuery(state=hand_state(view, context), giver=offer[0])


def replace_pass_query(
    view: SeatView, decision: Decision, context: DecisionContext
) -> game_pb2.ReplacePassQuery:
    """A ReplacePassQuery (Rickety Kate): the giver's hand and pass, the cards that may
    replace the refused QS, and the default."""
    return game_pb2.ReplacePassQuery(
        state=hand_state(view, context),
        legal=_set_texts(decision.legal),
        default_card=str(decision.default),
    )


def expose_query(
    view: SeatView, decision: Decision, context: DecisionContext
) -> game_pb2.ExposeQuery:
    """An ExposeQuery (Gong Zhu): the hand before play, the cards this seat may expose, the
    exposures made so far (in `state.exposures`)."""
    return game_pb2.ExposeQuery(
        state=hand_state(view, context), exposable=_set_texts(decision.legal)
    )


def call_pass_query(view: SeatView, context: DecisionContext) -> game_pb2.CallPassQuery:
    """A CallPassQuery: the dealer's hand as dealt, the passes it may call, and the
    directions a split's cards may take."""
    return game_pb2.CallPassQuery(
        state=hand_state(view, context),
        options=[_PASS_PB[d] for d in view.rules.pass_call_options],
        split_directions=[_PASS_PB[d] for d in view.rules.split_directions],
        counts=list(view.rules.pass_call_counts),
    )


def reveal_query(view: SeatView, context: DecisionContext) -> game_pb2.RevealCardQuery:
    """A RevealCardQuery: the hand after the pass, before anyone has turned a card."""
    return game_pb2.RevealCardQuery(state=hand_state(view, context))


def play_query(view: SeatView, context: DecisionContext) -> game_pb2.PlayCardQuery:
    """A PlayCardQuery built from scratch: the state, the trick in progress, the legal cards."""
    state = hand_state(view, context)
    state.current_trick.CopyFrom(current_trick_message(view))
    return game_pb2.PlayCardQuery(
        state=state, legal_cards=_mask_texts(view.legal.mask), legal_moves=_moves(view)
    )


def _moves(view: SeatView) -> list[game_pb2.PennyMove]:
    """Four-Penny Hearts: the legal (penny, card) pairs (none outside the multi-rounds)."""
    return [game_pb2.PennyMove(penny=p, card=_TEXT[c.index]) for p, c in view.legal_moves]


class PlayRequests:
    """One seat's play_card requests for a game: a single message, patched in place.

    Between two of a seat's plays little changes (one card left its hand, a trick or two
    ended, the trick in progress is new), yet building the whole HandState from the view,
    with copies into the query and the request, was most of the runner's own time per
    decision (patching instead took it from 55 to 32 µs, docs/benchmarks.md). So each
    field is compared with what it was last built from and rewritten only when that
    differs; whatever the views, the message equals `play_query` of the same view
    (tests/match/test_protocol.py checks it decision by decision). The message is
    reused: send it before asking for the next one.
    """

    def __init__(self) -> None:
        self._request = request = bot_pb2.PlayMatchRequest()
        self._query = request.play_card
        self._state = self._query.state
        self._rules: Rules | None = None
        self._reveals: tuple[object, ...] | None = None
        self._hand = -1  # the masks, tuples and values each field was built from
        self._scores: tuple[int, ...] | None = None
        self._lives: tuple[int, ...] = ()
        self._passed: tuple[Card, ...] | None = None
        self._received: tuple[Card, ...] | None = None
        self._tricks: tuple[Trick, ...] = ()
        self._clock: tuple[float, float] | None = None
        self._kitty: int | None = -1
        self._pennies: tuple[object, ...] | None = None
        self._extra: tuple[int, ...] = ()

    def __call__(self, view: SeatView, context: DecisionContext) -> bot_pb2.PlayMatchRequest:
        """The request for `view` (the sender sets its request_id); valid until the next call."""
        state = self._state
        if view.rules is not self._rules:  # per match, or per hand in Heartless
            self._rules = view.rules
            state.rules.CopyFrom(rules_message(view.rules))
        reveals = (
            view.reveals,
            view.scoring_suit,
            view.bids,
            view.declarer,
            view.pass_split,
            view.pledges,
            view.queen_offer,
            view.queen_refused,
            view.exposed,
        )
        if reveals != self._reveals:
            self._reveals = reveals
            _set_reveals(state, view)
            _set_auction(state, view)
            state.pass_split[:] = [_PASS_PB[d] for d in view.pass_split]
            state.pledges[:] = _pledge_numbers(view)
            _set_queen_offer(state, view)
            _set_exposures(state, view)
        state.seat = view.seat
        state.hand_number = context.hand_number
        state.dealer = view.dealer
        state.pass_direction = _PASS_PB[view.pass_direction]
        state.broken = view.hearts_broken
        state.pot = context.pot
        if context.lives is not self._lives:
            self._lives = context.lives
            state.lives[:] = context.lives
        hand = view.hand.mask | view.hand.twice << 64
        if hand != self._hand:
            self._hand = hand
            state.hand[:] = _set_texts(view.hand)
        if context.scores != self._scores:
            self._scores = context.scores
            state.scores[:] = context.scores
        if view.passed != self._passed:
            self._passed = view.passed
            state.passed[:] = _texts(view.passed)
        if view.received != self._received:
            self._received = view.received
            state.received[:] = _texts(sorted(view.received))
        self._update_tricks(regular_tricks(view), _players(view.rules))
        if view.stock_size is not None:  # Domino Hearts: small, and changes every play
            _set_domino(state, view)
        pennies = (view.multi_round, view.pennies, view.tricks)
        if pennies != self._pennies:
            self._pennies = pennies
            _set_pennies(state, view)
        clock = (context.per_decision, context.bank_remaining)
        if clock != self._clock:
            self._clock = clock
            state.clock.CopyFrom(clock_message(*clock))
        kitty = None if view.kitty is None else view.kitty.mask | view.kitty.twice << 64
        if kitty != self._kitty:
            self._kitty = kitty
            state.kitty[:] = [] if view.kitty is None else _set_texts(view.kitty)
        current = state.current_trick
        current.leader = view.current_trick[0][0] if view.current_trick else view.seat
        current.cards[:] = [_TEXT[card.index] for _, card in view.current_trick]
        if view.extra_card_seats or current.seats:  # 002's extra cards: the first trick
            players = _players(view.rules)
            current.seats[:] = [] if players is None else trick_seats(view.current_trick, players)
        if view.extra_card_seats != self._extra:
            self._extra = view.extra_card_seats
            state.extra_card_seats[:] = view.extra_card_seats
        self._query.legal_cards[:] = _mask_texts(view.legal.mask)
        if view.legal_moves or self._query.legal_moves:
            del self._query.legal_moves[:]
            self._query.legal_moves.extend(_moves(view))
        return self._request

    def _update_tricks(self, tricks: tuple[Trick, ...], players: int | None) -> None:
        # Finished tricks only accumulate within a hand (and a hand's views share their
        # Trick objects, so the prefix test is mostly identity checks): append the new ones.
        known = self._tricks
        messages = self._state.tricks
        if tricks[: len(known)] != known:
            del messages[:]
            known = ()
        for trick in tricks[len(known) :]:
            messages.add(
                leader=trick.leader,
                cards=[_TEXT[card.index] for _, card in trick.plays],
                winner=_winner(trick),
                seats=[] if players is None else trick_seats(trick.plays, players),
            )
        self._tricks = tricks


def pass_query(view: SeatView, count: int, context: DecisionContext) -> game_pb2.PassCardsQuery:
    """A PassCardsQuery, with each card's recipient (none for a center pass)."""
    n = view.rules.players
    direction = view.pass_direction
    recipients: Sequence[int]
    if direction is PassDirection.CENTER:
        recipients = ()
    elif direction is PassDirection.SCATTER:
        recipients = [(view.seat + 1 + i) % n for i in range(count)]
    elif direction is PassDirection.STAR:
        # 004 'Passing cards': one card each to the two seats nearest the far side.
        recipients = [(view.seat + n // 2) % n, (view.seat + (n + 1) // 2) % n]
    elif direction is PassDirection.SPLIT:
        # 003 'Simple variations': each card the way the dealer called it.
        recipients = [(view.seat + (d.offset(n) or 0)) % n for d in view.pass_split]
    else:
        offset = direction.offset(n)
        assert offset is not None
        recipients = [(view.seat + offset) % n] * count
    return game_pb2.PassCardsQuery(
        state=hand_state(view, context),
        direction=_PASS_PB[direction],
        count=count,
        recipients=recipients,
    )


def match_start(info: GameInfo, names: Sequence[str]) -> game_pb2.MatchStart:
    """The first message of a game's stream."""
    return game_pb2.MatchStart(
        match_id=f"{info.match_id}/{info.game_index}",
        rules=rules_message(info.rules),
        seat=info.seat,
        players=[game_pb2.Player(seat=s, name=name) for s, name in enumerate(names)],
        clock=clock_message(info.time.per_decision, info.time.bank),
    )


STATE_SHAPING_RULES: dict[str, str] = {
    "extra_cards_first_trick": "002's extra cards, a first trick of more cards than "
    "players, Trick.seats",
}
"""The rules added after hearts.v1's first release that change the shape of the state a
bot is sent, by Rules field name, with what changes. A bot reads one only if its match_start
answer lists it (`MatchStartAnswer.reads`); unlike a later query, its state cannot be
answered for."""


def unread_rules(rules: Rules, reads: Sequence[str]) -> list[str]:
    """The rules of `STATE_SHAPING_RULES` that `rules` plays and `reads` does not list.

    >>> from arena.engine import preset
    >>> unread_rules(preset("extra_cards"), []), unread_rules(preset("extra_cards"), [
    ...     "extra_cards_first_trick"]), unread_rules(preset("standard"), [])
    (['extra_cards_first_trick'], [], [])
    """
    return [name for name in STATE_SHAPING_RULES if getattr(rules, name) and name not in reads]


def unread_rules_detail(missing: Sequence[str]) -> str:
    """The `unsupported_rules` fault's words: what the bot does not read, and the way out."""
    named = "; ".join(f"{name} ({STATE_SHAPING_RULES[name]})" for name in missing)
    return (
        f"the bot does not read the state these rules send: {named}. Its match_start answer "
        "does not list them in `reads` (an SDK from before them): rebuild the bot on the "
        "current hearts-bot-sdk, or list them once the bot reads them (docs/protocol.md)"
    )


def hand_start(view: SeatView, context: DecisionContext) -> game_pb2.HandStart:
    """Notification: the deal, before passing."""
    message = game_pb2.HandStart(
        hand_number=context.hand_number,
        dealer=view.dealer,
        hand=_set_texts(view.hand),
        pass_direction=_PASS_PB[view.pass_direction],
        scores=list(context.scores),
    )
    if view.kitty is not None:
        message.kitty.extend(_set_texts(view.kitty))
    return message


def match_end(totals: Sequence[int], hands_played: int, aborted: bool) -> game_pb2.MatchEnd:
    """The last message of a game's stream."""
    reason = game_pb2.MATCH_END_REASON_ABORTED if aborted else game_pb2.MATCH_END_REASON_COMPLETED
    return game_pb2.MatchEnd(reason=reason, scores=list(totals), hands_played=hands_played)


# -- the one table: a decision kind's request and answer messages --------------------


def _read_card(text: str) -> Card | str:
    """A card answer: the engine's card, or the text as sent (the runner judges it)."""
    return _CARDS_BY_TEXT.get(text, text)


def _read_play(answer: game_pb2.PlayCardAnswer) -> Card | str | PennyMove:
    """A card (with its penny, when the bot names one in a Four-Penny multi-round; unset,
    the card goes to its default penny)."""
    played = _read_card(answer.card)
    if answer.HasField("penny"):
        return PennyMove(answer.penny, played)
    return played


def _read_direction(number: int) -> PassDirection | str:
    try:
        return PassDirection(pass_direction_from_proto(number).value)
    except (ProtocolError, ValueError):
        return f"pass direction number {number}"  # judged (and faulted) by the runner


def _read_call(
    answer: game_pb2.CallPassAnswer,
) -> PassDirection | str | tuple[PassDirection | str, ...] | CountedCall:
    """The dealer's call (003 'Simple variations'), or a split: a direction per card; with
    a count (004 'Passing cards'), a `CountedCall`."""
    called = _read_direction(answer.direction)
    if called is not PassDirection.SPLIT:
        if answer.HasField("count") and answer.count:
            return CountedCall(str(called), answer.count)
        return called
    return tuple(_read_direction(each) for each in answer.split)


def _read_bid(answer: game_pb2.BidAnswer) -> int | None:
    """Chips, or None for a pass (chips unset or 0)."""
    chips = answer.chips if answer.HasField("chips") else 0
    return chips or None


@dataclasses.dataclass(frozen=True, slots=True)
class Exchange:
    """How one decision kind is asked over `hearts.v1`: the `PlayMatchRequest` field that
    carries the query (the answer's field has the same name), the query's builder, and
    the reader that turns the answer into what `Seat.decide` returns (judged by the
    runner, which faults anything malformed)."""

    field: str
    query: Callable[[SeatView, Decision, DecisionContext], Message]
    read: Callable[[Any], Any]


def _no_query(view: SeatView, decision: Decision, context: DecisionContext) -> Message:
    raise LookupError(f"hearts.v1 has no query for a {decision.kind.value} decision")


UNASKED = Exchange("", _no_query, lambda answer: answer)
"""The exchange of a kind hearts.v1 has no query for (a room registered beyond
`DecisionKind`'s members): its field is no answer a bot lists, so no bot is asked it
(`GrpcSeat.answers`) and the runner applies the decision's default."""


class _Exchanges(dict[DecisionKind, Exchange]):
    def __missing__(self, kind: DecisionKind) -> Exchange:
        if kind in DecisionKind.__members__.values():
            raise KeyError(kind)
        return UNASKED


EXCHANGES: dict[DecisionKind, Exchange] = _Exchanges(
    {
        DecisionKind.PASS: Exchange(
            "pass_cards", lambda v, d, c: pass_query(v, d.size, c), lambda a: list(a.cards)
        ),
        DecisionKind.PLAY: Exchange("play_card", lambda v, d, c: play_query(v, c), _read_play),
        DecisionKind.PENNY_PLAY: Exchange(
            "play_card", lambda v, d, c: play_query(v, c), _read_play
        ),
        DecisionKind.CALL: Exchange("call_pass", lambda v, d, c: call_pass_query(v, c), _read_call),
        DecisionKind.BID: Exchange("bid", lambda v, d, c: bid_query(v, c), _read_bid),
        DecisionKind.NAMING: Exchange(
            "name_suit", lambda v, d, c: name_suit_query(v, c), lambda a: str(a.suit)
        ),
        DecisionKind.REVEAL: Exchange(
            "reveal_card", lambda v, d, c: reveal_query(v, c), lambda a: _read_card(a.card)
        ),
        DecisionKind.MOON_CHOICE: Exchange(
            "moon_choice",
            moon_choice_query,
            lambda a: "subtract" if a.subtract else "add",
        ),
        DecisionKind.PLEDGE: Exchange(
            "pledge", lambda v, d, c: pledge_query(v, c), lambda a: bool(a.pledge)
        ),
        DecisionKind.REFUSE_QUEEN: Exchange(
            "refuse_queen", lambda v, d, c: refuse_queen_query(v, c), lambda a: bool(a.refuse)
        ),
        DecisionKind.REPLACE_PASS: Exchange(
            "replace_pass", replace_pass_query, lambda a: _read_card(a.card)
        ),
        DecisionKind.EXPOSE: Exchange(
            "expose", expose_query, lambda a: [_read_card(text) for text in a.cards]
        ),
    }
)
"""Every decision kind the engine asks a seat (not DRAW nor PICKUP, the engine's own):
checked complete at import, so a new kind without its messages fails at once."""

_UNASKED = set(ENGINE_KINDS)
if set(EXCHANGES) | _UNASKED != set(DecisionKind):  # pragma: no cover - a new kind's reminder
    raise ImportError(
        f"arena.match.protocol.EXCHANGES lacks {set(DecisionKind) - set(EXCHANGES) - _UNASKED}"
    )


def request_for(decision: Decision, view: SeatView, context: DecisionContext) -> Any:
    """The `PlayMatchRequest` asking `decision` (built from scratch; `GrpcSeat` patches
    its play requests in place instead, `PlayRequests`)."""
    exchange = EXCHANGES[decision.kind]
    query: Any = exchange.query(view, decision, context)
    return bot_pb2.PlayMatchRequest(**{exchange.field: query})
