"""A pool process forked while another thread of its parent holds this process's database
state (the heartbeat thread making the engine) starts, and makes an engine of its own.

Before the fork hooks, the child copied the lock as held and waited for it for ever: seen
once as a worker whose second pool process never started its task (issue 36's metrics)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

from workers import context
from workers.config import Settings

CHILD_LIMIT_SECONDS = 60.0
"""How long a child may take before it is taken for hung (a hang, not a speed, is tested)."""


def in_child(work: Callable[[], int]) -> int:
    """Fork, run `work()` in the child (its return value is the exit status), and return
    the child's exit status, or -1 if it hung and was killed."""
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        try:
            os._exit(int(work()))
        except BaseException:
            os._exit(3)
    deadline = time.monotonic() + CHILD_LIMIT_SECONDS
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return -1


def test_a_fork_while_another_thread_holds_the_state_lock_gives_a_working_child(
    settings: Settings,
) -> None:
    context.engine()
    held, release = threading.Event(), threading.Event()

    def heartbeat_making_its_engine() -> None:
        with context._state.lock:
            held.set()
            release.wait(5)

    thread = threading.Thread(target=heartbeat_making_its_engine)
    thread.start()
    held.wait()
    threading.Timer(0.5, release.set).start()  # the fork waits for the lock, then proceeds

    def child() -> int:
        context._forget_inherited_connections()
        with context.sessions()() as session:
            return 0 if session.connection().exec_driver_sql("select 1").scalar() == 1 else 2

    status = in_child(child)
    thread.join()
    assert status == 0, "the forked child hung on a lock copied as held" if status < 0 else status


def test_the_child_makes_its_own_engine_and_keeps_the_inherited_one_unused(
    settings: Settings,
) -> None:
    parents = context.engine()

    def child() -> int:
        context._forget_inherited_connections()
        mine = context.engine()
        if mine is parents or context._state.inherited != [parents]:
            return 2
        return 0 if mine.pool is not parents.pool else 4

    assert in_child(child) == 0
    assert context.engine() is parents  # the parent goes on with its own


def test_a_child_asking_for_the_engine_before_the_signal_gets_its_own(settings: Settings) -> None:
    """Receivers of `worker_process_init` run in import order: one that asks for the engine
    before ours has run (the metrics' store watcher) must not get the parent's."""
    parents = context.engine()

    def child() -> int:
        mine = context.engine()  # no _forget_inherited_connections first
        context._forget_inherited_connections()
        return 0 if mine is not parents and context.engine() is mine else 2

    assert in_child(child) == 0
