"""The checks a bot must pass before it plays rated matches (what `arena bot check` and the
upload validation run): it starts, answers Ready, refuses malformed and out-of-order
requests with the protocol's status codes and lives on (`conformance`, for a bot served
over gRPC), and plays a short match of the chosen rules against house bots without a
single fault: every decision timed against its deadline, every kind of decision the rules
ask in those hands (passes, plays, and each variant's calls, reveals, bids, namings).
"""

from __future__ import annotations

import asyncio
import dataclasses

from arena.bots import HeuristicBot
from arena.engine import Rules, preset
from arena.engine.rules import Settlement

from .clock import TimePolicy
from .conformance import probe_protocol
from .faults import FaultPolicy
from .remote import GrpcSeat, turn_host
from .runner import Entrant, MatchOutcome, MatchRunner
from .seats import InProcessSeat, Seat

CHECK_HANDS = 2


@dataclasses.dataclass(frozen=True)
class CheckReport:
    """Whether the bot passed, and what happened, for its owner."""

    passed: bool
    summary: str
    faults: tuple[dict[str, object], ...]
    log: str
    outcome: MatchOutcome


def check_rules(rules: Rules | None = None, hands: int = CHECK_HANDS) -> Rules:
    """The short match's rules: the given ones (standard by default), cut to `hands` hands."""
    base = rules or preset("standard")
    moon = "old" if base.moon.value == "add_unless_losing" else base.moon
    # Under chips (auction, pools) the target score is the stake each hand settles
    # against, not the game's end: it stays, and max_hands cuts the match short.
    staked = base.settlement is not Settlement.POINTS
    target = base.target_score if staked else None
    return base.replace(target_score=target, max_hands=hands, moon=moon)


async def check_seat(
    seat: Seat,
    *,
    rules: Rules | None = None,
    hands: int = CHECK_HANDS,
    seed: int = 1,
    time_policy: TimePolicy | None = None,
) -> CheckReport:
    """Play the check match with `seat` at seat 0 and house heuristics elsewhere."""
    rules = check_rules(rules, hands)
    problems = await _probe(seat, rules) if isinstance(seat, GrpcSeat) else []
    entrants = [Entrant("candidate", seat)] + [
        Entrant(f"house:heuristic {i}", InProcessSeat(HeuristicBot(seed + i)))
        for i in range(1, rules.players)
    ]
    runner = MatchRunner(
        rules, entrants, seed, time_policy=time_policy, fault_policy=FaultPolicy(max_faults=1)
    )
    outcome = await runner.run_async()
    faults = tuple(f for f in outcome.replay["faults"] if f["entrant"] == 0)
    decisions = sum(
        1
        for game in outcome.document.games
        for hand in game.hands
        for action in hand.actions
        if action.seat == game.seating.index(0) and action.kind != "draw" and not action.auto
    )
    if outcome.void:
        summary = f"the check itself failed (not the bot's fault): {outcome.void_reason}"
    elif problems:
        summary = f"failed: {problems[0]}"
    elif faults:
        first = faults[0]
        summary = f"failed: {first['kind']} — {first['detail']}"
    else:
        summary = (
            f"passed: ready, then {hands} hands and {decisions} decisions against house "
            "bots without a fault"
        )
        if isinstance(seat, GrpcSeat):
            summary += "; malformed and out-of-order requests refused"
    return CheckReport(
        not outcome.void and not faults and not problems,
        summary,
        faults,
        outcome.replay["logs"][0],
        outcome,
    )


async def _probe(seat: GrpcSeat, rules: Rules) -> list[str]:
    """The protocol probes, once the bot is ready (a bot never ready is left to the
    match, which reports why)."""
    if seat.host is not None and not await asyncio.to_thread(seat.host.wait_ready, 30.0):
        return []
    turns = turn_host(seat.host)
    if turns is None:
        return await probe_protocol(seat.address, rules)
    return await probe_protocol(seat.address, rules, thaw=turns.thaw)


def check(seat: Seat, **kwargs: object) -> CheckReport:
    """`check_seat` from synchronous code."""
    return asyncio.run(check_seat(seat, **kwargs))  # type: ignore[arg-type]
