"""Find the submissions to grade in nbgrader's collected layout, or a single notebook."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from autograder.records.results import RowKind, RowStatus
from autograder.records.submissions import SubmissionEntry
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.text import BIDI_CONTROLS, clean_text

MISSING = RowStatus(RowKind.MISSING)
# Folders that operating systems, archivers and tools leave among the students' own: a zip made
# on a Mac holds __MACOSX, a USB stick $RECYCLE.BIN; hidden folders (.ipynb_checkpoints, .git)
# are never a student's either.
NOT_STUDENTS = {"__MACOSX", "__pycache__", "lost+found", "$RECYCLE.BIN", "System Volume Information"}
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


class DiscoveryError(Exception):
    """The input cannot be graded at all (wrong path, unknown assignment)."""


# A misnamed notebook's status lists this many of the notebooks found instead (and counts the rest).
MAX_LISTED_NOTEBOOKS = 5


def student_name(name: str) -> str:
    """A folder or file name as a student id: bytes that are not UTF-8, control characters (C0,
    C1) and bidirectional controls are written as escapes (``caf\\xe9``, ``\\u202e``), and a
    backslash of the name itself is doubled, so that every id is printable text that reads as
    what it is, and two folders never share one."""
    shown = os.fsencode(name).replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace")
    return _CONTROL.sub(lambda match: _escape(ord(match.group())), shown)


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _unreadable(detail: str) -> RowStatus:
    return RowStatus(RowKind.UNREADABLE, clean_text(detail))


def _listed(names: list[str]) -> str:
    shown = ", ".join(clean_text(name) for name in names[:MAX_LISTED_NOTEBOOKS])
    return shown + (f" and {len(names) - MAX_LISTED_NOTEBOOKS} more" if len(names) > MAX_LISTED_NOTEBOOKS else "")


def _is_litter(path: Path) -> bool:
    return path.name.startswith(".") or path.name in NOT_STUDENTS


def not_student_folders(submitted: Path) -> list[Path]:
    """The folders of ``submitted`` that ``discover`` skips as no student's (``NOT_STUDENTS``)."""
    return sorted(p for p in submitted.iterdir() if _is_litter(p) and (p.is_dir() or p.is_symlink()))


def _notebook_problem(folder: Path, assignment_id: str) -> tuple[Path, RowStatus | None]:
    expected = folder / f"{assignment_id}.ipynb"
    if folder.is_symlink() or not folder.is_dir():
        return expected, _unreadable(f"{folder.name} is not a folder of the student's own")
    if expected.is_symlink():
        return expected, _unreadable(f"{expected.name} is a symbolic link, not a notebook file")
    if expected.is_dir():
        return expected, _unreadable(f"{expected.name} is a folder, not a notebook file")
    if not expected.exists():
        others = sorted(p.name for p in folder.glob("*.ipynb") if not p.name.startswith("._"))  # a Mac's resource forks
        if others:
            return expected, RowStatus(RowKind.MISNAMED, f"found {_listed(others)}; expected {expected.name}")
        return expected, MISSING
    return expected, None


def _single_notebook(path: Path, assignment: str | None) -> list[SubmissionEntry]:
    if path.suffix.lower() == ".zip":
        raise DiscoveryError(
            f"{path.name} is a zip file, not a notebook or a folder of submissions: unpack it into"
            " course/downloaded/<assignment_id>/archive/ and sort it with `nbgrader zip_collect <assignment_id>`"
            " (docs/platforms/nbgrader.md), then grade course/submitted"
        )
    if path.suffix != ".ipynb":
        raise DiscoveryError(f"{path.name} is not a notebook (.ipynb): give one notebook, or the folder of"
                             " submissions <submitted>/<student_id>/<assignment_id>/<assignment_id>.ipynb")
    assignment_id = assignment or path.stem
    if assignment_id not in ASSIGNMENTS:
        raise DiscoveryError(
            f"cannot tell which assignment {path.name} is: name it <assignment_id>.ipynb or pass"
            f" --assignment (one of {', '.join(ASSIGNMENTS)})"
        )
    inside_layout = path.parent.name == assignment_id and path.parent.parent != path.parent
    student_id = student_name(path.parent.parent.name if inside_layout else path.stem)
    problem = None
    if path.is_symlink():
        problem = _unreadable(f"{path.name} is a symbolic link, not a notebook file")
    return [SubmissionEntry(student_id, assignment_id, path, problem)]


@dataclass(frozen=True)
class ClassShard:
    """``grade --shard K/N``: the K-th of N shares of a class, for grading on N machines at once.

    Students are dealt out in turn in sorted order, so the shares differ by at most one student
    and every machine that sees the same submissions folder computes the same ones; a student's
    notebooks all land in one share.
    """

    number: int  # 1 to count
    count: int

    @classmethod
    def parse(cls, text: str) -> ClassShard:
        """``K/N`` with 1 <= K <= N; raises ValueError saying what is expected."""
        number, _, count = text.partition("/")
        try:
            shard = cls(int(number), int(count))
        except ValueError:
            shard = None
        if shard is None or not 1 <= shard.number <= shard.count:
            raise ValueError(f"--shard takes K/N with 1 <= K <= N (for example 1/4), not {text!r}")
        return shard

    def select(self, entries: list[SubmissionEntry]) -> list[SubmissionEntry]:
        """The entries of this share's students."""
        students = sorted({entry.student_id for entry in entries})
        ours = set(students[self.number - 1 :: self.count])
        return [entry for entry in entries if entry.student_id in ours]


def is_grading_output(folder: Path) -> bool:
    """Whether ``folder`` holds a grading run's outputs (grades.csv, or results/ and feedback/)
    rather than a student's work: an ``--out`` once put inside the submissions."""
    return (folder / "grades.csv").is_file() or ((folder / "results").is_dir() and (folder / "feedback").is_dir())


def grading_output_folders(submitted: Path) -> list[Path]:
    """The folders of ``submitted`` that ``discover`` skips as grading outputs."""
    return sorted(p for p in submitted.iterdir() if p.is_dir() and not p.is_symlink() and is_grading_output(p))


# The folder of an nbgrader course that holds what its students submitted.
NBGRADER_SUBMITTED = "submitted"


def discover(submitted: Path, assignment: str | None = None) -> list[SubmissionEntry]:
    """Every (student, assignment) pair to grade, sorted; a missing notebook gets its entry too.
    ``submitted`` may be an nbgrader course folder: its ``submitted/`` is graded then."""
    if assignment is not None and assignment not in ASSIGNMENTS:
        raise DiscoveryError(f"unknown assignment {assignment!r}; expected one of {', '.join(ASSIGNMENTS)}")
    if submitted.is_file() or submitted.suffix == ".ipynb":
        if not submitted.exists():
            raise DiscoveryError(f"{submitted} does not exist")
        return _single_notebook(submitted, assignment)
    if not submitted.is_dir():
        raise DiscoveryError(f"{submitted} is neither a folder of submissions nor a notebook")
    skipped = set(grading_output_folders(submitted))
    students = sorted(p for p in submitted.iterdir() if not _is_litter(p) and
                      (p.is_dir() or p.is_symlink()) and p not in skipped)
    if assignment is not None:
        assignment_ids = [assignment]
    else:
        found = {a.name for student in students if student.is_dir() and not student.is_symlink()
                 for a in student.iterdir() if a.name in ASSIGNMENTS}
        assignment_ids = [a for a in ASSIGNMENTS if a in found]
    entries = []
    for student in students:
        for assignment_id in assignment_ids:
            folder = student / assignment_id
            problem: RowStatus | None
            if student.is_symlink():
                path = folder / f"{assignment_id}.ipynb"
                problem = _unreadable(f"the student folder {student.name} is a symbolic link")
            elif not folder.exists() and not folder.is_symlink():
                path, problem = folder / f"{assignment_id}.ipynb", MISSING
            else:
                path, problem = _notebook_problem(folder, assignment_id)
            entries.append(SubmissionEntry(student_name(student.name), assignment_id, path, problem))
    if not entries:
        if (submitted / NBGRADER_SUBMITTED).is_dir():
            # An nbgrader course folder: its students' notebooks are under submitted/.
            return discover(submitted / NBGRADER_SUBMITTED, assignment)
        raise DiscoveryError(_nothing_to_grade(submitted, assignment_ids))
    return entries


def _nothing_to_grade(submitted: Path, assignment_ids: list[str]) -> str:
    """What a folder without a single submission was expected to hold, and, when it looks
    like a learning platform's download (notebooks or zip files side by side), how to sort it."""
    message = (f"nothing to grade in {submitted}: expected"
               f" {submitted}/<student_id>/<assignment_id>/<assignment_id>.ipynb, with <assignment_id> one of"
               f" {', '.join(assignment_ids or ASSIGNMENTS)}")
    loose = [path.name for path in submitted.iterdir() if path.suffix in (".ipynb", ".zip") and path.is_file()]
    if loose:
        message += (f". It holds {len(loose)} notebooks or zip files side by side ({_listed(sorted(loose))}), as a"
                    " download from Canvas, Moodle or Gradescope does: sort them into that layout first, for example"
                    " with `nbgrader zip_collect <assignment_id>` (docs/platforms/nbgrader.md)")
    return message
