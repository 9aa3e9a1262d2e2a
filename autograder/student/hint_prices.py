"""What the course charges for each stage's hints, as its points table said when the notebooks
were built.

The kit writes ``hint_prices.json`` from its ``[hint_charges]`` table
(``python -m autograder.notebooks.known_outputs``, run by `make assignments`; a kit test fails
when it is stale): per stage that costs anything, the points of tiers 1, 2 and 3. The public
checks say these prices where they offer a hint, before the student opens it; the grader charges
the highest tier opened, never more than the stage earned. A service's policy may set other
prices, which the notebook cannot know: the file holds the course's table only.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

PRICES_FILE = Path(__file__).resolve().parent / "hint_prices.json"


@functools.cache
def _prices() -> dict[str, list[float]]:
    try:
        return json.loads(PRICES_FILE.read_text(encoding="utf-8")).get("prices", {})
    except (OSError, ValueError):
        return {}  # a package built without the file charges nothing that it could say


def prices_of(stage: str) -> tuple[float, ...]:
    """The points of each tier of ``stage``'s hints (empty: they cost nothing)."""
    return tuple(_prices().get(stage, ()))


def price(stage: str, tier: int) -> float:
    """What opening ``tier`` of ``stage``'s hints costs (0: nothing)."""
    prices = prices_of(stage)
    return prices[tier - 1] if 1 <= tier <= len(prices) else 0.0
