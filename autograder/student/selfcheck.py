"""Public self-checks: one quick, friendly check per stage, called from the notebooks.

    from autograder.student.selfcheck import check
    check("softmax_naive")          # looks the definition up in the notebook's globals

Each check runs one small seeded case built on the book's printed numbers and on invariants
(rows sum to 1, no overflow, exact shapes, zeros above the diagonal, dropout identity in eval
mode, split/merge round trip). Passing it is a good sign, not the grade: the hidden tests compare
against the reference on many more shapes, dtypes and devices. This module never reads the
solutions and holds no reference implementation.

Messages come in the notebook's language: English here, translations in
``autograder/locales/<language>/selfcheck.json``. The notebook's code is the same in every
language, so ``check`` finds the language itself (see ``autograder.student.language.kernel_language``: the
notebook file the kernel runs, read for its metadata; English when unknown).
"""

from __future__ import annotations

import contextvars
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import torch
from torch import nn

from autograder.student import language as i18n
from autograder.student.curriculum import all_stages, assignment_of
from autograder.student.example import your_journey_inputs

# Every student-facing word of this module, in one place; the translations keep the keys and the
# {fields}. Code such as `causal_mask(4)` inside a message is not translated.
MESSAGES: dict[str, str] = {
    # The line a check prints.
    "passed": "✅ {stage} passed its public check",
    "failed": "❌ {stage}: {detail}",
    # What went wrong.
    "unknown_stage": "there is no stage called {stage!r}; the stages are: {known}",
    "not_defined": "not defined yet: run the cell that defines {stage}, then run this check again",
    "not_implemented": (
        "not implemented yet: replace the `raise NotImplementedError(...)` line(s) in its answer"
        " cell with your code"
    ),
    "not_implemented_elsewhere": (
        "not implemented yet: it stopped at NotImplementedError({reason!r}); finish that part first"
    ),
    "raised": "raised {error_type}: {error}",
    "not_tensor": "{what} should be a torch.Tensor, got {got} (is a `return` missing?)",
    "shape": "{what}: expected shape {expected}, got {got}. {hint}",
    "dtype": "{what}: expected dtype {expected}, got {got}. {hint}",
    "device": "{what}: expected a tensor on the {expected} device, got {got}. {hint}",
    "values": "{what}: expected {expected}, got {got}. {hint}",
    "attribute": "{what}: expected an attribute `{name}` of type {expected}, got {got}. {hint}",
    "param_shape": "{what}: `{name}` should have shape {expected}, got {got}. {hint}",
    "no_raise": "{what} should raise {expected}, but it returned normally. {hint}",
    "wrong_raise": "{what} should raise {expected}, but it raised {got}. {hint}",
    # What was looked at, and what was expected of it.
    "what.query_journey": "{call} (the scores of 'journey')",
    "what.other_sizes": "{call} for {tokens} tokens of size {size}",
    "what.row_journey": "row 1 (query 'journey') of {call}",
    "what.symmetric": "{call} (a symmetric matrix)",
    "what.on_shape": "{call} on x of shape {shape}",
    "what.sums_along": "the sums along dim={dim} of {call}",
    "what.row": "row {row} of {call}",
    "what.rows": "rows {rows} of {call}",
    "what.last_rows": "the last row of every sequence of {call}",
    "what.seeded": "{call} under torch.manual_seed({seed}), on the running example",
    "what.after_copy": "sa_v1.{name} after the copy",
    "what.the_copy": "sa_v1 after the copy",
    "what.above_diagonal": "the entries above the diagonal of {call}",
    "what.row_sums": "the row sums of {call}",
    "what.kept_values": "the values kept by {call}",
    "what.zero_fraction": "the fraction of zeros made by {call}",
    "what.same_seed": "two calls with generators seeded alike",
    "what.input_after": "x after the call",
    "what.longer_context": "{call} with context_length=10, on 6 tokens",
    "what.no_leak": "the outputs of the earlier tokens after changing the last token",
    "what.eval_mode": "{call} in eval mode",
    "what.split_entry": "split_heads(x, 3)[{b}, {h}, {t}] (head {h} of token {t})",
    "what.error_message": "the ValueError message",
    "what.round_trip": "merge_heads of split heads (a round trip)",
    "what.parameter_count": "the number of parameters of gpt2_small_attention()",
    "what.gpt2_setting": "the {setting} of gpt2_small_attention()",
    "is.all": "all {value}",
    "is.about": "about {value}",
    "is.finite": "finite numbers",
    "is.no_nan": "no NaN",
    "is.none": "None",
    "is.a_bias": "a bias vector",
    "is.the_same_mask": "the same mask",
    "is.different_masks": "different masks",
    "is.unchanged": "unchanged",
    "is.changed": "changed",
    "is.buffer": "registered buffer",
    "is.heads": "{count} CausalAttention modules",
    "is.module_list": "an nn.ModuleList of {count} heads",
    "is.nothing": "nothing",
    "is.view": "a view of x",
    "is.copy": "a copy",
    "is.names_sizes": "a message naming {a} and {b}",
    "is.module": "an nn.Module",
    "is.empty_tensor": "an empty tensor",
    # Hints, one per known mistake or stage.
    "hint.scores_for_query": "Take the dot product of the query with every row: inputs @ query.",
    "hint.scores_all": (
        "Row i holds the scores of token i against every token: inputs @ inputs.T, shape (T, T)."
    ),
    "hint.rows_sum_to_one": (
        "Each slice along `dim` must sum to 1: divide exp(x) by its sum over `dim`"
        " (keepdim=True so the shapes broadcast)."
    ),
    "hint.wrong_dim": (
        "The result is normalised over the wrong dimension: use the `dim` argument for both the"
        " sum and keepdim=True."
    ),
    "hint.softmax_values": "softmax(x)_i = exp(x_i) / sum_j exp(x_j), computed along `dim`.",
    "hint.overflow": (
        "exp(1000) overflows to inf: subtract x.max(dim=dim, keepdim=True).values before exp()."
    ),
    "hint.context_sum": (
        "Weight each input row by its attention weight and add the rows up:"
        " (T,) @ (T, d) -> (d,)."
    ),
    "hint.simple_self_attention": (
        "Scores inputs @ inputs.T, softmax over each row (dim=-1), then multiply by inputs."
    ),
    "hint.batched_transpose": (
        "Use keys.transpose(-2, -1), not keys.T: .T would also move the batch dimensions."
    ),
    "hint.no_scaling": "Divide the scores by sqrt(d_k), with d_k = keys.shape[-1].",
    "hint.masked_no_scaling": "Divide the scores by sqrt(d_k) (d_k ** 0.5) before the softmax.",
    "hint.scale_by_dk": "Divide by the square root of d_k (d_k ** 0.5), not by d_k itself.",
    "hint.sdp_values": (
        "Compute queries @ keys.transpose(-2, -1) / sqrt(d_k), with d_k = keys.shape[-1]."
    ),
    "hint.v1_params": (
        "Create self.W_query, self.W_key and self.W_value, in that order, each as"
        " nn.Parameter(torch.rand(d_in, d_out))."
    ),
    "hint.v1_values": (
        "Check the creation order (W_query, W_key, W_value), x @ W for the projections, scores"
        " divided by keys.shape[-1] ** 0.5, softmax over dim=-1, then @ values."
    ),
    "hint.v2_layers": (
        "Create self.W_query, self.W_key and self.W_value, in that order, as"
        " nn.Linear(d_in, d_out, bias=qkv_bias)."
    ),
    "hint.v2_values": (
        "Same computation as SelfAttention_v1, with the nn.Linear layers doing the projections."
    ),
    "hint.copy_transpose": (
        "nn.Linear stores its weight as (d_out, d_in) and computes x @ weight.T, so the v1"
        " matrix is sa_v2.W_query.weight.T (the same for W_key and W_value); copy it under"
        " torch.no_grad()."
    ),
    "hint.prefix_mean": "Row t of the output is the mean of rows 0..t of the input (per batch).",
    "hint.normalise_rows": (
        "Divide each row of the lower-triangular ones matrix by its row sum, so the rows average"
        " instead of add."
    ),
    "hint.softmax_mask": (
        "Fill the future positions (where tril == 0) with -inf, softmax over the last dim, then"
        " multiply by x."
    ),
    "hint.mask_bool": "Return a torch.bool tensor (for example with .bool() or dtype=torch.bool).",
    "hint.mask_future": (
        "True marks the hidden future: strictly above the diagonal, so torch.triu(..., diagonal=1)."
    ),
    "hint.mask_device": "Create the tensor on `device`, e.g. torch.ones(..., device=device).",
    "hint.renormalise": (
        "Zero the entries above the diagonal, then divide each row by its new sum"
        " (sum over dim=-1 with keepdim=True)."
    ),
    "hint.future_zero": "Every weight above the diagonal (a future token) must be exactly 0.",
    "hint.masked_softmax": (
        "masked_fill the positions above the diagonal with -inf, divide by sqrt(d_k), then"
        " softmax over the last dim."
    ),
    "hint.dropout_scale": (
        "Scale the kept values by 1 / (1 - p) so the expected value is unchanged."
    ),
    "hint.dropout_rate": "Each element should be zeroed with probability p.",
    "hint.dropout_generator": (
        "Draw the random numbers with torch.rand(..., generator=generator) so a seeded generator"
        " gives the same mask every time."
    ),
    "hint.dropout_identity": "When training is False or p == 0, return x unchanged.",
    "hint.dropout_all": "When p == 1 every element is dropped: return torch.zeros_like(x).",
    "hint.dropout_range": "Raise ValueError with a clear message when p is outside [0, 1].",
    "hint.dropout_inplace": "Do not modify x in place; return a new tensor.",
    "hint.causal_buffer": (
        "Register the mask with self.register_buffer('mask', torch.triu(torch.ones("
        "context_length, context_length), diagonal=1))."
    ),
    "hint.causal_layers": (
        "Create W_query, W_key, W_value (in that order) as nn.Linear(d_in, d_out, bias=qkv_bias)"
        " and self.dropout = nn.Dropout(dropout)."
    ),
    "hint.causal_values": (
        "Use queries @ keys.transpose(1, 2), masked_fill the future with -inf, divide by"
        " keys.shape[-1] ** 0.5, softmax over dim=-1, dropout, then @ values."
    ),
    "hint.mask_slice": (
        "Slice the mask to the current length, self.mask.bool()[:T, :T], so any"
        " T <= context_length works."
    ),
    "hint.no_leak": "Outputs for earlier tokens must not change when a later token changes.",
    "hint.eval_dropout": "In eval mode nn.Dropout is the identity; apply it through self.dropout.",
    "hint.wrapper_heads": (
        "Store the heads as self.heads = nn.ModuleList([CausalAttention(...) for _ in"
        " range(num_heads)])."
    ),
    "hint.wrapper_values": (
        "Concatenate the heads' outputs along the last dim: torch.cat(..., dim=-1)."
    ),
    "hint.wrapper_2d": (
        "Two heads of d_out=1 each, concatenated, give 2 output features:"
        " MultiHeadAttentionWrapper(d_in, 1, context_length, dropout, num_heads=2)."
    ),
    "hint.split_layout": (
        "Reshape with x.view(b, T, num_heads, head_dim) first, then .transpose(1, 2); viewing"
        " straight to (b, h, T, hd) mixes tokens and heads."
    ),
    "hint.split_view": "Use view + transpose: the result should share memory with x (no copy).",
    "hint.split_error": (
        "Raise ValueError when d_out % num_heads != 0, naming both numbers in the message."
    ),
    "hint.merge_layout": (
        "Move the heads next to the features with x.transpose(1, 2), then"
        " .contiguous().view(b, T, h * hd)."
    ),
    "hint.merge_contiguous": (
        "view() needs contiguous memory after a transpose: call .contiguous() before .view()."
    ),
    "hint.mha_layers": (
        "Create W_query, W_key, W_value as nn.Linear(d_in, d_out, bias=qkv_bias), then"
        " out_proj = nn.Linear(d_out, d_out), in that order."
    ),
    "hint.mha_values": (
        "Project, split into heads, scale by sqrt(head_dim), mask the future with -inf, softmax,"
        " dropout, multiply by the values, merge the heads, then apply out_proj."
    ),
    "hint.gpt2": (
        "GPT-2 small: MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0,"
        " num_heads=12)."
    ),
}

_ATOL = 1e-4  # the book prints 4 decimals


# The messages of the check being run, in its notebook's language.
_messages: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar("selfcheck_messages",
                                                                              default=MESSAGES)


def _message(key: str) -> str:
    return _messages.get()[key]


def _text(key: str, **fields) -> str:
    return _message(key).format(**fields)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one public check; `message` is the line shown to the student."""

    passed: bool
    message: str


class _Mismatch(Exception):
    """A finding of a check, already worded for the student."""


def _fail(key: str, **fields) -> None:
    raise _Mismatch(_text(key, **fields))


# ---------------------------------------------------------------- small comparison helpers


def _show(value) -> str:
    """A short, readable rendering of a tensor (or anything else) for a message."""
    if not isinstance(value, torch.Tensor):
        return type(value).__name__
    if value.numel() == 0:
        return _text("is.empty_tensor")
    flat = value.detach().to("cpu", torch.float64).reshape(-1)
    numbers = ", ".join(f"{x:.4f}" for x in flat[:8].tolist())
    return f"[{numbers}{', ...' if value.numel() > 8 else ''}]"


def _shape(shape) -> str:
    return str(tuple(shape))


def _tensor(value, what: str) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        _fail("not_tensor", what=what, got=type(value).__name__)
    return value


def _expect_shape(value, shape, what: str, hint: str) -> torch.Tensor:
    tensor = _tensor(value, what)
    if tuple(tensor.shape) != tuple(shape):
        _fail("shape", what=what, expected=_shape(shape), got=_shape(tensor.shape),
              hint=_message(hint))
    return tensor


def _close(actual: torch.Tensor, expected, atol: float = _ATOL) -> bool:
    expected = torch.as_tensor(expected, dtype=torch.float64)
    actual = actual.detach().to("cpu", torch.float64)
    return actual.shape == expected.shape and torch.allclose(actual, expected, atol=atol, rtol=0)


def _expect_close(actual, expected, what: str, hint: str, atol: float = _ATOL) -> None:
    actual = _expect_shape(actual, torch.as_tensor(expected).shape, what, hint)
    if not _close(actual, expected, atol):
        _fail("values", what=what, expected=_show(torch.as_tensor(expected)), got=_show(actual),
              hint=_message(hint))


def _expect_attribute(module, name: str, kind: type, what: str, hint: str):
    value = getattr(module, name, None)
    if not isinstance(value, kind):
        _fail("attribute", what=what, name=name, expected=kind.__name__,
              got=type(value).__name__, hint=_message(hint))
    return value


def _expect_buffer(module, what: str) -> None:
    if "mask" not in dict(module.named_buffers()):
        _fail("attribute", what=what, name="mask", expected=_text("is.buffer"),
              got=type(getattr(module, "mask", None)).__name__, hint=_message("hint.causal_buffer"))


def _expect_raises(call: Callable[[], object], error: type[Exception], what: str, hint: str):
    try:
        call()
    except error as raised:
        return raised
    except Exception as other:  # any other type is the finding
        _fail("wrong_raise", what=what, expected=error.__name__, got=type(other).__name__,
              hint=_message(hint))
    _fail("no_raise", what=what, expected=error.__name__, hint=_message(hint))


def _call(hint: str, function: Callable, *args, **kwargs):
    """Call student code; a RuntimeError (usually a shape mismatch) gets the stage's hint."""
    try:
        return function(*args, **kwargs)
    except NotImplementedError:  # a RuntimeError too, but it has its own message
        raise
    except RuntimeError as error:
        raise _Mismatch(_text("raised", error_type="RuntimeError", error=_one_line(error))
                        + " " + _message(hint)) from None


def _rows_sum_to_one(weights: torch.Tensor, dim: int = -1) -> bool:
    sums = weights.detach().to(torch.float64).sum(dim=dim)
    return bool(torch.allclose(sums, torch.ones_like(sums), atol=1e-5))


def _expect_causal_weights(weights: torch.Tensor, call: str, hint: str) -> None:
    """No NaN, zeros above the diagonal, rows summing to 1."""
    if torch.isnan(weights).any():
        _fail("values", what=call, expected=_text("is.no_nan"), got=_show(weights),
              hint=_message(hint))
    above = weights.detach().triu(diagonal=1)
    if above.abs().sum() != 0:
        _fail("values", what=_text("what.above_diagonal", call=call),
              expected=_text("is.all", value=0), got=_show(above), hint=_message("hint.future_zero"))
    if not _rows_sum_to_one(weights):
        _fail("values", what=_text("what.row_sums", call=call), expected=_text("is.all", value=1),
              got=_show(weights.detach().sum(dim=-1)), hint=_message(hint))


def _expect_no_leak(module, x: torch.Tensor, out: torch.Tensor) -> None:
    """Changing the last token must leave the outputs of the earlier ones alone."""
    changed = x.clone()
    changed[:, -1] += 1.0
    _expect_close(module(changed)[:, :-1], out[:, :-1].detach(), _text("what.no_leak"),
                  "hint.no_leak", atol=1e-6)


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _seed(seed: int) -> None:
    """Like torch.manual_seed for module initialisation, touching only the CPU generator."""
    torch.random.default_generator.manual_seed(seed)


# ---------------------------------------------------------------- the book's printed numbers

BOOK_SCORES_2 = [0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865]
BOOK_WEIGHTS_2 = [0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]
BOOK_CONTEXT_1 = [0.4421, 0.5931, 0.5790]
BOOK_CONTEXT_2 = [0.4419, 0.6515, 0.5683]
BOOK_V1_SCORES_2 = [1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440]  # seed 123, unscaled
BOOK_SELF_ATTENTION_V1 = [[0.2996, 0.8053], [0.3061, 0.8210], [0.3058, 0.8203],
                          [0.2948, 0.7939], [0.2927, 0.7891], [0.2990, 0.8040]]
BOOK_SELF_ATTENTION_V2 = [[-0.0739, 0.0713], [-0.0748, 0.0703], [-0.0749, 0.0702],
                          [-0.0760, 0.0685], [-0.0763, 0.0679], [-0.0754, 0.0693]]
BOOK_CAUSAL_WEIGHTS_ROWS_1_2 = [[0.5517, 0.4483, 0.0, 0.0, 0.0, 0.0],
                                [0.3800, 0.3097, 0.3103, 0.0, 0.0, 0.0]]
BOOK_CAUSAL_ATTENTION = [[-0.4519, 0.2216], [-0.5874, 0.0058], [-0.6300, -0.0632],
                         [-0.5675, -0.0843], [-0.5526, -0.0981], [-0.5299, -0.1081]]
BOOK_WRAPPER = [[-0.4519, 0.2216, 0.4772, 0.1063], [-0.5874, 0.0058, 0.5891, 0.3257],
                [-0.6300, -0.0632, 0.6202, 0.3860], [-0.5675, -0.0843, 0.5478, 0.3589],
                [-0.5526, -0.0981, 0.5321, 0.3428], [-0.5299, -0.1081, 0.5077, 0.3493]]
BOOK_MULTI_HEAD = [[0.3190, 0.4858], [0.2943, 0.3897], [0.2856, 0.3593],
                   [0.2693, 0.3873], [0.2639, 0.3928], [0.2575, 0.4028]]
# The prefix means of torch.randn(4, 8, 2) under seed 42, batch 0 (the averaging walk-through).
SOURCE_PREFIX_MEANS = [[1.9269, 1.4873], [1.4138, -0.3091], [1.1687, -0.6176],
                       [0.8657, -0.8644], [0.5422, -0.3617], [0.3864, -0.5354]]
GPT2_SMALL_ATTENTION_PARAMETERS = 2_360_064


def _batch() -> torch.Tensor:
    inputs = your_journey_inputs()
    return torch.stack((inputs, inputs))  # (2, 6, 3): the book's batch of two copies


def _book_causal_scores() -> torch.Tensor:
    """The running example's scores with the book's SelfAttention_v2 weights (seed 789)."""
    _seed(789)
    w_query, w_key = nn.Linear(3, 2, bias=False), nn.Linear(3, 2, bias=False)
    inputs = your_journey_inputs()
    with torch.no_grad():
        return w_query(inputs) @ w_key(inputs).T  # (6, 6)


# ---------------------------------------------------------------- 01_attention_scores


def _check_attention_scores_for_query(ns):
    inputs = your_journey_inputs()
    scores = ns["attention_scores_for_query"](inputs, inputs[1])
    what = _text("what.query_journey", call="attention_scores_for_query(inputs, inputs[1])")
    _expect_close(scores, BOOK_SCORES_2, what, "hint.scores_for_query")


def _check_attention_scores(ns):
    f, call = ns["attention_scores"], "attention_scores(inputs)"
    _expect_shape(f(torch.randn(4, 5, generator=_gen(0))), (4, 4),
                  _text("what.other_sizes", call=call, tokens=4, size=5), "hint.scores_all")
    scores = _expect_shape(f(your_journey_inputs()), (6, 6), call, "hint.scores_all")
    _expect_close(scores[1], BOOK_SCORES_2, _text("what.row_journey", call=call), "hint.scores_all")
    _expect_close(scores, scores.detach().T, _text("what.symmetric", call=call), "hint.scores_all")


def _check_softmax(ns, stage: str):
    f = ns[stage]
    _expect_close(f(torch.tensor(BOOK_SCORES_2)), BOOK_WEIGHTS_2,
                  f"{stage}(attention_scores_for_query(inputs, inputs[1]))", "hint.softmax_values")
    x = torch.randn(3, 4, generator=_gen(1))
    for dim in (-1, 0):
        call = f"{stage}(x, dim={dim})"
        what = _text("what.on_shape", call=call, shape="(3, 4)")
        weights = _expect_shape(f(x, dim=dim), (3, 4), what, "hint.rows_sum_to_one")
        if not _rows_sum_to_one(weights, dim):
            other = 0 if dim == -1 else -1
            hint = "hint.wrong_dim" if _rows_sum_to_one(weights, other) else "hint.rows_sum_to_one"
            _fail("values", what=_text("what.sums_along", dim=dim, call=call),
                  expected=_text("is.all", value=1), got=_show(weights.detach().sum(dim=dim)),
                  hint=_message(hint))
        _expect_close(weights, torch.softmax(x, dim=dim), what, "hint.softmax_values", atol=1e-5)


def _check_softmax_naive(ns):
    _check_softmax(ns, "softmax_naive")


def _check_softmax_stable(ns):
    big = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0]])
    call = "softmax_stable([[1000, 1001, 1002], [-1000, -1001, -1002]])"
    weights = _expect_shape(ns["softmax_stable"](big), (2, 3), call, "hint.overflow")
    if not torch.isfinite(weights).all():
        _fail("values", what=call, expected=_text("is.finite"), got=_show(weights),
              hint=_message("hint.overflow"))
    _expect_close(weights, [[0.0900, 0.2447, 0.6652], [0.6652, 0.2447, 0.0900]], call,
                  "hint.overflow")
    _check_softmax(ns, "softmax_stable")


def _check_context_vector(ns):
    inputs = your_journey_inputs()
    weights = torch.softmax(inputs @ inputs[1], dim=0)  # (T,) the weights of query 'journey'
    _expect_close(ns["context_vector"](weights, inputs), BOOK_CONTEXT_2,
                  "context_vector(softmax(inputs @ inputs[1]), inputs)", "hint.context_sum")


def _check_simple_self_attention(ns):
    call = "simple_self_attention(inputs)"
    context = _expect_shape(ns["simple_self_attention"](your_journey_inputs()), (6, 3), call,
                            "hint.simple_self_attention")
    _expect_close(context[:2], [BOOK_CONTEXT_1, BOOK_CONTEXT_2],
                  _text("what.rows", rows="0-1", call=call), "hint.simple_self_attention")


# ---------------------------------------------------------------- 02_self_attention


def _check_scaled_dot_product_scores(ns):
    f = ns["scaled_dot_product_scores"]
    generator = _gen(123)  # the book's W_query, W_key under torch.manual_seed(123)
    w_query, w_key = torch.rand(3, 2, generator=generator), torch.rand(3, 2, generator=generator)
    inputs = your_journey_inputs()
    queries, keys = inputs @ w_query, inputs @ w_key  # (6, 2) each
    call = "scaled_dot_product_scores(queries, keys)"
    scores = _expect_shape(_call("hint.batched_transpose", f, queries, keys), (6, 6), call,
                           "hint.sdp_values")
    expected = torch.tensor(BOOK_V1_SCORES_2) / 2**0.5
    row_1 = _text("what.row_journey", call=call)
    for wrong, hint in ((BOOK_V1_SCORES_2, "hint.no_scaling"),
                        (torch.tensor(BOOK_V1_SCORES_2) / 2, "hint.scale_by_dk")):
        if _close(scores[1], wrong):
            _fail("values", what=row_1, expected=_show(expected), got=_show(scores[1]),
                  hint=_message(hint))
    _expect_close(scores[1], expected, row_1, "hint.sdp_values")
    batched = _call("hint.batched_transpose", f, torch.stack((queries, queries)),
                    torch.stack((keys, keys)))
    _expect_close(batched, torch.stack((scores, scores)).detach(),
                  "scaled_dot_product_scores(queries (2, 6, 2), keys (2, 6, 2))",
                  "hint.batched_transpose")
    _expect_shape(_call("hint.batched_transpose", f, torch.randn(2, 3, 4, generator=generator),
                        torch.randn(2, 5, 4, generator=generator)),
                  (2, 3, 5), "scaled_dot_product_scores(queries (2, 3, 4), keys (2, 5, 4))",
                  "hint.batched_transpose")


def _check_self_attention_v1(ns):
    _seed(123)
    module = ns["SelfAttention_v1"](3, 2)
    for name in ("W_query", "W_key", "W_value"):
        parameter = _expect_attribute(module, name, nn.Parameter, "SelfAttention_v1(3, 2)",
                                      "hint.v1_params")
        if tuple(parameter.shape) != (3, 2):
            _fail("param_shape", what="SelfAttention_v1(3, 2)", name=name, expected="(3, 2)",
                  got=_shape(parameter.shape), hint=_message("hint.v1_params"))
    _expect_close(module(your_journey_inputs()), BOOK_SELF_ATTENTION_V1,
                  _text("what.seeded", call="SelfAttention_v1(3, 2)", seed=123), "hint.v1_values")
    _expect_shape(ns["SelfAttention_v1"](3, 5)(your_journey_inputs()), (6, 5),
                  "SelfAttention_v1(3, 5)(inputs)", "hint.v1_values")


def _check_self_attention_v2(ns):
    cls = ns["SelfAttention_v2"]
    _seed(789)
    module = cls(3, 2)
    for name in ("W_query", "W_key", "W_value"):
        layer = _expect_attribute(module, name, nn.Linear, "SelfAttention_v2(3, 2)",
                                  "hint.v2_layers")
        if layer.bias is not None:
            _fail("values", what=f"SelfAttention_v2(3, 2).{name}.bias", expected=_text("is.none"),
                  got=_text("is.a_bias"), hint=_message("hint.v2_layers"))
    _expect_close(module(your_journey_inputs()), BOOK_SELF_ATTENTION_V2,
                  _text("what.seeded", call="SelfAttention_v2(3, 2)", seed=789), "hint.v2_values")
    if cls(3, 2, qkv_bias=True).W_query.bias is None:
        _fail("values", what="SelfAttention_v2(3, 2, qkv_bias=True).W_query.bias",
              expected=_text("is.a_bias"), got=_text("is.none"), hint=_message("hint.v2_layers"))


def _check_copy_v2_weights_into_v1(ns):
    names = ("W_query", "W_key", "W_value")
    generator = _gen(31)
    sa_v1, sa_v2 = nn.Module(), nn.Module()  # stand-ins with the graded attribute names
    for name in names:
        setattr(sa_v1, name, nn.Parameter(torch.rand(3, 2, generator=generator)))
        layer = nn.Linear(3, 2, bias=False)
        with torch.no_grad():
            layer.weight.copy_(torch.randn(2, 3, generator=generator))
        setattr(sa_v2, name, layer)
    ns["copy_v2_weights_into_v1"](sa_v2, sa_v1)
    for name in names:
        copied = _expect_attribute(sa_v1, name, nn.Parameter, _text("what.the_copy"),
                                   "hint.copy_transpose")
        _expect_close(copied, getattr(sa_v2, name).weight.detach().T,
                      _text("what.after_copy", name=name), "hint.copy_transpose", atol=1e-6)


# ---------------------------------------------------------------- 03_causal_attention


def _check_causal_average(ns, stage: str, hint: str):
    x = torch.randn(4, 8, 2, generator=_gen(42))  # (B, T, C) as in the averaging walk-through
    call = f"{stage}(x)"
    out = _expect_shape(ns[stage](x), (4, 8, 2), _text("what.on_shape", call=call, shape="(4, 8, 2)"),
                        hint)
    if torch.isnan(out).any():
        _fail("values", what=call, expected=_text("is.no_nan"), got=_show(out), hint=_message(hint))
    if _close(out[0, 1], x[0, 0] + x[0, 1]):
        _fail("values", what=f"{stage}(x)[0, 1]", expected=_show(x[0, :2].mean(0)),
              got=_show(out[0, 1]), hint=_message("hint.normalise_rows"))
    _expect_close(out[0, :6], SOURCE_PREFIX_MEANS, _text("what.rows", rows="0-5", call=f"{call}[0]"),
                  hint)
    _expect_close(out[:, -1], x.mean(dim=1), _text("what.last_rows", call=call), hint)


def _check_causal_average_loop(ns):
    _check_causal_average(ns, "causal_average_loop", "hint.prefix_mean")


def _check_causal_average_matmul(ns):
    _check_causal_average(ns, "causal_average_matmul", "hint.normalise_rows")


def _check_causal_average_softmax(ns):
    _check_causal_average(ns, "causal_average_softmax", "hint.softmax_mask")


def _check_causal_mask(ns):
    f = ns["causal_mask"]
    mask = _expect_shape(f(4), (4, 4), "causal_mask(4)", "hint.mask_future")
    if mask.dtype != torch.bool:
        _fail("dtype", what="causal_mask(4)", expected="torch.bool", got=str(mask.dtype),
              hint=_message("hint.mask_bool"))
    expected = torch.ones(4, 4).triu(diagonal=1).bool()
    if not torch.equal(mask.cpu(), expected):
        _fail("values", what="causal_mask(4)", expected=str(expected.int().tolist()),
              got=str(mask.int().tolist()), hint=_message("hint.mask_future"))
    if f(1).tolist() != [[False]]:
        _fail("values", what="causal_mask(1)", expected="[[False]]", got=str(f(1).tolist()),
              hint=_message("hint.mask_future"))
    # Only the argument is tried here (a meta or GPU tensor would cost time); the hidden tests
    # check that the mask really lands on the requested device.
    call = "causal_mask(3, device=torch.device('cpu'))"
    on_cpu = _tensor(f(3, device=torch.device("cpu")), call)
    if on_cpu.device.type != "cpu":
        _fail("device", what=call, expected="cpu", got=on_cpu.device.type,
              hint=_message("hint.mask_device"))


def _check_mask_and_renormalize(ns):
    f, hint = ns["mask_and_renormalize"], "hint.renormalise"
    call = "mask_and_renormalize(torch.full((4, 4), 0.25))"
    _expect_causal_weights(_expect_shape(f(torch.full((4, 4), 0.25)), (4, 4), call, hint), call,
                           hint)
    book_weights = torch.softmax(_book_causal_scores() / 2**0.5, dim=-1)  # the book's (6, 6)
    _expect_close(f(book_weights)[1:3], BOOK_CAUSAL_WEIGHTS_ROWS_1_2,
                  _text("what.rows", rows="1-2", call="mask_and_renormalize(attn_weights)"), hint)
    weights = torch.softmax(torch.randn(2, 3, 5, 5, generator=_gen(5)), dim=-1)
    call = "mask_and_renormalize(attn_weights of shape (2, 3, 5, 5))"
    _expect_causal_weights(_expect_shape(f(weights), (2, 3, 5, 5), call, hint), call, hint)


def _check_masked_softmax(ns):
    f, hint = ns["masked_softmax"], "hint.masked_softmax"
    scores = _book_causal_scores()
    call = "masked_softmax(attn_scores, d_k=2)"
    weights = _expect_shape(f(scores, 2), (6, 6), call, hint)
    _expect_causal_weights(weights, call, hint)
    if _close(weights[1, :2], torch.softmax(scores[1, :2], dim=0), atol=1e-6):
        _fail("values", what=_text("what.row", row=1, call=call),
              expected=_show(torch.tensor(BOOK_CAUSAL_WEIGHTS_ROWS_1_2[0])),
              got=_show(weights[1]), hint=_message("hint.masked_no_scaling"))
    _expect_close(weights[1:3], BOOK_CAUSAL_WEIGHTS_ROWS_1_2, _text("what.rows", rows="1-2", call=call),
                  hint)
    call = "masked_softmax(attn_scores of shape (2, 3, 5, 5), d_k=4)"
    batched = f(torch.randn(2, 3, 5, 5, generator=_gen(6)), 4)
    _expect_causal_weights(_expect_shape(batched, (2, 3, 5, 5), call, hint), call, hint)


def _check_inverted_dropout(ns):
    f = ns["inverted_dropout"]
    x = torch.ones(4000)
    for p in (0.5, 0.2):
        call = f"inverted_dropout(torch.ones(4000), p={p})"
        out = _expect_shape(f(x, p, generator=_gen(123)), (4000,), call, "hint.dropout_rate")
        kept = out[out != 0]
        if not torch.allclose(kept, torch.full_like(kept, 1 / (1 - p))):
            _fail("values", what=_text("what.kept_values", call=call),
                  expected=_text("is.all", value=f"{1 / (1 - p):g}"), got=_show(kept),
                  hint=_message("hint.dropout_scale"))
        dropped = (out == 0).double().mean().item()
        if abs(dropped - p) > 0.05:  # more than 6 standard deviations away for 4000 draws
            _fail("values", what=_text("what.zero_fraction", call=call),
                  expected=_text("is.about", value=p), got=f"{dropped:.3f}",
                  hint=_message("hint.dropout_rate"))
    if not torch.equal(f(x, 0.5, generator=_gen(123)), f(x, 0.5, generator=_gen(123))):
        _fail("values", what=_text("what.same_seed"), expected=_text("is.the_same_mask"),
              got=_text("is.different_masks"), hint=_message("hint.dropout_generator"))
    if not torch.equal(x, torch.ones(4000)):
        _fail("values", what=_text("what.input_after"), expected=_text("is.unchanged"),
              got=_text("is.changed"), hint=_message("hint.dropout_inplace"))
    values = torch.randn(3, 4, generator=_gen(7))
    for call, out in (("inverted_dropout(x, 0.5, training=False)", f(values, 0.5, training=False)),
                      ("inverted_dropout(x, 0.0)", f(values, 0.0))):
        _expect_close(out, values, call, "hint.dropout_identity", atol=0)
    _expect_close(f(values, 1.0), torch.zeros(3, 4), "inverted_dropout(x, 1.0)", "hint.dropout_all",
                  atol=0)
    for p in (1.5, -0.1):
        _expect_raises(lambda p=p: f(values, p), ValueError, f"inverted_dropout(x, {p})",
                       "hint.dropout_range")


def _check_causal_attention(ns):
    cls, call = ns["CausalAttention"], "CausalAttention(3, 2, 6, 0.0)"
    _seed(123)
    module = cls(3, 2, 6, 0.0)
    for name in ("W_query", "W_key", "W_value"):
        _expect_attribute(module, name, nn.Linear, call, "hint.causal_layers")
    _expect_attribute(module, "dropout", nn.Dropout, call, "hint.causal_layers")
    _expect_buffer(module, call)
    batch = _batch()
    what = _text("what.seeded", call=call, seed=123)
    out = _expect_shape(module(batch), (2, 6, 2), what, "hint.causal_values")
    _expect_close(out, [BOOK_CAUSAL_ATTENTION] * 2, what, "hint.causal_values")
    _seed(123)
    _expect_close(cls(3, 2, 10, 0.0)(batch), [BOOK_CAUSAL_ATTENTION] * 2,
                  _text("what.longer_context", call="CausalAttention"), "hint.mask_slice")
    _expect_no_leak(module, batch, out)
    _seed(123)
    _expect_close(cls(3, 2, 6, 0.5).eval()(batch), [BOOK_CAUSAL_ATTENTION] * 2,
                  _text("what.eval_mode", call="CausalAttention(3, 2, 6, 0.5)"), "hint.eval_dropout")


# ---------------------------------------------------------------- 04_multi_head_attention


def _check_multi_head_attention_wrapper(ns):
    call = "MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)"
    _seed(123)
    wrapper = ns["MultiHeadAttentionWrapper"](3, 2, 6, 0.0, num_heads=2)
    heads = _expect_attribute(wrapper, "heads", nn.ModuleList, call, "hint.wrapper_heads")
    if len(heads) != 2 or any(type(head).__name__ != "CausalAttention" for head in heads):
        _fail("values", what=f"{call}.heads", expected=_text("is.heads", count=2),
              got=", ".join(type(head).__name__ for head in heads) or _text("is.nothing"),
              hint=_message("hint.wrapper_heads"))
    what = _text("what.seeded", call=call, seed=123)
    out = _expect_shape(wrapper(_batch()), (2, 6, 4), what, "hint.wrapper_values")
    _expect_close(out, [BOOK_WRAPPER] * 2, what, "hint.wrapper_values")


def _check_wrapper_with_2d_output(ns):
    module = ns["wrapper_with_2d_output"](3, 6, 0.0)
    heads = getattr(module, "heads", None)
    if not isinstance(heads, nn.ModuleList) or len(heads) != 2:
        _fail("values", what="wrapper_with_2d_output(3, 6, 0.0).heads",
              expected=_text("is.module_list", count=2), got=type(heads).__name__,
              hint=_message("hint.wrapper_2d"))
    _expect_shape(module(_batch()), (2, 6, 2), "wrapper_with_2d_output(3, 6, 0.0)(batch)",
                  "hint.wrapper_2d")


def _check_split_heads(ns):
    f = ns["split_heads"]
    x = torch.arange(2 * 5 * 12, dtype=torch.float32).reshape(2, 5, 12)  # (b, T, d_out)
    heads = _expect_shape(f(x, 3), (2, 3, 5, 4), _text("what.on_shape", call="split_heads(x, 3)",
                                                       shape="(2, 5, 12)"), "hint.split_layout")
    for b, h, t in ((0, 0, 0), (0, 1, 4), (1, 2, 3)):
        _expect_close(heads[b, h, t], x[b, t, 4 * h : 4 * h + 4],
                      _text("what.split_entry", b=b, h=h, t=t), "hint.split_layout", atol=0)
    if heads.untyped_storage().data_ptr() != x.untyped_storage().data_ptr():
        _fail("values", what="split_heads(x, 3)", expected=_text("is.view"), got=_text("is.copy"),
              hint=_message("hint.split_view"))
    call = _text("what.on_shape", call="split_heads(x, 3)", shape="(2, 5, 10)")
    error = _expect_raises(lambda: f(torch.zeros(2, 5, 10), 3), ValueError, call, "hint.split_error")
    if "10" not in str(error) or "3" not in str(error):
        _fail("values", what=_text("what.error_message"), expected=_text("is.names_sizes", a=10, b=3),
              got=repr(str(error)), hint=_message("hint.split_error"))


def _check_merge_heads(ns):
    f = ns["merge_heads"]
    x = torch.arange(2 * 5 * 12, dtype=torch.float32).reshape(2, 5, 12)  # (b, T, d_out)
    # (b, h, T, hd) laid out contiguously, like the output of attn_weights @ values
    heads = x.view(2, 5, 3, 4).transpose(1, 2).contiguous()
    merged = _call("hint.merge_contiguous", f, heads)
    _expect_shape(merged, (2, 5, 12), _text("what.on_shape", call="merge_heads(x)",
                                            shape="(2, 3, 5, 4)"), "hint.merge_layout")
    _expect_close(merged, x, _text("what.round_trip"), "hint.merge_layout", atol=0)


def _check_multi_head_attention(ns):
    cls, call = ns["MultiHeadAttention"], "MultiHeadAttention(3, 2, 6, 0.0, num_heads=2)"
    _seed(123)
    module = cls(3, 2, 6, 0.0, num_heads=2)
    for name in ("W_query", "W_key", "W_value", "out_proj"):
        _expect_attribute(module, name, nn.Linear, call, "hint.mha_layers")
    _expect_buffer(module, call)
    batch = _batch()
    what = _text("what.seeded", call=call, seed=123)
    out = _expect_shape(module(batch), (2, 6, 2), what, "hint.mha_values")
    _expect_close(out, [BOOK_MULTI_HEAD] * 2, what, "hint.mha_values")
    _seed(123)
    _expect_close(cls(3, 2, 10, 0.0, num_heads=2)(batch), [BOOK_MULTI_HEAD] * 2,
                  _text("what.longer_context", call="MultiHeadAttention"), "hint.mask_slice")
    wide = cls(6, 12, 8, 0.0, num_heads=3)
    x = torch.randn(2, 5, 6, generator=_gen(8))
    out = _expect_shape(wide(x), (2, 5, 12), _text("what.on_shape", call=(
        "MultiHeadAttention(6, 12, 8, 0.0, num_heads=3)"), shape="(2, 5, 6)"), "hint.mha_values")
    _expect_no_leak(wide, x, out)


def _check_gpt2_small_attention(ns):
    module = ns["gpt2_small_attention"]()
    if not isinstance(module, nn.Module):
        _fail("values", what="gpt2_small_attention()", expected=_text("is.module"),
              got=type(module).__name__, hint=_message("hint.gpt2"))
    count = sum(parameter.numel() for parameter in module.parameters())
    if count != GPT2_SMALL_ATTENTION_PARAMETERS:
        _fail("values", what=_text("what.parameter_count"),
              expected=f"{GPT2_SMALL_ATTENTION_PARAMETERS:,}", got=f"{count:,}",
              hint=_message("hint.gpt2"))
    mask = getattr(module, "mask", None)
    settings = (("num_heads", getattr(module, "num_heads", 12), 12),
                ("mask.shape", tuple(mask.shape) if mask is not None else (1024, 1024), (1024, 1024)),
                ("dropout.p", getattr(getattr(module, "dropout", None), "p", 0.0), 0.0))
    for setting, got, expected in settings:
        if got != expected:
            _fail("values", what=_text("what.gpt2_setting", setting=setting), expected=str(expected),
                  got=str(got), hint=_message("hint.gpt2"))


# ---------------------------------------------------------------- the registry and the entry points

CHECKS: dict[str, Callable[[Mapping], None]] = {
    "attention_scores_for_query": _check_attention_scores_for_query,
    "attention_scores": _check_attention_scores,
    "softmax_naive": _check_softmax_naive,
    "softmax_stable": _check_softmax_stable,
    "context_vector": _check_context_vector,
    "simple_self_attention": _check_simple_self_attention,
    "scaled_dot_product_scores": _check_scaled_dot_product_scores,
    "SelfAttention_v1": _check_self_attention_v1,
    "SelfAttention_v2": _check_self_attention_v2,
    "copy_v2_weights_into_v1": _check_copy_v2_weights_into_v1,
    "causal_average_loop": _check_causal_average_loop,
    "causal_average_matmul": _check_causal_average_matmul,
    "causal_average_softmax": _check_causal_average_softmax,
    "causal_mask": _check_causal_mask,
    "mask_and_renormalize": _check_mask_and_renormalize,
    "masked_softmax": _check_masked_softmax,
    "inverted_dropout": _check_inverted_dropout,
    "CausalAttention": _check_causal_attention,
    "MultiHeadAttentionWrapper": _check_multi_head_attention_wrapper,
    "wrapper_with_2d_output": _check_wrapper_with_2d_output,
    "split_heads": _check_split_heads,
    "merge_heads": _check_merge_heads,
    "MultiHeadAttention": _check_multi_head_attention,
    "gpt2_small_attention": _check_gpt2_small_attention,
}
if list(CHECKS) != all_stages():
    raise RuntimeError("autograder.student.selfcheck.CHECKS must list the stages of autograder.student.curriculum")


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    text = lines[0] if lines else ""
    return text if len(text) <= 300 else text[:297] + "..."


def run_check(stage: str, namespace: Mapping, language: str | None = None) -> CheckResult:
    """Run the public check of `stage` on the definitions in `namespace`; never raises.

    The message is in `language` (en, zh, pt); by default in the language of the notebook whose
    kernel runs this (see ``autograder.student.language.kernel_language``).
    """
    if language is None:
        assignment_id = assignment_of(stage) if stage in CHECKS else None
        language = i18n.kernel_language(namespace, assignment_id)
    token = _messages.set(i18n.messages(language, "selfcheck", MESSAGES))
    try:
        return _run_check(stage, namespace)
    finally:
        _messages.reset(token)


def _run_check(stage: str, namespace: Mapping) -> CheckResult:
    if stage not in CHECKS:
        detail = _text("unknown_stage", stage=stage, known=", ".join(CHECKS))
        return CheckResult(False, _text("failed", stage=stage, detail=detail))
    if stage not in namespace:
        detail = _text("not_defined", stage=stage)
        return CheckResult(False, _text("failed", stage=stage, detail=detail))
    try:
        # The checks seed torch freely; the student's own random stream is left as it was.
        with torch.random.fork_rng(devices=[]):
            CHECKS[stage](namespace)
    except _Mismatch as mismatch:
        detail = str(mismatch)
    except NotImplementedError as error:
        reason = _one_line(error)
        if not reason or reason.startswith(f"{stage}:"):
            detail = _text("not_implemented")
        else:
            detail = _text("not_implemented_elsewhere", reason=reason)
    except Exception as error:  # whatever student code raises becomes one line
        detail = _text("raised", error_type=type(error).__name__, error=_one_line(error))
    else:
        return CheckResult(True, _text("passed", stage=stage))
    return CheckResult(False, _text("failed", stage=stage, detail=detail))


def check(stage: str, namespace: Mapping | None = None) -> None:
    """Print one line saying whether `stage` passes its public check, in the notebook's language.

    Without `namespace`, the definitions are looked up in the caller's globals (the notebook).
    """
    if namespace is None:
        caller = inspect.currentframe().f_back
        namespace = caller.f_globals if caller is not None else {}
    print(run_check(stage, namespace).message)
