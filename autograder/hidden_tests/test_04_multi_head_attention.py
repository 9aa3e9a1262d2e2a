"""Hidden tests of 04_multi_head_attention: the wrapper, split/merge of heads, MultiHeadAttention."""

from __future__ import annotations

import math
import re

import pytest
import torch

from autograder.findings.finding import Failure, finding
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import (
    TOLERANCES,
    expect,
    expect_function_output,
    expect_tensor,
    shape_text,
)
from autograder.hidden.dropout import weights_revealing_attention
from autograder.hidden.modules import (
    attention_divisor,
    attention_scale_and_mask,
    call_text,
    expect_class_runs_on_stand_in,
    expect_message_names,
    expect_no_future_leakage,
    expect_on_stand_in,
    expect_runs_on_stand_in,
    expect_same_gradients,
    expect_same_output,
    expect_value_error,
    future_of_sequence,
    load_reference_weights,
    module_case,
    on_stand_in,
    randn,
    reference_module,
    student_module,
)
from autograder.probes.client import RemoteObject, StudentError

ASSIGNMENT = "04_multi_head_attention"


# -- MultiHeadAttentionWrapper ----------------------------------------------------------------
# (seed, b, T, d_in, d_out per head, context_length, num_heads, qkv_bias)
WRAPPER_CASES = [(111, 2, 5, 3, 2, 8, 2, False), (112, 3, 6, 5, 4, 6, 3, True)]


def _wrapper(student, reference, case, device, dtype):
    seed, batch, num_tokens, d_in, d_out, context_length, num_heads, qkv_bias = case
    return module_case(student, reference, "MultiHeadAttentionWrapper", (d_in, d_out, context_length, 0.0, num_heads),
                       qkv_bias=qkv_bias, seed=seed, batch=batch, num_tokens=num_tokens, device=device, dtype=dtype)


@pytest.mark.MultiHeadAttentionWrapper
@pytest.mark.parametrize("case", WRAPPER_CASES)
def test_wrapper_forward(student, reference, device, dtype, case):
    ref, module, x, what = _wrapper(student, reference, case, device, dtype)
    expect_same_output(module, ref, x, what, mistakes=lambda: mistakes.wrapper_mistakes(ref, x))


@pytest.mark.MultiHeadAttentionWrapper
def test_wrapper_gradients(student, reference, device, dtype):
    ref, module, x, what = _wrapper(student, reference, WRAPPER_CASES[1], device, dtype)
    expect_same_gradients(module, ref, x, 113, what)


def _expect_module_list(heads, call: str) -> None:
    """The wrapper's heads are an nn.ModuleList: another module container (a ModuleDict, a
    Sequential) registers them under other names; a plain list does not register them at all."""
    if isinstance(heads, RemoteObject) and heads.type_name == "ModuleList":
        return
    if isinstance(heads, RemoteObject) and heads.describe()["is_module"]:
        raise Failure(finding("heads_other_container", "heads_other_container", call=call,
                              type_name=heads.type_name))
    raise Failure(finding("heads_not_module_list", "heads_not_module_list", call=call))


@pytest.mark.MultiHeadAttentionWrapper
@pytest.mark.behaviour
def test_wrapper_heads_are_a_module_list(student):
    num_heads = 3
    call = call_text("MultiHeadAttentionWrapper", 3, 2, 8, 0.0, num_heads)
    heads = student.new("MultiHeadAttentionWrapper", 3, 2, 8, 0.0, num_heads).attr("heads")
    _expect_module_list(heads, call)
    kinds = list(heads.describe()["children"].values())
    expect(kinds == ["CausalAttention"] * num_heads,
           finding("wrong_head_modules", call=call, heads=num_heads, kinds=kinds))


@pytest.mark.MultiHeadAttentionWrapper
@pytest.mark.behaviour
def test_wrapper_runs_on_meta_device(student):
    call = call_text("MultiHeadAttentionWrapper", 5, 2, 8, 0.1, 3)
    module = student.new("MultiHeadAttentionWrapper", 5, 2, 8, 0.1, 3)
    heads = module.attr("heads")  # heads in a plain list stay behind: say that, not what it breaks
    _expect_module_list(heads, call)
    expect_runs_on_stand_in(module, (2, 6, 5), (2, 6, 6), call)


@pytest.mark.wrapper_with_2d_output
# The book's context_length of 6, a shorter one, and a longer one that a sequence fills (T = 8).
@pytest.mark.parametrize(("seed", "d_in", "context_length"), [(141, 3, 6), (142, 5, 4), (144, 4, 8)])
def test_wrapper_with_2d_output(student, reference, device, dtype, seed, d_in, context_length):
    """Book exercise 3.2: a two-head wrapper whose output has 2 features."""
    what = call_text("wrapper_with_2d_output", d_in, context_length, 0.0)
    ref = reference_module(reference.wrapper_with_2d_output, d_in, context_length, 0.0,
                           seed=seed, device=device, dtype=dtype)
    module = student.call("wrapper_with_2d_output", d_in, context_length, 0.0)
    expect(isinstance(module, RemoteObject) and module.type_name == "MultiHeadAttentionWrapper",
           finding("wrong_class", what=what, class_name="MultiHeadAttentionWrapper"))
    heads = module.attr("heads")
    num_heads = len(heads.describe()["children"]) if isinstance(heads, RemoteObject) else 0
    expect(num_heads == 2, finding("wrong_head_count", "one_head_of_two_features", what=what, expected_heads=2,
                                   heads=num_heads))
    module.to(device, dtype)
    x = randn(seed + 100, 2, context_length, d_in, dtype=dtype, device=device)
    features = _output_of_wrapper(student, module, x, what, d_in, context_length).shape[-1]
    expect(features == 2, finding("wrong_feature_count", "one_head_of_two_features", what=what, features=features))
    load_reference_weights(module, ref, what)
    module.eval()
    expect_same_output(module, ref, x, what)


def _output_of_wrapper(student, module: RemoteObject, x: torch.Tensor, what: str, d_in: int,
                       context_length: int) -> torch.Tensor:
    """``module(x)`` for a sequence as long as ``context_length``; where it raises but the student's
    own two-head wrapper built with the function's arguments runs, one was not passed on."""
    try:
        return module(x)
    except StudentError as error:
        try:
            student.new("MultiHeadAttentionWrapper", d_in, 1, context_length, 0.0, 2).to(x.device, x.dtype)(x)
        except StudentError:
            raise error from None  # the class itself fails here: its own error is the one to show
        own = call_text("MultiHeadAttentionWrapper", d_in, 1, context_length, 0.0, 2)
        raise Failure(finding("argument_not_passed_on", "argument_not_passed", what=what, call=own,
                              shape=shape_text(x.shape))) from None


# torch's words when backward finds a tensor it saved changed in place (never shown).
_IN_PLACE_SAVED_TENSOR = re.compile(r"modified by an inplace operation")


def _drops_in_training(module: RemoteObject, x: torch.Tensor) -> bool:
    """Whether the module's training-mode output differs from its evaluation-mode one."""
    module.eval()
    evaluated = module(x)
    module.train()
    trained = module(x)
    return not (isinstance(evaluated, torch.Tensor) and isinstance(trained, torch.Tensor)
                and torch.equal(evaluated, trained))


@pytest.mark.wrapper_with_2d_output
@pytest.mark.behaviour
def test_wrapper_with_2d_output_passes_dropout_on(student):
    """The function's dropout reaches the heads: in training, its wrapper drops attention weights
    whenever the student's own MultiHeadAttentionWrapper, built with that dropout, does."""
    d_in, context_length, p = 3, 6, 0.5
    x = randn(143, 2, context_length, d_in, dtype=torch.float32, device="cpu")
    if not _drops_in_training(student.new("MultiHeadAttentionWrapper", d_in, 1, context_length, p, 2), x):
        return  # the class itself drops nothing: its own stage says so
    module = student.call("wrapper_with_2d_output", d_in, context_length, p)
    if isinstance(module, RemoteObject):  # another result is test_wrapper_with_2d_output's finding
        expect(_drops_in_training(module, x),
               finding("dropout_not_passed_on", "dropout_argument_not_passed",
                       call=call_text("wrapper_with_2d_output", d_in, context_length, p), p=p))


# -- split_heads and merge_heads ---------------------------------------------------------------
# (seed, b, T, d_out, num_heads)
HEAD_CASES = [(121, 2, 5, 12, 3), (122, 3, 4, 8, 2), (123, 1, 6, 6, 6)]


@pytest.mark.split_heads
@pytest.mark.parametrize("case", HEAD_CASES)
def test_split_heads(student, reference, device, dtype, case):
    seed, batch, num_tokens, d_out, num_heads = case
    x = randn(seed, batch, num_tokens, d_out, dtype=dtype, device=device)
    what = finding("what.for_shape", call=f"split_heads(x, {num_heads})", argument="x", shape=shape_text(x.shape))
    expect_function_output(student, "split_heads", (x, num_heads), ("x", "num_heads"),
                           reference.split_heads(x, num_heads), what,
                           mistakes=lambda: mistakes.split_heads_mistakes(x, num_heads))


@pytest.mark.split_heads
@pytest.mark.behaviour
def test_split_heads_returns_a_view(student):
    x = randn(124, 2, 5, 12)
    result = student.call_then_fill("split_heads", (x, 3), {0: 7.0})
    expect(type(result) is torch.Tensor and bool((result == 7.0).all()),
           finding("split_copies", "split_copies", what="split_heads(x, 3)"))


@pytest.mark.split_heads
@pytest.mark.behaviour
@pytest.mark.parametrize("num_heads", [3, 4])
def test_split_heads_rejects_indivisible_sizes(student, num_heads):
    x = randn(125, 2, 5, 10)
    what = finding("what.for_shape", call=f"split_heads(x, {num_heads})", argument="x",
               shape=shape_text(x.shape))
    message = expect_value_error(lambda: student.call("split_heads", x, num_heads),
                                 lambda error_type: finding("wrong_error_for_heads", "indivisible_not_rejected",
                                                            what=what, error_type=error_type),
                                 finding("no_error_for_heads", "indivisible_not_rejected", what=what,
                                         features=x.shape[-1], heads=num_heads),
                                 valid=lambda: student.call("split_heads", randn(125, 2, 5, 2 * num_heads), num_heads))
    expect_message_names(message, {"d_out": x.shape[-1], "num_heads": num_heads}, what)  # the notebook asks for both


@pytest.mark.merge_heads
@pytest.mark.parametrize("case", HEAD_CASES)
def test_merge_heads_undoes_split_heads(student, reference, device, dtype, case):
    seed, batch, num_tokens, d_out, num_heads = case
    heads = reference.split_heads(randn(seed, batch, num_tokens, d_out, dtype=dtype,
                                        device=device), num_heads)
    what = finding("what.for_shape", call="merge_heads(x)", argument="x", shape=shape_text(heads.shape))
    expect_function_output(student, "merge_heads", (heads,), ("x",),
                           reference.merge_heads(heads), what, mistakes=lambda: mistakes.merge_heads_mistakes(heads))


# -- MultiHeadAttention -----------------------------------------------------------------------
# (seed, b, T, d_in, d_out, context_length, num_heads, qkv_bias): head size 4, 3 and 6, never
# the square root of d_out, so that each wrong scaling gives its own numbers.
MHA_CASES = [
    (131, 2, 5, 3, 12, 8, 3, False),
    (132, 3, 6, 5, 6, 6, 2, True),
    (133, 2, 4, 6, 6, 7, 1, False),
]


def _multi_head(student, reference, case, device, dtype, dropout=0.0, extra_biases_zeroed=False):
    seed, batch, num_tokens, d_in, d_out, context_length, num_heads, qkv_bias = case
    return module_case(student, reference, "MultiHeadAttention", (d_in, d_out, context_length, dropout, num_heads),
                       qkv_bias=qkv_bias, seed=seed, batch=batch, num_tokens=num_tokens, device=device, dtype=dtype,
                       extra_biases_zeroed=extra_biases_zeroed)


def _check_multi_head_forward(reference, ref, module, x, what, num_heads, expected=None):
    heads = (num_heads, reference.split_heads, reference.merge_heads)
    sizes = {"d_in": x.shape[-1], "d_out": ref.out_proj.out_features, "T": x.shape[1], "b": x.shape[0],
             "num_heads": num_heads}
    expect_same_output(module, ref, x, what, expected=expected,
                       mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=True, heads=heads),
                       explain=lambda: [future_of_sequence(module, x, 136),
                                        *attention_scale_and_mask(ref, x, sizes, heads=heads)])


@pytest.mark.MultiHeadAttention
@pytest.mark.parametrize("case", MHA_CASES)
def test_multi_head_attention_forward(student, reference, device, dtype, case):
    ref, module, x, what = _multi_head(student, reference, case, device, dtype)
    if case == MHA_CASES[0]:
        x[:, 2] = 0.0  # a token of zeros: without biases, its scores are exactly 0 (a mask read from `== 0` shows)
    _check_multi_head_forward(reference, ref, module, x, what, case[6])


@pytest.mark.MultiHeadAttention
def test_multi_head_attention_has_no_dropout_in_eval_mode(student, reference, device):
    case = MHA_CASES[0]
    ref, module, x, what = _multi_head(student, reference, case, device, torch.float64,
                                       dropout=0.5, extra_biases_zeroed=True)
    _check_multi_head_forward(reference, ref, module, x, finding("what.eval", what=what), case[6])


@pytest.mark.MultiHeadAttention
def test_multi_head_attention_gradients(student, reference, device, dtype):
    ref, module, x, what = _multi_head(student, reference, MHA_CASES[1], device, dtype)
    expect_same_gradients(module, ref, x, 134, what)


@pytest.mark.MultiHeadAttention
def test_multi_head_attention_hides_the_future(student, reference, device):
    case = MHA_CASES[0]
    ref, module, x, what = _multi_head(student, reference, case, device, torch.float64, extra_biases_zeroed=True)
    heads = (case[6], reference.split_heads, reference.merge_heads)

    def leaked(changed):
        return mistakes.attention_mistakes(ref, changed, causal=True, heads=heads)

    expect_no_future_leakage(module, ref, x, 135, what, mistakes=leaked)


@pytest.mark.MultiHeadAttention
@pytest.mark.parametrize("p", [0.2, 0.6])
def test_multi_head_attention_drops_attention_weights_in_training(student, reference, device, p):
    revealing = weights_revealing_attention(student, reference.MultiHeadAttention, "MultiHeadAttention", p=p,
                                            device=device, num_heads=2,
                                            split_merge=(reference.split_heads, reference.merge_heads))
    # The dropout of wrong weights would say nothing useful, but for one after them, a fault of its own.
    revealing.expect_eval_weights(dropout_faults=True)
    revealing.expect_dropped_weights()


@pytest.mark.MultiHeadAttention
@pytest.mark.behaviour
def test_multi_head_attention_trains_with_dropout(student):
    """A training step with dropout on runs backward: an in-place dropout on the softmax's output,
    which backward needs, makes autograd refuse (with p = 0, or in eval mode, nothing shows)."""
    p = 0.5
    module = student.new("MultiHeadAttention", 4, 4, 6, p, 2)
    module.train()
    x = randn(146, 2, 6, 4, dtype=torch.float32, device="cpu").requires_grad_(True)
    try:
        module.backward((x,), randn(147, 2, 6, 4, dtype=torch.float32, device="cpu"))
    except StudentError as error:
        if not _IN_PLACE_SAVED_TENSOR.search(error.message):
            raise
        raise Failure(finding("backward_fails_in_training", "dropout_in_place",
                              call=call_text("MultiHeadAttention", 4, 4, 6, p, 2), p=p)) from None


@pytest.mark.MultiHeadAttention
@pytest.mark.behaviour
@pytest.mark.parametrize(("d_out", "num_heads"), [(10, 3), (6, 4)])
def test_multi_head_attention_rejects_indivisible_sizes(student, d_out, num_heads):
    what = call_text("MultiHeadAttention", 4, d_out, 8, 0.0, num_heads)
    expect_value_error(lambda: student.new("MultiHeadAttention", 4, d_out, 8, 0.0, num_heads),
                       lambda error_type: finding("wrong_error_for_heads", "indivisible_not_rejected", what=what,
                                                  error_type=error_type),
                       finding("no_error_for_heads", "indivisible_not_rejected", what=what, features=d_out,
                               heads=num_heads),
                       valid=lambda: student.new("MultiHeadAttention", 4, 2 * num_heads, 8, 0.0, num_heads))


@pytest.mark.MultiHeadAttention
@pytest.mark.behaviour
def test_multi_head_attention_runs_on_meta_device(student):
    expect_class_runs_on_stand_in(student, "MultiHeadAttention", 5, 6, 8, 0.1, 3, input_shape=(2, 7, 5),
                              output_shape=(2, 7, 6))


@pytest.mark.MultiHeadAttention
def test_multi_head_attention_equals_the_wrapper(student, reference, device, dtype):
    """With the heads' weights stacked and an identity out_proj, both compute the same."""
    seed, batch, num_tokens, d_in, head_size, context_length, num_heads, _ = WRAPPER_CASES[1]
    wrapper = reference_module(reference.MultiHeadAttentionWrapper, d_in, head_size,
                               context_length, 0.0, num_heads, qkv_bias=True, seed=seed,
                               device=device, dtype=dtype)
    args = (d_in, head_size * num_heads, context_length, 0.0, num_heads)
    stacked = reference_module(reference.MultiHeadAttention, *args, qkv_bias=True, seed=seed,
                               device=device, dtype=dtype)
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            for part in ("weight", "bias"):
                getattr(getattr(stacked, name), part).copy_(torch.cat(
                    [getattr(getattr(head, name), part) for head in wrapper.heads]))
        stacked.out_proj.weight.copy_(torch.eye(head_size * num_heads))
        stacked.out_proj.bias.zero_()
        x = randn(seed + 200, batch, num_tokens, d_in, dtype=dtype, device=device)
        expected = wrapper(x)
    module = student_module(student, stacked, "MultiHeadAttention", *args, qkv_bias=True,
                            device=device, dtype=dtype)
    what = finding("what.stacked", call=call_text("MultiHeadAttention", *args, qkv_bias=True),
               heads=num_heads)
    _check_multi_head_forward(reference, stacked, module, x, what, num_heads, expected)


# -- gpt2_small_attention ---------------------------------------------------------------------
GPT2_PARAMETERS = 2_360_064  # 4 matrices of 768 x 768 and the out_proj bias (qkv_bias=False, as the notebook asks)
GPT2_QKV_BIASES = 3 * 768
GPT2_FEATURES = 768
GPT2_CONTEXT = 1024


@pytest.mark.gpt2_small_attention
def test_gpt2_small_attention_configuration(student):
    """Book exercise 3.3: 768 features in and out, no qkv bias (as the notebook asks), and a
    context of 1024 tokens: the module reads 1024 tokens, whatever form its mask takes (on the
    meta device, where only shapes are computed)."""
    module = student.call("gpt2_small_attention")
    what = "gpt2_small_attention()"
    expect(isinstance(module, RemoteObject) and module.type_name == "MultiHeadAttention",
           finding("wrong_class", what=what, class_name="MultiHeadAttention"))
    description = module.describe()
    count = sum(math.prod(shape) for shape, _ in description["parameters"].values())
    expect(count == GPT2_PARAMETERS,
           finding("parameter_count", "gpt2_qkv_bias" if count == GPT2_PARAMETERS + GPT2_QKV_BIASES else None,
                   what=what, parameters=f"{count:,}", expected_parameters=f"{GPT2_PARAMETERS:,}"))
    full_context = torch.empty(1, GPT2_CONTEXT, GPT2_FEATURES, device="meta")
    try:
        output = on_stand_in(lambda: module.call_on_stand_in_gpu(full_context))
    except StudentError as error:
        # A short input failing too: the student's own error, shown as it is.
        module.call_on_stand_in_gpu(full_context[:, :4])
        raise Failure(finding("context_too_short", "gpt2_context_length", what=what, tokens=GPT2_CONTEXT,
                              error_type=error.type_name)) from None
    if output is not None:
        expect_on_stand_in(output, full_context, finding("what.on_meta", what=what,
                                                         shape=shape_text(full_context.shape)))


@pytest.mark.gpt2_small_attention
def test_gpt2_small_attention_forward(student, reference, device):
    """12 heads and no dropout: the output equals the reference's, even in training mode."""
    ref = reference_module(reference.gpt2_small_attention, seed=151, device=device,
                           dtype=torch.float32).train()
    module = student.call("gpt2_small_attention")
    what = "gpt2_small_attention()"
    expect(isinstance(module, RemoteObject), finding("not_a_module", what=what))
    module.to(device)
    try:
        load_reference_weights(module, ref, what)
    except Failure as failure:
        if failure.finding.mistake != "qkv_bias_ignored":
            raise
        raise Failure(failure.finding.with_mistake("gpt2_qkv_bias")) from None  # the biases were asked for
    x = randn(152, 2, 4, 768, device=device)
    with torch.no_grad():
        expected = ref(x)
    in_training = finding("what.gpt2_training", call=what, shape=shape_text(x.shape))
    try:
        sizes = {"d_out": GPT2_FEATURES, "T": x.shape[1], "b": x.shape[0], "num_heads": 12}
        heads = (12, reference.split_heads, reference.merge_heads)
        expect_tensor(module(x), expected, in_training, mistakes=lambda: _gpt2_mistakes(reference, ref, x),
                      explain=lambda: [attention_divisor(ref, x, sizes, causal=True, heads=heads)])
    except Failure as failure:
        if failure.finding.mistake is None and _right_after_eval(module, x, expected):
            raise Failure(failure.finding.with_mistake("gpt2_dropout")) from None
        raise


def _right_after_eval(module: RemoteObject, x: torch.Tensor, expected: torch.Tensor) -> bool:
    """Whether the module gives the expected output once dropout is off: the evidence of dropout."""
    module.eval()
    output = module(x)
    rtol, atol = TOLERANCES[expected.dtype]
    return isinstance(output, torch.Tensor) and output.shape == expected.shape and torch.allclose(
        output.cpu(), expected.cpu(), rtol=rtol, atol=atol)


def _gpt2_mistakes(reference, ref, x) -> dict[str, list[torch.Tensor]]:
    """The attention mistakes, and GPT-2 small's weights split into another number of heads."""
    wrong = mistakes.attention_mistakes(ref, x, causal=True,
                                        heads=(12, reference.split_heads, reference.merge_heads))
    other_heads = []
    for num_heads in (1, 2, 4, 6, 8, 16, 24, 32, 64):
        ref.num_heads, ref.head_dim = num_heads, GPT2_FEATURES // num_heads  # the reference's own attributes
        with torch.no_grad():
            other_heads.append(ref(x))
    return wrong | {"gpt2_head_count": other_heads}
