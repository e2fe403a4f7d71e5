"""`QueryCache`: one stream's play queries turned into `PlayView`s, reusing what repeats.

Every play query carries the whole hand (bots are stateless by design), so within a hand
a bot is sent the same finished tricks, rules and clock again and again, and turning each
repeated field into checked Python values was most of the SDK's own time per decision
(docs/decisions/0002). This cache keeps, per stream, the checked `Trick` of every finished
trick and the `Clock` of every clock it has seen, keyed by their wire bytes, and checks
the rest of a query in a few set operations.

It accepts exactly the queries `convert.play_view_from_proto` accepts and builds the same
view: whatever it does not take on its fast path (a Heartless hand, anything malformed)
goes to `play_view_from_proto`, which names the problem.

>>> from hearts_bot.proto.hearts.v1 import game_pb2
>>> from hearts_bot.convert import rules_to_proto, play_view_from_proto
>>> from hearts_bot.rules import RulesView
>>> query = game_pb2.PlayCardQuery(legal_cards=["2C"])
>>> query.state.rules.CopyFrom(rules_to_proto(RulesView()))
>>> query.state.hand[:] = ["2C", "QS"]
>>> query.state.scores[:] = [0, 0, 0, 0]
>>> query.state.pass_direction = 1
>>> query.state.current_trick.leader = 0
>>> QueryCache().play_view(query) == play_view_from_proto(query)
True
"""

from __future__ import annotations

from typing import Any

from .cards import DECK
from .convert import _PASS, _SEATS, _clock, play_view_from_proto, rules_view_from_proto
from .proto.hearts.v1 import game_pb2
from .views import Clock, PlayView, Trick

_CARDS = frozenset(DECK)
_FAST_FIELDS = frozenset(
    {
        "rules",
        "seat",
        "hand_number",
        "dealer",
        "hand",
        "scores",
        "pass_direction",
        "passed",
        "received",
        "tricks",
        "current_trick",
        "broken",
        "clock",
        "kitty",
        "kitty_taker",
        "pot",
        "lives",
    }
)
"""The HandState fields the fast path reads. A query holding any other (Heartless's
reveals, an auction, a split pass, the pledges, the extra cards, the refused QS, the
exposures, Domino's table, the pennies, a field added later) goes to the full conversion:
new fields cannot be dropped here by omission, as the pledges and the exposures once were."""
_OTHER_FIELDS = [
    field for field in game_pb2.HandState.DESCRIPTOR.fields if field.name not in _FAST_FIELDS
]
# Every other HandState field, from the message's own descriptor, split by how its being
# set is seen: HasField for the fields with presence (messages, `optional`), a non-empty
# value for the others (repeated fields, plain scalars).
_OTHER_PRESENT = tuple(field.name for field in _OTHER_FIELDS if field.has_presence)
_OTHER_SET = tuple(field.name for field in _OTHER_FIELDS if not field.has_presence)
_MAX_ENTRIES = 1024  # a match has at most a few hundred distinct tricks; a safety cap


class QueryCache:
    """Per-stream memory for converting play queries (`play_view`)."""

    __slots__ = ("_clocks", "_players", "_tricks")

    def __init__(self) -> None:
        self._tricks: dict[bytes, Trick] = {}
        self._clocks: dict[bytes, Clock] = {}
        self._players = 0

    def play_view(self, query: game_pb2.PlayCardQuery) -> PlayView:
        """The validated `PlayView` of a PlayCardQuery; raises ProtocolError, as
        `play_view_from_proto` does."""
        view = self._fast_play_view(query)
        return view if view is not None else play_view_from_proto(query)

    def _fast_play_view(self, query: game_pb2.PlayCardQuery) -> PlayView | None:
        """The view, or None for anything this path does not check itself."""
        if not query.HasField("state"):
            return None
        state = query.state
        if not state.HasField("rules") or not state.HasField("current_trick"):
            return None
        has: Any = state.HasField  # field names read from the descriptor, not literals
        if any(has(name) for name in _OTHER_PRESENT) or any(
            getattr(state, name) for name in _OTHER_SET
        ):
            return None  # a field this path does not read: the full path reads and checks it
        if query.legal_moves:
            return None  # Four-Penny Hearts: the full path reads the pennies
        rules = rules_view_from_proto(state.rules, "play_card.state.rules")  # cached
        if rules.cancellation:
            return None  # two packs: cards twice, tricks nobody won; the full path checks them
        if rules.extra_cards_first_trick:
            return None  # 002's extra cards: the full path checks their seats and the first trick
        players = rules.players
        seat = state.seat
        if seat >= players or state.dealer >= players:
            return None
        kitty_taker = state.kitty_taker if state.HasField("kitty_taker") else None
        if kitty_taker is not None and kitty_taker >= players:
            return None
        direction = _PASS.get(state.pass_direction)
        scores = tuple(state.scores)
        lives = tuple(state.lives)  # Danger Hearts; empty otherwise
        if direction is None or len(scores) != players or (lives and len(lives) != players):
            return None
        current = state.current_trick
        leader = current.leader
        played = tuple(current.cards)
        if (
            leader >= players
            or len(played) >= players
            or current.HasField("winner")
            or current.seats
            or (leader + len(played)) % players != seat
        ):
            return None
        hand = tuple(state.hand)
        legal = tuple(query.legal_cards)
        passed = tuple(state.passed)
        received = tuple(state.received)
        kitty = tuple(state.kitty)
        if not legal or not _CARDS.issuperset(hand + played + legal + passed + received + kitty):
            return None
        tricks = self._finished_tricks(state, players)
        if tricks is None:
            return None
        # Held and played cards all differ (this covers each of those lists too); the
        # other lists each list a card once, and the legal cards are held.
        seen = [*hand, *played]
        for trick in tricks:
            seen += trick.cards
        if (
            not hand
            or len(frozenset(seen)) != len(seen)
            or not frozenset(legal) <= frozenset(hand)
            or any(
                len(frozenset(cards)) != len(cards) for cards in (legal, passed, received, kitty)
            )
        ):
            return None
        return PlayView(
            rules=rules,
            seat=seat,
            hand_number=state.hand_number,
            dealer=state.dealer,
            hand=hand,
            scores=scores,
            pass_direction=direction,
            passed=passed,
            received=received,
            tricks=tricks,
            broken=state.broken,
            clock=self._clock(state.clock),
            kitty=kitty,
            kitty_taker=kitty_taker,
            pot=state.pot,
            lives=lives,
            legal=legal,
            current_trick=Trick(leader, played, _SEATS[leader, len(played), players], None),
        )

    def _finished_tricks(self, state: Any, players: int) -> tuple[Trick, ...] | None:
        """The hand's finished tricks, each checked once per stream; None if one is not a
        well-formed finished trick."""
        if players != self._players:
            self._tricks.clear()
            self._players = players
        known = self._tricks
        tricks = []
        for message in state.tricks:
            key = message.SerializeToString()
            trick = known.get(key)
            if trick is None:
                cards = tuple(message.cards)
                leader = message.leader
                winner = message.winner
                if not (
                    len(cards) == players
                    and leader < players
                    and winner < players
                    and message.HasField("winner")
                    and _CARDS.issuperset(cards)
                    and not message.seats
                ):
                    return None
                trick = Trick(leader, cards, _SEATS[leader, players, players], winner)
                if len(known) >= _MAX_ENTRIES:
                    known.clear()
                known[key] = trick
            tricks.append(trick)
        return tuple(tricks)

    def _clock(self, message: game_pb2.Clock) -> Clock:
        key = message.SerializeToString()
        clock = self._clocks.get(key)
        if clock is None:
            if len(self._clocks) >= _MAX_ENTRIES:
                self._clocks.clear()
            clock = self._clocks[key] = _clock(message)
        return clock
