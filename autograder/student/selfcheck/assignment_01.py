"""The public checks of 01_attention_scores: attention without trainable weights."""

from __future__ import annotations

import torch

from ..example import your_journey_inputs
from .book import BOOK_CONTEXT_1, BOOK_CONTEXT_2, BOOK_SCORES_2, BOOK_WEIGHTS_2
from .catalog import text
from .expectations import (
    expect_close,
    expect_shape,
    fail,
    rows_sum_to_one,
    seeded,
    show,
)
from .registry import check_of

# A small input of softmax, and its softmax along each dimension (worked out once, to 4 places).
SOFTMAX_INPUT = [[0.5, -1.0, 2.0, 0.0], [1.5, 1.5, -0.5, 3.0], [-2.0, 0.0, 1.0, -1.0]]
SOFTMAX_OF_INPUT = {
    -1: [[0.1584, 0.0354, 0.7101, 0.0961], [0.1511, 0.1511, 0.0205, 0.6773], [0.0321, 0.2369, 0.6439, 0.0871]],
    0: [[0.2631, 0.0629, 0.6897, 0.0466], [0.7153, 0.7662, 0.0566, 0.9362], [0.0216, 0.1710, 0.2537, 0.0171]],
}
# Rows whose exp overflows unless the largest entry of the row is subtracted first: the last one
# also overflows when the mean is subtracted, or the minimum.
LARGE_SCORES = [[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0], [0.0, 200.0, 400.0]]
SOFTMAX_OF_LARGE_SCORES = [[0.0900, 0.2447, 0.6652], [0.6652, 0.2447, 0.0900], [0.0, 0.0, 1.0]]


@check_of("attention_scores_for_query", hint="hint.scores_for_query")
def _check_attention_scores_for_query(ns):
    inputs = your_journey_inputs()
    scores = ns["attention_scores_for_query"](inputs, inputs[1])
    what = text("what.query_journey", call="attention_scores_for_query(inputs, inputs[1])")
    expect_close(scores, BOOK_SCORES_2, what, "hint.scores_for_query")


@check_of("attention_scores", hint="hint.scores_all")
def _check_attention_scores(ns):
    f, call = ns["attention_scores"], "attention_scores(inputs)"
    expect_shape(f(torch.randn(4, 5, generator=seeded(0))), (4, 4),
                 text("what.other_sizes", call=call, tokens=4, size=5), "hint.scores_all")
    scores = expect_shape(f(your_journey_inputs()), (6, 6), call, "hint.scores_all")
    expect_close(scores[1], BOOK_SCORES_2, text("what.row_journey", call=call), "hint.scores_all")
    expect_close(scores, scores.detach().T, text("what.symmetric", call=call), "hint.scores_all")


def _check_softmax(ns, stage: str):
    f = ns[stage]
    expect_close(f(torch.tensor(BOOK_SCORES_2)), BOOK_WEIGHTS_2,
                 f"{stage}(attention_scores_for_query(inputs, inputs[1]))", "hint.softmax_values")
    x = torch.tensor(SOFTMAX_INPUT)
    for dim in (-1, 0):
        call = f"{stage}(x, dim={dim})"
        what = text("what.on_shape", call=call, shape="(3, 4)")
        weights = expect_shape(f(x, dim=dim), (3, 4), what, "hint.rows_sum_to_one")
        if not rows_sum_to_one(weights, dim):
            other = 0 if dim == -1 else -1
            hint = "softmax_wrong_dim" if rows_sum_to_one(weights, other) else "hint.rows_sum_to_one"
            fail("values", what=text("what.sums_along", dim=dim, call=call),
                 expected=text("is.all", value=1), got=show(weights.detach().sum(dim=dim)), hint=hint)
        expect_close(weights, SOFTMAX_OF_INPUT[dim], what, "hint.softmax_values")


@check_of("softmax_naive", hint="hint.softmax_naive")
def _check_softmax_naive(ns):
    _check_softmax(ns, "softmax_naive")


@check_of("softmax_stable", hint="hint.softmax_stable")
def _check_softmax_stable(ns):
    call = "softmax_stable([[1000, 1001, 1002], [-1000, -1001, -1002], [0, 200, 400]])"
    weights = expect_shape(ns["softmax_stable"](torch.tensor(LARGE_SCORES)), (3, 3), call, "softmax_overflow")
    if not torch.isfinite(weights).all():
        fail("values", what=call, expected=text("is.finite"), got=show(weights), hint="softmax_overflow")
    expect_close(weights, SOFTMAX_OF_LARGE_SCORES, call, "softmax_overflow")
    _check_softmax(ns, "softmax_stable")


@check_of("context_vector", hint="hint.context_sum")
def _check_context_vector(ns):
    weights = torch.tensor(BOOK_WEIGHTS_2)  # (T,) the weights of query 'journey'
    expect_close(ns["context_vector"](weights, your_journey_inputs()), BOOK_CONTEXT_2,
                 "context_vector(attn_weights_2, inputs)", "hint.context_sum")


@check_of("simple_self_attention", hint="hint.simple_self_attention")
def _check_simple_self_attention(ns):
    call = "simple_self_attention(inputs)"
    context = expect_shape(ns["simple_self_attention"](your_journey_inputs()), (6, 3), call,
                           "hint.simple_self_attention")
    expect_close(context[:2], [BOOK_CONTEXT_1, BOOK_CONTEXT_2],
                 text("what.rows", rows="0-1", call=call), "hint.simple_self_attention")
