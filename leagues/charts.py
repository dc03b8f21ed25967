"""Charts as SVG, drawn on the server by this module: no script, no third-party asset.

Pure Python (no Django): each function returns one ``<svg>`` element as text,
with a ``<title>`` and a ``<desc>`` that say in words what it shows
(``role="img"`` and ``aria-labelledby`` point at them), so a screen reader
reads the chart as a sentence.  Pages put the same figures in a table next to
it.  Colours come from CSS classes (``chart-bar``, ``chart-line`` ...) in the
site's stylesheet; every text is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

__all__ = ["Bar", "IntervalBar", "Point", "bar_chart", "interval_chart", "line_chart"]


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    #: The figure written at the end of the bar ("32 %", "12 players").
    text: str
    #: A second value drawn as a thin bar under the first (e.g. the win rate), 0..``scale``; ``None``: none.
    second: float | None = None
    second_text: str = ""


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    value: float


def _head(chart_id: str, title: str, description: str, width: int, height: int) -> list[str]:
    t, d = f"{chart_id}-title", f"{chart_id}-desc"
    return [
        f'<svg class="chart" id="{escape(chart_id)}" role="img" aria-labelledby="{escape(t)} {escape(d)}" '
        f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMinYMin meet" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{escape(t)}">{escape(title)}</title>',
        f'<desc id="{escape(d)}">{escape(description)}</desc>',
    ]


def bar_chart(
    chart_id: str,
    title: str,
    description: str,
    bars: Sequence[Bar],
    *,
    scale: float | None = None,
    second_label: str = "",
) -> str:
    """Horizontal bars, one row per item, labels on the left, figures at the bar's end."""
    width, label_w, row_h, top = 640, 190, 34 if any(b.second is not None for b in bars) else 26, 8
    bar_w = width - label_w - 90
    height = top * 2 + row_h * max(1, len(bars)) + (18 if second_label else 0)
    top_value = scale if scale else max((b.value for b in bars), default=0) or 1
    out = _head(chart_id, title, description, width, height)
    for i, bar in enumerate(bars):
        y = top + i * row_h
        length = max(0.0, min(1.0, bar.value / top_value)) * bar_w
        out.append(f'<g class="chart-row"><text class="chart-label" x="{label_w - 8}" y="{y + 15}" '
                   f'text-anchor="end">{escape(_clip(bar.label, 26))}</text>')  # fmt: skip
        out.append(f'<rect class="chart-bar chart-bar-{i % 6}" x="{label_w}" y="{y + 3}" '
                   f'width="{length:.1f}" height="16" rx="2"/>')  # fmt: skip
        out.append(f'<text class="chart-value" x="{label_w + length + 6:.1f}" y="{y + 15}">{escape(bar.text)}</text>')
        if bar.second is not None:
            second = max(0.0, min(1.0, bar.second)) * bar_w
            out.append(
                f'<rect class="chart-second" x="{label_w}" y="{y + 22}" width="{second:.1f}" height="6" rx="1"/>'
            )
            out.append(f'<text class="chart-small" x="{label_w + second + 6:.1f}" y="{y + 29}">'
                       f'{escape(bar.second_text)}</text>')  # fmt: skip
        out.append("</g>")
    if second_label:
        y = height - 12
        out.append(f'<rect class="chart-bar chart-bar-0" x="{label_w}" y="{y - 8}" width="14" height="8"/>'
                   f'<text class="chart-small" x="{label_w + 20}" y="{y}">share of players</text>'
                   f'<rect class="chart-second" x="{label_w + 150}" y="{y - 6}" width="14" height="5"/>'
                   f'<text class="chart-small" x="{label_w + 170}" y="{y}">{escape(second_label)}</text>')  # fmt: skip
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class IntervalBar:
    """A share (0..1) with the interval around it: the bar is ``value``, the whisker ``low``..``high``."""

    label: str
    value: float
    low: float
    high: float
    text: str


def interval_chart(
    chart_id: str,
    title: str,
    description: str,
    bars: Sequence[IntervalBar],
    *,
    reference: float | None = None,
    reference_label: str = "",
) -> str:
    """Horizontal bars of shares with their intervals as whiskers, and a dashed line at ``reference`` (a fair
    share), on a scale from 0 to the next tenth above the highest whisker."""
    width, label_w, row_h, top = 480, 64, 28, 8  # narrower than the others: a seat's label is short, and phones
    bar_w = width - label_w - 110
    bottom = 22 if reference is not None else 6
    height = top + row_h * max(1, len(bars)) + bottom
    highest = max([b.high for b in bars] + [reference or 0.0, 0.1])
    scale = min(1.0, math.ceil(highest * 10 - 1e-9) / 10)

    def x(value: float) -> float:
        return label_w + max(0.0, min(1.0, value / scale)) * bar_w

    out = _head(chart_id, title, description, width, height)
    for i, bar in enumerate(bars):
        y = top + i * row_h
        out.append(f'<g class="chart-row"><text class="chart-label" x="{label_w - 8}" y="{y + 15}" '
                   f'text-anchor="end">{escape(_clip(bar.label, 14))}</text>')  # fmt: skip
        out.append(f'<rect class="chart-bar chart-bar-{i % 6}" x="{label_w}" y="{y + 3}" '
                   f'width="{x(bar.value) - label_w:.1f}" height="16" rx="2"/>')  # fmt: skip
        low, high = x(bar.low), x(bar.high)
        out.append(f'<path class="chart-whisker" d="M{low:.1f},{y + 11}H{high:.1f}M{low:.1f},{y + 6}V{y + 16}'
                   f'M{high:.1f},{y + 6}V{y + 16}" fill="none"/>')  # fmt: skip
        out.append(f'<text class="chart-value" x="{max(high, x(bar.value)) + 6:.1f}" y="{y + 15}">'
                   f"{escape(bar.text)}</text></g>")  # fmt: skip
    if reference is not None:
        line = x(reference)
        end = top + row_h * max(1, len(bars))
        out.append(f'<line class="chart-reference" x1="{line:.1f}" x2="{line:.1f}" y1="{top}" y2="{end}"/>'
                   f'<text class="chart-small" x="{line:.1f}" y="{end + 14}" text-anchor="middle">'
                   f"{escape(reference_label)}</text>")  # fmt: skip
    out.append("</svg>")
    return "".join(out)


def line_chart(chart_id: str, title: str, description: str, points: Sequence[Point], *, y_label: str = "") -> str:
    """A line through ``points`` in order, with the lowest, highest and last values marked on the axis."""
    width, height, left, right, top, bottom = 640, 240, 48, 16, 16, 40
    out = _head(chart_id, title, description, width, height)
    if not points:
        out.append(f'<text class="chart-label" x="{left}" y="{height // 2}">No rated games yet.</text></svg>')
        return "".join(out)
    values = [p.value for p in points]
    low, high = min(values + [0.0]), max(values + [0.0])
    if high - low < 1:
        high = low + 1
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - low) / (high - low))

    ticks = {round(low, 1), round(high, 1)}
    if all(abs(t) > (high - low) / 8 for t in ticks):  # zero too, when it is clear of both ends
        ticks.add(0.0)
    for tick in sorted(ticks):
        out.append(f'<line class="chart-grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                   f'<text class="chart-small" x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.1f}</text>')  # fmt: skip
    path = " ".join(f"{'M' if i == 0 else 'L'}{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    out.append(f'<path class="chart-line" d="{path}" fill="none"/>')
    for i, point in enumerate(points):
        out.append(f'<circle class="chart-dot" cx="{x(i):.1f}" cy="{y(point.value):.1f}" r="3">'
                   f"<title>{escape(point.label)}: {point.value:.1f}</title></circle>")  # fmt: skip
    out.append(f'<text class="chart-small" x="{left}" y="{height - 14}">{escape(_clip(points[0].label, 30))}</text>')
    if len(points) > 1:
        out.append(f'<text class="chart-small" x="{width - right}" y="{height - 14}" text-anchor="end">'
                   f"{escape(_clip(points[-1].label, 30))}</text>")  # fmt: skip
    if y_label:
        out.append(f'<text class="chart-small" x="{left}" y="{height - 2}">{escape(y_label)}</text>')
    out.append("</svg>")
    return "".join(out)


def _clip(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"
