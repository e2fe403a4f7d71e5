"""Matchmaking: a round's tables of the season's player count, as pure functions.

The rules, in the order they apply:

1. **Who plays first.** Players are taken least played first (rated tables plus tables
   already queued or running), newest version first among equals: a fresh upload gets its
   first tables at once and no one is starved. Each player taken becomes the *anchor* of
   a table unless an earlier table already seated it.
2. **Who sits with the anchor.** Opponents come from the `search_width` unseated players
   nearest in Elo *on each side* of the anchor (above and below), so a table is close in
   strength without always putting the anchor at the top or the bottom of it. Among them
   each seat goes to the cheapest candidate: its Elo distance to the anchor plus
   `repeat_penalty` Elo points for every recent meeting with someone already at the table.
3. **Not the same table too often.** A table whose exact line-up was played
   `max_table_repeats` times in the last `repeat_window_rounds` rounds has its last seat
   given to the next cheapest candidate that makes it new, when there is one (a small
   season may have no other choice; then the table is played again rather than not at all).
4. **One owner, one seat per rated table.** Two bot versions of one owner never share a
   table: a candidate whose owner already sits at the table is skipped, and when the
   window has too few others the search widens to every unseated player. (Challenges
   are unrated and seat whoever is asked for.) A player with no owner (`owner` None)
   is not constrained.
5. **Active table choice** (`active_choice`): with each player's 95 % interval known,
   a candidate's cost is how far apart the two intervals are in units of their combined
   half-widths (times `active_scale` Elo points) instead of its Elo distance: tables
   gather players whose order is still uncertain, and pairs already told apart meet
   less. The anchors are still taken least played first, so everyone keeps playing.
6. **House bots fill empty seats.** When too few players are left for a full table, the
   house bots nearest in Elo fill it (a house bot may sit at several tables of a round, at
   most once per table), unless the season turns that off.

Duplicate sets (`rotations`) play the same deals once per seat rotation, so that every
player holds every hand once and the luck of the deal cancels out.

>>> players = [Player(i, 1500.0 + 10 * i, games=0) for i in range(1, 9)]
>>> [sorted(t) for t in make_tables(players, 4, MatchmakingSettings(), History(),
...                                 rng=random.Random(1))]
[[5, 6, 7, 8], [1, 2, 3, 4]]
>>> rotations((1, 2, 3))
[(1, 2, 3), (2, 3, 1), (3, 1, 2)]
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any


@dataclasses.dataclass(frozen=True)
class MatchmakingSettings:
    """A season's matchmaking knobs (stored with the season as JSON).

    Raises ValueError on construction for out-of-range values.
    """

    tables_per_round: int | None = None  # None: every eligible player plays each round
    max_in_flight: int = 1  # a version with this many queued/running matches sits out
    search_width: int = 6  # candidates looked at on each side of the anchor's Elo
    repeat_window_rounds: int = 3  # how far back "met recently" looks
    max_table_repeats: int = 1  # the same line-up at most this often in that window
    repeat_penalty: float = 50.0  # Elo points one recent meeting costs a candidate
    duplicate_sets: bool = False  # play each table once per seat rotation, same seed
    fill_with_house: bool = True  # house bots fill the seats no player is left for
    active_choice: bool = False  # seat players whose intervals overlap together (rule 5)
    active_scale: float = 100.0  # Elo points one interval-width of separation costs

    def __post_init__(self) -> None:
        if self.tables_per_round is not None and self.tables_per_round < 1:
            raise ValueError(f"tables_per_round must be >= 1, not {self.tables_per_round}")
        for name in ("max_in_flight", "search_width", "max_table_repeats"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)}")
        if self.repeat_window_rounds < 0 or self.repeat_penalty < 0:
            raise ValueError("repeat_window_rounds and repeat_penalty must be >= 0")
        if self.active_scale < 0:
            raise ValueError(f"active_scale must be >= 0, not {self.active_scale}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every setting."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchmakingSettings:
        """Rebuild from `to_dict` output (missing keys take defaults); ValueError for unknown."""
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown matchmaking setting(s): {', '.join(unknown)}")
        return cls(**data)


@dataclasses.dataclass(frozen=True)
class Player:
    """A bot version as matchmaking sees it."""

    bot_version_id: int
    elo: float
    games: int  # rated tables plus tables queued or running
    owner: int | None = None  # the owning account: one seat per owner at a rated table
    interval: tuple[float, float] | None = None  # 95 % interval, for active table choice

    def separation(self, other: Player) -> float | None:
        """How far apart the two intervals' centres are, in combined half-widths (over 1:
        the intervals do not overlap); None when either interval is unknown."""
        if self.interval is None or other.interval is None:
            return None
        half = (self.interval[1] - self.interval[0] + other.interval[1] - other.interval[0]) / 2
        centre = abs(sum(self.interval) - sum(other.interval)) / 2
        return centre / half if half > 0 else float("inf") if centre else 0.0


class History:
    """Who met whom in the recent rounds, and which exact line-ups were played."""

    def __init__(self, tables: Iterable[Iterable[int]] = ()) -> None:
        self.pairs: Counter[tuple[int, int]] = Counter()
        self.lineups: Counter[frozenset[int]] = Counter()
        for table in tables:
            self.add(table)

    def add(self, table: Iterable[int]) -> None:
        """Count one played table."""
        members = sorted(set(table))
        self.lineups[frozenset(members)] += 1
        self.pairs.update(combinations(members, 2))

    def met(self, a: int, b: int) -> int:
        """How many recent tables `a` and `b` shared."""
        return self.pairs.get((a, b) if a < b else (b, a), 0)

    def times_played(self, table: Iterable[int]) -> int:
        """How many recent tables had exactly this line-up."""
        return self.lineups.get(frozenset(table), 0)


def priority_order(players: Iterable[Player]) -> list[Player]:
    """Least played first; among equals the newest version (highest id) first."""
    return sorted(players, key=lambda p: (p.games, -p.bot_version_id))


def rotations(table: Sequence[int]) -> list[tuple[int, ...]]:
    """The seatings of a duplicate set: rotation r puts player (s + r) mod n in seat s."""
    n = len(table)
    return [tuple(table[(seat + r) % n] for seat in range(n)) for r in range(n)]


class _EloLine:
    """The unseated players in Elo order, as a doubly linked list: O(1) to seat a player,
    O(width) to list the nearest unseated ones on each side of a position."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.order = sorted(players, key=lambda p: (p.elo, p.bot_version_id))
        self.position = {p.bot_version_id: i for i, p in enumerate(self.order)}
        count = len(self.order)
        self.prev = list(range(-1, count - 1))
        self.next = list(range(1, count + 1))

    def seat(self, player: Player) -> None:
        """Take `player` off the line."""
        i = self.position[player.bot_version_id]
        before, after = self.prev[i], self.next[i]
        if before >= 0:
            self.next[before] = after
        if after < len(self.order):
            self.prev[after] = before

    def around(self, player: Player, width: int) -> list[Player]:
        """Up to `width` unseated players below `player` in Elo and `width` above it."""
        i = self.position[player.bot_version_id]
        found: list[Player] = []
        j = self.prev[i]
        while j >= 0 and len(found) < width:
            found.append(self.order[j])
            j = self.prev[j]
        below = len(found)
        j = self.next[i]
        while j < len(self.order) and len(found) < below + width:
            found.append(self.order[j])
            j = self.next[j]
        return found


def make_tables(
    players: Sequence[Player],
    table_size: int,
    settings: MatchmakingSettings,
    history: History,
    *,
    house: Sequence[Player] = (),
    rng: random.Random,
) -> list[tuple[int, ...]]:
    """One round's tables, each a tuple of bot version ids in seat order.

    `players` are the eligible entries (house bots excluded); `house` the house bots that
    may fill seats. Deterministic for a given `rng` state. Raises ValueError for a table
    size below 2 or a version listed twice.
    """
    if table_size < 2:
        raise ValueError(f"tables need at least two seats, not {table_size}")
    line = _EloLine(players)
    if len(line.position) != len(players):
        raise ValueError("a bot version is listed twice")
    seated: set[int] = set()
    tables: list[tuple[int, ...]] = []
    for anchor in priority_order(players):
        if settings.tables_per_round is not None and len(tables) >= settings.tables_per_round:
            break
        if anchor.bot_version_id in seated:
            continue
        window = line.around(anchor, settings.search_width)
        if anchor.owner is not None:
            window = [p for p in window if p.owner is None or p.owner != anchor.owner]
            if len(window) < table_size - 1:
                window = [
                    p
                    for p in line.around(anchor, len(players))
                    if p.owner is None or p.owner != anchor.owner
                ]
        table = _choose(anchor, window, table_size, settings, history)
        for player in table:
            line.seat(player)
            seated.add(player.bot_version_id)
        ids = [p.bot_version_id for p in table]
        if len(ids) < table_size:
            if not settings.fill_with_house:
                continue
            fillers = sorted(
                (h for h in house if h.bot_version_id not in ids),
                key=lambda h: (abs(h.elo - anchor.elo), h.bot_version_id),
            )[: table_size - len(ids)]
            if len(ids) + len(fillers) < table_size:
                continue
            ids.extend(h.bot_version_id for h in fillers)
        rng.shuffle(ids)
        tables.append(tuple(ids))
    return tables


def _cheapest(costs: list[float], candidates: list[Player]) -> int:
    best = 0
    for i in range(1, len(costs)):
        if costs[i] < costs[best] or (
            costs[i] == costs[best]
            and candidates[i].bot_version_id < candidates[best].bot_version_id
        ):
            best = i
    return best


def _distance(anchor: Player, candidate: Player, settings: MatchmakingSettings) -> float:
    """A candidate's base cost: Elo distance, or with active choice its interval separation."""
    if settings.active_choice:
        separation = anchor.separation(candidate)
        if separation is not None:
            return settings.active_scale * separation
    return abs(candidate.elo - anchor.elo)


def _choose(
    anchor: Player,
    window: list[Player],
    table_size: int,
    settings: MatchmakingSettings,
    history: History,
) -> list[Player]:
    """The anchor and its table-mates from `window` (rules 2 and 3 of the module docstring).

    A candidate's cost is its Elo distance to the anchor plus the penalty for each recent
    meeting with someone already seated; the meeting counts are kept up to date as seats
    fill, so each seat costs one pass over the window.
    """
    table = [anchor]
    candidates = list(window)
    pairs = history.pairs.get if history.pairs else None
    penalty = settings.repeat_penalty

    def meetings(a: int, others: list[Player]) -> list[float]:
        assert pairs is not None
        return [
            penalty
            * pairs((a, c.bot_version_id) if a < c.bot_version_id else (c.bot_version_id, a), 0)
            for c in others
        ]

    costs = [_distance(anchor, c, settings) for c in candidates]
    if pairs is not None:
        costs = [
            x + y for x, y in zip(costs, meetings(anchor.bot_version_id, candidates), strict=True)
        ]
    while len(table) < table_size and candidates:
        best = _cheapest(costs, candidates)
        chosen = candidates.pop(best)
        del costs[best]
        table.append(chosen)
        if chosen.owner is not None:
            same = [i for i, c in enumerate(candidates) if c.owner == chosen.owner]
            for i in reversed(same):
                del candidates[i]
                del costs[i]
        if pairs is not None and len(table) < table_size:
            costs = [
                x + y
                for x, y in zip(costs, meetings(chosen.bot_version_id, candidates), strict=True)
            ]
    if len(table) == table_size and history.lineups and candidates:
        lineup = [p.bot_version_id for p in table[:-1]]
        if history.times_played([*lineup, table[-1].bot_version_id]) >= settings.max_table_repeats:
            ranked = sorted(
                range(len(candidates)), key=lambda i: (costs[i], candidates[i].bot_version_id)
            )
            for i in ranked:
                alternative = candidates[i]
                if history.times_played([*lineup, alternative.bot_version_id]) < (
                    settings.max_table_repeats
                ):
                    table[-1] = alternative
                    break
    return table
