"""The small comparisons the self-checks are made of; each failure becomes one line for the student.

A failed expectation raises ``Mismatch``: what was found, already worded in the notebook's
language (``catalog``), and apart from it the hint, the fix a student sees only when asking for
it (``hint("<stage>")``). Expected values are the book's printed numbers, small tensors written
out, and invariants (rows sum to 1, no future leaks...); nothing here computes an answer.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from .catalog import hint_text, text

ATOL = 1e-4  # the book prints 4 decimals


class Mismatch(Exception):
    """A finding of a check, already worded for the student, and the hint that would fix it."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def one_line(error: BaseException) -> str:
    """The first line of an error's message, cut short: a check's finding is one line."""
    lines = str(error).strip().splitlines()
    first = lines[0] if lines else ""
    return first if len(first) <= 300 else first[:297] + "..."


def fail(key: str, hint: str | None = None, **fields) -> None:
    """Raise the finding ``key`` with its fields; ``hint`` is a hint's key (shown on request)."""
    raise Mismatch(text(key, **fields), hint_text(hint) if hint else None)


def show(value) -> str:
    """A short, readable rendering of a tensor (or anything else) for a message."""
    if not isinstance(value, torch.Tensor):
        return type(value).__name__
    if value.numel() == 0:
        return text("is.empty_tensor")
    flat = value.detach().to("cpu", torch.float64).reshape(-1)
    numbers = ", ".join(f"{x:.4f}" for x in flat[:8].tolist())
    return f"[{numbers}{', ...' if value.numel() > 8 else ''}]"


def shape_text(shape) -> str:
    return str(tuple(shape))


def expect_tensor(value, what: str) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        fail("not_tensor", what=what, got=type(value).__name__)
    return value


def expect_shape(value, shape, what: str, hint: str) -> torch.Tensor:
    tensor = expect_tensor(value, what)
    if tuple(tensor.shape) != tuple(shape):
        fail("shape", what=what, expected=shape_text(shape), got=shape_text(tensor.shape),
              hint=hint)
    return tensor


def close(actual: torch.Tensor, expected, atol: float = ATOL) -> bool:
    expected = torch.as_tensor(expected, dtype=torch.float64)
    actual = actual.detach().to("cpu", torch.float64)
    return actual.shape == expected.shape and torch.allclose(actual, expected, atol=atol, rtol=0)


def expect_close(actual, expected, what: str, hint: str, atol: float = ATOL) -> None:
    actual = expect_shape(actual, torch.as_tensor(expected).shape, what, hint)
    if not close(actual, expected, atol):
        fail("values", what=what, expected=show(torch.as_tensor(expected)), got=show(actual),
              hint=hint)


def expect_attribute(module, name: str, kind: type, what: str, hint: str):
    value = getattr(module, name, None)
    if not isinstance(value, kind):
        fail("attribute", what=what, name=name, expected=kind.__name__,
              got=type(value).__name__, hint=hint)
    return value


def expect_buffer(module, what: str) -> None:
    if "mask" not in dict(module.named_buffers()):
        fail("attribute", what=what, name="mask", expected=text("is.buffer"),
              got=type(getattr(module, "mask", None)).__name__, hint="hint.causal_buffer")


def expect_raises(call: Callable[[], object], error: type[Exception], what: str, hint: str):
    try:
        call()
    except error as raised:
        return raised
    except Exception as other:  # any other type is the finding
        fail("wrong_raise", what=what, expected=error.__name__, got=type(other).__name__,
              hint=hint)
    fail("no_raise", what=what, expected=error.__name__, hint=hint)


def call_student(hint: str, function: Callable, *args, **kwargs):
    """Call student code; a RuntimeError (usually a shape mismatch) gets the stage's hint."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError:  # a RuntimeError too, but it has its own message
        raise
    except RuntimeError as error:
        raise Mismatch(text("raised", error_type="RuntimeError", error=one_line(error)), hint_text(hint)) from None


def rows_sum_to_one(weights: torch.Tensor, dim: int = -1) -> bool:
    sums = weights.detach().to(torch.float64).sum(dim=dim)
    return bool(torch.allclose(sums, torch.ones_like(sums), atol=1e-5))


def expect_causal_weights(weights: torch.Tensor, call: str, hint: str) -> None:
    """No NaN, zeros above the diagonal, rows summing to 1."""
    if torch.isnan(weights).any():
        fail("values", what=call, expected=text("is.no_nan"), got=show(weights),
              hint=hint)
    num_tokens = weights.shape[-1]  # the future of query i: every key j > i
    above = torch.stack([weights.detach()[..., i, j] for i in range(num_tokens) for j in range(i + 1, num_tokens)])
    if above.abs().sum() != 0:
        fail("values", what=text("what.above_diagonal", call=call),
              expected=text("is.all", value=0), got=show(above), hint="hint.future_zero")
    if not rows_sum_to_one(weights):
        fail("values", what=text("what.row_sums", call=call), expected=text("is.all", value=1),
              got=show(weights.detach().sum(dim=-1)), hint=hint)


def expect_no_leak(module, x: torch.Tensor, out: torch.Tensor) -> None:
    """Changing the last token must leave the outputs of the earlier ones alone."""
    changed = x.clone()
    changed[:, -1] += 1.0
    expect_close(module(changed)[:, :-1], out[:, :-1].detach(), text("what.no_leak"),
                  "hint.no_leak", atol=1e-6)


def seeded(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def seed_weights(seed: int) -> None:
    """Like torch.manual_seed for module initialisation, touching only the CPU generator."""
    torch.random.default_generator.manual_seed(seed)


