"""Conformance: a test client drives a real SDK server (in a subprocess) through every RPC,
with well-formed, malformed and out-of-order requests; the server answers each with the
right status code and never dies."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from typing import Any

import grpc
import pytest
from hearts_bot.convert import pass_direction_to_proto
from hearts_bot.proto.hearts.v1 import bot_pb2, game_pb2, rules_pb2

from .conftest import (
    BOTS,
    DEADLINE,
    HAND,
    assert_alive,
    end_kind,
    pass_query,
    play_query,
    play_stream,
    requests,
    start_kind,
    state,
)

INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
INTERNAL = grpc.StatusCode.INTERNAL


@pytest.mark.timeout(60)
def test_ready_names_the_bot_and_the_sdk(random_bot):
    answer = random_bot.stub().Ready(bot_pb2.ReadyRequest(), timeout=DEADLINE)
    assert answer.bot_name == "RandomBot"
    assert answer.sdk_version.startswith("hearts-bot-sdk/")


@pytest.mark.timeout(60)
def test_a_match_answers_every_query_in_order_with_its_request_id(random_bot):
    result = play_stream(
        random_bot.stub(),
        requests(
            start_kind(),
            {"pass_cards": pass_query()},
            {"play_card": play_query()},
            end_kind(),
            first_id=10,
        ),
    )
    assert result.code == grpc.StatusCode.OK, result.details
    start, passed, played = result.responses
    assert [r.request_id for r in result.responses] == [10, 11, 12]
    assert start.WhichOneof("kind") == "match_start"
    assert start.match_start.wants_notifications is False  # the random bot has no hooks
    # What the SDK answers and reads beyond hearts.v1's first release (docs/protocol.md).
    assert list(start.match_start.answers) == [
        "moon_choice",
        "pledge",
        "refuse_queen",
        "replace_pass",
        "expose",
    ]
    assert list(start.match_start.reads) == ["extra_cards_first_trick"]
    assert len(set(passed.pass_cards.cards)) == 3 and set(passed.pass_cards.cards) <= set(HAND)
    assert played.play_card.card in ("3C", "7C", "QC")


@pytest.mark.timeout(60)
def test_request_ids_may_skip_numbers_and_notifications_get_no_answer(start_bot):
    bot = start_bot(str(BOTS / "recording_bot.py"))
    trick = game_pb2.Trick(leader=0, cards=["2C", "KC", "3C", "4C"], winner=1)
    result = play_stream(
        bot.stub(),
        [
            bot_pb2.PlayMatchRequest(request_id=1, **start_kind()),
            bot_pb2.PlayMatchRequest(
                request_id=5,
                hand_start=game_pb2.HandStart(
                    hand_number=0,
                    dealer=0,
                    hand=HAND,
                    scores=[0, 0, 0, 0],
                    pass_direction=pass_direction_to_proto("left"),
                ),
            ),
            bot_pb2.PlayMatchRequest(request_id=6, pass_cards=pass_query()),
            bot_pb2.PlayMatchRequest(
                request_id=9,
                trick_end=game_pb2.TrickEnd(hand_number=0, trick_number=0, trick=trick),
            ),
            bot_pb2.PlayMatchRequest(
                request_id=10,
                play_card=play_query(
                    state=state(
                        hand=[c for c in HAND if c != "3C"],
                        tricks=[trick],
                        current_trick=game_pb2.Trick(leader=1, cards=["5D"]),
                    ),
                    legal_cards=["4D", "TD"],
                ),
            ),
            bot_pb2.PlayMatchRequest(
                request_id=11,
                hand_end=game_pb2.HandEnd(
                    hand_number=0, hand_scores=[0, 26, 0, 0], scores=[0, 26, 0, 0]
                ),
            ),
            bot_pb2.PlayMatchRequest(request_id=12, **end_kind()),
        ],
    )
    assert result.code == grpc.StatusCode.OK, result.details
    assert [r.request_id for r in result.responses] == [1, 6, 10]
    assert result.responses[0].match_start.wants_notifications is True
    assert result.responses[2].play_card.card == "TD"
    events = [line.split()[1:] for line in bot.stderr.splitlines() if line.startswith("EVENT")]
    assert [event[0] for event in events] == [
        "match_start",
        "hand_start",
        "pass",
        "trick_end",
        "play",
        "hand_end",
        "match_end",
    ]
    assert events[0] == ["match_start", "2", "standard", "bot", "0"]
    assert events[2] == ["pass", "left", "3", "3", "3", "3"]
    assert events[3] == ["trick_end", "0", "1", "2C", "KC", "3C", "4C"]
    assert events[4][:3] == ["play", "1", "D"] and float(events[4][3]) == pytest.approx(6.0)
    assert events[6] == ["match_end", "completed", "1", "2", "3", "4"]


def _without(message: Any, field: str) -> Any:
    copy = type(message)()
    copy.CopyFrom(message)
    copy.ClearField(field)
    return copy


def _bad_rules(**changes: Any) -> rules_pb2.Rules:
    rules = state().rules
    for key, value in changes.items():
        setattr(rules, key, value)
    return rules


MALFORMED: dict[str, dict[str, Any]] = {
    "play without a hand": {
        "play_card": play_query(
            state=state(hand=[], current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]))
        )
    },
    "pass without a hand": {"pass_cards": pass_query(state=state(hand=[]))},
    "play without a state": {"play_card": _without(play_query(), "state")},
    "play without a current trick": {"play_card": play_query(state=state())},
    "legal cards not in the hand": {"play_card": play_query(legal_cards=["3C", "KD"])},
    "no legal cards": {"play_card": play_query(legal_cards=[])},
    "unknown card text in the hand": {
        "play_card": play_query(
            state=state(
                hand=[*HAND[:-1], "1H"], current_trick=game_pb2.Trick(leader=0, cards=["2C"])
            )
        )
    },
    "unknown card text in the trick": {
        "play_card": play_query(
            state=state(current_trick=game_pb2.Trick(leader=0, cards=["2C", "queen"]))
        )
    },
    "a card held and played": {
        "play_card": play_query(
            state=state(current_trick=game_pb2.Trick(leader=0, cards=["2C", "3C"]))
        )
    },
    "unknown pass direction": {"pass_cards": pass_query(direction=99)},
    "unspecified pass direction": {"pass_cards": pass_query(direction=0)},
    "hold is not a pass": {"pass_cards": pass_query(direction=pass_direction_to_proto("hold"))},
    "pass count larger than the hand": {"pass_cards": pass_query(count=14)},
    "recipients do not match the count": {"pass_cards": pass_query(recipients=[3])},
    "unspecified moon rule": {
        "play_card": play_query(
            state=state(
                rules=_bad_rules(moon=0), current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"])
            )
        )
    },
    "unknown opening": {
        "play_card": play_query(
            state=state(
                rules=_bad_rules(opening=42), current_trick=game_pb2.Trick(leader=0, cards=["2C"])
            )
        )
    },
    "seat outside the table": {
        "play_card": play_query(
            state=state(seat=7, current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]))
        )
    },
    "not this seat's turn": {
        "play_card": play_query(state=state(current_trick=game_pb2.Trick(leader=0, cards=["2C"])))
    },
    "scores for the wrong table": {
        "play_card": play_query(
            state=state(scores=[0, 0], current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]))
        )
    },
    "a finished trick without a winner": {
        "play_card": play_query(
            state=state(
                tricks=[game_pb2.Trick(leader=0, cards=["2D", "3D", "4D", "5D"])],
                current_trick=game_pb2.Trick(leader=0, cards=["6D", "7D"]),
            )
        )
    },
    "a query for another seat": {
        "play_card": play_query(
            state=state(seat=1, current_trick=game_pb2.Trick(leader=0, cards=["2C"]))
        )
    },
    "no kind": {},
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_queries_are_invalid_argument_and_the_server_lives_on(random_bot, case):
    result = play_stream(random_bot.stub(), requests(start_kind(), MALFORMED[case]))
    assert result.code == INVALID, (case, result.code, result.details)
    assert len(result.responses) == 1  # the match_start answer, nothing for the bad query
    assert result.details
    assert_alive(random_bot)


@pytest.mark.timeout(60)
def test_the_error_names_the_field_and_the_bad_value(random_bot):
    case = MALFORMED["unknown card text in the trick"]
    result = play_stream(random_bot.stub(), requests(start_kind(), case))
    assert "current_trick.cards[1]" in result.details and "'queen'" in result.details
    result = play_stream(random_bot.stub(), requests(start_kind(), MALFORMED["unknown opening"]))
    assert "rules.opening has unknown value 42" in result.details


@pytest.mark.timeout(60)
def test_match_start_with_bad_rules_is_invalid_argument(random_bot):
    start = start_kind()
    start["match_start"].rules.players = 9
    result = play_stream(random_bot.stub(), requests(start))
    assert result.code == INVALID and "players is 9" in result.details
    assert_alive(random_bot)


@pytest.mark.timeout(60)
def test_a_request_id_of_zero_is_invalid_argument(random_bot):
    result = play_stream(random_bot.stub(), [bot_pb2.PlayMatchRequest(**start_kind())])
    assert result.code == INVALID and "request_id" in result.details
    assert_alive(random_bot)


@pytest.mark.timeout(60)
def test_undecodable_bytes_are_invalid_argument(random_bot):
    channel = random_bot.channel()
    raw = channel.stream_stream(
        "/hearts.v1.BotService/PlayMatch",
        request_serializer=lambda b: b,
        response_deserializer=lambda b: b,
    )
    with pytest.raises(grpc.RpcError) as caught:
        list(raw(iter([b"\xff\xff\xff\xff"]), timeout=DEADLINE))
    assert caught.value.code() == INVALID
    ready = channel.unary_unary(
        "/hearts.v1.BotService/Ready",
        request_serializer=lambda b: b,
        response_deserializer=lambda b: b,
    )
    with pytest.raises(grpc.RpcError) as caught:
        ready(b"\x0a\xff", timeout=DEADLINE)
    assert caught.value.code() == INVALID
    assert_alive(random_bot)


@pytest.mark.timeout(60)
def test_an_unknown_method_is_unimplemented(random_bot):
    channel = random_bot.channel()
    call = channel.unary_unary(
        "/hearts.v1.BotService/Nope",
        request_serializer=lambda b: b,
        response_deserializer=lambda b: b,
    )
    with pytest.raises(grpc.RpcError) as caught:
        call(b"", timeout=DEADLINE)
    assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert_alive(random_bot)


OUT_OF_ORDER: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "play before match_start": [(1, {"play_card": play_query()})],
    "notification before match_start": [(1, end_kind())],
    "a second match_start": [(1, start_kind()), (2, start_kind())],
    "a repeated request_id": [
        (1, start_kind()),
        (2, {"play_card": play_query()}),
        (2, {"play_card": play_query()}),
    ],
    "a decreasing request_id": [(5, start_kind()), (4, {"play_card": play_query()})],
    "a query after match_end": [
        (1, start_kind()),
        (2, end_kind()),
        (3, {"play_card": play_query()}),
    ],
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", sorted(OUT_OF_ORDER))
def test_out_of_order_messages_are_failed_precondition(random_bot, case):
    messages = [bot_pb2.PlayMatchRequest(request_id=i, **kind) for i, kind in OUT_OF_ORDER[case]]
    result = play_stream(random_bot.stub(), messages)
    assert result.code == PRECONDITION, (case, result.code, result.details)
    assert len(result.responses) == sum(
        1 for _, kind in OUT_OF_ORDER[case][:-1] if set(kind) & {"match_start", "play_card"}
    )
    assert_alive(random_bot)


@pytest.mark.timeout(60)
def test_answers_carry_the_query_ids_in_order_on_a_live_stream(random_bot):
    """A client that writes as it reads (as the arena does) sees each answer's id match."""
    import queue

    outbox: queue.Queue[Any] = queue.Queue()
    calls = random_bot.stub().PlayMatch(iter(outbox.get, None), timeout=DEADLINE)
    outbox.put(bot_pb2.PlayMatchRequest(request_id=1, **start_kind()))
    assert next(calls).request_id == 1
    for request_id in range(2, 30):
        outbox.put(bot_pb2.PlayMatchRequest(request_id=request_id, play_card=play_query()))
        answer = next(calls)
        assert answer.request_id == request_id and answer.play_card.card in ("3C", "7C", "QC")
    outbox.put(bot_pb2.PlayMatchRequest(request_id=30, **end_kind()))
    outbox.put(None)
    assert list(calls) == []


FAULTS = {
    "raises": (["AH"], "the bot's play_card raised ZeroDivisionError: the bot divided by zero"),
    "answers a non-card": (["KH"], "the bot answered 42, which is not a card"),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", sorted(FAULTS))
def test_a_faulty_bot_is_internal_and_the_server_lives_on(start_bot, case):
    bot = start_bot(str(BOTS / "faulty_bot.py"))
    extra, message = FAULTS[case]
    query = play_query(
        state=state(
            hand=[*HAND[:-1], *extra][:13] if extra != ["AH"] else HAND,
            current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]),
        )
    )
    result = play_stream(bot.stub(), requests(start_kind(), {"play_card": query}))
    assert result.code == INTERNAL, result.details
    assert message in result.details
    assert "Traceback" in bot.stderr or case != "raises"
    # The same server plays on (its hand without AH/KH/JH/TH is played normally).
    plain = play_query(
        state=state(
            hand=[c for c in HAND if c[1] != "H"],
            current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]),
        )
    )
    result = play_stream(bot.stub(), requests(start_kind(), {"play_card": plain}, end_kind()))
    assert result.code == grpc.StatusCode.OK, result.details
    assert bot.process.poll() is None


@pytest.mark.timeout(60)
def test_a_pass_that_is_not_a_list_is_internal(start_bot):
    bot = start_bot(str(BOTS / "faulty_bot.py"))
    result = play_stream(bot.stub(), requests(start_kind(), {"pass_cards": pass_query()}))
    assert result.code == INTERNAL and "expected a list of cards" in result.details


@pytest.mark.timeout(60)
def test_an_illegal_card_is_passed_on_with_a_warning(start_bot):
    """Legality is the arena's to judge (it records the fault); the SDK only warns."""
    bot = start_bot(str(BOTS / "faulty_bot.py"))
    query = play_query(
        state=state(
            hand=[*HAND[:10], "2D", "JH", "4S"],
            current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"]),
        ),
        legal_cards=["3C", "7C"],
    )
    result = play_stream(bot.stub(), requests(start_kind(), {"play_card": query}, end_kind()))
    assert result.code == grpc.StatusCode.OK
    assert result.responses[1].play_card.card == "2D"
    assert "warning: play_card returned 2D, which is not in view.legal" in bot.stderr


@pytest.mark.timeout(60)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_cleanly(random_bot, signum):
    assert random_bot.socket_path.exists()
    random_bot.process.send_signal(signum)
    assert random_bot.process.wait(timeout=10) == 0
    assert not random_bot.socket_path.exists()


@pytest.mark.timeout(60)
def test_a_bot_stuck_in_a_decision_does_not_stop_shutdown(start_bot):
    bot = start_bot(str(BOTS / "faulty_bot.py"))
    query = play_query(
        state=state(
            hand=[*HAND[:12], "TH"], current_trick=game_pb2.Trick(leader=0, cards=["2C", "KC"])
        )
    )
    stream = bot.stub().PlayMatch(iter(requests(start_kind(), {"play_card": query})), timeout=30)
    assert next(stream).request_id == 1
    time.sleep(0.5)  # the bot is now thinking forever
    started = time.monotonic()
    bot.process.send_signal(signal.SIGTERM)
    assert bot.process.wait(timeout=20) == 0
    assert time.monotonic() - started < 10
    stream.cancel()


@pytest.mark.timeout(60)
def test_tcp_port_zero_reports_the_real_port(start_bot):
    bot = start_bot("starter:heuristic", address="127.0.0.1:0")
    host, _, port = bot.address.rpartition(":")
    assert host == "127.0.0.1" and int(port) > 0
    assert bot.stub().Ready(bot_pb2.ReadyRequest(), timeout=DEADLINE).bot_name == "HeuristicBot"


@pytest.mark.timeout(60)
def test_a_busy_address_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hearts_bot",
                "serve",
                "starter:random",
                "--address",
                f"127.0.0.1:{port}",
            ],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


@pytest.mark.timeout(60)
def test_the_standard_health_service_answers_when_installed(random_bot):
    health_pb2 = pytest.importorskip("grpc_health.v1.health_pb2")
    health_pb2_grpc = pytest.importorskip("grpc_health.v1.health_pb2_grpc")
    stub = health_pb2_grpc.HealthStub(random_bot.channel())
    for service in ("", "hearts.v1.BotService"):
        answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=DEADLINE)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
