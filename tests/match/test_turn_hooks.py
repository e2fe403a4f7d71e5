"""The seat's thaw/freeze hook (`TurnHost`): a host that can freeze its bot is thawed for
every request and notification and frozen once each is done; hosts without the hook are
untouched. The freezing itself is the sandbox's (tests/sandbox/test_turns.py)."""

from pathlib import Path

import pytest

from arena.engine import preset
from arena.match.clock import TimePolicy
from arena.match.process import BotProcess
from arena.match.remote import GrpcSeat, turn_host
from arena.match.runner import Entrant, MatchRunner
from arena.match.spec import house_seat, parse_bot_spec

SDK = Path(__file__).resolve().parents[2] / "sdk"
RANDOM_BOT = SDK / "src" / "hearts_bot" / "starters" / "random_bot.py"

pytestmark = pytest.mark.timeout(120)


class RecordingHost:
    """A local bot process whose thaw/freeze calls are recorded."""

    def __init__(self, process: BotProcess) -> None:
        self.process = process
        self.address = process.address
        self.calls: list[str] = []

    def wait_ready(self, timeout: float) -> bool:
        return self.process.wait_ready(timeout)

    def exit_reason(self) -> str | None:
        return self.process.exit_reason()

    def log_excerpt(self) -> str:
        return self.process.log_excerpt()

    def stop(self) -> None:
        self.calls.append("stop")
        self.process.stop()

    def thaw(self) -> None:
        self.calls.append("thaw")

    def freeze(self) -> None:
        self.calls.append("freeze")


def test_a_host_without_the_hook_is_not_a_turn_host() -> None:
    assert turn_host(object()) is None
    assert turn_host(None) is None


def test_the_seat_thaws_for_each_request_and_freezes_after_it() -> None:
    host = RecordingHost(BotProcess(RANDOM_BOT))
    seat = GrpcSeat(host.address, "random", host=host)
    rules = preset("standard").replace(target_score=None, max_hands=1)
    entrants = [Entrant("random", seat)] + [
        Entrant(f"house {i}", house_seat(parse_bot_spec("house:random"), i)) for i in (1, 2, 3)
    ]
    try:
        outcome = MatchRunner(rules, entrants, 3, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        host.stop()
    assert not outcome.void and outcome.replay["faults"] == []
    calls = [call for call in host.calls if call != "stop"]
    assert host.calls.index("stop") >= len(calls)  # stopped after everything else
    # match start, a pass, 13 plays (the random bot wants no notifications); match end
    # thaws twice (to write it, and while the bot ends the stream), then frozen between games
    assert calls == ["thaw", "freeze"] * (1 + 1 + 13) + ["thaw", "freeze", "thaw", "freeze"]
