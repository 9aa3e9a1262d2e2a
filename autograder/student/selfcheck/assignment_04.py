"""The public checks of 04_multi_head_attention: multi-head attention."""

from __future__ import annotations

import torch
from torch import nn

from ..reading.error_message import values_not_named
from .book import BOOK_MULTI_HEAD, BOOK_WRAPPER, GPT2_SMALL_ATTENTION_PARAMETERS, book_batch
from .catalog import text
from .expectations import (
    call_student,
    expect_attribute,
    expect_close,
    expect_dropout_on_weights,
    expect_raises,
    expect_shape,
    fail,
    seed_weights,
)
from .forms import note_mask_buffer
from .known import expected
from .modules import expect_biases, expect_book_module, expect_portable, seeded_module
from .other_sizes import expect_function_case, expect_module_case
from .registry import check_of
from .stand_ins import built_with
from .worth_fixing import noted_dropout_name

MHA_LAYERS = ("W_query", "W_key", "W_value", "out_proj")


@check_of("MultiHeadAttentionWrapper")
def _check_multi_head_attention_wrapper(ns):
    call = "MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)"
    seed_weights(123)
    wrapper = ns["MultiHeadAttentionWrapper"](3, 2, 6, 0.0, num_heads=2)
    heads = expect_attribute(wrapper, "heads", nn.ModuleList, call, "hint.wrapper_heads")
    if len(heads) != 2 or any(type(head).__name__ != "CausalAttention" for head in heads):
        fail("values", what=f"{call}.heads", expected=text("is.heads", count=2),
              got=", ".join(type(head).__name__ for head in heads) or text("is.nothing"),
              hint="hint.wrapper_heads")
    if len({id(head) for head in heads}) < len(heads):  # [head] * num_heads: one module, listed twice
        fail("values", what=f"{call}.heads", expected=text("is.heads", count=2),
              got=text("is.same_module", count=len(heads)), hint="shared_head")
    what = text("what.seeded", call=call, seed=123)
    case = "MultiHeadAttentionWrapper"
    out = expect_shape(wrapper(book_batch()), (2, 6, 4), what, "idea", case)
    expect_close(out, [BOOK_WRAPPER] * 2, what, "idea", case=case)
    expect_module_case(ns["MultiHeadAttentionWrapper"], (), "MultiHeadAttentionWrapper/other", causal=True)
    biased = "MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2, qkv_bias=True)"
    for number, head in enumerate(ns["MultiHeadAttentionWrapper"](3, 2, 6, 0.0, num_heads=2, qkv_bias=True).heads):
        expect_biases(head, f"{biased}.heads[{number}]", 3, 2)
    _expect_heads_drop(ns["MultiHeadAttentionWrapper"], 0.1)
    expect_portable(lambda: ns["MultiHeadAttentionWrapper"](3, 2, 6, 0.0, num_heads=2), book_batch(), call)


def _expect_heads_drop(cls, dropout: float) -> None:
    """Each head is built with the wrapper's dropout (its CausalAttention's nn.Dropout drops with
    that p): a head built with a fixed 0.0 never drops what the caller asks."""
    call = f"MultiHeadAttentionWrapper(3, 2, 6, {dropout}, num_heads=2)"
    for head in cls(3, 2, 6, dropout, num_heads=2).heads:
        rates = [module.p for module in head.modules() if isinstance(module, nn.Dropout)]
        if rates != [dropout]:
            fail("values", what=text("what.built_setting", setting="dropout", call=call, class_name="CausalAttention"),
                 expected=str(dropout), got=", ".join(map(repr, rates)) or text("is.nothing"),
                 hint="dropout_argument_not_passed")


@check_of("wrapper_with_2d_output")
def _check_wrapper_with_2d_output(ns):
    call = "wrapper_with_2d_output(3, 6, 0.0)"
    built = built_with(ns, "MultiHeadAttentionWrapper", ns["wrapper_with_2d_output"], 3, 6, 0.0)
    if built is None:  # no class of the notebook's to stand in for: the module as it is
        _check_wrapper_module(ns["wrapper_with_2d_output"](3, 6, 0.0), call)
        return
    module, instances = built
    if len(instances) != 1 or type(module).__name__ != "MultiHeadAttentionWrapper" or instances[0] is None:
        fail("values", what=call, expected="MultiHeadAttentionWrapper", got=type(module).__name__, hint="idea")
    arguments = instances[0].arguments
    # The demo's wrapper above with only d_out changed: its qkv_bias stays False, as the grader reads it.
    for setting, wanted in (("num_heads", 2), ("d_out", 1), ("d_in", 3), ("context_length", 6), ("dropout", 0.0),
                            ("qkv_bias", False)):
        got = arguments.get(setting)
        if setting == "d_out" and isinstance(got, int) and got != wanted:  # said as the output's shape
            fail("values", what=text("what.wrapper_output", call=call), hint="idea",
                 expected=text("is.features_per_token", count=2),
                 got=text("is.heads_side_by_side", count=2 * got, heads=2, d_out=got))
        if got != wanted or (isinstance(wanted, int) and not isinstance(got, int)):  # 2 / 2 is 1.0, no size
            fail("values", what=text("what.built_setting", setting=setting, call=call,
                                     class_name="MultiHeadAttentionWrapper"),
                 expected=f"{setting}={wanted}", got=f"{setting}={got!r}",
                 hint="size_is_float" if got == wanted else "idea")
    # Other arguments than the book's: each is passed on, none is fixed to the book's value.
    other = (5, 4, 0.1)
    built = built_with(ns, "MultiHeadAttentionWrapper", ns["wrapper_with_2d_output"], *other)
    arguments = built[1][0].arguments if built is not None and len(built[1]) == 1 and built[1][0] else {}
    call = "wrapper_with_2d_output({}, {}, {})".format(*other)
    for setting, wanted, mistake in (("d_in", 5, "argument_not_passed"), ("context_length", 4, "argument_not_passed"),
                                     ("dropout", 0.1, "dropout_argument_not_passed")):
        if arguments.get(setting) != wanted:
            fail("values", what=text("what.built_setting", setting=setting, call=call,
                                     class_name="MultiHeadAttentionWrapper"),
                 expected=f"{setting}={wanted}", got=f"{setting}={arguments.get(setting)!r}", hint=mistake)


def _check_wrapper_module(module, call: str) -> None:
    heads = getattr(module, "heads", None)
    if not isinstance(heads, nn.ModuleList) or len(heads) != 2:
        got = (text("is.list_of_length", kind=type(heads).__name__, count=len(heads))
               if isinstance(heads, nn.ModuleList) else type(heads).__name__)
        fail("values", what=f"{call}.heads", expected=text("is.module_list", count=2), got=got, hint="idea")
    expect_shape(module(book_batch()), (2, 6, 2), f"{call}(batch)", "idea")


@check_of("split_heads")
def _check_split_heads(ns):
    f = ns["split_heads"]
    x = torch.arange(2 * 5 * 12, dtype=torch.float32).reshape(2, 5, 12)  # (b, T, d_out)
    heads = expect_shape(f(x, 3), (2, 3, 5, 4), text("what.on_shape", call="split_heads(x, 3)", shape="(2, 5, 12)"),
                         "idea", "split_heads")
    expect_close(heads, expected("split_heads"), "split_heads(x, 3)", "idea", atol=0, case="split_heads")
    for b, h, t in ((0, 0, 0), (0, 1, 4), (1, 2, 3)):
        expect_close(heads[b, h, t], x[b, t, 4 * h : 4 * h + 4],
                      text("what.split_entry", b=b, h=h, t=t), "view_without_transpose", atol=0)
    expect_function_case(lambda x, num_heads: f(x, num_heads), "split_heads/other",
                         text("what.on_shape", call="split_heads(x, 2)", shape="(3, 4, 10)"), atol=0)
    if heads.untyped_storage().data_ptr() != x.untyped_storage().data_ptr():
        fail("values", what="split_heads(x, 3)", expected=text("is.view"), got=text("is.copy"),
              hint="hint.split_view")
    call = text("what.on_shape", call="split_heads(x, 3)", shape="(2, 5, 10)")
    error = expect_raises(lambda: f(torch.zeros(2, 5, 10), 3), ValueError, call, "hint.split_error")
    _expect_sizes_named(error, 10, 3)


def _expect_sizes_named(error: ValueError, d_out: int, num_heads: int) -> None:
    """split_heads' ValueError names both sizes by their values, as the notebook asks (and the grader
    checks); MultiHeadAttention's contract asks only for the error."""
    if values_not_named(str(error), {"d_out": d_out, "num_heads": num_heads}):
        fail("values", what=text("what.error_message"), expected=text("is.names_sizes", a=d_out, b=num_heads),
             got=repr(str(error)), hint="error_names_no_sizes")


@check_of("merge_heads")
def _check_merge_heads(ns):
    f = ns["merge_heads"]
    heads = torch.arange(2 * 3 * 5 * 4, dtype=torch.float32).reshape(2, 3, 5, 4)  # (b, h, T, hd)
    merged = call_student("hint.merge_contiguous", f, heads)
    expect_shape(merged, (2, 5, 12), text("what.on_shape", call="merge_heads(x)", shape="(2, 3, 5, 4)"),
                 "idea", "merge_heads")
    expect_close(merged, expected("merge_heads"), "merge_heads(x)", "idea", atol=0, case="merge_heads")
    for b, h, t in ((0, 0, 0), (0, 1, 4), (1, 2, 3), (1, 0, 2)):
        expect_close(merged[b, t, 4 * h : 4 * h + 4], heads[b, h, t],
                     text("what.merge_entry", b=b, h=h, t=t), "idea", atol=0)
    expect_function_case(lambda x: call_student("hint.merge_contiguous", f, x), "merge_heads/other",
                         text("what.on_shape", call="merge_heads(x)", shape="(3, 2, 4, 5)"), atol=0)


@check_of("MultiHeadAttention")
def _check_multi_head_attention(ns):
    cls = ns["MultiHeadAttention"]
    seed_weights(123)
    projection = getattr(cls(3, 2, 6, 0.0, num_heads=2), "out_proj", None)
    if isinstance(projection, nn.Linear) and projection.bias is None:
        fail("values", what="MultiHeadAttention(3, 2, 6, 0.0, num_heads=2).out_proj.bias", expected=text("is.a_bias"),
             got=text("is.none"), hint="out_proj_bias")
    expect_book_module(cls, "MultiHeadAttention", BOOK_MULTI_HEAD, layers=MHA_LAYERS,
                       layers_hint="hint.mha_layers", values_hint="idea", num_heads=2)
    expect_raises(lambda: cls(3, 5, 6, 0.0, num_heads=2), ValueError, "MultiHeadAttention(3, 5, 6, 0.0, num_heads=2)",
                  "indivisible_not_rejected")
    expect_module_case(cls, MHA_LAYERS, "MultiHeadAttention/other", causal=True)
    call = "MultiHeadAttention(3, 2, 6, 0.5, num_heads=2)"
    # In eval mode nothing is dropped (the demos, built with dropout 0, read the weights through self.dropout).
    expect_close(seeded_module(cls, MHA_LAYERS, 3, 2, 6, 0.5, num_heads=2).eval()(book_batch()), [BOOK_MULTI_HEAD] * 2,
                 text("what.eval_mode", call=call), "hint.eval_dropout")
    seed_weights(123)
    module = cls(3, 2, 6, 0.5, num_heads=2)
    noted_dropout_name(module, call, book_batch())
    expect_dropout_on_weights(module, book_batch(), call)
    note_mask_buffer(module, call)


@check_of("gpt2_small_attention")
def _check_gpt2_small_attention(ns):
    built = built_with(ns, "MultiHeadAttention", ns["gpt2_small_attention"])
    if built is None:  # no class of the notebook's to stand in for: the module as it is
        _check_gpt2_module(ns["gpt2_small_attention"]())
        return
    module, instances = built
    if len(instances) != 1 or type(module).__name__ != "MultiHeadAttention" or instances[0] is None:
        fail("values", what="gpt2_small_attention()", expected="MultiHeadAttention", got=type(module).__name__,
             hint="idea")
    arguments = instances[0].arguments
    for setting, wanted in (("d_in", 768), ("d_out", 768), ("context_length", 1024), ("dropout", 0.0),
                            ("num_heads", 12), ("qkv_bias", False)):
        if arguments.get(setting) != wanted:  # the value is the exercise's to look up: named, not shown
            fail("values", what=text("what.gpt2_setting", setting=setting), expected=text("is.gpt2_value"),
                 got=repr(arguments.get(setting)), hint="idea")


def _check_gpt2_module(module) -> None:
    if not isinstance(module, nn.Module):
        fail("values", what="gpt2_small_attention()", expected=text("is.module"),
              got=type(module).__name__, hint="idea")
    count = sum(parameter.numel() for parameter in module.parameters())
    if count != GPT2_SMALL_ATTENTION_PARAMETERS:
        fail("values", what=text("what.parameter_count"),
              expected=f"{GPT2_SMALL_ATTENTION_PARAMETERS:,}", got=f"{count:,}",
              hint="idea")
    mask = getattr(module, "mask", None)
    settings = (("num_heads", getattr(module, "num_heads", 12), 12),
                ("mask.shape", tuple(mask.shape) if mask is not None else (1024, 1024), (1024, 1024)),
                ("dropout.p", getattr(getattr(module, "dropout", None), "p", 0.0), 0.0))
    for setting, got, wanted in settings:
        if got != wanted:
            fail("values", what=text("what.gpt2_setting", setting=setting), expected=text("is.gpt2_value"),
                  got=str(got), hint="idea")
