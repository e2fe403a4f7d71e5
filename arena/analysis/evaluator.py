"""The expected points of every answer to a seat's decision, from what that seat knew.

The evaluation is the strong house bot's search (`arena.bots.strong`, `arena.bots.passing`)
turned from a chooser into a judge: it imagines the hidden cards many times over
(`Belief.sample`: deals that fit everything the seat's `SeatView` shows, never the real
hidden hands), rebuilds each imagined hand in the engine's core, and plays every answer
out with a playout policy (`Playout`). Every answer sees the same deals and the same
playout seeds, so their differences are measured, not drowned in the deals' own variance.

An answer's value is its mean *score*: the seat's points minus the mean of the others'
points in the playouts, in points of the hand (lower is better). Counting against the
table is what makes a moon count for what it is (it adds to the others) and a ♠Q given to
an opponent worth less than one kept. The seat's own mean points and the share of
playouts that ended in a moon are kept beside it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from arena.bots.belief import Belief, InconsistentBeliefError, bits
from arena.bots.passing import PassDeals, candidate_passes
from arena.bots.strong import POLICIES
from arena.engine import CARDS, Card, SeatView
from arena.engine.backend import core
from arena.engine.rules import PennyPlay

DEFAULT_SAMPLES = 200
"""Deals sampled per decision at the default depth (`arena bench analysis` measures it)."""
DEFAULT_PLAYOUTS = 4
"""Playouts per answer and sampled deal."""


class Playout(Protocol):
    """Plays an imagined hand (a `core.HandState`) to its end and returns every seat's
    points. The evaluation is only as good as this policy's model of how seats play: a
    stronger house bot's playouts plug in here (`ENGINE_PLAYOUTS` holds the engine's)."""

    @property
    def name(self) -> str:
        """What the analysis records as its playouts ("engine:mixed")."""

    def __call__(self, state: Any, seed: int) -> Sequence[int]:
        """Every seat's points at the end of the hand `state` (a `core.HandState`)."""


@dataclasses.dataclass(frozen=True)
class EnginePlayout:
    """The engine's own playout (`HandState.playout`, one C call): the heuristic bot's
    greedy policy, with one decision in eight random under "mixed"."""

    policy: str = "mixed"

    @property
    def name(self) -> str:
        return f"engine:{self.policy}"

    def __call__(self, state: Any, seed: int) -> Sequence[int]:
        result: Sequence[int] = state.playout(seed, POLICIES[self.policy])
        return result


ENGINE_PLAYOUTS = EnginePlayout()


@dataclasses.dataclass(frozen=True)
class AnswerValue:
    """One answer's evaluation: `answer` as text ("QS", or a pass "QS KH 2C"), its mean
    `score` (the seat's points minus the mean of the others'), the seat's mean `points`
    and the share of playouts ending in a `moon`."""

    answer: str
    score: float
    points: float
    moon: float


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """Every answer evaluated, best (lowest score) first, and the deals sampled."""

    answers: tuple[AnswerValue, ...]
    samples: int

    def of(self, answer: str) -> AnswerValue:
        """The value of `answer` (KeyError when it was not evaluated)."""
        for value in self.answers:
            if value.answer == answer:
                return value
        raise KeyError(answer)


def plays_evaluable(view: SeatView) -> bool:
    """Whether a play of this hand's rules is evaluated: the families with their own search
    (two packs, Enfle, Domino Hearts, pennies) are not."""
    rules = view.rules
    return not (
        rules.cancellation or rules.enfle or rules.domino or rules.penny_play is not PennyPlay.NONE
    )


def passes_evaluable(view: SeatView) -> bool:
    """Whether a pass of this hand's rules is evaluated (the pass search's own reach)."""
    return plays_evaluable(view)


def moon_total(view: SeatView) -> int | None:
    """The points a hand without a moon shares out (a playout summing to anything else
    ended in a moon); None when the rules have no moon."""
    if view.rules.moon.value == "none":
        return None
    try:
        cfg = view.play_config()
    except ValueError:  # two packs: no one-pack config (their own searches count moons)
        return None
    return sum(cfg.values[c] for c in bits(cfg.deck & ((1 << 52) - 1)))


class Tally:
    """Sums of score, points and moons per answer (every evaluation's: the C playouts',
    the worlds' and the families' searches')."""

    def __init__(self, size: int, me: int, players: int, moon_total: int | None) -> None:
        self.score = [0] * size
        self.points = [0] * size
        self.moons = [0] * size
        self.count = 0
        self.me, self.n, self.moon_total = me, players, moon_total

    def add(self, i: int, points: Sequence[int], moon: bool | None = None) -> None:
        """One outcome of answer `i`: every seat's `points`, and whether a seat shot the
        moon (None: read from the points' sum, which a moon changes)."""
        mine = points[self.me]
        total = sum(points)
        self.score[i] += mine * (self.n - 1) - (total - mine)
        self.points[i] += mine
        if moon is None:
            moon = self.moon_total is not None and total != self.moon_total
        if moon:
            self.moons[i] += 1

    def evaluation(self, names: Sequence[str], samples: int) -> Evaluation:
        runs = max(self.count, 1)
        values = [
            AnswerValue(
                name,
                round(self.score[i] / (runs * (self.n - 1)), 3),
                round(self.points[i] / runs, 3),
                round(self.moons[i] / runs, 3),
            )
            for i, name in enumerate(names)
        ]
        # Stable: among equals, the order given (the chosen answer first) wins.
        return Evaluation(tuple(sorted(values, key=lambda v: v.score)), samples)


def evaluate_play(
    view: SeatView,
    rng: random.Random,
    *,
    samples: int = DEFAULT_SAMPLES,
    playouts: int = DEFAULT_PLAYOUTS,
    playout: Playout = ENGINE_PLAYOUTS,
    first: str | None = None,
) -> Evaluation:
    """Every legal card of `view` (the seat to play) evaluated over `samples` deals that
    fit the view, `playouts` playouts each; `first` (a card's text) is listed first so it
    wins ties. Raises ValueError when the view has no play to make or its rules are not
    evaluated (`plays_evaluable`), InconsistentBeliefError when no deal fits the view."""
    if not view.legal or not plays_evaluable(view):
        raise ValueError("no evaluable play in this view")
    rules = view.rules
    n, me, dealer = rules.players, view.seat, view.dealer
    if view.declarer is not None:  # Auction Hearts: as the strong bot rebuilds it
        dealer = (view.declarer - 1) % n
    names = [str(c) for c in view.legal]
    if first in names:
        names.remove(first)
        names.insert(0, first)
    candidates = [Card.from_str(name).index for name in names]
    belief = Belief.from_view(view)
    cfg = view.play_config()
    tally = Tally(len(candidates), me, n, moon_total(view))
    taken = 0
    for _ in range(samples):
        deal = belief.sample(rng)
        hands = tuple(deal[s] | belief.played[s] for s in range(n))
        state = core.HandState(cfg, hands, deal[n], dealer, 0, 0)
        for card in belief.history:
            state.push(card)
        for _ in range(playouts):
            seed = rng.getrandbits(64)  # the same for every answer: a fair comparison
            for i, card in enumerate(candidates):
                state.push(card)
                tally.add(i, playout(state, seed))
                state.pop()
            tally.count += 1
        taken += 1
    return tally.evaluation(names, taken)


def pass_candidates(view: SeatView, count: int, chosen: Sequence[str]) -> list[str]:
    """The passes judged: `chosen` first, then the strong bot's candidates
    (`passing.candidate_passes`), each named by its cards in pass order."""
    cfg = view.rules.core_config()
    if count != cfg.pass_count:
        cfg = cfg._replace(pass_count=count)
    hand = view.hand.mask & ~view.rules.pass_forbidden.mask
    given = tuple(Card.from_str(c).index for c in chosen)
    candidates = [given]
    seen = {frozenset(given)}
    for candidate in candidate_passes(hand, count, cfg):
        if frozenset(candidate) not in seen:
            seen.add(frozenset(candidate))
            candidates.append(candidate)
    return [" ".join(str(CARDS[c]) for c in candidate) for candidate in candidates]


def evaluate_pass(
    view: SeatView,
    count: int,
    chosen: Sequence[str],
    rng: random.Random,
    *,
    samples: int = DEFAULT_SAMPLES,
    playouts: int = DEFAULT_PLAYOUTS,
    playout: Playout = ENGINE_PLAYOUTS,
) -> Evaluation:
    """The pass `chosen` and the sensible candidate passes (`passing.candidate_passes`:
    combinations of the most dangerous cards, and voids; a hand of thirteen has 286
    passes of three, too many to play every one out) evaluated over `samples` deals of
    the unseen cards, the other seats passing their most dangerous cards as the house bots
    do (under Rickety Kate's refusal, a passed QS refused or accepted as they would:
    `passing.settle_queen_offers`). A pass is named by its cards in the order given.
    Raises ValueError when the rules' passes are not evaluated (`passes_evaluable`)."""
    if not passes_evaluable(view):
        raise ValueError("no evaluable pass in this view")
    deals = PassDeals.of(view, count)
    n, me = view.rules.players, view.seat
    names = pass_candidates(view, count, chosen)
    candidates = [tuple(Card.from_str(c).index for c in name.split()) for name in names]
    tally = Tally(len(candidates), me, n, moon_total(view))
    for _ in range(samples):
        hands, kitty, passes = deals.sample(rng)
        for _ in range(playouts):
            seed = rng.getrandbits(64)
            for i, candidate in enumerate(candidates):
                tally.add(i, playout(deals.exchanged(hands, kitty, passes, candidate, seed), seed))
            tally.count += 1
    return tally.evaluation(names, samples)


HINDSIGHT_PLAYOUTS = 64
"""Playouts per answer of the hindsight view (one deal: the real one)."""


def real_state(view: SeatView, holdings: Sequence[int], kitty: int) -> Any:
    """The engine's hand at `view`'s play on the real deal: every seat's cards now
    (`holdings`, masks) with what each played, the real `kitty` (its whole mask as dealt:
    a kitty goes to a seat's taken cards, never its hand), and the plays so far pushed."""
    rules = view.rules
    n, dealer = rules.players, view.dealer
    if view.declarer is not None:
        dealer = (view.declarer - 1) % n
    belief = Belief.from_view(view)  # what was played, by whom, in order
    hands = tuple(holdings[s] | belief.played[s] for s in range(n))
    state = core.HandState(view.play_config(), hands, kitty, dealer, 0, 0)
    for card in belief.history:
        state.push(card)
    return state


def evaluate_hindsight(
    view: SeatView,
    holdings: Sequence[int],
    rng: random.Random,
    *,
    kitty: int = 0,
    playouts: int = HINDSIGHT_PLAYOUTS,
    playout: Playout = ENGINE_PLAYOUTS,
    first: str | None = None,
) -> Evaluation:
    """The "all hands known" hindsight: every legal card of `view` played out on the real
    deal (`holdings`: every seat's cards now, as masks; `kitty`: the kitty as dealt),
    `playouts` times each. What no seat could know: never mixed with the fair evaluation
    (docs/analysis.md). Raises ValueError for a view without a play, or rules whose plays
    are not evaluated (`plays_evaluable`)."""
    if not view.legal or not plays_evaluable(view):
        raise ValueError("no hindsight for this view")
    names = [str(c) for c in view.legal]
    if first in names:
        names.remove(first)
        names.insert(0, first)
    candidates = [Card.from_str(name).index for name in names]
    state = real_state(view, holdings, kitty)
    tally = Tally(len(candidates), view.seat, view.rules.players, moon_total(view))
    for _ in range(playouts):
        seed = rng.getrandbits(64)
        for i, card in enumerate(candidates):
            state.push(card)
            tally.add(i, playout(state, seed))
            state.pop()
        tally.count += 1
    return tally.evaluation(names, 1)


def evaluate_pass_hindsight(
    view: SeatView,
    count: int,
    names: Sequence[str],
    deal: Sequence[int],
    kitty: int,
    passes: Mapping[int, tuple[int, ...]],
    rng: random.Random,
    *,
    playouts: int = HINDSIGHT_PLAYOUTS,
    playout: Playout = ENGINE_PLAYOUTS,
) -> Evaluation:
    """The hindsight of a pass: each of the passes `names` (the fair evaluation's, the
    first winning ties) exchanged on the real deal (`deal`: every seat's cards as dealt,
    masks; `kitty` as dealt) with the other seats' real `passes` (card indices by seat),
    a QS refused or accepted as the house bots would (Rickety Kate), and played out
    `playouts` times. Raises ValueError when the rules' passes are not evaluated."""
    if not passes_evaluable(view):
        raise ValueError("no evaluable pass in this view")
    deals = PassDeals.of(view, count)
    candidates = [tuple(Card.from_str(c).index for c in name.split()) for name in names]
    tally = Tally(len(candidates), view.seat, view.rules.players, moon_total(view))
    hands = tuple(deal)
    for _ in range(playouts):
        seed = rng.getrandbits(64)
        for i, candidate in enumerate(candidates):
            tally.add(i, playout(deals.exchanged(hands, kitty, passes, candidate, seed), seed))
        tally.count += 1
    return tally.evaluation(list(names), 1)


__all__ = [
    "DEFAULT_PLAYOUTS",
    "DEFAULT_SAMPLES",
    "ENGINE_PLAYOUTS",
    "AnswerValue",
    "EnginePlayout",
    "Evaluation",
    "InconsistentBeliefError",
    "Playout",
    "Tally",
    "evaluate_hindsight",
    "evaluate_pass",
    "evaluate_pass_hindsight",
    "evaluate_play",
    "expert_evaluation",
    "moon_total",
    "pass_candidates",
    "passes_evaluable",
    "plays_evaluable",
    "real_state",
]


def expert_evaluation(
    view: SeatView,
    answers: Sequence[str],
    rng: random.Random,
    *,
    samples: int = DEFAULT_SAMPLES,
) -> Evaluation:
    """`answers` (cards, or passes as space-separated cards) evaluated by the expert house
    bot's evaluation (`arena.bots.expert.evaluate`: deals weighted by how likely they make
    the plays and the pass seen), `answers[0]` winning ties. The expert gives the seat's
    own expected points; the score is those times n / (n - 1), which is the difference
    against the table when the hand's points are shared out whole (no moon), so the marks'
    thresholds mean the same with either evaluator; moons are not counted apart (0).
    Raises ValueError where the expert's evaluation does not model the game."""
    from arena.bots import expert

    n = view.rules.players
    cards: list[Card] | list[tuple[Card, ...]]
    if all(" " not in a for a in answers) and view.legal:
        cards = [Card.from_str(a) for a in answers]
    else:
        cards = [tuple(Card.from_str(c) for c in a.split()) for a in answers]
    points = expert.evaluate(view, cards, seed=rng.getrandbits(32), samples=samples)
    values = [
        AnswerValue(a, round(p * n / (n - 1), 3), round(p, 3), 0.0)
        for a, p in zip(answers, points, strict=True)
    ]
    return Evaluation(tuple(sorted(values, key=lambda v: v.score)), samples)
