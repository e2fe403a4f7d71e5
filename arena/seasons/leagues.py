"""Leagues with bosses: a season run as a ladder of leagues, each guarded by a house bot.

A league season (`SeasonLeagues`) lists its bosses, house bot kinds weakest first
(`DEFAULT_BOSSES` is data: the kinds in order of strength, of which a season takes those
the platform has). League i's boss is bosses[i]; beyond the last boss is the top league,
which has none. A new entrant starts in league 0.

**The promotion rule** (docs/ratings.md, "Leagues"). Every done match of the season at
which the bot's playing version and its league's boss both sat, since the bot reached the
league, gives one difference: the bot's points per hand minus the boss's (a duplicate
set: totals over its rotations, per hand of all of them; fewer points is better in
Hearts, so a bot that beats the boss has a negative mean). The bot is promoted when it
has at least `min_games` such matches and the mean difference m of its n games lies
below zero by more than a confidence sequence's radius:

    m + s * sqrt((n + r) * (ln((n + r) / r) + 2 ln(1 / ALPHA))) / n * t95(n - 1) / Z95 < 0

with s the differences' spread, r = `min_games` and ALPHA = 5 %. The season looks after
every round, so the rule is a sequential test and a fixed-n interval would not do: with
the 95 % t interval at every look an equal bot was promoted about 15 % of the time over
300 looks. The radius is Robbins' normal-mixture boundary (Ville's inequality: for
differences of mean 0 and known spread, the chance that ANY look ever crosses it is at
most ALPHA, however long the season), with r putting its tightest point at the minimum
and Student's t95(n - 1) / Z95 widening it for a spread estimated from n games (the
ladder's interval method, `arena.ratings.batch.t95`). `promotion_rate` measures it by
simulation (docs/ratings.md, "Leagues"). The other seats are the bot's league-mates and
house fillers ("mixed tables"), the same for both, so the difference measures the two
against one field. Nothing demotes: a bad run only delays the next promotion, and a newer
version keeps its bot's league (its own games start the count again, since the code
that earned the league is not the code that plays).

"Needs about N more games": with the current mean m < 0 and spread s, the boundary is
crossed at the smallest n >= min_games whose radius (above, which falls as n grows) is
under -m; N is that n minus the games played. A bot not ahead of its boss (m >= 0) has
no such N.

Rounds (`league_tables`): each league's entrants are seated together, three to a table
of four, and the league's boss takes the fourth seat (a random one); a league too small
for its tables is filled with other house bots. The top league plays plain matchmaking.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import Session

from arena.bots import HOUSE_BOTS
from arena.ratings.batch import t95
from arena.store.bots import HOUSE_USERNAME
from arena.store.models import (
    Bot,
    BotVersion,
    LeaguePlace,
    Match,
    MatchSeat,
    MatchStatus,
    Season,
    SeasonEntry,
    SeasonLeagues,
    User,
)
from arena.store.types import utc_now

from .errors import SeasonError
from .matchmaking import History, MatchmakingSettings, Player, make_tables

DEFAULT_BOSSES: Final = ("random", "heuristic", "strong", "expert")
"""House bot kinds weakest first: the bosses a league season takes by default (the kinds
the platform has; `expert` joins when a house bot of that name exists)."""

DEFAULT_MIN_GAMES: Final = 30
"""Matches against the boss before a promotion can be judged (docs/ratings.md)."""

LEAGUE_NAMES: Final = ("Wood", "Bronze", "Silver", "Gold", "Platinum", "Diamond")
"""What the pages call leagues 0, 1, ... (the top league is "Legend")."""
TOP_NAME: Final = "Legend"


def available_bosses(kinds: Sequence[str] = DEFAULT_BOSSES) -> tuple[str, ...]:
    """The kinds among `kinds` that are house bots here, in order."""
    return tuple(kind for kind in kinds if kind in HOUSE_BOTS)


def league_name(league: int, bosses: int) -> str:
    """A league's name: Wood, Bronze, ... and Legend for the top (bossless) one."""
    if league >= bosses:
        return TOP_NAME
    return LEAGUE_NAMES[league] if league < len(LEAGUE_NAMES) else f"League {league + 1}"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What the promotion rule says of a bot's differences against its boss (points per
    hand, the bot's minus the boss's: negative is better)."""

    games: int
    mean: float | None
    low: float | None
    high: float | None
    promoted: bool
    needs: int | None  # about how many more games; None when not ahead of the boss

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dataclasses.asdict(self)


ALPHA: Final = 0.05
"""The promotion rule's error over every look of a season: the chance that a bot no
better than its boss is ever promoted (module docstring)."""


def _radius(games: int, scale: int) -> float:
    """The confidence sequence's radius in units of the spread: the mean difference must
    lie more than this (times the spread) below zero. Robbins' normal mixture: for a sum
    S_n of n independent normal differences of spread s and mean 0,
    P(some n has |S_n| >= s * sqrt((n + r) * (ln((n + r) / r) + 2 ln(1 / ALPHA)))) <= ALPHA,
    for any r > 0 (Ville's inequality on the mixture martingale); dividing by n gives the
    mean's radius. `scale` (r) is where the boundary is tightest: the minimum games."""
    total = games + scale
    return math.sqrt(total * (math.log(total / scale) + 2 * math.log(1 / ALPHA))) / games


Z95: Final = 1.959963984540054
"""The normal 97.5 % quantile: t95(n - 1) / Z95 widens the radius for a spread that is
itself estimated from n games, as Student's t widens the normal interval."""


def _half_width(spread: float, games: int, scale: int) -> float:
    return spread * _radius(games, scale) * t95(games - 1) / Z95


def games_needed(mean: float, spread: float, games: int, min_games: int) -> int | None:
    """About how many more games until the interval clears zero at this mean and spread
    (0: it would now); None when the mean is not below zero."""
    if mean >= 0:
        return None
    if spread == 0:
        return max(min_games - games, 0)
    scale = max(min_games, 2)
    low = max(games, min_games, 2)
    if _half_width(spread, low, scale) < -mean:
        return low - games
    high = low
    while _half_width(spread, high, scale) >= -mean:  # doubling finds a count that is enough
        low, high = high, high * 2
        if high > 10_000_000:
            return None
    while high - low > 1:  # then the smallest: the half-width falls as n grows
        middle = (low + high) // 2
        if _half_width(spread, middle, scale) < -mean:
            high = middle
        else:
            low = middle
    return high - games


def judge(differences: Sequence[float], min_games: int) -> Verdict:
    """The promotion rule on these differences (module docstring).

    >>> judge([-3.0, -2.5, -3.5, -2.0, -4.0], 5).promoted
    True
    >>> judge([-3.0, 2.5], 5).promoted
    False
    """
    games = len(differences)
    if games == 0:
        return Verdict(0, None, None, None, False, None)
    mean = statistics.fmean(differences)
    if games < 2:
        return Verdict(games, mean, None, None, False, None if mean >= 0 else min_games - games)
    spread = statistics.stdev(differences)
    half = _half_width(spread, games, max(min_games, 2))
    promoted = games >= min_games and mean + half < 0
    needs = 0 if promoted else games_needed(mean, spread, games, min_games)
    return Verdict(games, mean, mean - half, mean + half, promoted, needs)


# -- a league season's rounds ------------------------------------------------------------


def league_tables(
    players: Sequence[Player],
    leagues: Mapping[int, int],
    bosses: Sequence[Player],
    table_size: int,
    settings: MatchmakingSettings,
    history: History,
    *,
    house: Sequence[Player] = (),
    rng: random.Random,
) -> list[tuple[int, ...]]:
    """One round of a league season: each league's players (`leagues`: version id to
    league) at tables with their league's boss (`bosses[league]`) in a random seat; the
    top league (past the last boss) by plain matchmaking. Seats left empty are filled
    from `house`, bosses excepted (a boss sits only at its own league's tables).
    Raises ValueError as `make_tables` does."""
    by_league: dict[int, list[Player]] = {}
    for player in players:
        by_league.setdefault(leagues.get(player.bot_version_id, 0), []).append(player)
    tables: list[tuple[int, ...]] = []
    boss_ids = {b.bot_version_id for b in bosses}
    fillers = [h for h in house if h.bot_version_id not in boss_ids]  # a boss guards one league
    for league in sorted(by_league):
        members = by_league[league]
        if league >= len(bosses):
            tables.extend(
                make_tables(members, table_size, settings, history, house=fillers, rng=rng)
            )
            continue
        boss = bosses[league]
        for table in make_tables(
            members, table_size - 1, settings, history, house=fillers, rng=rng
        ):
            seats = list(table)
            seats.insert(rng.randrange(table_size), boss.bot_version_id)
            tables.append(tuple(seats))
    return tables


# -- the store ---------------------------------------------------------------------------


def set_leagues(
    session: Session,
    season: Season,
    *,
    bosses: Sequence[str] | None = None,
    min_games: int = DEFAULT_MIN_GAMES,
) -> SeasonLeagues:
    """Make `season` a league season (or change its bosses and minimum); flushes.

    Raises SeasonError for a boss that is not a house bot kind, no boss, or a minimum
    under two games (one game says nothing of its spread).
    """
    kinds = tuple(bosses) if bosses is not None else available_bosses()
    unknown = [k for k in kinds if k not in HOUSE_BOTS]
    if unknown:
        raise SeasonError(f"not house bots: {', '.join(unknown)} (have {', '.join(HOUSE_BOTS)})")
    if not kinds:
        raise SeasonError("a league season needs at least one boss")
    if min_games < 2:
        raise SeasonError(f"promotion needs at least 2 games against the boss, not {min_games}")
    row = session.get(SeasonLeagues, season.id)
    if row is None:
        row = SeasonLeagues(season_id=season.id, bosses=list(kinds), min_games=min_games)
        session.add(row)
    else:
        row.bosses, row.min_games = list(kinds), min_games
    session.flush()
    return row


def league_settings(session: Session, season_id: int) -> SeasonLeagues | None:
    """The season's leagues, or None for a plain ladder."""
    return session.get(SeasonLeagues, season_id)


def boss_versions(session: Session, kinds: Sequence[str]) -> list[int | None]:
    """Each boss kind's house bot version (the bot named `<kind>-1`), None if missing."""
    names = {f"{kind}-1": kind for kind in kinds}
    rows = session.execute(
        select(Bot.name, BotVersion.id)
        .join(BotVersion, BotVersion.bot_id == Bot.id)
        .join(User, User.id == Bot.owner_id)
        .where(User.username == HOUSE_USERNAME, Bot.name.in_(names), BotVersion.number == 1)
    ).all()
    found = {names[name]: version for name, version in rows}
    return [found.get(kind) for kind in kinds]


def current_places(session: Session, season_id: int) -> dict[int, LeaguePlace]:
    """Each bot's current league place in the season (its highest league)."""
    places: dict[int, LeaguePlace] = {}
    for place in session.scalars(
        select(LeaguePlace).where(LeaguePlace.season_id == season_id).order_by(LeaguePlace.league)
    ):
        places[place.bot_id] = place
    return places


def _entrants(session: Session, season_id: int) -> list[tuple[int, int, datetime]]:
    """(bot id, playing version id, joined at) of the season's active non-house entries."""
    return [
        (bot_id, version_id, joined)
        for bot_id, version_id, joined in session.execute(
            select(Bot.id, SeasonEntry.bot_version_id, SeasonEntry.joined_at)
            .join(BotVersion, BotVersion.id == SeasonEntry.bot_version_id)
            .join(Bot, Bot.id == BotVersion.bot_id)
            .where(
                SeasonEntry.season_id == season_id,
                SeasonEntry.active.is_(True),
                Bot.is_house.is_(False),
            )
        )
    ]


def boss_differences(
    session: Session, season_id: int, bosses: Sequence[int | None]
) -> dict[tuple[int, int], list[tuple[datetime, float]]]:
    """For every (version, boss version) that shared a done match of the season, each
    match's (created at, version's points per hand minus the boss's), oldest first."""
    boss_ids = {b for b in bosses if b is not None}
    if not boss_ids:
        return {}
    with_boss = (
        select(MatchSeat.match_id)
        .join(Match, Match.id == MatchSeat.match_id)
        .where(
            Match.season_id == season_id,
            Match.status == MatchStatus.DONE,
            MatchSeat.bot_version_id.in_(boss_ids),
        )
    )
    rows = session.execute(
        select(
            Match.id,
            Match.created_at,
            Match.hands_played,
            MatchSeat.bot_version_id,
            MatchSeat.score,
        )
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .where(Match.id.in_(with_boss))
        .order_by(Match.id)
    ).all()
    matches: dict[int, tuple[datetime, int, dict[int, int]]] = {}
    for match_id, created, hands, version, score in rows:
        if score is not None:
            matches.setdefault(match_id, (created, max(hands or 0, 1), {}))[2][version] = score
    found: dict[tuple[int, int], list[tuple[datetime, float]]] = {}
    for created, hands, scores in matches.values():
        for boss in boss_ids & scores.keys():
            for version, score in scores.items():
                if version != boss:
                    found.setdefault((version, boss), []).append(
                        (created, (score - scores[boss]) / hands)
                    )
    return found


@dataclasses.dataclass(frozen=True)
class Standing:
    """A bot's place in a league season: its league and its progress to promotion."""

    bot_id: int
    version_id: int
    league: int
    reached_at: datetime
    boss: str | None  # None in the top league
    verdict: Verdict


def standings(
    session: Session, season_id: int, *, now: datetime | None = None
) -> tuple[SeasonLeagues, list[Standing]]:
    """Every active entrant's league and verdict (newcomers shown in league 0). Raises
    SeasonError when the season does not run as leagues."""
    config = league_settings(session, season_id)
    if config is None:
        raise SeasonError(f"season {season_id} does not run as leagues")
    bosses = boss_versions(session, config.bosses)
    places = current_places(session, season_id)
    differences = boss_differences(session, season_id, bosses)
    when = now or utc_now()
    found = []
    for bot_id, version_id, joined in _entrants(session, season_id):
        place = places.get(bot_id)
        league = place.league if place else 0
        since = place.reached_at if place else joined
        boss = bosses[league] if league < len(bosses) else None
        games = (
            [d for created, d in differences.get((version_id, boss), []) if created >= since]
            if boss is not None
            else []
        )
        found.append(
            Standing(
                bot_id,
                version_id,
                league,
                since if place else min(joined, when),
                config.bosses[league] if league < len(config.bosses) else None,
                judge(games, config.min_games),
            )
        )
    found.sort(key=lambda s: (-s.league, s.verdict.mean if s.verdict.mean is not None else 1e9))
    return config, found


def promote_entrants(
    session: Session, season: Season, *, now: datetime | None = None
) -> list[tuple[int, int]]:
    """Place newcomers in league 0 and promote every bot the rule says has beaten its
    boss; (bot id, new league) of each promotion. Flushes; the caller commits (the round's
    transaction, holding the season's lock)."""
    when = now or utc_now()
    _, rows = standings(session, season.id, now=when)
    places = current_places(session, season.id)
    promoted = []
    for row in rows:
        place = places.get(row.bot_id)
        if place is None:
            place = LeaguePlace(season_id=season.id, bot_id=row.bot_id, league=0, reached_at=when)
            session.add(place)
        if row.boss is not None and row.verdict.promoted:
            place.promoted_at = when
            place.evidence = {
                "boss": row.boss,
                "version_id": row.version_id,
                **row.verdict.to_dict(),
            }
            session.add(
                LeaguePlace(
                    season_id=season.id, bot_id=row.bot_id, league=row.league + 1, reached_at=when
                )
            )
            promoted.append((row.bot_id, row.league + 1))
    session.flush()
    return promoted


def league_round(
    session: Session,
    season: Season,
    players: Sequence[Player],
    house: Sequence[Player],
    settings: MatchmakingSettings,
    history: History,
    *,
    rng: random.Random,
    now: datetime,
) -> list[tuple[int, ...]] | None:
    """A league season's round: promotions first, then `league_tables`; None for a season
    that does not run as leagues (the caller makes its tables as usual)."""
    config = league_settings(session, season.id)
    if config is None:
        return None
    promote_entrants(session, season, now=now)
    places = current_places(session, season.id)
    by_version = dict(
        session.execute(
            select(BotVersion.id, BotVersion.bot_id).where(
                BotVersion.id.in_([p.bot_version_id for p in players])
            )
        ).all()
    )
    leagues = {
        p.bot_version_id: places[by_version[p.bot_version_id]].league
        for p in players
        if by_version.get(p.bot_version_id) in places
    }
    house_by_id = {h.bot_version_id: h for h in house}
    bosses = []
    for version in boss_versions(session, config.bosses):
        boss = house_by_id.get(version) if version is not None else None
        if boss is None:
            raise SeasonError(
                f"season {season.name!r}: a boss ({', '.join(config.bosses)}) is not entered"
            )
        bosses.append(boss)
    return league_tables(
        players, leagues, bosses, season.players, settings, history, house=house, rng=rng
    )


def promotion_rate(
    mean: float,
    spread: float,
    *,
    min_games: int = DEFAULT_MIN_GAMES,
    max_games: int = 300,
    trials: int = 2000,
    seed: int = 0,
) -> tuple[float, float | None]:
    """By simulation: the share of bots whose differences against the boss are normal
    (`mean`, `spread`) that the rule promotes within `max_games` games, looking after
    every game (the worst case: a season looks once a round), and the median games it
    took them (None when none was promoted)."""
    rng = random.Random(seed)
    promoted_after: list[int] = []
    for _ in range(trials):
        total = squares = 0.0
        for n in range(1, max_games + 1):
            x = rng.gauss(mean, spread)
            total += x
            squares += x * x
            if n < max(min_games, 2):
                continue
            average = total / n
            variance = max((squares - n * average * average) / (n - 1), 0.0)
            if average + _half_width(math.sqrt(variance), n, max(min_games, 2)) < 0:
                promoted_after.append(n)
                break
    median = statistics.median(promoted_after) if promoted_after else None
    return len(promoted_after) / trials, median
