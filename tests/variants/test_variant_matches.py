"""Every variant preset played as a real match: the SDK's starter bots in their own
processes over gRPC, and the house bots in-process; each replay verified and checked
against its JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from arena.bots import HOUSE_BOTS, StrongBot
from arena.engine import Rules, preset
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.seats import InProcessSeat
from arena.match.verify import verify

SDK = Path(__file__).resolve().parents[2] / "sdk"
STARTERS = [
    SDK / "src" / "hearts_bot" / "starters" / "heuristic_bot.py",
    SDK / "src" / "hearts_bot" / "starters" / "random_bot.py",
    SDK / "examples" / "low_bot.py",
]
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "arena/match/replay-v1.schema.json").read_text()
)
VARIANTS = ["no_black_lady", "chips", "sweepstakes", "chip_pool", "queens", "star", "no_spade_pass"]
PLAYERS = {"star": 5}


def _rules(name: str) -> Rules:
    return preset(name, PLAYERS.get(name))


def _check(outcome: MatchOutcome) -> None:
    assert not outcome.void, outcome.void_reason
    assert outcome.replay["faults"] == []
    jsonschema.validate(outcome.replay, SCHEMA)
    assert verify(outcome.replay).decisions > 0


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", VARIANTS)
def test_starter_bots_play_a_full_match_over_grpc(name: str) -> None:
    rules = _rules(name)
    if rules.target_score is not None and rules.settlement.value == "pool_clean":
        rules = rules.replace(max_hands=12)  # a pool game can run for long: cap this one
    files = [STARTERS[i % len(STARTERS)] for i in range(rules.players)]
    hosts = [BotProcess(path) for path in files]
    try:
        entrants = [
            Entrant(f"{path.stem} {i}", GrpcSeat(host.address, path.stem, host=host))
            for i, (path, host) in enumerate(zip(files, hosts, strict=True))
        ]
        outcome = MatchRunner(rules, entrants, 7, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        for host in hosts:
            host.stop()
    _check(outcome)
    game = outcome.replay["games"][0]
    assert game["hands"], "no hand was played"
    if rules.settlement.value != "points":
        for hand in game["hands"]:
            assert sum(hand["totals"]) == hand["pot"]  # chips are conserved
    if rules.pass_forbidden:
        for hand in game["hands"]:
            for given in hand["passes"]:
                assert not set(given["cards"]) & {str(c) for c in rules.pass_forbidden}


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", VARIANTS)
def test_house_bots_play_every_variant_in_process(name: str) -> None:
    rules = _rules(name).replace(max_hands=8)
    makers = [
        lambda seed: StrongBot(seed, time_per_move=None, max_samples=4),  # no clock: samples
        HOUSE_BOTS["heuristic"],
        HOUSE_BOTS["random"],
    ]
    entrants = [
        Entrant(f"house {i}", InProcessSeat(makers[i % 3](i))) for i in range(rules.players)
    ]
    _check(MatchRunner(rules, entrants, 3).run())
