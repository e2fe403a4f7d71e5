"""`arena bench bots`: how much better each house bot is than the next, on duplicate hands.

A pair "A against B" is measured on duplicate hands: each deal is played once per seat
rotation, one A at the table and B in every other seat, so A holds every seat's cards
once and the luck of the deal cancels. A deal's figure is A's points minus the mean of
the B seats' points, averaged over its rotations; the result is the mean of that over the
deals with a 95% confidence interval from the deals' spread (normal approximation,
paired by deal). Negative is better for A: Hearts points are bad.

Deals follow the rules' pass schedule (deal i passes `pass_schedule[i % len]`, the dealer
moves left each deal), and the bots are called in process on the engine's `SeatView`,
timed per decision. Deals are split across worker processes.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.bots import HOUSE_BOTS, HouseBot, StrongBot
from arena.engine import Hand, Rules, preset
from arena.engine.decisions import Action
from arena.match.house import answer
from arena.match.seats import DecisionContext, InProcessSeat

Z_95 = 1.959963984540054
LIMIT = 0.1
"""The time per move the issue allows the house bots (seconds)."""


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A house bot by name, with the options its factory takes (picklable, for workers)."""

    name: str
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def build(self, seed: int) -> HouseBot:
        """The bot, seeded. Raises KeyError for an unknown house bot."""
        if self.name == "strong":
            return StrongBot(seed, **self.options)
        if self.name == "expert":
            from arena.bots.expert import ExpertBot

            return ExpertBot(seed, **self.options)
        return HOUSE_BOTS[self.name](seed)

    def describe(self) -> str:
        """The name and its options, for people."""
        if not self.options:
            return self.name
        options = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.name} ({options})"


@dataclasses.dataclass
class Timing:
    """Seconds per decision of one kind of bot, by the wall clock and in CPU time.

    Why both: the bot's budget is wall-clock time, but on a shared machine the wall
    clock also counts the time the process waited for a core; the CPU time is the
    bot's own work.
    """

    wall: list[float] = dataclasses.field(default_factory=list)
    cpu: list[float] = dataclasses.field(default_factory=list)

    def add(self, wall: float, cpu: float) -> None:
        """Record one decision."""
        self.wall.append(wall)
        self.cpu.append(cpu)

    def extend(self, other: Timing) -> None:
        """Record every decision of `other`."""
        self.wall.extend(other.wall)
        self.cpu.extend(other.cpu)

    @property
    def decisions(self) -> int:
        """Decisions recorded."""
        return len(self.wall)

    @property
    def mean(self) -> float:
        """Mean wall-clock seconds per decision."""
        return statistics.fmean(self.wall) if self.wall else 0.0

    @property
    def longest(self) -> float:
        """The longest decision, wall clock."""
        return max(self.wall, default=0.0)

    @property
    def cpu_mean(self) -> float:
        """Mean CPU seconds per decision."""
        return statistics.fmean(self.cpu) if self.cpu else 0.0

    @property
    def cpu_longest(self) -> float:
        """The most CPU time one decision took."""
        return max(self.cpu, default=0.0)

    def percentile(self, share: float) -> float:
        """The wall-clock time that `share` (0..1) of the decisions stayed within."""
        if not self.wall:
            return 0.0
        ordered = sorted(self.wall)
        return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]

    def over(self, seconds: float) -> int:
        """How many decisions took longer than `seconds`, wall clock."""
        return sum(1 for t in self.wall if t > seconds)


@dataclasses.dataclass(frozen=True)
class PairFigures:
    """What `arena bench bots` prints for one pair."""

    bot: str
    field: str
    rules: str
    deals: int
    hands: int
    difference: float
    """A's points per hand minus the field's, mean over deals (negative: A is better)."""
    half_width: float
    """Half the 95% confidence interval of `difference`."""
    bot_points: float
    field_points: float
    bot_time: Timing
    field_time: Timing
    seconds: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of `difference`."""
        return (self.difference - self.half_width, self.difference + self.half_width)

    @property
    def clear_of_zero(self) -> bool:
        """Whether the interval excludes zero (a difference the run can tell)."""
        low, high = self.interval
        return low > 0 or high < 0

    def rows(self) -> list[tuple[str, str]]:
        """(measurement, value) pairs for a printed table."""
        low, high = self.interval
        bot, field = self.bot_time, self.field_time
        return [
            ("bot (one seat)", self.bot),
            ("field (the other seats)", self.field),
            ("rules", self.rules),
            ("duplicate deals (hands played)", f"{self.deals:,} ({self.hands:,})"),
            (
                "bot minus field, points per hand",
                f"{self.difference:+.3f}  (95% CI {low:+.3f} to {high:+.3f})",
            ),
            ("bot / field points per hand", f"{self.bot_points:.3f} / {self.field_points:.3f}"),
            (
                "bot wall time per decision: mean / p99 / max",
                f"{_ms(bot.mean)} / {_ms(bot.percentile(0.99))} / {_ms(bot.longest)}",
            ),
            (
                "bot CPU time per decision: mean / max",
                f"{_ms(bot.cpu_mean)} / {_ms(bot.cpu_longest)}",
            ),
            (
                f"bot decisions (over {LIMIT * 1000:.0f} ms wall)",
                f"{bot.decisions:,} ({bot.over(LIMIT):,})",
            ),
            (
                "field wall time per decision: mean / max",
                f"{_ms(field.mean)} / {_ms(field.longest)}",
            ),
            ("wall time of the run", f"{self.seconds:.1f} s"),
        ]

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready values (seconds for times)."""
        low, high = self.interval
        return {
            "bot": self.bot,
            "field": self.field,
            "rules": self.rules,
            "deals": self.deals,
            "hands": self.hands,
            "difference": self.difference,
            "ci95": [low, high],
            "clear_of_zero": self.clear_of_zero,
            "bot_points": self.bot_points,
            "field_points": self.field_points,
            "bot_time": _timing_dict(self.bot_time),
            "field_time": _timing_dict(self.field_time),
            "seconds": self.seconds,
        }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


def _timing_dict(timing: Timing) -> dict[str, float]:
    return {
        "decisions": timing.decisions,
        "mean": timing.mean,
        "p99": timing.percentile(0.99),
        "max": timing.longest,
        "cpu_mean": timing.cpu_mean,
        "cpu_max": timing.cpu_longest,
        f"over_{LIMIT * 1000:.0f}ms": timing.over(LIMIT),
    }


@dataclasses.dataclass(frozen=True)
class _DealResult:
    index: int
    difference: float
    bot_points: float
    field_points: float
    bot_time: Timing
    field_time: Timing


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal `index` of a run (SplitMix64 of the pair), the same for every pair."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def play_table(
    rules: Rules, seed: int, index: int, bots: Sequence[HouseBot]
) -> tuple[tuple[int, ...], list[Timing]]:
    """Play deal `index` of the run seeded `seed` once, `bots[s]` in seat s: each seat's
    points and the time its bot took per decision."""
    n = rules.players
    direction = rules.pass_schedule[index % len(rules.pass_schedule)]
    hand = Hand.deal(rules, deal_seed(seed, index), dealer=index % n, pass_direction=direction)
    timings = [Timing() for _ in range(n)]
    seats = [InProcessSeat(bot) for bot in bots]
    context = DecisionContext(index, (0,) * n, 0.0, 0.0)
    # The one loop, as the runner and `arena demo` (`arena.match.house.answer`): every decision
    # the rules ask, each timed against the seat that answers it.
    while (decision := hand.pending()) is not None:
        seat = decision.seat
        view = hand.view(seat)  # built outside the timing, as before: the bot's time only
        started, cpu = time.perf_counter(), time.process_time()
        value = answer(seats[seat], decision, hand, context, view)
        timings[seat].add(time.perf_counter() - started, time.process_time() - cpu)
        hand.apply(Action(decision.kind, seat, value))
    return hand.points(), timings


def _play_deal(rules: Rules, seed: int, index: int, bot: BotSpec, field: BotSpec) -> _DealResult:
    """Every rotation of deal `index`: the bot in seat r, the field elsewhere."""
    n = rules.players
    differences, mine, theirs = [], [], []
    bot_time, field_time = Timing(), Timing()
    for rotation in range(n):
        base = deal_seed(seed ^ 0xB07, index * n + rotation)
        bots = [bot.build(base + s) if s == rotation else field.build(base + s) for s in range(n)]
        points, timings = play_table(rules, seed, index, bots)
        others = [points[s] for s in range(n) if s != rotation]
        differences.append(points[rotation] - sum(others) / (n - 1))
        mine.append(points[rotation])
        theirs.append(sum(others) / (n - 1))
        for s in range(n):
            (bot_time if s == rotation else field_time).extend(timings[s])
    return _DealResult(
        index,
        statistics.fmean(differences),
        statistics.fmean(mine),
        statistics.fmean(theirs),
        bot_time,
        field_time,
    )


def _play_deals(
    rules_json: str, seed: int, indices: Sequence[int], bot: BotSpec, field: BotSpec
) -> list[_DealResult]:
    rules = Rules.from_json(rules_json)
    return [_play_deal(rules, seed, i, bot, field) for i in indices]


def bench_pair(
    bot: BotSpec,
    field: BotSpec,
    *,
    deals: int = 2000,
    rules: Rules | None = None,
    seed: int = 1,
    workers: int = 2,
    chunk: int = 10,
    progress: Callable[[int, int], None] | None = None,
) -> PairFigures:
    """Play `deals` duplicate deals of `bot` against a field of `field` and measure.

    `workers` processes share the deals (1: in this process); `progress(done, deals)` is
    called as chunks finish. Raises ValueError for fewer than 2 deals.
    """
    if deals < 2:
        raise ValueError(f"a confidence interval needs at least 2 deals, got {deals}")
    rules = rules or preset("standard")
    started = time.perf_counter()
    chunks = [list(range(i, min(i + chunk, deals))) for i in range(0, deals, chunk)]
    results: list[_DealResult] = []
    if workers <= 1:
        for indices in chunks:
            results.extend(_play_deals(rules.to_json(), seed, indices, bot, field))
            if progress is not None:
                progress(len(results), deals)
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_play_deals, rules.to_json(), seed, indices, bot, field)
                for indices in chunks
            ]
            for future in concurrent.futures.as_completed(futures):
                results.extend(future.result())
                if progress is not None:
                    progress(len(results), deals)
    results.sort(key=lambda r: r.index)
    differences = [r.difference for r in results]
    bot_time, field_time = Timing(), Timing()
    for r in results:
        bot_time.extend(r.bot_time)
        field_time.extend(r.field_time)
    return PairFigures(
        bot=bot.describe(),
        field=field.describe(),
        rules=rules.name,
        deals=deals,
        hands=deals * rules.players,
        difference=statistics.fmean(differences),
        half_width=Z_95 * statistics.stdev(differences) / math.sqrt(deals),
        bot_points=statistics.fmean(r.bot_points for r in results),
        field_points=statistics.fmean(r.field_points for r in results),
        bot_time=bot_time,
        field_time=field_time,
        seconds=time.perf_counter() - started,
    )


def strong_spec(time_per_move: float | None, max_samples: int | None) -> BotSpec:
    """The strong bot with a budget per move."""
    return BotSpec("strong", {"time_per_move": time_per_move, "max_samples": max_samples})


SEARCH_BOTS = ("strong", "expert")
"""House bots that take a budget per move (`time_per_move`, `max_samples`)."""


def spec(
    name: str, time_per_move: float | None, max_samples: int | None, clock: str = "wall"
) -> BotSpec:
    """A house bot by name; a search bot (`SEARCH_BOTS`) with the budget per move, its
    time counted by `clock` (`arena.bots.strong.CLOCKS`: "wall" or "cpu")."""
    if name in SEARCH_BOTS:
        options: dict[str, Any] = {"time_per_move": time_per_move, "max_samples": max_samples}
        if clock != "wall":
            options["clock"] = clock
        return BotSpec(name, options)
    return BotSpec(name)


def measure(
    *,
    deals: int = 2000,
    strong_time: float | None = 0.1,
    strong_samples: int | None = 50,
    rules: Rules | None = None,
    seed: int = 1,
    workers: int = 2,
    progress: Callable[[str, int, int], None] | None = None,
    pairs: Sequence[tuple[str, str]] = (),
    clock: str = "wall",
) -> list[PairFigures]:
    """The two pairs of `arena bench bots`: heuristic against random, strong against
    heuristic (the strong bot with at most `strong_samples` deals and `strong_time` seconds
    per move); or the named `pairs` (bot, field), every search bot in them with that same
    budget (so "expert" against "strong" compares them at equal time per move). `clock`
    is what the search bots' seconds count: "wall", or "cpu" (each bot's own CPU time, so
    "equal time" stays equal work on a loaded machine)."""
    chosen = [
        (
            spec(bot, strong_time, strong_samples, clock),
            spec(field, strong_time, strong_samples, clock),
        )
        for bot, field in pairs
    ] or [
        (BotSpec("heuristic"), BotSpec("random")),
        (spec("strong", strong_time, strong_samples, clock), BotSpec("heuristic")),
    ]
    figures = []
    for bot, field in chosen:
        label = f"{bot.name} vs {field.name}"

        def report(done: int, total: int, label: str = label) -> None:
            if progress is not None:
                progress(label, done, total)

        figures.append(
            bench_pair(
                bot, field, deals=deals, rules=rules, seed=seed, workers=workers, progress=report
            )
        )
    return figures
