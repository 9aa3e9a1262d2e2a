"""A crash that one named slip explains costs that slip's share, once (issue 41).

A reviewer's ``MultiHeadAttention`` with ``keys.transpose(1, 2)`` (right in notebook 3's 3-D
``CausalAttention``, wrong on 4-D heads) got 0/46: the crash stopped every test. The grader now
runs such a test again with the line that raised repaired as the named mistake's fix says
(``autograder.grading.repairs``); when it passes, the failure is that mistake's, pinned to its
behaviour, and costs that share alone (reviews5: a cap on top of it read as a contradiction). The
repair is proven by the rerun: where it does not make the test pass, nothing changes. The grader
runs for real, sandbox included.
"""

from __future__ import annotations

import pytest

from autograder.course import rubric
from autograder.feedback.page import feedback_html
from autograder.grading.repairs import repaired_line
from autograder.notebooks.variants import load_solution, solved_source
from autograder.reading.notebook import CodeBlock
from autograder.records.results import TestStatus
from autograder.tools.feedback_batch import BatchEntry, graded_rows

MHA, CAUSAL = "MultiHeadAttention", "CausalAttention"
RIGHT_PRODUCT = "attn_scores = queries @ keys.transpose(2, 3)"
RIGHT_FILL = "attn_scores = attn_scores.masked_fill(future, -torch.inf)"


def _mha(*changes: tuple[str, str]) -> str:
    source = solved_source(load_solution("04_multi_head_attention"), MHA)
    for old, new in changes:
        assert old in source
        source = source.replace(old, new)
    return source


TRANSPOSED = (RIGHT_PRODUCT, "attn_scores = queries @ keys.transpose(1, 2)")


ANSWERS = {
    "transposed_heads": (MHA, _mha(TRANSPOSED)),
    # the same slip, and no mask at all: repaired, the module leaks, a fault of its own
    "transposed_heads_and_no_mask": (MHA, _mha(TRANSPOSED, (RIGHT_FILL, "pass"))),
    # the same slip, and an output off by a constant no mistake names: repaired, still unexplained
    "transposed_heads_and_an_offset": (MHA, _mha(TRANSPOSED, ("return self.out_proj(context)",
                                                              "return self.out_proj(context) + 0.125"))),
    "mask_never_sliced": (CAUSAL, '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool(), -torch.inf)
        attn_weights = self.dropout(torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1))
        return attn_weights @ values
'''),
    # notebook 1's slips that crash: the maximum's (values, indices) pair subtracted, the factors swapped
    "max_without_values": ("softmax_stable", '''
def softmax_stable(x, dim=-1):
    shifted = x - x.max(dim=dim, keepdim=True)
    exps = torch.exp(shifted)
    return exps / exps.sum(dim=dim, keepdim=True)
'''),
    # two slips on one line: the pair subtracted, and its dim lost; each repaired in turn
    "max_without_values_or_keepdim": ("softmax_stable", '''
def softmax_stable(x, dim=-1):
    e = torch.exp(x - x.max(dim=dim))
    return e / e.sum(dim=dim, keepdim=True)
'''),
    "context_factors_swapped": ("context_vector", '''
def context_vector(attn_weights, inputs):
    return inputs @ attn_weights
'''),
    # the heads built with dropout and context_length swapped: CausalAttention raises in its own cell
    "wrapper_arguments_swapped": ("MultiHeadAttentionWrapper", '''
class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, dropout, context_length, qkv_bias)
                                    for _ in range(num_heads)])

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)
'''),
    # one slip on each projection's line: every line repaired before the test runs through
    "weights_applied_untransposed": ("SelfAttention_v2", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        queries = x @ self.W_query.weight
        keys = x @ self.W_key.weight
        values = x @ self.W_value.weight
        weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return weights @ values
'''),
    # keys.T on a batch, and no scale: repaired, the test runs and shows the scale's own fault
    "keys_T_and_no_scale": (CAUSAL, '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        attn_scores = queries @ keys.T
        attn_scores = attn_scores.masked_fill(self.mask[:T, :T], -torch.inf)
        return self.dropout(torch.softmax(attn_scores, dim=-1)) @ values
'''),
    # the context and the weights returned: right values in a tuple (reviews7: 0/30, and the
    # gradient test said the grader could not check it)
    "context_and_weights": ("SelfAttention_v2", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        w = torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1)
        return w @ v, w
'''),
    # torch.sqrt of an int, and no_grad used without calling it: each stops every test
    "sqrt_of_an_int": ("scaled_dot_product_scores", '''
def scaled_dot_product_scores(queries, keys):
    return queries @ keys.transpose(-2, -1) / torch.sqrt(keys.shape[-1])
'''),
    "no_grad_not_called": ("copy_v2_weights_into_v1", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad:
        sa_v1.W_query.copy_(sa_v2.W_query.weight.T)
        sa_v1.W_key.copy_(sa_v2.W_key.weight.T)
        sa_v1.W_value.copy_(sa_v2.W_value.weight.T)
'''),
    # exercise 3.1's slips that crash: each line repaired in turn (three of them, one slip)
    "copy_recorded_by_autograd": ("copy_v2_weights_into_v1", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query.copy_(sa_v2.W_query.weight.T)
    sa_v1.W_key.copy_(sa_v2.W_key.weight.T)
    sa_v1.W_value.copy_(sa_v2.W_value.weight.T)
'''),
    "copy_as_plain_tensors": ("copy_v2_weights_into_v1", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query = sa_v2.W_query.weight.T.clone()
    sa_v1.W_key = sa_v2.W_key.weight.T.clone()
    sa_v1.W_value = sa_v2.W_value.weight.T.clone()
'''),
    # the head size divided with /: a float size given to view, on the line after the slip
    "head_size_a_float": ("split_heads", '''
def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
    head_dim = d_out / num_heads
    return x.view(b, num_tokens, num_heads, head_dim).transpose(1, 2)
'''),
}


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    assignment = {MHA: "04_multi_head_attention", CAUSAL: "03_causal_attention",
                  "softmax_stable": "01_attention_scores", "context_vector": "01_attention_scores",
                  "SelfAttention_v2": "02_self_attention", "MultiHeadAttentionWrapper": "04_multi_head_attention",
                  "copy_v2_weights_into_v1": "02_self_attention", "split_heads": "04_multi_head_attention",
                  "scaled_dot_product_scores": "02_self_attention"}
    entries = [BatchEntry(f"{name}.py", stage, assignment[stage], False, name, source)
               for name, (stage, source) in ANSWERS.items()]
    graded = graded_rows(entries, tmp_path_factory.mktemp("repairs"), jobs=2)
    return {entry.file.removesuffix(".py"): graded[(entry.student_id, entry.assignment)] for entry in entries}


def _stage(row, stage):
    return next(total for total in row.stage_totals() if total.stage == stage)


def test_the_line_that_raised_is_repaired_only_in_the_stages_own_block():
    block = CodeBlock("class MultiHeadAttention(nn.Module):\n    def forward(self, x):\n"
                      "        return q @ k.transpose(1, 2)\n", cell_index=9, line=4, names=[MHA])
    traceback = '  File "<cell 10>", line 6, in forward\n    return q @ k.transpose(1, 2)\n'
    repaired = repaired_line("transpose_fixed_dims", MHA, traceback, [block])
    assert (repaired.cell, repaired.line, repaired.text) == (10, 6, "        return q @ k.transpose(-2, -1)")
    assert repaired_line("mask_missing", MHA, traceback, [block]) is None  # no mechanical fix
    assert repaired_line("transpose_fixed_dims", MHA, traceback.replace("cell 10", "cell 3"), [block]) is None
    assert repaired_line("transpose_fixed_dims", "split_heads", traceback, [block]) is None


def test_a_loop_counted_to_a_number_is_counted_by_the_tensor_it_indexes():
    """blind27/048: ``for t in range(8)`` over five tokens raised on the loop's body; the repair is
    the loop's own line, its count read off the tensor the body indexes with t, and the rerun then
    shows the token left out of its own mean."""
    source = ("def causal_average_loop(x):\n    out = torch.zeros_like(x)\n    for b in range(x.shape[0]):\n"
              "        for t in range(8):\n            out[b, t] = x[b, :t].mean(dim=0)\n    return out\n")
    block = CodeBlock(source, cell_index=7, line=2, names=["causal_average_loop"])
    traceback = '  File "<cell 8>", line 6, in causal_average_loop\n    out[b, t] = x[b, :t].mean(dim=0)\n'
    repaired = repaired_line("hard_coded_size", "causal_average_loop", traceback, [block])
    assert (repaired.cell, repaired.line, repaired.text) == (8, 5, "        for t in range(out.shape[1]):")
    sliced_only = source.replace("out[b, t] = x[b, :t]", "out = x[:, :t]")  # t indexes nothing alone
    assert repaired_line("hard_coded_size", "causal_average_loop", traceback,
                         [CodeBlock(sliced_only, cell_index=7, line=2, names=["causal_average_loop"])]) is None


@pytest.mark.parametrize(("mistake", "line", "fixed"), [
    ("softmax_missing_keepdim", "return torch.exp(x) / torch.exp(x).sum(dim=dim)",
     "return torch.exp(x) / torch.exp(x).sum(dim=dim, keepdim=True)"),
    ("softmax_missing_keepdim", "e = torch.exp(x - torch.max(x, dim).values)",
     "e = torch.exp(x - torch.max(x, dim, keepdim=True).values)"),
    ("max_returns_tuple", "shifted = x - x.max(dim=dim, keepdim=True)",
     "shifted = x - x.max(dim=dim, keepdim=True).values"),
    ("operands_swapped", "return inputs @ attn_weights  # the weighted sum",
     "return attn_weights @ inputs  # the weighted sum"),
    # the book's line without its slice: the buffer cut to what it fills, a bracketed product
    ("mask_not_sliced", "s = (q @ k.transpose(1, 2)).masked_fill(self.mask.bool(), -torch.inf)",
     "s = (q @ k.transpose(1, 2)).masked_fill(self.mask[..., :((q @ k.transpose(1, 2))).shape[-2],"
     " :((q @ k.transpose(1, 2))).shape[-1]].bool(), -torch.inf)"),
    ("mask_not_sliced", "s.masked_fill_(self.mask == 1, -torch.inf)",
     "s.masked_fill_(self.mask[..., :(s).shape[-2], :(s).shape[-1]] == 1, -torch.inf)"),
    # cut to its own size (n read off the mask, blind27/120): cut to what it fills instead
    ("mask_not_sliced", "s = s.masked_fill(self.mask[:n, :n], -torch.inf)",
     "s = s.masked_fill(self.mask[..., :(s).shape[-2], :(s).shape[-1]], -torch.inf)"),
    ("mask_rows_only_sliced", "s = (q @ k.transpose(1, 2)).masked_fill(self.mask[:T], -torch.inf)",
     "s = (q @ k.transpose(1, 2)).masked_fill(self.mask[:T, :T], -torch.inf)"),
    ("mask_rows_only_sliced", "s.masked_fill_(self.mask.bool()[:x.shape[1]], -torch.inf)",
     "s.masked_fill_(self.mask.bool()[:x.shape[1], :x.shape[1]], -torch.inf)"),
    ("linear_weight_untransposed", "keys = x @ self.W_key.weight  # (T, d_out)",
     "keys = x @ self.W_key.weight.T  # (T, d_out)"),
    # each plain name by keyword; range's and a method's arguments stay as they are
    ("arguments_out_of_order", "h = [CausalAttention(d_in, d_out, dropout, context_length) for _ in range(n)]",
     "h = [CausalAttention(d_in=d_in, d_out=d_out, dropout=dropout, context_length=context_length) for _ in range(n)]"),
    ("size_is_float", "return x.view(b, t, h, d / h).transpose(1, 2)",
     "return x.view(*map(int, (b, t, h, d / h,))).transpose(1, 2)"),
    ("copy_needs_no_grad", "sa_v1.W_key.copy_(sa_v2.W_key.weight.T)", "sa_v1.W_key.data.copy_(sa_v2.W_key.weight.T)"),
    ("copy_replaced_parameter", "sa_v1.W_key = sa_v2.W_key.weight.T",
     "sa_v1.W_key = __import__('torch').nn.Parameter(sa_v2.W_key.weight.T)"),
    ("copy_without_transpose", "sa_v1.W_key.copy_(sa_v2.W_key.weight)", "sa_v1.W_key.copy_(sa_v2.W_key.weight.T)"),
    ("tensor_function_on_number", "return s / torch.sqrt(k.shape[-1])",
     "return s / torch.sqrt(__import__('torch').as_tensor(k.shape[-1]))"),
    ("no_grad_not_called", "with torch.no_grad:", "with torch.no_grad():"),
    ("dtype_not_followed", "return weights @ x  # (T, T) @ x", "return weights.to(x) @ x  # (T, T) @ x"),
    # the weights a softmax makes of float32 scores, for float64 x (notebook 3's review)
    ("dtype_not_followed", "return torch.softmax(scores, dim=-1) @ x",
     "return torch.softmax(scores, dim=-1).to(x) @ x"),
])
def test_each_repair_rewrites_the_line_as_its_mistakes_fix_says(mistake, line, fixed):
    traceback = '  File "<cell 3>", line 2, in softmax_stable\n'

    def block(text):
        return CodeBlock(f"def softmax_stable(x, dim=-1):\n    {text}\n", cell_index=2, line=1,
                         names=["softmax_stable"])

    assert repaired_line(mistake, "softmax_stable", traceback, [block(line)]).text == f"    {fixed}"
    if mistake not in ("operands_swapped", "size_is_float", "copy_replaced_parameter", "tensor_function_on_number"):
        # (those have no right side to leave alone)
        assert repaired_line(mistake, "softmax_stable", traceback, [block(fixed)]) is None  # right already


@pytest.mark.slow
def test_a_softmax_that_subtracts_the_maximums_pair_costs_its_share(rows):
    """The (values, indices) pair subtracted stops every test: repaired, it costs the reductions'
    share alone, less than a wrong shift of the softmax (capped at half), not the nothing it kept
    before."""
    total = _stage(rows["max_without_values"], "softmax_stable")
    assert {loss.behaviour for loss in total.lost_to} == {"reductions"}
    share = rubric.behaviour_shares("softmax_stable")["reductions"] / 100 * rubric.value_points(
        "01_attention_scores", "softmax_stable")
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)


@pytest.mark.slow
def test_two_slips_on_one_line_are_each_repaired_and_each_told_and_cost_their_share(rows):
    """The maximum's pair subtracted raises; repaired, its lost keepdim raises: repaired too, the
    test passes. Both slips are told, each its own fault, and they cost the reductions' share once
    (reviews6: 2.1 of 20 before, where either slip alone kept 17.3). The lost keepdim is one the
    purpose names (reviews11: silently wrong on every square matrix of scores), so the stage keeps
    at most half."""
    row = rows["max_without_values_or_keepdim"]
    total = _stage(row, "softmax_stable")
    assert {loss.behaviour for loss in total.lost_to} == {"reductions", "purpose"}
    share = rubric.behaviour_shares("softmax_stable")["reductions"] / 100 * rubric.value_points(
        "01_attention_scores", "softmax_stable")
    assert total.points == pytest.approx(min(total.max_points - share, total.max_points / 2), abs=0.05)
    failed = [test for test in row.tests if test.stage == "softmax_stable" and not test.passed and test.finding]
    both = ["max_returns_tuple", "softmax_missing_keepdim"]
    assert any([fault.mistake for fault in test.finding.all_faults()] == both for test in failed)


@pytest.mark.slow
def test_a_products_factors_swapped_cost_their_share_where_they_crash_and_where_they_do_not(rows):
    """inputs @ attn_weights raises on most shapes (repaired there) and runs on a square input
    (the catalogue reproduces it there): both are the same slip, and cost its share once."""
    total = _stage(rows["context_factors_swapped"], "context_vector")
    assert {loss.behaviour for loss in total.lost_to} == {"context"}  # the weighted sum itself, not its shape
    share = rubric.behaviour_shares("context_vector")["context"] / 100 * rubric.value_points("01_attention_scores",
                                                                                           "context_vector")
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)


@pytest.mark.slow
def test_one_slip_on_several_lines_is_repaired_on_each_and_costs_its_share_once(rows):
    """x @ layer.weight on each projection's line raises on the first: repaired there, it raises
    on the next, which is repaired too, until the test passes; the stage loses the projections'
    share alone, not its 30 points."""
    row = rows["weights_applied_untransposed"]
    total = _stage(row, "SelfAttention_v2")
    assert {loss.behaviour for loss in total.lost_to} == {"projections"}
    share = rubric.behaviour_shares("SelfAttention_v2")["projections"] / 100 * rubric.value_points(
        "02_self_attention", "SelfAttention_v2")
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)


@pytest.mark.parametrize("guard", ["    if num_heads % features != 0:\n        raise ValueError(f\"{features}\")",
                                   "    if num_heads % features != 0: raise ValueError(f\"{features}\")"])
def test_a_raise_guarded_the_wrong_way_round_has_its_guard_negated(guard):
    """blind25's 100: a divisibility test written the wrong way round raised on every right size,
    and lost all 17 points of split_heads; its guard is what the fix changes, not the raise."""
    source = f"def split_heads(x, num_heads):\n    features = x.shape[-1]\n{guard}\n    return x\n"
    block = CodeBlock(source, cell_index=2, line=1, names=["split_heads"])
    raised_on = source.splitlines().index(next(line for line in source.splitlines() if "raise" in line)) + 1
    traceback = f'  File "<cell 3>", line {raised_on}, in split_heads\n'
    repaired = repaired_line("divisible_sizes_rejected", "split_heads", traceback, [block])
    assert repaired.line == 3
    assert repaired.text.startswith("    if not (num_heads % features != 0):")


def test_the_tokens_read_from_the_first_dim_are_read_from_the_end_on_the_line_that_feeds_the_mask():
    """reviews9: ``T = attn_scores.shape[0]`` in masked_softmax stopped every batch (1.5 of 14)."""
    source = ("def masked_softmax(attn_scores, d_k):\n    T = attn_scores.shape[0]\n"
              "    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)\n"
              "    masked = attn_scores.masked_fill(mask, -torch.inf)\n")
    block = CodeBlock(source, cell_index=2, line=1, names=["masked_softmax"])
    traceback = '  File "<cell 3>", line 4, in masked_softmax\n'
    repaired = repaired_line("batch_dims_not_handled", "masked_softmax", traceback, [block])
    assert (repaired.line, repaired.text) == (2, "    T = attn_scores.shape[-2]")


def test_a_running_means_weights_sized_by_the_batch_are_sized_by_the_tokens():
    """reviews11: ``T = x.shape[0]`` for the (T, T) weights of causal_average_matmul raised on every
    batch (0 of 8); the line that sizes them, two lines above the product, is the one repaired."""
    source = ("def causal_average_matmul(x):\n    T = x.shape[0]\n"
              "    weights = torch.tril(torch.ones(T, T))\n"
              "    weights = weights / weights.sum(dim=-1, keepdim=True)\n    return weights @ x\n")
    block = CodeBlock(source, cell_index=2, line=1, names=["causal_average_matmul"])
    traceback = '  File "<cell 3>", line 5, in causal_average_matmul\n'
    repaired = repaired_line("average_weights_shape", "causal_average_matmul", traceback, [block])
    assert (repaired.line, repaired.text) == (2, "    T = x.shape[-2]")


@pytest.mark.slow
@pytest.mark.parametrize(("answer", "stage", "behaviour"), [
    ("copy_recorded_by_autograd", "copy_v2_weights_into_v1", "in_place"),
    ("copy_as_plain_tensors", "copy_v2_weights_into_v1", "in_place"),
    ("head_size_a_float", "split_heads", "shapes"),
    ("sqrt_of_an_int", "scaled_dot_product_scores", "scale"),
    ("no_grad_not_called", "copy_v2_weights_into_v1", "in_place"),
])
def test_a_slip_that_stops_a_small_stage_costs_its_share(rows, answer, stage, behaviour):
    """Exercise 3.1 without no_grad (or with plain tensors put in place of the parameters, or with
    no_grad never called), a head size divided with /, torch.sqrt of an int, stopped every test of
    their stage (reviews6 and reviews7: 0 of 15, 17 and 25)."""
    total = _stage(rows[answer], stage)
    assert {loss.behaviour for loss in total.lost_to} == {behaviour}
    share = rubric.behaviour_shares(stage)[behaviour] / 100 * rubric.value_points(rows[answer].assignment_id, stage)
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)


@pytest.mark.slow
def test_a_module_that_returns_its_weights_beside_its_context_costs_the_shapes_share_on_its_values(rows):
    """reviews7: (context, weights) returned scored 0 of 30, and its gradient test said the grader
    could not check it. The values in the tuple are read: its value tests lose the shape's share
    alone, and the gradient test says what was returned (checks that need one tensor back, such as
    the device check, cost their own points)."""
    row = rows["context_and_weights"]
    values = [test for test in row.tests if test.stage == "SelfAttention_v2" and not test.passed
              and test.name.startswith(("test_self_attention_v2_forward", "test_self_attention_v2_gradients"))]
    assert values
    assert all({loss.behaviour for loss in test.lost_to} == {"shapes"} for test in values)
    assert all(test.finding.mistake == "returned_several_values" for test in values)
    assert "could not check" not in feedback_html(row)
    assert _stage(row, "SelfAttention_v2").points >= 0.8 * _stage(row, "SelfAttention_v2").max_points


@pytest.mark.slow
def test_arguments_out_of_order_raising_in_the_callees_cell_are_repaired_where_the_stage_passes_them(rows):
    """The swapped dropout raises inside CausalAttention's own cell: the wrapper's line that
    passes it is the one repaired (each argument by its name), and the slip costs the share of the
    heads' arguments alone."""
    total = _stage(rows["wrapper_arguments_swapped"], "MultiHeadAttentionWrapper")
    assert {loss.behaviour for loss in total.lost_to} == {"projections"}
    share = rubric.behaviour_shares("MultiHeadAttentionWrapper")["projections"] / 100 * rubric.value_points(
        "04_multi_head_attention", "MultiHeadAttentionWrapper")
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)


@pytest.mark.slow
def test_a_crash_one_slip_explains_costs_its_share_and_no_more(rows):
    row = rows["transposed_heads"]
    total = _stage(row, MHA)
    forward = [test for test in row.tests if test.name.startswith("test_multi_head_attention_forward[cpu")]
    assert forward
    assert all(test.status is TestStatus.FAILED and "evidence.repaired_line" in test.finding.keys()  # noqa: SIM118
               and test.finding.mistake == "transpose_fixed_dims" for test in forward)
    lost = {loss.behaviour for loss in total.lost_to}
    assert lost == {"scores"}  # and no cap: a repaired slip is no sign the module misses its purpose
    share = rubric.behaviour_shares(MHA)["scores"] / 100 * rubric.value_points("04_multi_head_attention", MHA)
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)
    assert "ran this test again with only the line that raised changed" in feedback_html(row)
    assert "transpose(-2, -1)" not in feedback_html(row)  # the repaired line is never shown


@pytest.mark.slow
def test_a_repair_after_which_the_values_show_another_fault_tells_both_and_each_costs_its_share(rows):
    """blind21/083: keys.T on a batch stopped every test, and the missing scale behind it was never
    told. Repaired, the test runs and its values show the scale's own fault: both are told, in the
    order to fix them, and each costs its share."""
    row = rows["keys_T_and_no_scale"]
    forward = [test for test in row.tests if test.name.startswith("test_causal_attention_forward[cpu")]
    assert forward
    for test in forward:
        assert test.status is TestStatus.FAILED
        assert [fault.mistake for fault in test.finding.all_faults()][:1] == ["keys_T_on_batch"]
        assert "no_sqrt_scaling" in test.finding.mistakes()
    lost = {loss.behaviour for loss in _stage(row, CAUSAL).lost_to}
    assert {"scores", "scale"} <= lost
    assert "ran this test again with the line that raised changed" in feedback_html(row)


@pytest.mark.slow
def test_a_repair_after_which_the_module_leaks_tells_the_leak_and_caps_the_stage(rows):
    """Repaired, the module without a mask runs and lets the future in: that fault is told beside
    the slip, and the stage keeps at most what a leaking module keeps."""
    row = rows["transposed_heads_and_no_mask"]
    forward = [test for test in row.tests if test.name.startswith("test_multi_head_attention_forward[cpu")]
    assert forward
    assert all(test.status is TestStatus.FAILED and test.finding.mistake == "transpose_fixed_dims"
               and len(test.finding.all_faults()) > 1 for test in forward)
    total = _stage(row, MHA)
    assert total.points <= total.max_points * rubric.purpose_keeps(MHA) + 0.05


@pytest.mark.slow
def test_a_repair_that_does_not_make_the_test_pass_tells_what_it_showed_and_pins_nothing(rows):
    """The forward still fails once repaired, for a reason no mistake names (an offset): the slip
    is told, then what the repaired run showed, stated as a further fault (it would stay hidden
    behind the crash otherwise); nothing is pinned, and the stage keeps nothing (a behaviour check
    the repair makes pass counts for nothing alone)."""
    row = rows["transposed_heads_and_an_offset"]
    forward = [test for test in row.tests if test.name.startswith("test_multi_head_attention_forward[cpu")]
    assert forward
    for test in forward:
        assert [fault.mistake for fault in test.finding.all_faults()] == ["transpose_fixed_dims", None]
        assert "evidence.repaired_then_failed" in [note.key for note in test.finding.notes]
    assert _stage(row, MHA).points == 0


@pytest.mark.slow
def test_a_crash_on_some_inputs_only_costs_its_behaviours_share(rows):
    """The mask left at context_length crashes only where a sequence is shorter: the rest runs."""
    total = _stage(rows["mask_never_sliced"], CAUSAL)
    assert {loss.behaviour for loss in total.lost_to} == {"mask"}
    share = rubric.behaviour_shares(CAUSAL)["mask"] / 100 * rubric.value_points("03_causal_attention", CAUSAL)
    assert total.points == pytest.approx(total.max_points - share, abs=0.05)
