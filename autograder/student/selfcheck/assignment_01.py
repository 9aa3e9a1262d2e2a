"""The public checks of 01_attention_scores: attention without trainable weights."""

from __future__ import annotations

import torch

from ..example import your_journey_inputs
from .book import BOOK_CONTEXT_1, BOOK_CONTEXT_2, BOOK_SCORES_2, BOOK_WEIGHTS_2
from .catalog import hint_text, text
from .expectations import (
    expect_close,
    expect_shape,
    fail,
    rows_sum_to_one,
    seeded,
    show,
)
from .registry import check_of


@check_of("attention_scores_for_query")
def _check_attention_scores_for_query(ns):
    inputs = your_journey_inputs()
    scores = ns["attention_scores_for_query"](inputs, inputs[1])
    what = text("what.query_journey", call="attention_scores_for_query(inputs, inputs[1])")
    expect_close(scores, BOOK_SCORES_2, what, "hint.scores_for_query")


@check_of("attention_scores")
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
    x = torch.randn(3, 4, generator=seeded(1))
    for dim in (-1, 0):
        call = f"{stage}(x, dim={dim})"
        what = text("what.on_shape", call=call, shape="(3, 4)")
        weights = expect_shape(f(x, dim=dim), (3, 4), what, "hint.rows_sum_to_one")
        if not rows_sum_to_one(weights, dim):
            other = 0 if dim == -1 else -1
            hint = "softmax_wrong_dim" if rows_sum_to_one(weights, other) else "hint.rows_sum_to_one"
            fail("values", what=text("what.sums_along", dim=dim, call=call),
                  expected=text("is.all", value=1), got=show(weights.detach().sum(dim=dim)),
                  hint=hint_text(hint))
        expect_close(weights, torch.softmax(x, dim=dim), what, "hint.softmax_values", atol=1e-5)


@check_of("softmax_naive")
def _check_softmax_naive(ns):
    _check_softmax(ns, "softmax_naive")


@check_of("softmax_stable")
def _check_softmax_stable(ns):
    big = torch.tensor([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0]])
    call = "softmax_stable([[1000, 1001, 1002], [-1000, -1001, -1002]])"
    weights = expect_shape(ns["softmax_stable"](big), (2, 3), call, "softmax_overflow")
    if not torch.isfinite(weights).all():
        fail("values", what=call, expected=text("is.finite"), got=show(weights),
              hint=hint_text("softmax_overflow"))
    expect_close(weights, [[0.0900, 0.2447, 0.6652], [0.6652, 0.2447, 0.0900]], call,
                  "softmax_overflow")
    _check_softmax(ns, "softmax_stable")


@check_of("context_vector")
def _check_context_vector(ns):
    inputs = your_journey_inputs()
    weights = torch.softmax(inputs @ inputs[1], dim=0)  # (T,) the weights of query 'journey'
    expect_close(ns["context_vector"](weights, inputs), BOOK_CONTEXT_2,
                  "context_vector(softmax(inputs @ inputs[1]), inputs)", "hint.context_sum")


@check_of("simple_self_attention")
def _check_simple_self_attention(ns):
    call = "simple_self_attention(inputs)"
    context = expect_shape(ns["simple_self_attention"](your_journey_inputs()), (6, 3), call,
                            "hint.simple_self_attention")
    expect_close(context[:2], [BOOK_CONTEXT_1, BOOK_CONTEXT_2],
                  text("what.rows", rows="0-1", call=call), "hint.simple_self_attention")
