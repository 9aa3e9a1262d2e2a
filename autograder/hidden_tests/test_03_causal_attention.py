"""Hidden tests of 03_causal_attention: hiding future words, dropout, CausalAttention."""

from __future__ import annotations

import math

import pytest
import torch

from autograder.findings.finding import Failure, finding
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import (
    TOLERANCES,
    What,
    expect,
    expect_structure,
    expect_tensor,
    shape_text,
)
from autograder.hidden.modules import (
    call_text,
    expect_class_runs_on_meta,
    expect_no_future_leakage,
    expect_same_gradients,
    expect_same_output,
    module_case,
    randn,
    reference_module,
    student_module,
)
from autograder.probes.client import StudentError
from autograder.worker.protocol import Seeded

ASSIGNMENT = "03_causal_attention"

# (seed, batch b, tokens T, channels C) for the running means.
AVERAGE_CASES = [(61, 2, 5, 3), (62, 3, 4, 6)]


def _check_causal_average(student, reference, name, case, device, dtype):
    seed, *shape = case
    x = randn(seed, *shape, dtype=dtype, device=device)
    average = getattr(reference, name)
    expect_tensor(student.call(name, x), average(x),
                  finding("what.for_shape", call=f"{name}(x)", argument="x", shape=shape_text(x.shape)),
                  mistakes=lambda: mistakes.causal_average_mistakes(average, x))


@pytest.mark.causal_average_loop
@pytest.mark.parametrize("case", AVERAGE_CASES)
def test_causal_average_loop(student, reference, device, dtype, case):
    _check_causal_average(student, reference, "causal_average_loop", case, device, dtype)


@pytest.mark.causal_average_matmul
@pytest.mark.parametrize("case", AVERAGE_CASES)
def test_causal_average_matmul(student, reference, device, dtype, case):
    _check_causal_average(student, reference, "causal_average_matmul", case, device, dtype)


@pytest.mark.causal_average_softmax
@pytest.mark.parametrize("case", AVERAGE_CASES)
def test_causal_average_softmax(student, reference, device, dtype, case):
    _check_causal_average(student, reference, "causal_average_softmax", case, device, dtype)


def _check_causal_mask(student, reference, num_tokens, **kwargs):
    expected = reference.causal_mask(num_tokens, **kwargs)
    expect_tensor(student.call("causal_mask", num_tokens, **kwargs), expected,
                  call_text("causal_mask", num_tokens, **kwargs),
                  mistakes=lambda: mistakes.causal_mask_mistakes(expected))


@pytest.mark.causal_mask
@pytest.mark.parametrize("num_tokens", [4, 7])
def test_causal_mask(student, reference, device, num_tokens):
    _check_causal_mask(student, reference, num_tokens, device=device)


@pytest.mark.causal_mask
def test_causal_mask_default_device(student, reference):
    _check_causal_mask(student, reference, 5)


@pytest.mark.causal_mask
def test_causal_mask_on_meta_device(student, reference):
    _check_causal_mask(student, reference, 6, device="meta")


@pytest.mark.mask_and_renormalize
@pytest.mark.parametrize(("seed", "shape"), [(71, (5, 5)), (72, (2, 6, 6))])
def test_mask_and_renormalize(student, reference, device, dtype, seed, shape):
    weights = torch.softmax(randn(seed, *shape, dtype=dtype, device=device), dim=-1)
    expect_tensor(student.call("mask_and_renormalize", weights),
                  reference.mask_and_renormalize(weights),
                  finding("what.for_shape", call="mask_and_renormalize(attn_weights)",
                      argument="attn_weights", shape=shape_text(shape)),
                  mistakes=lambda: mistakes.mask_and_renormalize_mistakes(weights))


# (seed, scores shape, d_k): one sequence, a batch, a batch of heads.
MASKED_SOFTMAX_CASES = [(81, (5, 5), 4), (82, (2, 6, 6), 3), (83, (2, 3, 5, 5), 8)]


@pytest.mark.masked_softmax
@pytest.mark.parametrize(("seed", "shape", "d_k"), MASKED_SOFTMAX_CASES)
def test_masked_softmax(student, reference, device, dtype, seed, shape, d_k):
    scores = randn(seed, *shape, dtype=dtype, device=device, scale=2.0)
    expect_tensor(student.call("masked_softmax", scores, d_k),
                  reference.masked_softmax(scores, d_k),
                  finding("what.for_shape", call=f"masked_softmax(attn_scores, d_k={d_k})",
                      argument="attn_scores", shape=shape_text(shape)),
                  mistakes=lambda: mistakes.masked_softmax_mistakes(scores, d_k))


@pytest.mark.masked_softmax
def test_masked_softmax_gradient(student, reference, device, dtype):
    seed, shape, d_k = MASKED_SOFTMAX_CASES[1]
    scores = randn(seed, *shape, dtype=dtype, device=device, requires_grad=True)
    grad_output = randn(seed + 100, *shape, dtype=dtype, device=device)
    reference.masked_softmax(scores, d_k).backward(grad_output)
    result = student.backward("masked_softmax", (scores, d_k), grad_output)
    expect_tensor(result["arg_grads"][0], scores.grad,
                  finding("what.argument_gradient", call=f"masked_softmax(attn_scores, d_k={d_k})",
                      argument="attn_scores", shape=shape_text(shape)))


# -- inverted dropout: tested by invariants, never by an exact mask --------------------------
def _dropout_input(seed, dtype, device):
    """Values away from zero, so that a zero in the output can only come from dropout."""
    return randn(seed, 40, 50, dtype=dtype, device=device).abs() + 0.5


def _expect_zero_fraction(kept: torch.Tensor, p: float, what: What) -> None:
    """About a fraction p of the elements is zeroed: within 5 standard deviations."""
    zeroed = 1.0 - kept.double().mean().item()
    tolerance = 5 * math.sqrt(p * (1 - p) / kept.numel())
    if abs(zeroed - p) <= tolerance:
        return
    mistake = None
    if zeroed == 0.0:
        mistake = "dropout_missing"
    elif abs(zeroed - (1 - p)) <= tolerance:
        mistake = "dropout_keep_probability"
    raise Failure(finding("zero_fraction", mistake, what=what, fraction=f"{zeroed:.1%}", p=p,
                          expected_fraction=f"{p:.0%}"))


@pytest.mark.inverted_dropout
@pytest.mark.parametrize(("seed", "p"), [(101, 0.1), (102, 0.3), (103, 0.75)])
def test_inverted_dropout_in_training(student, device, dtype, seed, p):
    x = _dropout_input(seed, dtype, device)
    what = finding("what.for_shape", call=f"inverted_dropout(x, p={p}, generator=...)", argument="x",
               shape=shape_text(x.shape))
    y = student.call("inverted_dropout", x, p, generator=Seeded(seed, device))
    expect_structure(y, x, what)
    kept = y != 0
    _expect_zero_fraction(kept.cpu(), p, what)
    expect_tensor(y, x * kept / (1 - p), finding("what.elements_kept", what=what),
                  mistakes=lambda: mistakes.dropout_mistakes(x, kept, p))


@pytest.mark.inverted_dropout
@pytest.mark.parametrize("p", [0.2, 0.6])
def test_inverted_dropout_is_identity_when_not_training(student, device, p):
    x = _dropout_input(104, torch.float32, device)
    y = student.call("inverted_dropout", x, p, training=False, generator=Seeded(104, device))
    expect_tensor(y, x, f"inverted_dropout(x, p={p}, training=False)",
                  mistakes=lambda: {"dropout_in_eval": [x * (y != 0), x * (y != 0) / (1 - p)]})


@pytest.mark.inverted_dropout
@pytest.mark.parametrize("p", [0.0, 1.0])
def test_inverted_dropout_edge_probabilities(student, device, p):
    x = _dropout_input(105, torch.float32, device)
    y = student.call("inverted_dropout", x, p, generator=Seeded(105, device))
    # p = 1 drops everything: zeros, never 0 / 0 = NaN.
    expect_tensor(y, x * (1 - p), f"inverted_dropout(x, p={p})")


@pytest.mark.inverted_dropout
@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_inverted_dropout_rejects_invalid_p(student, p):
    x = _dropout_input(106, torch.float32, "cpu")
    try:
        student.call("inverted_dropout", x, p)
    except StudentError as error:
        expect(error.type_name == "ValueError",
               finding("wrong_error_for_p", what=f"inverted_dropout(x, p={p})",
                   error_type=error.type_name))
        return
    raise Failure(finding("no_error_for_p", what=f"inverted_dropout(x, p={p})"))


@pytest.mark.inverted_dropout
def test_inverted_dropout_follows_the_generator(student, device):
    x = _dropout_input(107, torch.float32, device)
    first, again, other = (
        student.call("inverted_dropout", x, 0.4, generator=Seeded(seed, device))
        for seed in (7, 7, 8)
    )
    for y in (first, again, other):
        expect_structure(y, x, "inverted_dropout(x, p=0.4, generator=...)")
    what = "inverted_dropout(x, p=0.4, generator=g)"
    expect(torch.equal(first, again), finding("same_seed_different_masks", what=what))
    expect(not torch.equal(first, other), finding("different_seeds_same_mask", what=what))


# -- CausalAttention --------------------------------------------------------------------------
# (seed, b, T, d_in, d_out, context_length, qkv_bias): T < context_length, T == context_length,
# and a cube (b = T = d_out) where keys.T runs without an error and is wrong.
ATTENTION_CASES = [
    (91, 2, 5, 3, 4, 8, False),
    (92, 3, 6, 12, 5, 6, True),
    (93, 4, 4, 3, 4, 6, False),
]


def _causal_attention(student, reference, case, device, dtype, dropout=0.0):
    seed, batch, num_tokens, d_in, d_out, context_length, qkv_bias = case
    return module_case(student, reference, "CausalAttention", (d_in, d_out, context_length, dropout),
                       qkv_bias=qkv_bias, seed=seed, batch=batch, num_tokens=num_tokens, device=device, dtype=dtype)


@pytest.mark.CausalAttention
@pytest.mark.parametrize("case", ATTENTION_CASES)
def test_causal_attention_forward(student, reference, device, dtype, case):
    ref, module, x, what = _causal_attention(student, reference, case, device, dtype)
    expect_same_output(module, ref, x, what, mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=True))


@pytest.mark.CausalAttention
def test_causal_attention_gradients(student, reference, device, dtype):
    ref, module, x, what = _causal_attention(student, reference, ATTENTION_CASES[1], device, dtype)
    expect_same_gradients(module, ref, x, 94, what)


@pytest.mark.CausalAttention
def test_causal_attention_hides_the_future(student, reference, device):
    _, module, x, what = _causal_attention(student, reference, ATTENTION_CASES[0], device,
                                           torch.float64)
    expect_no_future_leakage(module, x, ATTENTION_CASES[0][4], 95, what)


@pytest.mark.CausalAttention
def test_causal_attention_runs_on_meta_device(student):
    expect_class_runs_on_meta(student, "CausalAttention", 5, 4, 8, 0.1, input_shape=(2, 6, 5),
                              output_shape=(2, 6, 4), mask_buffer=True)


def _weights_revealing_attention(student, reference, p, device):
    """A CausalAttention whose output shows its attention weights, and those weights.

    Token j is the one-hot vector e_j and W_value maps it to e_j + e_T, so the output row of
    token i is its attention weights followed by their sum. Dropout on the weights keeps
    that last column equal to the sum of the others; dropout on the output does not.
    """
    batch, num_tokens = 16, 8
    args = (num_tokens, num_tokens + 1, num_tokens + 2, p)
    ref = reference_module(reference.CausalAttention, *args, seed=96, device=device,
                           dtype=torch.float64)
    with torch.no_grad():
        ref.W_value.weight.copy_(torch.cat([torch.eye(num_tokens), torch.ones(1, num_tokens)]))
    module = student_module(student, ref, "CausalAttention", *args, device=device,
                            dtype=torch.float64)
    x = torch.eye(num_tokens, dtype=torch.float64, device=device).expand(batch, -1, -1)
    with torch.no_grad():
        weights = ref(x)[..., :num_tokens]
    return module, x, weights, call_text("CausalAttention", *args)


def _revealed_weights(y, weights: torch.Tensor, what: What):
    """The attention weights and their sum, read from a weights-revealing module's output."""
    expect_structure(y, torch.empty(*weights.shape[:-1], weights.shape[-1] + 1,
                                    dtype=weights.dtype, device=weights.device), what)
    return y[..., :-1], y[..., -1]


@pytest.mark.CausalAttention
def test_causal_attention_has_no_dropout_in_eval_mode(student, reference, device):
    p = 0.4
    module, x, weights, what = _weights_revealing_attention(student, reference, p, device)
    what = finding("what.eval", what=what)
    actual_weights, _ = _revealed_weights(module(x), weights, what)
    kept = actual_weights != 0
    expect_tensor(actual_weights, weights, finding("what.its_weights", what=what),
                  mistakes=lambda: {"dropout_in_eval": [weights * kept / (1 - p),
                                                        weights * kept]})


@pytest.mark.CausalAttention
@pytest.mark.parametrize("p", [0.2, 0.6])
def test_causal_attention_drops_attention_weights_in_training(student, reference, device, p):
    module, x, weights, what = _weights_revealing_attention(student, reference, p, device)
    what = finding("what.training", what=what)
    module.train()
    dropped_weights, total = _revealed_weights(module(x), weights, what)
    kept = dropped_weights != 0
    visible = torch.ones(kept.shape[-2:], dtype=torch.bool).tril().expand_as(kept)
    _expect_zero_fraction(kept.cpu()[visible], p, finding("what.its_weights", what=what))
    rtol, atol = TOLERANCES[torch.float64]
    expect(torch.allclose(total, dropped_weights.sum(dim=-1), rtol=rtol, atol=atol),
           finding("dropout_on_output", "dropout_on_output", what=what))
    expect_tensor(dropped_weights, weights * kept / (1 - p),
                  finding("what.weights_kept", what=what),
                  mistakes=lambda: mistakes.dropout_mistakes(weights, kept, p))
