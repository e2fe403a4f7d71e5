"""One PlayMatch stream's state: checks the order of messages, converts them, calls the bot.

Kept apart from gRPC so it can be tested and reused: `MatchSession.handle` takes one
request and returns the answer (or None for a notification), or raises `StreamError`
carrying the gRPC status code the server ends the stream with.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import TypeVar

import grpc

from .bot import Bot, take_note
from .cards import Card, is_card, parse_card
from .convert import (
    ProtocolError,
    bid_view_from_proto,
    call_pass_view_from_proto,
    domino_trick_ended_from_proto,
    expose_view_from_proto,
    hand_ended_from_proto,
    hand_started_from_proto,
    match_ended_from_proto,
    match_info_from_proto,
    moon_choice_view_from_proto,
    name_suit_view_from_proto,
    pass_direction_to_proto,
    pass_view_from_proto,
    pledge_view_from_proto,
    refuse_queen_view_from_proto,
    replace_pass_view_from_proto,
    reveal_view_from_proto,
    trick_ended_from_proto,
)
from .proto.hearts.v1 import bot_pb2, game_pb2
from .querycache import QueryCache
from .rules import PassDirection
from .views import MatchInfo, PlayView

_T = TypeVar("_T")
_SUIT_NAMES = frozenset({"C", "D", "S", "H", "CLUBS", "DIAMONDS", "SPADES", "HEARTS"})
_WARNINGS_PER_MATCH = 20  # a bot's own log lines stay readable: warnings are capped
_DECISIONS = frozenset(
    {
        "play_card",
        "play_penny",
        "pass_cards",
        "call_pass",
        "bid",
        "name_suit",
        "reveal_card",
        "choose_moon",
        "pledge",
        "refuse_queen",
        "replace_pass",
        "expose",
    }
)
"""The bot's methods that decide an answer; the answer carries their note (`Bot.note`)."""
LATER_QUERIES: tuple[str, ...] = ("moon_choice", "pledge", "refuse_queen", "replace_pass", "expose")
"""The queries added after hearts.v1's first release that this SDK dispatches, listed in
the match_start answer (`MatchStartAnswer.answers`): the arena asks them of a bot only when
listed, so one built on an older SDK is answered for instead of sent what it cannot read."""
READS: tuple[str, ...] = ("extra_cards_first_trick",)
"""The rules added after hearts.v1's first release that change the shape of the state sent
(by their Rules field names) and that this SDK's views read: a first trick of more cards
than players (`views.play_order`). Listed in the match_start answer
(`MatchStartAnswer.reads`): the arena keeps a bot that does not list a rule out of the
matches that play it, before its first card, rather than send it a state it refuses."""


class StreamError(Exception):
    """Ends the stream with a gRPC status: `code` and a message naming the problem."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details


class MalformedMessage:
    """Stands in for a request whose bytes did not parse (answered INVALID_ARGUMENT)."""

    def __init__(self, error: Exception) -> None:
        self.error = error


class MatchSession:
    """Handles the messages of one PlayMatch stream, in order.

    Raises StreamError: INVALID_ARGUMENT for a malformed message, FAILED_PRECONDITION for
    one out of order (a query before match_start, a second match_start, a request_id
    that does not increase, anything after match_end), INTERNAL when the bot raises or
    answers with something that is not a card.
    """

    def __init__(self, bot: Bot, lock: threading.Lock | None = None) -> None:
        self.bot = bot
        self.lock = lock or threading.Lock()
        self.match: MatchInfo | None = None
        self.last_request_id = 0
        self.ended = False
        self.warnings = 0
        self.queries = QueryCache()  # the stream's play queries repeat most of a hand
        self.note = ""  # the note the bot made during the last decision (Bot.note)

    def handle(
        self, request: bot_pb2.PlayMatchRequest | MalformedMessage
    ) -> bot_pb2.PlayMatchResponse | None:
        """The answer to `request` (None for a notification); raises StreamError."""
        if isinstance(request, MalformedMessage):
            raise StreamError(
                grpc.StatusCode.INVALID_ARGUMENT, f"malformed PlayMatchRequest: {request.error}"
            )
        kind = request.WhichOneof("kind")
        if kind is None:
            raise StreamError(grpc.StatusCode.INVALID_ARGUMENT, "PlayMatchRequest.kind is not set")
        self._check_order(request, kind)
        try:
            response = self._dispatch(request, kind)
        except ProtocolError as error:
            raise StreamError(grpc.StatusCode.INVALID_ARGUMENT, str(error)) from None
        if self.note and response is not None:
            response.note = self.note
        return response

    def _check_order(self, request: bot_pb2.PlayMatchRequest, kind: str) -> None:
        failed = grpc.StatusCode.FAILED_PRECONDITION
        if request.request_id == 0:
            raise StreamError(grpc.StatusCode.INVALID_ARGUMENT, "request_id is not set (0)")
        if request.request_id <= self.last_request_id:
            raise StreamError(
                failed,
                f"request_id {request.request_id} does not increase "
                f"(the previous message had {self.last_request_id})",
            )
        if self.ended:
            raise StreamError(failed, f"{kind} after match_end: the match is over")
        if kind == "match_start" and self.match is not None:
            raise StreamError(failed, "a second match_start on the same stream")
        if kind != "match_start" and self.match is None:
            raise StreamError(failed, f"{kind} before match_start: the stream must begin with it")
        self.last_request_id = request.request_id

    def _dispatch(
        self, request: bot_pb2.PlayMatchRequest, kind: str
    ) -> bot_pb2.PlayMatchResponse | None:
        request_id = request.request_id
        if kind == "match_start":
            match = match_info_from_proto(request.match_start)
            self._call(lambda: self.bot.on_match_start(match), "on_match_start")
            self.match = match
            answer = game_pb2.MatchStartAnswer(
                wants_notifications=self.bot.wants_notifications,
                answers=LATER_QUERIES,
                reads=READS,
            )
            return bot_pb2.PlayMatchResponse(request_id=request_id, match_start=answer)
        assert self.match is not None
        players = self.match.rules.players
        two_packs = self.match.rules.cancellation  # Cancellation Hearts: a card may be twice
        if kind == "play_card":
            view = self.queries.play_view(request.play_card)
            self._check_seat(view.seat)
            if view.legal_moves:  # Four-Penny Hearts: a multi-round, several tricks open
                return self._play_penny(request_id, view)
            card = self._card(self._call(lambda: self.bot.play_card(view), "play_card"))
            if card not in view.legal:
                self._warn(f"play_card returned {card}, which is not in view.legal")
            response = bot_pb2.PlayMatchResponse(request_id=request_id)
            response.play_card.card = card  # set in place: no answer message to copy in
            return response
        if kind == "pass_cards":
            pview = pass_view_from_proto(request.pass_cards)
            self._check_seat(pview.seat)
            cards = self._cards(self._call(lambda: self.bot.pass_cards(pview), "pass_cards"))
            if not _passable(cards, pview.count, pview.hand, two_packs):
                self._warn(
                    f"pass_cards returned {' '.join(cards) or 'nothing'}: expected "
                    f"{pview.count} distinct cards from view.hand"
                    + (" (a card twice only if held twice)" if two_packs else "")
                )
            return bot_pb2.PlayMatchResponse(
                request_id=request_id, pass_cards=game_pb2.PassCardsAnswer(cards=cards)
            )
        if kind == "call_pass":
            cview = call_pass_view_from_proto(request.call_pass)
            self._check_seat(cview.seat)
            called = self._call(lambda: self.bot.call_pass(cview), "call_pass")
            response = bot_pb2.PlayMatchResponse(request_id=request_id)
            if (
                isinstance(called, (list, tuple))
                and len(called) == 2
                and isinstance(called[1], int)
                and not isinstance(called[1], bool)
            ):
                # 004 'Passing cards': where, and how many.
                direction = self._called_direction(called[0])
                count = called[1]
                if direction not in cview.options:
                    self._warn(f"call_pass returned {direction.value}, not one of view.options")
                if count not in (cview.counts or (cview.rules.pass_count,)):
                    self._warn(f"call_pass returned {count} cards, not one of view.counts")
                if count < 0:
                    raise StreamError(grpc.StatusCode.INTERNAL, f"call_pass returned {count} cards")
                response.call_pass.direction = pass_direction_to_proto(direction.value)
                response.call_pass.count = min(count, 2**32 - 1)
                return response
            if isinstance(called, (list, tuple)):
                # A split: one direction per passed card (003 'Simple variations').
                split = [self._called_direction(d) for d in called]
                if not cview.split_directions:
                    self._warn("call_pass returned a split, but the rules allow none")
                elif any(d not in cview.split_directions for d in split):
                    self._warn("call_pass returned a split outside view.split_directions")
                response.call_pass.direction = pass_direction_to_proto(PassDirection.SPLIT)
                response.call_pass.split[:] = [pass_direction_to_proto(d.value) for d in split]
                return response
            direction = self._called_direction(called)
            if direction not in cview.options:
                self._warn(f"call_pass returned {direction.value}, not one of view.options")
            response.call_pass.direction = pass_direction_to_proto(direction.value)
            return response
        if kind == "bid":
            return self._bid(request)
        if kind == "name_suit":
            return self._name_suit(request)
        if kind == "moon_choice":
            return self._moon_choice(request)
        if kind == "pledge":
            return self._pledge(request)
        if kind == "refuse_queen":
            return self._refuse_queen(request)
        if kind == "replace_pass":
            return self._replace_pass(request)
        if kind == "expose":
            return self._expose(request)
        if kind == "reveal_card":
            rview = reveal_view_from_proto(request.reveal_card)
            self._check_seat(rview.seat)
            shown = self._card(self._call(lambda: self.bot.reveal_card(rview), "reveal_card"))
            if shown not in rview.hand:
                self._warn(f"reveal_card returned {shown}, which is not in view.hand")
            response = bot_pb2.PlayMatchResponse(request_id=request_id)
            response.reveal_card.card = shown
            return response
        if kind == "hand_start":
            started = hand_started_from_proto(request.hand_start, players, two_packs)
            self._call(lambda: self.bot.on_hand_start(started), "on_hand_start")
        elif kind == "trick_end":
            trick = trick_ended_from_proto(
                request.trick_end,
                players,
                two_packs,
                self.match.rules.enfle,
                self.match.rules.extra_cards,
            )
            self._call(lambda: self.bot.on_trick_end(trick), "on_trick_end")
        elif kind == "domino_trick_end":
            trick = domino_trick_ended_from_proto(request.domino_trick_end, players)
            self._call(lambda: self.bot.on_trick_end(trick), "on_trick_end")
        elif kind == "hand_end":
            hand = hand_ended_from_proto(request.hand_end, players, two_packs)
            self._call(lambda: self.bot.on_hand_end(hand), "on_hand_end")
        elif kind == "match_end":
            ended = match_ended_from_proto(request.match_end, players)
            self.ended = True
            self._call(lambda: self.bot.on_match_end(ended), "on_match_end")
        return None

    @staticmethod
    def _called_direction(called: object) -> PassDirection:
        """One direction of a call, or the stream error that names the bot's mistake."""
        try:
            return PassDirection(called)  # type: ignore[arg-type]  # whatever the bot returned
        except ValueError:
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"call_pass returned {called!r}, not a pass direction like 'left'",
            ) from None

    def _play_penny(self, request_id: int, view: PlayView) -> bot_pb2.PlayMatchResponse:
        """Four-Penny Hearts: `Bot.play_penny`'s (penny, card); a penny of None is left
        unset, so the arena plays the card to the lowest penny where it is legal."""
        answer = self._call(lambda: self.bot.play_penny(view), "play_penny")
        if not isinstance(answer, tuple) or len(answer) != 2:
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"play_penny returned {answer!r}, not a (penny, card) pair",
            )
        penny, card = answer[0], self._card(answer[1])
        if penny is not None and (not isinstance(penny, int) or isinstance(penny, bool)):
            raise StreamError(
                grpc.StatusCode.INTERNAL, f"play_penny returned penny {penny!r}, not an int"
            )
        if (penny if penny is not None else view.default_penny(card), card) not in view.legal_moves:
            self._warn(f"play_penny returned {penny}:{card}, which is not in view.legal_moves")
        response = bot_pb2.PlayMatchResponse(request_id=request_id)
        response.play_card.card = card
        if penny is not None and penny >= 0:
            response.play_card.penny = penny
        return response

    def _bid(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """Auction Hearts: the bot's bid (None, or 0, passes)."""
        view = bid_view_from_proto(request.bid)
        self._check_seat(view.seat)
        chips = self._call(lambda: self.bot.bid(view), "bid")
        if chips is not None and (not isinstance(chips, int) or isinstance(chips, bool)):
            raise StreamError(
                grpc.StatusCode.INTERNAL, f"bid returned {chips!r}, not a number of chips or None"
            )
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.bid.SetInParent()
        if chips:
            if not view.min_bid <= chips <= view.max_bid:
                self._warn(f"bid returned {chips}, outside {view.min_bid}..{view.max_bid}")
            if chips < 0:
                raise StreamError(
                    grpc.StatusCode.INTERNAL, f"bid returned {chips}: a bid cannot be negative"
                )
            response.bid.chips = min(chips, 2**32 - 1)
        return response

    def _moon_choice(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """The shooter's choice (004 'Shooting the moon'): "add" or "subtract"."""
        view = moon_choice_view_from_proto(request.moon_choice)
        self._check_seat(view.seat)
        chosen = self._call(lambda: self.bot.choose_moon(view), "choose_moon")
        text = chosen.strip().lower() if isinstance(chosen, str) else None
        if text not in ("add", "subtract"):
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"choose_moon returned {chosen!r}, not 'add' or 'subtract'",
            )
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.moon_choice.subtract = text == "subtract"
        return response

    def _pledge(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """The no-hearts pledge (004 'Scoring variants'): True or False."""
        view = pledge_view_from_proto(request.pledge)
        self._check_seat(view.seat)
        pledged = _true_or_false(self._call(lambda: self.bot.pledge(view), "pledge"), "pledge")
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.pledge.pledge = pledged
        return response

    def _refuse_queen(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """Rickety Kate's refusal of the passed QS: True or False."""
        view = refuse_queen_view_from_proto(request.refuse_queen)
        self._check_seat(view.seat)
        refused = _true_or_false(
            self._call(lambda: self.bot.refuse_queen(view), "refuse_queen"), "refuse_queen"
        )
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.refuse_queen.refuse = refused
        return response

    def _replace_pass(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """Rickety Kate: the card passed in the refused QS's place (the arena judges it)."""
        view = replace_pass_view_from_proto(request.replace_pass)
        self._check_seat(view.seat)
        card = self._card(self._call(lambda: self.bot.replace_pass(view), "replace_pass"))
        if card not in view.legal:
            self._warn(f"replace_pass returned {card}, which is not in view.legal")
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.replace_pass.card = card
        return response

    def _expose(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """Gong Zhu's exposed cards: any of `view.exposable`, sent as card texts."""
        view = expose_view_from_proto(request.expose)
        self._check_seat(view.seat)
        chosen = self._call(lambda: self.bot.expose(view), "expose")
        if isinstance(chosen, (str, bytes)):
            chosen = [chosen]
        cards = [self._card(card) for card in chosen]
        wrong = [card for card in cards if card not in view.exposable]
        if wrong:
            self._warn(f"expose returned {' '.join(wrong)}, not in view.exposable")
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.expose.cards[:] = cards
        return response

    def _name_suit(self, request: bot_pb2.PlayMatchRequest) -> bot_pb2.PlayMatchResponse:
        """Auction Hearts: the declarer's suit, sent as its letter."""
        view = name_suit_view_from_proto(request.name_suit)
        self._check_seat(view.seat)
        named = self._call(lambda: self.bot.name_suit(view), "name_suit")
        text = named.strip().upper() if isinstance(named, str) else None
        if text not in _SUIT_NAMES:
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"name_suit returned {named!r}, not a suit like 'H' or 'hearts'",
            )
        response = bot_pb2.PlayMatchResponse(request_id=request.request_id)
        response.name_suit.suit = text[0]
        return response

    def _check_seat(self, seat: int) -> None:
        assert self.match is not None
        if seat != self.match.seat:
            raise StreamError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"state.seat is {seat}, but this bot sits in seat {self.match.seat}",
            )

    def _call(self, function: Callable[[], _T], method: str) -> _T:
        """Call the bot under the lock; a decision's notes are taken under it too (a bot
        serving several streams keeps each decision's notes apart). Notes made in a hook
        are discarded."""
        with self.lock:
            try:
                if method in _DECISIONS:
                    take_note(self.bot)  # anything noted outside a decision
                    answer = function()
                    self.note = take_note(self.bot)
                    return answer
                self.note = ""
                answer = function()
                take_note(self.bot)
                return answer
            except Exception as error:
                traceback.print_exc(file=sys.stderr)
                raise StreamError(
                    grpc.StatusCode.INTERNAL,
                    f"the bot's {method} raised {type(error).__name__}: {error}",
                ) from None

    def _card(self, answer: object) -> Card:
        """The canonical text of a card the bot answered (any object whose text is a card,
        such as "qs" or a card class of the bot's own, is accepted)."""
        if is_card(answer):
            return str(answer)
        try:
            if answer is None:
                raise ValueError("None")
            return parse_card(str(answer))
        except ValueError:
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"the bot answered {answer!r}, which is not a card (expected text like 'QS')",
            ) from None

    def _cards(self, answer: object) -> list[Card]:
        if isinstance(answer, str) or not isinstance(answer, Sequence | set | frozenset):
            raise StreamError(
                grpc.StatusCode.INTERNAL,
                f"pass_cards returned {answer!r}, expected a list of cards like ['QS', 'AH']",
            )
        return [self._card(card) for card in answer]

    def _warn(self, text: str) -> None:
        self.warnings += 1
        if self.warnings <= _WARNINGS_PER_MATCH:
            print(f"hearts-bot: warning: {text}", file=sys.stderr, flush=True)


def _passable(cards: Sequence[str], count: int, hand: Sequence[str], two_packs: bool) -> bool:
    """Whether `cards` is a pass of `count` cards from `hand`: distinct cards, or with two
    packs (Cancellation Hearts) no card more often than the hand holds it."""
    if len(cards) != count:
        return False
    if not two_packs:
        return len(set(cards)) == count and set(cards) <= set(hand)
    return all(cards.count(card) <= hand.count(card) for card in cards)


def _true_or_false(answer: object, method: str) -> bool:
    """A yes-or-no answer (`Bot.pledge`, `Bot.refuse_queen`) as the bool it must be; a bot
    error otherwise (INTERNAL, naming the method and what it returned)."""
    if not isinstance(answer, bool):
        raise StreamError(
            grpc.StatusCode.INTERNAL, f"{method} returned {answer!r}, not True or False"
        )
    return answer
