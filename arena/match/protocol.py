"""The arena's side of `hearts.v1`: engine views and events as protocol messages.

The generated stubs and the Rules mapping come from the SDK (one copy of each); this
module only builds messages from the engine's `SeatView`, so a remote bot is told
exactly what an in-process bot sees, nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from hearts_bot.convert import pass_direction_to_proto, rules_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, bot_pb2_grpc, game_pb2, rules_pb2

from arena.engine import PassDirection, Rules, SeatView, Trick

from .seats import DecisionContext, GameInfo

__all__ = ["bot_pb2", "bot_pb2_grpc", "game_pb2"]


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


def trick_message(trick: Trick) -> game_pb2.Trick:
    """A finished trick."""
    return game_pb2.Trick(
        leader=trick.leader, cards=[str(c) for _, c in trick.plays], winner=trick.winner
    )


class TrickMessages:
    """Finished tricks as messages, built once each: a hand's views share Trick objects,
    and a query carries every finished trick, so rebuilding them would dominate."""

    def __init__(self) -> None:
        self._source: tuple[Trick, ...] = ()
        self._messages: list[game_pb2.Trick] = []

    def __call__(self, tricks: tuple[Trick, ...]) -> list[game_pb2.Trick]:
        known = len(self._source)
        if len(tricks) < known or any(
            a is not b for a, b in zip(tricks, self._source, strict=False)
        ):
            self._source, self._messages, known = (), [], 0
        self._messages.extend(trick_message(t) for t in tricks[known:])
        self._source = tricks
        return self._messages


def hand_state(
    view: SeatView,
    context: DecisionContext,
    rules: rules_pb2.Rules | None = None,
    tricks: TrickMessages | None = None,
) -> game_pb2.HandState:
    """Everything `view.seat` knows now, as the protocol's HandState (`rules` and
    `tricks` are caches a seat keeps for its match)."""
    state = game_pb2.HandState(
        rules=rules if rules is not None else rules_message(view.rules),
        seat=view.seat,
        hand_number=context.hand_number,
        dealer=view.dealer,
        hand=[str(c) for c in view.hand],
        scores=list(context.scores),
        pass_direction=pass_direction_to_proto(view.pass_direction.value),
        passed=[str(c) for c in view.passed],
        received=[str(c) for c in sorted(view.received)],
        tricks=tricks(view.tricks)
        if tricks is not None
        else [trick_message(t) for t in view.tricks],
        broken=view.hearts_broken,
        clock=clock_message(context.per_decision, context.bank_remaining),
    )
    if view.kitty is not None:
        state.kitty.extend(str(c) for c in view.kitty)
    return state


def play_query(
    view: SeatView,
    context: DecisionContext,
    rules: rules_pb2.Rules | None = None,
    tricks: TrickMessages | None = None,
) -> game_pb2.PlayCardQuery:
    """A PlayCardQuery: the state, the trick in progress and the legal cards."""
    state = hand_state(view, context, rules, tricks)
    leader = view.current_trick[0][0] if view.current_trick else view.seat
    state.current_trick.CopyFrom(
        game_pb2.Trick(leader=leader, cards=[str(c) for _, c in view.current_trick])
    )
    return game_pb2.PlayCardQuery(state=state, legal_cards=[str(c) for c in view.legal])


def pass_query(
    view: SeatView, count: int, context: DecisionContext, rules: rules_pb2.Rules | None = None
) -> game_pb2.PassCardsQuery:
    """A PassCardsQuery, with each card's recipient (none for a center pass)."""
    n = view.rules.players
    direction = view.pass_direction
    recipients: Sequence[int]
    if direction is PassDirection.CENTER:
        recipients = ()
    elif direction is PassDirection.SCATTER:
        recipients = [(view.seat + 1 + i) % n for i in range(count)]
    else:
        offset = direction.offset(n)
        assert offset is not None
        recipients = [(view.seat + offset) % n] * count
    return game_pb2.PassCardsQuery(
        state=hand_state(view, context, rules),
        direction=pass_direction_to_proto(direction.value),
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


def hand_start(view: SeatView, context: DecisionContext) -> game_pb2.HandStart:
    """Notification: the deal, before passing."""
    message = game_pb2.HandStart(
        hand_number=context.hand_number,
        dealer=view.dealer,
        hand=[str(c) for c in view.hand],
        pass_direction=pass_direction_to_proto(view.pass_direction.value),
        scores=list(context.scores),
    )
    if view.kitty is not None:
        message.kitty.extend(str(c) for c in view.kitty)
    return message


def match_end(totals: Sequence[int], hands_played: int, aborted: bool) -> game_pb2.MatchEnd:
    """The last message of a game's stream."""
    reason = game_pb2.MATCH_END_REASON_ABORTED if aborted else game_pb2.MATCH_END_REASON_COMPLETED
    return game_pb2.MatchEnd(reason=reason, scores=list(totals), hands_played=hands_played)
