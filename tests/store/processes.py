"""Running test functions in real processes (multiprocessing, spawn) with a time bound."""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import time
from collections.abc import Callable, Sequence
from typing import Any

SPAWN = multiprocessing.get_context("spawn")


def run_together(
    target: Callable[..., None], argument_sets: Sequence[tuple[Any, ...]], timeout: float = 90
) -> list[dict[str, Any]]:
    """Start one process per argument set, released together by a barrier; their reports.

    Each process gets its arguments plus the barrier and a queue to report on. Fails when
    a process does not finish within `timeout` seconds or reports an error.
    """
    barrier = SPAWN.Barrier(len(argument_sets))
    reports = SPAWN.Queue()
    processes = [
        SPAWN.Process(target=target, args=(*arguments, barrier, reports))
        for arguments in argument_sets
    ]
    for process in processes:
        process.start()
    results: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    try:
        while len(results) < len(processes):
            try:
                results.append(reports.get(timeout=0.2))
            except queue_module.Empty:
                if all(process.exitcode is not None for process in processes):
                    codes = [process.exitcode for process in processes]
                    raise AssertionError(f"processes ended without reporting: {codes}") from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"a process did not report within {timeout} s") from None
    finally:
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
                process.join()
    errors = [report["error"] for report in results if "error" in report]
    assert not errors, errors
    return results
