"""An honest bot that starts child processes the ordinary ways, to show that the filter's
refusals of pidfds (pidfd_open, CLONE_PIDFD, clone3) leave them working.

On its first play it runs a child through ``subprocess.run``, ``os.posix_spawn``,
asyncio's ``create_subprocess_exec`` (Python 3.11's default child watcher, in a loop of
its own thread: the SDK's loop is busy calling the bot) and ``os.system``, and asks
asyncio's ``PidfdChildWatcher``, the one way in the standard library that needs a pidfd,
to watch a child. Each prints ``CHILDREN <way> <result>`` on stderr, then ``CHILDREN
DONE``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Callable

from hearts_bot import Bot, PassView, PlayView

CHILD = [sys.executable, "-S", "-c", "print('child', end='')"]


def _subprocess() -> str:
    done = subprocess.run(CHILD, capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


def _posix_spawn() -> str:
    quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
    pid = os.posix_spawn(CHILD[0], CHILD, {}, file_actions=quiet)
    _, status = os.waitpid(pid, 0)
    return f"status {os.waitstatus_to_exitcode(status)}"


async def _run_child() -> str:
    child = await asyncio.create_subprocess_exec(*CHILD, stdout=asyncio.subprocess.PIPE)
    out, _ = await child.communicate()
    return out.decode()


def _in_own_loop(make: Callable[[], str]) -> str:
    """Run `make` in a thread of its own (a fresh event loop there), its result."""
    results: list[str] = []

    def run() -> None:
        try:
            results.append(make())
        except Exception as error:  # reported, not raised: the test reads the line
            results.append(f"failed: {type(error).__name__}: {error}")

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    return results[0] if results else "failed: no answer in 60 s"


def _asyncio_default() -> str:
    return _in_own_loop(lambda: asyncio.run(_run_child()))


async def _watch_by_pidfd() -> str:
    """A child watched by a pidfd (as Python 3.12's asyncio does where pidfd_open works)."""
    loop = asyncio.get_running_loop()
    exited: asyncio.Future[int] = loop.create_future()
    watcher = asyncio.PidfdChildWatcher()
    watcher.attach_loop(loop)
    quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
    pid = os.posix_spawn(CHILD[0], CHILD, {}, file_actions=quiet)
    try:
        watcher.add_child_handler(pid, lambda _pid, code: exited.set_result(code))
    except OSError:
        os.waitpid(pid, 0)
        raise
    return f"status {await exited}"


def _asyncio_pidfd() -> str:
    return _in_own_loop(lambda: asyncio.run(_watch_by_pidfd()))


def _system() -> str:
    return f"status {os.waitstatus_to_exitcode(os.system('exit 3'))}"


WAYS: dict[str, Callable[[], str]] = {
    "subprocess": _subprocess,
    "posix_spawn": _posix_spawn,
    "asyncio": _asyncio_default,
    "system": _system,
    "pidfd_watcher": _asyncio_pidfd,
}


class ChildrenBot(Bot):
    """Plays the first legal card; starts the children on its first play."""

    started = False

    def pass_cards(self, view: PassView) -> list[str]:
        return list(view.hand[: view.count])

    def play_card(self, view: PlayView) -> str:
        if not self.started:
            self.started = True
            for way, run in WAYS.items():
                try:
                    result = run()
                except Exception as error:
                    result = f"failed: {type(error).__name__}: {error}"
                print(f"CHILDREN {way} {result}", file=sys.stderr, flush=True)
            print("CHILDREN DONE", file=sys.stderr, flush=True)
        return view.legal[0]
