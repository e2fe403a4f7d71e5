"""`arena bench signin-flood` at a small scale: each scenario floods, times and prints."""

from __future__ import annotations

import pytest

from web.floodbench import bench_signin_flood, describe


@pytest.mark.timeout(300)
def test_bench_signin_flood_small():
    figures = bench_signin_flood(
        versions=40, requests=3, flooders=2, settle=0.5, resettle=0.2, blocks=2
    )
    assert len(figures.flooded) == 3
    assert all(len(samples) == 3 for samples in figures.flooded.values())
    assert all(len(samples) == 3 for samples in figures.quiet.values())
    reference = next(name for name in figures.answers if "reference" in name)
    assert set(figures.answers[reference]) == {200}
    signins = [answers for name, answers in figures.answers.items() if name != reference]
    assert all(set(answers) <= {400, 429, 503} and answers for answers in signins)
    text = describe(figures)
    assert "ladder median quiet" in text and "the loops were answered" in text
    assert set(figures.cpu) == {"a refused sign-in", "the API's index", "the ladder page"}
    assert all(seconds >= 0 for seconds in figures.cpu.values())
    assert "CPU to answer one request" in text
