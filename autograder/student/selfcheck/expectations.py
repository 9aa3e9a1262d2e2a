"""The small comparisons the self-checks are made of; each failure becomes one line for the student.

A failed expectation raises ``Mismatch``: what was found, already worded in the notebook's
language (``catalog``), and apart from it the hint, the fix a student sees only when asking for
it (``hint("<stage>")``), and, for a recognised mistake in attention weights, the figure that
shows it (``figures``). Expected values are the book's printed numbers, small tensors written
out, invariants (rows sum to 1, no future leaks...), and the outputs the kit wrote down for the
checks' fixed inputs (``known``): a failed output that one named mistake of the catalogue gives
is named, as the hidden tests name it. Nothing here computes an answer.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from ..layer_names import DROPOUT, misnamed_dropout
from ..mistakes import MISTAKES
from . import known
from .catalog import hint_text, text
from .differences import where_it_differs
from .figures import MistakeFigure, figure_for

ATOL = 1e-4  # the book prints 4 decimals
SHOWN_VALUES = 8


class Mismatch(Exception):
    """A finding of a check, already worded for the student, the hint that would fix it, and the
    figure of the mistake when one shows it; ``key`` is the finding's message key and ``mistake``
    the id of the named mistake it names, if any (data, for whoever compares it with the grader);
    ``shows`` the mistake whose look the check's line says (the named one, or one it only states)
    and ``also`` what the line says after it."""

    def __init__(self, message: str, hint: str | None = None, figure: MistakeFigure | None = None,
                 key: str = "", mistake: str | None = None, raised: BaseException | None = None,
                 shows: str | None = None, also: str = ""):
        super().__init__(message)
        self.shows = shows if shows is not None else mistake
        self.also = also  # said last on the line, after what the mistake looks like (another stage to fix first)
        self.hint = hint
        self.figure = figure
        self.key = key
        self.mistake = mistake
        self.raised = raised  # the student's exception this finding reports, for the runner to read


def one_line(error: BaseException) -> str:
    """The first line of an error's message, cut short: a check's finding is one line."""
    lines = str(error).strip().splitlines()
    first = lines[0] if lines else ""
    return first if len(first) <= 300 else first[:297] + "..."


# Mistakes whose text a check uses to say what it saw, which other named mistakes may explain: the
# check states them and names none (weights that hide the future while tokens mix after them: heads
# split without a transpose, weights applied transposed...).
STATED_ONLY = frozenset({"tokens_mixed_outside_weights"})


def fail(key: str, hint: str | None = None, figure: MistakeFigure | None = None, names: bool = True,
         **fields) -> None:
    """Raise the finding ``key`` with its fields; ``hint`` is a hint's key or a mistake's id
    (shown on request), named as the mistake found unless ``names`` is false (its text then only
    says what the check saw, as a grader's finding of another name may too)."""
    mistake = mistake_of(hint) if names else None
    raise Mismatch(text(key, **fields), hint_text(hint) if hint else None, figure, key, mistake,
                   shows=hint if hint in STATED_ONLY else mistake)


def mistake_of(hint: str | None) -> str | None:
    """The named mistake a hint's key is, if it is one (not a ``hint.*``, the stage's idea, nor a
    mistake the checks only state)."""
    return hint if hint in MISTAKES and hint not in STATED_ONLY else None


def _index_text(index) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ")"


def show(value, start: int = 0) -> str:
    """A short, readable rendering of a tensor (or anything else) for a message, from the flat
    index ``start`` on (the first value that differs, so that two renderings show where they do).
    Values that are not finite are counted and located even when they lie beyond those shown."""
    if not isinstance(value, torch.Tensor):
        return type(value).__name__
    if value.numel() == 0:
        return text("is.empty_tensor")
    values = value.detach().to("cpu", torch.float64)
    flat = values.reshape(-1)
    start = max(0, min(start, value.numel() - SHOWN_VALUES))
    numbers = ", ".join(f"{x:.4f}" for x in flat[start:start + SHOWN_VALUES].tolist())
    shown = f"[{'..., ' if start else ''}{numbers}{', ...' if value.numel() > start + SHOWN_VALUES else ''}]"
    bad = ~torch.isfinite(values)
    if bad.any():
        first = bad.nonzero()[0]
        shown += " " + text("is.non_finite", count=int(bad.sum()), value=f"{values[tuple(first)].item()}",
                            index=_index_text(first))
    return shown


def shape_text(shape) -> str:
    return str(tuple(shape))


def expect_tensor(value, what: str) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        fail("not_tensor_none" if value is None else "not_tensor", what=what, got=type(value).__name__)
    return value


def _named(actual, case: str | None, hint: str) -> str:
    """The named mistake that ``actual`` reproduces on the case's input, else ``hint``."""
    return known.named_mistake(actual, case) or hint


def expect_shape(value, shape, what: str, hint: str, case: str | None = None) -> torch.Tensor:
    tensor = expect_tensor(value, what)
    if tuple(tensor.shape) != tuple(shape):
        fail("shape", what=what, expected=shape_text(shape), got=shape_text(tensor.shape),
             hint=_named(tensor, case, hint))
    return tensor


def close(actual: torch.Tensor, expected, atol: float = ATOL) -> bool:
    expected = torch.as_tensor(expected, dtype=torch.float64)
    actual = actual.detach().to("cpu", torch.float64)
    return actual.shape == expected.shape and torch.allclose(actual, expected, atol=atol, rtol=0)


def expect_close(actual, expected, what: str, hint: str, atol: float = ATOL, case: str | None = None,
                 weights=None, right_weights=None, names: bool = True) -> None:
    """``actual`` equals ``expected`` (to ``atol``). On the fixed input of ``case``, a failed output
    that a named mistake gives names it; a mistake in attention weights is drawn from ``weights``
    (the student's, by default ``actual``) beside ``right_weights`` (by default ``expected``).
    ``names``: whether ``hint``, a mistake's id, names the mistake found (see ``fail``)."""
    actual = expect_shape(actual, torch.as_tensor(expected).shape, what, hint, case)
    if close(actual, expected, atol):
        return
    mistake = known.named_mistake(actual, case)
    figure = figure_for(mistake, actual if weights is None else weights,
                        torch.as_tensor(expected) if right_weights is None else right_weights)
    where = None if mistake is not None else where_it_differs(actual, expected)
    start = _first_difference(actual, torch.as_tensor(expected), atol)
    fail("values" if where is None else "values_where", what=what, expected=show(torch.as_tensor(expected), start),
         got=show(actual, start), where=where, hint=mistake or hint, figure=figure,
         names=names or mistake is not None)


def _first_difference(actual: torch.Tensor, expected: torch.Tensor, atol: float) -> int:
    """The flat index of the first value that differs by more than ``atol`` (0 when none is found):
    the renderings start there, so that they never show only values that agree (a causal module's
    first token, which attends to itself alone whatever its scale)."""
    difference = (actual.detach().cpu().double() - expected.detach().cpu().double()).abs().reshape(-1)
    differing = (difference > atol) | difference.isnan()
    return int(differing.nonzero()[0]) if differing.any() else 0


def expect_attribute(module, name: str, kind: type, what: str, hint: str):
    value = getattr(module, name, None)
    if not isinstance(value, kind):
        fail("attribute", what=what, name=name, expected=kind.__name__,
             got=type(value).__name__, hint=hint)
    return value


def expect_raises(call: Callable[[], object], error: type[Exception], what: str, hint: str):
    try:
        call()
    except error as raised:
        return raised
    except Exception as other:  # noqa: BLE001 - student code: any other type is the finding
        fail("wrong_raise", what=what, expected=error.__name__, got=type(other).__name__,
             hint=hint)
    fail("no_raise", what=what, expected=error.__name__, hint=hint)


def call_student(hint: str, function: Callable, *args, **kwargs):
    """Call student code; a RuntimeError (usually a shape mismatch) gets the hint ``hint`` (a
    ``hint.*`` key) unless the runner reads a named mistake in the exception itself."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError:  # a RuntimeError too, but it has its own message
        raise
    except RuntimeError as error:
        raise Mismatch(text("raised", error_type="RuntimeError", error=one_line(error)), hint_text(hint),
                       key="raised", raised=error) from None


def rows_sum_to_one(weights: torch.Tensor, dim: int = -1) -> bool:
    sums = weights.detach().to(torch.float64).sum(dim=dim)
    return bool(torch.allclose(sums, torch.ones_like(sums), atol=1e-5))


# Future weights this small (a large negative fill such as -100 instead of -inf) are within the
# grader's tolerance of 0: the check passes them, with a note, as the grader passes them.
NEARLY_ZERO = 1e-6


def expect_causal_weights(weights: torch.Tensor, call: str, hint: str, case: str | None = None) -> None:
    """No NaN, zeros above the diagonal, rows summing to 1; on the fixed input of ``case`` a named
    mistake is named (and drawn)."""
    def failing(key: str, fallback: str, **fields):
        mistake = known.named_mistake(weights, case)
        right = known.expected(case) if case is not None else None
        fail(key, hint=mistake or fallback, figure=figure_for(mistake, weights, right), **fields)

    if torch.isnan(weights).any():
        failing("values", hint, what=call, expected=text("is.no_nan"), got=show(weights))
    num_tokens = weights.shape[-1]  # the future of query i: every key j > i
    above = torch.stack([weights.detach()[..., i, j] for i in range(num_tokens) for j in range(i + 1, num_tokens)])
    largest = float(above.abs().max()) if above.numel() else 0.0
    if largest > NEARLY_ZERO:
        failing("values", "hint.future_zero", what=text("what.above_diagonal", call=call),
                expected=text("is.all", value=0), got=show(above))
    if largest > 0:  # a large negative fill instead of -inf: within the grader's tolerance, told in a note
        from .worth_fixing import note  # worth_fixing reads this module's attention_weights

        note("note.future_not_exactly_zero", what=call, largest=f"{largest:.1e}")
    if not rows_sum_to_one(weights):
        failing("values", hint, what=text("what.row_sums", call=call), expected=text("is.all", value=1),
                got=show(weights.detach().sum(dim=-1)))


def attention_weights(module, x: torch.Tensor) -> torch.Tensor | None:
    """The weights ``module`` passes through its ``dropout`` layer on ``x``: None when it has no
    such layer, never calls it, or drops something that is not a (..., T, T) matrix of weights
    (dropout on the values or the outputs)."""
    caught = dropout_input(module, x)
    tokens = x.shape[-2]
    return caught if caught is not None and caught.shape[-2:] == (tokens, tokens) else None


def misnamed_dropout_of(module) -> str | None:
    """The name of ``module``'s one nn.Dropout when none is called ``dropout`` (``layer_names``)."""
    children = dict(module.named_children()) if isinstance(module, torch.nn.Module) else {}
    return misnamed_dropout({child: type(value).__name__ for child, value in children.items()})


def dropout_layer(module) -> torch.nn.Module | None:
    """``module``'s dropout layer: its ``dropout``, else its one nn.Dropout under another name
    (``layer_names``: a note, not a failure); None when it has neither."""
    layer = getattr(module, DROPOUT, None)
    if isinstance(layer, torch.nn.Module):
        return layer
    name = misnamed_dropout_of(module)
    return module.get_submodule(name) if name else None


def dropout_input(module, x: torch.Tensor) -> torch.Tensor | None:
    """What ``module``'s ``dropout`` layer receives on ``x`` (a forward hook sees it), or None when
    it has no such layer or never calls it."""
    layer = dropout_layer(module)
    if layer is None:
        return None
    caught = []
    hook = layer.register_forward_hook(lambda layer, inputs, output: caught.append(inputs[0]))
    try:
        with torch.no_grad():
            module(x)
    except Exception:  # noqa: BLE001 - the figure is a help; the check itself reports what raised
        return None
    finally:
        hook.remove()
    return caught[0] if caught and isinstance(caught[0], torch.Tensor) else None


# What weights that weigh later tokens read as (``leak_reading``).
LIT_FUTURE = ("future_leak", "mask_filled_with_zero", "mask_swapped")


def leak_reading(weights: torch.Tensor | None) -> str | None:
    """What the attention weights a module passed through its dropout say about a leaking output:
    ``future_leak`` when they themselves weigh a later token (``mask_swapped`` when they weigh every
    later token and no earlier one; ``mask_filled_with_zero`` when every
    later token of a row gets one and the same weight: their scores were all set to one number, not
    -inf); when they hide the future, the
    mistake their sums show (columns summing to 1: the softmax ran over the wrong dimension; rows
    summing to less than 1: the future was zeroed after the softmax; other sums: not normalised);
    and when they are right, tokens mixed outside the weights. None without weights to read, or
    where what passed the dropout holds negative numbers (the scores, dropped before the softmax:
    blind25's 114 was told a lit future of its scores, where the grader found heads merged by a view)."""
    if weights is None or not torch.isfinite(weights).all():
        return None
    matrices = weights.detach().to(torch.float64)
    tokens = matrices.shape[-1]
    positions = torch.arange(tokens)
    future = positions[None, :] > positions[:, None]  # key after query
    past = positions[None, :] < positions[:, None]  # key before query
    if matrices[..., future].abs().sum() > 0:
        if bool((matrices < 0).any()):
            return None  # negative entries: scores, not weights (dropped before the softmax): no mask to read
        if tokens > 2 and matrices[..., past].abs().sum() == 0 and bool((matrices[..., future] != 0).all()):
            return "mask_swapped"  # every later key weighed, every earlier one hidden: the mask the wrong way round
        return "mask_filled_with_zero" if _future_alike(matrices, future) else "future_leak"
    rows = matrices.sum(dim=-1)
    if torch.allclose(rows, torch.ones_like(rows), atol=1e-5):
        return "tokens_mixed_outside_weights"
    if rows_sum_to_one(matrices, dim=-2):
        return "softmax_wrong_dim"
    return "mask_after_softmax" if bool((rows <= 1 + 1e-5).all()) else "not_normalised"


def _future_alike(matrices: torch.Tensor, future: torch.Tensor) -> bool:
    """Whether each query's weights on its later tokens are all one positive value (rows with two
    later tokens or more, at least one of them): what scores set to one number before the softmax
    give, where no mask gives each later token a weight of its own."""
    rows = [matrices[..., query, future[query]] for query in range(future.shape[0]) if int(future[query].sum()) >= 2]
    return bool(rows) and all(bool((row > 0).all()) and torch.allclose(row, row[..., :1].expand_as(row), rtol=1e-5,
                                                                         atol=1e-9) for row in rows)


def expect_dropout_on_weights(module, x: torch.Tensor, call: str) -> None:
    """In training mode (the module built with dropout 0.5), the module drops its attention
    weights: its ``dropout`` layer receives (..., T, T) weights (the demos read them there), and
    when the layer is never called the output still differs from eval mode's (dropout inside
    F.scaled_dot_product_attention)."""
    module.train()
    dropped = dropout_input(module, x)
    tokens = x.shape[-2]
    if dropped is not None and tuple(dropped.shape[-2:]) != (tokens, tokens):
        if isinstance(getattr(module, DROPOUT, None), torch.nn.Module):
            fail("shape", what=text("what.dropped", call=call), expected=f"(..., {tokens}, {tokens})",
                 got=shape_text(dropped.shape), hint="dropout_on_output")
        # A layer of another name that drops something else (nanoGPT's resid_dropout, beside the
        # weights dropped inside F.scaled_dot_product_attention) is not the weights' dropout.
        dropped = None
    if dropped is None:
        with torch.no_grad():
            training = module(x)
            evaluating = module.eval()(x)
        module.train()
        if torch.equal(training, evaluating):
            fail("dropout_not_called", call=call, hint="dropout_missing")


def _moved(again: torch.Tensor, before: torch.Tensor) -> bool:
    """Whether an output moved: both finite (a NaN or an overflow says nothing about where the
    tokens came from) and no longer close."""
    again, before = again.detach(), before.detach()
    return bool(torch.isfinite(again).all()) and not close(again, before, atol=1e-6)


def same_draws(module, x: torch.Tensor, seed: int = 99) -> torch.Tensor:
    """``module(x)`` without gradients, its random numbers drawn from ``seed`` (the caller's stream
    left as it was): two inputs of one shape get the same draws, so a dropout the module applies in
    training mode (even one it fixed itself) drops the same entries in both, and a comparison of
    their outputs sees only what the inputs change."""
    with torch.random.fork_rng(devices=[]), torch.no_grad():
        torch.random.default_generator.manual_seed(seed)
        return module(x)


def expect_sequences_apart(module, x: torch.Tensor) -> None:
    """Each sequence of the batch ``x`` (at least two) is computed from its own tokens: changing the
    later sequences leaves the output of the first alone (else ``batch_mixed``), and changing the
    first leaves the later ones' alone (else ``batch_carried_over``: a flattened batch, a total
    carried on). Both outputs compared are drawn alike (``same_draws``)."""
    if x.shape[0] < 2:
        return
    out = same_draws(module, x)
    generator = torch.Generator().manual_seed(98)
    for changed, watched, what, mistake in ((slice(1, None), slice(0, 1), "what.batch_first", "batch_mixed"),
                                            (slice(0, 1), slice(1, None), "what.batch_later", "batch_carried_over")):
        other = x.clone()
        other[changed] = torch.randn(other[changed].shape, generator=generator, dtype=x.dtype)
        again = same_draws(module, other)
        if _moved(again[watched], out[watched]):
            fail("values", what=text(what), expected=text("is.unchanged"), got=text("is.changed"), hint=mistake)


def expect_no_future_leak(module, x: torch.Tensor, out: torch.Tensor, case: str | None = None) -> None:
    """Changing the tokens after position t leaves the outputs of positions 0..t alone, for every
    t. A leak is named from the evidence: the attention weights the module passes through its
    dropout (``leak_reading``) come first, so the upper triangle is said to be lit, and drawn, only
    when it is; weights that hide the future but are wrongly normalised get their own name and
    figure, and right weights point at what mixes tokens after them. Without weights to read, the
    named mistake that ``out`` reproduces (no mask, a mask filled with 0, a transposed mask), or the
    leak itself."""
    if not torch.isfinite(out).all():
        return  # a NaN is no leak (NaN != NaN): the comparison of the values says where it is
    expect_sequences_apart(module, x)  # a batch mixed across sequences would read as a leak
    generator = torch.Generator().manual_seed(97)
    drawn_alike = same_draws(module, x)  # compared with outputs drawn alike: a dropout drawn in training moves nothing
    for t in range(x.shape[1] - 1):
        changed = x.clone()
        changed[:, t + 1:] = torch.randn(changed[:, t + 1:].shape, generator=generator, dtype=x.dtype)
        again = same_draws(module, changed)
        if _moved(again[:, : t + 1], drawn_alike[:, : t + 1]):
            weights = attention_weights(module, x)
            reading = leak_reading(weights)
            named = known.named_mistake(out, case)
            if reading in LIT_FUTURE or reading is None:
                mistake = named or reading or "future_leak"
                drawn = "future_leak" if reading in LIT_FUTURE else None  # the lit upper triangle
            else:
                mistake = drawn = reading
            figure = figure_for(drawn, weights, known.weights(case) if case is not None else None)
            what = (text("what.no_leak_first", later=t + 1) if t == 0
                    else text("what.no_leak", position=t, later=t + 1))
            # With no weights to read and no named mistake that gives this output, the leak is all
            # the check saw: it says so, and names no cause (several faults, or one the book's small
            # sizes cannot tell apart, may give it; the grader's larger inputs name them).
            fail("values", what=what, expected=text("is.unchanged"), got=text("is.changed"), hint=mistake,
                 figure=figure, names=bool(named or reading))


def seeded(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def seed_weights(seed: int) -> None:
    """Like torch.manual_seed for module initialisation, touching only the CPU generator."""
    torch.random.default_generator.manual_seed(seed)
