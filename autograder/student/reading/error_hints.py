"""What an exception raised by the student's own code says about their mistake.

When the student's code raises, in a hidden test's call or in a public check's, the evidence is
the kind of exception, torch's message and the student's own line where it was raised (the last
line of their traceback). Each rule names the mistake that this evidence points to, on the stages where that
reading holds; the first rule that fits wins, and no rule fitting means no hint. The texts of
the mistakes are in ``mistakes`` of this package; the patterns below are torch's own words
and code, never shown to anyone.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .source_code import assigned_to, definitions_holding, parsed, statements_besides

# torch's ways of saying that two shapes do not fit together.
_SIZES = re.compile(r"must match the size of tensor|shapes cannot be multiplied|size mismatch|Expected size for"
                    r" first two dimensions|Attempting to broadcast a dimension|must have same reduction dim"
                    r"|inconsistent tensor size")
_DIMENSION_OUT_OF_RANGE = re.compile(r"Dimension out of range")
# Autograd refusing an in-place change of a leaf that requires grad (the hidden tests read it too).
LEAF_IN_PLACE = re.compile(r"leaf Variable that requires grad is being used in an in-place operation")
# Autograd's words when a backward pass is given a gradient of another shape than the output's.
GRAD_OUTPUT_SHAPE = re.compile(r"Mismatch in shape: grad_output")
# The student made a tensor on the CPU, whatever the input's device (or the meta device's own
# words for a CPU tensor that receives a meta tensor's values).
_DEVICE = re.compile(r"same device|not on the expected device|device type|copy out of meta tensor", re.IGNORECASE)
# The exceptions torch refuses a mix of devices with (the fake tensors' own among them).
_DEVICE_ERRORS = ("RuntimeError", "NotImplementedError", "FakeTensorDeviceMismatchError")
_META_COPY = re.compile(r"copy out of meta tensor", re.IGNORECASE)
# What the meta device cannot run but a GPU can: code that reads values (.item(), boolean indexing),
# and a 0-dimensional CPU tensor as masked_fill's value (torch moves it to a GPU by itself).
_META_LIMITS = re.compile(r"meta tensors|register_meta|Meta kernel|data-dependent|Expected `value` to be on same"
                          r" device", re.IGNORECASE)

_BATCHED = frozenset({"scaled_dot_product_scores", "CausalAttention", "MultiHeadAttention"})
_MASKED_MODULES = frozenset({"CausalAttention", "MultiHeadAttention"})
# The stages whose projections are nn.Linear layers (their weight is (d_out, d_in)).
_LINEAR_MODULES = frozenset({"SelfAttention_v2", "CausalAttention", "MultiHeadAttention"})
# A product with an nn.Linear's raw weight, not transposed: x @ self.W_query.weight.
_UNTRANSPOSED_WEIGHT = re.compile(r"(@|\bmatmul\(\s*\w+\s*,)\s*self\.\w+\.weight\b(?!\s*\.(T|mT|t\(|transpose))")
# A size given to view or reshape that is a float (d_out / num_heads): torch's words for it.
_FLOAT_SIZE = re.compile(r"tuple of ints,? ?but (got|found element of type) float"
                         r"|'float' object cannot be interpreted as an integer")

# A (1, 1, ctx, ctx) mask left whole against (b, h, T, T) scores: masked_fill names the mask first
# (tensor a, the larger: ctx > T) at the keys' dim; the stand-in GPU says it would broadcast to it.
_UNCUT_4D_MASK = re.compile(r"size of tensor a \((?P<mask>\d+)\) must match the size of tensor b \((?P<scores>\d+)\)"
                            r" at non-singleton dimension 3|broadcastable to \[1, 1, \d+, \d+\]")
# A division or subtraction by a sum or max along a dim that was not kept (no keepdim=True).
_REDUCED_WITHOUT_KEEPDIM = re.compile(r"[/\-]\s*[\w.]*\.(sum|max|amax)\((?![^()]*keepdim\s*=\s*True)[^()]*\)")
# A mask smaller than the scores it is given to (masked_fill names the mask first, tensor a): cut
# with a size read from another dim (the batch's), or built for fewer tokens than context_length.
_SHORT_MASK = re.compile(r"size of tensor a \((?P<short_mask>\d+)\) must match the size of tensor b"
                         r" \((?P<scores>\d+)\) at non-singleton dimension")
# masked_fill given a mask by its name (mask, tril, bias), or by any local name made before it
# (``future = self.mask[:T, :T]``), which the rule's code then reads.
_MASKED_FILL_WITH_MASK = re.compile(r"masked_fill_?\(\s*([^,]*(mask|tril|bias)|[A-Za-z_]\w*\s*,)")
# A mask given leading dims of size 1 where it is made: view/reshape/expand(1, 1, ...), unsqueeze,
# [None, None], torch.ones(1, 1, ...).
_MADE_WITH_LEADING_ONES = re.compile(r"\.(view|reshape|expand)\(\s*\(?\s*1\s*,\s*1\s*,|\.unsqueeze\("
                                     r"|\[\s*None\s*,\s*None\b|\bones\(\s*\(?\s*1\s*,\s*1\s*,")
_MASK_NAME = re.compile(r"mask|tril|bias")
# A mask held in a local name (not an attribute, not a call): `mask` in `scores.masked_fill(mask, ...)`.
_LOCAL_MASK = re.compile(r"(?<![\w.])(\w*(?:mask|tril|bias)\w*)\b(?!\s*\()")
# The local name masked_fill is given as its mask, whatever it is called: `future` in `scores.masked_fill(future, ...)`.
_FILL_MASK = re.compile(r"masked_fill_?\(\s*([A-Za-z_]\w*)\s*,")
_SLICE = re.compile(r"\[[^\]]*:")


def _mask_made_4d(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the student's code gives a mask leading dims of 1 where it makes it (in the
    definition whose line failed): the evidence ``mask_sliced_leading_axes`` needs, since a 2-D
    mask cut with a wrong size (a T read from the features' axis) fails with the same words."""
    return any(_MASK_NAME.search(code) and _MADE_WITH_LEADING_ONES.search(code)
               for code in statements_besides(line, trees))


def _mask_not_sliced_before(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether no local mask the failing line uses was cut to a size before it (``mask =
    self.mask[:T, :T]``): such a mask was sliced, with a wrong size, and is no mask left whole."""
    names = {*_LOCAL_MASK.findall(line), *_FILL_MASK.findall(line)}
    return not any(_SLICE.search(value) for name in names for value in assigned_to(name, line, trees))


# A size read off a mask itself: ``self.mask.shape[-1]``, ``self.mask.size(0)``, ``len(self.mask)``.
_MASK_OWN_SIZE = re.compile(r"(mask|tril|bias)\w*\s*\.\s*(shape\b|size\()|len\(\s*[\w.]*(mask|tril|bias)")
_SUBSCRIPTS = re.compile(r"\[([^\[\]]*:[^\[\]]*)\]")


def _cut_to_its_own_size(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether every cut of the failing line is bounded by sizes read off a mask itself (``T =
    self.mask.shape[-1]``, then ``self.mask[:T, :T]``: blind27/120): a mask cut to its own size is
    the whole buffer, as one never cut."""
    cuts = _SUBSCRIPTS.findall(line)
    bounds = [bound.strip() for cut in cuts for part in cut.split(",") for bound in part.split(":") if bound.strip()]
    if not cuts or not bounds:
        return False
    for bound in bounds:
        values = list(assigned_to(bound, line, trees)) if re.fullmatch(r"[A-Za-z_]\w*", bound) else [bound]
        if not values or not all(_MASK_OWN_SIZE.search(value) for value in values):
            return False
    return True


def _mask_left_whole(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the mask the failing line uses is the whole buffer: not cut on that line (or cut to
    its own size), nor cut to a size before it."""
    return (not _SLICE.search(line) or _cut_to_its_own_size(line, trees)) and _mask_not_sliced_before(line, trees)


def _mask_cut(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the mask the failing line uses was cut to a size, in the line or before it: torch
    names the two tensors in an order of its own, so a mask left whole (context_length, at least T)
    is told apart from one cut too small by the code, not by which size comes first."""
    return bool(_SLICE.search(line)) or not _mask_not_sliced_before(line, trees)


# A batch flattened into one long sequence: x.reshape(b * T, -1), x.view(-1, d), x.flatten(0, 1).
_BATCH_FLATTENED = re.compile(r"\.(reshape|view)\(\s*(\w+\s*\*\s*\w+|-1)\s*,|\.flatten\(\s*(0\s*,\s*1|end_dim\s*=\s*1)")


def _batch_flattened(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the definition whose line failed flattens its batch into a single sequence."""
    return any(_BATCH_FLATTENED.search(code) for code in statements_besides(line, trees))


def _batch_kept(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the definition whose line failed keeps its batch: one that flattens it into a
    single sequence transposes 2-D tensors with ``.T``, rightly, and fails for other reasons."""
    return not _batch_flattened(line, trees)


# Sizes read from the end (shape[-1], size(-1)) and dims counted from it (dim=-1); sizes read from the front.
_FROM_THE_END = re.compile(r"\.(shape\[\s*-\s*\d\s*\]|size\(\s*-\s*\d\s*\))")
_FROM_THE_FRONT = re.compile(r"\.(shape\[\s*\d\s*\]|size\(\s*\d\s*\))")
_DIM_KEYWORD = re.compile(r"\bdim\s*=\s*(-?)\s*\d")


def _batch_dims_not_followed(line: str, trees: Sequence[ast.Module]) -> bool:
    """Whether the definition whose line failed may count sizes or dims from the front: the advice
    of ``batch_dims_not_handled`` (T from shape[-1], dim=-1) must not be what the code already does.
    Without the code to read, it may."""
    code = [*statements_besides(line, trees), line] if definitions_holding(line, trees) else []
    return not code or any(_FROM_THE_FRONT.search(statement) for statement in code) or not (
        any(_FROM_THE_END.search(statement) for statement in code)
        and all(sign for statement in code for sign in _DIM_KEYWORD.findall(statement)))


@dataclass(frozen=True)
class ErrorRule:
    """An exception that points to ``mistake``: its type, torch's message, the student's line
    (each pattern, when given, must be found; ``line_without`` must not be), on ``stages``
    (None: every stage); ``code``, when given, is what the student's code must show besides for
    the mistake to fit it (it is read from their definitions, parsed: see ``source_code``)."""

    mistake: str
    message: re.Pattern | None = None
    line: re.Pattern | None = None
    error_types: tuple[str, ...] = ("RuntimeError",)
    stages: frozenset[str] | None = None
    line_without: re.Pattern | None = None
    code: Callable[[str, Sequence[ast.Module]], bool] | None = None

    def fits(self, stage: str, error_type: str, message: str, line: str, trees: Sequence[ast.Module] = ()) -> bool:
        return (error_type in self.error_types and (self.stages is None or stage in self.stages)
                and not (self.line_without is not None and self.line_without.search(line))
                and (self.message is None or _found(self.message, message))
                and (self.line is None or bool(self.line.search(line)))
                and (self.code is None or self.code(line, trees)))


# Names of modules a stage may use, as the notebooks and their students spell them: used where no
# cell imports them, they raise a NameError that a missing import line explains.
_MODULES_NOT_IMPORTED = re.compile(r"name '(math|numpy|np|F|nn|torch|functools|itertools|operator|collections"
                                   r"|typing|dataclasses|enum|einops|random)' is not defined")

RULES = [
    ErrorRule("module_not_imported", _MODULES_NOT_IMPORTED, error_types=("NameError",)),
    # A tensor turned into a numpy array: refused on a GPU, on the stand-in GPU and with a gradient.
    ErrorRule("left_torch_for_numpy", re.compile(r"numpy\(\) is not supported|call numpy\(\)|tensor to numpy"),
              error_types=("RuntimeError", "TypeError")),
    ErrorRule("device_not_followed", _DEVICE, error_types=_DEVICE_ERRORS),
    ErrorRule("dtype_not_followed", re.compile(r"same dtype|expected scalar type|dtype .* != ", re.IGNORECASE)),
    ErrorRule("view_needs_contiguous", re.compile(r"view size is not compatible", re.IGNORECASE)),
    ErrorRule("mask_needs_bool", re.compile(r"only supports boolean masks|expected predicate to be bool"
                                            r"|expected mask dtype to be Bool", re.IGNORECASE)),
    ErrorRule("max_returns_tuple", re.compile(r"return_types\.(max|min)"), error_types=("TypeError",)),
    # An operand that is a method, not its result: a call without parentheses, or .values on a
    # plain tensor (Tensor.values is a method; only max and min return values and indices).
    ErrorRule("method_not_called", re.compile(r"unsupported operand type.*'(builtin_function_or_method|method)'"
                                              r"|cannot unpack non-iterable (builtin_function_or_method|method) object"
                                              r"|'(builtin_function_or_method|method)' object is not (subscriptable"
                                              r"|iterable)"),
              error_types=("TypeError",)),
    # with torch.no_grad: the class itself, where calling it makes the context manager.
    ErrorRule("no_grad_not_called", re.compile(r"'type' object does not support the context manager protocol"),
              line=re.compile(r"\b(no_grad|enable_grad|inference_mode)\s*:"), error_types=("TypeError",)),
    # torch.sqrt(d_k) and the like: a function of tensors given a Python number.
    ErrorRule("tensor_function_on_number",
              re.compile(r"argument '\w+' \(position \d+\) must be Tensor, not (int|float)"),
              error_types=("TypeError",)),
    # torch.cat((head(x) for head in self.heads)): a generator expression, where torch wants a sequence.
    ErrorRule("generator_not_sequence", re.compile(r"must be tuple of Tensors, not generator"),
              error_types=("TypeError",)),
    ErrorRule("dot_needs_vectors", re.compile(r"1D tensors expected")),
    ErrorRule("fixed_rank", re.compile(r"einsum\(\): the number of subscripts|batch[12] must be a 3D tensor"
                                       r"|Expected 3-dimensional tensor")),
    ErrorRule("fixed_rank", _DIMENSION_OUT_OF_RANGE, re.compile(r"\bbmm\("), ("IndexError",)),
    # A gradient test's backward on an output outside autograd's graph (forward under no_grad, or detached).
    ErrorRule("output_not_tracked", re.compile(r"does not require grad and does not have a grad_fn")),
    ErrorRule("copy_needs_no_grad", LEAF_IN_PLACE, stages=frozenset({"copy_v2_weights_into_v1"})),
    ErrorRule("input_modified_in_place", LEAF_IN_PLACE),
    ErrorRule("copy_replaced_parameter", re.compile(r"cannot assign .* as parameter"), error_types=("TypeError",),
              stages=frozenset({"copy_v2_weights_into_v1"})),
    ErrorRule("copy_without_transpose", _SIZES, stages=frozenset({"copy_v2_weights_into_v1"})),
    ErrorRule("copy_by_state_dict", re.compile(r"Error\(s\) in loading state_dict"),
              stages=frozenset({"copy_v2_weights_into_v1"})),
    ErrorRule("transpose_fixed_dims", line=re.compile(r"(transpose|swapaxes)\(\s*\d\s*,\s*\d\s*\)|permute\("),
              error_types=("RuntimeError", "IndexError"), stages=frozenset({"scaled_dot_product_scores"})),
    # CausalAttention's keys.transpose(1, 2) on the heads' 4-D keys swaps heads and tokens.
    ErrorRule("transpose_fixed_dims", _SIZES, re.compile(r"@\s*\w+\.(transpose|swapaxes)\(\s*1\s*,\s*2\s*\)"),
              stages=frozenset({"MultiHeadAttention"})),
    # One matrix's keys.transpose(0, 1) on a batch (b, T, d) swaps the batch and the tokens (blind27/088).
    ErrorRule("transpose_fixed_dims", _SIZES, re.compile(r"@\s*\w+\.(transpose|swapaxes)\(\s*0\s*,\s*1\s*\)"),
              stages=_MASKED_MODULES),
    # Module's own words for self.<name> = ... or register_buffer before super().__init__().
    ErrorRule("super_init_first", re.compile(r"before Module\.__init__\(\) call"), error_types=("AttributeError",)),
    ErrorRule("size_is_float", _FLOAT_SIZE, error_types=("TypeError",)),
    # x @ self.W_query.weight: an nn.Linear's weight is (d_out, d_in), the transpose of v1's matrices.
    ErrorRule("linear_weight_untransposed", _SIZES, _UNTRANSPOSED_WEIGHT, stages=_LINEAR_MODULES),
    ErrorRule("sdpa_mask_and_is_causal", re.compile(r"attn_mask should not be set when is_causal")),
    ErrorRule("keys_T_on_batch", _SIZES, re.compile(r"\.T\b(?!\s*\()"), stages=_BATCHED, code=_batch_kept),
    ErrorRule("keys_T_on_batch", re.compile(r"use of `x\.T` on tensors of dimension other than 2"), stages=_BATCHED),
    ErrorRule("projection_transposed", _SIZES, re.compile(r"@\s*self\.W_\w+\.(T\b|t\(\))"),
              stages=frozenset({"SelfAttention_v1"})),
    ErrorRule("merged_weights", _SIZES,
              re.compile(r"merge_heads\(\s*(self\.dropout\()?\w*(weight|att|wei)\w*\s*\)"),
              stages=frozenset({"MultiHeadAttention"})),
    # A 4-D (1, 1, ctx, ctx) mask cut with [:T, :T]: the two leading size-1 axes were cut, and the
    # mask's last axes still hold context_length where the scores' hold T.
    ErrorRule("mask_sliced_leading_axes", _UNCUT_4D_MASK,
              re.compile(r"(mask|tril|bias)\w*\s*\[\s*:\s*[\w.]+\s*,\s*:\s*[\w.]+\s*\]"),
              stages=frozenset({"MultiHeadAttention"}), code=_mask_made_4d),
    # Weights (b, h, T, T) that do not fit the values: queries and keys were split into heads
    # (the weights have their shape), the values were not.
    ErrorRule("values_not_split", _SIZES, re.compile(r"(weight|att|wei|score)\w*\)?\s*@\s*\w*val"),
              stages=frozenset({"MultiHeadAttention"})),
    # x.reshape(b * T, d): the batch made one sequence of b * T tokens, more than the mask holds.
    ErrorRule("batch_flattened", _SIZES, stages=_MASKED_MODULES, code=_batch_flattened),
    ErrorRule("mask_wrong_size", _SHORT_MASK, _MASKED_FILL_WITH_MASK, stages=_MASKED_MODULES, code=_mask_cut),
    # mask[:T]: the rows cut to the sequence, the columns left at context_length.
    ErrorRule("mask_rows_only_sliced", _SIZES,
              re.compile(r"(mask|tril|bias)\w*(\.\w+\([^()]*\))*\s*\[\s*:\s*[\w.]+(\[[^\[\]]*\])?\s*\]"),
              stages=frozenset({"CausalAttention"})),
    ErrorRule("mask_not_sliced", _SIZES, re.compile(r"mask|tril|bias"), stages=_MASKED_MODULES,
              code=_mask_left_whole),
    # weights / weights.sum(dim=-1): the sum lost its dim, so the division broadcast it along the rows.
    ErrorRule("softmax_missing_keepdim", _SIZES, _REDUCED_WITHOUT_KEEPDIM,
              stages=frozenset({"masked_softmax", "mask_and_renormalize"})),
    ErrorRule("batch_dims_not_handled", _SIZES, stages=frozenset({"masked_softmax", "mask_and_renormalize"}),
              code=_batch_dims_not_followed),
    # One matrix taken out of a batch (x[0]) that was not a batch: a (T, T) input leaves a vector.
    ErrorRule("batch_dims_not_handled", re.compile(r"must have at least 2 dimensions"),
              stages=frozenset({"masked_softmax", "mask_and_renormalize"})),
    ErrorRule("softmax_missing_keepdim", _SIZES, stages=frozenset({"softmax_naive", "softmax_stable"})),
    ErrorRule("missing_transpose", re.compile(r"shapes cannot be multiplied \((\d+)x(\d+) and \1x\2\)"),
              stages=frozenset({"attention_scores", "simple_self_attention"})),
    # The running mean's (T, T) weights times x (B, T, C): only T from the token axis, first, fits.
    ErrorRule("average_weights_shape", _SIZES, re.compile(r"@|\bmatmul\(|\bbmm\("),
              stages=frozenset({"causal_average_softmax"})),
    # The weights already first (w @ x): their size, read from another axis of x, is what does not fit.
    ErrorRule("average_weights_shape", _SIZES, re.compile(r"[\w)\]]\s*@\s*x\b|matmul\(\s*[^,]+,\s*x\b"),
              stages=frozenset({"causal_average_matmul"})),
    ErrorRule("operands_swapped", _SIZES, re.compile(r"@|\bmatmul\(|\bmm\(|\bmv\("),
              stages=frozenset({"attention_scores_for_query", "context_vector", "causal_average_matmul"})),
    # inputs @ weights in the composed stage; a product with a transpose in it (weights @ inputs.T)
    # has another fault than its order.
    ErrorRule("operands_swapped", _SIZES, re.compile(r"@|\bmatmul\(|\bmm\("),
              stages=frozenset({"simple_self_attention"}), line_without=re.compile(r"\.T\b|\.mT\b|transpose|\.t\(")),
    # Element by element, shapes line up from the last dim: a (T,) vector against (T, d) or (b, T, C).
    ErrorRule("broadcast_mismatch", re.compile(r"must match the size of tensor"),
              re.compile(r"[\w)\]]\s*[*/+\-]\s*[\w(\[]"),
              line_without=re.compile(r"@|\bmatmul\(|\bmm\(|\bbmm\(|einsum")),
    # MultiHeadAttention's own check refusing the exercise's numbers: d_out is not num_heads * 64.
    ErrorRule("gpt2_head_count", error_types=("ValueError",), stages=frozenset({"gpt2_small_attention"})),
    # The student's own ValueError where the tests give sizes that divide (the tests that give
    # indivisible ones expect it): the divisibility test is wrong.
    ErrorRule("divisible_sizes_rejected", line=re.compile(r"^raise\s+ValueError\b"), error_types=("ValueError",),
              stages=frozenset({"split_heads", "MultiHeadAttention"})),
    # An assert of the student's fired there: the same wrong test, and an assert where a ValueError is asked.
    ErrorRule("divisible_sizes_asserted", line=re.compile(r"^assert\b"), error_types=("AssertionError",),
              stages=frozenset({"split_heads", "MultiHeadAttention"})),
]


def _found(pattern: re.Pattern, message: str) -> bool:
    """Whether ``pattern`` is in ``message``; where it quotes a mask's size and the scores', the
    mask's must be the larger (a mask left whole holds context_length, at least T), or for a
    ``short_mask`` the smaller."""
    match = pattern.search(message)
    if match is None:
        return False
    sizes = {name: int(value) for name, value in match.groupdict().items() if value is not None}
    if "short_mask" in sizes:
        return sizes["short_mask"] < sizes["scores"]
    return "mask" not in sizes or sizes["mask"] > sizes["scores"]


def student_lines(student_traceback: str) -> list[str]:
    """The student's own lines of their traceback, outermost first: its quoted source lines
    (without the markers that point under them)."""
    return [line.strip() for line in student_traceback.splitlines()
            if line.strip() and not line.lstrip().startswith("File ") and set(line.strip()) - set("^~")]


def failing_line(student_traceback: str) -> str:
    """The student's own line where the exception was raised: the last quoted source line of
    their traceback."""
    lines = student_lines(student_traceback)
    return lines[-1] if lines else ""


def mistake_in_error(stage: str, error_type: str, message: str, student_traceback: str,
                     sources: Sequence[str] = ()) -> str | None:
    """The mistake that an exception of the student's code on ``stage`` points to, if any;
    ``sources``, the code of the student's definitions, for the rules that read it (without it,
    those rules never fit: a name needs its evidence)."""
    line = failing_line(student_traceback)
    trees = parsed(sources)
    return next((rule.mistake for rule in RULES if rule.fits(stage, error_type, message, line, trees)), None)


# nn.Module's own words for a module whose forward is missing (a misspelt `foward`, say).
_MISSING_FORWARD = re.compile(r'is missing the required "forward" function')


def raised_by_stub(error_type: str, student_traceback: str, message: str = "") -> bool:
    """Whether the exception is an unfinished answer's ``raise NotImplementedError(...)`` (and not
    torch's NotImplementedError for something the student's finished code did, nor nn.Module's
    for a class without ``forward``)."""
    if error_type != "NotImplementedError" or _MISSING_FORWARD.search(message):
        return False
    line = failing_line(student_traceback)
    return not line or "NotImplementedError" in line


def device_error(error_type: str, message: str) -> bool:
    """Whether torch refused to mix devices (a tensor left on the CPU met one on the stand-in GPU)."""
    return error_type in _DEVICE_ERRORS and bool(_DEVICE.search(message))


def meta_cannot_run(error_type: str, message: str) -> bool:
    """Whether the stand-in GPU (fake meta tensors, ``autograder.worker.fake_gpu``) could not run
    the student's code for a limit of its own, which a GPU does not have (``.item()``, boolean
    indexing, a CPU scalar tensor as a fill value)."""
    if error_type == "CannotRunOnStandIn":
        return True
    return (error_type in ("RuntimeError", "NotImplementedError") and not _META_COPY.search(message)
            and bool(_META_LIMITS.search(message)))
