"""Values kept for a while in this process, computed once however many requests ask.

Why: a cold cache of an expensive figure (a large season's points table takes about a
second) used to be recomputed by every request that arrived before the first finished:
eight at once took four seconds each. Here the first computes under the key's lock and
the others wait for it, then read what it kept (a "single flight").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from flask import Flask

T = TypeVar("T")
_APPS_GUARD = threading.Lock()
"""Guards the making of an app's caches (two first requests at once make one)."""


class KeptValues(Generic[T]):
    """Values by key, each kept `seconds` after it was computed."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._values: dict[Hashable, tuple[float, T]] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()
        self.computed = 0
        """How many times a value was computed (the tests count stampedes with it)."""

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The kept value of `key`, else `compute()`'s, computed by one caller at a time."""
        kept = self._values.get(key)
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            kept = self._values.get(key)  # another caller may have just computed it
            if kept is not None and kept[0] > time.monotonic():
                return kept[1]
            value = compute()
            self.computed += 1
            self._values[key] = (time.monotonic() + self.seconds, value)
            return value


def kept_values(app: Flask, name: str, seconds: float) -> KeptValues[Any]:
    """The app's cache called `name` (made on first use)."""
    with _APPS_GUARD:
        caches: dict[str, KeptValues[Any]] = app.extensions.setdefault("arena.caches", {})
        return caches.setdefault(name, KeptValues(seconds))
