"""The strong house bot: determinized Monte Carlo search (perfect-information sampling, PIMC).

For each decision it imagines the hidden cards many times (`Belief.sample`: deals that fit
everything the seat has seen), rebuilds each imagined hand in the engine's C core by
replaying the hand's history, and for every legal card plays the rest of the hand out
with the engine's playout (`HandState.playout`, one C call per playout: the greedy policy
of the heuristic bot, with one decision in eight random). The card with the best average
outcome is played; the outcome is the seat's points minus the mean of the others' (so a
moon, which adds to the others, counts for what it is). Passes are chosen the same way
(`arena.bots.passing`).

The budget is a time per move (`time_per_move`), a number of sampled deals
(`max_samples`), or both (whichever runs out first); with only `max_samples` the bot is
deterministic: the same view and seed always give the same card.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from arena.engine import CARDS, Card, CardSet, PassDirection, SeatView, Suit
from arena.engine.backend import core
from arena.engine.rules import PennyPlay

from .belief import Belief, InconsistentBeliefError
from .cancellation import search_play
from .domino_search import search_domino
from .enfle_search import search_enfle
from .heuristic import HeuristicBot
from .passing import danger_order, search_pass
from .reveal import steer_reveal

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.thread_time}
"""What `time_per_move` counts: the wall clock (the runner's deadline), or the CPU time of
the bot's own thread. Why CPU: on a shared machine the wall clock also counts the time
the process waited for a core, so two bots "at equal time" get whatever CPU the load left
them; `arena bench bots --clock cpu` gives both the same work instead."""

POLICIES = {"random": 0, "greedy": 1, "mixed": 2}
"""Playout policies of the engine's `HandState.playout` (contract "Playouts")."""

DEFAULT_TIME_PER_MOVE = 0.1
DEFAULT_MAX_SAMPLES = 200
TIME_MARGIN = 0.9
"""The search aims to end within this share of `time_per_move`: a sample's cost varies
(another process may take the core), and the answer must still reach the runner in time."""


class StrongBot:
    """Samples deals consistent with its view and plays each candidate out in the C core."""

    name = "strong"

    def __init__(
        self,
        seed: int = 0,
        *,
        time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
        max_samples: int | None = DEFAULT_MAX_SAMPLES,
        policy: str = "mixed",
        playouts: int = 4,
        pass_search: bool = True,
        clock: str = "wall",
    ) -> None:
        """Configure the search.

        `time_per_move` (seconds) and `max_samples` (sampled deals) bound each decision,
        whichever runs out first; either may be None, not both. `policy` is the playout
        policy (`POLICIES`), `playouts` the playouts per candidate card and sampled deal,
        and `pass_search=False` passes like the heuristic bot instead of searching.
        `clock` names what `time_per_move` counts (`CLOCKS`: "wall" or "cpu").

        Raises ValueError for a missing or non-positive budget, an unknown policy or clock,
        or fewer than one playout.
        """
        if time_per_move is None and max_samples is None:
            raise ValueError("the strong bot needs a time_per_move, a max_samples, or both")
        if time_per_move is not None and time_per_move <= 0:
            raise ValueError(f"time_per_move must be positive, got {time_per_move}")
        if max_samples is not None and max_samples < 1:
            raise ValueError(f"max_samples must be at least 1, got {max_samples}")
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r}; known: {', '.join(POLICIES)}")
        if playouts < 1:
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r}; known: {', '.join(CLOCKS)}")
        self.clock = CLOCKS[clock]
        self.seed = seed
        self.time_per_move = time_per_move
        self.max_samples = max_samples
        self.policy = policy
        self.playouts = playouts
        self.pass_search = pass_search
        self.last_samples = 0
        """Deals sampled for the last decision (for benchmarks and tests)."""
        self._fallback = HeuristicBot(seed)

    def _rng(self, view: SeatView) -> random.Random:
        """A generator seeded by the bot's seed and the position: decisions do not depend
        on what the bot was asked before."""
        history = tuple(c.index for t in view.tricks for _, c in t.plays)
        current = tuple(c.index for _, c in view.current_trick)
        key = hash((self.seed, view.seat, view.hand.mask, view.hand.twice, history, current))
        return random.Random(key)

    def _budget(self) -> tuple[float, int]:
        """(seconds to search, deals to sample) for one decision."""
        limit = self.time_per_move
        seconds = limit * TIME_MARGIN if limit is not None else float("inf")
        samples = self.max_samples if self.max_samples is not None else 1 << 30
        return seconds, samples

    def pass_cards(self, view: SeatView, count: int) -> list[Card]:
        """The pass whose sampled playouts go best (see `arena.bots.passing`)."""
        started = self.clock()
        self.last_samples = 0
        if (
            not self.pass_search
            or view.rules.cancellation  # the pass search is one-pack
            or view.rules.penny_play is not PennyPlay.NONE  # and one trick at a time
        ):
            return self._fallback.pass_cards(view, count)
        seconds, samples = self._budget()
        chosen, self.last_samples = search_pass(
            view,
            count,
            self._rng(view),
            started + seconds,
            samples,
            POLICIES[self.policy],
            self.clock,
        )
        return chosen

    def play_penny(self, view: SeatView) -> tuple[int, Card]:
        """003 'FOUR-PENNY HEARTS', during a multi-round: as the heuristic bot plays (the
        search's playouts model one trick at a time, not several pennies)."""
        return self._fallback.play_penny(view)

    def call_pass(self, view: SeatView) -> PassDirection | Sequence[PassDirection]:
        """As dealer: as the heuristic bot calls."""
        return self._fallback.call_pass(view)

    def bid(self, view: SeatView) -> int | None:
        """As the heuristic bot bids (the search starts once the suit is named)."""
        return self._fallback.bid(view)

    def name_suit(self, view: SeatView) -> Suit:
        """As the heuristic bot names."""
        return self._fallback.name_suit(view)

    def choose_moon(self, view: SeatView, default: str) -> str:
        """As the heuristic bot chooses (the engine's pick weighs the game's end)."""
        return self._fallback.choose_moon(view, default)

    def pledge(self, view: SeatView) -> bool:
        """As the heuristic bot pledges (the search starts with the first card)."""
        return self._fallback.pledge(view)

    def refuse_queen(self, view: SeatView) -> bool:
        """Rickety Kate: as the heuristic bot (`base.refuses_queen`: refuse the QS unless
        four spades or more below it guard it; the search starts with the first card)."""
        return self._fallback.refuse_queen(view)

    def replace_pass(self, view: SeatView, legal: CardSet) -> Card:
        """Rickety Kate: the most dangerous card of `legal` by `danger_order`, the card its
        pass search assumed would go in a refused QS's place (`settle_queen_offers`)."""
        return CARDS[danger_order(legal.mask, view.rules.core_config())[0]]

    def expose(self, view: SeatView, exposable: CardSet) -> tuple[Card, ...]:
        """As the heuristic bot exposes (the search starts with the first card, and its
        deals keep every exposed card in its holder's hand: `Belief`)."""
        return self._fallback.expose(view, exposable)

    def reveal_card(self, view: SeatView) -> Card:
        """Steer the scoring suit as the heuristic bot does (`arena.bots.reveal`); the
        search starts once the suit, and so the hand's values, are known."""
        return steer_reveal(view)

    def play_card(self, view: SeatView) -> Card:
        """The legal card with the best mean outcome over sampled deals."""
        if view.rules.penny_play is not PennyPlay.NONE:
            # 003 'FOUR-PENNY HEARTS': the playouts model one trick at a time.
            return self._fallback.play_card(view)
        started = self.clock()
        self.last_samples = 0
        legal = view.legal
        # The heuristic's choice goes first, so it wins ties (e.g. a hand already decided).
        preferred = self._fallback.play_card(view)
        if len(legal) == 1:
            return preferred
        if view.rules.cancellation:  # two packs: its own search (`arena.bots.cancellation`)
            seconds, samples = self._budget()
            chosen, self.last_samples = search_play(
                view, preferred, self._rng(view), started + seconds, samples, self.clock
            )
            return chosen
        if view.rules.enfle:  # 004 'Enfle': tricks taken up, the first out wins
            seconds, samples = self._budget()
            chosen, self.last_samples = search_enfle(
                view,
                preferred,
                self._rng(view),
                started + seconds,
                samples,
                self.playouts,
                self.clock,
            )
            return chosen
        if view.rules.domino:  # 000 'Domino Hearts': a stock and short tricks
            seconds, samples = self._budget()
            chosen, self.last_samples = search_domino(
                view,
                preferred,
                self._rng(view),
                started + seconds,
                samples,
                self.playouts,
                self.clock,
            )
            return chosen
        try:
            belief = Belief.from_view(view)
        except InconsistentBeliefError:  # our bug, not worth a lost decision: play safe
            return preferred
        candidates = [preferred.index] + [c.index for c in legal if c is not preferred]
        totals = self._evaluate(view, belief, candidates, started)
        best = min(range(len(candidates)), key=totals.__getitem__)
        return CARDS[candidates[best]]

    def _evaluate(
        self, view: SeatView, belief: Belief, candidates: list[int], started: float
    ) -> list[int]:
        """Per candidate, the sum over sampled deals and playouts of the seat's points
        times (n - 1) minus the others' points: lower is better."""
        rng = self._rng(view)
        rules = view.rules
        cfg = view.play_config()  # Gong Zhu's exposed cards included
        n, me, dealer = rules.players, view.seat, view.dealer
        if view.declarer is not None:
            # Auction Hearts: the declarer led the first trick; the backend's
            # 'left_of_dealer' opening leads from the seat after the dealer it is given.
            dealer = (view.declarer - 1) % n
        policy = POLICIES[self.policy]
        seconds, max_samples = self._budget()
        totals = [0] * len(candidates)
        samples = 0
        while samples < max_samples:
            try:
                deal = belief.sample(rng)
            except InconsistentBeliefError:
                break
            hands = tuple(deal[s] | belief.played[s] for s in range(n))
            state = core.HandState(cfg, hands, deal[n], dealer, 0, 0)
            push, pop, playout = state.push, state.pop, state.playout
            for card in belief.history:
                push(card)
            for _ in range(self.playouts):
                seed = rng.getrandbits(64)  # the same for every candidate: a fair comparison
                for i, card in enumerate(candidates):
                    push(card)
                    points = playout(seed, policy)
                    pop()
                    mine = points[me]
                    totals[i] += mine * (n - 1) - (sum(points) - mine)
            samples += 1
            # Stop when the next sample, at the pace so far, would overrun the budget.
            if (self.clock() - started) * (samples + 1) > seconds * samples:
                break
        self.last_samples = samples
        return totals
