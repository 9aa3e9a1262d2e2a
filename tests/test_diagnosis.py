"""Diagnosis from evidence, unit by unit: each explainer on tensors made for it, the rules that join
them with the catalogue, the slips read from exceptions, the stand-in GPU's device checks, and the
students' and instructors' small helpers that issue 35 added (nearest stage names, token marks)."""

from __future__ import annotations

import copy
import io
import math
import types
from contextlib import redirect_stdout

import pytest
import torch

from autograder.feedback.similarity_page import marked_html
from autograder.findings.finding import Failure, finding
from autograder.findings.render import render
from autograder.hidden import diagnosis, failures, modules, observations, signatures
from autograder.hidden.compare import expect_tensor
from autograder.probes.client import Call
from autograder.probes.errors import StudentError
from autograder.student.reading.slips import slip_in_error
from autograder.student.selfcheck.runner import check, hint, run_check
from autograder.term.similarity import MarkedCode
from autograder.worker import fake_gpu

SIZES = {"d_k": 4, "T": 5}


def _x(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def _explained(explainer, actual, expected):
    return diagnosis.explain(actual, expected, [explainer])


# -- explainers ---------------------------------------------------------------------------------------
def test_a_constant_factor_is_quoted_with_the_sizes_it_could_be():
    expected = _x(5, 4)
    [found] = _explained(diagnosis.constant_factor(SIZES), expected / 2, expected)
    assert found.mistake == "constant_factor"
    assert render(found.evidence) == " Every value is 1/2 times the reference's (= 1/sqrt(d_k), d_k = 4)."
    assert diagnosis.size_forms(8.0, {}) == ["sqrt(64)"]
    assert diagnosis.size_forms(1 / 8, {}) == ["1/sqrt(64)"]
    assert diagnosis.size_forms(3.0, {}) == []
    assert not _explained(diagnosis.constant_factor(SIZES), expected + 0.1, expected)


def test_divided_scores_name_the_scaling_mistake_their_divisor_means():
    queries, keys = _x(5, 4), _x(5, 4, seed=1)
    right = queries @ keys.T / 2
    sizes = {"d_k": 4, "T_q": 5, "T_k": 5}
    explainer = diagnosis.divided_scores(4, sizes)
    assert _explained(explainer, queries @ keys.T, right)[0].mistake == "no_sqrt_scaling"
    assert _explained(explainer, queries @ keys.T / 4, right)[0].mistake == "scaled_by_d_k"
    assert _explained(explainer, queries @ keys.T / math.sqrt(5), right)[0].mistake == "scaled_by_wrong_size"
    [found] = _explained(explainer, queries @ keys.T / 64, right)
    assert found.mistake == "scores_scaled_wrongly"
    assert "divided by 64" in render(found.evidence)


def test_the_divisor_of_attention_scores_is_fitted_on_the_output_and_only_when_pinned():
    scores, values = _x(6, 6), _x(6, 3, seed=2)

    def attend(divisor):
        return torch.softmax(scores / divisor, dim=-1) @ values

    found = diagnosis.fitted_divisor(attend(8.0), attend)
    assert found == pytest.approx(8.0, rel=1e-4)
    uniform = values.mean(dim=0, keepdim=True).expand(6, 3)
    assert diagnosis.fitted_divisor(uniform, attend) is None  # near-uniform weights fit every large divisor
    explainer = diagnosis.scores_divisor(attend, 2.0, "sqrt(d_k) = 2", {"d_k": 4},
                                         diagnosis.scaling_mistake(4, {"d_k": 4}))
    assert _explained(explainer, attend(5.0), attend(2.0))[0].mistake == "scores_scaled_wrongly"
    # 8 = 2·d_k, but as likely sqrt(64) written by hand: no one mistake
    assert _explained(explainer, attend(8.0), attend(2.0))[0].mistake == "scores_scaled_wrongly"
    assert _explained(explainer, attend(1.0), attend(2.0))[0].mistake == "no_sqrt_scaling"


def test_the_scale_is_read_on_the_positions_each_row_keeps_whatever_it_hides():
    """Scores multiplied by sqrt(d_k) under a mask that hides the past (the future kept): the
    reference's mask cannot fit the divisor, the kept positions do, as a fault of its own; a right
    scale under any mask, a softmax along another dim or weights rescaled after it fit nothing."""
    scores, d_k = _x(2, 5, 5), 4
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)

    def weights(mask, divisor, dim=-1):
        return torch.softmax(scores.masked_fill(mask, -math.inf) / divisor, dim=dim)

    sizes = {"d_k": d_k, "T": 5}
    explainer = diagnosis.divisor_on_visible(scores, 2.0, "sqrt(d_k) = 2", sizes, diagnosis.scaling_mistake(d_k, sizes))
    expected = weights(future, 2.0)
    [found] = _explained(explainer, weights(~future, 0.5), expected)  # the last row hides all: NaN
    assert (found.mistake, found.separate) == ("scale_multiplied", True)
    assert found.evidence.fields["divisor"] == "1/2"
    assert _explained(explainer, weights(future, 1.0), expected)[0].mistake == "no_sqrt_scaling"
    assert _explained(explainer, weights(~future, 2.0), expected) == []
    assert _explained(explainer, weights(future, 2.0) / 3, expected) == []
    assert _explained(explainer, weights(future, 1.0) / 2, expected) == []  # scaled after the softmax
    assert _explained(explainer, weights(future, 2.0, dim=-2), expected) == []


def test_an_exception_met_behind_a_shape_error_is_a_fault_of_its_own():
    """An average whose matrix is multiplied from the wrong side and made in float32: the shape
    error comes first, and what a run on sizes that fit raises (the dtype) is its own fault; the
    same mistake again, or one that names none, adds nothing."""
    swapped = StudentError("RuntimeError", "mat1 and mat2 shapes cannot be multiplied (10x3 and 5x5)",
                           '  File "<cell 13>", line 8, in causal_average_matmul\n    return x @ weights\n')
    dtype = StudentError("RuntimeError", "expected m1 and m2 to have the same dtype, but got: double != float",
                         '  File "<cell 13>", line 8, in causal_average_matmul\n    return x @ weights\n')
    swapped.behind = [swapped, dtype, StudentError("RuntimeError", "something else")]
    sources = ["def causal_average_matmul(x):\n    T = x.shape[1]\n    weights = torch.tril(torch.ones(T, T))\n"
               "    weights = weights / weights.sum(1, keepdim=True)\n    return x @ weights\n"]
    try:
        raise swapped
    except StudentError:
        _, found = failures.describe_failure(pytest.ExceptionInfo.from_current(), "causal_average_matmul", None,
                                             sources=sources)
    assert [fault.mistake for fault in found.all_faults()] == ["operands_swapped", "dtype_not_followed"]


def test_normalised_along_another_dim_or_not_at_all():
    x = _x(2, 5, 4)
    right = torch.softmax(x, dim=-1)
    explainer = diagnosis.distribution(-1, wrong_dim="softmax_wrong_dim")
    [other] = _explained(explainer, torch.softmax(x, dim=1), right)
    assert other.mistake == "softmax_wrong_dim"
    assert render(other.evidence) == " Its values sum to 1 along dim -2; they should sum to 1 along dim -1."
    [unnormalised] = _explained(explainer, torch.exp(x), right)
    assert unnormalised.mistake == "not_normalised"
    [sigmoid] = _explained(explainer, torch.sigmoid(x), right)
    assert sigmoid.evidence.key == "evidence.sums_to"
    assert not _explained(explainer, right / 2, right)  # a constant factor says that better


def test_right_values_in_another_order_or_shape():
    x = _x(2, 3, 5, 4)
    assert _explained(diagnosis.right_values_elsewhere, x.transpose(-2, -1), x)[0].evidence.key == "evidence.swapped"
    viewed = x.transpose(1, 2).reshape(2, 3, 5, 4)
    assert _explained(diagnosis.right_values_elsewhere, viewed, x)[0].evidence.key == "evidence.permuted_then_viewed"
    [flat] = _explained(diagnosis.right_values_elsewhere, x.reshape(2, -1), x)
    assert flat.mistake == "right_values_wrong_shape"


def test_a_symmetric_result_in_another_shape_is_told_as_the_shape_not_as_a_transpose():
    """Scores of ``inputs @ inputs.T`` kept in a batch of one (``bmm`` after ``unsqueeze(0)``): the
    values are the reference's, rounded otherwise, and equal their own transpose too; the shape is
    the fault, not an order of axes."""
    inputs = _x(5, 12)
    expected = inputs @ inputs.T
    batched = inputs.unsqueeze(0)
    actual = torch.bmm(batched, batched.transpose(1, 2))
    [found] = _explained(diagnosis.right_values_elsewhere, actual, expected)
    assert found.mistake == "right_values_wrong_shape"


def test_slices_scaled_by_their_own_factors_quote_them():
    x = _x(2, 5, 3)
    counts = torch.arange(1, 6, dtype=x.dtype).view(1, 5, 1)
    [found] = _explained(diagnosis.slice_factors(-1), x * counts, x)
    assert "1, 2, 3, 4, 5 along dim -2" in render(found.evidence)


def test_the_catalogue_names_first_and_two_explanations_name_none():
    evidence = finding("evidence.all_zeros")
    one, other = diagnosis.Explanation(evidence, "not_normalised"), diagnosis.Explanation(evidence, "axes_permuted")
    assert diagnosis.conclude({"mask_missing"}, [one]).mistake == "mask_missing"
    assert diagnosis.conclude({"mask_missing", "mask_inverted"}, [one]).mistake is None
    assert diagnosis.conclude(set(), [one]).mistake == "not_normalised"
    assert diagnosis.conclude(set(), [one, other]).mistake is None
    assert diagnosis.conclude(set(), [one, other]).evidence == (evidence, evidence)


def test_a_failure_states_the_evidence_before_the_named_mistake():
    x = _x(4, 4)
    with pytest.raises(Failure) as raised:
        expect_tensor(x * 3, x, "f(x)")
    text = str(raised.value)
    assert text.index("Every value is 3 times") < text.index("Likely mistake")


def test_float64_answers_right_at_float32_precision_pass_with_a_note():
    x = _x(4, 4)
    observations.take()
    expect_tensor(x.float().double() * (1 + 1e-7), x, "f(x)")
    taken = observations.take()
    assert [note.key for note in taken.notes] == ["note.float32_precision"]
    assert taken.largest_difference > 0
    with pytest.raises(Failure):
        expect_tensor(x * (1 + 1e-3), x, "f(x)")  # beyond float32's tolerance: wrong


# -- slips read from exceptions --------------------------------------------------------------------------
def said(slip) -> str:
    """A slip's evidence, in English, as the grader's finding words it."""
    return render(finding(slip.evidence, **slip.fields))


@pytest.mark.parametrize(("error_type", "message", "line", "mistake", "words"), [
    ("IndexError", "Dimension out of range (expected to be in range of [-3, 2], but got 4)",
     "w = torch.softmax(s, dim=self.d_out)", "dim_is_a_size", "self.d_out is 4 here"),
    ("AttributeError", "module 'torch.nn' has no attribute 'Model'", "", "attribute_typo", "did you mean Module?"),
    ("AttributeError", "'Tensor' object has no attribute 'tranpose'", "", "attribute_typo", "did you mean transpose?"),
    ("TypeError", "Linear.__init__() got an unexpected keyword argument 'biass'", "", "unknown_keyword",
     "did you mean bias?"),
    ("TypeError", 'softmax() missing 1 required positional arguments: "dim"', "torch.softmax(x, dims=-1)",
     "unknown_keyword", "did you mean dim?"),
])
def test_slips_are_named_with_the_names_involved(error_type, message, line, mistake, words):
    slip = slip_in_error(error_type, message, line, [])
    assert slip.mistake == mistake
    assert words in said(slip)


def test_a_misspelt_dunder_is_read_from_the_students_class():
    source = "class Head(nn.Module):\n    def __int__(self, d):\n        super().__init__()\n"
    slip = slip_in_error("TypeError", "Head() takes no arguments", "", [source])
    assert said(slip) == " — Head defines __int__, not __init__, so PyTorch never calls it."
    assert slip_in_error("IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
                         "x.transpose(1, 2)", []) is None  # a literal dim: no size involved


def test_sizes_that_do_not_make_the_tensor_are_quoted():
    slip = slip_in_error("RuntimeError", "shape '[2, 5, 3, 1]' is invalid for input of size 120",
                         "k = self.W_key(x).view(b, T, self.num_heads, self.head_dim)", [])
    assert slip.mistake == "view_sizes_wrong"
    assert said(slip) == " — the sizes (2, 5, 3, 1) make 30 elements, and the tensor has 120."


def test_sizes_that_do_not_make_a_merged_tensor_name_no_view_mistake():
    """Merging transposed heads, the sizes are the output's: the tensor came out of an earlier step
    in another shape (values not split, say), which the sizes cannot tell."""
    slip = slip_in_error("RuntimeError", "shape '[2, 4, 6]' is invalid for input of size 96",
                         "context = context.transpose(1, 2).contiguous().view(b, num_tokens, self.d_out)", [])
    assert slip.mistake is None
    assert said(slip) == " — the sizes (2, 4, 6) make 48 elements, and the tensor has 96."


def test_an_attribute_that_holds_what_register_buffer_returned_is_named():
    source = ("class Head(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
              "        self.mask = self.register_buffer('mask', torch.ones(n, n))\n")
    slip = slip_in_error("TypeError", "'NoneType' object is not subscriptable",
                         "scores = scores.masked_fill(self.mask[:T, :T], -torch.inf)", [source])
    assert slip.mistake == "registered_result_assigned"
    assert said(slip) == (" — self.mask is assigned what register_buffer returns, None, which takes the"
                                     " place of what register_buffer registered.")
    assert slip_in_error("TypeError", "'NoneType' object is not subscriptable", "x = self.other[0]",
                         [source]) is None


def test_outputs_of_one_sequence_that_follow_the_others_are_a_mixed_batch_not_a_leak():
    x = torch.randn(3, 4, 2, dtype=torch.float64)

    def mixed(t):  # keys transposed on the batch axis: token i of every sequence meets sequence i
        return t.transpose(0, 1).sum(dim=1, keepdim=True).transpose(0, 1).expand_as(t) * 1.0

    explainer = modules.future_of_sequence(mixed, x, 7)
    found = explainer(mixed(x), x)
    assert found.mistake == "batch_mixed"
    assert modules.future_of_sequence(lambda t: t.cumsum(dim=1), x, 7)(x.cumsum(dim=1), x) is None


WRAPPER = """
class Head(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()

class Wrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads):
        super().__init__()
        self.heads = nn.ModuleList([Head(d_in, d_out, dropout, context_length) for _ in range(num_heads)])
"""


def test_arguments_passed_in_another_order_than_the_signature_are_read_from_any_line():
    lines = ["self.heads = nn.ModuleList([Head(d_in, d_out, dropout, context_length) for _ in range(num_heads)])",
             "self.dropout = nn.Dropout(dropout)"]
    slip = slip_in_error("ValueError", "dropout probability has to be between 0 and 1, but got 8", lines[-1],
                         [WRAPPER], lines)
    assert slip.mistake == "arguments_out_of_order"
    assert said(slip) == (" — Head(d_in, d_out, dropout, context_length) passes dropout where Head takes"
                                     " context_length: its parameters are, in this order, (d_in, d_out,"
                                     " context_length, dropout, qkv_bias).")
    in_order = [lines[0].replace("dropout, context_length", "context_length, dropout")]
    assert slip_in_error("ValueError", "bad", in_order[0], [WRAPPER], in_order) is None


def test_weights_used_transposed_are_no_softmax_along_another_dim():
    scores = _x(2, 5, 5).masked_fill(torch.ones(5, 5, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    transposed = diagnosis.distribution(-1, wrong_dim="softmax_wrong_dim", transposed="weights_transposed")
    [found] = _explained(transposed, weights.transpose(-2, -1), weights)
    assert found.mistake == "weights_transposed"
    assert render(found.evidence) == " It holds the reference's values with dims -2 and -1 swapped."
    assert not _explained(diagnosis.distribution(-1, wrong_dim="softmax_wrong_dim"), weights.transpose(-2, -1),
                          weights)  # read as weights normalised along another dim, it would be misnamed
    assert _explained(transposed, torch.softmax(scores.nan_to_num(0.0), dim=-2), weights)[0].mistake == (
        "softmax_wrong_dim")


def test_wrapper_heads_given_a_share_of_d_out_are_named_so():
    reference = torch.nn.Module()
    reference.heads = torch.nn.ModuleList(torch.nn.Linear(3, 4) for _ in range(2))
    shared = {f"heads.{head}.{part}": ([2, 3] if part == "weight" else [2], "float32")
              for head in range(2) for part in ("weight", "bias")}
    with pytest.raises(Failure) as raised:
        modules.expect_reference_parameters({"parameters": shared}, reference, "Wrapper(3, 4, 8, 0.0, 2)")
    assert raised.value.finding.mistake == "wrapper_head_size"
    halved = {**shared, "heads.0.weight": ([4, 3], "float32"), "heads.0.bias": ([4], "float32")}
    with pytest.raises(Failure) as raised:
        modules.expect_reference_parameters({"parameters": halved}, reference, "Wrapper(3, 4, 8, 0.0, 2)")
    assert raised.value.finding.mistake is None  # one head's share only: no sharing of d_out to name


# -- the stand-in GPU -------------------------------------------------------------------------------------
class _PlainMask(torch.nn.Module):
    def __init__(self, buffer: bool):
        super().__init__()
        mask = torch.ones(6, 6, dtype=torch.bool).triu(1)
        if buffer:
            self.register_buffer("mask", mask)
        else:
            self.mask = mask

    def forward(self, x):
        scores = x @ x.transpose(1, 2)
        scores.masked_fill_(self.mask[: x.shape[1], : x.shape[1]], float("-inf"))
        return scores.softmax(-1) @ x


def test_the_stand_in_refuses_an_in_place_fill_with_a_mask_left_on_the_cpu():
    """The meta device ran this: in-place masked_fill_ never checks its mask's device there."""
    with pytest.raises(RuntimeError, match="same device"):
        fake_gpu.call_on_stand_in(_PlainMask(False), [torch.empty(2, 6, 3, device="meta")], {}, [])
    module = _PlainMask(True)
    result = fake_gpu.call_on_stand_in(module, [torch.empty(2, 6, 3, device="meta")], {}, [module])
    assert result.device.type == "meta"
    assert result.shape == (2, 6, 3)


def test_the_stand_in_brings_back_what_stayed_on_the_cpu_and_cannot_read_values():
    def made_on_the_cpu(x):
        return torch.zeros(x.shape)

    assert fake_gpu.call_on_stand_in(made_on_the_cpu, [torch.empty(2, 3, device="meta")], {}, []).device.type == "cpu"
    with pytest.raises(fake_gpu.CannotRunOnStandIn):
        fake_gpu.call_on_stand_in(lambda x: x.sum().item(), [torch.empty(2, 3, device="meta")], {}, [])


# -- check() and hint(), and the similarity page's marks ----------------------------------------------------
def test_check_and_hint_suggest_the_nearest_stage_and_say_what_to_do_without_one():
    assert "did you mean 'causal_mask'?" in run_check("causal_masks", {}, "en").message
    assert "did you mean 'softmax_naive'?" in run_check("Softmax_Naive", {}, "en").message
    printed = io.StringIO()
    with redirect_stdout(printed):
        check(namespace={}, language="en")
        hint(namespace={}, language="pt")
    lines = printed.getvalue().splitlines()
    assert lines[0].startswith("say which stage to check, for example check('attention_scores_for_query')")
    assert lines[1].startswith("diga qual etapa verificar")


def test_the_similarity_page_marks_whole_tokens_and_never_the_starter_code():
    code = 'import torch\n\ndef f(x):\n    """Starter docstring."""\n    y = torch.exp(x)  # mine\n    return y\n'
    starter = 'import torch\n\ndef f(x):\n    """Starter docstring."""\n    raise NotImplementedError\n'
    html = str(marked_html(MarkedCode(code, ((3, 200),)), starter))  # a region that starts inside "import"
    assert "<mark>" in html
    assert "impo<mark>" not in html
    assert "<mark>def" not in html
    assert "Starter docstring" not in html.split("<mark>", 1)[1].split("</mark>")[0]
    assert "<mark>y = torch.exp(x)</mark>  # mine" in html


# -- true float32, recorded --------------------------------------------------------------------------------
def test_float32_is_pinned_both_ways_and_read_back():
    from autograder.worker.precision import float32_pinned, float32_settings, math_attention_kernel, pin_float32

    torch.backends.cuda.matmul.fp32_precision = "tf32"  # what a student's code may do: the two APIs disagree
    assert not float32_pinned()
    pin_float32()
    math_attention_kernel()
    assert float32_pinned()
    settings = float32_settings()
    assert settings["cuda.matmul.fp32_precision"] == settings["backends.fp32_precision"] == "ieee"
    assert settings["cuda.matmul.allow_tf32"] == settings["cudnn.allow_tf32"] == "False"
    assert settings["sdpa.math_only"] == "True"


def test_later_sequences_that_follow_an_earlier_one_are_a_carry_over_not_a_leak():
    """A running total kept across the sequences of a batch: sequence 0 is right, later ones start
    from the totals before them. Changing only the later tokens changes them too, so the leak probe
    alone would read it as the future; changing only sequence 0 tells it apart."""
    x = torch.randn(3, 4, 2, dtype=torch.float64)

    def carried(t):
        running = torch.zeros(t.shape[-1], dtype=t.dtype)
        out = torch.empty_like(t)
        for b in range(t.shape[0]):  # the total is never reset for the next sequence
            for position in range(t.shape[1]):
                running = running + t[b, position]
                out[b, position] = running / (position + 1)
        return out

    found = modules.future_of_sequence(carried, x, 7)(carried(x), x)
    assert found.mistake == "batch_carried_over"
    assert "carries over into the next" in render(found.evidence)


def test_a_default_other_than_the_notebooks_is_read_from_the_signature():
    def inverted_dropout(x, p, training=True, generator=None):  # the notebook's signature
        return x

    class CausalAttention:
        def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
            pass

    changed = signatures.changed_defaults(
        "inverted_dropout", inverted_dropout, ["def inverted_dropout(x, p, training=False, generator=None):\n  pass\n"])
    assert [(c.parameter, c.written, c.given) for c in changed] == [("training", "False", "True")]
    written = ("class CausalAttention:\n"
               "    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=True): pass\n")
    assert [c.parameter for c in signatures.changed_defaults("CausalAttention", CausalAttention, [written])] == [
        "qkv_bias"]
    # The same default written otherwise, an expression, or a later definition that keeps it: nothing changed.
    for source in ("def inverted_dropout(x, p, training=1 == 1, generator=None): pass\n",
                   "def inverted_dropout(x, p, training=False): pass\n"
                   "def inverted_dropout(x, p, training=True): pass\n",
                   "def inverted_dropout(x, p, *, training=True, generator=None): pass\n"):
        assert signatures.changed_defaults("inverted_dropout", inverted_dropout, [source]) == [], source
    assert signatures.changed_defaults("inverted_dropout", inverted_dropout, ["def broken(:"]) == []
    # 0 and 0.0 mean the same default; True and 1 do not.
    assert signatures.changed_defaults("f", lambda x, dropout=0.0: x, ["def f(x, dropout=0): pass\n"]) == []
    assert len(signatures.changed_defaults("f", lambda x, flag=True: x, ["def f(x, flag=1): pass\n"])) == 1


def test_a_changed_default_is_the_mistake_named_in_place_of_what_the_values_suggested():
    source = "def inverted_dropout(x, p, training=False, generator=None):\n    return x\n"
    failed = finding("zero_fraction", "dropout_missing", what="inverted_dropout(x, p=0.1)", fraction="0.0%", p=0.1,
                     expected_fraction="10%").with_notes(finding("evidence.all_zeros"))
    left_out = [Call("inverted_dropout", 2, frozenset())]
    named = failures.with_changed_defaults(failed, "inverted_dropout", "03_causal_attention", [source], left_out)
    assert named.mistakes() == {"default_changed"}
    assert ("your signature gives training the default False; the notebook's gives True" in render(named))
    kept = "def inverted_dropout(x, p, training=True, generator=None):\n    return x\n"
    assert failures.with_changed_defaults(failed, "inverted_dropout", "03_causal_attention", [kept], left_out) is failed
    stub = finding("not_implemented", stage="inverted_dropout")
    assert failures.with_changed_defaults(stub, "inverted_dropout", "03_causal_attention", [source], left_out) is stub


def test_a_changed_default_is_not_named_where_the_test_passed_that_argument():
    """blind26/009: softmax_naive(x, dim=0) summing the whole tensor, called with dim=-1: the default
    played no part in what failed; the values' reading stands."""
    source = "def inverted_dropout(x, p, training=False, generator=None):\n    return x\n"
    failed = finding("zero_fraction", "dropout_missing", what="inverted_dropout(x, p=0.1, training=True)",
                     fraction="0.0%", p=0.1, expected_fraction="10%")
    for calls in ([Call("inverted_dropout", 2, frozenset({"training"}))],
                  [Call("inverted_dropout", 3, frozenset())],
                  [Call("softmax_naive", 1, frozenset())], []):
        assert failures.with_changed_defaults(failed, "inverted_dropout", "03_causal_attention", [source],
                                              calls) is failed, calls
    assert signatures.left_out(lambda x, p, training=True, generator=None: x, 1, frozenset({"generator"})) == {
        "training"}


class _Described:
    """A module as the hidden tests see one in the worker: described, and read attribute by attribute."""

    def __init__(self, module: torch.nn.Module):
        self.module = module

    def describe(self) -> dict:
        return {"children": {name: type(child).__name__ for name, child in self.module.named_children()}}

    def attr(self, name: str):
        value = getattr(self.module, name)
        return _Described(value) if isinstance(value, torch.nn.Module) else value


def test_dropout_layers_that_ignore_the_modules_dropout_argument_are_named():
    from autograder.hidden.dropout import WeightsRevealing

    class Attention(torch.nn.Module):
        def __init__(self, dropout):
            super().__init__()
            self.dropout = torch.nn.Dropout(dropout)

    failure = Failure(finding("zero_fraction", "dropout_keep_probability", what="CausalAttention(8, 9, 10, 0.6)",
                              fraction="49.3%", p=0.6, expected_fraction="60%"))

    def revealing(module, p):
        return WeightsRevealing(_Described(module), torch.zeros(1), torch.zeros(1), "CausalAttention", p, dict)

    ignored = revealing(Attention(0.5), 0.6)._with_layers_ignoring_p(failure)
    assert ignored.finding.mistake == "dropout_argument_ignored"
    assert "its dropout layers drop with self.dropout.p = 0.5" in render(ignored.finding)
    assert revealing(Attention(0.6), 0.6)._with_layers_ignoring_p(failure) is failure  # the layer is right
    assert revealing(torch.nn.Linear(2, 2), 0.6)._with_layers_ignoring_p(failure) is failure  # no layer to read


def test_the_large_softmax_inputs_tell_one_wrong_scaling_from_another():
    """x / max inside the exp and x / sum without it both give nearly uniform rows; on inputs too
    narrow for their size (500 ± 2) float32's tolerance took one for the other."""
    from autograder.hidden import wrong_outputs
    from autograder.hidden.compare import matching_mistake
    from autograder.hidden_tests.test_01_attention_scores import large_inputs

    reference = types.SimpleNamespace(softmax_naive=lambda x, dim: torch.exp(x) / torch.exp(x).sum(dim, keepdim=True),
                                      softmax_stable=torch.softmax)
    x = large_inputs(torch.float32, "cpu")
    assert not bool(torch.isfinite(torch.exp(x)).all())  # the naive formula still overflows
    e = torch.exp(x / x.max(dim=-1, keepdim=True).values)
    divided_by_max = e / e.sum(dim=-1, keepdim=True)
    candidates = wrong_outputs.softmax_mistakes(reference, x, -1)
    assert matching_mistake(divided_by_max, torch.softmax(x, dim=-1), candidates) is None
    without_exp = x / x.sum(dim=-1, keepdim=True)
    assert matching_mistake(without_exp, torch.softmax(x, dim=-1), candidates) == "normalised_without_exp"


def test_scores_right_but_on_the_diagonal_quote_the_diagonals_factor():
    x = torch.randn(5, 3, dtype=torch.float64)
    right = x @ x.T
    upper = torch.triu(right)
    found = diagnosis.explain(upper + upper.T, right, [diagnosis.diagonal_only()])  # the diagonal counted twice
    assert [explanation.mistake for explanation in found] == ["diagonal_changed"]
    assert render(found[0].evidence) == (" Every value off the diagonal is right; each one on it is 2 times the"
                                         " reference's.")
    assert diagnosis.explain(right * 2, right, [diagnosis.diagonal_only()]) == []  # off the diagonal too
    assert diagnosis.explain(right[:, :4], right[:, :4] + 1, [diagnosis.diagonal_only()]) == []  # not square


def test_a_causal_mask_in_attention_that_has_none_yet_is_named():
    from autograder.hidden import wrong_outputs
    from autograder.hidden.compare import matching_mistake

    torch.manual_seed(3)
    module = torch.nn.Module()
    module.W_query, module.W_key, module.W_value = (torch.nn.Linear(3, 2, dtype=torch.float64) for _ in range(3))
    x = torch.randn(6, 3, dtype=torch.float64)
    with torch.no_grad():
        q, k, v = module.W_query(x), module.W_key(x), module.W_value(x)
        right = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        causal = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    candidates = wrong_outputs.attention_mistakes(module, x, causal=False)
    assert matching_mistake(causal, right, candidates) == "mask_not_asked"
    assert matching_mistake(right, right, candidates) is None


def test_a_parameter_that_forward_changed_is_found_by_reading_it_back():
    from autograder.hidden.parameters import parameter_map

    reference = torch.nn.Module()
    reference.W_query = torch.nn.Linear(3, 2)
    student = copy.deepcopy(reference)
    found = parameter_map({name: list(p.shape) for name, p in student.named_parameters()}, reference)
    assert modules._parameter_changed_by_forward(_Described(student), found, reference) is None
    with torch.no_grad():
        student.W_query.weight.data /= 2  # what a forward that folds a scale into the weight leaves
    assert modules._parameter_changed_by_forward(_Described(student), found, reference) == "W_query.weight"


# -- every fault of a stage (issue 40, item 4) -------------------------------------------------------
def _mask_failure(actual: torch.Tensor) -> Failure:
    from autograder.hidden.wrong_outputs import causal_mask_mistakes

    expected = torch.ones(4, 4, dtype=torch.bool).triu(1)
    with pytest.raises(Failure) as raised:
        expect_tensor(actual, expected, "causal_mask(4)", mistakes=lambda: causal_mask_mistakes(expected))
    return raised.value


def test_a_mask_with_three_faults_reports_each_in_the_order_to_fix_them():
    keep = torch.tril(torch.ones(4, 4, dtype=torch.uint8))  # 1 keeps the past: the opposite meaning
    found = _mask_failure(keep.view(1, 1, 4, 4)).finding
    assert [(fault.key, fault.mistake) for fault in found.all_faults()] == [
        ("wrong_shape", None), ("wrong_dtype", None), ("entries_wrong", "mask_inverted")]
    assert found.mistakes() == {"mask_inverted"}  # the dtype's "right pattern" would be false here
    assert render(found).count("Another fault, to fix as well:") == 2
    assert "causal_mask(4), read in shape (4, 4) and dtype torch.bool: 16 of 16 entries are wrong" in render(found)


def test_a_mask_with_one_fault_reports_that_one():
    right = torch.ones(4, 4, dtype=torch.bool).triu(1)
    assert [(fault.key, fault.mistake) for fault in _mask_failure(right.to(torch.uint8)).finding.all_faults()] == [
        ("wrong_dtype", "mask_not_bool")]
    assert [fault.key for fault in _mask_failure(right[None, None]).finding.all_faults()] == ["wrong_shape"]
    other_layout = torch.ones(2, 8, dtype=torch.bool)  # cannot be read in (4, 4): nothing behind its shape
    assert [fault.key for fault in _mask_failure(other_layout).finding.all_faults()] == ["wrong_shape"]


def test_faults_travel_as_data_with_their_mistakes():
    found = finding("wrong_shape", what="f(x)", actual_shape="(1, 4)", expected_shape="(4,)").with_faults(
        finding("entries_wrong", "mask_inverted", what="f(x)", count=4, total=4, index="(0,)", value="True"))
    stored = found.to_json()
    assert stored["faults"][0]["mistake"] == "mask_inverted"
    assert type(found).from_json(stored) == found
    assert found.mistakes() == {"mask_inverted"}
    assert failures._unnamed(found).mistakes() == set()
    assert "Outro erro, a corrigir também:" in render(found, "pt")
    assert "另一个问题" in render(found, "zh")


def test_a_separate_explanation_is_a_fault_of_its_own_never_a_rival():
    leak = diagnosis.Explanation(finding("evidence.all_zeros"), "future_leak")
    scale = diagnosis.Explanation(finding("evidence.all_zeros"), "no_sqrt_scaling", separate=True)
    concluded = diagnosis.conclude(set(), [leak, scale])
    assert concluded.mistake == "future_leak"
    assert [fault.mistake for fault in concluded.faults] == ["no_sqrt_scaling"]
    assert diagnosis.conclude(set(), [scale]).faults == (scale,)


def test_a_wrapper_with_nanogpt_heads_and_a_projection_has_two_faults():
    reference = torch.nn.Module()
    reference.heads = torch.nn.ModuleList(torch.nn.Linear(8, 2) for _ in range(2))  # d_in 8, d_out 2, 2 heads
    shapes = {f"heads.{head}.{part}": ([4, 8] if part == "weight" else [4], "float32")  # d_in // num_heads = 4
              for head in range(2) for part in ("weight", "bias")}
    shapes |= {"proj.weight": ([2, 2], "float32"), "proj.bias": ([2], "float32")}
    with pytest.raises(Failure) as raised:
        modules.expect_reference_parameters({"parameters": shapes}, reference, "Wrapper(8, 2, 8, 0.0, 2)")
    assert [fault.mistake for fault in raised.value.finding.all_faults()] == [
        "wrapper_heads_not_d_out", "wrapper_own_layers"]  # not d_out's share: no sharing of d_out to name
    only_projection = {f"heads.{head}.{part}": ([2, 8] if part == "weight" else [2], "float32")
                       for head in range(2) for part in ("weight", "bias")} | {"proj.weight": ([4, 4], "float32")}
    with pytest.raises(Failure) as raised:
        modules.expect_reference_parameters({"parameters": only_projection}, reference, "Wrapper(8, 2, 8, 0.0, 2)")
    assert [fault.mistake for fault in raised.value.finding.all_faults()] == ["wrapper_own_layers"]


class _HeadsByView(torch.nn.Module):
    """Causal attention over heads cut with view alone, straight to (b, h, T, hd): masked right,
    yet with several heads each "head" holds features of several tokens (blind11/091)."""

    def __init__(self, num_heads: int, masked: bool = True):
        super().__init__()
        self.num_heads, self.masked = num_heads, masked

    def forward(self, x):
        b, num_tokens, d = x.shape
        heads = x.view(b, self.num_heads, num_tokens, d // self.num_heads)
        scores = heads @ heads.transpose(2, 3)
        if self.masked:
            future = torch.ones(num_tokens, num_tokens, dtype=torch.bool).triu(1)
            scores = scores.masked_fill(future, -torch.inf)
        return (torch.softmax(scores, dim=-1) @ heads).transpose(1, 2).reshape(b, num_tokens, d)


def test_a_leak_that_one_head_does_not_have_is_told_as_tokens_mixed_outside_the_weights():
    x = torch.randn(2, 5, 6, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    assert modules.first_leak(_HeadsByView(3), x, 1) == 0  # three heads by view: the future leaks
    assert modules.first_leak(_HeadsByView(1), x, 1) is None  # one head: the mask holds
    assert modules.heads_leak_cause(lambda: (_HeadsByView(1), x, lambda out: None), 1)() == \
        "tokens_mixed_outside_weights"


def test_a_leak_that_one_head_has_too_is_told_as_a_leak_through_the_weights():
    x = torch.randn(2, 5, 6, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    assert modules.heads_leak_cause(lambda: (_HeadsByView(1, masked=False), x, lambda out: None), 1)() == "future_leak"
    # the mistake its one-head output reproduces, where one does (blind16's softmax along the queries)
    assert modules.heads_leak_cause(lambda: (_HeadsByView(1, masked=False), x, lambda out: "mask_missing"),
                                    1)() == "mask_missing"

    def cannot_be_built():
        raise Failure(finding("parameters", what="MultiHeadAttention(6, 6, 8, 0.0, 1)", problems=[]))

    assert modules.heads_leak_cause(cannot_be_built, 1)() == "future_leak"



def test_weights_rounded_to_half_precision_are_told_so_not_as_rows_left_unnormalised():
    """A softmax taken in float16 gives the right weights, rounded: its rows sum to 0.9999, which
    is no normalisation left out (blind12/090)."""
    scores = torch.randn(4, 6, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    expected = torch.softmax(scores, dim=-1)
    rounded = torch.softmax(scores.half(), dim=-1).double()
    assert diagnosis.distribution(-1)(rounded, expected) is None
    explanation = diagnosis.low_precision(rounded, expected)
    assert explanation is not None
    assert explanation.evidence.key == "evidence.low_precision"
    assert explanation.mistake is None
    assert diagnosis.low_precision(expected * 1.5, expected) is None  # a real fault is no rounding
    assert diagnosis.low_precision(expected.clone(), expected) is None
    # A scale that is only a little wrong stays within the rounding's size, but its values are no
    # half precision's (blind13/081: sqrt(d_in) for sqrt(d_out) was told "rounded as half precision").
    slightly_off = torch.softmax(scores / 1.01, dim=-1)
    assert (slightly_off - expected).abs().max() < 0.01
    assert diagnosis.low_precision(slightly_off, expected) is None


def test_scores_returned_as_a_softmax_of_scaled_scores_say_so_and_by_what_factor():
    """blind15/004 returned softmax(scores / sqrt(d)) where the stage asks for the scores: the
    grader said only "6 of 6 values differ"."""
    scores = torch.tensor([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])
    found = diagnosis.softmax_of_right(-1)(torch.softmax(scores / 3**0.5, dim=-1), scores)
    assert found.mistake == "returned_weights_not_scores"
    assert found.evidence.key == "evidence.softmax_of_scaled"
    assert found.evidence.fields["factor"] == diagnosis.number_text(3**-0.5)
    assert diagnosis.softmax_of_right(-1)(torch.softmax(scores, dim=-1), scores).evidence.key == \
        "evidence.softmax_of_right"
    assert diagnosis.softmax_of_right(-1)(scores / scores.sum(), scores) is None


def test_rows_that_repeat_one_row_of_the_reference_say_which():
    expected = torch.arange(12.0).reshape(4, 3)
    repeated = expected[2].expand(4, 3).clone()
    explanation = diagnosis.one_row_repeated(repeated, expected)
    assert explanation is not None
    assert explanation.evidence.fields["row"] == 2
    assert diagnosis.one_row_repeated(expected, expected) is None  # its rows differ
    alike = torch.ones(4, 3)
    assert diagnosis.one_row_repeated(alike, alike * 2) is None  # the reference's rows are alike too


def test_an_output_with_its_last_two_dims_swapped_is_read_back_for_the_faults_behind():
    expected = torch.arange(12.0).reshape(4, 3)
    wrong = expected[0].expand(4, 3).T.clone()  # (3, 4): row 0 repeated, stacked as columns
    with pytest.raises(Failure) as failure:
        expect_tensor(wrong, expected, "f(x)")
    first, behind = failure.value.finding.all_faults()
    assert first.key == "wrong_shape"
    assert behind.fields["what"].key == "what.read_transposed"
    assert "evidence.one_row_repeated" in {note.key for note in behind.notes}


def test_a_softmax_of_its_input_divided_slice_by_slice_is_told_with_the_divisors():
    """A blind answer divided each row by its largest value, where the stable softmax subtracts it."""
    x = _x(3, 7) * 40
    explain = diagnosis.softmax_of_rescaled_input(x, -1)
    divided = torch.softmax(x / x.abs().amax(dim=-1, keepdim=True), dim=-1)
    explanation = explain(divided.double(), torch.softmax(x, dim=-1).double())
    assert explanation.evidence.key == "evidence.softmax_of_rescaled_input"
    assert explanation.mistake is None  # a style of its own: stated, never named
    assert explain(torch.softmax(x, dim=-1).double() * 0.5, torch.softmax(x, dim=-1).double()) is None


def test_one_row_of_the_inputs_alone_is_told_and_whether_it_has_the_largest_weight():
    inputs, weights = _x(6, 3), torch.softmax(_x(6, seed=1), dim=0)
    expected = weights @ inputs
    largest = int(weights.argmax())
    hard = diagnosis.one_input_row(inputs, weights)(inputs[largest].double(), expected.double())
    assert hard.evidence.key == "evidence.one_input_row_largest"
    assert hard.evidence.fields["row"] == largest
    other = (largest + 1) % 6
    assert diagnosis.one_input_row(inputs, weights)(inputs[other].double(), expected.double()).evidence.key == (
        "evidence.one_input_row")
    assert diagnosis.one_input_row(inputs, weights)(expected.double() * 2, expected.double()) is None


def test_scores_that_are_distances_between_tokens_are_told_so():
    """A blind answer returned torch.cdist(inputs, inputs): 0 on the diagonal, not dot products."""
    inputs = _x(6, 3)
    explain = diagnosis.pairwise_distances(inputs)
    expected = (inputs @ inputs.T).double()
    assert explain(torch.cdist(inputs, inputs).double(), expected).evidence.key == "evidence.distances"
    assert explain(-torch.cdist(inputs, inputs).double() ** 2, expected).evidence.key == (
        "evidence.negative_squared_distances")
    assert explain(expected * 2, expected) is None


def test_a_tensor_made_with_hard_coded_sizes_is_named_when_an_assignment_into_it_does_not_fit():
    """A reviewer's running mean wrote into torch.zeros(4, 8, 2): torch's "expanded size" words
    quote the 4, as the range(8) of a loop is named (it was only torch's raw error)."""
    source = ("import torch\n\ndef causal_average_loop(x):\n    out = torch.zeros(4, 8, 2)\n"
              "    for t in range(x.shape[1]):\n        out[:, t] = x[:, : t + 1].mean(dim=1)\n    return out\n")
    line = "        out[:, t] = x[:, : t + 1].mean(dim=1)"
    message = ("The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0."
               "  Target sizes: [4, 2].  Tensor sizes: [2, 3]")
    slip = slip_in_error("RuntimeError", message, line, [source], [line])
    assert slip is not None
    assert slip.mistake == "hard_coded_size"
    assert slip.fields == {"call": "torch.zeros(4, 8, 2)", "size": 4}
