"""The supervisor keeps a service running (the embedded broker's part: issue 31, item 19):
it reaps a service that ended, says how it ended, starts it again after a pause, and
gives it up after `MAX_RESTARTS` failed restarts. The service here is a real process
(`sleep`), killed by the test; the pauses are made nil."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from workers import supervisor
from workers.supervisor import MAX_RESTARTS, Service, Supervisor

pytestmark = pytest.mark.timeout(60)


class Sleeper:
    """A `sleep` process that can be started again, or refuse to (`broken`)."""

    def __init__(self) -> None:
        self.popen = subprocess.Popen(["sleep", "600"])
        self.broken = False

    def restart(self) -> None:
        if self.broken:
            raise RuntimeError("the binary is gone")
        self.popen = subprocess.Popen(["sleep", "600"])

    def service(self) -> Service:
        return Service(
            "sleeper", poll=self.popen_poll, restart=self.restart, pid=lambda: self.popen.pid
        )

    def popen_poll(self) -> int | None:
        return self.popen.poll()


@pytest.fixture(autouse=True)
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor, "restart_pause", lambda restarts: 0.0)


def test_a_killed_service_is_reaped_said_and_started_again() -> None:
    sleeper = Sleeper()
    said: list[str] = []
    service = sleeper.service()
    watcher = Supervisor([], services=[service], echo=said.append)
    first = sleeper.popen.pid
    try:
        sleeper.popen.send_signal(signal.SIGKILL)
        os.waitid(os.P_PID, first, os.WEXITED | os.WNOWAIT)  # dead, not reaped: a zombie
        assert Path(f"/proc/{first}").exists()
        watcher._watch()  # reaps and schedules
        assert service.state == "restarting"
        watcher._watch()  # the pause is over: started again
        assert service.state == "running" and sleeper.popen.pid != first
        assert service.info() == {
            "state": "running",
            "pid": sleeper.popen.pid,
            "restarts": 1,
            "last_exit": "killed by signal 9 (SIGKILL)",
        }
        assert said == [
            "sleeper killed by signal 9 (SIGKILL); restarting it in 0 s",
            f"sleeper restarted (pid {sleeper.popen.pid})",
        ]
        assert not Path(f"/proc/{first}").exists()  # no zombie left
    finally:
        sleeper.popen.kill()
        sleeper.popen.wait()


def test_a_service_that_cannot_come_back_is_given_up_and_said() -> None:
    sleeper = Sleeper()
    said: list[str] = []
    service = sleeper.service()
    watcher = Supervisor([], services=[service], echo=said.append)
    sleeper.broken = True
    sleeper.popen.terminate()
    sleeper.popen.wait()
    for _ in range(2 * MAX_RESTARTS + 2):
        watcher._watch()
    assert service.state == "given up" and service.info()["pid"] is None
    assert said[0] == "sleeper killed by signal 15 (SIGTERM); restarting it in 0 s"
    assert said[-1] == (
        f"sleeper could not restart: the binary is gone, {MAX_RESTARTS + 1} times; given up"
    )
