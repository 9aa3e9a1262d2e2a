"""The outputs the public checks know for their fixed inputs (``cases``): the right one, the right
attention weights where a figure can show them, and the output of each named mistake of the
hidden tests' catalogue.

A failed public check looks its output up here, as the hidden tests do with their own inputs:
when exactly one named mistake gives that output, the check names it. The file is data written
by the kit (``python -m autograder.notebooks.known_outputs``), never code that computes answers.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import torch

KNOWN_FILE = Path(__file__).resolve().parent / "known_outputs.json"
# Joins the ids of mistakes made together in one output (the grader's compare.COMBINED).
COMBINED = "+"
# A float32 output on the same input, computed in another order, is this close.
RTOL, ATOL = 1e-3, 1e-4


@functools.cache
def _cases() -> dict:
    return json.loads(KNOWN_FILE.read_text(encoding="utf-8"))["cases"]


def _tensor(values) -> torch.Tensor:
    return torch.tensor(values, dtype=torch.float64)


def expected(case: str) -> torch.Tensor:
    """The right output for the case's input."""
    return _tensor(_cases()[case]["expected"])


def weights(case: str) -> torch.Tensor | None:
    """The right attention weights of a module case, when a figure can show them."""
    found = _cases()[case].get("weights")
    return None if found is None else _tensor(found)


def mistakes(case: str) -> dict[str, list[torch.Tensor]]:
    """The outputs of the named mistakes on the case's input, by mistake id."""
    return {mistake_id: [_tensor(output) for output in outputs]
            for mistake_id, outputs in _cases()[case]["mistakes"].items()}


def _same(actual: torch.Tensor, wrong: torch.Tensor) -> bool:
    return actual.shape == wrong.shape and bool(torch.allclose(actual, wrong, rtol=RTOL, atol=ATOL, equal_nan=True))


def named_mistake(actual, case: str | None) -> str | None:
    """The one named mistake whose output on the case's input ``actual`` reproduces; None when
    none does, or when several different ones do (the evidence cannot tell which was made)."""
    if case is None or not isinstance(actual, torch.Tensor) or actual.is_complex():
        return None
    actual = actual.detach().to("cpu", torch.float64)
    found = {mistake_id for mistake_id, outputs in mistakes(case).items()
             if any(_same(actual, wrong) for wrong in outputs)}
    # An output that two mistakes give together is keyed by both ids ("first+second"): the check
    # names the one to fix first, as the grader's first finding does.
    return found.pop().split(COMBINED)[0] if len(found) == 1 else None
