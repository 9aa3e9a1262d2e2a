"""What a hidden test's failure says: the status and the finding of each exception a test can end
with, in terms a student can act on.

A probe that ran out of time or a worker that crashed carries its finding; a check that failed
raises ``Failure(finding)``; the student's own exception is read whole (``slips``, then
``error_hints``' rules, with the student's failing line and traceback: ``autograder.student.reading``,
which the public checks read exceptions with too), and a name lost while
loading says "did not load" and why (``loading``). A failed stage whose signature changes one of
the notebook's defaults has that change named as its mistake (``signatures``). The grading plugin
(``autograder.grading.plugin``) records what this decides; nothing here runs a test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from autograder.course.reference import load_reference
from autograder.findings.finding import Failure, Finding, finding
from autograder.hidden import signatures
from autograder.hidden.loading import LoadedNotebook
from autograder.probes.client import Call, Submission
from autograder.probes.errors import ProbeTimeout, StudentError, WorkerCrashed
from autograder.records.results import TestStatus
from autograder.student.reading import error_hints
from autograder.student.reading.code_read import globals_kept, named_by_code, state_kept
from autograder.student.reading.exceptions import read_exception

# A message that quotes the notebook's loading problems quotes this many (the rest are counted).
MAX_QUOTED_PROBLEMS = 5


def _quoted(problems: list[Finding]) -> list[Finding]:
    """The first few of ``problems``, and how many more: every NameError quotes them, so a notebook
    with thousands of broken definitions must not make every message that long."""
    if len(problems) <= MAX_QUOTED_PROBLEMS:
        return list(problems)
    return [*problems[:MAX_QUOTED_PROBLEMS], finding("problems.more", count=len(problems) - MAX_QUOTED_PROBLEMS)]


_UNDEFINED = re.compile(r"^name '(\w+)' is not defined")
# What an allocation refused at a worker's memory limit raises (its address-space limit refuses
# the allocation before the kernel would have to kill anything): Python's, torch's and numpy's.
_ALLOCATION_REFUSED = re.compile(r"can't allocate memory|Unable to allocate|Cannot allocate memory")


def refused_allocation(error: StudentError) -> bool:
    """Whether the student's code raised because an allocation went over the worker's memory limit."""
    return error.type_name == "MemoryError" or (error.type_name in ("RuntimeError", "OutOfMemoryError")
                                                 and bool(_ALLOCATION_REFUSED.search(error.message)))


def _student_error_finding(error: StudentError, stage: str, submission: Submission | None,
                           memory_limit: str | None = None, notebook: LoadedNotebook | None = None,
                           sources: list[str] | None = None) -> Finding:
    """What an exception of the student's code says: "did not load" (and why) for a name whose
    definition was lost while loading, and nothing else; else the error with the slip or the
    mistake it shows (``slips``, then ``error_hints``' rules) and the student's traceback."""
    if error_hints.raised_by_stub(error.type_name, error.student_traceback, error.message):
        return finding("not_implemented", stage=stage)
    if memory_limit is not None and refused_allocation(error):
        return finding("memory_refused", doing=finding("doing.answering"), limit=memory_limit,
                       error=error.message).with_notes(detail=error.student_traceback)
    undefined = error.undefined_name
    if undefined is None and error.type_name == "NameError":
        match = _UNDEFINED.match(error.message)
        undefined = match.group(1) if match else None
    if notebook is not None and undefined in notebook.lost:
        problem = notebook.lost[undefined]
        if problem.key == "computed_not_loaded":  # a sentence of its own: the name is no stage
            return problem.with_notes(detail=error.student_traceback)
        return finding("did_not_load", name=undefined, problem=problem)
    reading = read_exception(stage, error.type_name, error.message, error.student_traceback, sources or [])
    if error.undefined_name is not None:
        found = finding("not_defined", name=error.undefined_name)
    else:
        found = finding("raised", reading.mistake, error_type=error.type_name, message=error.message)
        if reading.slip is not None:
            found = found.with_notes(finding(reading.slip.evidence, **reading.slip.fields))
    notes = []
    if (error.type_name == "NameError" and error.message.startswith("name ")
            and reading.mistake != "module_not_imported"):  # a missing import is no variable of another cell
        notes.append(finding("demo_variable"))
    problems = notebook.problems if notebook is not None else submission.load_problems if submission else []
    if error.type_name == "NameError" and problems:
        notes.append(finding("while_loading", problems=_quoted(problems)))
    return found.with_notes(*notes, detail=error.student_traceback)


# Findings that say the stage's code is not there to judge: no default of it is charged.
_NOTHING_TO_JUDGE = ("not_implemented", "did_not_load", "not_defined")


def with_changed_defaults(found: Finding, stage: str, assignment: str | None, sources: list[str],
                          calls: Sequence[Call]) -> Finding:
    """A failure of a stage whose signature has a default other than the notebook's, where the test
    called the stage leaving that argument out (``calls``, as the test made them): that is the
    mistake named, in place of any name the values suggested and of any further fault the call
    showed, and the default is quoted (``signatures``). Where every call passed the argument, the
    default played no part in what failed, and the values' own reading stands."""
    if assignment is None or found.key in _NOTHING_TO_JUDGE:
        return found
    reference = getattr(load_reference(assignment), stage, None)
    changed = signatures.changed_defaults(stage, reference, sources) if reference is not None else []
    left_out = set().union(*(signatures.left_out(reference, call.positional, call.keywords)
                             for call in calls if call.name == stage)) if changed else set()
    relied_on = [default for default in changed if default.parameter in left_out]
    if not relied_on:
        return found
    first = relied_on[0]
    # What else the call showed came of the default too (no dropout at all where training is off:
    # "0.9 times the reference's", blind29/073): no further fault is told beside it.
    told = _unnamed(found)
    return Finding(told.key, told.fields, "default_changed", told.notes, told.detail).with_notes(finding(
        "evidence.default_changed", parameter=first.parameter, written=first.written, given=first.given))


def with_code_read(found: Finding, stage: str, sources: list[str]) -> Finding:
    """``found`` with each mistake it names (its faults' included) checked against the stage's
    code: one whose cause the code rules out becomes the mistake of the same output that the code
    shows, or no name (``code_read``); the evidence stays. A module whose forward keeps state from
    one call to the next, or a function that keeps it in names outside itself (a cache in a
    module-level dict), is told that, with no name (``code_read.state_kept``, ``globals_kept``)."""
    def checked(one: Finding) -> Finding:
        named = named_by_code(one.mistake, stage, sources) if one.mistake else None
        return one if named == one.mistake else one.with_mistake(named)

    kept, kept_outside = state_kept(stage, sources), globals_kept(stage, sources)
    if kept:  # what one call leaves, the next sees: any symptom may come from it, so none is named
        return _unnamed(found).with_notes(finding("evidence.state_between_calls", stage=stage,
                                                  names=", ".join(f"self.{name}" for name in kept)))
    if kept_outside:
        return _unnamed(found).with_notes(finding("evidence.state_in_globals", stage=stage,
                                                  names=", ".join(kept_outside)))
    first = checked(found)
    return Finding(first.key, first.fields, first.mistake, first.notes, first.detail,
                   tuple(checked(fault) for fault in found.faults))


def _unnamed(found: Finding) -> Finding:
    """``found`` with no mistake named in it or in the findings it holds."""
    def fields(value):
        if isinstance(value, Finding):
            return _unnamed(value)
        return [_unnamed(item) for item in value] if isinstance(value, list) else value

    return Finding(found.key, {name: fields(value) for name, value in found.fields.items()}, None,
                   tuple(_unnamed(note) for note in found.notes), found.detail,
                   tuple(_unnamed(fault) for fault in found.faults))


def _faults_behind(found: Finding, behind: list[StudentError], stage: str, sources: list[str] | None
                   ) -> list[Finding]:
    """The exceptions a test met on inputs where the first cannot happen (``StudentError.behind``),
    read alike: each that names a mistake other than those already found is a fault of its own."""
    faults: list[Finding] = []
    for error in behind:
        fault = _student_error_finding(error, stage, None, sources=sources)
        named = set().union(found.mistakes(), *(other.mistakes() for other in faults))
        if fault.mistake is not None and fault.mistake not in named:
            faults.append(fault)
    return faults


class RepairedSlip(Exception):
    """A test that stopped at the student's ``error``, which names ``mistake``, and passed when run
    again with the line that raised repaired as that mistake's fix says (``grading.repairs``);
    ``further``: each other slip a rerun met and repaired, with the mistake it names; ``still``:
    where the repaired test ran and failed on its values instead, what that failure found (a
    fault of its own, under another name)."""

    def __init__(self, error: StudentError, mistake: str | None,
                 further: list[tuple[StudentError, str]] | None = None, still: Finding | None = None):
        super().__init__(error.message)
        self.error = error
        self.mistake = mistake
        self.further = further or []
        self.still = still


def describe_failure(excinfo: pytest.ExceptionInfo, stage: str, submission: Submission | None,
                     memory_limit: str | None = None, notebook: LoadedNotebook | None = None,
                     sources: list[str] | None = None) -> tuple[TestStatus, Finding]:
    """The status and finding of a failed test, in terms a student can act on (``memory_limit``:
    each worker's, as the student should read it, when the submission runs in one; ``notebook``:
    what became of its definitions while loading; ``sources``: their code, read for slips)."""
    error = excinfo.value
    if isinstance(error, ProbeTimeout):
        return TestStatus.TIMEOUT, error.finding
    if isinstance(error, WorkerCrashed):
        return TestStatus.ERROR, error.finding
    if isinstance(error, RepairedSlip):  # the slip is all the test found: a failure of that mistake
        found = _student_error_finding(error.error, stage, submission, memory_limit, notebook, sources)
        others = [_student_error_finding(again, stage, submission, memory_limit, notebook, sources)
                  for again, _ in error.further]
        if error.still is not None:
            repaired = finding("evidence.repaired_then_failed", stage=stage)
        else:
            repaired = finding("evidence.repaired_lines" if others else "evidence.repaired_line", stage=stage)
        if found.mistake is not None and found.mistake == error.mistake and all(
                other.mistake == mistake for other, (_, mistake) in zip(others, error.further, strict=True)):
            still = [error.still] if error.still is not None else []
            return TestStatus.FAILED, found.with_notes(repaired).with_faults(*others, *still)
        return TestStatus.ERROR, found
    if isinstance(error, StudentError):
        found = _student_error_finding(error, stage, submission, memory_limit, notebook, sources)
        behind = _faults_behind(found, error.behind, stage, sources)
        named = set().union(found.mistakes(), *(fault.mistakes() for fault in behind))
        seen = [fault for fault in error.found_behind if fault.mistake is not None and fault.mistake not in named]
        return TestStatus.ERROR, found.with_faults(*behind, *seen)
    if isinstance(error, Failure):
        return TestStatus.FAILED, error.finding
    if isinstance(error, AssertionError):
        text = str(error)
        return TestStatus.FAILED, finding("verbatim", text=text) if text else finding("no_message", stage=stage)
    return TestStatus.ERROR, finding("grader_could_not_check", stage=stage, error_type=type(error).__name__)
