"""Every student-facing word of the self-checks, and the language they speak while a check runs.

The English is here; translations keep the keys and the {fields} in
``locales/<language>/selfcheck.json`` of this package. Code such as `causal_mask(4)` inside
a message is not translated. A hint that names a known mistake uses the mistake's id and its
text from ``mistakes`` (the text the grader's feedback uses too), so each is
written and translated once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Iterator, Mapping

from .. import language as languages
from ..mistakes import MISTAKES

MESSAGES: dict[str, str] = {
    # The line a check prints.
    "passed": "✅ {stage} passed its public check",
    "failed": "❌ {stage}: {detail}",
    # The line under a failed check, and what hint("<stage>") prints.
    "hint_offer": '   💡 Stuck? hint("{stage}") suggests what to change.',
    "hint_line": "💡 {stage}: {hint}",
    "hint_passed": "✅ {stage} passes its public check: no hint needed.",
    # What went wrong.
    "unknown_stage": "there is no stage called {stage!r}; the stages are: {known}",
    "unknown_stage_near": "there is no stage called {stage!r}; did you mean {suggestion!r}?",
    "no_stage": "say which stage to check, for example check({example!r}); the stages are: {known}",
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
    "shape": "{what}: expected shape {expected}, got {got}.",
    "dtype": "{what}: expected dtype {expected}, got {got}.",
    "device": "{what}: expected a tensor on the {expected} device, got {got}.",
    "values": "{what}: expected {expected}, got {got}.",
    "attribute": "{what}: expected an attribute `{name}` of type {expected}, got {got}.",
    "param_shape": "{what}: `{name}` should have shape {expected}, got {got}.",
    "no_raise": "{what} should raise {expected}, but it returned normally.",
    "wrong_raise": "{what} should raise {expected}, but it raised {got}.",
    # What was looked at, and what was expected of it.
    "what.query_journey": "{call} (the attention scores of 'journey')",
    "what.other_sizes": "{call} for {tokens} tokens of size {size}",
    "what.row_journey": "row 1 (query 'journey') of {call}",
    "what.symmetric": "{call} (a symmetric matrix)",
    "what.on_shape": "{call} on x of shape {shape}",
    "what.sums_along": "the sums along dim={dim} of {call}",
    "what.row": "row {row} of {call}",
    "what.rows": "rows {rows} of {call}",
    "what.last_rows": "the last row of every sequence of {call}",
    "what.seeded": "{call} under torch.manual_seed({seed}), on the running example",
    "what.after_copy": "x @ sa_v1.{name} after the copy, next to sa_v2.{name}(x)",
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
    "what.merge_entry": "the features of head {h} in merge_heads(x)[{b}, {t}] (token {t})",
    "what.error_message": "the ValueError message",
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
    # Hints, shown only when a student asks (hint("<stage>")): one per stage to get started,
    # and one per finding; a finding that matches a known mistake uses the mistake's text.
    "hint.scores_for_query": (
        "One matrix-vector product computes the dot product of the query with every row:"
        " (T, d) @ (d,) -> (T,)."
    ),
    "hint.scores_all": (
        "Entry [i, j] is the dot product of rows i and j: multiply inputs by its own transpose,"
        " (T, d) @ (d, T) -> (T, T)."
    ),
    "hint.rows_sum_to_one": (
        "Each slice along `dim` must sum to 1: divide exp(x) by its sum over `dim`"
        " (keepdim=True so the shapes broadcast)."
    ),
    "hint.softmax_values": "softmax(x)_i = exp(x_i) / sum_j exp(x_j), computed along `dim`.",
    "hint.softmax_naive": (
        "Follow the formula: the exp of every entry, divided by the sum of the exps along `dim`;"
        " with keepdim=True the sum keeps a dimension of size 1, so the division broadcasts."
    ),
    "hint.softmax_stable": (
        "Before the exp, subtract from each slice along `dim` its own largest value (keepdim=True"
        " again): the result does not change, and the largest exp becomes exp(0) = 1."
    ),
    "hint.context_sum": (
        "Weight each input row by its attention weight and add the rows up:"
        " (T,) @ (T, d) -> (d,)."
    ),
    "hint.simple_self_attention": (
        "Three steps: the (T, T) scores of every pair, a softmax over each row (dim=-1), then for"
        " every row the weighted sum of the inputs, (T, T) @ (T, d) -> (T, d)."
    ),
    "hint.sdp_values": (
        "Multiply the queries by the keys with only their last two dimensions swapped"
        " (transpose(-2, -1)), then divide by the square root of d_k = keys.shape[-1]."
    ),
    "hint.v1_params": (
        "Create self.W_query, self.W_key and self.W_value, in that order, each an nn.Parameter"
        " holding torch.rand(d_in, d_out)."
    ),
    "hint.v1_values": (
        "Check the creation order (W_query, W_key, W_value), x @ W for the projections, scores"
        " divided by keys.shape[-1] ** 0.5, softmax over dim=-1, then the product with the values."
    ),
    "hint.v2_layers": (
        "Create self.W_query, self.W_key and self.W_value, in that order, as"
        " nn.Linear(d_in, d_out, bias=qkv_bias)."
    ),
    "hint.v2_values": (
        "Same computation as SelfAttention_v1, with the nn.Linear layers doing the projections."
    ),
    "hint.copy_transpose": (
        "nn.Linear stores its weight as (d_out, d_in) and computes x @ weight.T, while v1 computes"
        " x @ W with W of shape (d_in, d_out): each W must become the transposed weight of the"
        " matching layer. Write into parameters under torch.no_grad()."
    ),
    "hint.prefix_mean": "Row t of the output is the mean of rows 0..t of the input (per batch).",
    "hint.prefix_matmul": (
        "Row t of the (T, T) matrix holds 1/(t+1) in its first t+1 columns and 0 after them: a"
        " lower triangle of ones (torch.tril) divided by its row sums. (T, T) @ (B, T, C)"
        " broadcasts over the batch."
    ),
    "hint.softmax_mask": (
        "Fill the future positions (where tril == 0) with -inf, softmax over the last dim, then"
        " multiply by x."
    ),
    "hint.mask_bool": "Return a torch.bool tensor (for example with .bool() or dtype=torch.bool).",
    "hint.mask_future": (
        "True marks the hidden future: entry [i, j] is True exactly when j > i, that is strictly"
        " above the diagonal (the diagonal itself stays False). torch.triu keeps what lies above"
        " a diagonal of your choice."
    ),
    "hint.mask_device": "Create the tensor on `device`, e.g. torch.ones(..., device=device).",
    "hint.sizes_from_input": (
        "Read every size from the input (T = x.shape[-2]): the grader tries other lengths, and it never"
        " runs the demo cell that sets T."
    ),
    "hint.input_dtype": (
        "Create the tensors you need with the input's dtype and device, e.g. torch.zeros(T, T,"
        " dtype=x.dtype, device=x.device): float64 inputs must work too."
    ),
    "hint.renormalise": (
        "Zero the entries above the diagonal, then divide each row by its new sum"
        " (sum over dim=-1 with keepdim=True)."
    ),
    "hint.future_zero": "Every weight above the diagonal (a future token) must be exactly 0.",
    "hint.masked_softmax": (
        "masked_fill the positions above the diagonal with -inf, divide by sqrt(d_k), then"
        " softmax over the last dim."
    ),
    "hint.dropout_rate": "Each element should be zeroed with probability p.",
    "hint.dropout_generator": (
        "Draw the random numbers with torch.rand(..., generator=generator) so a seeded generator"
        " gives the same mask every time."
    ),
    "hint.dropout_all": "When p == 1 every element is dropped: return torch.zeros_like(x).",
    "hint.dropout_range": "Raise ValueError with a clear message when p is outside [0, 1].",
    "hint.dropout_inplace": "Do not modify x in place; return a new tensor.",
    "hint.dropout_steps": (
        "Handle the special cases first (p outside [0, 1], training=False, p == 0, p == 1). Then"
        " draw one uniform number per element (torch.rand with the generator, on x's device),"
        " keep the elements whose number is at least p, and divide the kept ones by 1 - p."
    ),
    "hint.causal_buffer": (
        "A tensor that must move with the module (.to(device)) but is not trained belongs in a"
        " buffer: self.register_buffer(\"mask\", ...), with a (context_length, context_length)"
        " tensor that marks the future above the diagonal."
    ),
    "hint.causal_layers": (
        "Create W_query, W_key, W_value (in that order) as nn.Linear(d_in, d_out, bias=qkv_bias)"
        " and self.dropout = nn.Dropout(dropout)."
    ),
    "hint.causal_values": (
        "With a batch, swap only the last two dimensions of the keys; fill the future scores with"
        " -inf through the mask sliced to [:T, :T]; divide by sqrt(d_k), softmax over the last"
        " dim, dropout, then multiply by the values."
    ),
    "hint.mask_slice": (
        "Slice the mask to the current length, self.mask.bool()[:T, :T], so any"
        " T <= context_length works."
    ),
    "hint.no_leak": "Outputs for earlier tokens must not change when a later token changes.",
    "hint.eval_dropout": "In eval mode nn.Dropout is the identity; apply it through self.dropout.",
    "hint.wrapper_heads": (
        "self.heads must be an nn.ModuleList of num_heads CausalAttention modules: a plain Python"
        " list would hide their parameters from the module."
    ),
    "hint.wrapper_values": (
        "Concatenate the heads' outputs along the last dim: torch.cat(..., dim=-1)."
    ),
    "hint.wrapper_2d": (
        "Each head contributes d_out features and the wrapper concatenates them: with two heads,"
        " which d_out gives 2 features in all?"
    ),
    "hint.split_heads": (
        "First view the last dimension as (num_heads, head_dim), giving (b, T, h, hd), then swap"
        " the token and head dimensions. Viewing straight to (b, h, T, hd) has the right shape"
        " but mixes tokens and heads."
    ),
    "hint.split_view": "Use view + transpose: the result should share memory with x (no copy).",
    "hint.split_error": (
        "Raise ValueError when d_out % num_heads != 0, naming both numbers in the message."
    ),
    "hint.merge_layout": (
        "Undo split_heads in reverse order: put the heads next to the features again"
        " (transpose(1, 2)), then view the result as (b, T, h * hd)."
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
        "GPT-2 small has 12 heads, 768 features in and out, and a context of 1024 tokens; this"
        " exercise uses no dropout, and everything else keeps its default."
    ),
}



def _sentence(text: str) -> str:
    """A mistake's text as a hint that follows a full stop: with a capital letter."""
    return text[:1].upper() + text[1:]


@functools.cache
def texts(language: str) -> Mapping[str, str]:
    """The self-checks' messages and the mistakes' hints, in ``language``."""
    mistakes = languages.messages(language, "mistakes", MISTAKES)
    return {**{key: _sentence(text) for key, text in mistakes.items()},
            **languages.messages(language, "selfcheck", MESSAGES)}


# The words of the check being run, in its notebook's language.
_texts: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("selfcheck_texts", default=None)


def _in_force() -> Mapping[str, str]:
    return _texts.get() or texts(languages.DEFAULT_LANGUAGE)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block, the checks' messages are in ``language``."""
    token = _texts.set(texts(language))
    try:
        yield
    finally:
        _texts.reset(token)


def hint_text(key: str) -> str:
    """A hint: a stage's (``hint.*``) or a known mistake's (its id), in the language in force."""
    return _in_force()[key]


def text(key: str, **fields) -> str:
    """The message ``key`` with its fields, in the language in force."""
    return _in_force()[key].format(**fields)
