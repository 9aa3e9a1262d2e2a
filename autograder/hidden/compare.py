"""Compare a student's answer with the reference, with feedback a student can act on.

Every hidden test checks tensors through ``expect_tensor``: a plain ``torch.Tensor`` first,
then shape, dtype, device, finiteness and values, each with its own message. Messages state
what was expected and what came, but never the reference's values: at most the largest
error, where it is and the student's own number there. When the answer matches a known
mistake (see ``autograder.hidden.wrong_outputs``) the finding names it. A failure raises
``Failure`` with its finding as data; its words are in ``autograder.findings.english``.

Values are compared at the precision the student returned: the notebooks never ask to keep the
input's floating dtype, so a float32 answer to float64 inputs (the book's loops fill
``torch.empty(T)``) is right when it is right to float32's tolerance; and so is a float64 answer
computed in float32 inside (a float32 scale, an upcast attention), with a note that costs nothing
(ARCHITECTURE.md, "Fairness"). Every comparison records its largest difference, which the
results keep per test (``autograder.hidden.observations``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence

import torch

from autograder.findings.finding import REPRODUCED_FIELD, Failure, Finding, finding
from autograder.hidden import diagnosis, observations
from autograder.probes.errors import StudentError
from autograder.student.reading.error_hints import LEAF_IN_PLACE

# (rtol, atol) per dtype. Tight enough that a missing 1/sqrt(d_k) or a wrong dim always
# fails, loose enough for a correct answer computed in another order (einsum, SDPA, logsumexp).
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-7, 1e-10),
}

# The wrong outputs of each mistake by mistake id; a callable is only run once the answer failed.
Mistakes = Mapping[str, list[torch.Tensor]]
MistakeSource = Mistakes | Callable[[], Mistakes] | None
# The wrong outputs of mistakes made together, by the mistakes in the order to fix them (a mask
# after the softmax and no scale); a callable is only run once no single mistake fits.
PairedMistakes = Mapping[tuple[str, ...], list[torch.Tensor]]
PairedSource = PairedMistakes | Callable[[], PairedMistakes] | None
# Joins the ids of mistakes made together in one wrong output ("mask_hides_diagonal+normalised_wrong_dim").
COMBINED = "+"
# What is wrong with an answer: a key of findings.english.SENTENCES and its fields, less {what}.
Problem = tuple[str, dict[str, object]]
# What was checked: a phrase of findings.english (what.*) or plain code.
What = Finding | str
# What may explain a wrong answer (``autograder.hidden.diagnosis``), or a callable giving them
# (only called once the answer failed).
Explainers = Sequence[diagnosis.Explainer] | Callable[[], Sequence[diagnosis.Explainer]] | None


def expect(condition: bool, found: Finding) -> None:
    """Fail with ``found`` unless ``condition`` holds."""
    if not condition:
        raise Failure(found)


def expect_inputs_unchanged(changed: list[str], arguments: tuple[str, ...], what: What) -> None:
    """Fail when a call changed one of its tensor arguments in place: ``changed`` as the worker
    reports it (positions "0", "1", or keywords), ``arguments`` naming the positions."""
    if changed:
        raise Failure(finding("modified_input", "input_modified_in_place", what=what,
                              argument=_argument_name(changed[0], arguments)))


def backward_of_function(student, name: str, args: tuple, grad_output: torch.Tensor, arguments: tuple[str, ...],
                         what: What) -> dict:
    """``student.backward`` of a function stage. A function that changes its input in place fails
    here because autograd refuses it on a leaf: that is the fault its value tests name
    (``input_modified_in_place``, with the right values), told so, not a new one."""
    try:
        return student.backward(name, args, grad_output)
    except StudentError as error:
        if LEAF_IN_PLACE.search(str(error)):
            raise Failure(finding("modified_input", "input_modified_in_place", what=what,
                                  argument=arguments[0])) from None
        raise


def _argument_name(key: str, arguments: tuple[str, ...]) -> str:
    """An argument as the worker reports it (a position, "0", or a keyword) by its name."""
    return arguments[int(key)] if key.isdigit() and int(key) < len(arguments) else key


def expect_function_output(student, name: str, args: tuple, arguments: tuple[str, ...], expected: torch.Tensor,
                           what: What, *, rtol: float | None = None, mistakes: MistakeSource = None,
                           kwargs: Mapping | None = None, explain: Explainers = None,
                           together: PairedSource = None) -> None:
    """The student's ``name(*args, **kwargs)`` returns ``expected`` (``mistakes``, ``explain`` and
    ``together`` as in ``expect_tensor``) and leaves its tensor arguments as they were (``arguments``
    names them), as ``inputs_kept`` checks."""
    actual, changed = student.call_reporting_changes(name, *args, **(kwargs or {}))
    with inputs_kept(changed, arguments, what):
        expect_tensor(actual, expected, what, rtol=rtol, mistakes=mistakes, explain=explain, together=together)


@contextlib.contextmanager
def inputs_kept(changed: list[str], arguments: tuple[str, ...], what: What) -> Iterator[None]:
    """Around the checks of what a call returned: the call must also have left its tensor arguments
    as they were (``changed`` and ``arguments`` as in ``expect_inputs_unchanged``). A wrong answer
    that also changed an argument in place fails with both faults, each its own finding: what its
    values show first, then the argument changed (a fault that the wrong values do not excuse, and
    one that a fix of the values alone would leave)."""
    try:
        yield
    except Failure as failure:
        if not changed:
            raise
        also_changed = finding("modified_input_too", "input_modified_in_place", what=what,
                               argument=_argument_name(changed[0], arguments))
        if failure.finding.mistake == "input_modified_in_place":
            # the values are what writing into the argument gives (a loop that writes each mean back
            # into x: review of notebook 3): one fault, with the argument changed as its evidence
            raise Failure(failure.finding.with_notes(finding("evidence.argument_written",
                                                             argument=_argument_name(changed[0], arguments)))) from None
        raise Failure(failure.finding.with_faults(also_changed)) from None
    expect_inputs_unchanged(changed, arguments, what)


def shape_text(shape) -> str:
    """A shape as students write it: (2, 5, 4)."""
    return "(" + ", ".join(str(size) for size in shape) + ("," if len(shape) == 1 else "") + ")"


def expect_tensor(actual, expected: torch.Tensor, what: What, *, rtol: float | None = None,
                  atol: float | None = None, mistakes: MistakeSource = None, explain: Explainers = None,
                  together: PairedSource = None) -> None:
    """Check that ``actual`` is a tensor equal to ``expected``, or fail with a helpful message.

    ``what`` names the call in the student's terms, e.g. ``softmax_naive(x, dim=1) for x of
    shape (2, 5, 4)``. ``rtol``/``atol`` default to ``TOLERANCES`` for the expected dtype;
    non-floating tensors must match exactly. A meta ``expected`` checks everything but the values.

    A wrong answer is read before it is matched (``autograder.hidden.diagnosis``): ``explain``
    (or a callable returning them) adds the stage's explainers to those that hold for any
    output, and ``mistakes`` (or a callable returning them) maps mistake ids to the wrong outputs
    that mistake would give on the same inputs. The finding states what the values show and
    names the mistake when one explanation fits (``diagnosis.conclude``). When no single mistake
    reproduces the answer, ``together`` (or a callable returning them) maps mistakes made together
    to their wrong outputs: the one pair that reproduces it is reported, each mistake a fault of
    its own (``diagnosis.faults_together``).

    Several values returned where one tensor is asked for (a tuple) is a fault; the first of them,
    when a tensor, is read as the answer too, so that a fault in it is not hidden behind the tuple.
    """
    if type(actual) in (tuple, list) and actual and type(actual[0]) is torch.Tensor:
        several = finding("not_tensor", _NOT_TENSOR_MISTAKES.get(type(actual).__name__), what=what,
                          type_name=type(actual).__name__)
        try:
            expect_tensor(actual[0], expected, finding("what.first_returned", what=what), rtol=rtol, atol=atol,
                          mistakes=mistakes, explain=explain, together=together)
        except Failure as behind:
            raise Failure(several.with_faults(*behind.finding.all_faults())) from None
        raise Failure(several)
    _expect_plain_tensor(actual, what)
    problem = _structure_problem(actual, expected)
    if problem is None:
        problem = _value_problem(actual, expected, rtol, atol, what)
        if problem is not None:
            _fail(what, problem, _conclusion(actual, expected, problem, mistakes, explain, rtol, atol, together))
        return
    # On a wrong dtype, only a mistake whose values are right: the others are the values' fault.
    named = _right_values_mistakes(expected, mistakes) if problem[0] == "wrong_dtype" else mistakes
    # Two faults may give another shape together (the weights returned, unscaled).
    paired = together if problem[0] == "wrong_shape" else None
    conclusion = _conclusion(actual, expected, problem, named, explain, rtol, atol, paired)
    first = _found(what, problem, conclusion)
    if problem[0] == "wrong_shape" and _whole_output(conclusion):
        raise Failure(first)  # what reproduces the output in its own shape leaves no fault behind it
    raise Failure(first.with_faults(*_faults_behind_structure(actual, expected, problem, what, mistakes, explain,
                                                              rtol, atol)))


def _whole_output(conclusion: diagnosis.Conclusion) -> bool:
    """Whether the conclusion's mistakes reproduce the whole output: the catalogue's one exact
    match, or mistakes made together."""
    return conclusion.reproduced or any(evidence.key == "evidence.faults_together" for evidence in conclusion.evidence)


def _faults_behind_structure(actual: torch.Tensor, expected: torch.Tensor, problem: Problem, what: What,
                             mistakes: MistakeSource, explain: Explainers, rtol, atol) -> list[Finding]:
    """The faults that a wrong shape, dtype or device would hide: an answer whose shape is the
    reference's but for leading dims of size 1 (it broadcasts alike), or a matrix (or a batch of
    them) with its last two dims swapped, is read in the reference's shape, then dtype and device,
    and each further difference is a fault of its own (a mask of shape (1, 1, T, T), in uint8,
    that keeps the past: three faults). The dtype's fault names a known mistake only where the
    values are right (the catalogue's right values in another dtype); the values' fault names one
    of the others."""
    if actual.numel() == 0:
        return []
    shown = finding("what.read_as", what=what, shape=shape_text(expected.shape), dtype=expected.dtype)
    if problem[0] == "wrong_shape":
        if _without_leading_ones(actual.shape) == _without_leading_ones(expected.shape):
            actual = actual.reshape(expected.shape)
        elif actual.ndim in (2, 3) and actual.transpose(-2, -1).shape == expected.shape:
            # its last two dims swapped (rows stacked as columns): read each row where it belongs. Not
            # heads' (b, h, T, hd): with as many heads as tokens, another layout swaps into that shape
            actual = actual.transpose(-2, -1)
            shown = finding("what.read_transposed", what=what, shape=shape_text(expected.shape))
        else:
            return _reproduced_in_order(actual, expected, what, mistakes, rtol, atol)
        explain = None  # the stage's probes compare the student's own outputs, in the student's shape
    faults = []
    dtype_problem = _structure_problem(actual, expected)
    right_values = _right_values_mistakes(expected, mistakes)
    if dtype_problem is not None and dtype_problem[0] == "wrong_dtype" and problem[0] != "wrong_dtype":
        named = _matched_mistakes(actual, expected, right_values, rtol, atol)
        faults.append(_found(what, dtype_problem, diagnosis.Conclusion(named.pop() if len(named) == 1 else None, (),
                                                                       reproduced=len(named) == 1)))
    aligned = actual.to(device=expected.device, dtype=expected.dtype)
    value_problem = _value_problem(aligned, expected, rtol, atol, shown)
    if value_problem is not None:
        others = {mistake: outputs for mistake, outputs in _candidates(mistakes).items() if mistake not in right_values}
        faults.append(_found(shown, value_problem,
                             _conclusion(aligned, expected, value_problem, others, explain, rtol, atol)))
    return faults


def _reproduced_in_order(actual: torch.Tensor, expected: torch.Tensor, what: What, mistakes: MistakeSource,
                         rtol, atol) -> list[Finding]:
    """An output of another layout but as many values (sizes unpacked in another order, say), read
    in the reference's shape in its own order: a fault of its own only where one of the catalogue's
    mistakes reproduces it exactly so (heads interleaved behind a wrong shape); explainers never
    read values that may sit anywhere."""
    if actual.numel() != expected.numel() or actual.dtype != expected.dtype or actual.device != expected.device:
        return []
    read = actual.reshape(expected.shape)
    named = _matched_mistakes(read, expected, _candidates(mistakes), rtol, atol)
    if len(named) != 1 or _value_problem(read, expected, rtol, atol, what) is None:
        return []
    shown = finding("what.read_in_order", what=what, shape=shape_text(expected.shape))
    value_problem = _value_problem(read, expected, rtol, atol, shown)
    return [_found(shown, value_problem, diagnosis.Conclusion(named.pop(), (), reproduced=True))]


def _without_leading_ones(shape) -> list[int]:
    """A shape less its leading dims of size 1: the shapes that broadcast alike ((1, 1, T, T) and (T, T))."""
    sizes = list(shape)
    while sizes and sizes[0] == 1:
        sizes.pop(0)
    return sizes


def _candidates(mistakes: MistakeSource) -> Mistakes:
    return dict((mistakes() if callable(mistakes) else mistakes) or {})


def _right_values_mistakes(expected: torch.Tensor, mistakes: MistakeSource) -> Mistakes:
    """The catalogue's mistakes whose output holds the reference's own values (in another dtype)."""
    return {mistake: outputs for mistake, outputs in _candidates(mistakes).items()
            if any(output.shape == expected.shape and "meta" not in (output.device.type, expected.device.type)
                   and torch.equal(output.cpu(), expected.cpu()) for output in outputs)}


def expect_structure(actual, like: torch.Tensor, what: What) -> None:
    """Check that ``actual`` is a tensor with the shape, dtype and device of ``like``."""
    _expect_plain_tensor(actual, what)
    problem = _structure_problem(actual, like)
    if problem is not None:
        _fail(what, problem, diagnosis.Conclusion(None, ()))


def expect_finite(actual: torch.Tensor, what: What) -> None:
    """Every value finite: statistics read off an output (how many were dropped, say) name nothing
    about one that is NaN, and a mistake named from them could never be pinned to one behaviour."""
    values = actual.detach().cpu()
    bad = ~torch.isfinite(values)
    if bad.any():
        _fail(what, _not_finite(values, bad), diagnosis.Conclusion(None, ()))


def _fail(what: What, problem: Problem, conclusion: diagnosis.Conclusion):
    raise Failure(_found(what, problem, conclusion))


def _found(what: What, problem: Problem, conclusion: diagnosis.Conclusion) -> Finding:
    key, fields = problem
    mistake_id, *together = split_mistakes(conclusion.mistake)
    if mistake_id is None and key == "wrong_device":
        mistake_id = "device_not_followed"
    made_together = finding("evidence.made_together")
    if conclusion.reproduced:  # for partial credit: the evidence stated beside it is not what named it
        fields = {**fields, REPRODUCED_FIELD: 1}
    return finding(key, mistake_id, what=what, **fields).with_notes(*conclusion.evidence).with_faults(
        *(finding("fault_seen", mistake, what=what, evidence=made_together) for mistake in together),
        *(finding("fault_seen", fault.mistake, what=what, evidence=fault.evidence) for fault in conclusion.faults))


def split_mistakes(mistake: str | None) -> list[str | None]:
    """A catalogue's mistake id as the faults it holds, in the order to fix them: an output that
    several independent mistakes give together is keyed by their ids joined with ``+``
    (``wrong_outputs.two_parts_wrong``); [None] when none is named."""
    return mistake.split(COMBINED) if mistake else [None]


def _conclusion(actual: torch.Tensor, expected: torch.Tensor, problem: Problem, mistakes: MistakeSource,
                explain: Explainers, rtol, atol, together: PairedSource = None) -> diagnosis.Conclusion:
    """What the wrong answer shows and the mistake to name: the stage's explainers and those of
    any output, then a constant factor if nothing else fits; and the catalogue's matches, or where
    none matches, the one set of mistakes made together that reproduces the answer."""
    catalogue = _matched_mistakes(actual, expected, mistakes, rtol, atol)
    if problem[0] in ("wrong_dtype", "wrong_device"):
        return diagnosis.conclude(catalogue, [])  # the values may be right: the structure is what to name
    rounded = diagnosis.explain(actual, expected, [diagnosis.rounded_to_decimals])
    if rounded:  # the right values, rounded: what else the values seem to show is the rounding's
        return diagnosis.conclude(catalogue, rounded)
    given = list((explain() if callable(explain) else explain) or [])
    explanations = diagnosis.explain(actual, expected, [*given, diagnosis.all_zeros, diagnosis.right_values_elsewhere,
                                                        diagnosis.one_row_repeated, diagnosis.low_precision])
    if not catalogue and together is not None:
        matched = _matched_mistakes(actual, expected, together, rtol, atol)
        if len(matched) == 1:
            return diagnosis.faults_together(matched.pop(), explanations)
    if not catalogue and not explanations and problem[0] == "wrong_shape":
        explanations = diagnosis.explain(actual, expected, [diagnosis.mistake_with_residual(_candidates(mistakes))])
    if not explanations:
        explanations = diagnosis.explain(actual, expected, [diagnosis.constant_factor()])
    if not explanations and not catalogue and problem[0] != "wrong_shape":  # a known mistake, and a count on top
        explanations = diagnosis.explain(actual, expected, [diagnosis.mistake_times_factor(_candidates(mistakes))])
    if not explanations and not catalogue:  # at least where it differs, as the public check says
        explanations = diagnosis.explain(actual, expected, [diagnosis.where_it_differs])
    return diagnosis.conclude(catalogue, explanations)


# What returning something else than a tensor most often means.
_NOT_TENSOR_MISTAKES = {"NoneType": "missing_return", "tuple": "returned_several_values"}


def _expect_plain_tensor(actual, what: What) -> None:
    if type(actual) is not torch.Tensor:
        type_name = getattr(actual, "type_name", type(actual).__name__)
        raise Failure(finding("not_tensor", _NOT_TENSOR_MISTAKES.get(type_name), what=what, type_name=type_name))


def _structure_problem(actual: torch.Tensor, expected: torch.Tensor) -> Problem | None:
    if actual.shape != expected.shape:
        return "wrong_shape", {"actual_shape": shape_text(actual.shape),
                               "expected_shape": shape_text(expected.shape)}
    if actual.dtype != expected.dtype and not _both_compared_floats(actual.dtype, expected.dtype):
        return "wrong_dtype", {"actual_dtype": actual.dtype, "expected_dtype": expected.dtype}
    if actual.device != expected.device:
        return "wrong_device", {"actual_device": actual.device, "expected_device": expected.device}
    return None


def _not_finite(actual: torch.Tensor, bad: torch.Tensor) -> Problem:
    """The problem of values that are NaN or infinite where ``bad`` marks them."""
    return "not_finite", {"count": int(bad.sum()), "total": actual.numel(), "index": _index_text(bad.nonzero()[0]),
                          "value": actual[bad][0].item()}


def _value_problem(actual: torch.Tensor, expected: torch.Tensor, rtol, atol, what: What) -> Problem | None:
    if expected.device.type == "meta" or actual.numel() == 0:
        return None
    actual, expected = actual.cpu(), expected.cpu()
    if not expected.is_floating_point():
        return _exact_problem(actual, expected)
    bad = ~torch.isfinite(actual) & torch.isfinite(expected)
    if bad.any():
        return _not_finite(actual, bad)
    precision = _less_precise(actual.dtype, expected.dtype)
    rtol, atol = _tolerances(precision, rtol, atol)
    error = (actual.double() - expected.double()).abs().nan_to_num(0.0)
    observations.difference(float(error.max()))
    wrong = error > atol + rtol * expected.double().abs()
    if not wrong.any():
        return None
    if precision == torch.float64 and not (error > _float32_bound(expected, rtol, atol)).any():
        # Right at float32's precision only: computed in float32 somewhere inside. The notebooks do
        # not ask for float64 precision, so this costs nothing; a note says where it was lost.
        observations.note(finding("note.float32_precision", what=what, difference=f"{error.max().item():.3g}"))
        return None
    worst = int((error * wrong).argmax())
    index = torch.unravel_index(torch.tensor(worst), actual.shape)
    return "values_differ", {"count": int(wrong.sum()), "total": actual.numel(),
                             "difference": f"{error.flatten()[worst].item():.3g}",
                             "index": _index_text(index),
                             "value": f"{actual.flatten()[worst].item():.4g}"}


def _float32_bound(expected: torch.Tensor, rtol: float, atol: float) -> torch.Tensor:
    """How far a float64 answer computed in float32 inside may be off: float32's tolerances (or
    the test's own, where they are looser)."""
    rtol32, atol32 = TOLERANCES[torch.float32]
    return max(atol, atol32) + max(rtol, rtol32) * expected.double().abs()


def _exact_problem(actual: torch.Tensor, expected: torch.Tensor) -> Problem | None:
    wrong = actual != expected
    if not wrong.any():
        return None
    first = wrong.nonzero()[0]
    return "entries_wrong", {"count": int(wrong.sum()), "total": actual.numel(),
                             "index": _index_text(first), "value": actual[tuple(first)].item()}


def _index_text(index) -> str:
    return shape_text([int(i) for i in index])


def matching_mistake(actual: torch.Tensor, expected: torch.Tensor, mistakes: MistakeSource) -> str | None:
    """The one known mistake (of ``mistakes``, as in ``expect_tensor``) whose output ``actual``
    reproduces at the default tolerances; None when none does, or when several different ones do
    (the evidence cannot tell which was made)."""
    matched = _matched_mistakes(actual, expected, mistakes, None, None)
    return split_mistakes(matched.pop())[0] if len(matched) == 1 else None


def _matched_mistakes(actual, expected, mistakes: MistakeSource | PairedSource, rtol, atol) -> set:
    """The ids of the known mistakes (or the pairs of mistakes) whose output the answer reproduces."""
    if mistakes is None or actual.device != expected.device:
        return set()  # a tensor on the wrong device: that is the mistake to name
    candidates = mistakes() if callable(mistakes) else mistakes
    return {mistake_id for mistake_id, outputs in candidates.items()
            if any(_same_values(actual, wrong.to(expected.dtype), rtol, atol) for wrong in outputs)}


def _same_values(actual: torch.Tensor, wrong: torch.Tensor, rtol, atol) -> bool:
    if actual.shape != wrong.shape or "meta" in (actual.device.type, wrong.device.type):
        return False  # a meta tensor has no values to compare
    if not wrong.is_floating_point():
        return torch.equal(actual.cpu().to(wrong.dtype), wrong.cpu())
    rtol, atol = _tolerances(_less_precise(actual.dtype, wrong.dtype), rtol, atol)
    return torch.allclose(actual.cpu().to(wrong.dtype), wrong.cpu(), rtol=rtol, atol=atol,
                          equal_nan=True)


def _both_compared_floats(*dtypes: torch.dtype) -> bool:
    """Whether every dtype is one the tests compare at its own precision (float32, float64)."""
    return all(dtype in TOLERANCES for dtype in dtypes)


def _less_precise(actual: torch.dtype, expected: torch.dtype) -> torch.dtype:
    """The dtype whose tolerances apply: the student's, when it holds fewer digits."""
    if _both_compared_floats(actual, expected) and torch.finfo(actual).eps > torch.finfo(expected).eps:
        return actual
    return expected


def _tolerances(dtype: torch.dtype, rtol: float | None, atol: float | None) -> tuple[float, float]:
    """The test's tolerances where it gave them, the dtype's defaults where it did not."""
    default_rtol, default_atol = TOLERANCES[dtype]
    return (default_rtol if rtol is None else rtol, default_atol if atol is None else atol)
