"""What the demos read as a module's attention weights must be its attention weights.

The notebooks' demos catch a module's weights where they pass through its ``dropout`` layer (a
forward hook) and draw them on the scale of a weight, from 0 to 1. A module that drops out its
scores before the softmax gives the right outputs with dropout 0, so the checks of its outputs
pass, while the demos draw its raw scores (up to 36 after training) as "attention weights". This
check reads what the layer receives on the book's batch as weights, and names the mistake when
those are the scores of the right weights the kit wrote down (``known``); nothing here computes
them.
"""

from __future__ import annotations

import torch

from . import known
from .catalog import text
from .expectations import attention_weights, fail, show

ATOL = 1e-4  # the book prints 4 decimals


def expect_demo_weights(module, x: torch.Tensor, call: str, case: str) -> None:
    """What ``module`` (built with dropout 0) passes through ``self.dropout`` on ``x`` are attention
    weights: every (T, T) matrix of it, in whatever layout of batch and heads, holds values from 0
    to 1 in rows that sum to 1. Scores that give the right weights of ``case`` once put through the
    softmax are named as dropout before the softmax. A module that does not pass a (..., T, T)
    matrix through ``self.dropout`` is left to the other checks."""
    caught = attention_weights(module, x)
    if caught is None:
        return
    tokens = caught.shape[-1]
    matrices = caught.detach().to("cpu", torch.float64).reshape(-1, tokens, tokens)
    if _are_weights(matrices):
        return
    first, right = matrices[0], known.weights(case)
    scores = right is not None and _scores_of(first, right.reshape(-1, tokens, tokens)[0])
    got = text("is.with_row_sums", values=show(first), sums=show(first.sum(dim=-1)))
    fail("values", what=text("what.demo_weights", call=call), expected=text("is.weights"), got=got,
         hint="dropout_before_softmax" if scores else "hint.demo_weights")


def _are_weights(matrices: torch.Tensor) -> bool:
    if not torch.isfinite(matrices).all() or matrices.min() < -ATOL or matrices.max() > 1 + ATOL:
        return False
    sums = matrices.sum(dim=-1)
    return bool(torch.allclose(sums, torch.ones_like(sums), atol=ATOL, rtol=0))


def _scores_of(caught: torch.Tensor, right: torch.Tensor) -> bool:
    """Whether ``caught`` are the scores behind the right weights: with the future hidden and put
    through the softmax, scaled by 1/sqrt(d) for the book's key sizes d (2 in CausalAttention, 1
    per head in MultiHeadAttention) or already scaled, they give them."""
    if caught.shape != right.shape:
        return False
    positions = torch.arange(caught.shape[-1])
    future = positions[None, :] > positions[:, None]  # key after query
    if not torch.isfinite(caught.masked_fill(future, 0.0)).all():
        return False
    masked = caught.masked_fill(future, -torch.inf)
    return any(torch.allclose(torch.softmax(masked / size**0.5, dim=-1), right, atol=ATOL, rtol=0)
               for size in (1, 2))
