"""Hooks for the whole suite."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The test files marked `long` go first, the rest keep their order (a stable sort).

    Why: `make test` runs the suite on two pytest-xdist workers a file at a time
    (`--dist loadfile`), handing files out in this order; a long file handed out last
    leaves one worker running it alone while the other has nothing left (the fuzzing
    file, 220 s, near the end of the order held the run's last minutes)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
