"""The expert house bot: the strong bot's search over deals weighted by what the plays reveal.

`ExpertBot` plays as `arena.bots.strong.StrongBot` does (sample deals that fit the facts,
rebuild each in the C core, play every legal card out with the engine's playout policy),
except that each sampled deal counts by how likely it makes everything the other seats
did (`arena.bots.inference.PlayModel`: their ducks, dumps, leads and the pass this seat
received, under a model of how a seat plays): its playouts count by that likelihood
(importance weights; or, with `resample` k > 1, one of k uniform deals is kept by it).
Equivalent cards are searched once, cards far behind stop being played out, and the pass
is a race among many (`arena.bots.pass_evaluation.race_pass`).
Where it has nothing better (the variants with their own searches, the calls, bids and
pledges) it answers as the strong bot.

The evaluation, for per-decision analysis (`arena.analysis`):

    evaluate(view, answers, *, seed=0, samples=200) -> list[float]

For a `SeatView` whose seat is asked to play (answers: legal `Card`s) or to pass
(answers: tuples of `count` cards of its hand, in pass order), each answer's expected
points for the seat at the end of the hand (lower is better), estimated from the seat's
information set only (never the hidden hands): the same weighted deals and playouts as the
bot's own search, `samples` deals, deterministic for a given `seed`. Raises ValueError for
an empty list of answers, a mixed list, a play not legal in `view`, or a variant the
evaluation does not model (`evaluates(view)` says which: the standard family of one-pack
games played one trick at a time).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from arena.engine import CARDS, Card, SeatView
from arena.engine.backend import core
from arena.engine.rules import PennyPlay

from .belief import Belief, InconsistentBeliefError
from .inference import DEFAULT_EPSILON, DEFAULT_PASS_DELTA, PlayModel
from .moon import moon_open, shooter_policy
from .pass_evaluation import evaluate_passes, race_pass
from .passing import candidate_passes
from .strong import DEFAULT_TIME_PER_MOVE, POLICIES, StrongBot

DEFAULT_RESAMPLE = 1
"""Uniform deals drawn per deal searched: 1 counts every deal by its likelihood (importance
weights); k > 1 keeps one of k by likelihood (sampling importance resampling), which
spends k samplings and weighings per playout and lost at equal time on the loaded
benchmark machine (docs/benchmarks.md)."""
ANALYSIS_RESAMPLE = 4
"""`evaluate` has a number of deals, not a clock: each of its deals is the likeliest-weighted
pick of four."""
DEFAULT_MAX_SAMPLES = 200
PRUNE_AFTER = 12
PRUNE_EVERY = 6
PRUNE_MARGIN = 4.0
DEFAULT_ENDGAME = 3
"""Cards in the seat's hand at or below which each deal searched is solved exactly
(`core.HandState.solve`: every hand known, each seat minimising its own margin) instead
of played out by the playout policy."""
ENDGAME_LIMIT = 200_000
"""Decisions one exact solve may search; past it that deal is played out instead."""
MOON_EDGE = 8.0
"""The moon plan is taken only when its best card beats the greedy plan's best by 8 points
moved from the others to this seat: its playouts' opponents dump points on a shooter
until it has them all, so its figures flatter it (taken whenever it was better, it lost
2.4 points a hand to the strong bot; docs/benchmarks.md)."""
"""Pruning (`search_plays`): after 12 deals and every 6 after, a candidate behind the best
by the margin of 4 points moved from the others to this seat is played out no more."""
_PLAIN_FIELDS = (
    "royal_queens",
    "booster_nines",
    "joker_kind",
    "queen_at_first_chance",
    "first_trick_points",
    "last_trick_points",
    "exposed",
    "doubler_exposed",
    "all_hearts_reversed",
)


def evaluates(view: SeatView) -> bool:
    """Whether `evaluate` models `view`'s game: one pack, one trick at a time."""
    rules = view.rules
    return not (
        rules.cancellation or rules.enfle or rules.domino or rules.penny_play is not PennyPlay.NONE
    )


class ExpertBot(StrongBot):
    """PIMC over deals weighted by the likelihood of the plays seen (see the module)."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        *,
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
        max_samples: int | None = DEFAULT_MAX_SAMPLES,
        policy: str = "mixed",
        playouts: int = 4,
        pass_search: bool = True,
        resample: int = DEFAULT_RESAMPLE,
        epsilon: tuple[float, float, float] = DEFAULT_EPSILON,
        pass_delta: float = DEFAULT_PASS_DELTA,
        group: bool = True,
        prune: bool = True,
        race: bool = True,
        moon: bool = False,
        endgame: int = DEFAULT_ENDGAME,
        clock: str = "wall",
    ) -> None:
        """The strong bot's options (`StrongBot`), and the model's: `resample` uniform
        deals drawn per deal searched (1: every deal searched, weighted by its likelihood
        instead), `epsilon` the model's chance of a non-greedy lead, follow and dump, and
        `pass_delta` its factor per dangerous card a passer kept. `group` searches one card
        of each set of equivalent cards (`representatives`), and `prune` stops playing out
        the cards already far behind the best (`search_plays`); `race` searches the pass
        by `race_pass` (False: as the strong bot); `moon` also plays every candidate out
        with this seat trying to shoot the moon and keeps the better plan
        (`arena.bots.moon`). Once the seat holds `endgame` cards or fewer, each deal
        searched is solved exactly instead of played out (`search_plays`; 0: never).

        Raises ValueError as `StrongBot` does, and for `resample` below 1, an ε or δ
        outside (0, 1], or a negative `endgame`.
        """
        super().__init__(
            seed,
            time_per_move=time_per_move,
            max_samples=max_samples,
            policy=policy,
            playouts=playouts,
            pass_search=pass_search,
            clock=clock,
        )
        if resample < 1:
            raise ValueError(f"resample must be at least 1, got {resample}")
        if not all(0 < e <= 1 for e in (*epsilon, pass_delta)):
            raise ValueError(
                f"epsilon and pass_delta must be in (0, 1], got {epsilon}, {pass_delta}"
            )
        if endgame < 0:
            raise ValueError(f"endgame must be 0 or more, got {endgame}")
        self.endgame = endgame
        self.resample = resample
        self.epsilon = epsilon
        self.pass_delta = pass_delta
        self.group = group
        self.prune = prune
        self.race = race
        self.moon = moon

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The pass that wins a race among many (`arena.bots.pass_evaluation.race_pass`);
        where the race does not model the game, as the strong bot passes."""
        if not self.race or not self.pass_search or not evaluates(view):
            return super().pass_cards(view, count)
        started = self.clock()
        seconds, samples = self._budget()
        chosen, self.last_samples = race_pass(
            view,
            count,
            self._rng(view),
            started + seconds,
            samples,
            POLICIES[self.policy],
            self.clock,
        )
        return chosen

    def play_card(self, view: SeatView) -> Card:
        """The legal card with the best mean outcome over likely deals."""
        if not evaluates(view) or view.rules.players < 3:
            return super().play_card(view)
        started = self.clock()
        self.last_samples = 0
        legal = view.legal
        preferred = self._fallback.play_card(view)
        if len(legal) == 1:
            return preferred
        try:
            belief = Belief.from_view(view)
        except InconsistentBeliefError:  # our bug, not worth a lost decision: play safe
            return preferred
        candidates = [preferred.index] + [c.index for c in legal if c is not preferred]
        if self.group:
            candidates = representatives(view, candidates)
            if len(candidates) == 1:
                return CARDS[candidates[0]]
        seconds, max_samples = self._budget()
        margins, _, self.last_samples = search_plays(
            view,
            belief,
            PlayModel.from_view(view, self.epsilon, self.pass_delta),
            candidates,
            self._rng(view),
            started + seconds,
            max_samples,
            self.playouts,
            POLICIES[self.policy],
            self.resample,
            self.prune,
            self.clock,
            self.moon,
            self.endgame,
        )
        best = min(range(len(candidates)), key=margins.__getitem__)
        return CARDS[candidates[best]]


def representatives(view: SeatView, candidates: Sequence[int]) -> list[int]:
    """`candidates` with one card kept of each set of equivalent cards: cards of one suit
    and one value with no card between them that another seat may hold or that lies in the
    current trick (the 7H and 9H when the 8H is in this seat's hand or played in a finished
    trick win and lose the same tricks whatever anyone holds). The first candidate of a
    set is kept (the heuristic's choice goes first, so it stands for its set). Games with
    cards whose place matters beyond rank and value are left whole."""
    cfg = view.play_config()
    if any(getattr(cfg, name) for name in _PLAIN_FIELDS) or cfg.deck >> 52:
        return list(candidates)
    settled = view.hand.mask
    for trick in view.tricks:
        for _, played in trick.plays:
            settled |= played.mask
    values = cfg.values
    kept: list[int] = []
    for card in candidates:
        for other in kept:
            if other // 13 != card // 13 or values[other] != values[card]:
                continue
            low, high = min(card, other), max(card, other)
            between = (1 << high) - (1 << (low + 1))
            if between & ~settled == 0:
                break
        else:
            kept.append(card)
    return kept


def search_plays(
    view: SeatView,
    belief: Belief,
    model: PlayModel,
    candidates: Sequence[int],
    rng: random.Random,
    deadline: float,
    max_samples: int,
    playouts: int,
    policy: int,
    resample: int,
    prune: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    shoot: bool = False,
    endgame: int = 0,
) -> tuple[list[float], list[float], int]:
    """Per candidate card: the mean over searched deals and playouts of the seat's margin
    (its points times (n - 1) minus the others') and of its points; and the deals searched.

    Each deal searched is the likeliest-weighted pick of `resample` uniform deals (or, with
    `resample` 1, every uniform deal counted by its weight). Stops at `max_samples` deals or
    when the next would end after `deadline` (a `clock` value); searches at
    least one deal. With `prune`, after `PRUNE_AFTER` deals and every `PRUNE_EVERY` after,
    a candidate whose mean margin is behind the best's by `PRUNE_MARGIN` points moved from
    the others to this seat or more is played out no more (it is not chosen).

    With `shoot` (and the moon still open to the seat, `moon.moon_open`), every playout is
    also played with the seat on the shooter's plan (`moon.shooter_policy`), on the same
    seeds, and the moon plan's means are the candidates' margins when its best beats the
    greedy plan's best by `MOON_EDGE` (a plan is a choice the seat makes with what it knows;
    never the better per deal, which would credit it with seeing the hidden cards). The
    moon plan stops being played
    when, at a pruning round, its best candidate is `PRUNE_MARGIN` behind the greedy
    plan's best. The points returned are the greedy plan's.

    With the seat holding `endgame` cards or fewer (its candidate still in hand), each
    deal is solved exactly for each candidate instead of played out (`core.HandState.solve`,
    at most `ENDGAME_LIMIT` decisions; a deal past it is played out as usual): one
    perfect-information line per deal, each seat minimising its own margin; the moon
    plan is not played (the solve finds a moon wherever one can be made).
    """
    started = clock()
    rules = view.rules
    cfg = view.play_config()
    n, me, dealer = rules.players, view.seat, view.dealer
    if view.declarer is not None:
        dealer = (view.declarer - 1) % n  # Auction Hearts: the declarer led first
    count = len(candidates)
    margins = [0.0] * count
    points_sum = [0.0] * count
    total_weight = 0.0
    samples = 0
    weigh = model.weight
    alive = list(range(count))
    moon = shooter_policy(me) if shoot and moon_open(view) else -1
    moon_margins = [0.0] * count
    if not model.events and model.passer < 0:
        resample = 1  # nothing seen that a deal could explain better than another
    exact = 0 < len(view.hand) <= endgame
    if exact:
        moon = -1
    while samples < max_samples:
        try:
            if resample == 1:
                deal = belief.sample(rng)
                w = weigh(deal)
            else:
                drawn = [belief.sample(rng) for _ in range(resample)]
                weights = [weigh(d) for d in drawn]
                total = sum(weights)
                deal = rng.choices(drawn, weights)[0] if total > 0.0 else drawn[0]
                w = 1.0
        except InconsistentBeliefError:
            break
        samples += 1
        if w > 0.0:
            hands = tuple(deal[s] | belief.played[s] for s in range(n))
            state = core.HandState(cfg, hands, deal[n], dealer, 0, 0)
            push, pop, playout = state.push, state.pop, state.playout
            for card in belief.history:
                push(card)
            if exact and _solve_deal(state, candidates, alive, me, n, w, margins, points_sum):
                total_weight += w
                solved = True
            else:
                solved = False
            for _ in range(0 if solved else playouts):
                seed = rng.getrandbits(64)  # the same for every candidate: a fair comparison
                for i in alive:
                    card = candidates[i]
                    push(card)
                    points = playout(seed, policy)
                    pop()
                    mine = points[me]
                    margins[i] += w * (mine * (n - 1) - (sum(points) - mine))
                    points_sum[i] += w * mine
                    if moon >= 0:
                        push(card)
                        points = playout(seed, moon)
                        pop()
                        mine = points[me]
                        moon_margins[i] += w * (mine * (n - 1) - (sum(points) - mine))
            if not solved:
                total_weight += w * playouts
            if samples >= PRUNE_AFTER and samples % PRUNE_EVERY == 0:
                cut = PRUNE_MARGIN * n * total_weight  # 4 points moved to this seat
                if (
                    moon >= 0
                    and min(moon_margins[i] for i in alive) > min(margins[i] for i in alive) + cut
                ):
                    moon = -1  # the moon plan is far behind: stop playing it
                    moon_margins = margins
                if prune and len(alive) > 1:
                    plans = (
                        _plans(margins, moon_margins, alive, MOON_EDGE * n * total_weight)
                        if moon >= 0
                        else margins  # no moon plan: its zero sums are no plan to follow
                    )
                    best = min(plans[i] for i in alive)
                    alive = [i for i in alive if plans[i] < best + cut]
        now = clock()
        if now + (now - started) / samples > deadline:
            break
    if moon >= 0:
        margins = _plans(margins, moon_margins, alive, MOON_EDGE * n * total_weight)
    if total_weight > 0.0:
        margins = [m / total_weight for m in margins]
        points_sum = [p / total_weight for p in points_sum]
    for i in set(range(count)) - set(alive):
        margins[i] = float("inf")  # pruned: its partial figures are not comparable
    return margins, points_sum, samples


def _solve_deal(
    state: object,
    candidates: Sequence[int],
    alive: Sequence[int],
    me: int,
    n: int,
    w: float,
    margins: list[float],
    points_sum: list[float],
) -> bool:
    """Solve one deal exactly for every living candidate (`core.HandState.solve`) and add
    each one's margin and points, weighted by `w`; False (nothing added) when a solve
    passes `ENDGAME_LIMIT`."""
    push, pop, solve = state.push, state.pop, state.solve  # type: ignore[attr-defined]
    found: list[tuple[int, tuple[int, ...]]] = []
    for i in alive:
        push(candidates[i])
        points = solve(ENDGAME_LIMIT)
        pop()
        if points is None:
            return False
        found.append((i, points))
    for i, points in found:
        mine = points[me]
        margins[i] += w * (mine * (n - 1) - (sum(points) - mine))
        points_sum[i] += w * mine
    return True


def _plans(
    greedy: list[float], moon: list[float], alive: Sequence[int], edge: float
) -> list[float]:
    """The margins of the plan the seat follows: the moon plan's when its best living card
    beats the greedy plan's best by `edge` (in the margins' own units), else the greedy's."""
    if min(moon[i] for i in alive) + edge < min(greedy[i] for i in alive):
        return moon
    return greedy


def evaluate(
    view: SeatView,
    answers: Sequence[Card] | Sequence[Sequence[Card]],
    *,
    seed: int = 0,
    samples: int = DEFAULT_MAX_SAMPLES,
) -> list[float]:
    """Each answer's expected points for `view.seat` at the end of the hand, from its
    information set only (see the module docstring). Raises ValueError for an empty or
    mixed list of answers, an illegal play, or a game `evaluates` does not model."""
    if not answers:
        raise ValueError("no answers to evaluate")
    if not evaluates(view):
        raise ValueError(f"the expert's evaluation does not model {view.rules.name!r}")
    rng = random.Random(hash((seed, view.seat, view.hand.mask)))
    if all(isinstance(a, Card) for a in answers):
        plays = [a for a in answers if isinstance(a, Card)]
        for card in plays:
            if card not in view.legal:
                raise ValueError(f"{card} is not a legal play for seat {view.seat}")
        belief = Belief.from_view(view)
        model = PlayModel.from_view(view)
        _, points, _ = search_plays(
            view,
            belief,
            model,
            [c.index for c in plays],
            rng,
            float("inf"),
            samples,
            4,
            POLICIES["mixed"],
            ANALYSIS_RESAMPLE,
        )
        return points
    if any(isinstance(a, Card) for a in answers):
        raise ValueError("answers mix plays and passes")
    passes = [tuple(c.index for c in a) for a in answers]  # type: ignore[union-attr]
    return evaluate_passes(view, passes, rng, samples, POLICIES["mixed"])


__all__ = [
    "ExpertBot",
    "candidate_passes",
    "evaluate",
    "evaluates",
    "representatives",
    "search_plays",
]
