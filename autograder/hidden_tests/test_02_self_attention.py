"""Hidden tests of 02_self_attention: scaled dot-product attention with trainable weights."""

from __future__ import annotations

import contextlib

import pytest
import torch

from autograder.findings.finding import Failure, Finding, finding
from autograder.hidden import diagnosis, observations, stand_ins
from autograder.hidden import wrong_outputs as mistakes
from autograder.hidden.compare import TOLERANCES, expect, expect_function_output, expect_tensor, shape_text
from autograder.hidden.modules import (
    attention_divisor,
    call_text,
    expect_class_runs_on_stand_in,
    expect_each_call_alone,
    expect_same_gradients,
    expect_same_output,
    faults_behind_parameters,
    module_pair,
    parameter_shapes,
    randn,
    reference_module,
    reference_weights,
)
from autograder.hidden.parameters import parameter_map, student_weights
from autograder.hidden.worth_fixing import note_what_is_worth_fixing
from autograder.hidden.worth_fixing_modules import note_module_worth_fixing
from autograder.probes.client import RemoteObject, StudentError
from autograder.worker.probe_server import PROBE_SEED

ASSIGNMENT = "02_self_attention"

# (seed, number of tokens T, d_in, d_out): the book's sizes, then distinct ones with d_in > d_out.
SIZES = [(41, 6, 3, 2), (42, 5, 7, 4)]


@pytest.mark.scaled_dot_product_scores
@pytest.mark.parametrize(("seed", "queries_shape", "keys_shape"), [
    (51, (5, 4), (5, 4)),
    (52, (2, 5, 3), (2, 6, 3)),  # a batch, with fewer queries than keys
    (53, (2, 3, 5, 4), (2, 3, 5, 4)),  # batch and heads
    (54, (4, 4, 4), (4, 4, 4)),  # a cube: keys.T runs without an error here, and is wrong
    (55, (1, 1, 4), (1, 6, 4)),  # a batch of one sequence with one query: no dim of size 1 may go
])
def test_scaled_dot_product_scores(student, reference, device, dtype, seed, queries_shape,
                                   keys_shape):
    queries = randn(seed, *queries_shape, dtype=dtype, device=device)
    keys = randn(seed + 100, *keys_shape, dtype=dtype, device=device)
    what = finding("what.for_queries_and_keys", call="scaled_dot_product_scores(queries, keys)",
                   queries_shape=shape_text(queries_shape), keys_shape=shape_text(keys_shape))
    scores = reference.scaled_dot_product_scores
    sizes = {"d_k": keys.shape[-1], "T_q": queries.shape[-2], "T_k": keys.shape[-2],
             **dict(zip(("b", "h"), keys.shape[:-2], strict=False))}
    expect_function_output(student, "scaled_dot_product_scores", (queries, keys), ("queries", "keys"),
                           scores(queries, keys), what,
                           mistakes=lambda: mistakes.scaled_scores_mistakes(scores, queries, keys),
                           explain=[diagnosis.divided_scores(keys.shape[-1], sizes),
                                    diagnosis.softmax_of_right(-1)])


def _modules(student, reference, class_name, size, device, dtype, **kwargs):
    seed, _, d_in, d_out = size
    return module_pair(student, reference, class_name, d_in, d_out, seed=seed, device=device, dtype=dtype,
                       **kwargs)


def _check_forward(student, reference, class_name, size, device, dtype, **kwargs):
    seed, num_tokens, d_in, _ = size
    x = randn(seed + 100, num_tokens, d_in, dtype=dtype, device=device)

    def check(ref, module):
        expect_same_output(module, ref, x, call_text(class_name, *size[2:], **kwargs),
                           mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=False),
                           explain=lambda: [attention_divisor(ref, x, {"d_in": d_in, "T": num_tokens})],
                           together=lambda: mistakes.attention_faults(ref, x, causal=False))

    try:
        ref, module = _modules(student, reference, class_name, size, device, dtype, **kwargs)
    except Failure as failure:
        # Parameters kept otherwise than the notebook's do not hide the forward's own faults: read
        # it with the reference's weights put where the student's module keeps its own.
        raise faults_behind_parameters(failure, student, getattr(reference, class_name), class_name, size[2:],
                                       kwargs, seed=seed, device=device, dtype=dtype,
                                       check=check) from None
    check(ref, module)


@pytest.mark.SelfAttention_v1
@pytest.mark.parametrize("size", SIZES)
def test_self_attention_v1_forward(student, reference, device, dtype, size):
    _check_forward(student, reference, "SelfAttention_v1", size, device, dtype)


@pytest.mark.SelfAttention_v1
def test_self_attention_v1_gradients(student, reference, device, dtype):
    size = SIZES[1]
    ref, module = _modules(student, reference, "SelfAttention_v1", size, device, dtype, parameters_placed=True)
    x = randn(size[0] + 200, size[1], size[2], dtype=dtype, device=device)
    expect_same_gradients(module, ref, x, size[0] + 300, call_text("SelfAttention_v1", *size[2:]),
                          mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=False),
                          explain=lambda: [attention_divisor(ref, x, {"d_in": size[2], "T": x.shape[0]})],
                          together=lambda: mistakes.attention_faults(ref, x, causal=False))


@pytest.mark.SelfAttention_v1
@pytest.mark.behaviour
def test_self_attention_v1_runs_on_meta_device(student):
    expect_class_runs_on_stand_in(student, "SelfAttention_v1", 5, 4, input_shape=(6, 5), output_shape=(6, 4),
                                  masked=False)


@pytest.mark.SelfAttention_v1
@pytest.mark.behaviour
def test_self_attention_v1_answers_each_call_alone(student, reference, device, dtype):
    expect_each_call_alone(student, reference, "SelfAttention_v1", SIZES[1][2:], seed=141, device=device,
                           dtype=dtype, batched=False)


@pytest.mark.SelfAttention_v1
@pytest.mark.behaviour
def test_self_attention_v1_starts_from_torch_rand(student, reference):
    """The notebook asks for each matrix filled by torch.rand: built in a probe (which starts from
    torch's seed ``PROBE_SEED``), the module holds what the reference draws from that seed, in
    any order (matrices created in another order than W_query, W_key, W_value are told in the
    stage's note worth fixing, for no points: the grader gives the module its weights by name)."""
    d_in, d_out = SIZES[1][2:]
    module = student.new("SelfAttention_v1", d_in, d_out)
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(PROBE_SEED)
        ref = reference.SelfAttention_v1(d_in, d_out)
    what = call_text("SelfAttention_v1", d_in, d_out)
    names = ("W_query", "W_key", "W_value")
    parameters = module.describe().get("parameters", {})
    if any(parameters.get(name, [None])[0] != [d_in, d_out] for name in names):
        return  # names or shapes unlike the notebook's: the forward test says which
    drawn = [getattr(ref, name).detach() for name in names]
    for name in names:
        if any(torch.equal(module.attr(name).detach().cpu(), draw) for draw in drawn):
            continue
        # Two modules built one after the other draw on from the stream: alike, the constructor
        # reseeded it (or drew from a generator of its own), and "not torch.rand" would be false.
        first, second = student.call_twice("SelfAttention_v1", d_in, d_out)
        expect(not torch.equal(first.attr(name).detach().cpu(), second.attr(name).detach().cpu()),
               finding("instances_start_alike", what=what, name=name))
        raise Failure(finding("initial_parameters_differ", "init_not_torch_rand", what=what, name=name,
                              shape=f"{d_in}, {d_out}"))


@pytest.mark.SelfAttention_v2
@pytest.mark.parametrize(("size", "qkv_bias"), [(SIZES[0], False), (SIZES[1], True)])
def test_self_attention_v2_forward(student, reference, device, dtype, size, qkv_bias):
    _check_forward(student, reference, "SelfAttention_v2", size, device, dtype, qkv_bias=qkv_bias)


@pytest.mark.SelfAttention_v2
def test_self_attention_v2_gradients(student, reference, device, dtype):
    size = SIZES[1]
    ref, module = _modules(student, reference, "SelfAttention_v2", size, device, dtype,
                           qkv_bias=True, parameters_placed=True)
    x = randn(size[0] + 200, size[1], size[2], dtype=dtype, device=device)
    expect_same_gradients(module, ref, x, size[0] + 300,
                          call_text("SelfAttention_v2", *size[2:], qkv_bias=True),
                          mistakes=lambda: mistakes.attention_mistakes(ref, x, causal=False),
                          explain=lambda: [attention_divisor(ref, x, {"d_in": size[2], "T": x.shape[0]})],
                          together=lambda: mistakes.attention_faults(ref, x, causal=False))


@pytest.mark.SelfAttention_v2
@pytest.mark.behaviour
def test_self_attention_v2_runs_on_meta_device(student):
    expect_class_runs_on_stand_in(student, "SelfAttention_v2", 5, 4, qkv_bias=True, input_shape=(6, 5),
                              output_shape=(6, 4), masked=False)


@pytest.mark.SelfAttention_v2
@pytest.mark.behaviour
def test_self_attention_v2_answers_each_call_alone(student, reference, device, dtype):
    expect_each_call_alone(student, reference, "SelfAttention_v2", SIZES[1][2:], seed=142, device=device,
                           dtype=dtype, batched=False)


# copy_v2_weights_into_v1 is graded on its own: it copies between plain modules that hold the
# parameters as the notebook names them (stand_ins.container), never the student's own
# SelfAttention_v1 and SelfAttention_v2 (ARCHITECTURE.md, "Fairness").
COPIED = ("W_query", "W_key", "W_value")


def _copied(student, reference, size, device, dtype):
    """The reference's SelfAttention_v2 of ``size``, and the student's copy run between two
    containers in the worker: ``sa_v2`` holding that module's weights, ``sa_v1`` three matrices
    (d_in, d_out) to copy into. ``sa_v2`` is laid out as the notebook asks, or, where the copy
    cannot read that and the student's own SelfAttention_v2 holds exactly those weights another
    way (fused, say), as that. Returns the reference, sa_v2's layout, sa_v2, sa_v1, sa_v1's
    initial matrices and what the copy returned."""
    seed, _, d_in, d_out = size
    ref_v2 = reference_module(reference.SelfAttention_v2, d_in, d_out, seed=seed, device=device, dtype=dtype)
    initial = {name: randn(seed + 400 + index, d_in, d_out, dtype=dtype, device=device)
               for index, name in enumerate(COPIED)}
    layout = reference_weights(ref_v2)
    sa_v2, sa_v1 = student.container("SelfAttention_v2", layout), student.container("SelfAttention_v1", initial)
    try:
        returned = student.call("copy_v2_weights_into_v1", sa_v2, sa_v1)
    except StudentError:
        own = _own_v2_layout(student, ref_v2, d_in, d_out)
        names = _own_v1_names(student, d_in, d_out)
        if (own is None or own.keys() == layout.keys()) and set(names.values()) == set(COPIED):
            raise
        layout = layout if own is None else own
        sa_v2 = student.container("SelfAttention_v2", layout)
        sa_v1 = student.container("SelfAttention_v1", {names[name]: matrix for name, matrix in initial.items()})
        returned = student.call("copy_v2_weights_into_v1", sa_v2, sa_v1)
        if set(names.values()) != set(COPIED):
            observations.note(finding("note.copied_as_own_v1", call="copy_v2_weights_into_v1(sa_v2, sa_v1)",
                                      names=", ".join(names[name] for name in COPIED)))
        initial = {names[name]: matrix for name, matrix in initial.items()}
    return ref_v2, layout, sa_v2, sa_v1, initial, returned


def _own_v1_names(student, d_in: int, d_out: int) -> dict[str, str]:
    """The name the student's own SelfAttention_v1 gives each matrix of the notebook (W_query...):
    its parameter of shape (d_in, d_out) whose name differs only in case (w_query); the notebook's
    own name where it has none such, or cannot be built."""
    try:
        described = student.new("SelfAttention_v1", d_in, d_out).describe()["parameters"]
    except StudentError:
        return {name: name for name in COPIED}
    own = {name.lower(): name for name, (shape, _) in described.items() if list(shape) == [d_in, d_out]}
    return {name: name if name in described else own.get(name.lower(), name) for name in COPIED}


def _own_v2_layout(student, ref_v2, d_in: int, d_out: int) -> dict[str, torch.Tensor] | None:
    """The reference's weights under the names of the student's own SelfAttention_v2, when it holds
    exactly them (None otherwise)."""
    try:
        description = student.new("SelfAttention_v2", d_in, d_out).describe()
    except StudentError:
        return None
    found = parameter_map(parameter_shapes(description), ref_v2)
    return student_weights(found, ref_v2) if found.fits else None


@pytest.mark.copy_v2_weights_into_v1
@pytest.mark.parametrize("size", SIZES)
def test_copy_v2_weights_into_v1(student, reference, device, dtype, size):
    """Book exercise 3.1: v1's matrices become the transposed weights of v2's linear layers
    (and the student's own SelfAttention_v1 and v2, for no points: a note)."""
    ref_v2, _, _, sa_v1, initial, returned = _copied(student, reference, size, device, dtype)
    found = _copy_faults(ref_v2, sa_v1, initial)
    elsewhere = _copied_elsewhere(ref_v2, returned, initial) if len(found) == len(COPIED) else None
    if elsewhere is not None:  # copied into a module of its own, and returned it: told so, then its own faults
        found = [finding("copied_into_another_module", "copied_into_another_module",
                         call="copy_v2_weights_into_v1(sa_v2, sa_v1)"), *elsewhere]
    found = _same_mistake_told_once(_most_not_copied(found))
    if found:
        first, *others = found
        raise Failure(first.with_faults(*(fault for other in others for fault in other.all_faults())))
    if size == SIZES[0] and device == "cpu" and dtype == torch.float64:
        stand_ins.note_own_stages("copy_v2_weights_into_v1", lambda: _own_modules_breaking(student, reference, size))


def _copy_faults(ref_v2, sa_v1, initial: dict[str, torch.Tensor]) -> list[Finding]:
    """Each of sa_v1's three matrices that does not hold v2's layer of the same name, transposed: a
    fault of its own (W_query and W_key swapped, and W_value never copied: two)."""
    parameters = sa_v1.describe()["parameters"]
    found = []
    for name, own_name in zip(COPIED, initial, strict=True):
        what = finding("what.after_copy", call="copy_v2_weights_into_v1(sa_v2, sa_v1)", attribute=f"sa_v1.{own_name}")
        weight = getattr(ref_v2, name).weight.detach()
        others = [getattr(ref_v2, other).weight.detach() for other in COPIED if other != name]
        try:
            expect(own_name in parameters, finding("not_a_parameter", what=what, module="sa_v1"))
            expect_tensor(sa_v1.attr(own_name), weight.T, what,
                          mistakes={"copied_wrong_matrix": [other.T for other in others],
                                    "copy_without_transpose": [weight],
                                    "copy_reshaped": [weight.reshape(weight.T.shape)],
                                    # another layer's weight, and reshaped or left as it is (blind27/044)
                                    "copied_wrong_matrix+copy_reshaped": [other.reshape(weight.T.shape)
                                                                          for other in others],
                                    "copied_wrong_matrix+copy_without_transpose": others,
                                    "matrix_not_copied": [initial[own_name]]})
        except Failure as failure:
            found.append(failure.finding)
    return found


def _most_not_copied(found: list[Finding]) -> list[Finding]:
    """``found``, with two or three matrices left as they were told as one finding
    (``matrices_not_copied``, a mistake of no behaviour's share): a copy that wrote one matrix or
    none copied too little to show its layout or how it writes, and loses the whole test
    (``grading.partial_credit``), as an empty function does. One matrix left out stays a fault of
    its own, of the placement alone."""
    left = [fault for fault in found if fault.mistake == "matrix_not_copied"]
    if len(left) < 2:
        return found
    names = ", ".join(fault.fields["what"].fields["attribute"] for fault in left)
    return [finding("matrices_not_copied", "matrices_not_copied", call="copy_v2_weights_into_v1(sa_v2, sa_v1)",
                    names=names),
            *(fault for fault in found if fault not in left)]


# The mistakes of a matrix's layout: the same evidence in every matrix that shows one.
_LAYOUT_MISTAKES = ("copy_without_transpose", "copy_reshaped")


def _same_mistake_told_once(found: list[Finding]) -> list[Finding]:
    """``found``, with the matrices that show the layout mistake an earlier one shows (all three
    copied without a transpose, say) named in a note of that one rather than told again, values and
    mistake, once per matrix. Matrices copied from the wrong layer are each told: each holds
    another layer's weight."""
    kept: list[Finding] = []
    alike: dict[int, list[str]] = {}
    for fault in found:
        first = next((index for index, earlier in enumerate(kept)
                      if fault.mistake in _LAYOUT_MISTAKES and earlier.mistake == fault.mistake), None)
        what = fault.fields.get("what")
        if first is None or not isinstance(what, Finding) or "attribute" not in what.fields:
            kept.append(fault)
        else:
            alike.setdefault(first, []).append(what.fields["attribute"])
    return [fault.with_notes(finding("evidence.same_in", names=", ".join(alike[index])))
            if index in alike else fault for index, fault in enumerate(kept)]


def _copied_elsewhere(ref_v2, returned, initial: dict[str, torch.Tensor]) -> list[Finding] | None:
    """When sa_v1 kept every matrix it had and the copy returned a module holding at least one of
    them copied (a deep copy of sa_v1, or a new SelfAttention_v1, filled and returned), that
    module's own faults (none: the copy is right there); None otherwise."""
    if not isinstance(returned, RemoteObject):
        return None
    try:
        faults = _copy_faults(ref_v2, returned, initial)
    except StudentError:
        return None
    return faults if len(faults) < len(COPIED) else None


def _own_modules_breaking(student, reference, size) -> list[str]:
    """Which of the student's own SelfAttention_v1 and SelfAttention_v2 keep the copy from working
    between them (it works between the containers): one whose parameters are not the notebook's,
    or both when each has them and the copy still goes wrong."""
    seed, _, d_in, d_out = size
    culprits = []
    try:
        ref_v2, sa_v2 = _modules(student, reference, "SelfAttention_v2", size, "cpu", torch.float64)
        layers = set(sa_v2.describe()["parameters"])
        if any(f"{name}.weight" not in layers for name in COPIED):  # fused, say: the copy reads the names
            culprits.append("SelfAttention_v2")
    except (Failure, StudentError):
        culprits.append("SelfAttention_v2")
    shapes = {}
    names = _own_v1_names(student, d_in, d_out)
    with contextlib.suppress(StudentError):
        sa_v1 = student.new("SelfAttention_v1", d_in, d_out).to("cpu", torch.float64)
        shapes = {name: shape for name, (shape, _) in sa_v1.describe()["parameters"].items()}
    if any(shapes.get(names[name]) != [d_in, d_out] for name in COPIED):
        culprits.append("SelfAttention_v1")
    if culprits:
        return culprits

    def copied() -> bool:
        student.call("copy_v2_weights_into_v1", sa_v2, sa_v1)
        rtol, atol = TOLERANCES[torch.float64]
        return all(torch.allclose(torch.as_tensor(sa_v1.attr(names[name])).cpu(),
                                  getattr(ref_v2, name).weight.detach().T, rtol=rtol, atol=atol) for name in COPIED)

    return [] if stand_ins.holds(copied) else ["SelfAttention_v1", "SelfAttention_v2"]


@pytest.mark.copy_v2_weights_into_v1
@pytest.mark.behaviour
def test_copy_v2_weights_into_v1_leaves_sa_v2_unchanged(student, reference):
    """The copy reads sa_v2 and writes only into sa_v1: an in-place transpose of sa_v2's weights
    (``.t_()``) leaves sa_v1 right and sa_v2 broken (d_in != d_out here, so its shape shows it), and
    a copy the wrong way round (sa_v1's matrices into sa_v2) leaves sa_v2 other values."""
    _, layout, sa_v2, _, _, _ = _copied(student, reference, SIZES[1], "cpu", torch.float64)
    for name, weight in layout.items():
        kept = sa_v2
        for part in name.split("."):  # W_query.weight: the layer, then its weight
            kept = kept.attr(part) if isinstance(kept, RemoteObject) else None
        expect(isinstance(kept, torch.Tensor) and kept.shape == weight.shape and torch.equal(kept.cpu(), weight.cpu()),
               finding("source_changed_by_copy", "copy_modifies_source", call="copy_v2_weights_into_v1(sa_v2, sa_v1)",
                       name=name))


# Not graded, but worth fixing (ARCHITECTURE.md, "Fairness"): a result of another dtype than the
# inputs', or cut from autograd, with the right values; a module's parameters created in another
# order than the notebook's, or its projections fused in one layer. A note, for no points.
@pytest.mark.scaled_dot_product_scores
def test_scaled_dot_product_scores_worth_fixing(student, reference):
    queries, keys = randn(55, 2, 5, 4, dtype=torch.float64), randn(56, 2, 6, 4, dtype=torch.float64)
    note_what_is_worth_fixing(student, "scaled_dot_product_scores", (queries, keys), ("queries", "keys"),
                              reference.scaled_dot_product_scores,
                              "scaled_dot_product_scores(queries, keys)")


@pytest.mark.copy_v2_weights_into_v1
def test_copy_v2_weights_into_v1_worth_fixing(student, reference):
    """What the copy leaves that works now and not later, noted whether or not its values are
    right (a note of a failed test would be lost): a result, where the copy changes sa_v1 in place
    and returns nothing; sa_v1's matrices made frozen (requires_grad=False), which training would
    never change; and matrices left sharing memory with sa_v2's weights (``.data =``, or the book's
    own ``nn.Parameter(weight.T)``), found by giving sa_v2's weights other values in place after the
    copy, as an optimizer's step does. The exercise asks only that both modules compute the same,
    so none costs anything. A copy that changed sa_v2's shapes (``.t_()``) shares nothing to note:
    its own test charges that."""
    _, layout, sa_v2, sa_v1, initial, returned = _copied(student, reference, SIZES[1], "cpu", torch.float64)
    described = sa_v1.describe()
    # A result beside an sa_v1 left as it was is the copy made elsewhere: its own test says so.
    changed = any(name in described["parameters"] and not torch.equal(torch.as_tensor(sa_v1.attr(name)), matrix)
                  for name, matrix in initial.items())
    problems = [finding("worth_fixing.copy_returns")] if returned is not None and changed else []
    frozen = [name for name in initial if name in described["frozen_parameters"]]
    if frozen:
        problems.append(finding("worth_fixing.copy_frozen", names=", ".join(f"sa_v1.{name}" for name in frozen)))
    shared = _sharing_storage(layout, sa_v2, sa_v1, initial, described["parameters"])
    if shared:
        problems.append(finding("worth_fixing.shared_storage", names=", ".join(f"sa_v1.{name}" for name in shared)))
    if problems:
        observations.note(finding("note.worth_fixing", call="copy_v2_weights_into_v1(sa_v2, sa_v1)",
                                  problems=problems))


def _sharing_storage(layout: dict[str, torch.Tensor], sa_v2, sa_v1, initial: dict[str, torch.Tensor],
                     parameters: dict) -> list[str]:
    """sa_v1's matrices that change when sa_v2's weights are given other values in place."""
    shapes = {name: shape for name, (shape, _) in sa_v2.describe()["parameters"].items()}
    if any(shapes.get(name) != list(weight.shape) for name, weight in layout.items()):
        return []
    copied = {name: torch.as_tensor(sa_v1.attr(name)).detach().clone() for name in initial if name in parameters}
    sa_v2.load_state_dict({name: weight + 1.0 for name, weight in layout.items()})
    return [name for name, matrix in copied.items() if not torch.equal(torch.as_tensor(sa_v1.attr(name)), matrix)]


@pytest.mark.SelfAttention_v1
def test_self_attention_v1_worth_fixing(student, reference):
    _, num_tokens, d_in, d_out = SIZES[1]
    note_module_worth_fixing(student, reference.SelfAttention_v1, "SelfAttention_v1", (d_in, d_out), {},
                             randn(57, num_tokens, d_in, dtype=torch.float64),
                             call_text("SelfAttention_v1", d_in, d_out))


@pytest.mark.SelfAttention_v2
def test_self_attention_v2_worth_fixing(student, reference):
    _, num_tokens, d_in, d_out = SIZES[1]
    note_module_worth_fixing(student, reference.SelfAttention_v2, "SelfAttention_v2", (d_in, d_out),
                             {"qkv_bias": True}, randn(58, num_tokens, d_in, dtype=torch.float64),
                             call_text("SelfAttention_v2", d_in, d_out, qkv_bias=True))
