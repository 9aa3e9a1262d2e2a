"""Where a wrong output differs from the expected one, said precisely enough to find the line:
a constant factor, the expected columns or rows in another order (or repeated), rows normalised
where the expected ones are not, or which rows (else which sequences of a batch, which heads)
differ while the others are right.

A check that names no mistake still says more than "expected ..., got ...": these readings
compare the student's output with the expected output of the same input, position by position,
and compute nothing else. The orders and the slices are read in ``reading.differences``, which
the grader reads them with too.
"""

from __future__ import annotations

import torch

from ..reading.differences import ATOL, RTOL, index_text, reordered, slices_that_differ
from .catalog import text


def _factor(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """Every value is the expected one times the same number (not 0, not 1)."""
    nonzero = expected.abs() > ATOL
    if not nonzero.any() or not torch.allclose(actual[~nonzero], torch.zeros_like(actual[~nonzero]), atol=ATOL):
        return None
    ratios = actual[nonzero] / expected[nonzero]
    factor = ratios.mean().item()
    if abs(factor) < ATOL or abs(factor - 1) < RTOL or not torch.allclose(ratios, torch.full_like(ratios, factor),
                                                                            rtol=RTOL, atol=ATOL):
        return None
    return text("diff.factor", factor=f"{factor:.4g}", inverse=f"{1 / factor:.4g}")


def _normalised(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """Each row (last dim) sums to 1 and holds no negative value, where the expected rows do not:
    the output was normalised (a softmax where none belongs, say)."""
    ones = torch.ones(actual.shape[:-1], dtype=actual.dtype)
    rows_are_weights = bool((actual >= 0).all()) and torch.allclose(actual.sum(dim=-1), ones, atol=ATOL)
    if actual.shape[-1] < 2 or not rows_are_weights or torch.allclose(expected.sum(dim=-1), ones, atol=ATOL):
        return None
    return text("diff.normalised")


def _reordered_text(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    found = reordered(actual, expected)
    if found is None:
        return None
    dim, order = found
    return text("diff.columns" if dim == -1 else "diff.rows", order=index_text(order),
                right=index_text(list(range(actual.shape[dim]))))


def _slices_text(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    found = slices_that_differ(actual, expected)
    if found is None:
        return None
    dim, indices = found
    if dim == -2:
        return text("diff.some_rows", rows=index_text(indices))
    return text("diff.some_slices", indices=index_text(indices), dim=dim)


def where_it_differs(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """How ``actual`` differs from ``expected`` (same shape), in a phrase; None when nothing
    more precise than the values can be said."""
    actual, expected = actual.detach().to("cpu", torch.float64), torch.as_tensor(expected, dtype=torch.float64)
    if actual.shape != expected.shape or actual.numel() < 2 or not torch.isfinite(actual).all():
        return None
    return (_factor(actual, expected) or _reordered_text(actual, expected) or _normalised(actual, expected)
            or _slices_text(actual, expected))
