"""`arena bench metrics-overhead`: what the site's metrics hooks add to every request.

`web.metrics.init_app` puts a ``before_request`` (a clock reading) and an
``after_request`` (a counter and a histogram, by route template, method and status) on
every request. Measured two ways on the same app, a migrated SQLite database of its own:

* whole requests through Flask's test client (routing, the site's other hooks, the view,
  the response) with the two hooks in place and with them taken out of the app, in
  rounds that alternate the two, so that the machine's drift falls on both alike; per
  round, the mean time of a request; the overhead is each round's difference with the
  next round without;
* the two hooks alone, called inside a request's context many times over: their own
  cost, which the first figure's noise can hide.

Time is this process's CPU time (``time.process_time``), not wall time: on a shared
machine a request's wall time mostly measures the wait for a core (the first run here, at
a load of 8 to 22 on 2 cores, gave differences of -0.9 to +2.1 ms by wall time). The
ranges over rounds say how noisy it still was.
"""

from __future__ import annotations

import dataclasses
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from arena.store import migrate

from . import create_app, metrics
from .database import dispose

ROUTES = ("/static/css/arena.css", "/api/v1/seasons", "/")
"""A static file (the cheapest answer the site gives: the overhead at its largest share),
an API read and the home page (both read the database; the page renders a template)."""


@dataclasses.dataclass(frozen=True)
class RouteFigures:
    """Per-request means of each round, in microseconds."""

    route: str
    status: int
    with_hooks: list[float]
    without_hooks: list[float]

    @property
    def differences(self) -> list[float]:
        return [a - b for a, b in zip(self.with_hooks, self.without_hooks, strict=True)]


@dataclasses.dataclass(frozen=True)
class OverheadFigures:
    requests: int
    rounds: int
    routes: list[RouteFigures]
    hooks_alone: list[float]
    """Microseconds per request of the two hooks called directly, per round."""


def _hooks(app: Flask) -> tuple[list[Callable[..., Any]], list[Callable[..., Any]]]:
    return app.before_request_funcs.setdefault(None, []), app.after_request_funcs.setdefault(
        None, []
    )


def _set_hooks(app: Flask, on: bool) -> None:
    """Put the metrics' two hooks in the app, or take them out (nothing else changes)."""
    before, after = _hooks(app)
    for hooks, hook in ((before, metrics._start), (after, metrics._count)):
        if on and hook not in hooks:
            hooks.insert(0, hook)
        if not on and hook in hooks:
            hooks.remove(hook)


def _round(app: Flask, route: str, requests: int) -> tuple[float, int]:
    """Mean microseconds of one request to `route`, and its status."""
    client = app.test_client()
    status = client.get(route).status_code  # warm: templates compiled, caches filled
    started = time.process_time()
    for _ in range(requests):
        client.get(route).close()
    return (time.process_time() - started) / requests * 1e6, status


def _hooks_alone(app: Flask, route: str, calls: int) -> float:
    """Mean microseconds of `_start` then `_count` inside one request's context."""
    response = app.response_class("x")
    with app.test_request_context(route):
        started = time.process_time()
        for _ in range(calls):
            metrics._start()
            metrics._count(response)
        return (time.process_time() - started) / calls * 1e6


def bench_metrics_overhead(requests: int = 2000, rounds: int = 6) -> OverheadFigures:
    with tempfile.TemporaryDirectory(prefix="arena-metrics-bench-") as folder:
        url = f"sqlite:///{Path(folder) / 'arena.db'}"
        migrate.upgrade(url)
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": False})
        try:
            figures = []
            for route in ROUTES:
                with_hooks: list[float] = []
                without_hooks: list[float] = []
                status = 0
                for index in range(rounds):
                    # Alternate which goes first, so neither always follows the other.
                    order = (True, False) if index % 2 == 0 else (False, True)
                    for on in order:
                        _set_hooks(app, on)
                        mean, status = _round(app, route, requests)
                        (with_hooks if on else without_hooks).append(mean)
                _set_hooks(app, True)
                figures.append(RouteFigures(route, status, with_hooks, without_hooks))
            alone = [_hooks_alone(app, ROUTES[0], requests * 5) for _ in range(rounds)]
        finally:
            _set_hooks(app, True)
            dispose(app)
    return OverheadFigures(requests, rounds, figures, alone)


def _span(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f}, range {min(values):.1f}-{max(values):.1f}"


def describe(figures: OverheadFigures) -> str:
    lines = [
        f"metrics hooks' overhead per request ({figures.rounds} alternated rounds of "
        f"{figures.requests} requests per route and setting; microseconds of CPU)"
    ]
    for route in figures.routes:
        lines.append(f"  {route.route} ({route.status})")
        lines.append(f"    with the hooks     {_span(route.with_hooks)}")
        lines.append(f"    without            {_span(route.without_hooks)}")
        lines.append(f"    difference         {_span(route.differences)}")
    lines.append(f"  the two hooks alone  {_span(figures.hooks_alone)}")
    return "\n".join(lines)
