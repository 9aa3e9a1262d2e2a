"""What opening hints costs, and what a graded row is charged for them.

An instructor may charge for hints (none by default): points per tier, the highest tier opened
for a stage counting (tier 3 opened after tier 1 costs tier 3's price, not both). The prices come
as a table, ``{"every_stage": [t1, t2, t3], "<stage>": [t1, t2, t3]}``: a stage's own row, else
``every_stage``, else nothing. ``rubric.toml``'s ``[hint_charges]`` gives the course's table;
the service's policy of an assignment may replace it (``service/policy.py``).

The charge is taken after the stage's score and never exceeds what the stage earned, so a student
never loses points they did not earn; a row that was not graded (the grader's error among them)
is charged nothing. The row keeps each charge as data (``HintCharge``), rendered where shown.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from autograder.records.results import GradedRow, HintCharge
from autograder.student.records import TIERS

EVERY_STAGE = "every_stage"  # the table's row for every stage without a row of its own

# Why a table is refused, in English (the rubric's reader); the service's policy form words the
# same keys in the reader's language (``policy.hint_charges.<key>``).
PROBLEMS = {
    "not_a_table": "hint charges are a table of rows, each {tiers} numbers, got {typed}",
    "unknown_stage": "{stage} is no stage here (the stages: {stages}; or every_stage for all of them)",
    "not_three": "{stage}: give {tiers} prices, one per hint tier, got {typed}",
    "not_a_number": "{stage}: {typed} is not a number of points",
    "negative": "{stage}: a price is 0 or more points, not {typed}",
    "decreasing": "{stage}: a higher tier never costs less than a lower one ({typed})",
}


class HintPriceError(ValueError):
    """A table of hint prices that cannot be used: ``key`` (of ``PROBLEMS``) and its fields say why."""

    def __init__(self, key: str, **fields: object):
        self.key, self.fields = key, {"tiers": TIERS, **fields}
        super().__init__(PROBLEMS[key].format(**self.fields))


Prices = tuple[float, ...]  # the points of tiers 1 to TIERS


@dataclass(frozen=True)
class HintPrices:
    """The price of each hint tier, per stage (``stages``) or for every stage (``every_stage``)."""

    every_stage: Prices | None = None
    stages: Mapping[str, Prices] = field(default_factory=dict)

    def price(self, stage: str, tier: int) -> float:
        """What opening ``tier`` (at most) of ``stage``'s hints costs."""
        prices = self.stages.get(stage, self.every_stage)
        return prices[tier - 1] if prices is not None and 1 <= tier <= len(prices) else 0.0

    def of_stages(self, stages: Collection[str]) -> dict[str, Prices]:
        """The prices of each of ``stages`` that costs anything: what the student package carries."""
        priced = {stage: self.stages.get(stage, self.every_stage) for stage in stages}
        return {stage: prices for stage, prices in priced.items() if prices is not None and any(prices)}

    def table(self) -> dict[str, list[float]]:
        """As ``from_table`` reads it (the service stores it so)."""
        rows = {EVERY_STAGE: list(self.every_stage)} if self.every_stage is not None else {}
        return rows | {stage: list(prices) for stage, prices in self.stages.items()}

    @classmethod
    def from_table(cls, table: object, stages: Collection[str]) -> HintPrices:
        """The prices of ``table`` (see the module), whose rows may name ``stages`` only; raises
        HintPriceError when a row is not ``TIERS`` prices of 0 or more, each at least the one before."""
        if not isinstance(table, Mapping):
            raise HintPriceError("not_a_table", typed=repr(table))
        rows = {}
        for name, row in table.items():
            if name != EVERY_STAGE and name not in stages:
                raise HintPriceError("unknown_stage", stage=name, stages=", ".join(stages))
            rows[name] = _prices(str(name), row)
        every = rows.pop(EVERY_STAGE, None)
        return cls(every, rows)


def _prices(name: str, row: object) -> Prices:
    if not isinstance(row, (list, tuple)) or len(row) != TIERS:
        raise HintPriceError("not_three", stage=name, typed=repr(row))
    prices = []
    for value in row:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise HintPriceError("not_a_number", stage=name, typed=repr(value))
        if value < 0:
            raise HintPriceError("negative", stage=name, typed=f"{value:g}")
        prices.append(float(value))
    if prices != sorted(prices):
        raise HintPriceError("decreasing", stage=name, typed=", ".join(f"{price:g}" for price in prices))
    return tuple(prices)


def hint_charges(row: GradedRow, prices: HintPrices) -> tuple[HintCharge, ...]:
    """What ``row``'s hints cost under ``prices``, per stage whose price is above 0 and that earned
    points: the price, or what the stage earned when that is less. A row that was not graded (an
    error of the grader's, a missing notebook) is charged nothing."""
    if not row.graded:
        return ()
    earned = {total.stage: total.points for total in row.stage_totals()}
    charges = []
    for use in row.hints:
        price = prices.price(use.stage, use.tier)
        points = round(min(price, max(0.0, earned.get(use.stage, 0.0))), 2)
        if points > 0:
            charges.append(HintCharge(use.stage, use.tier, points, price))
    return tuple(charges)
