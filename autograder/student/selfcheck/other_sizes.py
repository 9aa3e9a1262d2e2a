"""Each stage on a second public input whose sizes are not the book's.

The book's running example fixes every size (6 tokens of 3 features, d_out = 2, 2 heads, keys of
2 features): a mask made 6 x 6, a scale written as sqrt(2) or a head size written as a number give
the book's numbers and fail anywhere else, as the grader's inputs show. So every stage is also run
on an input of other sizes (``cases``: the ``<stage>/other`` cases), and its output is compared
with the one the kit wrote down for it from the reference (``known``), naming a mistake of the
catalogue the same way as on the book's input. Nothing here computes an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from torch import nn

from . import known
from .cases import FUNCTION_CASES, MODULE_CASES
from .catalog import text
from .expectations import (
    attention_weights,
    expect_close,
    expect_no_future_leak,
    expect_shape,
    fail,
    one_line,
    shape_text,
)
from .modules import seeded_module


def expect_function_case(function: Callable, case: str, call: str, hint: str = "idea", atol: float | None = None
                         ) -> torch.Tensor:
    """``function`` on the input of ``case`` (``call`` says it in the student's terms) gives the
    output the kit wrote down; returns it."""
    _, build = FUNCTION_CASES[case]
    out = function(*build())
    right = known.expected(case)
    expect_close(out, right, call, hint, case=case, **({} if atol is None else {"atol": atol}))
    return out


def expect_module_case(cls: type, layers: Sequence[str], case: str, hint: str = "idea",
                       causal: bool = False) -> tuple[nn.Module, torch.Tensor, torch.Tensor]:
    """``cls`` built with the arguments of ``case`` under its seed (its ``layers`` holding the numbers
    of the reference's order, ``modules.seeded_module``) gives, on the case's input, the output the
    kit wrote down; a ``causal`` module is first probed for a leak of the future on that input.
    Returns the module, the input and the output."""
    class_name, args, kwargs, seed, build = MODULE_CASES[case]
    module = seeded_module(cls, layers, *args, seed=seed, **kwargs)
    x = build()
    arguments = ", ".join([*map(str, args), *(f"{key}={value}" for key, value in kwargs.items())])
    what = text("what.on_shape", call=f"{class_name}({arguments})", shape=shape_text(x.shape))
    right = known.expected(case)
    with torch.no_grad():
        out = expect_shape(module(x), right.shape, what, hint, case)
    if causal:
        expect_no_future_leak(module, x, out, case)
    expect_close(out, right, what, hint, case=case, weights=attention_weights(module, x),
                 right_weights=known.weights(case))
    expect_each_call_alone(module, lambda: seeded_module(cls, layers, *args, seed=seed, **kwargs), x,
                           f"{class_name}({arguments})")
    return module, x, out


def expect_each_call_alone(module: nn.Module, build: Callable[[], nn.Module], x: torch.Tensor, call: str) -> None:
    """``module``, already called on ``x``, called in a row on shorter inputs (fewer tokens, then
    fewer sequences as well) gives on each what a new module from ``build()`` gives: what one call
    leaves behind (a length, a mask kept in the module) must not change the next, as the grader
    checks. Only the two modules are compared, so an input a new module cannot answer says nothing."""
    before = x.shape
    for shorter in (x[..., : x.shape[-2] - 2, :], x[:1, : x.shape[-2] - 1] if x.dim() == 3 else x[:-1]):
        with torch.no_grad():
            try:
                alone = build()(shorter)
            except Exception:  # noqa: BLE001 - a new module fails here too: the other checks say why
                return
            try:
                again = module(shorter)
            except Exception as error:  # noqa: BLE001 - whatever the second call raises is the finding
                fail("called_again_raised", what=call, shape=shape_text(shorter.shape), before=shape_text(before),
                     error_type=type(error).__name__, error=one_line(error), hint="hint.each_call_alone")
        expect_close(again, alone, text("what.called_again", call=call, shape=shape_text(shorter.shape),
                                        before=shape_text(before)), "hint.each_call_alone", names=False)
        before = shorter.shape
