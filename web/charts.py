"""The rating-history chart: an inline SVG drawn on the server (no chart library, no script).

>>> svg = elo_chart([1500.0, 1516.0, 1508.5])
>>> svg.startswith("<svg") and "polyline" in svg
True
>>> elo_chart([])
Markup('')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from markupsafe import Markup

WIDTH: Final = 640
HEIGHT: Final = 200
MARGIN_LEFT: Final = 48
MARGIN: Final = 12


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    step = (high - low) / count
    return [low + i * step for i in range(count + 1)]


def elo_chart(elos: Sequence[float], *, label: str = "Elo after each rated match") -> Markup:
    """A line of `elos` in order, with a labelled Elo axis; empty when there is nothing."""
    if not elos:
        return Markup("")
    low, high = min(elos), max(elos)
    if high - low < 20:  # keep small wobbles from filling the whole height
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    inner_w = WIDTH - MARGIN_LEFT - MARGIN
    inner_h = HEIGHT - 2 * MARGIN

    def x(index: int) -> float:
        return MARGIN_LEFT + (inner_w * index / (len(elos) - 1) if len(elos) > 1 else inner_w / 2)

    def y(value: float) -> float:
        return MARGIN + inner_h * (1 - (value - low) / (high - low))

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(elos))
    parts = [
        Markup(
            '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}: from '
            '{first:.0f} to {last:.0f} over {n} matches" preserveAspectRatio="none">'
        ).format(w=WIDTH, h=HEIGHT, label=label, first=elos[0], last=elos[-1], n=len(elos))
    ]
    for tick in _ticks(low, high):
        parts.append(
            Markup(
                '<line class="grid" x1="{x1}" x2="{x2}" y1="{y:.1f}" y2="{y:.1f}"/>'
                '<text class="axis" x="{tx}" y="{ty:.1f}">{v:.0f}</text>'
            ).format(x1=MARGIN_LEFT, x2=WIDTH - MARGIN, y=y(tick), tx=4, ty=y(tick) + 4, v=tick)
        )
    parts.append(Markup('<polyline class="line" points="{}"/>').format(points))
    if len(elos) <= 60:
        parts.extend(
            Markup('<circle class="dot" cx="{:.1f}" cy="{:.1f}" r="2.5"/>').format(x(i), y(v))
            for i, v in enumerate(elos)
        )
    parts.append(Markup("</svg>"))
    return Markup("").join(parts)
