"""Bar charts as server-side SVG: no script or library for the CSP to allow; colours come from
classes (no ``style`` attributes), and the page shows the figures in a table too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 40
ROW_HEIGHT, LABEL_WIDTH = 30, 210


@dataclass(frozen=True)
class Series:
    """One coloured set of bars: its name (in the legend) and a value per category."""

    name: str
    values: Sequence[float]
    css: str  # chart__bar--<css>


def nice_top(value: float, ticks: int = 4) -> float:
    """The axis maximum: ``ticks`` whole steps of 1, 2 or 5 times a power of ten."""
    least = max(value, 1) / ticks
    power = 10 ** max(0, math.floor(math.log10(least)))
    steps = (1, 2, 5, 10) if power == 1 else (1, 2, 2.5, 5, 10)  # whole numbers on the axis
    step = next(m * power for m in steps if m * power >= least)
    return step * ticks


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _open(title: str, description: str, width: int, height: int, ident: str) -> list[str]:
    return [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img"'
        f' aria-labelledby="{ident}-title {ident}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(description)}</desc>',
    ]


def _bar(
    one: Series,
    label: str,
    value: float,
    x: float,
    y: float,
    width: float,
    height: float,
    unit: str = "",
) -> str:
    """One bar with its value in its tooltip ("Label, series: 12%"), the same in every chart."""
    return (
        f'<rect class="chart__bar chart__bar--{one.css}" x="{x:.1f}" y="{y:.1f}"'
        f' width="{width:.1f}" height="{height:.1f}">'
        f"<title>{escape(label)}, {escape(one.name)}: {_number(value)}{escape(unit)}</title></rect>"
    )


def columns(
    ident: str,
    title: str,
    categories: Sequence[str],
    series: Sequence[Series],
    description: str,
) -> str:
    """Vertical bars, one group per category (a day), one bar per series side by side."""
    parts = _open(title, description, WIDTH, HEIGHT, ident)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = nice_top(max((v for s in series for v in s.values), default=0))
    for i in range(5):
        value = top * i / 4
        y = TOP + plot_h - plot_h * i / 4
        ends = f'x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"'
        parts.append(f'<line class="chart__grid" {ends}/>')
        parts.append(
            f'<text class="chart__label" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_number(value)}</text>"
        )
    count = max(1, len(categories))
    group = plot_w / count
    bar = min(48.0, max(1.0, group * 0.8 / max(1, len(series))))
    every = max(1, math.ceil(count / 10))  # at most ten labels under the axis
    for c, name in enumerate(categories):
        x0 = LEFT + (c + 0.5) * group - bar * len(series) / 2
        for s_index, one in enumerate(series):
            value = one.values[c]
            h = plot_h * value / top
            parts.append(_bar(one, name, value, x0 + s_index * bar, TOP + plot_h - h, bar, h))
        if c % every == 0:
            parts.append(
                f'<text class="chart__label" x="{LEFT + (c + 0.5) * group:.1f}"'
                f' y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{escape(name)}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts)


def rows(
    ident: str,
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    description: str,
    top: float | None = None,
    unit: str = "",
) -> str:
    """Horizontal bars, one row per label (a set, a step-through), series stacked in a row."""
    height = TOP + BOTTOM // 2 + ROW_HEIGHT * max(1, len(labels))
    parts = _open(title, description, WIDTH, height, ident)
    plot_w = WIDTH - LABEL_WIDTH - RIGHT - 48
    most = max((sum(s.values[i] for s in series) for i in range(len(labels))), default=0)
    scale = top if top is not None else nice_top(most)
    for r, label in enumerate(labels):
        y = TOP + r * ROW_HEIGHT
        parts.append(
            f'<text class="chart__label" x="{LABEL_WIDTH - 8}" y="{y + ROW_HEIGHT / 2 + 4:.1f}"'
            f' text-anchor="end">{escape(label)}</text>'
        )
        x = float(LABEL_WIDTH)
        for one in series:
            value = one.values[r]
            w = plot_w * value / scale
            parts.append(_bar(one, label, value, x, y + 5, w, ROW_HEIGHT - 10, unit))
            x += w
        total = sum(s.values[r] for s in series)
        parts.append(
            f'<text class="chart__label" x="{x + 6:.1f}" y="{y + ROW_HEIGHT / 2 + 4:.1f}">'
            f"{_number(total)}{escape(unit)}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
