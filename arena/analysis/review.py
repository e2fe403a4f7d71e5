"""The analysis of a match: every decision of a seat judged from what it knew, marked by
what it cost, and summed up per entrant by phase (docs/analysis.md).

The replay is read through the one reader (`replay_view.walk`): each decision comes with
the hand as it stood, and the seat's view (`Hand.view`) is all the evaluator is given, so
the hidden hands never reach the judgement. Each decision's generator is seeded by the
analysis seed and the decision's place, so an analysis is deterministic for a seed
whatever seats or decisions are chosen beside it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

from arena.engine import PassDirection
from arena.engine.decisions import ENGINE_KINDS, DecisionKind
from arena.engine.phases import room_of
from arena.match import replay_view
from arena.match.verify import ReplayMismatchError

from .answers import answer_text, candidates, concerns_queen, legal_count, phase_of
from .evaluator import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SAMPLES,
    ENGINE_PLAYOUTS,
    Evaluation,
    InconsistentBeliefError,
    Playout,
    evaluate_pass,
    evaluate_play,
    expert_evaluation,
    pass_candidates,
    passes_evaluable,
    plays_evaluable,
)
from .families import evaluate_family_play, family_of
from .hindsight import Asked, Real, judge_hindsight
from .moon import evaluate_moon_choice
from .rollout import evaluate_on_worlds
from .worlds import RealDeal, Table, seen_record

ANALYSIS_VERSION = 3
"""The layout of `MatchAnalysis.to_dict`. The site serves a stored analysis of another
version as outdated and queues it again when asked (`arena.store.analyses.is_outdated`).
2: every decision kind and family judged, with the phases beyond the play and the pass.
3: the hindsight of every kind that has one (passes, the kinds judged on worlds, the
families' plays, kitty games; each with its `playouts`), and a penny-round card's `order`
in its round."""

INACCURACY = 1.5
"""Loss (points of the hand, counted against the table) from which a decision is an
inaccuracy."""
MISTAKE = 4.0
"""... a mistake."""
BLUNDER = 8.0
"""... a blunder: about half a ♠Q handed to oneself, or a moon handed away."""
MARKS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))

MOON_SHIFT = 0.2
"""A decision concerns the moon when the best answer's and the chosen answer's shares of
playouts ending in a moon differ by at least this much."""

PHASES = (
    "pass",
    "lead",
    "follow",
    "discard",
    "call",
    "auction",
    "reveal",
    "pledge",
    "expose",
    "queen_refusal",
    "moon_choice",
)
"""Where a decision is: every analysed decision is in exactly one. A card played (to a
trick, or to a penny-round) is a lead, a follow or a discard; the other kinds each have
their own (`answers.PHASE_OF_KIND`): the dealer's call, the auction (a bid, the suit
named), Heartless' face-down card, the no-hearts pledge, Gong Zhu's exposures, Rickety
Kate's refusal of a passed QS and its replacement, and the shooter's choice."""

WORLD_SHARE = 8
"""The decisions judged on sampled worlds (`rollout`: the engine's decision loop, a
whole hand per answer) take `samples // WORLD_SHARE` deals (at least `WORLD_MIN`): one
deterministic playout per deal and answer, each costing a hand played in Python rather
than a C playout (`arena bench analysis --rules PRESET` measures the budget)."""
WORLD_MIN = 8
PENNY_SHARE = 50
"""A penny-round's card (48 of them a hand in the four-penny game) takes `samples //
PENNY_SHARE` worlds (at least `PENNY_MIN`), to keep a 13-hand match near a core-minute
(docs/benchmarks.md: five worlds of up to six answers cost a four-penny match 70
core-seconds, four of up to four 58, and a five-penny match 75: hence three answers,
and four pass candidates, `answers.PASS_EXTRA`)."""
PENNY_MIN = 4
FAMILY_SHARES = {"cancellation": 4, "enfle": 4, "domino": 1}
"""The plays of two packs, Enfle and Domino Hearts, judged by their families' searches
(`families`), take `samples // share` deals (at least `WORLD_MIN`), one playout each:
their playouts are Python loops on the family's core, about a hundred times a C
playout's cost, and an eight-seat two-pack hand has some 80 plays to judge; Domino's
short hands afford the whole depth (`arena bench analysis --rules PRESET`)."""
TAGS = ("queen", "moon")
"""What a decision may also concern (the ♠Q at stake, the moon at stake)."""
WORST_SHOWN = 5
EVALUATORS = ("strong", "expert")

_PLAY = DecisionKind.PLAY
_PASS = DecisionKind.PASS


class AnalysisError(ValueError):
    """The replay cannot be analysed as asked (it does not re-play, or no such seat)."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """The depth and seed of an analysis."""

    samples: int = DEFAULT_SAMPLES
    playouts: int = DEFAULT_PLAYOUTS
    seed: int = 0
    evaluator: str = "strong"
    hindsight: bool = False
    """Also the "all hands known" view of each play (`DecisionAnalysis.hindsight`), kept
    apart: never in the loss, the marks or the summary."""
    """"strong": the strong bot's search with the `Playout` given (the default); "expert":
    the expert house bot's evaluation (`evaluator.expert_evaluation`)."""

    def __post_init__(self) -> None:
        if self.samples < 1 or self.playouts < 1:
            raise ValueError("an analysis needs at least one sample and one playout")
        if self.evaluator not in EVALUATORS:
            raise ValueError(f"unknown evaluator {self.evaluator!r}: one of {EVALUATORS}")


@dataclasses.dataclass(frozen=True)
class DecisionAnalysis:
    """One judged decision."""

    game: int
    hand: int
    action: int
    """The answer's index in its hand's actions (replay v2), the viewer's key."""
    seat: int
    entrant: int
    kind: str
    trick: int | None
    position: int | None
    """The play's place in its trick (0: the lead); None for a pass."""
    phase: str
    tags: tuple[str, ...]
    chosen: str
    best: str
    loss: float
    mark: str | None
    answers: tuple[dict[str, Any], ...]
    samples: int
    fault: str | None = None
    hindsight: dict[str, Any] | None = None
    """With `Settings.hindsight`, for every kind that has one (`hindsight.judge_hindsight`):
    the best answer, the chosen answer's loss, every answer's value on the real deal ("all
    hands known", which the seat could not know) and the `playouts` per answer. Never part
    of `loss` or `mark`."""
    order: int | None = None
    """A penny-round's card: its place in the round's order of play (0: the round's first
    card; `position` is its place in its penny's pile); None otherwise."""

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["tags"] = list(self.tags)
        data["answers"] = list(self.answers)
        return data


@dataclasses.dataclass(frozen=True)
class MatchAnalysis:
    """Every judged decision of the seats asked, what was not judged, and the summary."""

    settings: Settings
    playout: str
    decisions: tuple[DecisionAnalysis, ...]
    skipped: dict[str, int]
    """Per kind, the decisions not evaluated (the kinds the evaluation does not reach, a
    forced answer counted as "forced")."""
    entrants: tuple[str, ...]
    hands: dict[int, int]
    """Per entrant, the hands it played in the analysed seats."""

    def summary(self) -> dict[int, dict[str, Any]]:
        """Per entrant: hands, decisions judged, marks, the loss per hand by phase and tag,
        and the worst decisions."""
        return {entrant: summarise(self, entrant) for entrant in sorted(self.hands)}

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": ANALYSIS_VERSION,
            "settings": dataclasses.asdict(self.settings),
            "playout": self.playout,
            "thresholds": dict(MARKS),
            "entrants": list(self.entrants),
            "hands": {str(k): v for k, v in self.hands.items()},
            "skipped": dict(self.skipped),
            "decisions": [d.to_dict() for d in self.decisions],
            "summary": {str(k): v for k, v in self.summary().items()},
        }


def mark_of(loss: float) -> str | None:
    """The mark a loss earns (`MARKS`), None below an inaccuracy."""
    for name, threshold in MARKS:
        if loss >= threshold:
            return name
    return None


def summarise(analysis: MatchAnalysis, entrant: int) -> dict[str, Any]:
    """One entrant's summary (see `MatchAnalysis.summary`)."""
    mine = [d for d in analysis.decisions if d.entrant == entrant]
    hands = max(analysis.hands.get(entrant, 0), 1)
    by_phase = {p: round(sum(d.loss for d in mine if d.phase == p) / hands, 3) for p in PHASES}
    by_tag = {t: round(sum(d.loss for d in mine if t in d.tags) / hands, 3) for t in TAGS}
    marks = {name: sum(d.mark == name for d in mine) for name, _ in MARKS}
    worst = sorted(mine, key=lambda d: (-d.loss, d.game, d.hand, d.action))[:WORST_SHOWN]
    return {
        "hands": analysis.hands.get(entrant, 0),
        "decisions": len(mine),
        "loss_per_hand": round(sum(d.loss for d in mine) / hands, 3),
        "phases": by_phase,
        "tags": by_tag,
        "marks": marks,
        "worst": [_brief(d) for d in worst if d.loss > 0],
    }


def _brief(d: DecisionAnalysis) -> dict[str, Any]:
    return {
        "game": d.game,
        "hand": d.hand,
        "action": d.action,
        "seat": d.seat,
        "kind": d.kind,
        "trick": d.trick,
        "position": d.position,
        "phase": d.phase,
        "chosen": d.chosen,
        "best": d.best,
        "loss": d.loss,
        "mark": d.mark,
    }


Progress = Callable[[int, int], None]
"""Told (decisions done, decisions to do) as the analysis goes."""


def analyse(
    replay: Mapping[str, Any],
    *,
    seats: set[int] | None = None,
    settings: Settings | None = None,
    playout: Playout = ENGINE_PLAYOUTS,
    progress: Progress | None = None,
) -> MatchAnalysis:
    """Judge every play and pass of `seats` (seats at the table; None: every seat) in a
    loaded replay of either version. Raises AnalysisError when the replay does not re-play
    or a seat does not exist."""
    settings = settings or Settings()
    try:
        document = replay_view.document(replay)
        rules = document.rules
    except (KeyError, TypeError, ValueError) as error:
        raise AnalysisError(f"the replay cannot be read: {error}") from None
    players = rules.players
    if seats is not None and not seats <= set(range(players)):
        raise AnalysisError(f"there is no seat {sorted(seats - set(range(players)))}")
    chosen_seats = set(range(players)) if seats is None else seats
    entrants = tuple(
        str(e.get("label", e.get("name", f"entrant {i}")))
        for i, e in enumerate(document.header.get("entrants", []))
    )
    hands: dict[int, int] = {}
    for record in document.games:
        for seat in chosen_seats:
            entrant = record.seating[seat]
            hands[entrant] = hands.get(entrant, 0) + len(record.hands)
    total = sum(
        1
        for record in document.games
        for hand in record.hands
        for action in hand.actions
        if action.seat in chosen_seats and DecisionKind(action.kind) not in ENGINE_KINDS
    )
    decisions: list[DecisionAnalysis] = []
    skipped: dict[str, int] = {}
    done = 0
    dealt: tuple[int, int, RealDeal] | None = None
    try:
        for g, hand_record, index, hand, decision in replay_view.walk(document):
            if settings.hindsight and (dealt is None or dealt[:2] != (g, hand_record.number)):
                dealt = (g, hand_record.number, RealDeal.of(hand))  # the hand's first ask
            if decision.seat not in chosen_seats:
                continue
            action = hand_record.actions[index]
            done += 1
            if progress is not None:
                progress(done, total)
            if action.auto:
                skipped["auto"] = skipped.get("auto", 0) + 1
                continue
            judged = _judge(
                document.games[g].seating,
                g,
                hand_record.number,
                index,
                hand,
                decision,
                action,
                settings,
                playout,
                None if dealt is None else Real(dealt[2], hand_record.actions),
            )
            if isinstance(judged, str):
                skipped[judged] = skipped.get(judged, 0) + 1
            else:
                decisions.append(judged)
    except ReplayMismatchError as error:
        raise AnalysisError(f"the replay does not re-play: {error}") from None
    judge = "expert:evaluate" if settings.evaluator == "expert" else playout.name
    return MatchAnalysis(
        settings, judge, tuple(decisions), skipped, entrants, dict(sorted(hands.items()))
    )


def _judge(
    seating: tuple[int, ...],
    game: int,
    hand_number: int,
    index: int,
    hand: Any,
    decision: Any,
    action: Any,
    settings: Settings,
    playout: Playout,
    real: Real | None = None,
) -> DecisionAnalysis | str:
    """The decision judged, or the reason it was not ("forced", "no deal fits the view");
    with `real` (the hand's real deal and record), its hindsight apart."""
    kind = decision.kind
    seat = decision.seat
    view = hand.view(seat)
    value = room_of(kind).decode(kind, action.value)
    chosen = answer_text(kind, value)
    if legal_count(decision) <= 1:
        return "forced"
    rng = random.Random(f"analysis/{settings.seed}/{game}/{hand_number}/{index}")
    depth = {"samples": settings.samples, "playouts": settings.playouts, "playout": playout}
    answers: list[tuple[str, Any]] = []
    try:
        if kind is DecisionKind.MOON_CHOICE:
            evaluation = evaluate_moon_choice(
                hand, seat, tuple(hand.game_totals), hand_number, chosen
            )
        elif kind is _PLAY and (family := family_of(view)) is not None:
            evaluation = evaluate_family_play(
                view,
                rng,
                samples=max(WORLD_MIN, settings.samples // FAMILY_SHARES[family]),
                playouts=1,
                first=chosen,
            )
        elif kind is _PLAY and plays_evaluable(view):
            evaluation = _judge_play(view, chosen, rng, settings, playout)
        elif kind is _PASS and passes_evaluable(view):
            cards = [str(c) for c in value]
            if settings.evaluator == "expert":
                evaluation = expert_evaluation(
                    view, pass_candidates(view, decision.size, cards), rng, samples=settings.samples
                )
            else:
                evaluation = evaluate_pass(view, decision.size, cards, rng, **depth)  # type: ignore[arg-type]
        else:
            answers = candidates(decision, view, value)
            evaluation = evaluate_on_worlds(
                view,
                _table(hand, hand_number),
                seen_record(hand.history, view),
                kind,
                answers,
                rng,
                samples=_world_samples(kind, view, settings),
            )
    except InconsistentBeliefError:
        return "no deal fits the view"
    judged = _decision(
        seating, game, hand_number, index, view, decision, action, value, chosen, evaluation
    )
    if real is None:
        return judged
    asked = Asked(hand, _table(hand, hand_number), view, decision, chosen)
    known = judge_hindsight(asked, real, evaluation, answers, rng, playout)
    return judged if known is None else dataclasses.replace(judged, hindsight=known)


def _judge_play(
    view: Any, chosen: str, rng: random.Random, settings: Settings, playout: Playout
) -> Evaluation:
    """A card of the one-pack game, by the C playouts (or the expert's evaluation)."""
    if settings.evaluator == "expert":
        legal = [chosen] + [str(c) for c in view.legal if str(c) != chosen]
        return expert_evaluation(view, legal, rng, samples=settings.samples)
    return evaluate_play(
        view,
        rng,
        samples=settings.samples,
        playouts=settings.playouts,
        playout=playout,
        first=chosen,
    )


def _table(hand: Any, number: int) -> Table:
    """What is public of how `hand` was dealt (a called pass was the dealer's to call)."""
    called = any(a.kind is DecisionKind.CALL for a in hand.history)
    return Table(
        rules=hand.base_rules,
        dealer=hand.dealer,
        pass_direction=PassDirection.DEALER_CALLS if called else hand.pass_direction,
        declarer=hand.declarer_given,
        totals=tuple(hand.game_totals),
        number=number,
    )


def _world_samples(kind: DecisionKind, view: Any, settings: Settings) -> int:
    """The worlds a decision judged on sampled worlds takes (`WORLD_SHARE`, `PENNY_SHARE`)."""
    if kind is DecisionKind.PENNY_PLAY or (kind is _PLAY and view.rules.penny_play.value != "none"):
        return max(PENNY_MIN, settings.samples // PENNY_SHARE)
    return max(WORLD_MIN, settings.samples // WORLD_SHARE)


def _decision(
    seating: tuple[int, ...],
    game: int,
    hand_number: int,
    index: int,
    view: Any,
    decision: Any,
    action: Any,
    value: Any,
    chosen: str,
    evaluation: Evaluation,
) -> DecisionAnalysis:
    best = evaluation.answers[0]
    mine = evaluation.of(chosen)
    loss = round(max(mine.score - best.score, 0.0), 3)
    phase, position = phase_of(decision, view, value)
    tags = []
    if concerns_queen(decision, view, value):
        tags.append("queen")
    if decision.kind is DecisionKind.MOON_CHOICE or abs(mine.moon - best.moon) >= MOON_SHIFT:
        tags.append("moon")
    return DecisionAnalysis(
        game=game,
        hand=hand_number,
        action=index,
        seat=decision.seat,
        entrant=seating[decision.seat],
        kind=decision.kind.value,
        trick=decision.trick,
        position=position,
        phase=phase,
        tags=tuple(tags),
        chosen=chosen,
        best=best.answer,
        loss=loss,
        mark=mark_of(loss),
        answers=tuple(dataclasses.asdict(a) for a in evaluation.answers),
        samples=evaluation.samples,
        fault=action.fault,
        order=_order(decision, view),
    )


def _order(decision: Any, view: Any) -> int | None:
    """A penny-round card's place in its round's order of play (the cards its pennies
    hold so far); None for any other decision."""
    if decision.kind is not DecisionKind.PENNY_PLAY:
        return None
    return sum(len(plays) for plays in view.pennies)
