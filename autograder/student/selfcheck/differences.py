"""Where a wrong output differs from the expected one, said precisely enough to find the line:
a constant factor, the expected columns or rows in another order (or repeated), rows normalised
where the expected ones are not, or which rows (else which sequences of a batch, which heads)
differ while the others are right.

A check that names no mistake still says more than "expected ..., got ...": these readings
compare the student's output with the expected output of the same input, position by position,
and compute nothing else.
"""

from __future__ import annotations

import torch

from .catalog import text

RTOL, ATOL = 1e-3, 1e-4


def _index_list(indices: list[int]) -> str:
    return "(" + ", ".join(str(index) for index in indices) + ")"


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


def _order_along(actual: torch.Tensor, expected: torch.Tensor, dim: int) -> list[int] | None:
    """For each slice of ``actual`` along ``dim``, the slice of ``expected`` it equals; None when
    one equals none."""
    order = []
    for index in range(actual.shape[dim]):
        mine = actual.select(dim, index)
        same = [other for other in range(expected.shape[dim])
                if torch.allclose(mine, expected.select(dim, other), rtol=RTOL, atol=ATOL)]
        if not same:
            return None
        order.append(index if index in same else same[0])
    return order


def _reordered(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """The expected columns (last dim) or rows (the dim before) in another order, or repeated."""
    for dim, key in ((-1, "diff.columns"), (-2, "diff.rows")):
        if actual.dim() < -dim or actual.shape[dim] < 2:
            continue
        order = _order_along(actual, expected, dim)
        if order is not None and order != list(range(actual.shape[dim])):
            return text(key, order=_index_list(order), right=_index_list(list(range(actual.shape[dim]))))
    return None


def _differing(wrong: torch.Tensor, dim: int) -> list[int] | None:
    """The indices along ``dim`` whose slices hold a wrong value, when others hold none."""
    slices = wrong.movedim(dim, 0).reshape(wrong.shape[dim], -1).any(dim=1)
    if slices.all() or not slices.any():
        return None
    return slices.nonzero().flatten().tolist()


def _slices_that_differ(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """Which rows (the dim before the last) differ, when some are right; else which indices of a
    leading dimension (a batch's sequences, the heads) differ, when some are right."""
    if actual.dim() < 2:
        return None
    wrong = ~torch.isclose(actual, expected, rtol=RTOL, atol=ATOL, equal_nan=True)
    rows = _differing(wrong, -2)
    if rows is not None:
        return text("diff.some_rows", rows=_index_list(rows))
    for dim in range(actual.dim() - 2):
        indices = _differing(wrong, dim)
        if indices is not None:
            return text("diff.some_slices", indices=_index_list(indices), dim=dim)
    return None


def where_it_differs(actual: torch.Tensor, expected: torch.Tensor) -> str | None:
    """How ``actual`` differs from ``expected`` (same shape), in a phrase; None when nothing
    more precise than the values can be said."""
    actual, expected = actual.detach().to("cpu", torch.float64), torch.as_tensor(expected, dtype=torch.float64)
    if actual.shape != expected.shape or actual.numel() < 2 or not torch.isfinite(actual).all():
        return None
    return (_factor(actual, expected) or _reordered(actual, expected) or _normalised(actual, expected)
            or _slices_that_differ(actual, expected))
