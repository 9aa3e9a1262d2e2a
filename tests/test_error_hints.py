"""What a student's exception points to (autograder/student/reading/error_hints.py), read from torch's real
errors and the student's line, as the worker reports them."""

from __future__ import annotations

import linecache
import traceback

import pytest
import torch

from autograder.student.reading.error_hints import failing_line, meta_cannot_run, mistake_in_error, raised_by_stub

# keys.T on a batch warns (and will raise in a later torch) before the shapes fail.
pytestmark = pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning")
CELL = "<cell 7>"


def student_error(source: str, call: str, **values) -> tuple[str, str, str]:
    """Run ``call`` on the definitions of ``source`` as a notebook cell; return the exception's type,
    message and the traceback through the cell only (what the worker sends back)."""
    linecache.cache[CELL] = (len(source), None, source.splitlines(keepends=True), CELL)
    namespace = {"torch": torch, **values}
    exec(compile(source, CELL, "exec"), namespace)  # the test's own code
    try:
        eval(call, namespace)  # the test's own code
    except Exception as error:  # noqa: BLE001 - every exception is the evidence under test
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == CELL]
        return type(error).__name__, str(error), "".join(traceback.format_list(frames))
    raise AssertionError(f"{call} raised nothing")


SCORES_WITH_KEYS_T = """
def scores(queries, keys):
    return queries @ keys.T / keys.shape[-1] ** 0.5
"""
MASK_NOT_SLICED = """
def attend(scores, mask):
    return scores.masked_fill(mask, float("-inf")).softmax(dim=-1)
"""
STUB = """
def softmax_naive(x, dim=-1):
    # YOUR CODE HERE
    raise NotImplementedError("softmax_naive: replace this line with your code")
"""


def test_the_failing_line_is_the_students_last_line():
    _, _, student_traceback = student_error(SCORES_WITH_KEYS_T, "scores(q, k)", q=torch.ones(2, 5, 4),
                                            k=torch.ones(2, 5, 4))
    assert failing_line(student_traceback) == "return queries @ keys.T / keys.shape[-1] ** 0.5"
    assert failing_line("") == ""


@pytest.mark.parametrize(("stage", "mistake"), [
    ("CausalAttention", "keys_T_on_batch"),
    ("scaled_dot_product_scores", "keys_T_on_batch"),
    ("SelfAttention_v1", None),  # one sequence: .T is right there, so the error says nothing about it
])
def test_keys_T_on_a_batch_is_named_where_batches_are_asked(stage, mistake):
    error = student_error(SCORES_WITH_KEYS_T, "scores(q, k)", q=torch.ones(2, 5, 4), k=torch.ones(2, 5, 4))
    assert mistake_in_error(stage, *error) == mistake


@pytest.mark.parametrize(("used", "mistake"), [
    ("math.sqrt(d_k)", "module_not_imported"),  # blind29/027, 060: math is imported in notebook 4 only
    ("F.softmax(x, dim=-1)", "module_not_imported"),
    ("attn_scores.sum()", None),  # a name of the student's own, from another cell: no module
])
def test_a_module_used_without_its_import_is_named(used, mistake):
    source = f"def masked_softmax(x, d_k):\n    return {used}\n"
    error = student_error(source, "masked_softmax(torch.ones(2, 2), 4)")
    assert error[0] == "NameError"
    assert mistake_in_error("masked_softmax", *error) == mistake


@pytest.mark.parametrize(("stage", "mistake"), [
    ("CausalAttention", "transpose_fixed_dims"),  # blind27/088 and blind4/052: a bare exception
    ("MultiHeadAttention", "transpose_fixed_dims"),
    ("SelfAttention_v2", None),  # one sequence (T, d): transpose(0, 1) is right there
])
def test_one_matrixs_transpose_of_the_keys_on_a_batch_is_named_where_batches_are_asked(stage, mistake):
    source = SCORES_WITH_KEYS_T.replace("keys.T", "keys.transpose(0, 1)")
    error = student_error(source, "scores(q, k)", q=torch.ones(2, 5, 4), k=torch.ones(2, 5, 4))
    assert mistake_in_error(stage, *error) == mistake


def test_a_mask_used_whole_is_not_sliced_and_a_sliced_one_is_no_such_mistake():
    whole = student_error(MASK_NOT_SLICED, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *whole) == "mask_not_sliced"
    sliced = student_error(MASK_NOT_SLICED.replace("(mask,", "(mask[:3, :3],"), "attend(s, m)",
                           s=torch.ones(2, 5, 5), m=torch.ones(8, 8).bool())
    # Cut, but smaller than the scores: no advice to cut it (test_a_mask_cut_or_built_smaller_than_...).
    assert mistake_in_error("CausalAttention", *sliced) == "mask_wrong_size"


HEADS_MASKED = """
class Heads(torch.nn.Module):
    def __init__(self, context_length):
        super().__init__()
        mask = torch.ones(context_length, context_length).bool().triu(1)
        self.register_buffer("mask", MADE)

    def forward(self, scores, T):
        return scores.masked_fill(self.mask[:T, :T], float("-inf")).softmax(dim=-1)
"""


def _heads_error(made: str, tokens: int) -> tuple[tuple[str, str, str], str]:
    """The exception of a module whose mask is ``made`` so, cut to ``tokens`` against (2, 3, 5, 5)
    scores, and the module's code."""
    source = HEADS_MASKED.replace("MADE", made)
    return student_error(source, f"Heads(8)(s, {tokens})", s=torch.ones(2, 3, 5, 5)), source


def test_a_4d_mask_cut_with_two_indices_is_told_from_one_cut_right():
    error, source = _heads_error("mask.view(1, 1, context_length, context_length)", 5)
    assert mistake_in_error("MultiHeadAttention", *error, [source]) == "mask_sliced_leading_axes"
    error, source = _heads_error("mask[None, None]", 5)
    assert mistake_in_error("MultiHeadAttention", *error, [source]) == "mask_sliced_leading_axes"
    two_d = student_error(MASK_NOT_SLICED.replace("(mask,", "(mask[:T, :T],"), "attend(s, m)",
                          s=torch.ones(2, 3, 5, 6), m=torch.ones(8, 8).bool().triu(1), T=5)
    assert mistake_in_error("MultiHeadAttention", *two_d) != "mask_sliced_leading_axes"  # scores (5, 6)


def test_a_2d_mask_cut_with_a_size_from_the_wrong_axis_is_not_a_4d_mask():
    """The same words as a 4-D mask cut on its leading axes, from a 2-D mask cut to a T read from the
    features' axis (issue 40, item 5): the code makes no 4-D mask, so none is named; nor is a
    mask that was cut before the failing line named as left whole."""
    error, source = _heads_error("mask", 7)  # a 2-D mask cut to 7 (d_in, say) against 5 tokens
    assert error[1].endswith("at non-singleton dimension 3")
    assert mistake_in_error("MultiHeadAttention", *error, [source]) is None
    assert mistake_in_error("MultiHeadAttention", *error) is None  # no code to read: no evidence either
    cut_before = """
def attend(scores, full):
    T = scores.shape[1]
    mask = full[:T, :T]
    return scores.masked_fill(mask, float("-inf")).softmax(dim=-1)
"""
    error = student_error(cut_before, "attend(s, m)", s=torch.ones(2, 5, 5, 3), m=torch.ones(8, 8).bool().triu(1))
    assert mistake_in_error("CausalAttention", *error, [cut_before]) is None
    whole = student_error(MASK_NOT_SLICED, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *whole, [MASK_NOT_SLICED]) == "mask_not_sliced"


@pytest.mark.parametrize("size", ["self_mask.shape[-1]", "self_mask.size(0)", "len(self_mask)"])
def test_a_mask_cut_to_its_own_size_is_left_whole(size):
    """blind27/120: ``num_tokens = self.mask.shape[-1]``, then the mask cut to it, was a bare
    exception; a cut to a size read from the scores, too small, is no such mistake."""
    own = f"""
def attend(scores, self_mask):
    T = {size}
    return scores.masked_fill(self_mask[:T, :T], float("-inf")).softmax(dim=-1)
"""
    error = student_error(own, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *error, [own]) == "mask_not_sliced"
    from_scores = own.replace(size, "scores.shape[0]")
    error = student_error(from_scores, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *error, [from_scores]) != "mask_not_sliced"


def test_the_students_own_value_error_on_divisible_sizes_is_a_divisibility_test_written_backwards():
    backwards = """
def split(x, num_heads):
    if num_heads % x.shape[-1] != 0:
        raise ValueError("d_out must be divisible by num_heads")
    return x
"""
    error = student_error(backwards, "split(a, 3)", a=torch.ones(2, 5, 12))
    assert mistake_in_error("split_heads", *error) == "divisible_sizes_rejected"
    asserted = student_error("def split(x, h):\n    assert x.size(1) % h == 0\n    return x\n", "split(a, 3)",
                             a=torch.ones(2, 5, 12))
    assert mistake_in_error("split_heads", *asserted) == "divisible_sizes_asserted"
    unpacked = student_error("def split(x, h):\n    b, T, d = x.shape\n    return x\n", "split(a, 3)",
                             a=torch.ones(2, 3, 5, 4))  # torch's own ValueError: not the student's raise
    assert mistake_in_error("split_heads", *unpacked) is None


def test_weights_that_do_not_fit_the_values_or_x_name_what_the_stage_multiplies():
    unsplit = student_error("def f(w, values):\n    attn_weights = w\n    return attn_weights @ values\n", "f(a, b)",
                            a=torch.ones(2, 3, 5, 5), b=torch.ones(2, 5, 12))
    assert mistake_in_error("MultiHeadAttention", *unsplit) == "values_not_split"
    features = student_error("def f(x):\n    wei = torch.ones(x.shape[-1], x.shape[-1])\n    return wei @ x\n",
                             "f(a)", a=torch.ones(2, 5, 3))
    assert mistake_in_error("causal_average_softmax", *features) == "average_weights_shape"
    assert mistake_in_error("causal_average_loop", *features) is None


def test_torchs_own_words_name_their_mistakes_on_every_stage():
    dot = student_error("def f(inputs, query):\n    return torch.dot(inputs, query)\n", "f(a, b)",
                        a=torch.ones(6, 3), b=torch.ones(3))
    assert mistake_in_error("attention_scores_for_query", *dot) == "dot_needs_vectors"
    tuple_max = student_error("def f(x):\n    return x - x.max(dim=-1, keepdim=True)\n", "f(a)", a=torch.ones(2, 3))
    assert mistake_in_error("softmax_stable", *tuple_max) == "max_returns_tuple"
    float_mask = student_error("def f(x):\n    return x.masked_fill(torch.ones(3, 3).triu(1), 0.0)\n", "f(a)",
                               a=torch.ones(3, 3))
    assert mistake_in_error("causal_average_softmax", *float_mask) == "mask_needs_bool"


LINEAR_WEIGHT = """
def project(self, x):
    return x @ self.W_query.weight
"""
HEADS_SCORES = """
def scores(queries, keys):
    return queries @ keys.transpose(1, 2)
"""
SUPER_LATE = """
class Head(torch.nn.Module):
    def __init__(self):
        self.register_buffer("mask", torch.ones(2, 2))
        super().__init__()
"""


def test_slips_of_modules_and_views_are_named_from_torchs_words_and_the_line():
    linear = torch.nn.Linear(3, 2)
    untransposed = student_error(LINEAR_WEIGHT, "project(module, x)", x=torch.ones(6, 3),
                                 module=torch.nn.ModuleDict({"W_query": linear}))
    assert mistake_in_error("SelfAttention_v2", *untransposed) == "linear_weight_untransposed"
    assert mistake_in_error("SelfAttention_v1", *untransposed) is None  # v1's matrices are no nn.Linear
    heads = student_error(HEADS_SCORES, "scores(q, k)", q=torch.ones(2, 3, 5, 4), k=torch.ones(2, 3, 5, 4))
    assert mistake_in_error("MultiHeadAttention", *heads) == "transpose_fixed_dims"
    assert mistake_in_error("CausalAttention", *heads) is None  # (b, T, d) keys: transpose(1, 2) is right there
    late = student_error(SUPER_LATE, "Head()")
    assert mistake_in_error("MultiHeadAttention", *late) == "super_init_first"
    float_size = student_error("def f(x):\n    return x.view(2, 5, 3, x.shape[-1] / 3)\n", "f(a)",
                               a=torch.ones(2, 5, 12))
    assert mistake_in_error("split_heads", *float_size) == "size_is_float"


def test_an_unknown_exception_names_nothing():
    error = student_error("def f(x):\n    return x[10]\n", "f(a)", a=torch.ones(2))
    assert mistake_in_error("softmax_naive", *error) is None


def test_a_stubs_not_implemented_error_is_told_apart_from_torchs():
    stub_type, _, stub_traceback = student_error(STUB, "softmax_naive(x)", x=torch.ones(2))
    assert raised_by_stub(stub_type, stub_traceback)
    meta_type, meta_message, meta_traceback = student_error(
        "def f(x):\n    return x[x > 0]\n", "f(a)", a=torch.empty(3, device="meta"))
    assert meta_type == "NotImplementedError"
    assert not raised_by_stub(meta_type, meta_traceback)
    assert meta_cannot_run(meta_type, meta_message)


@pytest.mark.parametrize(("source", "limit"), [
    ("def f(x):\n    return x.sum().item()\n", True),  # reads a value: a GPU can, meta cannot
    ("def f(x):\n    return x.masked_fill(x > 0, torch.tensor(float('-inf')))\n", True),  # a GPU takes a CPU scalar
    ("def f(x):\n    return x.masked_fill(torch.ones(3, dtype=torch.bool), 0.0)\n", False),  # a mask left on the CPU
    ("def f(x):\n    out = torch.zeros(3)\n    out[0] = x[0]\n    return out\n", False),  # an output made on the CPU
])
def test_the_meta_devices_own_limits_are_no_mistake(source, limit):
    error_type, message, _ = student_error(source, "f(a)", a=torch.empty(3, device="meta"))
    assert meta_cannot_run(error_type, message) is limit


def test_methods_numbers_and_generators_where_torch_wants_tensors_are_named():
    unpacked = student_error("def f(x):\n    b, T, d = x.size\n    return x\n", "f(a)", a=torch.ones(2, 3, 4))
    assert mistake_in_error("split_heads", *unpacked) == "method_not_called"
    number = student_error("def f(x, d_k):\n    return x / torch.sqrt(d_k)\n", "f(a, 4)", a=torch.ones(2, 2))
    assert mistake_in_error("masked_softmax", *number) == "tensor_function_on_number"
    joined = student_error("def f(xs):\n    return torch.cat((x * 2 for x in xs), dim=-1)\n", "f([a, a])",
                           a=torch.ones(2, 2))
    assert mistake_in_error("MultiHeadAttentionWrapper", *joined) == "generator_not_sequence"
    one_matrix = student_error("def f(w):\n    keep = torch.ones_like(w[0]).tril()\n    return w * keep\n", "f(a)",
                               a=torch.ones(4, 4))
    assert mistake_in_error("mask_and_renormalize", *one_matrix) == "batch_dims_not_handled"


ROWS_ONLY = """
def attend(scores, mask):
    return scores.masked_fill(mask[:scores.shape[-1]], 0.0)
"""


def test_a_mask_cut_on_its_rows_only_is_told_from_one_not_cut():
    rows_only = student_error(ROWS_ONLY, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error("CausalAttention", *rows_only) == "mask_rows_only_sliced"
    whole = student_error(ROWS_ONLY.replace("mask[:scores.shape[-1]]", "mask"), "attend(s, m)", s=torch.ones(2, 5, 5),
                          m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error("CausalAttention", *whole) == "mask_not_sliced"


SHORT_MASK = """
def attend(x, scores, mask):
    n = x.shape[0]
    return scores.masked_fill(mask[:n, :n], 0.0)
"""


@pytest.mark.parametrize("stage", ["CausalAttention", "MultiHeadAttention"])
def test_a_mask_cut_or_built_smaller_than_the_scores_is_told_from_one_left_whole(stage):
    """Cut with the batch's size (x.shape[0]), or built for d_out tokens, a mask is smaller than
    the scores: no advice to cut it, which it was (blind11's 072 and 097)."""
    scores = torch.ones(2, 5, 5) if stage == "CausalAttention" else torch.ones(2, 3, 5, 5)
    short = student_error(SHORT_MASK, "attend(x, s, m)", x=torch.ones(2, 5, 3), s=scores,
                          m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error(stage, *short) == "mask_wrong_size"
    built_small = student_error(SHORT_MASK.replace("x.shape[0]", "x.shape[1]"), "attend(x, s, m)",
                                x=torch.ones(2, 5, 3), s=scores, m=torch.ones(4, 4, dtype=torch.bool))
    assert mistake_in_error(stage, *built_small) == "mask_wrong_size"
    whole = student_error(SHORT_MASK.replace("mask[:n, :n]", "mask"), "attend(x, s, m)", x=torch.ones(2, 5, 3),
                          s=scores, m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error(stage, *whole) == "mask_not_sliced"


def test_a_sum_that_lost_its_dim_is_told_as_keepdim_not_as_the_batchs_dims():
    """weights / weights.sum(dim=-1) on a batch: the code already counts dims from the end, so the
    advice is keepdim (blind11's 050), never "count dimensions from the end"."""
    source = "def f(w):\n    return w / w.sum(dim=-1)\n"
    lost = student_error(source, "f(a)", a=torch.ones(2, 6, 6).tril())
    assert mistake_in_error("mask_and_renormalize", *lost) == "softmax_missing_keepdim"
    kept = student_error(source.replace("dim=-1)", "dim=-1, keepdim=True) + w[:, 0]"), "f(a)",
                         a=torch.ones(2, 6, 5))
    assert mistake_in_error("mask_and_renormalize", *kept) != "softmax_missing_keepdim"


def test_a_size_read_from_the_front_is_told_even_beside_sizes_read_from_the_end():
    """blind11's 056: its scale reads shape[-1] and its softmax dim=-1, but its mask's size comes
    from shape[0], the batch's on a batch: the advice to take sizes from the end fits."""
    source = ("def f(s):\n    n = s.shape[0]\n    mask = torch.ones(n, n).triu(1).bool()\n"
              "    return (s / s.shape[-1]).masked_fill(mask, 0.0).softmax(dim=-1)\n")
    wrong = student_error(source, "f(a)", a=torch.ones(2, 6, 6))
    assert mistake_in_error("masked_softmax", *wrong, sources=[source]) == "batch_dims_not_handled"
    from_the_end = student_error(source.replace("s.shape[0]", "s.shape[-1]").replace("ones(n, n)", "ones(n, 3)"),
                                 "f(a)", a=torch.ones(2, 6, 6))
    assert mistake_in_error("masked_softmax", *from_the_end,
                            sources=[source.replace("s.shape[0]", "s.shape[-1]")]) != "batch_dims_not_handled"


FLATTENED_BATCH = """
def attend(x, mask):
    b, T, _ = x.shape
    flat = x.reshape(b * T, -1)
    n = b * T
    return (flat @ flat.T).masked_fill(mask[:n, :n], float("-inf"))
"""
KEYS_T_ON_BATCH = """
def attend(x, mask):
    T = x.shape[1]
    return (x @ x.T).masked_fill(mask[:T, :T], float("-inf"))
"""


def test_a_full_transpose_of_a_flattened_batch_is_not_told_as_one_on_a_batch():
    """blind13/084: a module that flattens its batch into one sequence transposes a 2-D tensor
    with .T, rightly; its size error (a mask too short for b * T tokens) is no batch reversed."""
    flattened = student_error(FLATTENED_BATCH, "attend(x, m)", x=torch.ones(2, 5, 3), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *flattened, [FLATTENED_BATCH]) != "keys_T_on_batch"
    on_batch = student_error(KEYS_T_ON_BATCH, "attend(x, m)", x=torch.ones(2, 5, 3), m=torch.ones(8, 8).bool())
    assert mistake_in_error("CausalAttention", *on_batch, [KEYS_T_ON_BATCH]) == "keys_T_on_batch"


FLATTENED = """
def attend(x, mask):
    b, T, d = x.shape
    flat = x.reshape(b * T, d)
    n = flat.shape[0]
    scores = flat @ flat.T
    return scores.masked_fill(mask[:n, :n], float("-inf"))
"""


def test_a_batch_flattened_into_one_sequence_is_told_before_the_mask_it_outgrows():
    """blind15/084 reshaped (b, T, d) to (b * T, d): its mask, cut to b * T, is smaller than the
    scores, and was told "the mask holds fewer positions", whose remedy the code already follows."""
    flattened = student_error(FLATTENED, "attend(x, m)", x=torch.ones(2, 5, 3), m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error("CausalAttention", *flattened, [FLATTENED]) == "batch_flattened"
    kept = student_error(SHORT_MASK, "attend(x, s, m)", x=torch.ones(2, 5, 3), s=torch.ones(2, 5, 5),
                         m=torch.ones(8, 8, dtype=torch.bool))
    assert mistake_in_error("CausalAttention", *kept, [SHORT_MASK]) == "mask_wrong_size"


def test_a_mask_cut_on_its_rows_through_a_call_is_cut_on_its_rows():
    """blind15/080: `self.mask.bool()[:T]` cuts the rows of what .bool() returns."""
    through_call = ROWS_ONLY.replace("mask[:scores.shape[-1]]", "mask.bool()[:scores.shape[-1]]")
    assert through_call != ROWS_ONLY
    rows_only = student_error(through_call, "attend(s, m)", s=torch.ones(2, 5, 5), m=torch.ones(8, 8))
    assert mistake_in_error("CausalAttention", *rows_only) == "mask_rows_only_sliced"


def test_a_name_is_read_as_the_one_name_it_abbreviates_or_misspells():
    """blind15/037 kept W_q, W_k, W_v: each begins exactly one of the notebook's names."""
    from autograder.student.reading.slips import closest

    names = ["W_query", "W_key", "W_value"]
    assert [closest(name, names) for name in ("W_q", "W_k", "W_v", "W_qeury")] == names[:3] + ["W_query"]
    assert closest("W_", names) is None  # begins all three: no one name
    assert closest("mask", names) is None
