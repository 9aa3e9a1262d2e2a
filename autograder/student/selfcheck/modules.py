"""What every self-attention module of the course shares: built as the book builds it, it
outputs the book's numbers, hides the future, and a longer context changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from . import known
from .book import book_batch
from .catalog import text
from .demo_weights import expect_demo_weights
from .expectations import (
    attention_weights,
    expect_attribute,
    expect_buffer,
    expect_close,
    expect_no_future_leak,
    expect_shape,
    seed_weights,
)


def expect_book_module(cls: type, class_name: str, book_output: list, *, layers: Sequence[str], layers_hint: str,
                       values_hint: str, **kwargs) -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    """``cls(3, 2, 6, 0.0, **kwargs)`` under the book's seed 123: its ``layers`` are ``nn.Linear``, it
    keeps a buffer, on the book's batch it gives ``book_output`` (a failure that a named mistake
    gives is named, and one that leaks the future says so, with the module's weights drawn beside
    the right ones), what its ``dropout`` layer receives are the weights that the demos draw, it
    hides the future, and a context of 10 changes nothing. Returns the module, the batch and its
    output."""
    arguments = ", ".join(["3, 2, 6, 0.0", *(f"{key}={value}" for key, value in kwargs.items())])
    call, case = f"{class_name}({arguments})", class_name
    seed_weights(123)
    module = cls(3, 2, 6, 0.0, **kwargs)
    for name in layers:
        expect_attribute(module, name, nn.Linear, call, layers_hint)
    expect_buffer(module, call)
    batch = book_batch()
    what = text("what.seeded", call=call, seed=123)
    out = expect_shape(module(batch), (2, 6, 2), what, values_hint, case)
    expected = [book_output] * 2
    expect_no_future_leak(module, batch, out, case)  # a module that sees the future is told so first
    expect_close(out, expected, what, values_hint, case=case, weights=attention_weights(module, batch),
                 right_weights=known.weights(case))
    expect_demo_weights(module, batch, call, case)  # the demos draw what self.dropout receives as the weights
    seed_weights(123)
    expect_close(cls(3, 2, 10, 0.0, **kwargs)(batch), expected,
                 text("what.longer_context", call=class_name), "mask_not_sliced")
    return module, batch, out
