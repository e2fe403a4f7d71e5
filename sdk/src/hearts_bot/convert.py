"""The wire mapping: protobuf messages to validated views, and rules to and from protobuf.

Every query is checked before a bot sees it; a malformed one raises `ProtocolError`
naming the field (the server answers it with INVALID_ARGUMENT). `rules_to_proto` and
`rules_from_proto` convert between the protocol's `Rules` message and the dict shape of
the arena's ``Rules.to_dict()``, so the arena and the SDK share one mapping.

>>> rules_from_proto(rules_to_proto(RulesView().to_dict())) == RulesView().to_dict()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any, TypeVar

from .cards import DECK, JOKERS, Card, card_order
from .proto.hearts.v1 import game_pb2, rules_pb2
from .rules import (
    LATER_SWITCHES,
    PLEDGE_POINTS,
    BrokenBy,
    DealerRule,
    FirstTrick,
    JokerKind,
    KittyTaker,
    KittyVisibility,
    LeadRule,
    MoonRule,
    Opening,
    PassDirection,
    PennyPlay,
    RulesView,
    ScoringSuitChoice,
    Settlement,
)
from .views import (
    BidView,
    CallPassView,
    Clock,
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
    Trick,
    TrickEnded,
    play_order,
)

_E = TypeVar("_E", bound=StrEnum)
_T = TypeVar("_T")
_CARDS = frozenset(DECK + JOKERS)
MAX_PLAYERS = 7
MIN_PLAYERS = 2
"""Two-player Hearts (004's 1911 text: "Hearts may be played by two, three, four or even
more players")."""
CANCELLATION_MAX_PLAYERS = 10
"""Cancellation Hearts (two packs) seats up to ten ("Seven to ten people can play")."""
_CANCELLATION_KEYS = frozenset({"cancellation", "second_pack_removed"})
DOMINO_MIN_PLAYERS = 2
"""Domino Hearts: "Two to seven people can play"."""


class ProtocolError(ValueError):
    """A malformed message; the text names the offending field and value."""


def _enum_maps(
    wrapper: Any, enum: type[_E], off_wire: frozenset[_E] = frozenset()
) -> tuple[dict[int, _E], dict[_E, Any]]:
    """Pair proto enum numbers with the StrEnum of the same name (prefix removed); the
    `off_wire` members travel as another value plus a field of their own."""
    prefix = wrapper.DESCRIPTOR.values[0].name.removesuffix("UNSPECIFIED")
    to_view: dict[int, _E] = {}
    for name, number in wrapper.items():
        if number:
            to_view[number] = enum(name.removeprefix(prefix).lower())
    if len(to_view) + len(off_wire) != len(enum):
        raise RuntimeError(f"{wrapper.DESCRIPTOR.name} and {enum.__name__} differ")
    return to_view, {member: number for number, member in to_view.items()}


_PASS, _PASS_PB = _enum_maps(rules_pb2.PassDirection, PassDirection)
_OPENING, _OPENING_PB = _enum_maps(rules_pb2.Opening, Opening)
_FIRST, _FIRST_PB = _enum_maps(rules_pb2.FirstTrick, FirstTrick)
_LEAD, _LEAD_PB = _enum_maps(rules_pb2.LeadRule, LeadRule)
WIRE_QUALIFIERS: Mapping[str, str] = MappingProxyType({"queen_breaks_only_discarded": "broken_by"})
"""Rules message fields that are not rule options but part of another option's value on the
wire (field name -> the option it qualifies)."""
# 000's "the QS discarded" travels as HEARTS_OR_QUEEN with `queen_breaks_only_discarded`
# set (rules.proto): a receiver built before that field reads the standard game as the
# nearest rule it knows instead of refusing an unknown BrokenBy value.
_BROKEN, _BROKEN_PB = _enum_maps(
    rules_pb2.BrokenBy, BrokenBy, frozenset({BrokenBy.HEARTS_OR_QUEEN_DISCARDED})
)
_MOON, _MOON_PB = _enum_maps(rules_pb2.MoonRule, MoonRule)
_TAKER, _TAKER_PB = _enum_maps(rules_pb2.KittyTaker, KittyTaker)
_VISIBILITY, _VISIBILITY_PB = _enum_maps(rules_pb2.KittyVisibility, KittyVisibility)
_SETTLEMENT, _SETTLEMENT_PB = _enum_maps(rules_pb2.Settlement, Settlement)
_DEALER, _DEALER_PB = _enum_maps(rules_pb2.DealerRule, DealerRule)
# Fields added to hearts.v1 after its first release: unset (0) means the old behaviour,
# so a sender built before them still describes its rules correctly.
_SCORING, _SCORING_PB = _enum_maps(rules_pb2.ScoringSuitChoice, ScoringSuitChoice)
_SCORING[0] = ScoringSuitChoice.FIXED
_SETTLEMENT[0] = Settlement.POINTS
_DEALER[0] = DealerRule.ROTATE
_JOKER, _JOKER_PB = _enum_maps(rules_pb2.JokerKind, JokerKind)
_JOKER[0] = JokerKind.WILD
_PENNY, _PENNY_PB = _enum_maps(rules_pb2.PennyPlay, PennyPlay)
_PENNY[0] = PennyPlay.NONE


def _broken_by(message: Any, where: str) -> BrokenBy:
    """The message's `broken_by`, with `queen_breaks_only_discarded` read into it."""
    broken = _enum(_BROKEN, message.broken_by, f"{where}.broken_by")
    if not message.queen_breaks_only_discarded:
        return broken
    if broken is not BrokenBy.HEARTS_OR_QUEEN:
        raise ProtocolError(
            f"{where}.queen_breaks_only_discarded is set with broken_by {broken.value!r}; "
            "it qualifies 'hearts_or_queen' only"
        )
    return BrokenBy.HEARTS_OR_QUEEN_DISCARDED


def _wire_broken_by(value: Any) -> Any:
    """The BrokenBy value sent on the wire for `value` (see `_BROKEN`)."""
    if value == BrokenBy.HEARTS_OR_QUEEN_DISCARDED:
        return BrokenBy.HEARTS_OR_QUEEN
    return value


_END_REASONS: dict[int, str] = {
    game_pb2.MATCH_END_REASON_COMPLETED: "completed",
    game_pb2.MATCH_END_REASON_ABORTED: "aborted",
}


def _enum(table: Mapping[int, _T], number: int, where: str) -> _T:
    try:
        return table[number]
    except KeyError:
        what = "is not set" if number == 0 else f"has unknown value {number}"
        raise ProtocolError(f"{where} {what}") from None


def _card(text: str, where: str) -> Card:
    if text not in _CARDS:
        raise ProtocolError(f"{where}: unknown card {text!r} (expected rank then suit, like 'QS')")
    return text


def _cards(
    texts: Iterable[str], where: str, *, unique: bool = True, copies: int = 1
) -> tuple[Card, ...]:
    """Checked card texts; each card at most `copies` times (2 with two packs) when
    `unique`."""
    cards = tuple(texts)
    if not cards:
        return cards
    if not _CARDS.issuperset(cards):
        for index, text in enumerate(cards):
            _card(text, f"{where}[{index}]")
    if unique and len(frozenset(cards)) != len(cards):
        _check_copies(cards, copies, where, "listed")
    return cards


def _check_copies(cards: Sequence[Card], copies: int, where: str, what: str) -> None:
    """ProtocolError when a card is there more than `copies` times."""
    over = sorted({c for c in cards if cards.count(c) > copies}, key=card_order)
    if over:
        times = "twice" if copies == 1 else f"more than {copies} times"
        raise ProtocolError(f"{where}: card(s) {what} {times}: {' '.join(over)}")


def _seat(value: int, players: int, where: str) -> int:
    if value >= players:
        raise ProtocolError(f"{where} is {value}, but seats are 0..{players - 1}")
    return value


def _scores(values: Sequence[int], players: int, where: str) -> tuple[int, ...]:
    if len(values) != players:
        raise ProtocolError(f"{where} has {len(values)} entries, expected one per seat ({players})")
    return tuple(values)


# -- rules -----------------------------------------------------------------------------


def rules_view_from_proto(message: rules_pb2.Rules, where: str = "rules") -> RulesView:
    """The validated view of a Rules message; raises ProtocolError."""
    return _rules_view_cached(message.SerializeToString(deterministic=True), where)


@lru_cache(maxsize=16)
def _rules_view_cached(data: bytes, where: str) -> RulesView:
    message = rules_pb2.Rules.FromString(data)
    players = message.players
    least = MIN_PLAYERS  # two for every game since two-player Hearts (issue 23)
    most = CANCELLATION_MAX_PLAYERS if message.cancellation else MAX_PLAYERS
    if not least <= players <= most:
        raise ProtocolError(f"{where}.players is {players}, expected {least}..{most}")
    if not message.pass_schedule:
        raise ProtocolError(f"{where}.pass_schedule is empty")
    values: dict[Card, int] = {}
    for index, entry in enumerate(message.card_values):
        card = _card(entry.card, f"{where}.card_values[{index}].card")
        if card in values:
            raise ProtocolError(f"{where}.card_values lists {card} twice")
        values[card] = entry.points
    removed = _cards(message.removed_cards, f"{where}.removed_cards")
    if message.jokers > len(JOKERS):
        raise ProtocolError(f"{where}.jokers is {message.jokers}: at most {len(JOKERS)}")
    second = _cards(message.second_pack_removed, f"{where}.second_pack_removed")
    if second and not message.cancellation:
        raise ProtocolError(f"{where}.second_pack_removed is set without cancellation")
    packs = 2 if message.cancellation else 1
    in_play = packs * (len(DECK) - len(removed)) - len(second) + message.jokers
    if in_play - message.kitty_size < players:
        raise ProtocolError(f"{where}: too few cards left to deal")
    return RulesView(
        name=message.name,
        players=players,
        removed_cards=frozenset(removed),
        kitty_size=message.kitty_size,
        kitty_taker=_enum(_TAKER, message.kitty_taker, f"{where}.kitty_taker"),
        kitty_visibility=_enum(_VISIBILITY, message.kitty_visibility, f"{where}.kitty_visibility"),
        pass_count=message.pass_count,
        pass_schedule=tuple(
            _enum(_PASS, d, f"{where}.pass_schedule[{i}]")
            for i, d in enumerate(message.pass_schedule)
        ),
        opening=_enum(_OPENING, message.opening, f"{where}.opening"),
        first_trick=_enum(_FIRST, message.first_trick, f"{where}.first_trick"),
        lead_rule=_enum(_LEAD, message.lead_rule, f"{where}.lead_rule"),
        broken_by=_broken_by(message, where),
        queen_and_hearts_may_lead_heart=message.queen_and_hearts_may_lead_heart,
        card_values=MappingProxyType(dict(sorted(values.items(), key=lambda i: card_order(i[0])))),
        doubler=_card(message.doubler, f"{where}.doubler") if message.HasField("doubler") else None,
        moon=_enum(_MOON, message.moon, f"{where}.moon"),
        moon_points=message.moon_points if message.HasField("moon_points") else None,
        moon_requires=frozenset(_cards(message.moon_requires, f"{where}.moon_requires")),
        sun_points=message.sun_points,
        no_trick_bonus=message.no_trick_bonus,
        exact_score_adjustments=tuple(
            (a.from_score, a.to_score) for a in message.exact_score_adjustments
        ),
        target_score=message.target_score if message.HasField("target_score") else None,
        max_hands=message.max_hands if message.HasField("max_hands") else None,
        pass_forbidden=frozenset(_cards(message.pass_forbidden, f"{where}.pass_forbidden")),
        settlement=_enum(_SETTLEMENT, message.settlement, f"{where}.settlement"),
        dealer_rule=_enum(_DEALER, message.dealer_rule, f"{where}.dealer_rule"),
        scoring_suit_choice=_enum(
            _SCORING, message.scoring_suit_choice, f"{where}.scoring_suit_choice"
        ),
        royal_queens=message.royal_queens,
        pass_call_options=tuple(
            _enum(_PASS, d, f"{where}.pass_call_options[{i}]")
            for i, d in enumerate(message.pass_call_options)
        ),
        pass_call_split=message.pass_call_split,
        pass_call_counts=tuple(message.pass_call_counts),
        pledge_points=message.pledge_points if message.HasField("pledge_points") else PLEDGE_POINTS,
        max_bid=message.max_bid,
        lives=message.lives,
        danger_points=message.danger_points,
        booster_nines=message.booster_nines,
        jokers=message.jokers,
        joker_kind=_enum(_JOKER, message.joker_kind, f"{where}.joker_kind"),
        cancellation=message.cancellation,
        second_pack_removed=frozenset(second),
        domino=message.domino,
        penny_play=_enum(_PENNY, message.penny_play, f"{where}.penny_play"),
        penny_openings=message.penny_openings,
        **{name: getattr(message, name) for name in LATER_SWITCHES},
    )


def rules_from_proto(message: rules_pb2.Rules) -> dict[str, Any]:
    """The Rules message as an arena ``Rules.to_dict()`` dict; raises ProtocolError."""
    return rules_view_from_proto(message).to_dict()


def rules_to_proto(rules: Mapping[str, Any] | RulesView) -> rules_pb2.Rules:
    """A Rules message from an arena ``Rules.to_dict()`` dict (or a `RulesView`).

    Raises ProtocolError for an unknown setting or enumeration text.
    """
    data = rules.to_dict() if isinstance(rules, RulesView) else dict(rules)
    # The settings written only when used (Cancellation's, the pennies') are known too.
    known = set(RulesView(penny_play=PennyPlay.SIMPLE).to_dict()) | _CANCELLATION_KEYS
    known |= set(LATER_SWITCHES) | {"pass_call_counts", "pledge_points"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ProtocolError(f"unknown rules setting(s): {', '.join(unknown)}")
    defaults = RulesView().to_dict() | {
        "cancellation": False,
        "second_pack_removed": [],
        "penny_play": PennyPlay.NONE.value,
        "penny_openings": 0,
        "pass_call_counts": [],
        "pledge_points": PLEDGE_POINTS,
        **LATER_SWITCHES,
    }

    def get(key: str) -> Any:
        return data.get(key, defaults[key])

    def number(table: Mapping[Any, Any], key: str, text: Any) -> Any:
        try:
            return table[text]
        except KeyError:
            choices = ", ".join(str(member) for member in table)
            raise ProtocolError(f"rules {key} {text!r} is not one of: {choices}") from None

    message = rules_pb2.Rules(
        name=get("name"),
        players=get("players"),
        removed_cards=[str(c) for c in get("removed_cards")],
        kitty_size=get("kitty_size"),
        kitty_taker=number(_TAKER_PB, "kitty_taker", get("kitty_taker")),
        kitty_visibility=number(_VISIBILITY_PB, "kitty_visibility", get("kitty_visibility")),
        pass_count=get("pass_count"),
        pass_schedule=[number(_PASS_PB, "pass_schedule", d) for d in get("pass_schedule")],
        opening=number(_OPENING_PB, "opening", get("opening")),
        first_trick=number(_FIRST_PB, "first_trick", get("first_trick")),
        lead_rule=number(_LEAD_PB, "lead_rule", get("lead_rule")),
        broken_by=number(_BROKEN_PB, "broken_by", _wire_broken_by(get("broken_by"))),
        queen_breaks_only_discarded=get("broken_by") == BrokenBy.HEARTS_OR_QUEEN_DISCARDED,
        queen_and_hearts_may_lead_heart=get("queen_and_hearts_may_lead_heart"),
        card_values=[
            rules_pb2.CardValue(card=card, points=points)
            for card, points in sorted(
                ((_card(str(c), "rules card_values"), p) for c, p in get("card_values").items()),
                key=lambda item: card_order(item[0]),
            )
            if points
        ],
        moon=number(_MOON_PB, "moon", get("moon")),
        moon_requires=[str(c) for c in get("moon_requires")],
        sun_points=get("sun_points"),
        no_trick_bonus=get("no_trick_bonus"),
        exact_score_adjustments=[
            rules_pb2.ScoreAdjustment(from_score=a, to_score=b)
            for a, b in get("exact_score_adjustments")
        ],
        pass_forbidden=[str(c) for c in get("pass_forbidden")],
        settlement=number(_SETTLEMENT_PB, "settlement", get("settlement")),
        dealer_rule=number(_DEALER_PB, "dealer_rule", get("dealer_rule")),
        scoring_suit_choice=number(_SCORING_PB, "scoring_suit_choice", get("scoring_suit_choice")),
        royal_queens=get("royal_queens"),
        pass_call_options=[
            number(_PASS_PB, "pass_call_options", d) for d in get("pass_call_options")
        ],
        pass_call_split=get("pass_call_split"),
        pass_call_counts=list(get("pass_call_counts")),
        max_bid=get("max_bid"),
        lives=get("lives"),
        danger_points=get("danger_points"),
        booster_nines=get("booster_nines"),
        jokers=get("jokers"),
        joker_kind=number(_JOKER_PB, "joker_kind", get("joker_kind")),
        cancellation=get("cancellation"),
        second_pack_removed=[str(c) for c in get("second_pack_removed")],
        domino=get("domino"),
        penny_play=number(_PENNY_PB, "penny_play", get("penny_play")),
        penny_openings=get("penny_openings"),
        **{name: get(name) for name in LATER_SWITCHES},
    )
    if get("pledge_points") != PLEDGE_POINTS:
        message.pledge_points = get("pledge_points")
    for key in ("doubler", "moon_points", "target_score", "max_hands"):
        value = get(key)
        if value is not None:
            setattr(message, key, str(value) if key == "doubler" else value)
    return message


def pass_direction_from_proto(number: int, where: str = "direction") -> PassDirection:
    """The PassDirection of a protocol number; raises ProtocolError for 0 or unknown."""
    return _enum(_PASS, number, where)


def pass_direction_to_proto(direction: str) -> Any:
    """The protocol's PassDirection number for a direction's text (``"left"``)."""
    return _PASS_PB[PassDirection(direction)]


# -- views -----------------------------------------------------------------------------


def _clock(message: game_pb2.Clock) -> Clock:
    per = message.per_decision
    bank = message.bank_remaining
    return Clock(per.seconds + per.nanos * 1e-9, bank.seconds + bank.nanos * 1e-9)


_SEATS: dict[tuple[int, int, int], tuple[int, ...]] = {
    (leader, count, players): tuple((leader + i) % players for i in range(count))
    for players in range(DOMINO_MIN_PLAYERS, CANCELLATION_MAX_PLAYERS + 1)
    for leader in range(players)
    for count in range(players + 1)
}


def _trick(
    message: game_pb2.Trick,
    players: int,
    where: str,
    *,
    finished: bool,
    two_packs: bool = False,
    seats: Sequence[int] | None = None,
    broken_off: bool = False,
    extra: Sequence[int] | int = (),
) -> Trick:
    """A trick; `two_packs` (Cancellation Hearts) lets a card appear twice and a finished
    trick have no winner; `seats` (Domino Hearts) says who played each card, since there a
    trick holds one card per seat still in; `broken_off` (Enfle) lets a finished trick
    without a winner hold fewer cards: the next seat could not follow and took it up.

    `extra` (the first trick under `rules.extra_cards_first_trick`, 002 'Alternatives to
    the "Kitty" in 3 or 5 player games'): the seats that play an extra card after the
    round (HandState.extra_card_seats), or only how many there are (a TrickEnd, which does
    not name them); the trick then holds that many more cards, and `message.seats` (or,
    unset, the consecutive seats from the leader) must be the trick's play order
    (`play_order`)."""
    if seats is not None:
        return _domino_trick(message, players, where, finished=finished, seats=seats)
    leader = message.leader
    if leader >= players:
        _seat(leader, players, f"{where}.leader")
    cards = _cards(message.cards, f"{where}.cards", copies=2 if two_packs else 1)
    size = players + (extra if isinstance(extra, int) else len(extra))
    has_winner = message.HasField("winner")
    if finished and broken_off and not has_winner:
        if not 0 < len(cards) < players:
            raise ProtocolError(f"{where} was taken up but has {len(cards)} cards")
    elif finished:
        if len(cards) != size:
            raise ProtocolError(f"{where} is finished but has {len(cards)} cards, not {size}")
        if not has_winner and not two_packs:  # Cancellation Hearts: nobody may win it
            raise ProtocolError(f"{where} is finished but has no winner")
    elif len(cards) >= size:
        raise ProtocolError(f"{where} is in progress but already has {len(cards)} cards")
    winner = None
    if has_winner:
        winner = _seat(message.winner, players, f"{where}.winner")
    if message.seats or len(cards) > players:
        played_by = _played_by(message, leader, len(cards), players, where, extra)
        return Trick(leader, cards, played_by, winner)
    return Trick(leader, cards, _SEATS[leader, len(cards), players], winner)


def _played_by(
    message: game_pb2.Trick,
    leader: int,
    count: int,
    players: int,
    where: str,
    extra: Sequence[int] | int,
) -> tuple[int, ...]:
    """Who played each of a trick's `count` cards: `message.seats`, or unset the
    consecutive seats from the leader; either way checked to be the start of the trick's
    play order: the round from the leader, each seat once, then only seats of `extra`
    (the extra-card seats), each once, in play order from the leader. Where only the
    number of extra cards is known (`extra` an int), any such seats, in that order."""
    seats = tuple(message.seats) or tuple((leader + i) % players for i in range(count))
    if len(seats) != count:
        raise ProtocolError(f"{where}.seats has {len(seats)} entries for {count} cards")
    for index, seat in enumerate(seats):
        _seat(seat, players, f"{where}.seats[{index}]")
    round_ = play_order(leader, players)
    if isinstance(extra, int):
        after = seats[players:]
        positions = [round_.index(seat) for seat in after]
        fits = positions == sorted(set(positions)) and len(after) <= extra
    else:
        fits = seats == play_order(leader, players, tuple(extra))[:count]
    if not fits or seats[:players] != round_[:count]:
        named = f"up to {extra}" if isinstance(extra, int) else str(list(extra))
        raise ProtocolError(
            f"{where}.seats {list(seats)} are not the trick's play order: each seat once "
            f"from leader {leader}, then the extra-card seats ({named}) once each, in turn"
        )
    return seats


def _domino_trick(
    message: game_pb2.Trick, players: int, where: str, *, finished: bool, seats: Sequence[int]
) -> Trick:
    """Domino Hearts: a trick played by `seats` (the leader first, each seat once)."""
    leader = _seat(message.leader, players, f"{where}.leader")
    cards = _cards(message.cards, f"{where}.cards")
    checked = tuple(_seat(s, players, f"{where} seats[{i}]") for i, s in enumerate(seats))
    if len(set(checked)) != len(checked) or (checked and checked[0] != leader):
        raise ProtocolError(
            f"{where}: seats {list(checked)} do not start with the leader once each"
        )
    has_winner = message.HasField("winner")
    if finished:
        if len(cards) != len(checked) or len(cards) < 2:
            raise ProtocolError(
                f"{where} is finished but has {len(cards)} cards for {len(checked)} seats"
            )
        if not has_winner:
            raise ProtocolError(f"{where} is finished but has no winner")
    elif len(cards) >= len(checked):
        raise ProtocolError(f"{where} is in progress but already has {len(cards)} cards")
    winner = None
    if has_winner:
        winner = _seat(message.winner, players, f"{where}.winner")
        if winner not in checked:
            raise ProtocolError(f"{where}.winner {winner} did not play to the trick")
    return Trick(leader, cards, checked[: len(cards)], winner)


def _domino_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Domino Hearts: the stock's size, who is still in, and each seat's draws."""
    if not state.HasField("domino"):
        return {}
    table = state.domino
    if len(table.in_play) != players or len(table.drawn) != players:
        raise ProtocolError(f"{where}.domino: in_play and drawn need one entry per seat")
    if len(table.trick_seats) != len(state.tricks):
        raise ProtocolError(f"{where}.domino.trick_seats needs one entry per finished trick")
    return {
        "stock_size": table.stock_size,
        "in_play": tuple(table.in_play),
        "drawn": tuple(table.drawn),
    }


def domino_current_seats(leader: int, in_play: Sequence[bool]) -> tuple[int, ...]:
    """Domino Hearts: the seats of the trick in progress, in play order: the leader,
    then each seat still in on its left."""
    n = len(in_play)
    return tuple((leader + k) % n for k in range(n) if k == 0 or in_play[(leader + k) % n])


def _finished_tricks(
    state: game_pb2.HandState,
    players: int,
    where: str,
    two_packs: bool = False,
    broken_off: bool = False,
    extra: Sequence[int] = (),
) -> tuple[Trick, ...]:
    """The finished tricks; the first with the `extra` card seats' second cards (002)."""
    if state.HasField("domino") and len(state.domino.trick_seats) == len(state.tricks):
        return tuple(
            _trick(
                message,
                players,
                f"{where}.tricks[{index}]",
                finished=True,
                seats=state.domino.trick_seats[index].seats,
            )
            for index, message in enumerate(state.tricks)
        )
    tricks: list[Trick] = []
    append = tricks.append
    for index, message in enumerate(state.tricks):
        # The fast path checks what `_trick` does; `_trick` names the problem.
        cards = tuple(message.cards)
        leader = message.leader
        winner = message.winner
        if (
            len(cards) == players
            and leader < players
            and winner < players
            and _CARDS.issuperset(cards)
            and message.HasField("winner")
            and not message.seats
            and not (extra and index == 0)
        ):
            append(Trick(leader, cards, _SEATS[leader, players, players], winner))
        else:
            append(
                _trick(
                    message,
                    players,
                    f"{where}.tricks[{index}]",
                    finished=True,
                    two_packs=two_packs,
                    broken_off=broken_off,
                    extra=extra if index == 0 else (),
                )
            )
    return tuple(tricks)


def _check_distinct(fields: dict[str, Any], current: Trick | None, where: str) -> None:
    """No card is both held and played, or played twice, in one hand (with two packs,
    Cancellation Hearts: no card is held and played more than twice in all). Not in Enfle,
    where a seat that cannot follow takes played cards back into its hand."""
    if fields["rules"].enfle:
        return
    cards = [*fields["hand"]]
    for trick in (*fields["tricks"], *fields.get("pennies", ())):
        cards += trick.cards
    if current is not None:
        cards += current.cards
    if len(frozenset(cards)) != len(cards):
        copies = 2 if fields["rules"].cancellation else 1
        _check_copies(cards, copies, where, "both held and played, or played")


def _hand_fields(state: game_pb2.HandState, where: str) -> dict[str, Any]:
    if not state.HasField("rules"):
        raise ProtocolError(f"{where}.rules is missing")
    rules = rules_view_from_proto(state.rules, f"{where}.rules")
    players = rules.players
    kitty_taker = None
    if state.HasField("kitty_taker"):
        kitty_taker = _seat(state.kitty_taker, players, f"{where}.kitty_taker")
    seat = state.seat
    dealer = state.dealer
    if seat >= players or dealer >= players:
        _seat(seat, players, f"{where}.seat")
        _seat(dealer, players, f"{where}.dealer")
    two = rules.cancellation  # Cancellation Hearts: two packs, a card may be there twice
    copies = 2 if two else 1
    extra = _extra_card_seats(state, rules, where)
    return {
        "rules": rules,
        "seat": seat,
        "hand_number": state.hand_number,
        "dealer": dealer,
        "hand": _cards(state.hand, f"{where}.hand", copies=copies),
        "scores": _scores(state.scores, players, f"{where}.scores"),
        "pass_direction": _enum(_PASS, state.pass_direction, f"{where}.pass_direction"),
        "passed": _cards(state.passed, f"{where}.passed", copies=copies),
        "received": _cards(state.received, f"{where}.received", copies=copies),
        "tricks": _finished_tricks(state, players, where, two, rules.enfle, extra),
        "extra_card_seats": extra,
        "broken": state.broken,
        "clock": _clock(state.clock),
        "kitty": _cards(state.kitty, f"{where}.kitty", copies=copies),
        "kitty_taker": kitty_taker,
        "pot": state.pot,
        **_reveal_fields(state, players, where),
        **_auction_fields(state, players, where),
        **_lives_fields(state, players, where),
        **_split_fields(state, where),
        **_pledge_fields(state, players, where),
        **_queen_offer_fields(state, players, where),
        **_exposure_fields(state, players, rules.exposures, where),
        **_domino_fields(state, players, where),
        **_penny_fields(state, players, where),
    }


def _extra_card_seats(state: game_pb2.HandState, rules: RulesView, where: str) -> tuple[int, ...]:
    """002 'Alternatives to the "Kitty" in 3 or 5 player games': the seats dealt an extra
    card, one per card that does not deal evenly (`RulesView.extra_cards`), each once."""
    seats = tuple(
        _seat(seat, rules.players, f"{where}.extra_card_seats[{i}]")
        for i, seat in enumerate(state.extra_card_seats)
    )
    if len(set(seats)) != len(seats) or len(seats) != rules.extra_cards:
        raise ProtocolError(
            f"{where}.extra_card_seats {list(seats)} must name {rules.extra_cards} different "
            f"seats (rules.extra_cards_first_trick: {rules.extra_cards_first_trick})"
        )
    return seats


def _pledge_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """The no-hearts pledges (004 'Scoring variants'): one per seat, 1, 0 or -1."""
    if not state.pledges:
        return {}
    if len(state.pledges) != players or any(p not in (-1, 0, 1) for p in state.pledges):
        raise ProtocolError(f"{where}.pledges must be -1, 0 or 1 for each of {players} seats")
    return {"pledges": tuple(None if p < 0 else bool(p) for p in state.pledges)}


def _queen_offer_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Rickety Kate's offered QS (rules.queen_refusal): giver and receiver, two seats, one of
    them this seat, and the receiver's answer once given."""
    if not state.HasField("queen_offer"):
        return {}
    offer = state.queen_offer
    giver = _seat(offer.giver, players, f"{where}.queen_offer.giver")
    receiver = _seat(offer.receiver, players, f"{where}.queen_offer.receiver")
    if giver == receiver or state.seat not in (giver, receiver):
        raise ProtocolError(
            f"{where}.queen_offer names seats {giver} and {receiver}: two seats, one of them "
            f"this seat ({state.seat})"
        )
    refused = offer.refused if offer.HasField("refused") else None
    return {"queen_offer": (giver, receiver), "queen_refused": refused}


def _query_fields(query: Any, where: str) -> dict[str, Any]:
    """The checked HandState fields of a query asked outside the play (a pledge, an
    exposure, the shooter's choice, a refusal of the QS and its replacement): the state
    present, its fields valid, no card held or played twice."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    _check_distinct(fields, None, f"{where}.state")
    return fields


def refuse_queen_view_from_proto(
    query: game_pb2.RefuseQueenQuery, where: str = "refuse_queen"
) -> RefuseQueenView:
    """The validated `RefuseQueenView` of a RefuseQueenQuery; raises ProtocolError."""
    fields = _query_fields(query, where)
    giver = _seat(query.giver, fields["rules"].players, f"{where}.giver")
    return RefuseQueenView(giver=giver, **fields)


def replace_pass_view_from_proto(
    query: game_pb2.ReplacePassQuery, where: str = "replace_pass"
) -> ReplacePassView:
    """The validated `ReplacePassView` of a ReplacePassQuery; raises ProtocolError."""
    fields = _query_fields(query, where)
    legal = _cards(query.legal, f"{where}.legal")
    if not legal:
        raise ProtocolError(f"{where}.legal is empty")
    default = _card(query.default_card, f"{where}.default_card")
    if default not in legal:
        raise ProtocolError(f"{where}.default_card {default} is not in legal")
    return ReplacePassView(legal=legal, default=default, **fields)


def _exposure_fields(
    state: game_pb2.HandState, players: int, exposures: bool, where: str
) -> dict[str, Any]:
    """Gong Zhu's exposed cards: an entry per seat that has answered (each seat once); a
    seat not named has not answered yet (None)."""
    if not exposures:
        if state.exposures:
            raise ProtocolError(f"{where}.exposures is set, but rules.exposures is not")
        return {}
    exposed: list[tuple[Card, ...] | None] = [None] * players
    for i, entry in enumerate(state.exposures):
        seat = _seat(entry.seat, players, f"{where}.exposures[{i}].seat")
        if exposed[seat] is not None:
            raise ProtocolError(f"{where}.exposures names seat {seat} twice")
        exposed[seat] = _cards(entry.cards, f"{where}.exposures[{i}].cards")
    return {"exposed": tuple(exposed)}


def _penny_round(message: game_pb2.PennyRound, players: int, where: str) -> Trick:
    """A penny-round as a `Trick` with the seat of each card (Four-Penny Hearts)."""
    seats = tuple(
        _seat(c.seat, players, f"{where}.cards[{i}].seat") for i, c in enumerate(message.cards)
    )
    cards = tuple(_card(c.card, f"{where}.cards[{i}].card") for i, c in enumerate(message.cards))
    if len(cards) > players:
        raise ProtocolError(f"{where} has {len(cards)} cards, more than {players}")
    winner = (
        _seat(message.winner, players, f"{where}.winner") if message.HasField("winner") else None
    )
    leader = seats[0] if seats else _seat(message.leader, players, f"{where}.leader")
    return Trick(leader, cards, seats, winner)


def _penny_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Four-Penny Hearts: the open penny-rounds, and the finished ones appended to the
    tricks (each with the seat of each of its cards)."""
    if not state.HasField("multi_round"):
        return {}
    pennies = tuple(
        _penny_round(message, players, f"{where}.pennies[{i}]")
        for i, message in enumerate(state.pennies)
    )
    if len(pennies) != players:
        raise ProtocolError(f"{where}.pennies has {len(pennies)} entries, expected {players}")
    finished = []
    for i, message in enumerate(state.finished_pennies):
        trick = _penny_round(message, players, f"{where}.finished_pennies[{i}]")
        if len(trick.cards) != players or trick.winner is None:
            raise ProtocolError(f"{where}.finished_pennies[{i}] is not a finished penny-round")
        finished.append(trick)
    return {
        "pennies": pennies,
        "multi_round": state.multi_round,
        "tricks": _finished_tricks(state, players, where) + tuple(finished),
    }


_SUITS = frozenset("CDSH")


def _reveal_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Heartless: the face-down cards (by seat, "" for unseen) and the suit they chose."""
    if not state.reveals and not state.scoring_suit:
        return {}
    if state.reveals and len(state.reveals) != players:
        raise ProtocolError(
            f"{where}.reveals has {len(state.reveals)} entries, expected one per seat"
        )
    reveals = tuple(
        _card(text, f"{where}.reveals[{seat}]") if text else None
        for seat, text in enumerate(state.reveals)
    )
    suit = state.scoring_suit or None
    if suit is not None and suit not in _SUITS:
        raise ProtocolError(f"{where}.scoring_suit is {suit!r}, expected C, D, S or H")
    return {"reveals": reveals, "scoring_suit": suit}


def _auction_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Auction Hearts: the bids so far, in order, and the declarer once known."""
    if not state.bids and not state.HasField("declarer"):
        return {}
    bids = tuple(
        (
            _seat(bid.seat, players, f"{where}.bids[{index}].seat"),
            bid.chips if bid.HasField("chips") else None,
        )
        for index, bid in enumerate(state.bids)
    )
    declarer = None
    if state.HasField("declarer"):
        declarer = _seat(state.declarer, players, f"{where}.declarer")
    return {"bids": bids, "declarer": declarer}


def _lives_fields(state: game_pb2.HandState, players: int, where: str) -> dict[str, Any]:
    """Danger Hearts: each seat's lives left before this hand."""
    if not state.lives:
        return {}
    return {"lives": _scores(state.lives, players, f"{where}.lives")}


def _split_fields(state: game_pb2.HandState, where: str) -> dict[str, Any]:
    """After a split call: each passed card's direction."""
    if not state.pass_split:
        return {}
    if state.pass_direction != _PASS_PB[PassDirection.SPLIT]:
        raise ProtocolError(f"{where}.pass_split is set, but pass_direction is not SPLIT")
    return {
        "pass_split": tuple(
            _enum(_PASS, d, f"{where}.pass_split[{i}]") for i, d in enumerate(state.pass_split)
        )
    }


def pass_view_from_proto(query: game_pb2.PassCardsQuery, where: str = "pass_cards") -> PassView:
    """The validated `PassView` of a PassCardsQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    direction = _enum(_PASS, query.direction, f"{where}.direction")
    if direction is PassDirection.HOLD:
        raise ProtocolError(f"{where}.direction is HOLD: nothing is passed on a hold hand")
    if direction is PassDirection.DEALER_CALLS:
        raise ProtocolError(f"{where}.direction is DEALER_CALLS: the call comes first")
    hand = fields["hand"]
    if not hand:
        raise ProtocolError(f"{where}.state.hand is missing (no cards)")
    if not 0 < query.count <= len(hand):
        raise ProtocolError(f"{where}.count is {query.count}, expected 1..{len(hand)}")
    players = fields["rules"].players
    recipients = tuple(
        _seat(r, players, f"{where}.recipients[{i}]") for i, r in enumerate(query.recipients)
    )
    if direction is not PassDirection.CENTER and len(recipients) != query.count:
        raise ProtocolError(
            f"{where}.recipients has {len(recipients)} seats, expected one per card ({query.count})"
        )
    _check_distinct(fields, None, f"{where}.state")
    return PassView(direction=direction, count=query.count, recipients=recipients, **fields)


def call_pass_view_from_proto(
    query: game_pb2.CallPassQuery, where: str = "call_pass"
) -> CallPassView:
    """The validated `CallPassView` of a CallPassQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    options = tuple(_enum(_PASS, d, f"{where}.options[{i}]") for i, d in enumerate(query.options))
    if not options:
        raise ProtocolError(f"{where}.options is empty")
    if PassDirection.DEALER_CALLS in options:
        raise ProtocolError(f"{where}.options may not hold DEALER_CALLS itself")
    split = tuple(
        _enum(_PASS, d, f"{where}.split_directions[{i}]")
        for i, d in enumerate(query.split_directions)
    )
    _check_distinct(fields, None, f"{where}.state")
    return CallPassView(
        options=options, split_directions=split, counts=tuple(query.counts), **fields
    )


def bid_view_from_proto(query: game_pb2.BidQuery, where: str = "bid") -> BidView:
    """The validated `BidView` of a BidQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    if not query.min_bid >= 1:
        raise ProtocolError(f"{where}.min_bid is {query.min_bid}, expected at least 1")
    if query.max_bid < query.min_bid - 1:
        raise ProtocolError(
            f"{where}.max_bid is {query.max_bid}, below min_bid {query.min_bid} less one"
        )
    _check_distinct(fields, None, f"{where}.state")
    return BidView(min_bid=query.min_bid, max_bid=query.max_bid, **fields)


def name_suit_view_from_proto(
    query: game_pb2.NameSuitQuery, where: str = "name_suit"
) -> NameSuitView:
    """The validated `NameSuitView` of a NameSuitQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    if fields.get("declarer") != fields["seat"]:
        raise ProtocolError(
            f"{where}.state.declarer is {fields.get('declarer')}, but seat {fields['seat']} "
            "is asked to name the suit"
        )
    _check_distinct(fields, None, f"{where}.state")
    return NameSuitView(**fields)


def moon_choice_view_from_proto(
    query: game_pb2.MoonChoiceQuery, where: str = "moon_choice"
) -> MoonChoiceView:
    """The validated `MoonChoiceView` of a MoonChoiceQuery; raises ProtocolError."""
    fields = _query_fields(query, where)
    return MoonChoiceView(
        worth=query.worth, default="subtract" if query.default_subtract else "add", **fields
    )


def pledge_view_from_proto(query: game_pb2.PledgeQuery, where: str = "pledge") -> PledgeView:
    """The validated `PledgeView` of a PledgeQuery; raises ProtocolError."""
    fields = _query_fields(query, where)
    return PledgeView(points=query.points, **fields)


def expose_view_from_proto(query: game_pb2.ExposeQuery, where: str = "expose") -> ExposeView:
    """The validated `ExposeView` of an ExposeQuery; raises ProtocolError."""
    fields = _query_fields(query, where)
    exposable = _cards(query.exposable, f"{where}.exposable")
    if set(exposable) - set(fields["hand"]):
        raise ProtocolError(f"{where}.exposable holds cards not in state.hand")
    return ExposeView(exposable=exposable, **fields)


def reveal_view_from_proto(
    query: game_pb2.RevealCardQuery, where: str = "reveal_card"
) -> RevealView:
    """The validated `RevealView` of a RevealCardQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    fields = _hand_fields(query.state, f"{where}.state")
    if not fields["hand"]:
        raise ProtocolError(f"{where}.state.hand is missing (no cards)")
    _check_distinct(fields, None, f"{where}.state")
    return RevealView(**fields)


def play_view_from_proto(query: game_pb2.PlayCardQuery, where: str = "play_card") -> PlayView:
    """The validated `PlayView` of a PlayCardQuery; raises ProtocolError."""
    if not query.HasField("state"):
        raise ProtocolError(f"{where}.state is missing")
    state = query.state
    fields = _hand_fields(state, f"{where}.state")
    hand: tuple[Card, ...] = fields["hand"]
    if not hand:
        raise ProtocolError(f"{where}.state.hand is missing (no cards)")
    legal = _cards(query.legal_cards, f"{where}.legal_cards")
    if not legal:
        raise ProtocolError(f"{where}.legal_cards is empty")
    outside = [card for card in legal if card not in hand]
    if outside:
        raise ProtocolError(f"{where}.legal_cards are not in the hand: {' '.join(outside)}")
    if not state.HasField("current_trick"):
        raise ProtocolError(f"{where}.state.current_trick is missing")
    players = fields["rules"].players
    if "in_play" in fields:  # Domino Hearts: the seats still in play the trick
        leader = _seat(state.current_trick.leader, players, f"{where}.state.current_trick.leader")
        seats = domino_current_seats(leader, fields["in_play"])
        current = _trick(
            state.current_trick,
            players,
            f"{where}.state.current_trick",
            finished=False,
            seats=seats,
        )
        if seats[len(current.cards)] != fields["seat"]:
            raise ProtocolError(
                f"{where}: seat {fields['seat']} is asked to play, but it is seat "
                f"{seats[len(current.cards)]}'s turn in current_trick"
            )
        _check_distinct(fields, current, f"{where}.state")
        return PlayView(legal=legal, current_trick=current, **fields)
    extra = () if fields["tricks"] else fields["extra_card_seats"]  # 002: the first trick
    current = _trick(
        state.current_trick,
        players,
        f"{where}.state.current_trick",
        finished=False,
        two_packs=fields["rules"].cancellation,
        extra=extra,
    )
    turn = play_order(current.leader, players, extra)[len(current.cards)]
    if turn != fields["seat"]:
        raise ProtocolError(
            f"{where}: seat {fields['seat']} is asked to play, but it is seat "
            f"{turn}'s turn in current_trick"
        )
    moves = tuple(
        (move.penny, _card(move.card, f"{where}.legal_moves[{i}].card"))
        for i, move in enumerate(query.legal_moves)
    )
    stray = [f"{p}:{c}" for p, c in moves if c not in legal or p >= len(fields["pennies"])]
    if stray:
        raise ProtocolError(f"{where}.legal_moves are not legal cards on pennies: {stray}")
    _check_distinct(fields, current, f"{where}.state")
    return PlayView(legal=legal, current_trick=current, legal_moves=moves, **fields)


def match_info_from_proto(message: game_pb2.MatchStart, where: str = "match_start") -> MatchInfo:
    """The validated `MatchInfo` of a MatchStart; raises ProtocolError."""
    if not message.HasField("rules"):
        raise ProtocolError(f"{where}.rules is missing")
    rules = rules_view_from_proto(message.rules, f"{where}.rules")
    names = [f"seat {seat}" for seat in range(rules.players)]
    for index, player in enumerate(message.players):
        names[_seat(player.seat, rules.players, f"{where}.players[{index}].seat")] = player.name
    return MatchInfo(
        match_id=message.match_id,
        rules=rules,
        seat=_seat(message.seat, rules.players, f"{where}.seat"),
        players=tuple(names),
        clock=_clock(message.clock),
        resumed=message.resumed,
    )


def hand_started_from_proto(
    message: game_pb2.HandStart, players: int, two_packs: bool = False
) -> HandStarted:
    """The validated `HandStarted` event (`two_packs`: Cancellation Hearts, a card may be
    held twice); raises ProtocolError."""
    copies = 2 if two_packs else 1
    return HandStarted(
        hand_number=message.hand_number,
        dealer=_seat(message.dealer, players, "hand_start.dealer"),
        hand=_cards(message.hand, "hand_start.hand", copies=copies),
        pass_direction=_enum(_PASS, message.pass_direction, "hand_start.pass_direction"),
        scores=_scores(message.scores, players, "hand_start.scores"),
        kitty=_cards(message.kitty, "hand_start.kitty", copies=copies),
    )


def trick_ended_from_proto(
    message: game_pb2.TrickEnd,
    players: int,
    two_packs: bool = False,
    broken_off: bool = False,
    extra_cards: int = 0,
) -> TrickEnded:
    """The validated `TrickEnded` event (`two_packs`: Cancellation Hearts, where a trick may
    hold a card twice and have no winner; `broken_off`: Enfle, where a trick taken up has no
    winner and fewer cards; `extra_cards`: `RulesView.extra_cards`, the first trick's
    cards beyond one per seat, 002's extra cards); raises ProtocolError."""
    if not message.HasField("trick"):
        raise ProtocolError("trick_end.trick is missing")
    return TrickEnded(
        hand_number=message.hand_number,
        trick_number=message.trick_number,
        trick=_trick(
            message.trick,
            players,
            "trick_end.trick",
            finished=True,
            two_packs=two_packs,
            broken_off=broken_off,
            extra=extra_cards if message.trick_number == 0 else 0,
        ),
    )


def domino_trick_ended_from_proto(message: game_pb2.DominoTrickEnd, players: int) -> TrickEnded:
    """Domino Hearts: the validated `TrickEnded` event of a DominoTrickEnd; raises
    ProtocolError."""
    if not message.HasField("trick"):
        raise ProtocolError("domino_trick_end.trick is missing")
    return TrickEnded(
        hand_number=message.hand_number,
        trick_number=message.trick_number,
        trick=_trick(
            message.trick, players, "domino_trick_end.trick", finished=True, seats=message.seats
        ),
    )


def hand_ended_from_proto(
    message: game_pb2.HandEnd, players: int, two_packs: bool = False
) -> HandEnded:
    """The validated `HandEnded` event; raises ProtocolError."""
    shooter = message.moon_shooter if message.HasField("moon_shooter") else None
    return HandEnded(
        hand_number=message.hand_number,
        hand_scores=_scores(message.hand_scores, players, "hand_end.hand_scores"),
        scores=_scores(message.scores, players, "hand_end.scores"),
        moon_shooter=None if shooter is None else _seat(shooter, players, "hand_end.moon_shooter"),
        kitty=_cards(message.kitty, "hand_end.kitty", copies=2 if two_packs else 1),
    )


def match_ended_from_proto(message: game_pb2.MatchEnd, players: int) -> MatchEnded:
    """The validated `MatchEnded` event; raises ProtocolError."""
    return MatchEnded(
        reason=_enum(_END_REASONS, message.reason, "match_end.reason"),
        scores=_scores(message.scores, players, "match_end.scores"),
        hands_played=message.hands_played,
    )
