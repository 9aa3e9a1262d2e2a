"""Compare a student's answer with the reference, with feedback a student can act on.

Every hidden test checks tensors through ``expect_tensor``: a plain ``torch.Tensor`` first,
then shape, dtype, device, finiteness and values, each with its own message. Messages state
what was expected and what came, but never the reference's values: at most the largest
error, where it is and the student's own number there. When the answer matches a known
mistake (see ``autograder.hidden.wrong_outputs``) the finding names it. A failure raises
``Failure`` with its finding as data; its words are in ``autograder.findings.english``.

Values are compared at the precision the student returned: the notebooks never ask to keep the
input's floating dtype, so a float32 answer to float64 inputs (the book's loops fill
``torch.empty(T)``) is right when it is right to float32's tolerance (ARCHITECTURE.md, "Fairness").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import torch

from autograder.findings.finding import Failure, Finding, finding

# (rtol, atol) per dtype. Tight enough that a missing 1/sqrt(d_k) or a wrong dim always
# fails, loose enough for a correct answer computed in another order (einsum, SDPA, logsumexp).
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float32: (1e-4, 1e-5),
    torch.float64: (1e-7, 1e-10),
}

# The wrong outputs of each mistake by mistake id; a callable is only run once the answer failed.
Mistakes = Mapping[str, list[torch.Tensor]]
MistakeSource = Mistakes | Callable[[], Mistakes] | None
# What is wrong with an answer: a key of findings.english.SENTENCES and its fields, less {what}.
Problem = tuple[str, dict[str, object]]
# What was checked: a phrase of findings.english (what.*) or plain code.
What = Finding | str


def expect(condition: bool, found: Finding) -> None:
    """Fail with ``found`` unless ``condition`` holds."""
    if not condition:
        raise Failure(found)


def expect_inputs_unchanged(changed: list[str], arguments: tuple[str, ...], what: What) -> None:
    """Fail when a call changed one of its tensor arguments in place: ``changed`` as the worker
    reports it (positions "0", "1", or keywords), ``arguments`` naming the positions."""
    if changed:
        key = changed[0]
        name = arguments[int(key)] if key.isdigit() and int(key) < len(arguments) else key
        raise Failure(finding("modified_input", "input_modified_in_place", what=what, argument=name))


def expect_function_output(student, name: str, args: tuple, arguments: tuple[str, ...], expected: torch.Tensor,
                           what: What, *, rtol: float | None = None, mistakes: MistakeSource = None,
                           kwargs: Mapping | None = None) -> None:
    """The student's ``name(*args, **kwargs)`` returns ``expected`` (``mistakes`` as in
    ``expect_tensor``) and leaves its tensor arguments as they were (``arguments`` names them)."""
    actual, changed = student.call_reporting_changes(name, *args, **(kwargs or {}))
    expect_tensor(actual, expected, what, rtol=rtol, mistakes=mistakes)
    expect_inputs_unchanged(changed, arguments, what)


def shape_text(shape) -> str:
    """A shape as students write it: (2, 5, 4)."""
    return "(" + ", ".join(str(size) for size in shape) + ("," if len(shape) == 1 else "") + ")"


def expect_tensor(actual, expected: torch.Tensor, what: What, *, rtol: float | None = None,
                  atol: float | None = None, mistakes: MistakeSource = None) -> None:
    """Check that ``actual`` is a tensor equal to ``expected``, or fail with a helpful message.

    ``what`` names the call in the student's terms, e.g. ``softmax_naive(x, dim=1) for x of
    shape (2, 5, 4)``. ``rtol``/``atol`` default to ``TOLERANCES`` for the expected dtype;
    non-floating tensors must match exactly. ``mistakes`` (or a callable returning them) maps
    mistake ids to the wrong outputs that mistake would give on the same inputs.
    A meta ``expected`` checks everything but the values.
    """
    _expect_plain_tensor(actual, what)
    problem = _structure_problem(actual, expected) or _value_problem(actual, expected, rtol, atol)
    if problem is not None:
        _fail(what, problem, _matching_mistake(actual, expected, mistakes, rtol, atol))


def expect_structure(actual, like: torch.Tensor, what: What) -> None:
    """Check that ``actual`` is a tensor with the shape, dtype and device of ``like``."""
    _expect_plain_tensor(actual, what)
    problem = _structure_problem(actual, like)
    if problem is not None:
        _fail(what, problem, None)


def _fail(what: What, problem: Problem, mistake_id: str | None):
    key, fields = problem
    if mistake_id is None and key == "wrong_device":
        mistake_id = "device_not_followed"
    raise Failure(finding(key, mistake_id, what=what, **fields))


def _expect_plain_tensor(actual, what: What) -> None:
    if type(actual) is not torch.Tensor:
        type_name = getattr(actual, "type_name", type(actual).__name__)
        raise Failure(finding("not_tensor", what=what, type_name=type_name))


def _structure_problem(actual: torch.Tensor, expected: torch.Tensor) -> Problem | None:
    if actual.shape != expected.shape:
        return "wrong_shape", {"actual_shape": shape_text(actual.shape),
                               "expected_shape": shape_text(expected.shape)}
    if actual.dtype != expected.dtype and not _both_compared_floats(actual.dtype, expected.dtype):
        return "wrong_dtype", {"actual_dtype": actual.dtype, "expected_dtype": expected.dtype}
    if actual.device != expected.device:
        return "wrong_device", {"actual_device": actual.device, "expected_device": expected.device}
    return None


def _value_problem(actual: torch.Tensor, expected: torch.Tensor, rtol, atol) -> Problem | None:
    if expected.device.type == "meta" or actual.numel() == 0:
        return None
    actual, expected = actual.cpu(), expected.cpu()
    if not expected.is_floating_point():
        return _exact_problem(actual, expected)
    bad = ~torch.isfinite(actual) & torch.isfinite(expected)
    if bad.any():
        return "not_finite", {"count": int(bad.sum()), "total": actual.numel(),
                              "index": _index_text(bad.nonzero()[0]),
                              "value": actual[bad][0].item()}
    rtol, atol = _tolerances(_less_precise(actual.dtype, expected.dtype), rtol, atol)
    error = (actual.double() - expected.double()).abs().nan_to_num(0.0)
    wrong = error > atol + rtol * expected.double().abs()
    if not wrong.any():
        return None
    worst = int((error * wrong).argmax())
    index = torch.unravel_index(torch.tensor(worst), actual.shape)
    return "values_differ", {"count": int(wrong.sum()), "total": actual.numel(),
                             "difference": f"{error.flatten()[worst].item():.3g}",
                             "index": _index_text(index),
                             "value": f"{actual.flatten()[worst].item():.4g}"}


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
    reproduces at the default tolerances, if any."""
    return _matching_mistake(actual, expected, mistakes, None, None)


def _matching_mistake(actual, expected, mistakes: MistakeSource, rtol, atol) -> str | None:
    """The id of the one known mistake whose output the answer reproduces; None when no mistake
    does, or when several different ones do (the evidence cannot tell which was made)."""
    if mistakes is None or actual.device != expected.device:
        return None  # a tensor on the wrong device: that is the mistake to name
    candidates = mistakes() if callable(mistakes) else mistakes
    matched = {mistake_id for mistake_id, outputs in candidates.items()
               if any(_same_values(actual, wrong.to(expected.dtype), rtol, atol) for wrong in outputs)}
    return matched.pop() if len(matched) == 1 else None


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
