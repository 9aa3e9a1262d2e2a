"""What every self-attention module of the course shares: built as the book builds it, it
outputs the book's numbers, hides the future, and a longer context changes nothing."""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from ..reading import creation_order
from . import known
from .book import book_batch
from .catalog import text
from .demo_weights import expect_demo_weights
from .expectations import (
    attention_weights,
    expect_attribute,
    expect_close,
    expect_no_future_leak,
    expect_shape,
    fail,
    seed_weights,
    shape_text,
)
from .portable import expect_every_gradient, expect_follows_device, expect_follows_dtype
from .worth_fixing import note

# The query, key and value projections, which a module may keep fused in one layer of three times
# the features (GPT-2's c_attn), as the grader accepts: the three stacked, in that order.
PROJECTIONS = ("W_query", "W_key", "W_value")


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
    fused = fused_projection(module, 3, 2)
    for name in layers:
        if not (fused and name in PROJECTIONS):
            expect_attribute(module, name, nn.Linear, call, layers_hint)
            expect_layer_shape(getattr(module, name), name, 3, 2, call, layers_hint,
                               wide_hint="d_out_per_head" if "num_heads" in kwargs else None)
    if not kwargs.get("qkv_bias", False):
        for name in PROJECTIONS:
            if isinstance(getattr(module, name, None), nn.Linear) and getattr(module, name).bias is not None:
                fail("values", what=f"{call}.{name}.bias", expected=text("is.none"), got=text("is.a_bias"),
                     hint="qkv_bias_ignored")
    created = [] if fused else book_draws_in_place(module, list(layers), 123)
    # Fused or created in another order (the book's numbers are now in): computed the same and
    # graded the same, so told in a note.
    if fused:
        note("note.fused_projections", what=call, name=fused)
    if created:
        note("note.creation_order", what=call, got=", ".join(created), expected=", ".join(layers))
    batch = book_batch()
    what = text("what.seeded", call=call, seed=123)
    out = expect_shape(module(batch), (2, 6, 2), what, values_hint, case)
    expected = [book_output] * 2
    expect_no_future_leak(module, batch, out, case)  # a module that sees the future is told so first
    expect_close(out, expected, what, values_hint, case=case, weights=attention_weights(module, batch),
                 right_weights=known.weights(case))
    expect_demo_weights(module, batch, call, case)  # the demos draw what self.dropout receives as the weights
    expect_close(seeded_module(cls, layers, 3, 2, 10, 0.0, **kwargs)(batch), expected,
                 text("what.longer_context", call=class_name), "mask_not_sliced")
    # Backward in training mode, with biases: each bias must be used, and the dropout must not
    # overwrite what backward needs.
    training = {**kwargs, "qkv_bias": True}
    biased = ", ".join(["3, 2, 6, 0.0", *(f"{key}={value}" for key, value in training.items())])
    expect_biases(cls(3, 2, 6, 0.0, **training), f"{class_name}({biased})", 3, 2)
    dropping = ", ".join(["3, 2, 6, 0.5", *(f"{key}={value}" for key, value in training.items())])
    expect_portable(lambda: cls(3, 2, 6, 0.0, **kwargs), batch, call,
                    dropping=(lambda: cls(3, 2, 6, 0.5, **training), f"{class_name}({dropping})"))
    return module, batch, out


def expect_same_on_each_call(module: nn.Module, x: torch.Tensor, call: str) -> None:
    """A module with no dropout gives the same output on every call, as the grader checks (blind26:
    ``F.dropout(weights, p=0.1)`` in SelfAttention_v2, whose ``training`` is True unless given)."""
    with torch.no_grad():
        first, second = module(x), module(x)
    if isinstance(first, torch.Tensor) and isinstance(second, torch.Tensor) and first.shape == second.shape \
            and not torch.allclose(first, second, rtol=0, atol=0, equal_nan=True):  # NaN twice is the same answer
        fail("random_between_calls", what=call)


def expect_layer_shape(layer: nn.Linear, name: str, d_in: int, d_out: int, call: str, hint: str,
                       wide_hint: str | None = None) -> None:
    """A projection maps d_in features to d_out, and out_proj the d_out joined head features to
    d_out: its weight's shape, as the grader reads it, before a forward pass that would raise on it.
    ``wide_hint``: the hint where the layer is a whole number of times as wide as d_out (a module of
    heads that reads d_out as one head's size)."""
    expected = (d_out, d_in if name in PROJECTIONS else d_out)
    actual = tuple(layer.weight.shape)
    if actual != expected:
        wide = wide_hint is not None and actual[0] > d_out and actual[0] % d_out == 0
        fail("param_shape", what=call, name=f"{name}.weight", expected=shape_text(expected),
             got=shape_text(actual), hint=wide_hint if wide else hint)


def seeded_module(cls: type, layers: Sequence[str], *args, seed: int = 123, **kwargs) -> nn.Module:
    """``cls(*args, **kwargs)`` under ``seed`` (the book's 123 by default), its ``layers`` holding
    the numbers of the book's order whatever order they were created in (``book_draws_in_place``)."""
    seed_weights(seed)
    module = cls(*args, **kwargs)
    book_draws_in_place(module, list(layers), seed)
    return module


def book_draws_in_place(module: nn.Module, names: list[str], seed: int) -> list[str]:
    """When ``module``'s parts ``names`` (nn.Linear layers, or parameters drawn with torch.rand)
    were created under ``seed`` in another order than ``names`` (each then holds other random
    numbers than the book's, and a right forward gives other numbers), give each the numbers it
    gets in the book's order, so that the rest of the check looks at the computation; returns the
    order they were created in (empty when it is the book's, or not known: other parts, another
    initialisation)."""
    parts = {name: getattr(module, name, None) for name in names}
    if not creation_order.drawable(parts):
        return []
    created = creation_order.created_order(dict(module.named_parameters()), parts, seed)
    if created is None or list(created) == names:
        return []
    with torch.no_grad():
        for name, value in creation_order.drawn(parts, tuple(names), seed).items():
            module.get_parameter(name).copy_(value)
    return list(created)


def expect_biases(module: nn.Module, call: str, d_in: int, d_out: int) -> None:
    """``module``, built with ``qkv_bias=True`` (``call``), has a bias in each of its query, key
    and value projections, or in the one that fuses them."""
    fused = fused_projection(module, d_in, d_out)
    for name in (fused,) if fused else PROJECTIONS:
        if getattr(getattr(module, name, None), "bias", True) is None:
            fail("values", what=f"{call}.{name}.bias", expected=text("is.a_bias"), got=text("is.none"),
                 hint="qkv_bias_ignored")


def fused_projection(module: nn.Module, d_in: int, d_out: int) -> str | None:
    """The name of the one nn.Linear of ``3 * d_out`` features in which ``module`` keeps its query,
    key and value projections fused, with none of them apart; None when it keeps them otherwise."""
    if any(hasattr(module, name) for name in PROJECTIONS):
        return None
    return next((name for name, layer in module.named_children()
                 if isinstance(layer, nn.Linear) and (layer.in_features, layer.out_features) == (d_in, 3 * d_out)),
                None)


def expect_portable(build, x: torch.Tensor, call: str, dropping: tuple | None = None) -> None:
    """A module that ``build()`` makes, on ``x``, follows its input where the public inputs alone never
    go: made float64 with ``.double()`` it runs on float64; every parameter gets a gradient, in
    training mode with the dropout of the module that ``dropping`` builds and calls, if given (an
    in-place dropout on the weights breaks backward there); moved to a GPU with its input, it
    returns its output there."""
    expect_follows_dtype(lambda: build().double()(x.double()), text("what.float64", call=call))
    build_dropping, dropping_call = dropping or (build, call)
    expect_every_gradient(build_dropping(), x, dropping_call)
    module = build()
    expect_follows_device(module, [x], call, module=module)
