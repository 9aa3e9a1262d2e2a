"""One reading of an exception of the student's code: the slip it shows (``slips``), else the
mistake that torch's words and the student's line point to (``error_hints``).

The grader reads the traceback text its worker sends (``read_exception``); a public check reads
the exception it caught (``read_raised``), after taking the same text from it: the frames of the
student's own code (neither torch's, nor Python's, nor this package's) and the source of the
cells they ran in.
"""

from __future__ import annotations

import inspect
import linecache
import sysconfig
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import error_hints, slips

# Code that is not the student's: Python's own library, installed packages (torch among them), and
# this package.
_NOT_STUDENTS = tuple(str(Path(folder).resolve()) for folder in
                      {*(sysconfig.get_paths()[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")),
                       Path(__file__).resolve().parents[1]})
MAX_FRAMES = 20


@dataclass(frozen=True)
class Reading:
    """What an exception says: the mistake it names (None: none), and the slip read from it, whose
    evidence quotes the student's names (None: no slip)."""

    mistake: str | None
    slip: slips.Slip | None = None


def read_exception(stage: str, error_type: str, message: str, student_traceback: str,
                   sources: Sequence[str]) -> Reading:
    """The reading of an exception raised on ``stage``: ``student_traceback`` is its traceback
    through the student's code only (as Python formats it), ``sources`` the code of the student's
    definitions, read for slips."""
    slip = slips.slip_in_error(error_type, message, error_hints.failing_line(student_traceback), sources,
                               error_hints.student_lines(student_traceback))
    if slip is not None:
        return Reading(slip.mistake, slip)
    return Reading(error_hints.mistake_in_error(stage, error_type, message, student_traceback, sources))


def _students(filename: str) -> bool:
    if filename.startswith("<"):  # a cell's own name (<cell 3>, <ipython-input-...>), or Python's <frozen ...>
        return not filename.startswith("<frozen ")
    return not str(Path(filename).resolve()).startswith(_NOT_STUDENTS)


def _source(filename: str) -> str:
    """The whole text of a cell or file, as linecache holds it (every line ended, even where the
    lines were registered one block at a time)."""
    return "".join(line if line.endswith("\n") else line + "\n" for line in linecache.getlines(filename))


def _definition_files(definitions: Iterable[object]) -> list[str]:
    """The cells (or files) the student's functions and classes were written in, found from their
    code objects (a class's own methods): a class keeps no file of its own in a notebook."""
    functions = []
    for definition in definitions:
        if inspect.isfunction(definition):
            functions.append(definition)
        elif inspect.isclass(definition):
            functions += [member for member in vars(definition).values() if inspect.isfunction(member)]
    return [filename for filename in dict.fromkeys(function.__code__.co_filename for function in functions)
            if _students(filename)]


def definition_sources(definitions: Iterable[object]) -> list[str]:
    """The whole source of the cells (or files) the student's ``definitions`` were written in."""
    return [_source(filename) for filename in _definition_files(definitions)]


def students_line(error: BaseException) -> str:
    """The student's own line where ``error`` was raised (its innermost frame in their code, as
    the traceback quotes it); empty when it was raised outside their code or its source is gone."""
    frames = [(frame, line) for frame, line in traceback.walk_tb(error.__traceback__)
              if _students(frame.f_code.co_filename)]
    return error_hints.failing_line("".join(traceback.StackSummary.extract(frames[-1:]).format()))


def read_raised(stage: str, error: BaseException, definitions: Iterable[object] = ()) -> Reading:
    """The reading of an exception caught while a public check ran ``stage``: its frames in the
    student's code, and the whole source of the cells (or files) of those frames and of the
    student's ``definitions`` (the notebook's functions and classes, read for slips, as the grader
    reads every definition). An exception raised before the student's code ran (the check's call
    of their class) is read for slips only: the rules that read torch's words need the student's
    own failing line."""
    try:
        message = str(error)
    except Exception:  # noqa: BLE001 - a student's exception with a __str__ of its own that raises
        message = ""
    frames = [(frame, line) for frame, line in traceback.walk_tb(error.__traceback__)
              if _students(frame.f_code.co_filename)]
    filenames = dict.fromkeys([*(frame.f_code.co_filename for frame, _ in frames), *_definition_files(definitions)])
    sources = [_source(filename) for filename in filenames]
    if not frames:
        slip = slips.slip_in_error(type(error).__name__, message, "", sources)
        return Reading(slip.mistake, slip) if slip is not None else Reading(None)
    student_traceback = "".join(traceback.StackSummary.extract(frames, limit=MAX_FRAMES).format())
    return read_exception(stage, type(error).__name__, message, student_traceback, sources)
