"""Names that must fit the code that ran (issue 40): the readers of the student's code and values
that the grader and the public check share (autograder/student/reading/code_read.py,
capped_softmax.py, the hard-coded loop of slips.py, batch_dims_not_handled in error_hints.py,
autograder/student/layer_names.py), each run on code and values as a notebook gives them."""

from __future__ import annotations

import pytest
import torch

from autograder.student.layer_names import misnamed_dropout
from autograder.student.reading.capped_softmax import softmax_cap
from autograder.student.reading.code_read import globals_kept, named_by_code, state_kept
from autograder.student.reading.error_hints import mistake_in_error
from autograder.student.reading.error_message import values_not_named
from autograder.student.reading.slips import slip_in_error

WEIGHTS_TRANSPOSED = """
def simple_self_attention(inputs):
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    return weights.T @ inputs
"""
SOFTMAX_ALONG_ROWS_THEN_MIXED = """
def simple_self_attention(inputs):
    return inputs.T @ (inputs @ inputs.T).softmax(-1)
"""
SOFTMAX_ALONG_COLUMNS = """
def simple_self_attention(inputs):
    return torch.softmax(inputs @ inputs.T, dim=0) @ inputs
"""
WEIGHTS_READ_TRANSPOSED_BY_EINSUM = """
def simple_self_attention(inputs):
    weights = torch.softmax(torch.einsum("id,jd->ij", inputs, inputs), dim=-1)
    return torch.einsum("ji,jd->id", weights, inputs)
"""
WEIGHTS_READ_BY_EINSUM = """
def simple_self_attention(inputs):
    weights = torch.softmax(torch.einsum("id,jd->ij", inputs, inputs), dim=-1)
    return torch.einsum("ij,jd->id", weights, inputs)
"""
PRODUCT_TRANSPOSED = """
def simple_self_attention(inputs):
    w = softmax_stable(inputs @ inputs.T, dim=-1)
    return (inputs.T @ w).T
"""
SOFTMAX_BY_DEFAULT = """
def simple_self_attention(inputs):
    return softmax_stable(inputs @ inputs.T) @ inputs
"""


@pytest.mark.parametrize(("source", "named"), [
    (WEIGHTS_TRANSPOSED, "weights_transposed"),  # every softmax along -1, the weights transposed
    (SOFTMAX_ALONG_ROWS_THEN_MIXED, None),  # along -1, and no transpose of the weights: nothing fits
    (SOFTMAX_ALONG_COLUMNS, "softmax_wrong_dim"),  # the code shows the wrong dim
    (SOFTMAX_BY_DEFAULT, None),  # notebook 1's own softmax by its default, dim -1: along the keys (blind25)
    (WEIGHTS_READ_TRANSPOSED_BY_EINSUM, "weights_transposed"),  # "ji,jd->id": the key's index kept
    (WEIGHTS_READ_BY_EINSUM, None),  # read the right way round: no transpose to name
    (PRODUCT_TRANSPOSED, "weights_transposed"),  # (inputs.T @ w).T is w.T @ inputs (review of notebook 1)
])
def test_a_softmax_along_the_wrong_dim_is_named_only_where_the_code_allows_it(source, named):
    assert named_by_code("softmax_wrong_dim", "simple_self_attention", [source]) == named


def test_a_running_mean_that_takes_a_softmax_then_zeroes_the_future_is_masked_after_it():
    """blind15/056: a softmax over all T positions (each 1/T) times the lower triangle gives the
    prefix sum over T, which values alone read as "divided by the sequence length"."""
    softmax_first = """
def causal_average_softmax(x):
    T = x.shape[1]
    weights = torch.softmax(torch.zeros(T, T), dim=-1) * torch.tril(torch.ones(T, T))
    return weights @ x
"""
    divided = """
def causal_average_softmax(x):
    return torch.cumsum(x, dim=1) / x.shape[1]
"""
    assert named_by_code("divided_by_sequence_length", "causal_average_softmax", [softmax_first]) == \
        "mask_after_softmax"
    assert named_by_code("divided_by_sequence_length", "causal_average_softmax", [divided]) == \
        "divided_by_sequence_length"


def test_a_name_without_the_stages_code_or_without_a_rule_stays():
    assert named_by_code("softmax_wrong_dim", "simple_self_attention", []) == "softmax_wrong_dim"
    assert named_by_code("missing_softmax", "simple_self_attention", [WEIGHTS_TRANSPOSED]) == "missing_softmax"


KV_CACHE = """
class CausalAttention(torch.nn.Module):
    def forward(self, x):
        if self.cache is not None:
            x = torch.cat([self.cache, x], dim=1)
        self.cache, self.calls = x, 1
        self.seen += 1
        return x
"""
WEIGHTS_KEPT_TO_PLOT = """
class CausalAttention(torch.nn.Module):
    def forward(self, x):
        weights = torch.softmax(x @ x.transpose(1, 2), dim=-1)
        self.last_weights = weights.detach()
        return self.dropout(weights) @ x
"""


def test_state_kept_between_calls_is_what_forward_both_reads_and_changes():
    assert state_kept("CausalAttention", [KV_CACHE]) == ["cache", "seen"]
    assert state_kept("CausalAttention", [WEIGHTS_KEPT_TO_PLOT]) == []  # written, never read back


MASK_CACHED_BY_SHAPE = """
_mask_cache = {}

def inverted_dropout(x, p, training=True, generator=None):
    key = tuple(x.shape)
    if key not in _mask_cache:
        _mask_cache[key] = torch.rand(x.shape, generator=generator) >= p
    return x * _mask_cache[key] / (1 - p)
"""
CALLS_COUNTED = """
calls = 0

def inverted_dropout(x, p, training=True, generator=None):
    global calls
    calls += 1
    return x
"""
LOCAL_AND_ARGUMENT_WRITES = """
def inverted_dropout(x, p, training=True, generator=None):
    kept = {}
    kept["mask"] = torch.rand(x.shape, generator=generator) >= p
    out = x.clone()
    out[~kept["mask"]] = 0
    x[0] = x[0]
    return out / (1 - p)
"""


def test_state_kept_outside_a_function_is_what_it_writes_into_names_it_does_not_make():
    assert globals_kept("inverted_dropout", [MASK_CACHED_BY_SHAPE]) == ["_mask_cache"]
    assert globals_kept("inverted_dropout", [CALLS_COUNTED]) == ["calls"]
    assert globals_kept("inverted_dropout", [LOCAL_AND_ARGUMENT_WRITES]) == []  # its own names, its argument


@pytest.mark.parametrize("message", ["p must be in [0, 1], got 1.5", "got p=1.50.", "p = 1.5e+00 is not allowed",
                                     "invalid p (1.5)"])
def test_a_message_names_a_value_however_python_writes_it(message):
    assert values_not_named(message, {"p": 1.5}) == []


@pytest.mark.parametrize(("message", "value"), [("invalid probability", 1.5), ("p=0.1 is not allowed", -0.1),
                                                ("got a float32 tensor", 32), ("version 1.5.3", 1.5)])
def test_a_message_without_the_value_does_not_name_it(message, value):
    assert values_not_named(message, {"p": value}) == ["p"]


MASK_AND_RENORMALIZE = """
def mask_and_renormalize(attn_weights):
    T = attn_weights.shape{index}
    masked = attn_weights * torch.tril(torch.ones(T, T))
    return masked / masked.sum(dim={dim}, keepdim=True)
"""
SIZES_ERROR = "The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 1"
# The sum keeps its dim: a sum without keepdim is told as that (tests/test_error_hints.py).
TRACEBACK = ('  File "<cell 3>", line 5, in mask_and_renormalize\n'
             '    return masked / masked.sum(dim={dim}, keepdim=True)\n')


@pytest.mark.parametrize(("index", "dim", "named"), [
    ("[-1]", "-1", "broadcast_mismatch"),  # T from the end, dims from the end: the advice is what it does
    ("[1]", "-1", "batch_dims_not_handled"),
    ("[-1]", "1", "batch_dims_not_handled"),
])
def test_batch_dims_not_handled_is_no_name_for_code_that_already_counts_from_the_end(index, dim, named):
    source = MASK_AND_RENORMALIZE.format(index=index, dim=dim)
    assert mistake_in_error("mask_and_renormalize", "RuntimeError", SIZES_ERROR, TRACEBACK.format(dim=dim),
                            [source]) == named


LOOP_OVER_THE_DEMOS_LENGTH = """
T = 8

def causal_average_loop(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range({count}):
            out[b, t] = x[b, : t + 1].mean(dim=0)
    return out
"""


@pytest.mark.parametrize(("count", "named"), [("T", "hard_coded_size"), ("8", "hard_coded_size"),
                                              ("x.shape[1]", None), ("2", None)])
def test_a_loop_over_a_fixed_count_past_the_inputs_end_is_a_hard_coded_size(count, named):
    slip = slip_in_error("IndexError", "index 5 is out of bounds for dimension 0 with size 5",
                         "out[b, t] = x[b, :t + 1].mean(dim=0)", [LOOP_OVER_THE_DEMOS_LENGTH.format(count=count)])
    assert (slip.mistake if slip else None) == named
    if slip:
        assert slip.fields == {"call": f"range({count})", "size": 8, "got": 5}


TRIANGLE_OF_THE_DEMOS_LENGTH = """
def causal_average_matmul(x):
    T = {size}
    w = torch.tril(torch.ones(T, T, dtype=x.dtype)) / T
    return w @ x
"""


@pytest.mark.parametrize(("size", "named"), [("8", "hard_coded_size"), ("x.shape[1]", None), ("2", None)])
def test_a_tensor_made_of_a_name_set_to_a_number_is_a_hard_coded_size(size, named):
    """A blind answer's ``T = 8`` then ``torch.ones(T, T)`` was told its factors were in the wrong
    order: the size torch quotes is the number the name was set to."""
    slip = slip_in_error("RuntimeError", "Expected size for first two dimensions of batch2 tensor to be: [2, 8] but"
                         " got: [2, 5].", "return w @ x", [TRIANGLE_OF_THE_DEMOS_LENGTH.format(size=size)])
    assert (slip.mistake if slip else None) == named
    if slip:
        assert slip.fields["size"] == 8


def _capped(x: torch.Tensor, cap: float, dtype=torch.float32) -> torch.Tensor:
    exps = torch.exp(x.to(dtype).clamp(max=cap))
    return exps / exps.sum(dim=-1, keepdim=True)


def test_scores_capped_before_exp_are_read_with_their_cap():
    x = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0], [0.0, 200.0, 400.0]],
                     dtype=torch.float64)
    assert softmax_cap(x, _capped(x, 80.0), -1) == pytest.approx(80.0, rel=1e-6)  # the NaN row underflowed
    rows = torch.tensor([[70.0, 90.0, 120.0, 10.0], [1.0, 2.0, 3.0, 4.0]], dtype=torch.float64)
    assert softmax_cap(rows.T, _capped(rows, 50.0, torch.float64).T, 0) == pytest.approx(50.0, rel=1e-6)


def test_slices_that_came_out_nan_beside_a_cap_are_put_down_to_their_shift_not_the_cap():
    """blind27/015 (a clamp at 80, then a shift by the whole tensor's maximum): its NaN were told as
    the capped softmax's, though a shift by each slice's own maximum has none."""
    from autograder.hidden.diagnosis import capped_scores

    x = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0], [0.0, 200.0, 400.0]])
    shifted = x.clamp(max=80.0) - x.clamp(max=80.0).max()
    weights = torch.exp(shifted) / torch.exp(shifted).sum(dim=-1, keepdim=True)
    told = capped_scores(x, -1)(weights, torch.softmax(x, dim=-1))
    assert told.evidence.key == "evidence.scores_capped_nan_slices"
    assert told.evidence.fields["cap"] == "80"
    assert capped_scores(x[[0, 2]], -1)(weights[[0, 2]], torch.softmax(x[[0, 2]], -1)).evidence.key == \
        "evidence.scores_capped"


def test_weights_equal_everywhere_or_right_name_no_cap():
    x = torch.tensor([[1000.0, 1001.0, 1002.0], [990.0, 995.0, 1010.0]], dtype=torch.float64)
    assert softmax_cap(x, torch.full_like(x, 1 / 3), -1) is None  # uniform everywhere: no cap can be read
    assert softmax_cap(x, torch.softmax(x, dim=-1), -1) is None


def test_a_dropout_layer_under_another_name_is_found_only_when_it_is_the_one():
    assert misnamed_dropout({"c_attn": "Linear", "attn_dropout": "Dropout"}) == "attn_dropout"
    assert misnamed_dropout({"dropout": "Dropout", "resid_dropout": "Dropout"}) is None
    assert misnamed_dropout({"attn_dropout": "Dropout", "resid_dropout": "Dropout"}) is None
    assert misnamed_dropout({"W_query": "Linear"}) is None


@pytest.mark.parametrize(("join", "named"), [
    ("torch.cat(list(x), dim=-1)", None),  # blind13/103: the batch's items joined, along the features
    ("torch.cat([x[:, h] for h in range(x.shape[1])], dim=1)", "heads_concat_wrong_dim"),
    ("torch.concat(x.unbind(1), -1)", None),
])
def test_a_concatenation_along_the_features_is_not_told_as_one_along_another_dim(join, named):
    source = f"import torch\n\ndef merge_heads(x):\n    return {join}\n"
    assert named_by_code("heads_concat_wrong_dim", "merge_heads", [source]) == named


MASK_TO_FUSED_ATTENTION = """
class MultiHeadAttention(nn.Module):
    def forward(self, x):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.mask[:T, :T])
"""
OPPOSITE_TO_FUSED_ATTENTION = """
class MultiHeadAttention(nn.Module):
    def forward(self, x):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=~self.mask[:T, :T])
"""


def test_a_right_mask_handed_to_the_fused_attention_is_named_for_that_function():
    """Values that read as a mask of the opposite meaning, where the code hands its mask to
    F.scaled_dot_product_attention as it is: that function reads True the other way round, and the
    name says so; the mask's opposite handed over leaves the plain name (reviews11 nb04)."""
    stage = "MultiHeadAttention"
    assert named_by_code("mask_inverted", stage, [MASK_TO_FUSED_ATTENTION]) == "sdpa_mask_inverted"
    assert named_by_code("mask_inverted", stage, [OPPOSITE_TO_FUSED_ATTENTION]) == "mask_inverted"
