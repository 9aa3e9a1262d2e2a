"""What the demos read as a module's attention weights must be its attention weights.

The notebooks' demos catch a module's weights where they pass through its ``dropout`` layer (a
forward hook) and draw them on the scale of a weight, from 0 to 1. A module that drops out its
scores before the softmax gives the right outputs with dropout 0, so the checks of its outputs
pass, while the demos draw its raw scores (up to 36 after training) as "attention weights". This
check compares what the layer receives on the book's batch with the right weights the kit wrote
down (``known``); nothing here computes them.
"""

from __future__ import annotations

import torch

from . import known
from .catalog import text
from .expectations import attention_weights, fail, show

ATOL = 1e-4  # the book prints 4 decimals


def expect_demo_weights(module, x: torch.Tensor, call: str, case: str) -> None:
    """What ``module`` (built with dropout 0) passes through ``self.dropout`` on ``x`` are its
    attention weights: for the first sequence, the right weights of ``case``. A module that does
    not pass a (..., T, T) matrix through ``self.dropout`` is left to the other checks (the demos
    then say that they cannot see its weights)."""
    right = known.weights(case)
    caught = attention_weights(module, x)
    if right is None or caught is None:
        return
    first = caught.detach()[0].to("cpu", torch.float64)
    if first.shape == right.shape and torch.allclose(first, right, atol=ATOL, rtol=0):
        return
    got = text("is.with_row_sums", values=show(first), sums=show(first.sum(dim=-1)))
    fail("values", what=text("what.demo_weights", call=call), expected=text("is.weights"), got=got,
         hint="dropout_before_softmax" if _scores_of(first, right) else "hint.demo_weights")


def _scores_of(caught: torch.Tensor, right: torch.Tensor) -> bool:
    """Whether ``caught`` are the scores of the right weights: masked and put through the softmax,
    scaled by 1/sqrt(d) for some key size d from 1 to 64 (or already scaled), they give them."""
    if caught.shape != right.shape:
        return False
    tokens = caught.shape[-1]
    future = torch.ones(tokens, tokens, dtype=torch.bool).triu(1)
    if not torch.isfinite(caught.masked_fill(future, 0.0)).all():
        return False
    masked = caught.masked_fill(future, -torch.inf)
    return any(torch.allclose(torch.softmax(masked / size**0.5, dim=-1), right, atol=ATOL, rtol=0)
               for size in range(1, 65))
