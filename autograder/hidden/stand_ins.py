"""The trusted side of stand-ins: each stage graded on its own (ARCHITECTURE.md, "Fairness").

A hidden test of a stage that calls another graded stage runs it with a stand-in for the called
one (``autograder.worker.stand_ins`` builds it in the worker, from the data made here), so that
one mistake costs only its own stage. The student's own chain still runs, for no points: when
it fails where the stand-ins pass, the test notes which of the student's stages to fix.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable

import torch

from autograder.findings.finding import Failure, finding
from autograder.hidden import observations
from autograder.probes.client import StudentError, Submission
from autograder.probes.errors import WorkerProblem
from autograder.worker.stand_ins import recorder_class


def rearrangement(function: Callable, calls: Iterable[tuple[tuple[int, ...], tuple]]) -> dict:
    """A stand-in for ``function``, a pure rearrangement of its first argument's elements, on
    each (input shape, other arguments) of ``calls``: where each output element comes from."""
    parameters = list(inspect.signature(function).parameters)
    table = []
    for shape, others in calls:
        with torch.no_grad():
            index = function(torch.arange(math.prod(shape)).reshape(shape), *others)
        table.append({"shape": list(shape), "args": list(others), "index": index.contiguous()})
    return {"kind": "rearrangement", "parameters": parameters, "table": table}


def consulted(reference, names: Iterable[str]) -> tuple[dict[str, dict], dict[str, Callable]]:
    """Consulted stand-ins for the reference's functions ``names``: the data the worker builds each
    from (its parameter names) and, kept in this process, the functions that answer their calls
    (``Submission.standing_in``)."""
    functions = {name: getattr(reference, name) for name in names}
    return ({name: {"kind": "consulted", "parameters": list(inspect.signature(function).parameters)}
             for name, function in functions.items()}, functions)


def recorder() -> dict:
    """A stand-in class that records how it is built (``stand_ins.Recorder`` in the worker)."""
    return {"kind": "recorder"}


def heads_stand_ins(reference, shapes: Iterable[tuple[int, int, int, int]]) -> dict[str, dict]:
    """The reference's ``split_heads`` and ``merge_heads`` as stand-ins, for inputs (b, T, d_out)
    split into ``num_heads`` and back: ``shapes`` holds (b, T, d_out, num_heads)."""
    shapes = sorted(set(shapes))
    return {
        "split_heads": rearrangement(reference.split_heads, [((b, t, d), (h,)) for b, t, d, h in shapes]),
        "merge_heads": rearrangement(reference.merge_heads, [((b, h, t, d // h), ()) for b, t, d, h in shapes]),
    }


def reference_configuration(function: Callable, class_name: str, *args: object) -> list[inspect.BoundArguments]:
    """How the reference's ``function(*args)`` builds ``class_name``: its arguments, bound to that
    class's signature (defaults applied), one per instance it builds."""
    namespace = function.__globals__
    reference_class, stand_in = namespace[class_name], recorder_class(class_name)
    namespace[class_name] = stand_in
    try:
        function(*args)
    finally:
        namespace[class_name] = reference_class
    return [bound_configuration(reference_class, record) for record in stand_in.records]


def bound_configuration(reference_class: type, record: dict) -> inspect.BoundArguments:
    """A recorded construction bound to the reference class's signature, defaults applied; where
    it does not fit, the TypeError that the notebook's class would have raised there."""
    signature = inspect.signature(reference_class)
    any_keyword = any(parameter.kind is parameter.VAR_KEYWORD for parameter in signature.parameters.values())
    unexpected = [key for key in record["kwargs"] if key not in signature.parameters and not any_keyword]
    try:
        if unexpected:  # what a call says first, in inspect's (Python's) own words
            signature.bind_partial(**{unexpected[0]: None})
        bound = signature.bind(*record["args"], **record["kwargs"])
    except TypeError as error:
        raise StudentError("TypeError", f"{reference_class.__name__}.__init__() {error}") from None
    bound.apply_defaults()
    return bound


def student_configuration(student: Submission, reference_class: type, class_name: str, function: str,
                          *args: object) -> tuple[object, list[inspect.BoundArguments]]:
    """The student's ``function(*args)`` run with a recorder standing in for ``class_name``: what it
    returned, and how it built ``class_name`` each time (bound as ``bound_configuration``).

    Code that uses what it built (counts its parameters, say) cannot run on a recorder: where the
    call raises, the records made until then are kept, and the result is that of the call with
    the student's own class (whose error, if it raises too, is the answer's)."""
    with student.standing_in({class_name: recorder()}):
        try:
            result, ran = student.call(function, *args), True
        except StudentError:
            result, ran = None, False
        records = student.stand_in_records().get(class_name, [])
    if not ran:
        result = student.call(function, *args)
    return result, [bound_configuration(reference_class, record) for record in records]


def note_own_stages(stage: str, culprits: Callable[[], list[str]]) -> None:
    """Note, for no points, which of the student's own called stages break ``stage`` here:
    ``culprits`` runs the student's own chain and names them (empty when it passes)."""
    try:
        names = culprits()
    except (Failure, StudentError, WorkerProblem):
        return  # the grader could not tell which: no note rather than a guess
    if names:
        observations.note(finding("note.own_stage_breaks", stage=stage, stages=", ".join(sorted(names))))


def holds(check: Callable[[], bool]) -> bool:
    """Whether ``check()`` is true, a failure or an error of the student's code counting as false."""
    try:
        return check()
    except (Failure, StudentError):
        return False

