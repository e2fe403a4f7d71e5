"""A person's seat: the decisions a person answers in the browser, asked through a desk.

`HumanSeat` is a `Seat` (arena/match/seats.py) whose answers come from a person: every
decision is written to the seat's `Desk` as a prompt (the seat's own view, the legal
answers, each kind's words from its room) and the seat waits, under the clock the runner
gives it, for the desk to hand back the person's answer. The worker's desk is the store
(arena/store/people.py: a row per moment, the site fills the answer from the person's
POST); a test's desk may be a list. When the clock runs out the seat raises a timeout
fault and the runner plays the fault policy's default, as for any bot.

The person is asked every kind the rules have, through one loop over the decision's shape,
never a branch per kind (issue 34, item 1):

- `legal` a `CardSet` (a pass, a play, a reveal, a replacement, an exposure): the person
  picks cards among those, exactly `size` of them when the decision has a size, one when
  its default is one card, any number otherwise;
- any other `legal`: the options it lists (a range of chips given as (lowest, highest) is
  every count between), and the default among them; each shown with its room's words and
  sent back as its room's codec writes it (`Room.encode`, read again by `Room.decode`).

What the seat tells the desk comes only from what the runner tells a seat (`SeatView`, the
finished tricks, the scores): another seat's hidden cards never reach it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, Protocol

from arena.engine import Card, CardSet, Rules, SeatView, Trick
from arena.engine.decisions import Decision, DecisionKind
from arena.engine.phases import room_of
from arena.engine.variants.penny import PennyMove

from .faults import FaultKind, SeatFault
from .seats import DecisionContext, GameInfo
from .sentences import pretty

POLL_SECONDS = 0.2
"""How often a waiting seat asks its desk for the person's answer."""


class Desk(Protocol):
    """Where a person's seat writes what the person sees and reads what they answered."""

    def tell(self, kind: str, payload: dict[str, Any]) -> int:
        """Record a moment of the game (a deal, a trick, a hand's end); its number."""
        ...

    def ask(self, payload: dict[str, Any], deadline: datetime) -> int:
        """Record a decision asked of the person, to be answered by `deadline`; its number."""
        ...

    def answer(self, number: int) -> tuple[bool, Any]:
        """(True, the answer) once the person answered moment `number`, else (False, None)."""
        ...


class AnswerError(ValueError):
    """An answer the prompt does not offer; the message says what was wrong."""


def jsonable(value: Any) -> Any:
    """A view's value as JSON: cards as their texts, enums as their values, the rules as
    their name, dataclasses and named tuples as objects.

    >>> jsonable((Card.from_str("QS"), None, [1, True]))
    ['QS', None, [1, True]]
    """
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, CardSet):
        return [str(card) for card in value]
    if isinstance(value, Rules):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "_asdict"):
        return {key: jsonable(item) for key, item in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return [jsonable(item) for item in value]
    return str(value)


def options(decision: Decision) -> list[Any]:
    """The answers a decision whose `legal` is not a set of cards offers, in the engine's
    form: what `legal` lists, a range of chips (lowest, highest) as every count between,
    and the default (a legal answer, docs/decisions/0006) first when not among them.

    >>> options(Decision(DecisionKind.BID, 1, (2, 4), None))
    [None, 2, 3, 4]
    >>> options(Decision(DecisionKind.PLEDGE, 0, (False, True), False))
    [False, True]
    """
    values = list(decision.legal)
    default = decision.default
    if (
        len(values) == 2
        and all(type(v) is int for v in values)
        and values[0] <= values[1]
        and default not in values
    ):
        values = list(range(values[0], values[1] + 1))
    if default not in values:
        values.insert(0, default)
    return values


def prompt(decision: Decision, view: SeatView, seconds: float) -> dict[str, Any]:
    """What the person is shown for `decision`: its kind, the legal answers (cards to pick
    among, or options with their words and codec values) and the seconds they have."""
    kind, seat = decision.kind, decision.seat
    room = room_of(kind)
    asked: dict[str, Any] = {
        "kind": kind.value,
        "seat": seat,
        "seconds": round(seconds, 3),
        "trick": decision.trick,
    }
    if isinstance(decision.legal, CardSet):
        cards = [str(card) for card in decision.legal]
        if decision.size:
            low = high = decision.size
        elif isinstance(decision.default, Card):
            low = high = 1
        else:
            low, high = 0, len(cards)
        asked["cards"] = cards
        asked["pick"] = [low, high]
        asked["default_words"] = _words(kind, seat, decision.default)
        return asked
    asked["choices"] = [
        {"value": room.encode(kind, value), "words": _words(kind, seat, value)}
        for value in options(decision)
    ]
    return asked


def _words(kind: DecisionKind, seat: int, value: Any) -> str:
    room = room_of(kind)
    try:
        return room.words(kind, seat, room.encode(kind, value), pretty, you=True)
    except (ValueError, KeyError, TypeError, IndexError, NotImplementedError):
        return str(room.encode(kind, value))


def check_answer(asked: Mapping[str, Any], answer: Any) -> dict[str, Any]:
    """The person's `answer` to prompt `asked` in the desk's form ({"cards": [...]} or
    {"choice": i}) if the prompt offers it. Raises AnswerError otherwise (the site refuses
    it; the worker's judge would fault it)."""
    if not isinstance(answer, Mapping):
        raise AnswerError("an answer is an object with cards or a choice")
    if "cards" in asked:
        cards = answer.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise AnswerError("this decision is answered with cards")
        low, high = asked["pick"]
        if len(set(cards)) != len(cards):
            raise AnswerError("a card named twice")
        if not low <= len(cards) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            raise AnswerError(f"pick {wanted} cards, not {len(cards)}")
        offered = set(asked["cards"])
        refused = [c for c in cards if c not in offered]
        if refused:
            raise AnswerError(f"{' '.join(refused)}: not a legal card now")
        return {"cards": cards}
    choice = answer.get("choice")
    if type(choice) is not int or not 0 <= choice < len(asked["choices"]):
        raise AnswerError("this decision is answered by one of its choices")
    return {"choice": choice}


def answer_value(decision: Decision, asked: Mapping[str, Any], answer: Mapping[str, Any]) -> Any:
    """The engine's form of a checked answer: the cards (one card when one is picked for a
    one-card decision), or the chosen option read back by its room's codec."""
    if "cards" in answer:
        cards = tuple(Card.from_str(text) for text in answer["cards"])
        if isinstance(decision.default, Card) and len(cards) == 1:
            return cards[0]
        return cards
    encoded = asked["choices"][answer["choice"]]["value"]
    value = room_of(decision.kind).decode(decision.kind, encoded)
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and type(value[0]) is int
        and isinstance(value[1], Card)
    ):
        # A (penny, card) move read back as a plain pair: seats answer it as the
        # `PennyMove` the engine's judge reads (arena/match/seats.py).
        return PennyMove(*value)
    return value


class HumanSeat:
    """A person at the table, answering through `desk` (see the module's docstring)."""

    def __init__(
        self,
        desk: Desk,
        label: str,
        *,
        poll: float = POLL_SECONDS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.desk = desk
        self.label = label
        self.poll = poll
        self._now = now
        self._shown: dict[str, Any] = {}
        self._scores: list[int] = []
        self._ended = False
        self._game = 0
        self._hand = 0
        """The game and hand the moments belong to: each moment says them, so the page can
        tell which of the match's live events (a bot's card played) belong to the hand it
        shows (web/table_live.py)."""

    def answers(self, kind: DecisionKind) -> bool:
        """A person is asked every kind the rules have."""
        return True

    async def start_game(self, info: GameInfo) -> None:
        """Tell the desk who sits where and under which rules."""
        self._ended = False
        self._game = info.game_index
        self._scores = [0] * info.rules.players
        self.desk.tell(
            "game",
            {
                "seat": info.seat,
                "rules": info.rules.name,
                "players": info.rules.players,
                "game": info.game_index,
                "games": info.games,
                "view": None,
                "scores": self._scores,
            },
        )

    async def decide(
        self, decision: Decision, view: SeatView, context: DecisionContext, timeout: float
    ) -> Any:
        """Ask the person through the desk and wait for the answer until `timeout` runs
        out (raises SeatFault TIMEOUT then; the runner plays the default)."""
        self._see(view, context)
        asked = prompt(decision, view, timeout)
        started = self._now()
        deadline = datetime.now(UTC) + timedelta(seconds=timeout)
        number = self.desk.ask(
            {
                "view": self._shown,
                "scores": list(context.scores),
                "ask": asked,
                "game": self._game,
                "hand": self._hand,
            },
            deadline,
        )
        while True:
            answered, answer = self.desk.answer(number)
            if answered:
                break
            left = timeout - (self._now() - started)
            if left <= 0:
                raise SeatFault(FaultKind.TIMEOUT, f"no answer within {timeout:g} s")
            await asyncio.sleep(min(self.poll, left))
        try:
            checked = check_answer(asked, answer)
        except AnswerError as error:
            raise SeatFault(FaultKind.MALFORMED, str(error)) from None
        return answer_value(decision, asked, checked)

    def _see(self, view: SeatView, context: DecisionContext) -> None:
        self._shown = jsonable(view)
        self._scores = list(context.scores)
        self._hand = context.hand_number

    async def hand_started(self, view: SeatView, context: DecisionContext) -> None:
        """Tell the desk the seat's cards as dealt."""
        self._see(view, context)
        self.desk.tell(
            "deal",
            {
                "view": self._shown,
                "scores": self._scores,
                "game": self._game,
                "hand": context.hand_number,
            },
        )

    async def trick_ended(self, hand_number: int, trick_number: int, trick: Trick) -> None:
        """Tell the desk the finished trick (every card in it is face up)."""
        done = jsonable(trick)
        played = {card for _, card in done["plays"]}
        self._shown = {
            **self._shown,
            "hand": [card for card in self._shown.get("hand", []) if card not in played],
            "current_trick": [],
            "tricks": [*self._shown.get("tricks", []), done],
        }
        self.desk.tell(
            "trick",
            {
                "view": self._shown,
                "scores": self._scores,
                "trick": done,
                "trick_number": trick_number,
                "game": self._game,
                "hand": hand_number,
            },
        )

    async def hand_ended(
        self, hand_number: int, points: tuple[int, ...], totals: tuple[int, ...]
    ) -> None:
        """Tell the desk the hand's points and the totals."""
        self._scores = list(totals)
        self.desk.tell(
            "hand_end",
            {
                "view": self._shown,
                "scores": self._scores,
                "game": self._game,
                "hand": hand_number,
                "points": list(points),
            },
        )

    async def end_game(self, totals: tuple[int, ...], aborted: bool) -> None:
        """Tell the desk the game is over."""
        self._ended = True
        self.desk.tell("end", {"view": self._shown, "scores": list(totals), "aborted": aborted})

    async def close(self) -> None:
        """Tell the desk the seat is out, when the runner closes it before the game's end
        (the fault policy's most faults: the runner plays its defaults from now on)."""
        if not self._ended:
            self._ended = True
            self.desk.tell("out", {"view": self._shown, "scores": self._scores})

    def log_excerpt(self) -> str:
        """A person writes no log."""
        return ""

    def take_note(self) -> str:
        """A person attaches no notes."""
        return ""
