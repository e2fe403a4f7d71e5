"""Matches against real bot processes over real gRPC: honest bots, and each way a bot fails.

Every bot runs in its own process (`python -m hearts_bot serve FILE`); every test is
bounded by a pytest timeout and by the match's own clocks, and every process is stopped.
"""

import asyncio
from pathlib import Path

import grpc
import pytest

from arena.engine import preset
from arena.match import replay as replay_io
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.protocol import bot_pb2, bot_pb2_grpc, game_pb2
from arena.match.remote import GrpcSeat
from arena.match.runner import Entrant, MatchOutcome, MatchRunner
from arena.match.verify import verify

BOTS = Path(__file__).parent / "bots"
SDK = Path(__file__).resolve().parents[2] / "sdk"
LOW_BOT = SDK / "examples" / "low_bot.py"
RANDOM_BOT = SDK / "src" / "hearts_bot" / "starters" / "random_bot.py"
HEURISTIC_BOT = SDK / "src" / "hearts_bot" / "starters" / "heuristic_bot.py"

pytestmark = pytest.mark.timeout(120)

FAST = TimePolicy(per_decision=0.5, bank=1.0, ready_timeout=15.0)


def play(bot_files, *, rules=None, time_policy=FAST, seed=5, max_hands=3, **kwargs):
    rules = rules or preset("standard").replace(target_score=None, max_hands=max_hands)
    hosts = [BotProcess(path) for path in bot_files]
    try:
        entrants = [
            Entrant(Path(p).stem, GrpcSeat(h.address, Path(p).stem, host=h))
            for p, h in zip(bot_files, hosts, strict=True)
        ]
        outcome = MatchRunner(rules, entrants, seed, time_policy=time_policy, **kwargs).run()
    finally:
        for host in hosts:
            host.stop()
    assert not outcome.void, outcome.void_reason
    verify(outcome.v1)
    return outcome


def faults_of(outcome: MatchOutcome, entrant: int):
    return [f for f in outcome.v1["faults"] if f["entrant"] == entrant]


def test_a_full_match_of_four_sdk_bots_in_four_processes():
    outcome = play(
        [LOW_BOT, RANDOM_BOT, HEURISTIC_BOT, LOW_BOT],
        rules=preset("standard"),
        time_policy=TimePolicy(1.0, 10.0, 15.0),
    )
    assert outcome.v1["faults"] == []
    totals = outcome.v1["games"][0]["totals"]
    assert max(totals) >= 100
    assert sorted(r.rank for r in outcome.results)[0] == 1
    again = replay_io.loads(replay_io.dumps(outcome.v1))
    assert verify(again).decisions > 50


def test_a_bot_that_wants_notifications_is_told_every_hand_and_trick():
    outcome = play([BOTS / "listening_bot.py", LOW_BOT, LOW_BOT, LOW_BOT], max_hands=2)
    assert outcome.v1["faults"] == []
    assert "listening bot: 2 hands, 26 tricks, 2 hand ends, 2 played" in outcome.v1["logs"][0]


@pytest.mark.parametrize("players", [3, 5])
def test_sdk_bots_play_the_first_tricks_extra_cards_over_grpc(players):
    """002 'Alternatives to the "Kitty"': the first trick's extra cards reach SDK bots in
    other processes (Trick.seats, HandState.extra_card_seats, the first TrickEnd) and they
    play whole hands without a fault."""
    rules = preset("extra_cards", players).replace(target_score=None, max_hands=2)
    bots = [BOTS / "listening_bot.py", HEURISTIC_BOT, RANDOM_BOT, LOW_BOT, HEURISTIC_BOT]
    outcome = play(bots[:players], rules=rules, time_policy=TimePolicy(1.0, 10.0, 15.0))
    assert outcome.v1["faults"] == []
    tricks = 2 * rules.hand_size
    assert (
        f"listening bot: 2 hands, {tricks} tricks, 2 hand ends, 2 played" in outcome.v1["logs"][0]
    )


def test_a_bot_that_does_not_read_extra_cards_is_out_before_its_first_card():
    """MatchStartAnswer.reads: a bot whose SDK predates 002's extra cards (its match_start
    answer does not list `extra_cards_first_trick`) would refuse the first trick's state.
    It is out of the match at the start, with one `unsupported_rules` fault that names the
    rule and the way out; it is never sent that state, every one of its decisions is the
    platform's default, and the others play the match, which verifies."""
    rules = preset("extra_cards", 3).replace(target_score=None, max_hands=2)
    outcome = play(
        [BOTS / "older_sdk_bot.py", LOW_BOT, HEURISTIC_BOT],
        rules=rules,
        time_policy=TimePolicy(1.0, 10.0, 15.0),
    )
    faults = outcome.v1["faults"]
    assert [(f["entrant"], f["kind"], f["hand"], f["trick"]) for f in faults] == [
        (0, "unsupported_rules", 0, None)
    ]
    detail = faults[0]["detail"]
    assert "extra_cards_first_trick" in detail and "hearts-bot-sdk" in detail, detail
    assert outcome.results[0].disqualified and outcome.results[0].rank == 3
    assert all(r.hands == 2 for r in outcome.results)
    actions = [a for g in outcome.document.games for h in g.hands for a in h.actions]
    assert {a.auto for a in actions if a.seat == 0} == {True}
    assert not any(a.auto for a in actions if a.seat != 0)


def test_a_slow_bot_times_out_near_the_deadline_and_the_match_goes_on():
    policy = TimePolicy(per_decision=0.1, bank=0.0, ready_timeout=15.0)
    outcome = play(
        [BOTS / "slow_bot.py", LOW_BOT, LOW_BOT, LOW_BOT], time_policy=policy, max_hands=2
    )
    timeouts = faults_of(outcome, 0)
    assert timeouts and all(f["kind"] == "timeout" for f in timeouts)
    for fault in timeouts:  # the deadline is enforced by the runner, not by the bot
        assert 100.0 <= fault["elapsed_ms"] <= 100.0 + 40.0, fault
    assert outcome.results[0].disqualified  # three timeouts within two hands
    assert all(r.hands == 2 for r in outcome.results)


def test_the_bank_absorbs_an_occasional_slow_answer():
    policy = TimePolicy(per_decision=0.1, bank=5.0, ready_timeout=15.0)
    outcome = play(
        [BOTS / "slow_bot.py", LOW_BOT, LOW_BOT, LOW_BOT], time_policy=policy, max_hands=1
    )
    assert faults_of(outcome, 0) == []


def test_a_bot_that_crashes_mid_match_is_recorded_and_disqualified():
    outcome = play([BOTS / "crash_bot.py", LOW_BOT, LOW_BOT, LOW_BOT])
    faults = faults_of(outcome, 0)
    assert faults[0]["kind"] == "crash"
    assert "exited with status 3" in faults[0]["detail"]
    assert outcome.results[0].disqualified and outcome.results[0].rank == 4
    assert "crash bot: goodbye" in outcome.v1["logs"][0]
    assert all(r.hands == 3 for r in outcome.results)


@pytest.mark.parametrize(
    ("bot", "kind", "detail"),
    [
        ("illegal_bot.py", "illegal", "illegal play"),
        ("not_held_bot.py", "not_held", "does not hold"),
        ("garbage_bot.py", "error", "not a card"),
        ("raising_bot.py", "error", "my strategy has a bug"),
    ],
)
def test_wrong_answers_are_faults_and_the_others_play_on(bot, kind, detail):
    outcome = play([LOW_BOT, BOTS / bot, LOW_BOT, LOW_BOT])
    faults = faults_of(outcome, 1)
    assert faults, "the bad bot was never caught"
    assert faults[0]["kind"] == kind
    assert detail in faults[0]["detail"]
    assert faults_of(outcome, 0) == faults_of(outcome, 2) == faults_of(outcome, 3) == []
    assert outcome.results[1].disqualified


def test_a_bot_that_never_becomes_ready_is_out_at_once():
    policy = TimePolicy(per_decision=0.5, bank=1.0, ready_timeout=1.5)
    outcome = play(
        [BOTS / "never_ready_bot.py", LOW_BOT, LOW_BOT, LOW_BOT], time_policy=policy, max_hands=1
    )
    (fault,) = faults_of(outcome, 0)
    assert fault["kind"] == "not_ready"
    assert outcome.results[0].disqualified


class WrongIdServicer(bot_pb2_grpc.BotServiceServicer):
    """A non-SDK bot that answers queries with the wrong request id."""

    async def Ready(self, request, context):
        return bot_pb2.ReadyResponse(bot_name="wrong-id")

    async def PlayMatch(self, request_iterator, context):
        async for request in request_iterator:
            kind = request.WhichOneof("kind")
            if kind == "match_start":
                yield bot_pb2.PlayMatchResponse(
                    request_id=request.request_id, match_start=game_pb2.MatchStartAnswer()
                )
            elif kind == "play_card":
                yield bot_pb2.PlayMatchResponse(
                    request_id=request.request_id + 7,
                    play_card=game_pb2.PlayCardAnswer(card=request.play_card.legal_cards[0]),
                )
            elif kind == "pass_cards":
                yield bot_pb2.PlayMatchResponse(
                    request_id=request.request_id,
                    pass_cards=game_pb2.PassCardsAnswer(
                        cards=list(request.pass_cards.state.hand[: request.pass_cards.count])
                    ),
                )


def play_against(tmp_path, add_bot):
    """One hand: a bot served in this process by `add_bot(server)` against three low bots."""

    async def scenario():
        server = grpc.aio.server()
        add_bot(server)
        address = f"unix:{tmp_path}/odd.sock"
        server.add_insecure_port(address)
        await server.start()
        hosts = [BotProcess(LOW_BOT) for _ in range(3)]
        try:
            seats = [GrpcSeat(address, "odd")] + [GrpcSeat(h.address, "low", host=h) for h in hosts]
            rules = preset("standard").replace(target_score=None, max_hands=1)
            runner = MatchRunner(rules, [Entrant(s.label, s) for s in seats], 3, time_policy=FAST)
            return await runner.run_async()
        finally:
            for host in hosts:
                host.stop()
            await server.stop(0)

    outcome = asyncio.run(scenario())
    assert not outcome.void, outcome.void_reason
    verify(outcome.v1)
    return outcome


def test_answers_with_the_wrong_request_id_are_malformed(tmp_path):
    outcome = play_against(
        tmp_path,
        lambda server: bot_pb2_grpc.add_BotServiceServicer_to_server(WrongIdServicer(), server),
    )
    faults = faults_of(outcome, 0)
    assert faults and faults[0]["kind"] == "malformed"
    assert "expected" in faults[0]["detail"]


async def garbage_play_match(requests, context):
    """A non-SDK PlayMatch that answers play_card queries with bytes that do not parse."""
    async for request in requests:
        kind = request.WhichOneof("kind")
        if kind == "play_card":
            yield b"\x0a\xff"  # a length-delimited field 255 bytes long, then nothing
        elif kind == "match_start":
            yield bot_pb2.PlayMatchResponse(
                request_id=request.request_id, match_start=game_pb2.MatchStartAnswer()
            ).SerializeToString()
        elif kind == "pass_cards":
            cards = request.pass_cards.state.hand[: request.pass_cards.count]
            yield bot_pb2.PlayMatchResponse(
                request_id=request.request_id, pass_cards=game_pb2.PassCardsAnswer(cards=cards)
            ).SerializeToString()


def test_an_answer_that_does_not_parse_is_malformed_and_the_match_goes_on(tmp_path):
    def add_bot(server):
        server.add_generic_rpc_handlers(
            [
                grpc.method_handlers_generic_handler(
                    "hearts.v1.BotService",
                    {
                        "Ready": grpc.unary_unary_rpc_method_handler(
                            lambda request, context: bot_pb2.ReadyResponse(bot_name="garbage"),
                            bot_pb2.ReadyRequest.FromString,
                            bot_pb2.ReadyResponse.SerializeToString,
                        ),
                        "PlayMatch": grpc.stream_stream_rpc_method_handler(
                            garbage_play_match, bot_pb2.PlayMatchRequest.FromString, bytes
                        ),
                    },
                )
            ]
        )

    outcome = play_against(tmp_path, add_bot)
    faults = faults_of(outcome, 0)
    assert faults and faults[0]["kind"] == "malformed"
    assert "does not parse" in faults[0]["detail"]
    assert outcome.results[0].disqualified
    assert all(r.hands == 1 for r in outcome.results)
