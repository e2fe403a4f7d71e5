"""`arena bench replay-page`: the server's work on a stored replay for the match page, the
way it was against the way it is, alternated in one process.

Before (issue 32): the page loaded the stored v2 document, re-played it through the engine
into v1's layout (`replay_view.loads`) and summed that into the score sheet and the
faults. Now: the sheet and the faults come from the stored document (`replay.loads`,
`web.replays.score_sheet`, `readable_faults`), and the engine is asked only when the
result counts a moon (measured too, on a copy of the document that counts one). The
viewer's JSON (v1's layout, redacted, encoded), which the page's script fetches, is timed
beside them. The match is one game of house bots (heuristic and random in turn) played
through the real match runner in-process and stored as the workers store it.

    python -m web.replaybench [--rules standard] [--seed 1] [--repeats 30] [--rounds 4]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import statistics
import time
from collections.abc import Callable
from typing import Any, Final

from arena.bots import HOUSE_BOTS
from arena.engine import Rules, preset
from arena.match import replay as replay_io
from arena.match import replay_view
from arena.match.runner import Entrant, MatchRunner
from arena.match.seats import InProcessSeat

from .replays import readable_faults, redact, score_sheet

PATHS: Final = (
    "page, before: re-played into v1's layout",
    "page, now: from the stored document",
    "page, now, a moon counted: the engine asked",
    "viewer's JSON: v1's layout, redacted, encoded",
)


@dataclasses.dataclass(frozen=True)
class ReplayPageFigures:
    """What `bench_replay_page` measured: seconds per build, by path and by round."""

    rules: str
    hands: int
    decisions: int
    stored_bytes: int
    rounds: tuple[dict[str, tuple[float, ...]], ...]

    def medians_ms(self, path: str) -> list[float]:
        """Each round's median for `path`, in milliseconds."""
        return [statistics.median(r[path]) * 1000 for r in self.rounds]

    def ratios(self) -> list[float]:
        """Each round's median before over its median now."""
        return [
            statistics.median(r[PATHS[0]]) / statistics.median(r[PATHS[1]]) for r in self.rounds
        ]


def stored_match(rules: Rules, seed: int) -> bytes:
    """One match of house bots through the runner, as the store keeps its replay."""
    kinds = ("heuristic", "random")
    entrants = [
        Entrant(name=f"{kinds[i % 2]}-{i}", seat=InProcessSeat(HOUSE_BOTS[kinds[i % 2]](seed + i)))
        for i in range(rules.players)
    ]
    return replay_io.dumps(MatchRunner(rules, entrants, seed).run().replay)


def page_before(content: bytes) -> Any:
    """The page's replay work before: v1's layout re-played, then summed."""
    replay = replay_view.loads(content)
    return score_sheet(replay), readable_faults(replay, ())


def page_now(content: bytes) -> Any:
    """The page's replay work now: summed from the stored document."""
    replay = replay_io.loads(content)
    return score_sheet(replay), readable_faults(replay, ())


def viewer_json(content: bytes) -> bytes:
    """What replay.json sends the viewer (before the gzip)."""
    return json.dumps(redact(replay_view.loads(content), ()), separators=(",", ":")).encode()


def bench_replay_page(rules: Rules, seed: int, repeats: int, rounds: int) -> ReplayPageFigures:
    """Time each path of `PATHS` `repeats` times per round, the paths' order reversed
    every other round. Raises AssertionError if the paths disagree on the page."""
    content = stored_match(rules, seed)
    stored = replay_io.loads(content)
    counted = copy.deepcopy(stored)
    entrants = counted["result"].get("entrants") or [{"moons": 0}]
    entrants[0]["moons"] = entrants[0].get("moons", 0) + 1
    counted_content = replay_io.dumps(counted)
    assert page_before(content) == page_now(content) == page_now(counted_content)
    calls: dict[str, Callable[[], object]] = {
        PATHS[0]: lambda: page_before(content),
        PATHS[1]: lambda: page_now(content),
        PATHS[2]: lambda: page_now(counted_content),
        PATHS[3]: lambda: viewer_json(content),
    }
    for call in calls.values():  # warm up
        call()
    measured = []
    for number in range(rounds):
        order = list(PATHS) if number % 2 == 0 else list(reversed(PATHS))
        times: dict[str, list[float]] = {path: [] for path in PATHS}
        for _ in range(repeats):
            for path in order:
                start = time.perf_counter()
                calls[path]()
                times[path].append(time.perf_counter() - start)
        measured.append({path: tuple(values) for path, values in times.items()})
    hands = sum(len(game["hands"]) for game in stored["games"])
    decisions = sum(
        1
        for game in stored["games"]
        for hand in game["hands"]
        for action in hand["actions"]
        if "ms" in action
    )
    return ReplayPageFigures(rules.name, hands, decisions, len(content), tuple(measured))


def describe(figures: ReplayPageFigures) -> str:
    """The figures as lines of text: each path's per-round medians (their range) and the
    ratio before/now per round."""
    lines = [
        f"arena bench replay-page — {figures.rules}: {figures.hands} hands, "
        f"{figures.decisions} decisions, {figures.stored_bytes:,} bytes stored; "
        f"{len(figures.rounds)} rounds, medians per round (ms)"
    ]
    for path in PATHS:
        medians = figures.medians_ms(path)
        shown = ", ".join(f"{m:.2f}" for m in medians)
        lines.append(f"  {path}: {min(medians):.2f}-{max(medians):.2f} ({shown})")
    ratios = figures.ratios()
    lines.append(
        f"  before / now: {min(ratios):.1f}-{max(ratios):.1f}x "
        f"({', '.join(f'{r:.1f}' for r in ratios)})"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    figures = bench_replay_page(preset(args.rules), args.seed, args.repeats, args.rounds)
    print(describe(figures))


if __name__ == "__main__":
    main()
