"""The seat's thaw/freeze hook (`TurnHost`): a host that can freeze its bot is thawed for
every request and frozen once it is answered, never thawed for a notification (it waits in
the bot's socket until its next turn), and thawed once at a game's end to read to the end;
hosts without the hook are untouched. The freezing itself is the sandbox's
(tests/sandbox/test_turns.py)."""

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
    # match start, a pass, 13 plays (the random bot wants no notifications); match end is
    # written frozen, then the bot is thawed while it ends the stream, and frozen between games
    assert calls == ["thaw", "freeze"] * (1 + 1 + 13) + ["thaw", "freeze"]


NOTIFIED_BOT = """
import sys

from hearts_bot.starters.random_bot import RandomBot


class Notified(RandomBot):
    tricks = 0

    def on_trick_end(self, event):
        self.tricks += 1

    def on_match_end(self, event):
        print(f"NOTIFIED tricks={self.tricks}", file=sys.stderr, flush=True)


bot = Notified()
"""


def test_notifications_are_written_to_the_frozen_bot_and_handled_on_its_next_turn(
    tmp_path: Path,
) -> None:
    (tmp_path / "notified.py").write_text(NOTIFIED_BOT)
    host = RecordingHost(BotProcess(tmp_path / "notified.py"))
    seat = GrpcSeat(host.address, "notified", host=host)
    rules = preset("standard").replace(target_score=None, max_hands=1)
    entrants = [Entrant("notified", seat)] + [
        Entrant(f"house {i}", house_seat(parse_bot_spec("house:random"), i)) for i in (1, 2, 3)
    ]
    try:
        outcome = MatchRunner(rules, entrants, 3, time_policy=TimePolicy(2.0, 20.0, 20.0)).run()
    finally:
        host.stop()
    assert not outcome.void and outcome.replay["faults"] == []
    # The same thaws as for a bot that wants no notifications: its hand start, 13 trick
    # ends and hand end were written while it was frozen...
    calls = [call for call in host.calls if call != "stop"]
    assert calls == ["thaw", "freeze"] * (1 + 1 + 13) + ["thaw", "freeze"]
    # ...and every one was handled.
    assert "NOTIFIED tricks=13" in host.log_excerpt()
