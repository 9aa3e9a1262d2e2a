"""The public checks of 02_self_attention: self-attention with trainable weights."""

from __future__ import annotations

import torch
from torch import nn

from ..example import your_journey_inputs
from ..reading import creation_order
from .book import BOOK_SELF_ATTENTION_V1, BOOK_SELF_ATTENTION_V2, BOOK_V1_SCALED_SCORES_2
from .cases import book_queries_and_keys
from .catalog import text
from .expectations import (
    call_student,
    close,
    expect_attribute,
    expect_close,
    expect_shape,
    fail,
    seed_weights,
    seeded,
    shape_text,
)
from .known import expected
from .modules import (
    book_draws_in_place,
    expect_biases,
    expect_layer_shape,
    expect_portable,
    expect_same_on_each_call,
    fused_projection,
)
from .other_sizes import expect_function_case, expect_module_case
from .registry import check_of
from .worth_fixing import note


@check_of("scaled_dot_product_scores")
def _check_scaled_dot_product_scores(ns):
    f = ns["scaled_dot_product_scores"]
    queries, keys = book_queries_and_keys()  # the book's W_query, W_key under torch.manual_seed(123)
    call = "scaled_dot_product_scores(queries, keys)"
    scores = expect_shape(call_student("idea", f, queries, keys), (6, 6), call,
                           "idea", case="scaled_dot_product_scores")
    expect_close(scores, expected("scaled_dot_product_scores"), call, "idea",
                 case="scaled_dot_product_scores")
    expect_close(scores[1], BOOK_V1_SCALED_SCORES_2, text("what.row_journey", call=call), "idea")
    batched = call_student("idea", f, torch.stack((queries, queries)),
                    torch.stack((keys, keys)))
    expect_close(batched, torch.stack((scores, scores)).detach(),
                  "scaled_dot_product_scores(queries (2, 6, 2), keys (2, 6, 2))",
                  "idea")
    # one sequence with one query: every dim of size 1 stays (a squeeze would drop them)
    one = "scaled_dot_product_scores(queries (1, 1, 2), keys (1, 6, 2))"
    expect_shape(call_student("idea", f, queries[None, 1:2], keys[None]), (1, 1, 6), one, "right_values_wrong_shape")
    other = "scaled_dot_product_scores(queries (2, 3, 4), keys (2, 5, 4))"
    expect_function_case(lambda queries, keys: call_student("idea", f, queries, keys),
                         "scaled_dot_product_scores/other", other)


def _expect_torch_rand_range(cls, module, names) -> None:
    """Each parameter holds numbers torch.rand can draw, from [0, 1): one outside that range was
    filled otherwise (torch.randn, say). Named only when two instances differ, so that the numbers
    came from the default stream and not from a seed set inside the constructor."""
    for name in names:
        values = getattr(module, name).detach()
        outside = (values < 0) | (values >= 1)
        if outside.any() and not torch.equal(getattr(cls(3, 2), name).detach(), values):
            index = tuple(int(i) for i in outside.nonzero()[0])
            fail("not_torch_rand", what="SelfAttention_v1(3, 2)", name=name, value=f"{values[index].item():.4f}",
                 index=str(index), hint="init_not_torch_rand")


@check_of("SelfAttention_v1")
def _check_self_attention_v1(ns):
    seed_weights(123)
    module = ns["SelfAttention_v1"](3, 2)
    for name in ("W_query", "W_key", "W_value"):
        parameter = expect_attribute(module, name, nn.Parameter, "SelfAttention_v1(3, 2)",
                                      "hint.v1_params")
        if tuple(parameter.shape) != (3, 2):
            fail("param_shape", what="SelfAttention_v1(3, 2)", name=name, expected="(3, 2)",
                  got=shape_text(parameter.shape), hint="parameter_transposed" if tuple(parameter.shape) == (2, 3)
                  else "hint.v1_params")
        if not any(listed is parameter for listed in module.parameters()):  # kept in a list, say, as the grader sees
            fail("not_registered", what="SelfAttention_v1(3, 2)", name=name, hint="hint.v1_params")
    names = ("W_query", "W_key", "W_value")
    # The order the parameters drew their numbers in (None: not torch.rand's draws after the seed).
    order = creation_order.created_order(dict(module.named_parameters()),
                                         {name: getattr(module, name) for name in names}, 123)
    if order is not None and order != names:
        # Computed the same, graded the same: told, and the book's numbers go in, so that the
        # comparison looks at forward (here and on the input of other sizes).
        note("note.creation_order", what="SelfAttention_v1(3, 2)", got=", ".join(order),
             expected="W_query, W_key, W_value")
        book_draws_in_place(module, list(names), 123)
    if order is None:
        _expect_torch_rand_range(ns["SelfAttention_v1"], module, ("W_query", "W_key", "W_value"))
    expect_same_on_each_call(module, your_journey_inputs(), "SelfAttention_v1(3, 2)")
    expect_close(module(your_journey_inputs()), BOOK_SELF_ATTENTION_V1,
                 text("what.seeded", call="SelfAttention_v1(3, 2)", seed=123), "idea",
                 case="SelfAttention_v1")
    expect_module_case(ns["SelfAttention_v1"], names, "SelfAttention_v1/other")
    expect_portable(lambda: ns["SelfAttention_v1"](3, 2), your_journey_inputs(), "SelfAttention_v1(3, 2)")
    _expect_instances_differ(ns["SelfAttention_v1"], names)


def _expect_instances_differ(cls, names) -> None:
    """Two modules built one after the other draw different numbers from the stream, as the
    grader checks: a seed set inside the constructor gives the book's numbers here, and every
    module alike."""
    first, second = cls(3, 2), cls(3, 2)
    for name in names:
        if torch.equal(getattr(first, name).detach(), getattr(second, name).detach()):
            fail("instances_start_alike", what="SelfAttention_v1(3, 2)", name=name)


@check_of("SelfAttention_v2")
def _check_self_attention_v2(ns):
    cls = ns["SelfAttention_v2"]
    seed_weights(789)
    module = cls(3, 2)
    fused = fused_projection(module, 3, 2)
    layers = () if fused else ("W_query", "W_key", "W_value")
    if fused:
        note("note.fused_projections", what="SelfAttention_v2(3, 2)", name=fused)
    for name in layers:
        layer = expect_attribute(module, name, nn.Linear, "SelfAttention_v2(3, 2)",
                                  "hint.v2_layers")
        expect_layer_shape(layer, name, 3, 2, "SelfAttention_v2(3, 2)",
                           "parameter_transposed" if tuple(layer.weight.shape) == (3, 2) else "hint.v2_layers")
        if layer.bias is not None:
            fail("values", what=f"SelfAttention_v2(3, 2).{name}.bias", expected=text("is.none"),
                  got=text("is.a_bias"), hint="qkv_bias_ignored")
    # Layers created in another order hold other random numbers: the book's go in, so that the
    # comparison looks at forward, and the order is told in a note (the grader does not charge it).
    created = book_draws_in_place(module, list(layers), 789) if layers else []
    if created:
        note("note.creation_order", what="SelfAttention_v2(3, 2)", got=", ".join(created), expected=", ".join(layers))
    expect_same_on_each_call(module, your_journey_inputs(), "SelfAttention_v2(3, 2)")
    expect_close(module(your_journey_inputs()), BOOK_SELF_ATTENTION_V2,
                 text("what.seeded", call="SelfAttention_v2(3, 2)", seed=789), "idea",
                 case="SelfAttention_v2")
    expect_module_case(cls, layers, "SelfAttention_v2/other")
    expect_biases(cls(3, 2, qkv_bias=True), "SelfAttention_v2(3, 2, qkv_bias=True)", 3, 2)
    expect_portable(lambda: cls(3, 2), your_journey_inputs(), "SelfAttention_v2(3, 2)",
                    dropping=(lambda: cls(3, 2, qkv_bias=True), "SelfAttention_v2(3, 2, qkv_bias=True)"))


@check_of("copy_v2_weights_into_v1")
def _check_copy_v2_weights_into_v1(ns):
    names = ("W_query", "W_key", "W_value")
    generator = seeded(31)
    sa_v1, sa_v2 = nn.Module(), nn.Module()  # stand-ins with the graded attribute names
    for name in names:
        setattr(sa_v1, name, nn.Parameter(torch.rand(3, 2, generator=generator)))
        layer = nn.Linear(3, 2, bias=False)
        with torch.no_grad():
            layer.weight.copy_(torch.randn(2, 3, generator=generator))
        setattr(sa_v2, name, layer)
    before = {name: getattr(sa_v1, name).detach().clone() for name in names}
    # What v2 computes before the copy: a copy the wrong way (v1's matrices into v2) makes the two
    # modules agree with each other, but not with what v2 held, which is what v1 must take.
    weights = {name: getattr(sa_v2, name).weight.detach().clone() for name in names}
    returned = ns["copy_v2_weights_into_v1"](sa_v2, sa_v1)
    elsewhere = _copied_elsewhere(returned, sa_v1, before, weights)
    if returned is not None and not elsewhere:  # in place: a result is noted, as the grader notes it
        note("note.copy_returns", what="copy_v2_weights_into_v1(sa_v2, sa_v1)")
    for name in names:  # the copy reads sa_v2 and leaves it as it was (an in-place .t_() does not)
        weight = getattr(sa_v2, name).weight
        if tuple(weight.shape) != (2, 3):
            fail("values", what=f"sa_v2.{name}.weight.shape", expected="(2, 3)", got=shape_text(weight.shape),
                 hint="copy_modifies_source")
    frozen = [f"sa_v1.{name}" for name in names
              if isinstance(getattr(sa_v1, name, None), nn.Parameter) and not getattr(sa_v1, name).requires_grad]
    if frozen:  # trainable no more: noted, as the grader notes it
        note("note.copy_frozen", what="copy_v2_weights_into_v1(sa_v2, sa_v1)", names=", ".join(frozen))
    untouched = [name for name in names if isinstance(getattr(sa_v1, name, None), torch.Tensor)
                 and torch.equal(getattr(sa_v1, name).detach(), before[name])]
    if len(untouched) >= 2 and not elsewhere:  # most of sa_v1 left as it was, as the grader tells it
        fail("values", what=text("what.the_copy"), expected=text("is.changed"), got=text("is.unchanged"),
             hint="matrices_not_copied")
    x = torch.randn(5, 3, generator=generator)  # (T, d_in)
    for name in names:
        copied = expect_attribute(sa_v1, name, nn.Parameter, text("what.the_copy"), "copy_replaced_parameter")
        if tuple(copied.shape) != (3, 2):
            fail("param_shape", what=text("what.the_copy"), name=name, expected="(3, 2)",
                 got=shape_text(copied.shape), hint="copy_without_transpose")
        # What the copy must achieve: v1's projection x @ W equals v2's layer, as it was, applied to x.
        with torch.no_grad():
            outputs = {other: x @ weights[other].T for other in names}
            mine = x @ copied
            expect_close(mine, outputs[name], text("what.after_copy", name=name),
                         "copied_into_another_module" if elsewhere else
                         _copy_mistake(copied, before[name], mine, outputs, name, weights[name]), atol=1e-6)
    _note_shared_storage(sa_v2, sa_v1, names)


def _copied_elsewhere(returned, sa_v1, before: dict, weights: dict) -> bool:
    """Whether the copy left every matrix of sa_v1 as it was and returned a module holding at least
    one of them copied (a deep copy of sa_v1, or a new SelfAttention_v1), as the grader tells it."""
    if not isinstance(returned, nn.Module) or returned is sa_v1:
        return False
    if any(not torch.equal(getattr(sa_v1, name).detach(), matrix) for name, matrix in before.items()):
        return False
    held = [getattr(returned, name, None) for name in weights]
    return any(isinstance(matrix, torch.Tensor) and matrix.shape == weights[name].T.shape
               and torch.allclose(matrix.detach(), weights[name].T) for name, matrix in zip(weights, held, strict=True))


def _note_shared_storage(sa_v2, sa_v1, names) -> None:
    """Note (as the grader does, for no points) each of sa_v1's matrices that still shares memory
    with sa_v2's weights after the copy: changed in place, as an optimizer's step changes them,
    sa_v2's weights change it too."""
    copied = {name: getattr(sa_v1, name).detach().clone() for name in names}
    with torch.no_grad():
        for name in names:
            getattr(sa_v2, name).weight.add_(1.0)
    shared = [name for name in names if not torch.equal(getattr(sa_v1, name).detach(), copied[name])]
    if shared:
        note("note.shared_storage", what="copy_v2_weights_into_v1(sa_v2, sa_v1)",
             names=", ".join(f"sa_v1.{name}" for name in shared))


def _copy_mistake(copied: torch.Tensor, before: torch.Tensor, mine: torch.Tensor, outputs: dict, name: str,
                  weight: torch.Tensor) -> str:
    """What a wrong copy of ``name`` shows: the matrix v1 held before (``matrix_not_copied``), v2's
    weight reshaped to v1's shape (``copy_reshaped``), another of v2's layers
    (``copied_wrong_matrix``), else nothing named (the stage's idea)."""
    if copied.shape == before.shape and torch.equal(copied.detach(), before):
        return "matrix_not_copied"
    if copied.shape == before.shape and torch.equal(copied.detach(), weight.reshape(before.shape)):
        return "copy_reshaped"
    if any(other != name and close(mine, output, atol=1e-6) for other, output in outputs.items()):
        return "copied_wrong_matrix"
    return "idea"
