"""The public checks of 03_causal_attention: hiding future words, and dropout."""

from __future__ import annotations

import torch
from torch import nn

from ..reading.error_message import values_not_named
from .book import BOOK_CAUSAL_ATTENTION, BOOK_CAUSAL_WEIGHTS_ROWS_1_2, SOURCE_PREFIX_MEANS, book_causal_scores
from .cases import book_softmax_weights, other_scores, other_weights
from .catalog import text
from .expectations import (
    call_student,
    expect_attribute,
    expect_causal_weights,
    expect_close,
    expect_dropout_on_weights,
    expect_raises,
    expect_shape,
    expect_tensor,
    fail,
    one_line,
    seeded,
    show,
)
from .forms import expect_form, note_form, note_mask_buffer
from .known import expected, named_mistake
from .modules import expect_book_module, seeded_module
from .other_sizes import expect_function_case, expect_module_case
from .portable import (
    expect_follows_device,
    expect_follows_dtype,
    expect_made_on_device,
    expect_new_mask_each_call,
)
from .recording import library_dropout_called
from .registry import check_of
from .worth_fixing import noted_dropout_name

CAUSAL_LAYERS = ("W_query", "W_key", "W_value")
CAUSAL_MASK_4 = [[0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]]  # 1 = hidden: the key comes later
CAUSAL_MASK_9 = [[int(key > query) for key in range(9)] for query in range(9)]  # above the demo's size


def _check_causal_average(ns, stage: str, hint: str):
    x = torch.randn(4, 8, 2, generator=seeded(42))  # (B, T, C) as in the averaging walk-through
    call = f"{stage}(x)"
    out = expect_shape(ns[stage](x), (4, 8, 2), text("what.on_shape", call=call, shape="(4, 8, 2)"),
                       hint, case="causal_average")
    if torch.isnan(out).any():
        fail("values", what=call, expected=text("is.no_nan"), got=show(out),
             hint=named_mistake(out, "causal_average") or hint)
    expect_close(out, expected("causal_average"), call, hint, case="causal_average")
    expect_close(out[0, :6], SOURCE_PREFIX_MEANS, text("what.rows", rows="0-5", call=f"{call}[0]"), hint)
    expect_function_case(ns[stage], "causal_average/other", text("what.on_shape", call=call, shape="(3, 5, 4)"), hint)
    # A function is called with other lengths than the demo's T = 8 (where a T read from the demo
    # cell's globals is wrong), with float64 inputs (which a float32 matrix made inside cannot
    # multiply, and whose result stays float64), and on a GPU.
    shorter = f"{stage}(x[:, :5])"
    expect_shape(call_student("hint.sizes_from_input", ns[stage], x[:, :5]), (4, 5, 2),
                  text("what.on_shape", call=shorter, shape="(4, 5, 2)"), "hint.sizes_from_input")
    # A batch of one sequence keeps its batch dim (a squeeze() of the result would drop it).
    expect_shape(ns[stage](x[:1]), (1, 8, 2), text("what.on_shape", call=call, shape="(1, 8, 2)"), hint)
    expect_follows_dtype(lambda: ns[stage](x.double()), text("what.float64", call=call))
    expect_follows_device(ns[stage], [x], call)


@check_of("causal_average_loop")
def _check_causal_average_loop(ns):
    _check_causal_average(ns, "causal_average_loop", "idea")


@check_of("causal_average_matmul")
def _check_causal_average_matmul(ns):
    _check_causal_average(ns, "causal_average_matmul", "idea")  # the known outputs name a prefix sum
    x = torch.randn(4, 8, 2, generator=seeded(42))
    note_form(lambda: ns["causal_average_matmul"](x), "causal_average_matmul(x)", "matrix_product")


@check_of("causal_average_softmax")
def _check_causal_average_softmax(ns):
    _check_causal_average(ns, "causal_average_softmax", "idea")
    x = torch.randn(4, 8, 2, generator=seeded(42))
    expect_form(lambda: ns["causal_average_softmax"](x), "causal_average_softmax(x)", "softmax",
                "weights_without_softmax", "running_mean_without_softmax")


@check_of("causal_mask")
def _check_causal_mask(ns):
    f = ns["causal_mask"]
    mask = expect_shape(f(4), (4, 4), "causal_mask(4)", "idea")
    if mask.dtype != torch.bool:
        fail("dtype", what="causal_mask(4)", expected="torch.bool", got=str(mask.dtype),
              hint="hint.mask_bool")
    if mask.cpu().int().tolist() != CAUSAL_MASK_4:
        fail("values", what="causal_mask(4)", expected=str(CAUSAL_MASK_4),
             got=str(mask.int().tolist()), hint=named_mistake(mask, "causal_mask") or "idea")
    larger = expect_shape(f(9), (9, 9), "causal_mask(9)", "idea")  # above the demo's 6 tokens
    if larger.cpu().int().tolist() != CAUSAL_MASK_9:
        fail("values", what="causal_mask(9)", expected=str(CAUSAL_MASK_9),
             got=str(larger.int().tolist()), hint=named_mistake(larger, "causal_mask") or "idea")
    expect_shape(f(40), (40, 40), "causal_mask(40)", "hard_coded_size")  # any size: none is made in advance
    if f(1).tolist() != [[False]]:
        fail("values", what="causal_mask(1)", expected="[[False]]", got=str(f(1).tolist()),
              hint="idea")
    call = "causal_mask(3, device=torch.device('cpu'))"
    on_cpu = expect_tensor(f(3, device=torch.device("cpu")), call)
    if on_cpu.device.type != "cpu":
        fail("device", what=call, expected="cpu", got=on_cpu.device.type,
              hint="hint.mask_device")
    expect_made_on_device(lambda device: f(3, device=device), "causal_mask(3, device=x.device)")


@check_of("mask_and_renormalize")
def _check_mask_and_renormalize(ns):
    f, hint, case = ns["mask_and_renormalize"], "idea", "mask_and_renormalize"
    call = "mask_and_renormalize(attn_weights)"
    weights = expect_shape(f(book_softmax_weights()), (6, 6), call, hint, case)
    expect_causal_weights(weights, call, hint, case)
    expect_close(weights, expected(case), call, hint, case=case)
    expect_close(weights[1:3], BOOK_CAUSAL_WEIGHTS_ROWS_1_2, text("what.rows", rows="1-2", call=call), hint)
    # Backward through the zeroed weights: a log, sqrt or power applied to the zeros gives NaN there.
    attn_weights = book_softmax_weights().requires_grad_()
    (f(attn_weights) * torch.rand(6, 6, generator=seeded(11))).sum().backward()
    if attn_weights.grad is not None and torch.isnan(attn_weights.grad).any():
        fail("values", what=text("what.argument_gradient", call=call), expected=text("is.no_nan"),
             got=show(attn_weights.grad), hint="gradient_nan_at_zeros")
    call = "mask_and_renormalize(torch.full((4, 4), 0.25))"
    expect_causal_weights(expect_shape(f(torch.full((4, 4), 0.25)), (4, 4), call, hint), call, hint)
    weights = other_weights()
    call = text("what.argument_of_shape", function="mask_and_renormalize", argument="attn_weights",
                shape="(2, 3, 5, 5)", rest="")
    expect_causal_weights(expect_shape(f(weights), (2, 3, 5, 5), call, hint), call, hint)
    expect_function_case(f, "mask_and_renormalize/other", call, hint)
    expect_follows_dtype(lambda: f(weights.double()), text("what.float64", call=call))
    expect_follows_device(f, [weights], call)


@check_of("masked_softmax")
def _check_masked_softmax(ns):
    f, hint, case = ns["masked_softmax"], "idea", "masked_softmax"
    call = "masked_softmax(attn_scores, d_k=2)"
    weights = expect_shape(f(book_causal_scores(), 2), (6, 6), call, hint, case)
    expect_causal_weights(weights, call, hint, case)
    expect_close(weights, expected(case), call, hint, case=case)
    expect_close(weights[1:3], BOOK_CAUSAL_WEIGHTS_ROWS_1_2, text("what.rows", rows="1-2", call=call), hint)
    call = text("what.argument_of_shape", function="masked_softmax", argument="attn_scores", shape="(2, 3, 5, 5)",
                rest=", d_k=4")
    expect_causal_weights(expect_shape(f(other_scores(), 4), (2, 3, 5, 5), call, hint), call, hint)
    expect_function_case(f, "masked_softmax/other", call, hint)
    scores = other_scores()
    expect_follows_dtype(lambda: f(scores.double(), 4), text("what.float64", call=call))
    expect_follows_device(lambda scores: f(scores, 4), [scores], call)
    _expect_hidden_scores_ignored(f, scores, call)
    note_form(lambda: f(scores, 4), call, "one_pass")


def _expect_hidden_scores_ignored(f, scores: torch.Tensor, call: str) -> None:
    """What the mask hides changes nothing: the same scores with 1000 at every position the answer
    itself hides (a weight of 0, checked above to be the future) give the same weights; a mask
    applied after the softmax lets them swamp the visible ones."""
    weights = f(scores, 4)
    huge = f(scores.masked_fill(weights == 0, 1000.0), 4)
    expect_close(huge, weights, text("what.huge_hidden", call=call), "mask_after_softmax_renormalised")


def _rescaling_mistake(kept: torch.Tensor, p: float) -> str:
    """What the survivors of ones say: all 1, not rescaled; p or 1 / p, scaled with p; 1 - p,
    multiplied instead of divided; anything else is only shown (the stage's idea). At p = 0.5, p and
    1 - p are one number, so the check probes p = 0.2 first."""
    for mistake, value in (("dropout_not_rescaled", 1.0), ("dropout_scaled_by_p", p), ("dropout_scaled_by_p", 1 / p),
                           ("dropout_multiplied_by_keep", 1 - p)):
        if kept.numel() and torch.allclose(kept.double(), torch.full_like(kept, value, dtype=torch.float64)):
            return mistake
    return "idea"


@check_of("inverted_dropout")
def _check_inverted_dropout(ns):
    f = ns["inverted_dropout"]
    x = torch.ones(4000)
    if library_dropout_called(lambda: f(x, 0.5, generator=seeded(123))):
        fail("values", what="inverted_dropout(torch.ones(4000), p=0.5)", expected=text("is.by_hand"),
             got=text("is.library_dropout"), hint="library_dropout")
    for p in (0.2, 0.5):
        call = f"inverted_dropout(torch.ones(4000), p={p})"
        out = expect_shape(f(x, p, generator=seeded(123)), (4000,), call, "hint.dropout_rate")
        kept, dropped = out[out != 0], (out == 0).double().mean().item()
        # p and 1 - p swapped: survivors scaled by 1 / p follow from it, so the fraction is told first.
        if abs(dropped - (1 - p)) <= 0.05 < abs(dropped - p):  # more than 6 standard deviations apart
            fail("values", what=text("what.zero_fraction", call=call), expected=text("is.about", value=p),
                 got=f"{dropped:.3f}", hint="dropout_keep_probability")
        if not torch.allclose(kept, torch.full_like(kept, 1 / (1 - p))):
            fail("values", what=text("what.kept_values", call=call),
                  expected=text("is.all", value=f"{1 / (1 - p):g}"), got=show(kept),
                  hint=_rescaling_mistake(kept, p))
        if abs(dropped - p) > 0.05:  # more than 6 standard deviations away for 4000 draws
            fail("values", what=text("what.zero_fraction", call=call),
                  expected=text("is.about", value=p), got=f"{dropped:.3f}",
                  hint="hint.dropout_rate")
    _expect_each_element_dropped_alone(f)
    if not torch.equal(f(x, 0.5, generator=seeded(123)), f(x, 0.5, generator=seeded(123))):
        fail("values", what=text("what.same_seed"), expected=text("is.the_same_mask"),
              got=text("is.different_masks"), hint="hint.dropout_generator")
    expect_new_mask_each_call(f, x, 0.5)
    values = torch.randn(3, 4, generator=seeded(7))
    _expect_valid_edges(f, values)
    for p in (0.3, 1.0):  # p = 1 returns zeros: they too belong on the device of x
        expect_follows_device(lambda x, p=p: f(x, p), [torch.ones(40, 50)], f"inverted_dropout(x, p={p})")
    for call, out in (("inverted_dropout(x, 0.5, training=False)", f(values, 0.5, training=False)),
                      ("inverted_dropout(x, 0.0)", f(values, 0.0))):
        # Any change of x says dropout ran where it must not; the grader may name the change itself
        # (a constant factor, say), so the hint says what to do and names nothing.
        expect_close(out, values, call, "dropout_in_eval", atol=0, names=False)
    for p, training in ((1.5, True), (-0.1, True), (1.5, False)):
        call = f"inverted_dropout(x, {p})" if training else f"inverted_dropout(x, {p}, training=False)"
        error = expect_raises(lambda p=p, training=training: f(values, p, training=training), ValueError, call,
                              "invalid_p_not_rejected")
        if values_not_named(str(error), {"p": p}):
            fail("values", what=text("what.error_message"), expected=text("is.names_value", value=p),
                 got=repr(str(error)), hint="error_message_without_value")


def _expect_valid_edges(f, values: torch.Tensor) -> None:
    """p = 0 and p = 1 are valid probabilities, told before another probe (the device's) meets them:
    a ValueError for either is named, and so is p = 1's 0 / 0 (NaN where zeros are due)."""
    for p in (0.0, 1.0):
        try:
            f(values, p)
        except ValueError as error:
            fail("what_raised", what=f"inverted_dropout(x, {p})", error_type="ValueError", error=one_line(error),
                 hint="valid_p_rejected")
    call, dropped_all = "inverted_dropout(x, 1.0)", f(values, 1.0)
    if isinstance(dropped_all, torch.Tensor) and bool(dropped_all.isnan().any()):
        fail("values", what=call, expected=show(torch.zeros(3, 4)), got=show(dropped_all), hint="dropout_p1_division")
    expect_close(dropped_all, torch.zeros(3, 4), call, "hint.dropout_all", atol=0)


def _expect_each_element_dropped_alone(f) -> None:
    """On a matrix, no dim is kept or dropped as a whole: one draw per row or per feature (a mask
    of x.shape[-1] numbers) passes every check of a vector, where each element is its own row."""
    call = "inverted_dropout(torch.ones(100, 40), p=0.5)"
    dropped = expect_shape(f(torch.ones(100, 40), 0.5, generator=seeded(124)), (100, 40), call,
                           "hint.dropout_rate") == 0
    for dim in (0, 1):
        if bool((dropped == dropped.narrow(dim, 0, 1)).all()):
            fail("values", what=text("what.dropped_along", call=call, dim=dim), expected=text("is.each_alone"),
                 got=text("is.all_together"), hint="dropout_whole_rows")


@check_of("CausalAttention")
def _check_causal_attention(ns):
    cls = ns["CausalAttention"]
    module, batch, out = expect_book_module(cls, "CausalAttention", BOOK_CAUSAL_ATTENTION,
                                            layers=CAUSAL_LAYERS,
                                            layers_hint="hint.causal_layers", values_hint="idea")
    if not noted_dropout_name(module, "CausalAttention(3, 2, 6, 0.0)", batch):
        expect_attribute(module, "dropout", nn.Dropout, "CausalAttention(3, 2, 6, 0.0)", "hint.causal_layers")
    expect_module_case(cls, CAUSAL_LAYERS, "CausalAttention/other", causal=True)
    expect_close(seeded_module(cls, CAUSAL_LAYERS, 3, 2, 6, 0.5).eval()(batch), [BOOK_CAUSAL_ATTENTION] * 2,
                 text("what.eval_mode", call="CausalAttention(3, 2, 6, 0.5)"), "hint.eval_dropout")
    expect_dropout_on_weights(cls(3, 2, 6, 0.5), batch, "CausalAttention(3, 2, 6, 0.5)")
    note_mask_buffer(module, "CausalAttention(3, 2, 6, 0.0)")
