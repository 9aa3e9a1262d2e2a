"""A softmax of scores capped before ``exp`` (``x.clamp(max=80)``), read off its values: the
student's guard against overflow, where the notebook shifts each slice by its maximum.

A cap keeps every exponent finite but changes the weights: the scores above it all get the same
weight, so a slice of large, unequal scores comes out uniform. The cap is read from a slice
where some weights are tied and one is not (a weight ``w_j`` beside the tied ``w_top`` gives
``cap = x_j - log(w_j / w_top)``); where every slice is uniform, no cap is read (weights equal
everywhere say too little to name a cap). The reading holds only when the softmax of the capped
scores gives the answer's every value. The grader's explainer (``hidden.diagnosis.capped_scores``)
and the public check of ``softmax_stable`` both ask it.
"""

from __future__ import annotations

import torch

# Weights this close (relative) are tied; the whole answer must match to these tolerances.
_TIED, RTOL, ATOL = 1e-6, 1e-4, 1e-6


def _slices(tensor: torch.Tensor, dim: int) -> torch.Tensor:
    return tensor.detach().to("cpu", torch.float64).movedim(dim, -1).reshape(-1, tensor.shape[dim])


def _cap_from_a_slice(scores: torch.Tensor, weights: torch.Tensor) -> float | None:
    for x, w in zip(scores, weights, strict=True):
        if not torch.isfinite(w).all() or not torch.isfinite(x).all():
            continue
        top = w.max()
        tied = torch.isclose(w, top, rtol=_TIED, atol=0.0)
        below = ~tied & (w > 0)
        if int(tied.sum()) >= 2 and x[tied].max() > x[tied].min() and below.any():
            j = int(below.nonzero()[0])
            return float(x[j] - torch.log(w[j] / top))
    return None


def softmax_cap(x: torch.Tensor, actual: torch.Tensor, dim: int) -> float | None:
    """The cap that makes ``actual`` the softmax of ``x.clamp(max=cap)`` along ``dim`` (exp then the
    sum: a slice whose every exp underflows is NaN, 0 / 0, as the formula gives it), when one does
    and it cuts some score; None otherwise."""
    if not (isinstance(actual, torch.Tensor) and actual.shape == x.shape and x.numel() and actual.is_floating_point()):
        return None
    scores, weights = _slices(x, dim), _slices(actual, dim)
    cap = _cap_from_a_slice(scores, weights)
    if cap is None or not bool((scores > cap).any()):
        return None
    capped = scores.clamp(max=cap)
    not_a_number = torch.isnan(weights).any(dim=-1)
    # A NaN slice is one whose every exp underflows (in float32, at least: its answer may be float32).
    if not bool((torch.exp(capped[not_a_number].float()).sum(dim=-1) == 0).all()):
        return None
    kept = ~not_a_number
    return cap if torch.allclose(weights[kept], torch.softmax(capped[kept], dim=-1), rtol=RTOL, atol=ATOL) else None
