"""The strong bot's play in Cancellation Hearts (000; 003): sampled deals over two packs.

The strong bot's search (`arena.bots.belief`, the mask core's playouts) holds one copy of
each card, so Cancellation Hearts gets its own small search in the same spirit: deal the
copies this seat cannot see to the other hands (and the hidden widow) consistently with
what it saw -- how many cards each seat holds, the suits a seat showed out of, the cards
this seat passed -- rebuild the hand in the two-pack backend, and play every legal card
out with playouts in which every seat plays as the heuristic bot would (duck, dump the
worst card, lead low; a random legal card one time in eight), keeping the card whose mean
points for this seat are lowest.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

from arena.engine import CARDS, Card, SeatView
from arena.engine.config import PHASE_OVER
from arena.engine.variants.cancellation import backend, cancellation_config

_VOID_TRIES = 20
"""Shuffles tried for a deal respecting every void shown, before voids are ignored."""
_RANDOM_ONE_IN = 8
"""A playout decision is random this rarely (else greedy), so playouts differ."""
_QUEEN_OF_SPADES = 2 * 13 + 10


def greedy_card(
    cards: list[int], trick: tuple[int, ...], players: int, values: tuple[int, ...]
) -> int:
    """The heuristic's choice among the legal `cards` (indices) on `trick`: lead the lowest
    card worth nothing; follow with the highest card that loses (a twin of a card played
    never wins), else the lowest (the highest when last to play); void, dump the ♠Q, then
    the highest card worth points, then the highest card."""
    if not trick:
        return min(cards, key=lambda c: (values[c] > 0, c % 13))
    led = trick[0] // 13
    following = [c for c in cards if c // 13 == led]
    if following:
        alive = [c for c in trick if c // 13 == led and trick.count(c) == 1]
        high = max(alive, default=-1)
        ducks = [c for c in following if c < high or c in trick]
        if ducks:
            return max(ducks)
        return max(following) if len(trick) == players - 1 else min(following)
    return max(cards, key=lambda c: (c == _QUEEN_OF_SPADES, values[c] > 0, c % 13))


def _masks(counts: Counter[int]) -> tuple[int, int]:
    once = twice = 0
    for card, count in counts.items():
        if count:
            once |= 1 << card
        if count > 1:
            twice |= 1 << card
    return once, twice


class CancellationSearch:
    """One decision's sampling: built from the view, then `sample` and `score`."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        n = rules.players
        self.view = view
        self.cfg = cancellation_config(rules)
        self.plays: list[int] = []
        played: list[Counter[int]] = [Counter() for _ in range(n)]
        self.voids: list[set[int]] = [set() for _ in range(n)]
        for trick in (*view.tricks, None):
            plays = trick.plays if trick is not None else view.current_trick
            if not plays:
                continue
            led = plays[0][1].suit
            for seat, card in plays:
                self.plays.append(card.index)
                played[seat][card.index] += 1
                if card.suit is not led and led is not None:
                    self.voids[seat].add(int(led))
        self.played = played
        pool = Counter(card.index for card in rules.deck_copies)
        pool.subtract(card.index for card in view.hand)
        for counts in played:
            pool.subtract(counts)
        self.widow_known = view.kitty is not None
        if view.kitty is not None:
            pool.subtract(card.index for card in view.kitty)
        # The cards this seat passed are held by their receiver, less any it has played.
        self.known: list[Counter[int]] = [Counter() for _ in range(n)]
        offset = view.pass_direction.offset(n) if view.passed else None
        if offset:
            receiver = (view.seat + offset) % n
            for index, count in Counter(c.index for c in view.passed).items():
                left = max(0, count - played[receiver][index])
                if left:
                    self.known[receiver][index] = left
                    pool[index] -= left
        self.pool = [card for card, count in pool.items() for _ in range(max(count, 0))]
        self.need = [
            rules.hand_size - sum(played[s].values()) - sum(self.known[s].values())
            for s in range(n)
        ]
        self.need[view.seat] = 0

    def sample(self, rng: random.Random) -> tuple[list[Counter[int]], Counter[int]]:
        """Each seat's cards now (this seat's own included) and the widow's."""
        n = self.view.rules.players
        for attempt in range(_VOID_TRIES + 1):
            pool = self.pool[:]
            rng.shuffle(pool)
            hands = [Counter(self.known[s]) for s in range(n)]
            room = self.need[:]
            widow: Counter[int] = Counter()
            ok = True
            for card in pool:
                suit = card // 13
                seats = [
                    s
                    for s in range(n)
                    if room[s] and (attempt == _VOID_TRIES or suit not in self.voids[s])
                ]
                widow_room = 0 if self.widow_known else self.cfg.widow_size - sum(widow.values())
                if not seats and not widow_room:
                    ok = False
                    break
                pick = rng.randrange(len(seats) + (1 if widow_room else 0))
                if pick == len(seats):
                    widow[card] += 1
                else:
                    hands[seats[pick]][card] += 1
                    room[seats[pick]] -= 1
            if ok:
                hands[self.view.seat] = Counter(c.index for c in self.view.hand)
                return hands, widow
        raise AssertionError("the last attempt ignores voids and always deals")

    def score(
        self, hands: list[Counter[int]], widow: Counter[int], card: int, rng: random.Random
    ) -> int:
        """This seat's points when it plays `card` now and everyone then plays as the
        playout policy does (`outcome`)."""
        return self.outcome(hands, widow, card, rng)[self.view.seat]

    def outcome(
        self, hands: list[Counter[int]], widow: Counter[int], card: int, rng: random.Random
    ) -> tuple[int, ...]:
        """Every seat's points when this seat plays `card` now and everyone then plays as
        the heuristic bot would, one decision in `_RANDOM_ONE_IN` at random."""
        view = self.view
        if self.widow_known and view.kitty is not None:
            widow = Counter(c.index for c in view.kitty)
        start = [hands[s] + self.played[s] for s in range(view.rules.players)]
        state = backend.CancellationState(
            self.cfg, tuple(_masks(h) for h in start), _masks(widow), view.dealer, 0
        )
        for played in self.plays:
            state.push(played)
        state.push(card)
        players, values = view.rules.players, self.cfg.values
        while state.phase != PHASE_OVER:
            mask = state.legal_mask()
            choices = [c for c in range(52) if mask >> c & 1]
            if len(choices) > 1 and rng.randrange(_RANDOM_ONE_IN):
                state.push(greedy_card(choices, state.current_trick(), players, values))
            else:
                state.push(choices[rng.randrange(len(choices))])
        points: tuple[int, ...] = tuple(state.points())
        return points


def play_out_candidates(
    view: SeatView,
    legal: Sequence[int],
    rng: random.Random,
    deadline: float,
    max_samples: int,
    tell: Callable[[int, tuple[int, ...]], None],
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """Every card of `legal` (indices) played out on the same sampled deals, until
    `max_samples` deals or the `clock` passes `deadline` (one deal at least); each
    outcome (every seat's points) is told to `tell(candidate's place, points)`. The search
    of `search_play` and the analysis of a two-pack play (arena.analysis.families) share
    it. Returns the number of deals sampled."""
    search = CancellationSearch(view)
    samples = 0
    while samples < max_samples and (samples == 0 or clock() < deadline):
        hands, widow = search.sample(rng)
        for k, card in enumerate(legal):
            tell(k, search.outcome(hands, widow, card, rng))
        samples += 1
    return samples


def search_play(
    view: SeatView,
    preferred: Card,
    rng: random.Random,
    deadline: float,
    max_samples: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Card, int]:
    """The legal card with the lowest mean points over sampled deals (the `preferred` card
    first, so it wins ties), and the number of deals sampled; `deadline` is a `clock`
    value."""
    legal = [preferred.index] + [c.index for c in view.legal if c is not preferred]
    if len(legal) == 1:
        return preferred, 0
    totals = [0] * len(legal)
    me = view.seat

    def tell(k: int, points: tuple[int, ...]) -> None:
        totals[k] += points[me]

    samples = play_out_candidates(view, legal, rng, deadline, max_samples, tell, clock)
    best = min(range(len(legal)), key=totals.__getitem__)
    return CARDS[legal[best]], samples
