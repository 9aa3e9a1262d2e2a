"""Hidden tests of 01_attention_scores: attention without trainable weights."""

from __future__ import annotations

import pytest
import torch

from autograder.findings.finding import finding
from autograder.hidden import diagnosis
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import TOLERANCES, expect, expect_function_output, expect_structure, shape_text
from autograder.hidden.modules import randn
from autograder.hidden.worth_fixing import note_what_is_worth_fixing
from autograder.student.example import your_journey_inputs

ASSIGNMENT = "01_attention_scores"

# (seed, number of tokens T, embedding size d): distinct sizes, so T and d are never confused, and
# a sequence longer than the demo's 6 tokens, so no size of the demo written into the code passes.
# No d is a perfect square: scores divided by sqrt(d) must never look like scores halved.
SEQUENCES = [(11, 6, 3), (12, 5, 12), (13, 9, 7)]
# One square input (T == d): a product taken the other way (inputs @ w for w @ inputs) has the
# right shape only here, so code that special-cases it would hide from the cases above.
SQUARE = (14, 5, 5)


def _inputs(case, dtype, device, scale=1.0):
    seed, num_tokens, d = case
    return randn(seed, num_tokens, d, dtype=dtype, device=device, scale=scale)


@pytest.mark.attention_scores_for_query
@pytest.mark.parametrize("case", [*SEQUENCES, SQUARE])
def test_attention_scores_for_query(student, reference, device, dtype, case):
    inputs = _inputs(case, dtype, device)
    query = randn(case[0] + 100, inputs.shape[1], dtype=dtype, device=device)
    what = finding("what.for_shape", call="attention_scores_for_query(inputs, query)", argument="inputs",
                   shape=shape_text(inputs.shape))
    expect_function_output(student, "attention_scores_for_query", (inputs, query), ("inputs", "query"),
                           reference.attention_scores_for_query(inputs, query), what,
                           mistakes=lambda: mistakes.dot_product_mistakes(inputs, query),
                           explain=[diagnosis.softmax_of_right(-1), _scores_factor(inputs)])


def _sizes(inputs: torch.Tensor) -> dict[str, int]:
    """The sizes of a (T, d) input by the names the notebook gives them."""
    return {"T": inputs.shape[0], "d": inputs.shape[1]}


def _scores_factor(inputs: torch.Tensor) -> diagnosis.Explainer:
    """A factor on the scores, told with the sizes it could be; 1/sqrt(d) is notebook 2's scale,
    taken too early."""
    return diagnosis.constant_factor(_sizes(inputs), named={inputs.shape[1] ** -0.5: "scaled_too_early"})


@pytest.mark.attention_scores
@pytest.mark.parametrize("case", [*SEQUENCES, (13, 4, 7), SQUARE])
def test_attention_scores(student, reference, device, dtype, case):
    inputs = _inputs(case, dtype, device)
    what = finding("what.for_shape", call="attention_scores(inputs)", argument="inputs", shape=shape_text(inputs.shape))
    expect_function_output(student, "attention_scores", (inputs,), ("inputs",),
                           reference.attention_scores(inputs), what,
                           mistakes=lambda: mistakes.attention_scores_mistakes(reference, inputs),
                           explain=[diagnosis.softmax_of_right(-1), diagnosis.softmax_of_right(0),
                                    _scores_factor(inputs), diagnosis.diagonal_only(),
                                    diagnosis.pairwise_distances(inputs)])


def _check_softmax(student, reference, name, x, dim):
    """``name`` along ``dim`` (None: called without ``dim``, which must mean the last one)."""
    kwargs = {} if dim is None else {"dim": dim}
    dim = -1 if dim is None else dim
    # exp(x - shift) inherits the rounding of inputs as large as |x|: a relative error of about
    # |x| * eps, which a correct answer (logsumexp, say) may show for inputs near 1000.
    rtol = max(TOLERANCES[x.dtype][0], 4 * torch.finfo(x.dtype).eps * x.abs().max().item())
    call = f"{name}(x{''.join(f', dim={d}' for d in kwargs.values())})"
    what = finding("what.for_shape", call=call, argument="x", shape=shape_text(x.shape))
    expect_function_output(student, name, (x,), ("x",), getattr(reference, name)(x, dim=dim), what, rtol=rtol,
                           mistakes=lambda: mistakes.softmax_mistakes(reference, x, dim), kwargs=kwargs,
                           explain=[diagnosis.distribution(dim, wrong_dim="softmax_wrong_dim"),
                                    diagnosis.capped_scores(x, dim), diagnosis.softmax_of_rescaled_input(x, dim)])


@pytest.mark.softmax_naive
@pytest.mark.parametrize(("seed", "shape", "dim"), [
    (21, (2, 5, 4), -1),
    (22, (2, 5, 4), 1),
    (23, (5, 5), -1),  # square: a sum without keepdim broadcasts silently instead of raising
    (24, (6,), None),
    (25, (4, 6), None),  # dim left out of a matrix's call: the notebook's default, -1, is part of the stage
])
def test_softmax_naive(student, reference, device, dtype, seed, shape, dim):
    x = randn(seed, *shape, dtype=dtype, device=device, scale=3.0)
    _check_softmax(student, reference, "softmax_naive", x, dim)


# Inputs of 100 and more make exp overflow: only the stable softmax is asked to handle them.
# The first case stays below that (any softmax of the formula is right there, a wrong shift or a
# clamp included: what they get wrong shows on the others). Each softmax slice gets its own
# offset; two cases put slices far apart, where subtracting one global maximum is not enough. The
# last spreads each slice from -1200 to 1200: exp overflows in float32 and float64 alike unless
# the maximum, and only the maximum, is subtracted.
@pytest.mark.softmax_stable
@pytest.mark.parametrize(("seed", "offsets", "dim", "spread"), [
    (30, [0.0, 10.0, -10.0], -1, 0.0),
    (31, [1000.0, 1010.0, 990.0], -1, 0.0),
    (32, [1000.0, -1000.0, 0.0], -1, 0.0),
    (33, [120.0, 0.0, -300.0, 150.0], 0, 0.0),
    (35, [0.0, 300.0], -1, 1200.0),
])
def test_softmax_stable(student, reference, device, dtype, seed, offsets, dim, spread):
    x = randn(seed, len(offsets), 7, dtype=dtype, device=device, scale=20.0)
    x = x + torch.tensor(offsets, dtype=dtype, device=device).view(-1, 1)
    x = x + torch.linspace(-spread, spread, 7, dtype=dtype, device=device)
    _check_softmax(student, reference, "softmax_stable", x if dim == -1 else x.T, dim)


def large_inputs(dtype: torch.dtype, device: str) -> torch.Tensor:
    """Inputs large enough that exp overflows in float32 (above 88.7), yet spread enough (about
    2 % of their size) that two wrong scalings of x (x / max, x / sum) do not give the same
    near-uniform rows at float32's tolerance: only then can a match single out one mistake."""
    return randn(34, 4, 6, dtype=dtype, device=device, scale=2.0) + 100.0


@pytest.mark.softmax_stable
def test_softmax_stable_without_dim(student, reference, device, dtype):
    x = large_inputs(dtype, device)
    _check_softmax(student, reference, "softmax_stable", x, None)


# "From the formula" (ARCHITECTURE.md, "Fairness"): softmax_naive is the formula as it stands,
# so exp overflows for inputs like 1000, as the notebook's demo shows; softmax_stable may call no
# softmax of torch's (torch.softmax, F.softmax, Tensor.softmax, nn.Softmax, log_softmax). Each
# costs a small behaviour check, counted once the stage's values are right.
@pytest.mark.softmax_naive
@pytest.mark.behaviour
def test_softmax_naive_overflows_as_the_formula_does(student, device):
    x = torch.tensor([1000.0, 1001.0, 1002.0], device=device)
    what = "softmax_naive(torch.tensor([1000.0, 1001.0, 1002.0]))"
    weights, functions = student.call_recording_torch_functions("softmax_naive", x)
    expect_structure(weights, x, what)
    finite = bool(torch.isfinite(weights).all()) and abs(weights.sum().item() - 1.0) < 1e-3
    library = sorted(function for function in functions if "softmax" in function)
    expect(not (finite and library), finding("library_softmax_called", "library_softmax", what=what,
                                             functions=", ".join(library)))
    expect(not finite, finding("naive_does_not_overflow", what=what))


@pytest.mark.softmax_stable
@pytest.mark.behaviour
def test_softmax_stable_is_computed_from_the_formula(student, device, dtype):
    x = randn(36, 5, 5, dtype=dtype, device=device, scale=3.0)  # square: a reduction without keepdim still runs
    _, functions = student.call_recording_torch_functions("softmax_stable", x)
    library = sorted(function for function in functions if "softmax" in function)
    expect(not library, finding("library_softmax_called", "library_softmax", what="softmax_stable(x)",
                                functions=", ".join(library)))


@pytest.mark.context_vector
@pytest.mark.parametrize("case", [*SEQUENCES, SQUARE])
def test_context_vector(student, reference, device, dtype, case):
    inputs = _inputs(case, dtype, device)
    weights = torch.softmax(randn(case[0] + 200, inputs.shape[0], dtype=dtype, device=device), 0)
    what = finding("what.for_shape", call="context_vector(attn_weights, inputs)", argument="inputs",
                   shape=shape_text(inputs.shape))
    expect_function_output(student, "context_vector", (weights, inputs), ("attn_weights", "inputs"),
                           reference.context_vector(weights, inputs), what,
                           mistakes=lambda: mistakes.context_vector_mistakes(weights, inputs),
                           explain=[diagnosis.constant_factor(_sizes(inputs)),
                                    diagnosis.one_input_row(inputs, weights)])


@pytest.mark.simple_self_attention
@pytest.mark.parametrize("case", [*SEQUENCES, SQUARE, "your_journey"])
def test_simple_self_attention(student, reference, device, dtype, case):
    if case == "your_journey":
        inputs = your_journey_inputs(dtype).to(device)
    else:
        inputs = _inputs(case, dtype, device, scale=0.5)  # small, so no weight is exactly 0 or 1
    what = finding("what.for_shape", call="simple_self_attention(inputs)", argument="inputs",
                   shape=shape_text(inputs.shape))
    scores = reference.attention_scores(inputs)
    unscaled = diagnosis.scores_divisor(lambda divisor: reference.softmax_stable(scores / divisor, dim=-1) @ inputs,
                                        1.0, finding("evidence.not_scaled"), _sizes(inputs),
                                        lambda divisor: "scaled_too_early")
    expect_function_output(student, "simple_self_attention", (inputs,), ("inputs",),
                           reference.simple_self_attention(inputs), what,
                           mistakes=lambda: mistakes.simple_self_attention_mistakes(reference, inputs),
                           explain=[unscaled, diagnosis.constant_factor(_sizes(inputs)),
                                    # the raw scores as weights, divided by a count (a plain mean)
                                    diagnosis.mistake_times_factor({"missing_softmax": [scores @ inputs]})])


# Not graded, but worth fixing (ARCHITECTURE.md, "Fairness"): each stage's result as a GPU and
# autograd use it (its inputs' dtype and device, gradients back to them) and, where the notebook's
# text asks for one tensor operation, no Python loop over the tokens. A note, for no points.
def _note_what_is_worth_fixing(student, reference, name: str, args: tuple, names: tuple[str, ...], call: str,
                               loop=None) -> None:
    note_what_is_worth_fixing(student, name, args, names, getattr(reference, name), call, loop=loop)


@pytest.mark.attention_scores_for_query
def test_attention_scores_for_query_worth_fixing(student, reference):
    inputs = _inputs(SEQUENCES[0], torch.float64, "cpu")
    query = randn(16, inputs.shape[1], dtype=torch.float64)
    _note_what_is_worth_fixing(student, reference, "attention_scores_for_query", (inputs, query), ("inputs", "query"),
                               "attention_scores_for_query(inputs, query)",
                               loop=lambda tokens: (randn(14, tokens, 4), randn(15, 4)))


@pytest.mark.attention_scores
def test_attention_scores_worth_fixing(student, reference):
    _note_what_is_worth_fixing(student, reference, "attention_scores", (_inputs(SEQUENCES[0], torch.float64, "cpu"),),
                               ("inputs",), "attention_scores(inputs)", loop=lambda tokens: (randn(17, tokens, 4),))


@pytest.mark.softmax_naive
def test_softmax_naive_worth_fixing(student, reference):
    _note_what_is_worth_fixing(student, reference, "softmax_naive",
                               (randn(25, 2, 5, 4, dtype=torch.float64, scale=3.0),), ("x",), "softmax_naive(x)")


@pytest.mark.softmax_stable
def test_softmax_stable_worth_fixing(student, reference):
    _note_what_is_worth_fixing(student, reference, "softmax_stable",
                               (randn(37, 2, 5, 4, dtype=torch.float64, scale=3.0),), ("x",), "softmax_stable(x)")


@pytest.mark.context_vector
def test_context_vector_worth_fixing(student, reference):
    inputs = _inputs(SEQUENCES[0], torch.float64, "cpu")
    weights = torch.softmax(randn(211, inputs.shape[0], dtype=torch.float64), 0)
    _note_what_is_worth_fixing(student, reference, "context_vector", (weights, inputs), ("attn_weights", "inputs"),
                               "context_vector(attn_weights, inputs)",
                               loop=lambda tokens: (torch.softmax(randn(212, tokens), 0), randn(213, tokens, 4)))


@pytest.mark.simple_self_attention
def test_simple_self_attention_worth_fixing(student, reference):
    _note_what_is_worth_fixing(student, reference, "simple_self_attention",
                               (_inputs(SEQUENCES[0], torch.float64, "cpu", 0.5),), ("inputs",),
                               "simple_self_attention(inputs)")
