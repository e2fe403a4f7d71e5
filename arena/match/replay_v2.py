"""Replay v2: the match as the engine's own record, a typed list of actions per hand.

Why: replay v1 files each decision kind in a place of its own (passes, auction, reveals,
tricks, multi-rounds), so every reader (verify, render, the viewer, the workers) needs a
branch per kind. v2 keeps what OpenSpiel and python-chess keep: the rules, the seeds, and
per hand the actions in the order the hand asked them (`Hand.history`), each with its
time, its fault and its note. Verifying is re-applying them through `Hand.apply`
(`verify_v2`); a v1 file converts to v2 (`from_v1`) by answering the engine's questions
with its records, so every v1 replay keeps loading and verifying.
docs/decisions/0006-decisions-as-data.md says what changed and what is left.
"""

from __future__ import annotations

import dataclasses
import json
from collections import deque
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from arena.engine import Game, Hand, Rules, RulesError
from arena.engine.decisions import ENGINE_KINDS, Action, DecisionKind
from arena.engine.phases import kinds, room_of

from .replay import REPLAY_FORMAT, decision_records
from .verify import ReplayMismatchError, Verification, verify_result

REPLAY_V2 = 2


@dataclasses.dataclass(frozen=True)
class ActionRecord:
    """One action of a hand: its kind (`DecisionKind` value), the seat, the answer in JSON
    form (a card "QS"; a pass ["2C", …]; a call "left", a split ["right", "left", …] or
    a call with its count ["left", 2]; chips or null; a suit "C"; a penny play
    [penny, "QS"]; a drawn card "QS"; the cards taken up ["7C", …], Enfle's pickup), the time
    the bot took, and its fault, its note, or `auto` when the platform answered for a
    disqualified bot. A shooter's choice is "add" or "subtract"; a pledge true or false;
    a refusal of the QS (Rickety Kate) true or false, its replacement a card; Gong Zhu's
    exposed cards a list of cards (possibly empty)."""

    kind: str
    seat: int
    value: Any
    ms: float = 0.0
    fault: str | None = None
    note: str | None = None
    auto: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "value": self.value}
        if self.kind not in _ENGINE_KIND_NAMES:
            data["ms"] = self.ms
        for key in ("fault", "note"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.auto:
            data["auto"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ActionRecord:
        return cls(
            data["kind"],
            data["seat"],
            data["value"],
            data.get("ms", 0.0),
            data.get("fault"),
            data.get("note"),
            bool(data.get("auto", False)),
        )


@dataclasses.dataclass(frozen=True)
class HandRecord:
    """One hand: its seed, dealer and pass (the deal follows from them), its actions, and
    the points and totals they led to."""

    number: int
    seed: int
    dealer: int
    pass_direction: str
    actions: tuple[ActionRecord, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seed": self.seed,
            "dealer": self.dealer,
            "pass_direction": self.pass_direction,
            "actions": [a.to_dict() for a in self.actions],
            "points": list(self.points),
            "totals": list(self.totals),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandRecord:
        return cls(
            data["number"],
            data["seed"],
            data["dealer"],
            data["pass_direction"],
            tuple(ActionRecord.from_dict(a) for a in data["actions"]),
            tuple(data["points"]),
            tuple(data["totals"]),
        )


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One game: who sat where, its hands, and (when it finished) its totals, lives and
    ranking."""

    index: int
    seating: tuple[int, ...]
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...] | None
    ranking: tuple[int, ...] | None
    lives: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "index": self.index,
            "seating": list(self.seating),
            "hands": [h.to_dict() for h in self.hands],
        }
        if self.totals is not None:
            data["totals"] = list(self.totals)
            data["ranking"] = list(self.ranking or ())
        if self.lives is not None:
            data["lives"] = list(self.lives)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        def maybe(key: str) -> tuple[int, ...] | None:
            return tuple(data[key]) if key in data else None

        return cls(
            data["index"],
            tuple(data["seating"]),
            tuple(HandRecord.from_dict(h) for h in data["hands"]),
            maybe("totals"),
            maybe("ranking"),
            maybe("lives"),
        )


@dataclasses.dataclass(frozen=True)
class ReplayV2:
    """A whole match: the header as in v1 (rules, seed, policies, entrants), the games as
    actions, and the faults, notes, logs and result as in v1."""

    header: dict[str, Any]
    games: tuple[GameRecord, ...]
    faults: tuple[dict[str, Any], ...]
    result: dict[str, Any]
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)
    """What a v2 reader need not understand: logs, notes, timestamps."""

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.header["rules"])

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            **self.header,
            "format": REPLAY_FORMAT,
            "version": REPLAY_V2,
            "games": [g.to_dict() for g in self.games],
            "faults": list(self.faults),
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReplayV2:
        if data.get("format") != REPLAY_FORMAT or data.get("version") != REPLAY_V2:
            raise ValueError("not a Hearts Arena replay of version 2")
        header = {k: data[k] for k in _HEADER if k in data}
        extra = {k: v for k, v in data.items() if k not in _HEADER and k not in _OWN}
        return cls(
            header,
            tuple(GameRecord.from_dict(g) for g in data["games"]),
            tuple(data.get("faults", ())),
            dict(data["result"]),
            extra,
        )


_HEADER = (
    "match_id",
    "rules",
    "seed",
    "match_format",
    "time_policy",
    "fault_policy",
    "entrants",
)
_OWN = ("format", "version", "games", "faults", "result")


@cache
def _schema_text() -> str:
    return resources.files("arena.match").joinpath("replay-v2.schema.json").read_text()


def schema() -> dict[str, Any]:
    """The JSON Schema of a v2 document (arena/match/replay-v2.schema.json), an action's
    kind one of those registered with the engine now (`arena.engine.phases.kinds`)."""
    loaded: dict[str, Any] = json.loads(_schema_text())
    kind = loaded["$defs"]["action"]["properties"]["kind"]
    kind["enum"] = [k.value for k in kinds()]
    return loaded


# -- values: the engine's form and the document's -------------------------------------


def to_json(kind: DecisionKind, value: Any) -> Any:
    """An action's value as the document keeps it (its kind's room's codec,
    `arena.engine.phases`)."""
    return room_of(kind).encode(kind, value)


def from_json(kind: DecisionKind, value: Any) -> Any:
    """A document's value in the form `Hand.apply` takes (its kind's room's codec)."""
    return room_of(kind).decode(kind, value)


def _v1_value(kind: DecisionKind, record: Mapping[str, Any]) -> Any:
    """A v1 decision record's answer in the document's form."""
    if kind is DecisionKind.PLAY or kind is DecisionKind.REVEAL:
        return record["card"]
    if kind is DecisionKind.PENNY_PLAY:
        return [record["penny"], record["card"]]
    if kind is DecisionKind.PASS:
        return list(record["cards"])
    if kind is DecisionKind.CALL:
        if "count" in record:  # 004 'Passing cards': the dealer called the count too
            return [record["direction"], record["count"]]
        return list(record["split"]) if "split" in record else record["direction"]
    if kind is DecisionKind.BID:
        return record["bid"]
    if kind is DecisionKind.NAMING:
        return record["suit"]
    return record["value"]  # a kind filed under v1's `decisions`


def _v1_kind(kind: DecisionKind) -> str:
    """Where v1 files a kind (a Four-Penny play among the plays)."""
    return "play" if kind is DecisionKind.PENNY_PLAY else kind.value


def _apply(hand: Hand, kind: DecisionKind, seat: int, value: Any, where: str) -> None:
    try:
        hand.apply(Action(kind, seat, from_json(kind, value)))
    except (ValueError, TypeError) as error:
        raise ReplayMismatchError(where, value, f"illegal: {error}") from None


def _new_draws(hand: Hand, seen: int) -> list[Action]:
    """The engine's own actions (Domino draws, Enfle pickups: `ENGINE_KINDS`) in
    `hand.history` past the first `seen`."""
    return [a for a in hand.history[seen:] if a.kind in ENGINE_KINDS]


_ENGINE_KIND_NAMES = frozenset(kind.value for kind in ENGINE_KINDS)


# -- v1 to v2 --------------------------------------------------------------------------


def from_v1(replay: Mapping[str, Any]) -> ReplayV2:
    """The v2 document of a v1 replay: each hand's v1 records answer the engine's own
    questions, in the order `Hand.pending` asks them (ReplayMismatchError where they do
    not fit)."""
    try:
        rules = Rules.from_dict(replay["rules"])
    except (RulesError, KeyError) as error:
        raise ReplayMismatchError("rules", "invalid", str(error)) from None
    games = []
    for g, game_record in enumerate(replay["games"]):
        game = Game(rules, replay["seed"])
        hands = []
        for number, hand_record in enumerate(game_record["hands"]):
            at = f"games[{g}].hands[{number}]"
            hands.append(_hand_from_v1(game, hand_record, at))

        def maybe(key: str, record: Mapping[str, Any] = game_record) -> tuple[int, ...] | None:
            return tuple(record[key]) if key in record else None

        games.append(
            GameRecord(
                game_record.get("index", g),
                tuple(game_record["seating"]),
                tuple(hands),
                maybe("totals"),
                maybe("ranking"),
                maybe("lives"),
            )
        )
    header = {k: replay[k] for k in _HEADER if k in replay}
    extra = {k: v for k, v in replay.items() if k not in _HEADER and k not in _OWN}
    return ReplayV2(
        header, tuple(games), tuple(replay.get("faults", ())), dict(replay["result"]), extra
    )


def _hand_from_v1(game: Game, record: Mapping[str, Any], at: str) -> HandRecord:
    hand = game.hand
    queues: dict[str, deque[dict[str, Any]]] = {}
    for v1_kind, _, entry in decision_records(record):
        queues.setdefault(v1_kind, deque()).append(entry)
    actions: list[ActionRecord] = []
    seen = 0
    while (decision := hand.pending()) is not None:
        kind = decision.kind
        queue = queues.get(_v1_kind(kind))
        if not queue and kind is DecisionKind.MOON_CHOICE:
            break  # written before the shooter was asked: the engine's pick scores it
        if not queue:
            raise ReplayMismatchError(at, f"no more {_v1_kind(kind)} records", kind.value)
        v1 = queue.popleft()
        value = _v1_value(kind, v1)
        actions.append(
            ActionRecord(
                kind.value,
                v1.get("seat", decision.seat),
                value,
                float(v1.get("ms", 0.0)),
                v1.get("fault"),
                v1.get("note"),
                bool(v1.get("auto", False)),
            )
        )
        _apply(hand, kind, actions[-1].seat, value, f"{at}.{kind.value}")
        fresh = hand.history[seen:]
        seen = len(hand.history)
        actions += [
            ActionRecord(a.kind.value, a.seat, to_json(a.kind, a.value))
            for a in fresh
            if a.kind in ENGINE_KINDS
        ]
    left = [kind for kind, queue in queues.items() if queue]
    if left:
        raise ReplayMismatchError(at, f"{left[0]} records left", "the hand is over")
    points = game.finish_hand()
    return HandRecord(
        record["number"],
        record["seed"],
        record["dealer"],
        record["pass_direction"],
        tuple(actions),
        tuple(points),
        tuple(game.totals),
    )


# -- verifying v2 ------------------------------------------------------------------------


def _expect(where: str, recorded: object, engine: object) -> None:
    if recorded != engine:
        raise ReplayMismatchError(where, recorded, engine)


def verify_v2(document: ReplayV2) -> Verification:
    """Re-apply every action through `Hand.apply` and confirm every score, total, ranking
    and result; ReplayMismatchError names the first difference. A faulted or automatic
    action must be the decision's default; a draw must be the engine's own."""
    try:
        rules = document.rules
    except (RulesError, KeyError) as error:
        raise ReplayMismatchError("rules", "invalid", str(error)) from None
    seed = document.header["seed"]
    hands = decisions = 0
    for g, record in enumerate(document.games):
        game = Game(rules, seed)
        for h, hand_record in enumerate(record.hands):
            at = f"games[{g}].hands[{h}]"
            if game.is_over:
                raise ReplayMismatchError(at, "another hand", "the game was already over")
            decisions += _verify_hand(game, hand_record, at)
            hands += 1
        if record.totals is not None:
            _expect(f"games[{g}].game_over", True, game.is_over)
            _expect(f"games[{g}].totals", record.totals, tuple(game.totals))
            _expect(f"games[{g}].ranking", record.ranking, tuple(game.ranking()))
            if rules.lives:
                _expect(f"games[{g}].lives", record.lives, tuple(game.lives))
    games = [g.to_dict() for g in document.games]
    summary = {
        "result": document.result,
        "faults": list(document.faults),
        "fault_policy": document.header.get("fault_policy", {}),
    }
    verify_result(summary, rules, games)
    return Verification(len(document.games), hands, decisions)


def _verify_hand(game: Game, record: HandRecord, at: str) -> int:
    hand = game.hand
    _expect(f"{at}.seed", record.seed, game.hand_seeds[-1])
    _expect(f"{at}.dealer", record.dealer, hand.dealer)
    _expect(f"{at}.pass_direction", record.pass_direction, hand.pass_direction.value)
    decisions = drawn = 0
    for i, action in enumerate(record.actions):
        where = f"{at}.actions[{i}]"
        try:
            kind = DecisionKind(action.kind)
        except ValueError:
            raise ReplayMismatchError(where, action.kind, "a decision kind") from None
        if kind in ENGINE_KINDS:  # the engine's own: compare, never apply
            draws = _new_draws(hand, 0)
            engine = draws[drawn] if drawn < len(draws) else None
            _expect(
                where,
                (action.kind, action.seat, action.value),
                None
                if engine is None
                else (engine.kind.value, engine.seat, to_json(engine.kind, engine.value)),
            )
            drawn += 1
            continue
        decision = hand.pending()
        if decision is None:
            raise ReplayMismatchError(where, action.kind, "the hand is over")
        _expect(f"{where}.kind", action.kind, decision.kind.value)
        _expect(f"{where}.seat", action.seat, decision.seat)
        if action.fault or action.auto:
            _expect(f"{where}.value (default)", action.value, to_json(kind, decision.default))
        _apply(hand, kind, action.seat, action.value, where)
        decisions += 1
    left = hand.pending()
    # A replay written before the shooter was asked (004 'Shooting the moon') ends without
    # his choice: the engine's pick, the decision's default, scores it as it did then.
    if left is not None and left.kind is not DecisionKind.MOON_CHOICE:
        raise ReplayMismatchError(f"{at}.actions", "hand finished", "decisions still to take")
    _expect(f"{at}.draws", drawn, len(_new_draws(hand, 0)))
    points = game.finish_hand()
    _expect(f"{at}.points", record.points, tuple(points))
    _expect(f"{at}.totals", record.totals, tuple(game.totals))
    return decisions


__all__ = [
    "REPLAY_V2",
    "ActionRecord",
    "GameRecord",
    "HandRecord",
    "ReplayV2",
    "from_v1",
    "schema",
    "verify_v2",
]
