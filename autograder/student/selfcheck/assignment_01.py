"""The public checks of 01_attention_scores: attention without trainable weights."""

from __future__ import annotations

import torch

from ..example import your_journey_inputs
from ..reading.capped_softmax import softmax_cap
from .book import BOOK_CONTEXT_1, BOOK_CONTEXT_2, BOOK_SCORES_2, BOOK_WEIGHTS_2, book_causal_scores
from .cases import LARGE_SCORES, SOFTMAX_INPUT
from .catalog import text
from .expectations import (
    expect_close,
    expect_shape,
    fail,
    rows_sum_to_one,
    show,
)
from .forms import note_python_loop
from .known import expected, named_mistake
from .other_sizes import expect_function_case
from .portable import expect_follows_dtype
from .recording import library_softmax_called
from .registry import check_of
from .worth_fixing import note_dtype

OVERFLOWING = [1000.0, 1001.0, 1002.0]  # exp overflows on each: the notebook's demo


@check_of("attention_scores_for_query")
def _check_attention_scores_for_query(ns):
    inputs = your_journey_inputs()
    scores = ns["attention_scores_for_query"](inputs, inputs[1])
    what = text("what.query_journey", call="attention_scores_for_query(inputs, inputs[1])")
    expect_close(scores, BOOK_SCORES_2, what, "idea", case="attention_scores_for_query")
    expect_function_case(ns["attention_scores_for_query"], "attention_scores_for_query/other",
                         text("what.on_shape", call="attention_scores_for_query(x, x[2])", shape="(5, 4)"))
    doubled = inputs.double()
    on_float64 = expect_follows_dtype(lambda: ns["attention_scores_for_query"](doubled, doubled[1]),
                                      text("what.float64", call="attention_scores_for_query(inputs, inputs[1])"))
    note_dtype([(on_float64, doubled), (scores, inputs)], "attention_scores_for_query(inputs, inputs[1])", "inputs")
    note_python_loop(ns["attention_scores_for_query"], lambda tokens: (torch.rand(tokens, 4), torch.rand(4)),
                     "attention_scores_for_query(inputs, query)")


@check_of("attention_scores")
def _check_attention_scores(ns):
    f, call = ns["attention_scores"], "attention_scores(inputs)"
    scores = expect_shape(f(your_journey_inputs()), (6, 6), call, "idea", case="attention_scores")
    expect_close(scores, expected("attention_scores"), call, "idea", case="attention_scores")
    expect_close(scores[1], BOOK_SCORES_2, text("what.row_journey", call=call), "idea")
    expect_function_case(f, "attention_scores/other", text("what.other_sizes", call=call, tokens=5, size=4))
    doubled = your_journey_inputs().double()
    on_float64 = expect_follows_dtype(lambda: f(doubled), text("what.float64", call=call))
    note_dtype([(on_float64, doubled), (scores, your_journey_inputs())], call, "inputs")
    note_python_loop(f, lambda tokens: (torch.rand(tokens, 4),), call)


def _check_softmax(ns, stage: str):
    f, scores = ns[stage], torch.tensor(BOOK_SCORES_2)
    call = f"{stage}(attention_scores_for_query(inputs, inputs[1]))"
    weights = f(scores)
    expect_close(weights, BOOK_WEIGHTS_2, call, "idea")
    note_dtype([(weights, scores)], call, "x")
    # Square, not symmetric scores (notebook 3's running example): a softmax over the wrong dim is
    # told apart from a sum without keepdim here, and drawn.
    call = text("what.on_shape", call=f"{stage}(x)", shape="(6, 6)")
    weights = f(book_causal_scores())
    expect_close(weights, expected("softmax/book"), call, "hint.rows_sum_to_one", case="softmax/book")
    x = torch.tensor(SOFTMAX_INPUT)
    for dim, case in ((-1, "softmax/rows"), (0, "softmax/columns")):
        call = f"{stage}(x, dim={dim})"
        what = text("what.on_shape", call=call, shape="(3, 4)")
        weights = expect_shape(f(x, dim=dim), (3, 4), what, "hint.rows_sum_to_one", case=case)
        if not rows_sum_to_one(weights, dim):
            mistake = named_mistake(weights, case)
            if mistake == "softmax_dim_ignored" and not _always_along_the_last_dim(f, x):
                mistake = "softmax_wrong_dim"  # one fixed dim that is the last only on a matrix (blind27/011)
            fail("values", what=text("what.sums_along", dim=dim, call=call), expected=text("is.all", value=1),
                 got=show(weights.detach().sum(dim=dim)), hint=mistake or "hint.rows_sum_to_one")
        expect_close(weights, expected(case), what, "idea", case=case)


def _always_along_the_last_dim(f, x: torch.Tensor) -> bool:
    """Whether ``f(x3, dim=0)`` on a 3-D input still normalises along the last dim, as a softmax
    that ignores ``dim`` does (one written for dim 1 does so on a matrix only: the grader, on its
    3-D inputs, names the wrong dim there)."""
    stacked = torch.stack((x, x.flip(0)))
    try:
        weights = f(stacked, dim=0)
    except Exception:  # noqa: BLE001 - the student's code may raise anything: then nothing is claimed
        return False
    return isinstance(weights, torch.Tensor) and weights.shape == stacked.shape and torch.allclose(
        weights.detach().to(stacked.dtype), torch.softmax(stacked, dim=-1), atol=1e-5)


@check_of("softmax_naive")
def _check_softmax_naive(ns):
    _check_softmax(ns, "softmax_naive")
    # The formula as it stands overflows where exp does, as the notebook's demo shows.
    f, large = ns["softmax_naive"], torch.tensor(OVERFLOWING)
    call = "softmax_naive(torch.tensor([1000.0, 1001.0, 1002.0]))"
    weights = f(large)
    if isinstance(weights, torch.Tensor) and torch.isfinite(weights).all():
        hint = "library_softmax" if library_softmax_called(lambda: f(large)) else "hint.naive_overflows"
        fail("values", what=call, expected=text("is.overflow"), got=show(weights), hint=hint)


def _non_finite_mistake(f) -> str:
    """Why softmax_stable gave NaN on the large scores, read from each row alone: every row finite
    alone means the rows disturbed each other, through one shift for the whole tensor (which a
    matrix that is not square takes too) or a reduction that lost its dimension (which cannot line
    up with one that is not square, and raises); the first row NaN alone means the exponentials
    overflowed; else only the idea."""
    try:
        alone = [f(torch.tensor(row)) for row in LARGE_SCORES]
    except Exception:  # noqa: BLE001 - the evidence is incomplete: say no more than the symptom
        return "idea"
    if all(isinstance(row, torch.Tensor) and torch.isfinite(row).all() for row in alone):
        try:
            narrow = f(torch.tensor(LARGE_SCORES)[:, :2])
        except Exception:  # noqa: BLE001 - a (3,) shift against (3, 2) scores: the dimension was lost
            return "softmax_missing_keepdim"
        return "softmax_global_max" if isinstance(narrow, torch.Tensor) else "idea"
    first = alone[0]
    return "softmax_overflow" if isinstance(first, torch.Tensor) and torch.isnan(first).any() else "idea"


@check_of("softmax_stable")
def _check_softmax_stable(ns):
    f, case = ns["softmax_stable"], "softmax/large"
    call = "softmax_stable([[1000, 1001, 1002], [-1000, -1001, -1002], [0, 200, 400]])"
    weights = expect_shape(f(torch.tensor(LARGE_SCORES)), (3, 3), call, "idea", case=case)
    # Scores capped before exp: read off the weights, as the grader reads them (``capped_softmax``).
    capped = "softmax_clamped" if softmax_cap(torch.tensor(LARGE_SCORES), weights, -1) is not None else None
    if not torch.isfinite(weights).all():
        fail("values", what=call, expected=text("is.finite"), got=show(weights),
             hint=named_mistake(weights, case) or capped or _non_finite_mistake(f))
    expect_close(weights, expected(case), call, capped or "idea", case=case)
    _check_softmax(ns, "softmax_stable")
    if library_softmax_called(lambda: f(torch.tensor(SOFTMAX_INPUT))):
        fail("values", what="softmax_stable(x)", expected=text("is.from_formula"), got=text("is.library_softmax"),
             hint="library_softmax")


@check_of("context_vector")
def _check_context_vector(ns):
    weights, inputs = torch.tensor(BOOK_WEIGHTS_2), your_journey_inputs()  # (T,) the weights of query 'journey'
    call = "context_vector(attn_weights_2, inputs)"
    context = ns["context_vector"](weights, inputs)
    expect_close(context, BOOK_CONTEXT_2, call, "idea", case="context_vector")
    expect_function_case(ns["context_vector"], "context_vector/other", "context_vector(weights (5,), inputs (5, 5))")
    on_float64 = expect_follows_dtype(lambda: ns["context_vector"](weights.double(), inputs.double()),
                                      text("what.float64", call=call))
    note_dtype([(on_float64, weights.double()), (context, weights)], call, "attn_weights")
    note_python_loop(ns["context_vector"], lambda tokens: (torch.softmax(torch.rand(tokens), 0), torch.rand(tokens, 4)),
                     call)


@check_of("simple_self_attention")
def _check_simple_self_attention(ns):
    call = "simple_self_attention(inputs)"
    context = expect_shape(ns["simple_self_attention"](your_journey_inputs()), (6, 3), call,
                           "idea", case="simple_self_attention")
    expect_close(context, expected("simple_self_attention"), call, "idea",
                 case="simple_self_attention")
    expect_close(context[:2], [BOOK_CONTEXT_1, BOOK_CONTEXT_2],
                 text("what.rows", rows="0-1", call=call), "idea")
    expect_function_case(ns["simple_self_attention"], "simple_self_attention/other",
                         text("what.other_sizes", call=call, tokens=5, size=4))
    doubled = your_journey_inputs().double()
    on_float64 = expect_follows_dtype(lambda: ns["simple_self_attention"](doubled), text("what.float64", call=call))
    note_dtype([(on_float64, doubled), (context, your_journey_inputs())], call, "inputs")
