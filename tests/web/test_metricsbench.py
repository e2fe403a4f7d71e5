"""`arena bench metrics-overhead` measures what it says: its "without" rounds really run
without the metrics' hooks (a request then is not counted), its "with" rounds with them,
and the app is left as it found it. Figures are printed by the command, never asserted."""

from __future__ import annotations

import click.testing
from flask import Flask
from prometheus_client import REGISTRY

from arena.commands.bench import bench
from web import metrics, metricsbench


def counted(route: str) -> float:
    return (
        REGISTRY.get_sample_value(
            "arena_http_requests_total", {"route": route, "method": "GET", "status": "200"}
        )
        or 0.0
    )


def test_the_hooks_are_taken_out_and_put_back(app: Flask) -> None:
    client = app.test_client()
    route = "/signin"
    before = counted(route)
    metricsbench._set_hooks(app, False)
    assert metrics._start not in app.before_request_funcs[None]
    assert metrics._count not in app.after_request_funcs[None]
    assert client.get(route).status_code == 200
    assert counted(route) == before  # not counted: the hooks were out
    metricsbench._set_hooks(app, True)
    assert app.before_request_funcs[None][0] is metrics._start
    assert client.get(route).status_code == 200
    assert counted(route) == before + 1
    metricsbench._set_hooks(app, True)  # twice: still once each
    assert app.before_request_funcs[None].count(metrics._start) == 1
    assert app.after_request_funcs[None].count(metrics._count) == 1


def test_the_command_prints_every_route_both_ways_and_the_hooks_alone() -> None:
    result = click.testing.CliRunner().invoke(
        bench, ["metrics-overhead", "--requests", "10", "--rounds", "2"]
    )
    assert result.exit_code == 0, result.output
    for route in metricsbench.ROUTES:
        assert f"  {route} (200)" in result.output
    assert result.output.count("with the hooks") == len(metricsbench.ROUTES)
    assert result.output.count("difference") == len(metricsbench.ROUTES)
    assert "the two hooks alone  median" in result.output
