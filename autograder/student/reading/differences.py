"""Where a wrong output differs from the expected one, read position by position: the expected
columns or rows in another order (or repeated), or which rows (else which sequences of a batch,
which heads) differ while the others are right.

The public check says it in a phrase (``selfcheck.differences``) and the grader states it as
evidence (``hidden.diagnosis.where_it_differs``), so that both say the same thing of the same
answer. These readings compare two outputs of the same input and compute nothing else.
"""

from __future__ import annotations

import torch

# Two values are the same within these tolerances (the public check's inputs are float32).
RTOL, ATOL = 1e-3, 1e-4
# A slice is told right only when every value of it is right as the grader's float32 tests count
# right (``hidden.compare.TOLERANCES``): "the others are right" beside "11 of 12 values differ"
# would contradict the count (blind29/032).
RIGHT_RTOL, RIGHT_ATOL = 1e-4, 1e-5


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


def reordered(actual: torch.Tensor, expected: torch.Tensor) -> tuple[int, list[int]] | None:
    """The expected columns (last dim, -1) or rows (the dim before, -2) in another order, or
    repeated: the dim and, for each of its slices, the expected slice it holds. The grader states
    the same reading (``hidden.diagnosis.where_it_differs``)."""
    for dim in (-1, -2):
        if actual.dim() < -dim or actual.shape[dim] < 2:
            continue
        order = _order_along(actual, expected, dim)
        if order is not None and order != list(range(actual.shape[dim])):
            return dim, order
    return None


def _differing(wrong: torch.Tensor, dim: int) -> list[int] | None:
    """The indices along ``dim`` whose slices hold a wrong value, when others hold none."""
    slices = wrong.movedim(dim, 0).reshape(wrong.shape[dim], -1).any(dim=1)
    if slices.all() or not slices.any():
        return None
    return slices.nonzero().flatten().tolist()


def slices_that_differ(actual: torch.Tensor, expected: torch.Tensor) -> tuple[int, list[int]] | None:
    """Which rows (the dim before the last, -2) differ, when some are right; else which indices
    of a leading dimension (a batch's sequences, the heads) differ, when some are right: the dim
    and the indices. The grader states the same reading."""
    if actual.dim() < 2:
        return None
    wrong = ~torch.isclose(actual, expected, rtol=RIGHT_RTOL, atol=RIGHT_ATOL, equal_nan=True)
    rows = _differing(wrong, -2)
    if rows is not None:
        return -2, rows
    for dim in range(actual.dim() - 2):
        indices = _differing(wrong, dim)
        if indices is not None:
            return dim, indices
    return None


def index_text(indices) -> str:
    """Indices as both places quote them: ``(0, 2, 5)``."""
    return "(" + ", ".join(str(index) for index in indices) + ")"
