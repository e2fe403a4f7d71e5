"""The `deploy` marker: the end-to-end deployment test runs in its own CI stage only.

`make pytest-deploy` (`pytest -m deploy tests/deploy`) selects it; every other run leaves
it out (it builds images and starts a whole compose stack, minutes of work that
`make pytest` must not repeat). Its timings are printed at the end of the run.
"""

from __future__ import annotations

import pytest

TIMINGS: dict[str, float] = {}
"""Seconds per step of the deployment test (filled by tests/deploy/test_stack.py)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "deploy: builds the images and runs the compose stack (make pytest-deploy; -m deploy)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "deploy" in (config.option.markexpr or ""):
        return
    chosen = [item for item in items if item.get_closest_marker("deploy") is None]
    if len(chosen) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in chosen])
        items[:] = chosen


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TIMINGS:
        terminalreporter.section("deployment timings (seconds)")
        for step, seconds in TIMINGS.items():
            terminalreporter.write_line(f"{step:<52} {seconds:8.1f}")
