"""Hidden tests of 03_causal_attention: hiding future words, dropout, CausalAttention."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator

import pytest
import torch

from autograder.findings.finding import Failure, finding
from autograder.hidden import diagnosis
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import (
    TOLERANCES,
    backward_of_function,
    expect,
    expect_finite,
    expect_function_output,
    expect_structure,
    expect_tensor,
    inputs_kept,
    shape_text,
)
from autograder.hidden.dropout import expect_dropped_one_by_one, expect_zero_fraction, weights_revealing_attention
from autograder.hidden.modules import (
    attention_scale_and_mask,
    call_text,
    expect_class_runs_on_stand_in,
    expect_each_call_alone,
    expect_function_on_stand_in,
    expect_message_names,
    expect_no_future_leakage,
    expect_on_stand_in,
    expect_same_gradients,
    expect_same_output,
    expect_value_error,
    faults_behind_parameters,
    future_of_sequence,
    future_of_square,
    module_case,
    not_written_yet,
    on_stand_in,
    randn,
)
from autograder.hidden.worth_fixing import (
    note_input_returned,
    note_result_dtype,
    note_what_is_worth_fixing,
    past_a_fixed_length,
)
from autograder.hidden.worth_fixing_modules import note_module_worth_fixing
from autograder.probes.errors import StudentError
from autograder.student.reading.forms import missing_form
from autograder.worker.protocol import Seeded

ASSIGNMENT = "03_causal_attention"

# (seed, batch b, tokens T, channels C) for the running means.
# The third is longer than the notebook's 8 tokens: a loop that counts to a number written by hand stops short;
# and a batch of one sequence, which a squeeze() of the result would lose (reviews8).
AVERAGE_CASES = [(61, 2, 5, 3), (62, 3, 4, 6), (60, 1, 11, 3)]
# The notebook's own x for the running means: the sizes a size written by hand was written for.
NOTEBOOK_AVERAGE_SHAPE = (4, 8, 2)


def _check_causal_average(student, reference, name, case, device, dtype):
    seed, *shape = case
    x = randn(seed, *shape, dtype=dtype, device=device)
    average = getattr(reference, name)
    square = randn(seed + 7, x.shape[0], x.shape[1], x.shape[1], dtype=dtype, device=device)

    def expect_right_on(x):
        what = finding("what.for_shape", call=f"{name}(x)", argument="x", shape=shape_text(x.shape))
        sizes = {"b": x.shape[0], "T": x.shape[1], "C": x.shape[2]}
        expect_function_output(student, name, (x,), ("x",),
                               average(x), what, mistakes=lambda: mistakes.causal_average_mistakes(average, x),
                               explain=lambda: [
                                   future_of_sequence(lambda changed: student.call(name, changed), x, seed + 50),
                                   diagnosis.slice_factors(-1), diagnosis.constant_factor(sizes)])

    on_notebooks_x = randn(seed + 9, *NOTEBOOK_AVERAGE_SHAPE, dtype=dtype, device=device)
    with _faults_behind_sizes(lambda: student.call(name, square), lambda: expect_right_on(on_notebooks_x)):
        expect_right_on(x)


@contextlib.contextmanager
def _faults_behind_sizes(call_on_square: Callable[[], object],
                         expect_on_notebooks_x: Callable[[], None] | None = None) -> Iterator[None]:
    """A running mean whose sizes do not fit (its matrix multiplied from the wrong side, say) raises
    before anything else it does wrong can show: ``call_on_square`` runs it again on an x of C = T
    features, where (T, T) and (T, C) fit whichever way they are multiplied, and what that run
    raises (a matrix made in another dtype than x's, or on another device) is read as a fault of
    its own (``StudentError.behind``). ``expect_on_notebooks_x`` checks it on the notebook's own x,
    the sizes one written by hand fits: the values it then gets wrong are a fault of their own too
    (``StudentError.found_behind``: a token left out of its own mean, beside an output of the
    demo's fixed size)."""
    try:
        yield
    except StudentError as error:
        if error.type_name == "RuntimeError":
            try:
                call_on_square()
            except StudentError as hidden:
                error.behind.append(hidden)
            if expect_on_notebooks_x is not None:
                try:
                    expect_on_notebooks_x()
                except Failure as shown:
                    error.found_behind.append(shown.finding)
                except StudentError:
                    pass  # it raises there too: nothing more to read
        raise


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


def _check_causal_average_on_stand_in(student, name):
    x, square = torch.empty(2, 5, 3, device="meta"), torch.empty(2, 5, 5, device="meta")
    try:
        with _faults_behind_sizes(lambda: student.call_on_stand_in_gpu(name, square)):
            expect_function_on_stand_in(student, name, (x,), x, f"{name}(x)")
    except StudentError as error:
        # A loop that counts to a fixed number of tokens (the value tests charge it) hides where
        # the result is made: on as many tokens as it counts, that shows.
        longer = past_a_fixed_length(lambda *args: student.call_on_stand_in_gpu(name, *args), error,
                                     lambda tokens: (torch.empty(2, tokens, 3, device="meta"),))
        if longer is None:
            raise
        expect_function_on_stand_in(student, name, longer, longer[0], f"{name}(x)")


@pytest.mark.causal_average_loop
@pytest.mark.behaviour
def test_causal_average_loop_on_meta_device(student):
    _check_causal_average_on_stand_in(student, "causal_average_loop")


@pytest.mark.causal_average_matmul
@pytest.mark.behaviour
def test_causal_average_matmul_on_meta_device(student):
    _check_causal_average_on_stand_in(student, "causal_average_matmul")


@pytest.mark.causal_average_softmax
@pytest.mark.behaviour
def test_causal_average_softmax_on_meta_device(student):
    _check_causal_average_on_stand_in(student, "causal_average_softmax")


@pytest.mark.causal_average_softmax
@pytest.mark.behaviour
def test_causal_average_softmax_goes_through_a_softmax(student):
    """The stage exists for the form attention uses: a softmax of scores whose future is -inf. Its
    values are the matmul stage's, so a running mean computed another way passes the value tests
    and misses what the stage is for (reviews6); read off the torch functions the call makes
    (``student.reading.forms``, which the public check reads too)."""
    x = randn(65, 2, 5, 3, dtype=torch.float64)
    _, called = student.call_recording_torch_functions("causal_average_softmax", x, consulted=True)
    if missing_form("softmax", called):
        raise Failure(finding("weights_without_softmax", "running_mean_without_softmax",
                              what="causal_average_softmax(x)"))


def _check_causal_mask(student, reference, num_tokens, **kwargs):
    expected = reference.causal_mask(num_tokens, **kwargs)
    expect_tensor(student.call("causal_mask", num_tokens, **kwargs), expected,
                  call_text("causal_mask", num_tokens, **kwargs),
                  mistakes=lambda: mistakes.causal_mask_mistakes(expected))


def _check_causal_mask_on_stand_in(student, reference, num_tokens):
    """causal_mask(num_tokens, device=...) for the stand-in GPU (its device is meta) makes the mask there.
    Its dtype is the value tests' to charge: a float mask of the right pattern made on the GPU
    loses the dtype's share there, not this test too."""
    expected = reference.causal_mask(num_tokens, device="meta")
    result = on_stand_in(lambda: student.call_on_stand_in_gpu("causal_mask", num_tokens, device="meta"))
    if isinstance(result, torch.Tensor) and result.dtype != expected.dtype:
        expected = expected.to(result.dtype)
    if result is not None:
        expect_on_stand_in(result, expected, call_text("causal_mask", num_tokens, device="cuda"),
                           mistakes=lambda: mistakes.causal_mask_mistakes(expected))


@pytest.mark.causal_mask
@pytest.mark.parametrize("num_tokens", [4, 12])  # 12: above the demos' sizes, for a mask made at one size and cut
def test_causal_mask(student, reference, device, num_tokens):
    _check_causal_mask(student, reference, num_tokens, device=device)


@pytest.mark.causal_mask
def test_causal_mask_default_device(student, reference):
    _check_causal_mask(student, reference, 5)


@pytest.mark.causal_mask
@pytest.mark.behaviour
def test_causal_mask_on_meta_device(student, reference):
    _check_causal_mask_on_stand_in(student, reference, 6)


def _with_zeros_and_ties(scores: torch.Tensor) -> torch.Tensor:
    """Scores rounded to whole numbers: exact zeros and ties among the visible ones, so that a mask
    read from the values (`== 0`) or a tie broken one way shows."""
    return scores.round()


@pytest.mark.mask_and_renormalize
@pytest.mark.parametrize(("seed", "shape", "zeros"), [
    (71, (5, 5), False),
    (72, (2, 6, 6), False),
    (73, (2, 6, 6), True),
])
def test_mask_and_renormalize(student, reference, device, dtype, seed, shape, zeros):
    scores = randn(seed, *shape, dtype=dtype, device=device)
    if zeros:  # visible weights that are exactly 0 (their scores -inf), and equal ones
        scores = _with_zeros_and_ties(scores * 2).masked_fill(_with_zeros_and_ties(scores * 2) < -1, -torch.inf)
        scores[..., 0] = 0.0  # every row keeps a visible weight
    weights = torch.softmax(scores, dim=-1)
    what = finding("what.for_shape", call="mask_and_renormalize(attn_weights)", argument="attn_weights",
                   shape=shape_text(shape))
    expect_function_output(student, "mask_and_renormalize", (weights,), ("attn_weights",),
                           reference.mask_and_renormalize(weights), what,
                           **_mask_and_renormalize_reading(student, weights, seed))


def _mask_and_renormalize_reading(student, weights: torch.Tensor, seed: int) -> dict:
    """How a wrong output of mask_and_renormalize(weights) is read, in its value and gradient tests."""
    return {"mistakes": lambda: mistakes.mask_and_renormalize_mistakes(weights),
            "explain": lambda: [future_of_square(lambda changed: student.call("mask_and_renormalize", changed),
                                                 weights, seed + 50),
                                diagnosis.distribution(-1)]}



@pytest.mark.mask_and_renormalize
@pytest.mark.behaviour
def test_mask_and_renormalize_gradient(student, reference, device, dtype):
    """The weights come from a softmax that is trained through this step: its gradient must be
    the reference's, finite everywhere (a log of the zeroed weights gives NaN there)."""
    weights = torch.softmax(randn(73, 2, 4, 4, dtype=dtype, device=device), dim=-1).requires_grad_()
    grad_output = randn(173, 2, 4, 4, dtype=dtype, device=device)
    reference.mask_and_renormalize(weights).backward(grad_output)
    what = finding("what.for_shape", call="mask_and_renormalize(attn_weights)", argument="attn_weights",
                   shape=shape_text(weights.shape))
    result = backward_of_function(student, "mask_and_renormalize", (weights,), grad_output, ("attn_weights",), what)
    # The output first, read as the value tests read it: a fault there is that fault, pinned alike.
    expect_tensor(result["output"], reference.mask_and_renormalize(weights.detach()), what,
                  **_mask_and_renormalize_reading(student, weights.detach(), 73))
    future = torch.ones(4, 4, dtype=torch.bool, device=device).triu(1)
    expect_tensor(result["arg_grads"][0], weights.grad,
                  finding("what.argument_gradient", call="mask_and_renormalize(attn_weights)",
                          argument="attn_weights", shape=shape_text(weights.shape)),
                  mistakes={"gradient_nan_at_zeros": [weights.grad.masked_fill(future, math.nan)]})


@pytest.mark.mask_and_renormalize
@pytest.mark.behaviour
def test_mask_and_renormalize_on_meta_device(student):
    weights = torch.empty(2, 6, 6, device="meta")
    expect_function_on_stand_in(student, "mask_and_renormalize", (weights,), weights,
                                "mask_and_renormalize(attn_weights)", one_matrix=True)


# (seed, scores shape, d_k): one sequence, a batch, a batch of heads, and scores with exact zeros
# and ties among the visible ones.
MASKED_SOFTMAX_CASES = [(81, (5, 5), 4), (82, (2, 6, 6), 3), (83, (2, 3, 5, 5), 8), (84, (2, 6, 6), 4)]


@pytest.mark.masked_softmax
@pytest.mark.parametrize(("seed", "shape", "d_k"), MASKED_SOFTMAX_CASES)
def test_masked_softmax(student, reference, device, dtype, seed, shape, d_k):
    scores = randn(seed, *shape, dtype=dtype, device=device, scale=2.0)
    if seed == MASKED_SOFTMAX_CASES[-1][0]:
        scores = _with_zeros_and_ties(scores)
    what = finding("what.for_shape", call=f"masked_softmax(attn_scores, d_k={d_k})", argument="attn_scores",
                   shape=shape_text(shape))
    expect_function_output(student, "masked_softmax", (scores, d_k), ("attn_scores", "d_k"),
                           reference.masked_softmax(scores, d_k), what,
                           **_masked_softmax_reading(student, scores, d_k, seed))


def _huge_hidden_scores(dtype, device) -> tuple[int, torch.Tensor, int]:
    """The seed, scores that are huge (1e4) where they are hidden, and d_k of the test below."""
    seed, shape, d_k = 85, (2, 9, 9), 4  # more tokens than the demo's 6: a mask made for 6 shows
    scores = randn(seed, *shape, dtype=dtype, device=device, scale=2.0).masked_fill(
        torch.ones(shape[-1], shape[-1], dtype=torch.bool, device=device).triu(1), 1e4)
    return seed, scores, d_k


@pytest.mark.masked_softmax
def test_masked_softmax_ignores_the_hidden_scores(student, reference, device, dtype):
    """What the stage is for: the hidden scores take no part. Scores that are huge where they are
    hidden change nothing when the mask comes before the softmax; one applied after it (a softmax,
    then the future zeroed and the rows renormalised) lets them swamp what each row may see."""
    seed, scores, d_k = _huge_hidden_scores(dtype, device)
    shape = tuple(scores.shape)
    what = finding("what.for_shape", call=f"masked_softmax(attn_scores, d_k={d_k})", argument="attn_scores",
                   shape=shape_text(shape))
    # Read with the catalogue, the leak probe and a divisor fitted on the visible weights alone, where
    # none of them is a huge hidden score: one fitted on rows a huge score swamped (a mask the wrong
    # way round) would name scales that the other tests tell right.
    reading = _masked_softmax_reading(student, scores, d_k, seed)
    hidden = torch.ones(shape[-1], shape[-1], dtype=torch.bool, device=device).triu(1)

    def explain():
        leak, *_, divisor_on_visible = reading["explain"]()

        def divisor_where_nothing_hidden_is_seen(actual, expected):
            if bool((actual.detach() > diagnosis.VISIBLE_WEIGHT)[..., hidden].any()):
                return None
            return divisor_on_visible(actual, expected)

        after_softmax = diagnosis.nan_as_mistake(
            lambda: mistakes.masked_softmax_mistakes(scores, d_k)["mask_after_softmax_renormalised"],
            "mask_after_softmax_renormalised")
        return [leak, after_softmax, divisor_where_nothing_hidden_is_seen]

    expect_function_output(student, "masked_softmax", (scores, d_k), ("attn_scores", "d_k"),
                           reference.masked_softmax(scores, d_k), what, mistakes=reading["mistakes"],
                           explain=explain, together=reading["together"])


def _masked_softmax_reading(student, scores: torch.Tensor, d_k: float, seed: int) -> dict:
    """How a wrong output of masked_softmax(scores, d_k) is read, in its value and gradient tests."""
    shape = tuple(scores.shape)
    sizes = {"d_k": d_k, "T": shape[-1], **dict(zip(("b", "h"), shape[:-2], strict=False))}
    return {"mistakes": lambda: mistakes.masked_softmax_mistakes(scores, d_k),
            "explain": lambda: [
                future_of_square(lambda changed: student.call("masked_softmax", changed, d_k), scores, seed + 50),
                diagnosis.distribution(-1, wrong_dim="softmax_wrong_dim"),
                diagnosis.scores_divisor(mistakes.masked_softmax_with_divisor(scores), d_k**0.5,
                                         f"sqrt(d_k) = {d_k**0.5:.4g}", sizes, diagnosis.scaling_mistake(d_k, sizes)),
                diagnosis.divisor_on_visible(scores, d_k**0.5, f"sqrt(d_k) = {d_k**0.5:.4g}", sizes,
                                             diagnosis.scaling_mistake(d_k, sizes))],
            "together": lambda: mistakes.masked_softmax_faults(scores, d_k)}


@pytest.mark.masked_softmax
@pytest.mark.behaviour
def test_masked_softmax_on_meta_device(student):
    scores = torch.empty(2, 6, 6, device="meta")
    expect_function_on_stand_in(student, "masked_softmax", (scores, 4), scores, "masked_softmax(attn_scores, d_k=4)",
                                one_matrix=True)


@pytest.mark.masked_softmax
def test_masked_softmax_gradient(student, reference, device, dtype):
    seed, shape, d_k = MASKED_SOFTMAX_CASES[1]
    scores = randn(seed, *shape, dtype=dtype, device=device, requires_grad=True)
    grad_output = randn(seed + 100, *shape, dtype=dtype, device=device)
    reference.masked_softmax(scores, d_k).backward(grad_output)
    what = finding("what.for_shape", call=f"masked_softmax(attn_scores, d_k={d_k})", argument="attn_scores",
                   shape=shape_text(shape))
    result = backward_of_function(student, "masked_softmax", (scores, d_k), grad_output, ("attn_scores", "d_k"),
                                   what)
    # The output first, read as the value tests read it: a fault there is that fault, pinned alike.
    expect_tensor(result["output"], reference.masked_softmax(scores.detach(), d_k), what,
                  **_masked_softmax_reading(student, scores.detach(), d_k, seed))
    expect_tensor(result["arg_grads"][0], scores.grad,
                  finding("what.argument_gradient", call=f"masked_softmax(attn_scores, d_k={d_k})",
                      argument="attn_scores", shape=shape_text(shape)))


# -- inverted dropout: tested by invariants, never by an exact mask --------------------------
def _dropout_input(seed, dtype, device):
    """Values away from zero, so that a zero in the output can only come from dropout."""
    return randn(seed, 40, 50, dtype=dtype, device=device).abs() + 0.5


@pytest.mark.inverted_dropout
@pytest.mark.parametrize(("seed", "p"), [(101, 0.1), (102, 0.3), (103, 0.75)])
def test_inverted_dropout_in_training(student, device, dtype, seed, p):
    x = _dropout_input(seed, dtype, device)
    what = finding("what.for_shape", call=f"inverted_dropout(x, p={p}, generator=...)", argument="x",
               shape=shape_text(x.shape))
    y, changed = student.call_reporting_changes("inverted_dropout", x, p, generator=Seeded(seed, device))
    with inputs_kept(changed, ("x", "p"), what):
        expect_structure(y, x, what)
        expect_finite(y, what)
        kept = y != 0
        expect_dropped_one_by_one(kept.cpu(), what)

        def survivors() -> None:
            expect_tensor(y, x * kept / (1 - p), finding("what.elements_kept", what=what),
                          mistakes=lambda: mistakes.dropout_mistakes(x, kept, p))

        try:
            expect_zero_fraction(kept.cpu(), p, what)
        except Failure as fraction:  # how many are kept does not hide what the survivors are scaled by
            try:
                survivors()
            except Failure as scaled:
                raise Failure(fraction.finding.with_faults(*scaled.finding.all_faults())) from None
            raise
        survivors()


# "By hand" (ARCHITECTURE.md, "Fairness"): the notebook has students write dropout to see there is
# no magic; a call of torch's (F.dropout, nn.Dropout, torch.dropout) computes none of it.
@pytest.mark.inverted_dropout
@pytest.mark.behaviour
def test_inverted_dropout_draws_its_own_mask(student, device):
    x = _dropout_input(106, torch.float32, device)
    _, functions = student.call_recording_torch_functions("inverted_dropout", x, 0.3, generator=Seeded(106, device))
    library = sorted(function for function in functions if "dropout" in function)
    expect(not library, finding("library_dropout_called", "library_dropout", what="inverted_dropout(x, p=0.3)",
                                functions=", ".join(library)))


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
def test_inverted_dropout_on_meta_device(student):
    x = torch.empty(40, 50, device="meta")
    for p in (0.3, 1.0):  # p = 1 returns zeros: they too belong on the device of x
        expect_function_on_stand_in(student, "inverted_dropout", (x, p), x, f"inverted_dropout(x, p={p})")


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
@pytest.mark.parametrize("p", [0.2, 0.6])
def test_inverted_dropout_is_identity_when_not_training(student, device, p):
    x = _dropout_input(104, torch.float32, device)
    y = student.call("inverted_dropout", x, p, training=False, generator=Seeded(104, device))
    expect_tensor(y, x, f"inverted_dropout(x, p={p}, training=False)",
                  mistakes=lambda: {"dropout_in_eval": [x * (y != 0), x * (y != 0) / (1 - p)]})


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
@pytest.mark.parametrize("p", [0.0, 1.0])
def test_inverted_dropout_edge_probabilities(student, device, p):
    x = _dropout_input(105, torch.float32, device)
    what = f"inverted_dropout(x, p={p})"
    try:
        y, changed = student.call_reporting_changes("inverted_dropout", x, p, generator=Seeded(105, device))
    except StudentError as error:
        if error.type_name != "ValueError":
            raise
        raise Failure(finding("valid_p_rejected", "valid_p_rejected", what=what, p=p)) from None
    # p = 1 drops everything: zeros, never 0 / 0 = NaN.
    with inputs_kept(changed, ("x", "p"), what):
        expect_tensor(y, x * (1 - p), what, mistakes=mistakes.dropout_edge_mistakes(x, p))


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_inverted_dropout_rejects_invalid_p(student, p):
    """The notebook asks for the ValueError whatever the mode: in evaluation too, p is checked."""
    x = _dropout_input(106, torch.float32, "cpu")
    for training in (True, False):
        _expect_invalid_p_rejected(student, x, p, training)


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_inverted_dropout_error_names_p(student, p):
    """The notebook asks the ValueError to say which p was given: its message holds the value
    (charged here alone; an error of another type, or none, is charged by the test above)."""
    try:
        student.call("inverted_dropout", _dropout_input(106, torch.float32, "cpu"), p)
    except StudentError as error:
        if not_written_yet(error):
            raise  # say that, as every test does
        if error.type_name == "ValueError":
            expect_message_names(error.message, {"p": p}, f"inverted_dropout(x, p={p})",
                                 mistake="error_message_without_value")


def _expect_invalid_p_rejected(student, x: torch.Tensor, p: float, training: bool) -> None:
    what = f"inverted_dropout(x, p={p})" if training else f"inverted_dropout(x, p={p}, training=False)"
    expect_value_error(lambda: student.call("inverted_dropout", x, p, training=training),
                       lambda error_type: finding("wrong_error_for_p", "invalid_p_not_rejected", what=what,
                                                  error_type=error_type),
                       finding("no_error_for_p", "invalid_p_not_rejected", what=what),
                       valid=lambda: student.call("inverted_dropout", x, 0.5, training=training))


@pytest.mark.inverted_dropout
@pytest.mark.behaviour
def test_inverted_dropout_follows_the_generator(student, device):
    x = _dropout_input(107, torch.float32, device)
    first, again, other = (
        student.call("inverted_dropout", x, 0.4, generator=Seeded(seed, device))
        for seed in (7, 7, 8)
    )
    for y in (first, again, other):
        expect_structure(y, x, "inverted_dropout(x, p=0.4, generator=...)")
    what = "inverted_dropout(x, p=0.4, generator=g)"
    expect(torch.equal(first, again), finding("same_seed_different_masks", "dropout_ignores_generator", what=what))
    expect(not torch.equal(first, other), finding("different_seeds_same_mask", "dropout_ignores_generator", what=what))
    # Without a generator, PyTorch's default stream: it moves on between two calls (in one probe).
    unseeded, next_call = student.call_twice("inverted_dropout", x, 0.4)
    expect(not (isinstance(unseeded, torch.Tensor) and isinstance(next_call, torch.Tensor)
                and torch.equal(unseeded != 0, next_call != 0)),
           finding("same_mask_without_generator", "dropout_fixed_seed", what="inverted_dropout(x, p=0.4)"))


# -- CausalAttention --------------------------------------------------------------------------
# (seed, b, T, d_in, d_out, context_length, qkv_bias): T < context_length, T == context_length,
# and a cube (b = T = d_out) where keys.T runs without an error and is wrong.
ATTENTION_CASES = [
    (91, 2, 5, 3, 4, 8, False),
    (92, 3, 6, 12, 5, 6, True),
    (93, 4, 4, 3, 4, 6, False),
]


def _causal_attention(student, reference, case, device, dtype, dropout=0.0, parameters_placed=False, own_leak=False):
    seed, batch, num_tokens, d_in, d_out, context_length, qkv_bias = case
    return module_case(student, reference, "CausalAttention", (d_in, d_out, context_length, dropout),
                       qkv_bias=qkv_bias, seed=seed, batch=batch, num_tokens=num_tokens, device=device, dtype=dtype,
                       parameters_placed=parameters_placed, own_leak=own_leak)


@pytest.mark.CausalAttention
@pytest.mark.parametrize("case", ATTENTION_CASES)
def test_causal_attention_forward(student, reference, device, dtype, case):
    seed, batch, num_tokens, d_in, d_out, context_length, qkv_bias = case
    x = randn(seed + 100, batch, num_tokens, d_in, dtype=dtype, device=device)  # module_case's
    if case == ATTENTION_CASES[0]:
        x[:, 2] = 0.0  # a token of zeros: without biases, its scores are exactly 0 (a mask read from `== 0` shows)
    sizes = {"d_in": d_in, "T": num_tokens, "b": batch, "context_length": context_length}
    what = call_text("CausalAttention", d_in, d_out, context_length, 0.0, qkv_bias=qkv_bias)

    def check(ref, module):
        expect_same_output(module, ref, x, what, mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=True),
                           explain=lambda: [future_of_sequence(module, x, seed + 50,
                                                               lambda: _leak_cause(student, reference, device)),
                                            *attention_scale_and_mask(ref, x, sizes)],
                           together=lambda: mistakes.attention_faults(ref, x, causal=True))

    try:
        ref, module, _, _ = _causal_attention(student, reference, case, device, dtype)
    except Failure as failure:  # parameters kept otherwise do not hide the forward's own faults
        raise faults_behind_parameters(failure, student, reference.CausalAttention, "CausalAttention",
                                       (d_in, d_out, context_length, 0.0), {"qkv_bias": qkv_bias}, seed=seed,
                                       device=device, dtype=dtype, check=check) from None
    check(ref, module)


@pytest.mark.CausalAttention
def test_causal_attention_gradients(student, reference, device, dtype):
    ref, module, x, what = _causal_attention(student, reference, ATTENTION_CASES[1], device, dtype,
                                             parameters_placed=True)
    sizes = {"d_in": x.shape[-1], "T": x.shape[1], "b": x.shape[0], "context_length": ATTENTION_CASES[1][5]}
    expect_same_gradients(module, ref, x, 94, what, mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=True),
                          explain=lambda: attention_scale_and_mask(ref, x, sizes),
                          together=lambda: mistakes.attention_faults(ref, x, causal=True))


@pytest.mark.CausalAttention
def test_causal_attention_hides_the_future(student, reference, device):
    ref, module, x, what = _causal_attention(student, reference, ATTENTION_CASES[0], device, torch.float64,
                                             parameters_placed=True, own_leak=True)
    expect_no_future_leakage(module, ref, x, 95, what,
                             mistakes=lambda changed: mistakes.attention_mistakes(ref, changed, causal=True),
                             cause=lambda: _leak_cause(student, reference, device),
                             together=lambda changed: mistakes.attention_faults(ref, changed, causal=True))


def _leak_cause(student, reference, device) -> str:
    """The cause of a leak no wrong output reproduces, read from the module's own weights (one-hot
    tokens show them: ``WeightsRevealing.leak_cause``); ``future_leak`` when they cannot tell."""
    try:
        revealing = weights_revealing_attention(student, reference.CausalAttention, "CausalAttention", p=0.0,
                                                device=device)
    except (Failure, StudentError):
        return "future_leak"
    return revealing.leak_cause() or "future_leak"


@pytest.mark.CausalAttention
@pytest.mark.behaviour
def test_causal_attention_answers_each_call_alone(student, reference, device, dtype):
    expect_each_call_alone(student, reference, "CausalAttention", (3, 4, 8, 0.0), seed=96, device=device,
                           dtype=dtype)


@pytest.mark.CausalAttention
@pytest.mark.behaviour
def test_causal_attention_runs_on_meta_device(student):
    expect_class_runs_on_stand_in(student, "CausalAttention", 5, 4, 8, 0.1, input_shape=(2, 6, 5),
                              output_shape=(2, 6, 4))


@pytest.mark.CausalAttention
def test_causal_attention_has_no_dropout_in_eval_mode(student, reference, device):
    revealing = weights_revealing_attention(student, reference.CausalAttention, "CausalAttention", p=0.4,
                                            device=device)
    revealing.expect_eval_weights()


@pytest.mark.CausalAttention
@pytest.mark.parametrize("p", [0.2, 0.6])
def test_causal_attention_drops_attention_weights_in_training(student, reference, device, p):
    revealing = weights_revealing_attention(student, reference.CausalAttention, "CausalAttention", p=p,
                                            device=device)
    # The dropout of wrong weights would say nothing useful, but for one after them, a fault of its own.
    revealing.expect_eval_weights(dropout_faults=True)
    revealing.expect_dropped_weights()


# Not graded, but worth fixing (ARCHITECTURE.md, "Fairness"): a result of another dtype than the
# inputs' with the right values, or cut from autograd where no gradient test charges it (the
# averages); a module's parameters created in another order than the notebook's, or fused. The
# device is charged by each stage's `*_on_meta_device` check, and not noted again. For no points.
# A note test fails only where the value tests fail too (it would withhold the stage's behaviour
# checks otherwise): inverted_dropout has none, since its value tests pass a generator and its
# device is all a GPU could find.
def _note_function_worth_fixing(student, reference, name, args, names, *, gradient, loop=None, form=None,
                                one_matrix=False):
    note_what_is_worth_fixing(student, name, args, names, getattr(reference, name),
                              f"{name}({', '.join(names)})", loop=loop, loop_asked=loop is not None, device=False,
                              gradient=gradient, form=form, one_matrix=one_matrix)


@pytest.mark.causal_average_loop
def test_causal_average_loop_worth_fixing(student, reference):
    """The stage is the loop the vectorised versions after it replace: a cumsum is noted, not charged."""
    _note_function_worth_fixing(student, reference, "causal_average_loop", (randn(63, 2, 5, 3, dtype=torch.float64),),
                                ("x",), gradient=True,
                                loop=lambda tokens: (randn(66, 2, tokens, 3, dtype=torch.float64),))


@pytest.mark.causal_average_matmul
def test_causal_average_matmul_worth_fixing(student, reference):
    """Running sums (cumsum) give the same values, and keep every point; the note says the stage
    asked for one matrix product (the triangle of weights the next stages build on)."""
    _note_function_worth_fixing(student, reference, "causal_average_matmul",
                                (randn(64, 2, 5, 3, dtype=torch.float64),), ("x",), gradient=True,
                                form="matrix_product")


@pytest.mark.causal_average_softmax
def test_causal_average_softmax_worth_fixing(student, reference):
    _note_function_worth_fixing(student, reference, "causal_average_softmax",
                                (randn(65, 2, 5, 3, dtype=torch.float64),), ("x",), gradient=True)


@pytest.mark.mask_and_renormalize
def test_mask_and_renormalize_worth_fixing(student, reference):
    weights = torch.softmax(randn(66, 2, 5, 5, dtype=torch.float64), dim=-1)
    _note_function_worth_fixing(student, reference, "mask_and_renormalize", (weights,), ("attn_weights",),
                                gradient=False, one_matrix=True)


@pytest.mark.masked_softmax
def test_masked_softmax_worth_fixing(student, reference):
    """One pass, as the notebook asks: a softmax followed by a second normalisation is noted, where
    it does no harm. Where the hidden scores still took part (the future zeroed after the softmax),
    huge hidden scores show it in a graded test, and no note calls it "not graded" (blind26/072)."""
    _, scores, d_k = _huge_hidden_scores(torch.float64, "cpu")
    try:
        returned = student.call("masked_softmax", scores, d_k)
    except StudentError:
        returned = None
    expected = reference.masked_softmax(scores, d_k)
    rtol, atol = TOLERANCES.get(getattr(returned, "dtype", None), TOLERANCES[torch.float64])
    harmless = isinstance(returned, torch.Tensor) and returned.shape == expected.shape and torch.allclose(
        returned.to(expected.dtype), expected, rtol=rtol, atol=atol)  # a float32 result is the dtype note's
    _note_function_worth_fixing(student, reference, "masked_softmax", (randn(67, 2, 5, 5, dtype=torch.float64), 4),
                                ("attn_scores", "d_k"), gradient=False, form="one_pass" if harmless else None,
                                one_matrix=True)


@pytest.mark.inverted_dropout
def test_inverted_dropout_worth_fixing(student):
    """A result of another dtype than x's is noted; else, when nothing can be dropped, where the
    notebook asks for x itself, a copy of it (a test shows one note)."""
    x = _dropout_input(108, torch.float64, "cpu")
    if note_result_dtype(student, "inverted_dropout", (x, 0.5), "x", "inverted_dropout(x, p=0.5)"):
        return
    note_input_returned(student, "inverted_dropout", [((x, 0.0), {}, "inverted_dropout(x, p=0.0)"),
                                                      ((x, 0.5), {"training": False},
                                                       "inverted_dropout(x, p=0.5, training=False)")])


@pytest.mark.CausalAttention
def test_causal_attention_worth_fixing(student, reference):
    _, batch, num_tokens, d_in, d_out, context_length, _ = ATTENTION_CASES[1]
    note_module_worth_fixing(student, reference.CausalAttention, "CausalAttention", (d_in, d_out, context_length, 0.0),
                             {"qkv_bias": True}, randn(69, batch, num_tokens, d_in, dtype=torch.float64),
                             call_text("CausalAttention", d_in, d_out, context_length, 0.0, qkv_bias=True),
                             mask_buffer=True)
