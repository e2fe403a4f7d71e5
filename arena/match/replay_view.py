"""Replay v1's layout as a view of replay v2: the one place that knows where v1 files each
decision kind.

Why: the runner writes replay v2 (each hand's actions, `replay_v2.py`), but the site's
viewer (replay.js), `arena replay show`, `arena replay ask` and the luck measures read a
hand laid out for people: its deal, the passes and what each seat received, the auction,
the tricks with their leaders and winners, the multi-rounds. None of that is stored in v2
(the deal follows from the seed, a winner from the plays), so the view re-applies the
actions through the engine and writes v1's layout from what the engine says (`to_v1`).
Readers of a stored replay go through `readable`, which reads by version, so replays
written before v2 (every fixture, and a database's older rows) keep being shown as they
were. The runner uses the same writer (`HandWriter`) for its live events.
docs/decisions/0006-decisions-as-data.md says why v1 is still a view at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from arena.engine import Game, Hand, Rules, RulesError
from arena.engine.decisions import Action, Decision, DecisionKind
from arena.engine.rules import PassDirection, Settlement

from . import replay as replay_io
from .replay import REPLAY_FORMAT, REPLAY_VERSION
from .replay_v2 import (
    REPLAY_V2,
    ActionRecord,
    GameRecord,
    HandRecord,
    ReplayV2,
    from_json,
    from_v1,
)
from .verify import ReplayMismatchError, new_draws

VERSIONS = replay_io.VERSIONS
"""The replay versions a reader of a stored replay accepts (`replay.VERSIONS`)."""

Emit = Callable[..., None]
"""The runner's event callback: `emit(kind, **data)` (runner.EventSink's kinds)."""


def v1_entry(action: ActionRecord) -> dict[str, Any]:
    """A v2 action as v1's decision record: the answer under the key v1 keeps it by (the
    viewer and the verifier read those keys)."""
    kind, seat, value = action.kind, action.seat, action.value
    entry: dict[str, Any] = {"seat": seat}
    if kind in {"play", "reveal"}:
        entry["card"] = value
    elif kind == "penny_play":
        entry["penny"], entry["card"] = value[0], value[1]
    elif kind == "pass":
        entry["cards"] = list(value)
    elif (
        kind == "call" and isinstance(value, list) and len(value) == 2 and isinstance(value[1], int)
    ):  # 004 'Passing cards': where and how many
        entry["direction"], entry["count"] = value[0], value[1]
    elif kind == "call":
        entry["direction"] = value
    elif kind == "bid":
        entry["bid"] = value
    elif kind == "naming":
        entry["suit"] = value
    else:  # a kind v1 has no key for: its value as it is
        entry["value"] = value
    entry["ms"] = action.ms
    if action.fault is not None:
        entry["fault"] = action.fault
    if action.auto:
        entry["auto"] = True
    if action.note is not None:
        entry["note"] = action.note
    return entry


_BEFORE_EXCHANGE = frozenset(
    {DecisionKind.CALL, DecisionKind.PASS, DecisionKind.REFUSE_QUEEN, DecisionKind.REPLACE_PASS}
)
"""The kinds asked before the pass is exchanged (Rickety Kate's refusal of a passed QS and
its replacement come after every pass and before the exchange): what each seat received is
recorded at the first decision of another kind."""


class HandWriter:
    """One hand's v1 record, written decision by decision as the hand is played (by the
    runner, for its live events) or re-played (by `to_v1`): `before` each decision is
    applied, `after` it with its v1 entry, `finish` once the hand is scored."""

    __slots__ = ("_drew", "bids", "drawn", "emit", "game_index", "hand", "multi", "plays", "record")

    def __init__(
        self, hand: Hand, number: int, seed: int, game_index: int = 0, emit: Emit | None = None
    ) -> None:
        n = hand.players
        self.hand = hand
        self.game_index = game_index
        self.emit = emit
        self.record: dict[str, Any] = {
            "number": number,
            "seed": seed,
            "dealer": hand.dealer,
            "pass_direction": hand.pass_direction.value,
            "deal": [[str(c) for c in hand.hand_of(s)] for s in range(n)],
            "kitty": [str(c) for c in hand.kitty],
            "passes": [],
            "tricks": [],
        }
        self.plays: list[dict[str, Any]] = []  # the trick in play
        self.bids: list[dict[str, Any]] = []  # Auction Hearts
        self.drawn = 0  # Domino Hearts: the draws recorded so far
        self.multi: dict[str, Any] | None = None  # Four-Penny: the multi-round in play
        self._drew: list[str] = []  # Domino Hearts: drawn before the play being asked

    def _emit(self, kind: str, **data: Any) -> None:
        if self.emit is not None:
            self.emit(kind, game=self.game_index, **data)

    def passes_done(self) -> None:
        """After the call and the passes (at the first other decision, or the hand's end):
        what each seat received, told to the event callback once."""
        record, hand = self.record, self.hand
        if "received" in record:
            return
        record["received"] = [[str(c) for c in hand.received(s)] for s in range(hand.players)]
        self._emit("passes", passes=record["passes"], received=record["received"])

    def before(self, decision: Decision) -> None:
        """What the record needs from before the action is applied."""
        kind = decision.kind
        if kind is DecisionKind.PLAY:
            if "received" not in self.record:
                self.passes_done()
            if self.hand.engine_acts:  # Domino Hearts' draws (none in other games)
                drew = new_draws(self.hand, self.drawn, decision.seat)
                self.drawn += len(drew)
                self._drew = drew
        elif kind is DecisionKind.PENNY_PLAY:
            if self.multi is None:
                self.multi = {
                    "leader": self.hand.leader,
                    "start": len(self.hand.tricks()),
                    "plays": [],
                }
        elif kind not in _BEFORE_EXCHANGE:
            self.passes_done()

    def after(self, decision: Decision, entry: dict[str, Any]) -> None:
        """File the applied decision's entry where v1 keeps its kind."""
        hand, record, kind = self.hand, self.record, decision.kind
        if kind is DecisionKind.PLAY:
            if self._drew:  # drawn before this play, by the seat playing it
                entry["drew"] = self._drew
                self._drew = []
            self.plays.append(entry)
            tricks = record["tricks"]
            self._emit("play", trick=len(tricks), play=entry)
            if hand.trick_number != decision.trick:
                trick = hand.tricks()[-1]
                tricks.append({"leader": trick.leader, "plays": self.plays, "winner": trick.winner})
                if trick.winner < 0 and hand.pickups():
                    # 004 'Enfle': the next seat could not follow and took everything up.
                    _, seat, cards = hand.pickups()[-1]
                    tricks[-1]["pickup"] = {"seat": seat, "cards": [str(c) for c in cards]}
                self._emit("trick", trick=len(tricks) - 1, record=tricks[-1])
                self.plays = []
            elif hand.is_over:  # Enfle: a seat went out mid-trick, which stays unfinished
                leader = self.plays[0]["seat"]
                tricks.append({"leader": leader, "plays": self.plays, "winner": -1})
                self._emit("trick", trick=len(tricks) - 1, record=tricks[-1])
                self.plays = []
        elif kind is DecisionKind.PENNY_PLAY:
            multi = self.multi
            assert multi is not None
            multi["plays"].append(entry)
            if len(multi["plays"]) == hand.players * hand.players:
                # 003 'FOUR-PENNY HEARTS': n * n plays around the table, then each penny's winner.
                winners = [trick.winner for trick in hand.tricks()[multi["start"] :]]
                record.setdefault("multi_rounds", []).append(
                    {"leader": multi["leader"], "plays": multi["plays"], "winners": winners}
                )
                self.multi = None
        elif kind is DecisionKind.PASS:
            record["passes"].append(entry)
        elif kind is DecisionKind.CALL:
            if hand.pass_split:  # a split: "direction" says so, "split" how each card goes
                entry["direction"] = PassDirection.SPLIT.value
                entry["split"] = [d.value for d in hand.pass_split]
            record["call"] = entry
        elif kind is DecisionKind.BID:
            self.bids.append(entry)
        elif kind is DecisionKind.NAMING:
            auction = hand.auction
            assert auction is not None
            assert hand.scoring_suit is not None
            record["auction"] = {
                "bids": self.bids,
                "declarer": decision.seat,
                "bid": auction.winning_bid,
                "standing": auction.standing is not None,
                "naming": entry,
            }
            record["scoring_suit"] = hand.scoring_suit.letter
        elif kind is DecisionKind.REVEAL:
            record.setdefault("reveals", []).append(entry)
            if hand.scoring_suit is not None:
                record["scoring_suit"] = hand.scoring_suit.letter
        else:  # a kind without a place of its own in v1: in order, with its kind
            record.setdefault("decisions", []).append({"kind": kind.value, **entry})

    def finish(self, game: Game, points: tuple[int, ...] | list[int]) -> dict[str, Any]:
        """The hand's end, once `game.finish_hand()` scored it: points, totals, what the
        rules keep beside them, and who shot the moon. Returns the complete record."""
        self.passes_done()
        record, hand, rules = self.record, self.hand, game.rules
        record["points"] = list(points)
        record["totals"] = list(game.totals)
        if rules.settlement is not Settlement.POINTS:
            record["penalty_points"] = list(game.hand_points[-1])
            record["pot"] = game.pot
        if rules.lives:
            record["lives"] = list(game.lives)
        record["kitty_owner"] = hand.kitty_owner
        if hand.kept_by is not None:
            # "The last survivor must keep all the cards remaining in his hand."
            record["kept"] = {"seat": hand.kept_by, "cards": [str(c) for c in hand.kept]}
        if hand.goes_out:  # 004 'Enfle': who got rid of all his cards (None: cap)
            record["went_out"] = hand.went_out
        record["moon"] = shooter(rules, hand)
        return record


def shooter(rules: Rules, hand: Hand) -> int | None:
    """The seat that took every card the moon needs this hand, or None."""
    needed = (rules.penalty_cards | rules.moon_requires).mask
    if rules.moon.value == "none" or not needed:
        return None
    twice = rules.deck_copies.twice & needed if rules.cancellation else 0  # both copies
    for seat in range(rules.players):
        taken = hand.taken(seat)
        if needed & ~taken.mask == 0 and twice & ~taken.twice == 0:
            return seat
    return None


# -- the view of a whole document ------------------------------------------------------


def to_v1(document: ReplayV2) -> dict[str, Any]:
    """The v1 layout of a v2 document, each hand re-played through the engine
    (ReplayMismatchError where an action does not apply: such a document is corrupt)."""
    try:
        rules = document.rules
    except (RulesError, KeyError) as error:
        raise ReplayMismatchError("rules", "invalid", str(error)) from None
    games = []
    for g, record in enumerate(document.games):
        game = Game(rules, document.header["seed"])
        hands = [
            _hand_to_v1(game, hand, record.index, f"games[{g}].hands[{h}]")
            for h, hand in enumerate(record.hands)
        ]
        written: dict[str, Any] = {
            "index": record.index,
            "seating": list(record.seating),
            "hands": hands,
        }
        if record.totals is not None:
            written["totals"] = list(record.totals)
            if record.lives is not None:
                written["lives"] = list(record.lives)
            written["ranking"] = list(record.ranking or ())
        games.append(written)
    return {
        **document.extra,
        **document.header,
        "format": REPLAY_FORMAT,
        "version": REPLAY_VERSION,
        "games": games,
        "faults": list(document.faults),
        "result": document.result,
    }


def _hand_to_v1(game: Game, record: HandRecord, game_index: int, at: str) -> dict[str, Any]:
    hand = game.hand
    writer = HandWriter(hand, record.number, record.seed, game_index)
    for i, action in enumerate(record.actions):
        decision = _asked(hand, action, f"{at}.actions[{i}]")
        if decision is None:  # the engine's own: the writer reads them from the hand
            continue
        writer.before(decision)
        _apply(hand, decision, action, f"{at}.actions[{i}]")
        writer.after(decision, v1_entry(action))
    return writer.finish(game, game.finish_hand())


def _asked(hand: Hand, action: ActionRecord, where: str) -> Decision | None:
    """The decision the hand asks that `action` answers; None for an action the engine
    makes itself (Domino Hearts' draws, Enfle's pickups: applying the answers makes them).
    ReplayMismatchError when the hand asks something else."""
    if action.kind in ("draw", "pickup"):
        return None
    decision = hand.pending()
    if decision is None or decision.kind.value != action.kind:
        raise ReplayMismatchError(where, action.kind, decision)
    return decision


def _apply(hand: Hand, decision: Decision, action: ActionRecord, where: str) -> None:
    """Apply the recorded answer to `decision` (ReplayMismatchError where it is illegal)."""
    kind = decision.kind
    try:
        hand.apply(Action(kind, action.seat, from_json(kind, action.value)))
    except (ValueError, TypeError) as error:
        raise ReplayMismatchError(where, action.value, str(error)) from None


def readable(replay: Mapping[str, Any]) -> dict[str, Any]:
    """A loaded replay of either version in v1's layout (a v1 replay as it is); raises
    replay.ReplayError for a v2 document that does not re-play."""
    if replay.get("version") == REPLAY_V2:
        try:
            return to_v1(ReplayV2.from_dict(replay))
        except (ReplayMismatchError, KeyError, TypeError, ValueError) as error:
            raise replay_io.ReplayError(f"a replay v2 that does not re-play: {error}") from None
    return dict(replay)


def loads(data: bytes) -> dict[str, Any]:
    """Stored bytes of a replay of either version, in v1's layout (replay.ReplayError for
    anything else)."""
    return readable(replay_io.loads(data, VERSIONS))


def load(path: Path) -> dict[str, Any]:
    """A replay file of either version, in v1's layout (replay.ReplayError otherwise)."""
    return readable(replay_io.load(path, VERSIONS))


def document(replay: Mapping[str, Any]) -> ReplayV2:
    """A loaded replay of either version as the v2 document (a v1 one converted)."""
    if replay.get("version") == REPLAY_V2:
        return ReplayV2.from_dict(replay)
    return from_v1(replay)


def shooters(replay: Mapping[str, Any]) -> list[list[int | None]]:
    """Who shot the moon in each hand, game by game (the seat; None: nobody), from a
    loaded replay of either version, without v1's layout. v1 records it (`moon`); v2 does
    not, but its result counts each entrant's moons: when it counts none, no hand is
    re-played; otherwise each game's actions are re-applied through the engine and each
    hand's takings asked (`shooter`). Raises replay.ReplayError for a v2 document that
    does not re-play."""
    if replay.get("version") != REPLAY_V2:
        return [[hand.get("moon") for hand in game["hands"]] for game in replay.get("games", [])]
    entrants = replay.get("result", {}).get("entrants")
    if entrants is not None and not any(entrant.get("moons") for entrant in entrants):
        return [[None] * len(game["hands"]) for game in replay.get("games", [])]
    try:
        document = ReplayV2.from_dict(replay)
        rules = document.rules
        return [
            _game_shooters(rules, document.header["seed"], record, f"games[{g}]")
            for g, record in enumerate(document.games)
        ]
    except (ReplayMismatchError, RulesError, KeyError, TypeError, ValueError) as error:
        raise replay_io.ReplayError(f"a replay v2 that does not re-play: {error}") from None


def walk(document: ReplayV2) -> Iterator[tuple[int, HandRecord, int, Hand, Decision]]:
    """Every decision of `document` as it was asked: (game index, hand record, action
    index, the hand before the answer, the decision), the recorded answer applied once
    the consumer asks for the next one (so `hand.view(seat)` is the seat's view when it
    answered). Engine-made actions are applied without being yielded. Raises
    ReplayMismatchError where an action does not apply."""
    rules = document.rules
    for g, record in enumerate(document.games):
        game = Game(rules, document.header["seed"])
        for h, hand_record in enumerate(record.hands):
            hand = game.hand
            for i, action in enumerate(hand_record.actions):
                where = f"games[{g}].hands[{h}].actions[{i}]"
                decision = _asked(hand, action, where)
                if decision is not None:
                    yield g, hand_record, i, hand, decision
                    _apply(hand, decision, action, where)
            game.finish_hand()


def _game_shooters(rules: Rules, seed: int, record: GameRecord, at: str) -> list[int | None]:
    game = Game(rules, seed)
    found = []
    for h, hand_record in enumerate(record.hands):
        hand = game.hand
        for i, action in enumerate(hand_record.actions):
            where = f"{at}.hands[{h}].actions[{i}]"
            decision = _asked(hand, action, where)
            if decision is not None:
                _apply(hand, decision, action, where)
        found.append(shooter(rules, hand))
        game.finish_hand()
    return found
