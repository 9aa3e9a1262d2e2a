"""Two faults of one attention computation, each reported (issue 40, item 4), read in general.

Each answer below is a forward pass written by hand, in a style of its own (einsum, torch.where,
baddbmm, heads folded into the batch), with two independent faults; it runs on the reference
module's own weights, as the grader gives them to a student's module. The real diagnosis
(``compare.expect_tensor`` with the catalogue's single mistakes and ``wrong_outputs``' pairs)
must report both faults, first the one to fix first, and name nothing the pair does not need.
"""

from __future__ import annotations

import math

import pytest
import torch

from autograder.course.reference import load_reference
from autograder.findings.finding import Failure, finding
from autograder.findings.render import render
from autograder.grading import partial_credit
from autograder.hidden import diagnosis
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import expect_tensor
from autograder.hidden.modules import changed_entries, randn, reference_module

CAUSAL = load_reference("03_causal_attention")
SELF = load_reference("02_self_attention")
MULTI = load_reference("04_multi_head_attention")


def _future(num_tokens: int) -> torch.Tensor:
    return torch.ones(num_tokens, num_tokens, dtype=torch.bool).triu(1)


def softmax_over_queries_unscaled(module, x):
    """einsum scores, no 1/sqrt(d_k), softmax along the queries' axis."""
    q, k, v = module.W_query(x), module.W_key(x), module.W_value(x)
    scores = torch.einsum("bqd,bkd->bqk", q, k).masked_fill(_future(x.shape[1]), -math.inf)
    return torch.einsum("bqk,bkd->bqd", scores.softmax(dim=1), v)


def keys_as_values_zero_filled(module, x):
    """torch.where fills hidden scores with 0 (not -inf), and the keys are mixed instead of the values."""
    q, k = module.W_query(x), module.W_key(x)
    scores = torch.where(_future(x.shape[1]), torch.zeros((), dtype=q.dtype), q @ k.mT / k.shape[-1] ** 0.5)
    return torch.softmax(scores, -1) @ k


def diagonal_hidden_scaled_by_d_k(module, x):
    """baddbmm with alpha = 1/d_k (not its root), and a mask that hides each token's own position."""
    q, k, v = module.W_query(x), module.W_key(x), module.W_value(x)
    scores = torch.baddbmm(torch.zeros((), dtype=q.dtype), q, k.transpose(1, 2), beta=0, alpha=1 / k.shape[-1])
    hidden = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).triu()
    return scores.masked_fill(hidden, -math.inf).softmax(-1) @ v


def transposed_scores_over_tokens(module, x):
    """keys @ queries.T (the scores transposed) scaled by the number of tokens' root."""
    q, k, v = module.W_query(x), module.W_key(x), module.W_value(x)
    return torch.softmax(k @ q.T / math.sqrt(x.shape[0]), dim=-1) @ v


def heads_in_batch_mask_after_softmax(module, x, num_heads):
    """Heads folded into the batch (b * h, T, head_dim); the mask zeroes weights after the softmax,
    and the scores are divided by sqrt(d_out) instead of the head size."""
    b, t, _ = x.shape
    d_out = module.out_proj.out_features
    head_dim = d_out // num_heads

    def fold(tensor):
        return tensor.view(b, t, num_heads, head_dim).transpose(1, 2).reshape(b * num_heads, t, head_dim)

    q, k, v = fold(module.W_query(x)), fold(module.W_key(x)), fold(module.W_value(x))
    weights = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(d_out), dim=-1).masked_fill(_future(t), 0.0)
    context = (weights @ v).view(b, num_heads, t, head_dim).transpose(1, 2).reshape(b, t, d_out)
    return module.out_proj(context)


def _reported(actual, expected, wrong, together) -> list[str | None]:
    with pytest.raises(Failure) as failure:
        expect_tensor(actual, expected, "attention", mistakes=wrong, together=together)
    return [fault.mistake for fault in failure.value.finding.all_faults()]


@torch.no_grad()
@pytest.mark.parametrize(("answer", "faults"), [
    (softmax_over_queries_unscaled, ["softmax_wrong_dim", "no_sqrt_scaling"]),
    (keys_as_values_zero_filled, ["wrong_projection", "mask_filled_with_zero"]),
    (diagonal_hidden_scaled_by_d_k, ["mask_hides_diagonal", "scaled_by_d_k"]),
])
def test_two_faults_of_a_causal_module_are_each_reported_first_the_one_to_fix_first(answer, faults):
    module = reference_module(CAUSAL.CausalAttention, 6, 5, 8, 0.0, seed=7, device="cpu", dtype=torch.float64)
    x = randn(8, 2, 6, 6, dtype=torch.float64)
    reported = _reported(answer(module, x), module(x), lambda: mistakes.attention_mistakes(module, x, causal=True),
                         lambda: mistakes.attention_faults(module, x, causal=True))
    assert reported == faults


@torch.no_grad()
def test_two_faults_of_a_module_without_mask_are_each_reported():
    module = reference_module(SELF.SelfAttention_v2, 5, 3, seed=9, device="cpu", dtype=torch.float64)
    x = randn(10, 7, 5, dtype=torch.float64)
    reported = _reported(transposed_scores_over_tokens(module, x), module(x),
                         lambda: mistakes.attention_mistakes(module, x, causal=False),
                         lambda: mistakes.attention_faults(module, x, causal=False))
    assert reported == ["scores_transposed", "scaled_by_wrong_size"]


@torch.no_grad()
def test_two_faults_of_a_multi_head_module_are_each_reported():
    module = reference_module(MULTI.MultiHeadAttention, 4, 6, 8, 0.0, 3, seed=11, device="cpu", dtype=torch.float64)
    x = randn(12, 2, 5, 4, dtype=torch.float64)
    heads = (3, MULTI.split_heads, MULTI.merge_heads)
    reported = _reported(heads_in_batch_mask_after_softmax(module, x, 3), module(x),
                         lambda: mistakes.attention_mistakes(module, x, causal=True, heads=heads),
                         lambda: mistakes.attention_faults(module, x, causal=True, heads=heads))
    assert reported == ["mask_after_softmax", "scaled_by_wrong_size"]


def heads_unprojected_scaled_by_d_out(module, x, num_heads):
    """einsum over heads, the scores divided by sqrt(d_out), and the merged heads returned as they
    are (out_proj built, never applied)."""
    b, t, d_out = x.shape[0], x.shape[1], module.out_proj.out_features
    q, k, v = (layer(x).view(b, t, num_heads, -1) for layer in (module.W_query, module.W_key, module.W_value))
    scores = torch.einsum("bqhd,bkhd->bhqk", q, k).masked_fill(_future(t), -math.inf)
    return torch.einsum("bhqk,bkhd->bqhd", torch.softmax(scores / d_out ** 0.5, -1), v).reshape(b, t, d_out)


@torch.no_grad()
def test_a_fault_of_the_output_beside_one_of_the_weights_is_each_reported():
    """What the module does last (out_proj left out; the weights returned instead of the context
    vectors, another shape) pairs with a fault of the weights, and is fixed after it."""
    module = reference_module(MULTI.MultiHeadAttention, 4, 6, 8, 0.0, 3, seed=11, device="cpu", dtype=torch.float64)
    x = randn(12, 2, 5, 4, dtype=torch.float64)
    heads = (3, MULTI.split_heads, MULTI.merge_heads)
    reported = _reported(heads_unprojected_scaled_by_d_out(module, x, 3), module(x),
                         lambda: mistakes.attention_mistakes(module, x, causal=True, heads=heads),
                         lambda: mistakes.attention_faults(module, x, causal=True, heads=heads))
    assert reported == ["scaled_by_wrong_size", "missing_out_proj"]

    single = reference_module(SELF.SelfAttention_v2, 5, 3, seed=9, device="cpu", dtype=torch.float64)
    tokens = randn(10, 7, 5, dtype=torch.float64)
    unscaled_weights = torch.softmax(single.W_query(tokens) @ single.W_key(tokens).T, dim=-1)
    reported = _reported(unscaled_weights, single(tokens),
                         lambda: mistakes.attention_mistakes(single, tokens, causal=False),
                         lambda: mistakes.attention_faults(single, tokens, causal=False))
    assert reported == ["no_sqrt_scaling", "returned_weights"]  # the wrong shape is the pair's


@torch.no_grad()
def test_one_fault_is_named_alone_and_no_pair_is_tried():
    module = reference_module(CAUSAL.CausalAttention, 6, 5, 8, 0.0, seed=7, device="cpu", dtype=torch.float64)
    x = randn(8, 2, 6, 6, dtype=torch.float64)
    q, k, v = module.W_query(x), module.W_key(x), module.W_value(x)
    unscaled = torch.softmax((q @ k.mT).masked_fill(_future(6), -math.inf), -1) @ v

    def pairs():
        raise AssertionError("one mistake reproduces the output: no pair is needed")

    reported = _reported(unscaled, module(x), lambda: mistakes.attention_mistakes(module, x, causal=True), pairs)
    assert reported == ["no_sqrt_scaling"]


def test_a_name_that_follows_from_the_pair_is_not_reported():
    """Rows that do not sum to 1 (a row of NaN hidden by an inverted mask gives them) point to
    not_normalised: the pair that reproduces the output does not need it, so it is not named."""
    follows = diagnosis.Explanation(finding("evidence.sums_to", dim=-1, sums="0.5"), "not_normalised")
    scale = diagnosis.Explanation(finding("evidence.all_zeros"), "no_sqrt_scaling")
    conclusion = diagnosis.faults_together(("mask_inverted", "no_sqrt_scaling"), [follows, scale])
    assert conclusion.mistake == "mask_inverted"
    assert [fault.mistake for fault in conclusion.faults] == ["no_sqrt_scaling"]
    assert conclusion.faults[0].evidence.key == "evidence.all_zeros"  # each fault keeps its own evidence
    assert "evidence.sums_to" not in {evidence.key for evidence in conclusion.evidence}


def test_faults_reproduced_together_are_pinned_to_their_behaviours():
    together = finding("values_differ", "mask_after_softmax", what="attention", count=1, total=1, difference="1",
                       index="(0,)", value="0").with_notes(finding("evidence.faults_together", count=2)).with_faults(
        finding("fault_seen", "no_sqrt_scaling", what="attention", evidence=finding("evidence.one_of_faults_together")))
    assert all(partial_credit._reproduced(fault) for fault in partial_credit.faults(together))


SCORES = load_reference("01_attention_scores")


def test_two_faults_of_notebook_1s_scores_are_each_reported():
    """Scores of a later notebook, written with einsum: divided by sqrt(d), then a softmax."""
    inputs = randn(13, 6, 4, dtype=torch.float64)
    answer = torch.einsum("td,sd->ts", inputs, inputs).div(2.0).softmax(dim=1)
    reported = _reported(answer, SCORES.attention_scores(inputs), mistakes.attention_scores_mistakes(SCORES, inputs),
                         None)
    assert reported == ["scaled_too_early", "returned_weights_not_scores"]


def test_two_faults_of_the_scaled_scores_are_each_reported():
    """keys against queries (the transposed scores), multiplied by sqrt(d_k) instead of divided."""
    queries, keys = randn(14, 2, 5, 4, dtype=torch.float64), randn(15, 2, 5, 4, dtype=torch.float64)
    answer = torch.matmul(keys, queries.mT) * keys.size(-1) ** 0.5
    reported = _reported(answer, SELF.scaled_dot_product_scores(queries, keys),
                         mistakes.scaled_scores_mistakes(SELF.scaled_dot_product_scores, queries, keys), None)
    assert reported == ["scores_transposed", "scale_multiplied"]


@pytest.mark.parametrize(("divisor", "form"), [(lambda d_k: 2 * d_k, "2·d_k"), (lambda d_k: d_k / 2, "d_k/2")])
def test_a_half_power_read_as_a_division_is_named(divisor, form):
    """``scores / d_k ** 1/2`` divides by 2·d_k, ``scores / (d_k ** 1/2)`` by d_k/2: the precedence
    slip, quoted as such rather than as the root of a whole number (8 = sqrt(64))."""
    queries, keys = randn(21, 2, 5, 6, dtype=torch.float64), randn(22, 2, 5, 6, dtype=torch.float64)
    answer = queries @ keys.mT / divisor(6)
    with pytest.raises(Failure) as failure:
        expect_tensor(answer, SELF.scaled_dot_product_scores(queries, keys), "scores",
                      mistakes=mistakes.scaled_scores_mistakes(SELF.scaled_dot_product_scores, queries, keys),
                      explain=[diagnosis.divided_scores(6, {"d_k": 6, "num_tokens": 5})])
    assert failure.value.finding.mistake == "half_power_precedence"
    assert f"(= {form}, d_k = 6)" in render(failure.value.finding)


def test_a_divisor_that_is_both_twice_d_k_and_a_whole_root_names_neither():
    """With d_k = 4, 8 is 2·d_k and sqrt(64) (a head size written by hand): both are quoted, and
    the mistake named is only that the divisor is not sqrt(d_k)."""
    queries, keys = randn(29, 2, 5, 4, dtype=torch.float64), randn(30, 2, 5, 4, dtype=torch.float64)
    with pytest.raises(Failure) as failure:
        expect_tensor(queries @ keys.mT / 8, SELF.scaled_dot_product_scores(queries, keys), "scores",
                      mistakes=mistakes.scaled_scores_mistakes(SELF.scaled_dot_product_scores, queries, keys),
                      explain=[diagnosis.divided_scores(4, {"d_k": 4, "num_tokens": 5})])
    assert failure.value.finding.mistake == "scores_scaled_wrongly"
    assert "(= 2·d_k, d_k = 4 or sqrt(64))" in render(failure.value.finding)


def test_scores_not_divided_at_all_are_never_read_as_half_of_d_k():
    """With d_k = 2, d_k/2 is 1: scores left as they are say no scale, not a half power."""
    queries, keys = randn(24, 2, 5, 2, dtype=torch.float64), randn(25, 2, 5, 2, dtype=torch.float64)
    with pytest.raises(Failure) as failure:
        expect_tensor(queries @ keys.mT, SELF.scaled_dot_product_scores(queries, keys), "scores",
                      mistakes=mistakes.scaled_scores_mistakes(SELF.scaled_dot_product_scores, queries, keys),
                      explain=[diagnosis.divided_scores(2, {"d_k": 2, "num_tokens": 5})])
    assert failure.value.finding.mistake == "no_sqrt_scaling"
    assert "d_k/2" not in render(failure.value.finding)


def test_a_cosine_similarity_is_named():
    inputs, query = randn(16, 6, 3, dtype=torch.float64), randn(17, 3, dtype=torch.float64)
    answer = (inputs / inputs.norm(dim=1, keepdim=True)) @ (query / query.norm())
    reported = _reported(answer, SCORES.attention_scores_for_query(inputs, query),
                         mistakes.dot_product_mistakes(inputs, query), None)
    assert reported == ["cosine_similarity"]


@pytest.mark.parametrize("distance", [lambda d: d.pow(2).sum(dim=-1), lambda d: -d.norm(dim=-1)])
def test_scores_that_measure_distances_are_named(distance):
    """blind28/003: how far each token is from the query (squared), where the score is a dot product."""
    inputs, query = randn(16, 6, 3, dtype=torch.float64), randn(17, 3, dtype=torch.float64)
    reported = _reported(distance(inputs - query), SCORES.attention_scores_for_query(inputs, query),
                         mistakes.dot_product_mistakes(inputs, query), None)
    assert reported == ["scores_as_distances"]


def test_exponentials_divided_by_their_length_are_named():
    x = randn(23, 2, 5, 4, dtype=torch.float64)
    exps = x.exp()
    answer = exps / torch.linalg.vector_norm(exps, dim=1, keepdim=True)
    assert _reported(answer, SCORES.softmax_naive(x, dim=1), mistakes.softmax_mistakes(SCORES, x, 1),
                     None) == ["normalised_by_length"]


def test_the_weights_returned_beside_an_early_scale_are_each_reported():
    inputs = randn(26, 6, 3, dtype=torch.float64)
    answer = SCORES.softmax_stable(inputs @ inputs.T / 3**0.5, dim=-1)
    assert _reported(answer, SCORES.simple_self_attention(inputs),
                     mistakes.simple_self_attention_mistakes(SCORES, inputs), None) == ["scaled_too_early",
                                                                                        "returned_weights"]


def test_hidden_weights_filled_with_minus_infinity_are_named():
    """-inf is how scores are hidden before a softmax; weights filled so sum to -inf: 0 and NaN."""
    weights = torch.softmax(randn(27, 5, 5, dtype=torch.float64), dim=-1)
    future = torch.ones(5, 5, dtype=torch.bool).triu(1)
    hidden = weights.masked_fill(future, float("-inf"))
    answer = hidden / hidden.sum(dim=-1, keepdim=True)
    assert _reported(answer, CAUSAL.mask_and_renormalize(weights), mistakes.mask_and_renormalize_mistakes(weights),
                     None) == ["weights_filled_with_inf"]


def test_the_triangle_of_ones_as_scores_is_a_mask_filled_with_zero():
    x = randn(28, 2, 5, 3, dtype=torch.float64)
    answer = torch.softmax(torch.ones(5, 5, dtype=torch.float64).tril(), dim=-1) @ x
    wrong = mistakes.causal_average_mistakes(CAUSAL.causal_average_softmax, x)
    assert _reported(answer, CAUSAL.causal_average_softmax(x), wrong, None) == ["mask_filled_with_zero"]


def test_scores_of_centred_inputs_are_named():
    inputs = randn(18, 6, 3, dtype=torch.float64)
    centred = inputs - inputs.mean(dim=0)
    answer = torch.stack([centred @ token for token in centred])
    reported = _reported(answer, SCORES.attention_scores(inputs), mistakes.attention_scores_mistakes(SCORES, inputs),
                         None)
    assert reported == ["scores_of_centred_inputs"]


def test_a_known_mistake_times_a_factor_is_named_and_never_pinned():
    """The scores used as weights without a softmax, divided by the number of tokens: the missing
    softmax is named, the factor stated, and the failure is not one mistake's alone."""
    inputs = randn(19, 6, 3, dtype=torch.float64)
    answer = (inputs @ inputs.T / inputs.shape[0]) @ inputs
    with pytest.raises(Failure) as failure:
        expect_tensor(answer, SCORES.simple_self_attention(inputs), "attention",
                      mistakes=mistakes.simple_self_attention_mistakes(SCORES, inputs),
                      explain=[diagnosis.mistake_times_factor({"missing_softmax": [inputs @ inputs.T @ inputs]})])
    found = failure.value.finding
    assert found.mistake == "missing_softmax"
    assert [(note.key, note.fields["factor"]) for note in found.notes] == [("evidence.mistake_times_factor", "1/6")]
    assert not partial_credit._reproduced(found)


def test_a_fault_in_the_first_of_several_returned_values_is_reported_too():
    """A tuple (context, weights) where the context is asked: the tuple, then what the context
    itself gets wrong (the weights transposed), each a fault of its own."""
    inputs = randn(20, 6, 3, dtype=torch.float64)
    weights = torch.softmax(inputs @ inputs.T, dim=-1)
    expected = SCORES.simple_self_attention(inputs)
    wrong = mistakes.simple_self_attention_mistakes(SCORES, inputs)
    assert _reported((weights.T @ inputs, weights), expected, wrong, None) == ["returned_several_values",
                                                                               "softmax_wrong_dim"]
    assert _reported((expected, weights), expected, wrong, None) == ["returned_several_values"]


def test_nan_is_never_a_change_for_the_future_leak_probes():
    before = torch.tensor([[math.nan, 1.0], [2.0, 3.0]])
    assert not changed_entries(before.clone(), before).any()
    assert not changed_entries(torch.tensor([[0.5, 1.0], [2.0, 3.0]]), before).any()  # a NaN that went away
    assert changed_entries(torch.tensor([[math.nan, 1.5], [2.0, 3.0]]), before).tolist() == [[False, True],
                                                                                              [False, False]]


def test_a_fault_behind_a_shape_another_mistake_gave_is_reported_too():
    """A first fault that changes the output's shape no longer hides a second one of a general
    form: the products summed over the tokens, then divided by the query's length (a factor); the
    (d, d) product of features, then normalised (a softmax). Neither is pinned: the second fault
    is stated, not reproduced."""
    inputs, query = randn(21, 6, 3, dtype=torch.float64), randn(22, 3, dtype=torch.float64)
    divided = (inputs * query).sum(dim=0) / query.norm()
    with pytest.raises(Failure) as failure:
        expect_tensor(divided, SCORES.attention_scores_for_query(inputs, query), "scores",
                      mistakes=mistakes.dot_product_mistakes(inputs, query))
    first, second = failure.value.finding.all_faults()
    assert (first.mistake, second.mistake) == ("dot_product_wrong_dim", "constant_factor")
    assert second.fields["evidence"].key == "evidence.mistake_times_factor"
    assert not partial_credit._reproduced(second)
    normalised = torch.softmax(inputs.T @ inputs, dim=-1)
    wrong = mistakes.attention_scores_mistakes(SCORES, inputs)
    assert _reported(normalised, SCORES.attention_scores(inputs), wrong, None) == ["transposed_product", None]


def test_a_shape_no_single_mistake_explains_with_a_residual_names_nothing():
    """Two mistakes that give the output's shape and fit it alike, or a residual that is no
    factor and no softmax: nothing is named behind the shape."""
    inputs, query = randn(23, 6, 3, dtype=torch.float64), randn(24, 3, dtype=torch.float64)
    wrong = {"dot_product_wrong_dim": [(inputs * query).sum(dim=0)], "elementwise_product": [inputs[0] * query]}
    assert _reported((inputs * query).sum(dim=0).exp(), SCORES.attention_scores_for_query(inputs, query), wrong,
                     None) == [None]
    alike = {"dot_product_wrong_dim": [(inputs * query).sum(dim=0)], "twice": [2 * (inputs * query).sum(dim=0)]}
    assert _reported(3 * (inputs * query).sum(dim=0), SCORES.attention_scores_for_query(inputs, query), alike,
                     None) == [None]


def test_a_known_mistake_times_a_count_is_named_on_any_stage():
    """A softmax applied to the weights again, then a mean over the tokens instead of a sum: the
    catalogue's mistake is named, the count it is divided by stated, and nothing is pinned."""
    weights, inputs = torch.softmax(randn(25, 6, dtype=torch.float64), 0), randn(26, 6, 3, dtype=torch.float64)
    answer = (weights.softmax(dim=0)[:, None] * inputs).mean(dim=0)
    with pytest.raises(Failure) as failure:
        expect_tensor(answer, SCORES.context_vector(weights, inputs), "context",
                      mistakes=mistakes.context_vector_mistakes(weights, inputs))
    found = failure.value.finding
    assert found.mistake == "softmax_applied_twice"
    assert [(note.key, note.fields["factor"]) for note in found.notes] == [("evidence.mistake_times_factor", "1/6")]
    assert not partial_credit._reproduced(found)
