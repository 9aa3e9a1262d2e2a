"""Bar charts drawn on the server as SVG (``instructor/charts.html``): no script, no image
request and no style sheet, so the pages' Content-Security-Policy holds; each bar carries its
label and count as a ``<title>`` and the chart a title and description for screen readers.
Every count is also written beside its bar, and no label is cut: a stage's name is written whole
above its bar, and the score bands are named on the axis."""

from __future__ import annotations

from dataclasses import dataclass

from autograder.service.matrix import Bar

WIDTH, HEIGHT = 320, 120  # the plotting area, in SVG units (the chart scales to its box)
COUNT_ROOM = 14  # above the tallest vertical bar, for its count
LABEL_HEIGHT = 16  # under the vertical bars, for the axis's labels


@dataclass(frozen=True)
class DrawnBar:
    label: str
    count: int
    x: float
    y: float
    width: float
    height: float

    @property
    def middle_x(self) -> float:
        """Where the count written over a vertical bar is centred."""
        return round(self.x + self.width / 2, 1)

    @property
    def count_y(self) -> float:
        """The baseline of the count written over a vertical bar."""
        return round(self.y - 3, 1)

    @property
    def label_y(self) -> float:
        """The baseline of the label written above a horizontal bar."""
        return round(self.y - 3, 1)

    @property
    def text_y(self) -> float:
        """The baseline of the count written after a horizontal bar."""
        return round(self.y + self.height - 2, 1)

    @property
    def count_x(self) -> float:
        return round(self.x + self.width + 4, 1)


@dataclass(frozen=True)
class Tick:
    """A label on a vertical chart's axis, anchored at ``x`` (start, middle or end)."""

    x: float
    label: str
    anchor: str


@dataclass(frozen=True)
class Chart:
    chart_id: str
    title: str
    description: str
    bars: tuple[DrawnBar, ...]
    ticks: tuple[Tick, ...] = ()
    width: int = WIDTH
    height: int = COUNT_ROOM + HEIGHT + LABEL_HEIGHT
    baseline: int = COUNT_ROOM + HEIGHT


def bar_chart(chart_id: str, title: str, description: str, bars: tuple[Bar, ...],
              ticks: tuple[str, str, str] = ("0 %", "50 %", "100 %")) -> Chart:
    """Vertical bars side by side, the tallest filling the height, each with its count over it (a
    zero count draws no bar, only its 0); the axis labelled at its start, middle and end."""
    tallest = max((bar.count for bar in bars), default=0) or 1
    step = WIDTH / max(len(bars), 1)
    drawn = []
    for index, bar in enumerate(bars):
        height = round(HEIGHT * bar.count / tallest, 1)
        drawn.append(DrawnBar(bar.label, bar.count, round(index * step + 1, 1), round(COUNT_ROOM + HEIGHT - height, 1),
                              round(step - 2, 1), height))
    return Chart(chart_id, title, description, tuple(drawn),
                 (Tick(0, ticks[0], "start"), Tick(WIDTH / 2, ticks[1], "middle"), Tick(WIDTH, ticks[2], "end")))


ROW_HEIGHT, BAR_HEIGHT = 30, 12  # a row: its label's line, then its bar


def row_chart(chart_id: str, title: str, description: str, bars: tuple[Bar, ...]) -> Chart:
    """Horizontal bars, one per row, each with its label whole above it and its count after it (for
    long labels: the stages' names)."""
    longest = max((bar.count for bar in bars), default=0) or 1
    room = WIDTH - 30  # and the count written after the bar
    drawn = tuple(DrawnBar(bar.label, bar.count, 0, index * ROW_HEIGHT + ROW_HEIGHT - BAR_HEIGHT - 2,
                           round(room * bar.count / longest, 1), BAR_HEIGHT) for index, bar in enumerate(bars))
    height = max(1, len(bars)) * ROW_HEIGHT
    return Chart(chart_id, title, description, drawn, height=height, baseline=height)
