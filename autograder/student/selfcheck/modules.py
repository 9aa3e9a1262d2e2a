"""What every self-attention module of the course shares: built as the book builds it, it
outputs the book's numbers, and a longer context changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from .book import book_batch
from .catalog import text
from .expectations import (
    expect_attribute,
    expect_buffer,
    expect_close,
    expect_shape,
    seed_weights,
)


def expect_book_module(cls: type, class_name: str, book_output: list, *, layers: Sequence[str], layers_hint: str,
                       values_hint: str, **kwargs) -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    """``cls(3, 2, 6, 0.0, **kwargs)`` under the book's seed 123: its ``layers`` are ``nn.Linear``, its
    mask is a buffer, and on the book's batch it gives ``book_output``, also with a context of 10.
    Returns the module, the batch and its output."""
    arguments = ", ".join(["3, 2, 6, 0.0", *(f"{key}={value}" for key, value in kwargs.items())])
    call = f"{class_name}({arguments})"
    seed_weights(123)
    module = cls(3, 2, 6, 0.0, **kwargs)
    for name in layers:
        expect_attribute(module, name, nn.Linear, call, layers_hint)
    expect_buffer(module, call)
    batch = book_batch()
    what = text("what.seeded", call=call, seed=123)
    out = expect_shape(module(batch), (2, 6, 2), what, values_hint)
    expect_close(out, [book_output] * 2, what, values_hint)
    seed_weights(123)
    expect_close(cls(3, 2, 10, 0.0, **kwargs)(batch), [book_output] * 2,
                 text("what.longer_context", call=class_name), "hint.mask_slice")
    return module, batch, out
