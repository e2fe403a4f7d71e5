"""`arena bench web` at a small scale: every page it times answers, and it prints them."""

from __future__ import annotations

from web.bench import PAGES, bench_web, describe


def test_bench_web_small():
    figures = bench_web(versions=40, matches=120, repeats=2)
    assert set(figures.timings) == set(PAGES)
    assert all(len(samples) == 2 for samples in figures.timings.values())
    text = describe(figures)
    assert "ladder page (top 50, Elo order)" in text
    assert "40 bot versions" in text
    assert figures.median_ms("match page (full game, replay parsed)") > 0
