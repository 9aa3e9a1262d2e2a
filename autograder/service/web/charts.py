"""Bar charts drawn on the server as SVG (``instructor/charts.html``): no script, no image
request and no style sheet, so the pages' Content-Security-Policy holds; each bar carries its
label and count as a ``<title>`` and the chart a title and description for screen readers."""

from __future__ import annotations

from dataclasses import dataclass

from autograder.service.matrix import Bar

WIDTH, HEIGHT = 320, 120  # the plotting area, in SVG units (the chart scales to its box)
LABEL_HEIGHT = 16


@dataclass(frozen=True)
class DrawnBar:
    label: str
    count: int
    x: float
    y: float
    width: float
    height: float

    @property
    def text_y(self) -> float:
        """The baseline of the label and count written beside a horizontal bar."""
        return round(self.y + self.height - 3, 1)

    @property
    def count_x(self) -> float:
        return round(self.x + self.width + 4, 1)


@dataclass(frozen=True)
class Chart:
    chart_id: str
    title: str
    description: str
    bars: tuple[DrawnBar, ...]
    first_label: str
    last_label: str
    width: int = WIDTH
    height: int = HEIGHT + LABEL_HEIGHT
    baseline: int = HEIGHT


def bar_chart(chart_id: str, title: str, description: str, bars: tuple[Bar, ...]) -> Chart:
    """Vertical bars side by side, the tallest filling the height; a zero count draws no bar."""
    tallest = max((bar.count for bar in bars), default=0) or 1
    step = WIDTH / max(len(bars), 1)
    drawn = []
    for index, bar in enumerate(bars):
        height = round(HEIGHT * bar.count / tallest, 1)
        drawn.append(DrawnBar(bar.label, bar.count, round(index * step + 1, 1), round(HEIGHT - height, 1),
                              round(step - 2, 1), height))
    return Chart(chart_id, title, description, tuple(drawn), bars[0].label if bars else "",
                 bars[-1].label if bars else "")


ROW_HEIGHT, LABEL_WIDTH = 18, 150


def row_chart(chart_id: str, title: str, description: str, bars: tuple[Bar, ...]) -> Chart:
    """Horizontal bars, one per row, each labelled at its left (for long labels: the stages)."""
    longest = max((bar.count for bar in bars), default=0) or 1
    room = WIDTH - LABEL_WIDTH - 30  # and the count written after the bar
    drawn = tuple(DrawnBar(bar.label, bar.count, LABEL_WIDTH, index * ROW_HEIGHT + 2,
                           round(room * bar.count / longest, 1), ROW_HEIGHT - 4) for index, bar in enumerate(bars))
    return Chart(chart_id, title, description, drawn, "", "", height=max(1, len(bars)) * ROW_HEIGHT,
                 baseline=max(1, len(bars)) * ROW_HEIGHT)
