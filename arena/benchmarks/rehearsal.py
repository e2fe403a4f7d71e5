"""The dress rehearsal's plan and its judge: who enters, how strong, and how close the
final order came to the truth (`arena bench rehearsal`, docs/scaling.md).

Every entrant plays the Python SDK's heuristic starter's rules, in one of three languages
(the Python example `sdk/examples/handicap_bot.py`, the C++ kit, the TypeScript kit: the
same rules, the same answers to the same hands), with a handicap p: with probability p a
play is a uniformly random legal card instead. p is spread evenly from 0 (the strongest)
to 1 (random play), so the true order is by p, whatever the language. A few entrants
break on purpose now and then (a crash, a timeout, an illegal card), and their true
place is unknown (a fault costs a default card, three in a match a disqualification):
they are left out of the agreement and shown apart. Some entrants upload a second
version mid-season whose handicap differs from the first's (1 - p, then p): the truth is
the final version's p.

The agreement (`agreement`) compares the season's final order with the truth: Kendall's
tau, the true neighbours in the right order, and the ranking's own 95 % intervals: how
many true neighbours it could tell apart at all, and the pairs it told apart the wrong
way round (the intervals' own misses: at 95 % a few are expected among many pairs, and
many mean the intervals are too narrow for the games played).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Final

KINDS: Final = ("python", "cpp", "typescript")
"""The starter kits the entrants are made from, in the order they are dealt out."""
FAULTS: Final = ("crash", "timeout", "illegal")
"""What a broken entrant does now and then instead of a play."""


@dataclasses.dataclass(frozen=True)
class EntrantPlan:
    """One entrant: its bot's name, its kit, its handicap and what it does wrong."""

    index: int
    name: str
    kind: str
    handicap: float
    """The final version's p: the probability of a random legal card instead of a play."""
    fault: str | None = None
    """One of `FAULTS` for a broken entrant (always a Python bot), else None."""
    first_handicap: float | None = None
    """The first version's p when the entrant uploads a new version mid-season."""

    @property
    def updates(self) -> bool:
        """Whether it uploads a new version mid-season."""
        return self.first_handicap is not None


def plan_entrants(count: int, *, broken: int = 3, updaters: int | None = None) -> list[EntrantPlan]:
    """`count` entrants, strongest first: p = i / (count - 1), the kits dealt in turn;
    `broken` of them (one of each fault in turn, spread over the field) are Python bots
    that break now and then; `updaters` (default: one in eight) of the others, taken from
    the ends of the field, upload a second version mid-season, the first at p' = 1 - p.

    Raises ValueError for fewer than 4 entrants or more broken or updating ones than fit.
    """
    if count < 4:
        raise ValueError(f"a rehearsal needs at least 4 entrants (one table), not {count}")
    if not 0 <= broken <= count // 2:
        raise ValueError(f"{broken} broken entrants of {count}: at most half may be broken")
    step = count / (broken + 1)
    faulty = {round(step * (j + 1)): FAULTS[j % len(FAULTS)] for j in range(broken)}
    sound = [i for i in range(count) if i not in faulty]
    wanted = max(1, count // 8) if updaters is None else updaters
    if not 0 <= wanted <= len(sound):
        raise ValueError(f"{wanted} updating entrants of {len(sound)} sound ones")
    # the ends of the field first: there 1 - p is far from p
    by_distance = sorted(sound, key=lambda i: (-abs(2 * i - (count - 1)), i))
    updating = set(by_distance[:wanted])
    plans = []
    for i in range(count):
        p = round(i / (count - 1), 4)
        fault = faulty.get(i)
        kind = "python" if fault else KINDS[i % len(KINDS)]
        plans.append(
            EntrantPlan(
                index=i,
                name=f"r{i:03d}-{kind}" + (f"-{fault}" if fault else ""),
                kind=kind,
                handicap=p,
                fault=fault,
                first_handicap=round(1.0 - p, 4) if i in updating else None,
            )
        )
    return plans


def true_order(plans: Sequence[EntrantPlan]) -> list[str]:
    """The sound entrants' names, strongest (smallest final p) first."""
    return [
        plan.name
        for plan in sorted(plans, key=lambda plan: (plan.handicap, plan.index))
        if plan.fault is None
    ]


def kendall_tau(truth: Sequence[Hashable], found: Sequence[Hashable]) -> float:
    """Kendall's tau-a between two orders of the same items (best first): +1 the same
    order, -1 reversed, about 0 unrelated.

    >>> kendall_tau("abcd", "abcd"), kendall_tau("abcd", "dcba"), kendall_tau("abcd", "bacd")
    (1.0, -1.0, 0.6666666666666666)

    Raises ValueError when the two are not orders of the same two or more items.
    """
    position = _positions(truth, found)
    n = len(truth)
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            score += 1 if position[truth[i]] < position[truth[j]] else -1
    return score / (n * (n - 1) / 2)


def adjacent_in_order(truth: Sequence[Hashable], found: Sequence[Hashable]) -> int:
    """How many of the truth's neighbours (first and second, second and third, …) the
    found order puts the right way round, out of len(truth) - 1.

    >>> adjacent_in_order("abcd", "abcd"), adjacent_in_order("abcd", "bacd")
    (3, 2)

    Raises ValueError as `kendall_tau`.
    """
    position = _positions(truth, found)
    return sum(position[a] < position[b] for a, b in itertools.pairwise(truth))


def _positions(truth: Sequence[Hashable], found: Sequence[Hashable]) -> dict[Hashable, int]:
    if len(truth) < 2 or len(set(truth)) != len(truth) or set(truth) != set(found):
        raise ValueError("compare two orders of the same two or more distinct items")
    if len(found) != len(truth):
        raise ValueError("an item appears twice in the found order")
    return {item: i for i, item in enumerate(found)}


@dataclasses.dataclass(frozen=True)
class Agreement:
    """How the season's final order (of the sound entrants) compares with the truth."""

    entrants: int
    tau: float
    adjacent_right: int
    adjacent_separated: int
    """True neighbours whose 95 % intervals do not overlap: the ranking told them apart."""
    pairs_separated: int
    """All pairs of entrants whose intervals do not overlap."""
    separated_wrong: int
    """Of those, the pairs the ranking put the wrong way round: the intervals' misses."""

    @property
    def adjacent(self) -> int:
        """The truth's neighbouring pairs."""
        return self.entrants - 1


def agreement(
    truth: Sequence[str],
    found: Sequence[str],
    intervals: Mapping[str, tuple[float, float]],
) -> Agreement:
    """Compare `found` (best first, the entrants of `truth` only) with `truth`, using each
    entrant's 95 % interval of points per hand (lower is better) from the final standings.

    >>> a = agreement(["a", "b", "c"], ["a", "c", "b"], {"a": (1, 2), "b": (3, 5), "c": (4, 6)})
    >>> a.tau, a.adjacent_right, a.adjacent_separated, a.pairs_separated, a.separated_wrong
    (0.3333333333333333, 1, 1, 2, 0)

    Raises ValueError as `kendall_tau`, or KeyError for an entrant without an interval.
    """
    position = _positions(truth, found)
    separated = wrong = 0
    for i, a in enumerate(truth):
        for b in truth[i + 1 :]:
            if _apart(intervals[a], intervals[b]):
                separated += 1
                wrong += position[a] > position[b]
    return Agreement(
        entrants=len(truth),
        tau=kendall_tau(truth, found),
        adjacent_right=adjacent_in_order(truth, found),
        adjacent_separated=sum(
            _apart(intervals[a], intervals[b]) for a, b in itertools.pairwise(truth)
        ),
        pairs_separated=separated,
        separated_wrong=wrong,
    )


def _apart(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[1] < b[0] or b[1] < a[0]
