"""Grade one Gradescope submission: what the autograder zip's ``run_autograder`` calls.

    python -m autograder.platforms.gradescope.run --root /autograder --assignment 01_attention_scores

Gradescope puts the student's upload in ``<root>/submission`` (a notebook, or a zip such as the
one otter's ``grader.export()`` writes) and reads ``<root>/results/results.json``. The notebook is
graded by the kit's grader in nbgrader's layout, exactly as in a class run. The exit status is 0
when results.json was written, 1 when the grader itself failed (Gradescope then reports a failed
autograder run, which the instructor can rerun, instead of a score of 0).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from autograder.course import rubric
from autograder.course.reference import BrokenReferenceError
from autograder.course.rubric import RubricError
from autograder.grading.engine import GradingError, grade_class
from autograder.grading.trust import GraderUntrusted
from autograder.platforms.gradescope.results import results_document
from autograder.probes.errors import SandboxError
from autograder.records.files import write_atomically
from autograder.records.jobs import GradeOptions
from autograder.records.results import GradedRow, RowStatus
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import MAX_NOTEBOOK_BYTES

STUDENT_ID = "submission"


def _candidates(submission_dir: Path) -> dict[str, tuple[int, Callable[[], bytes]]]:
    """Every notebook in the upload (also inside zips), by name: its size and how to read it."""
    found: dict[str, tuple[int, Callable[[], bytes]]] = {}
    for path in sorted(submission_dir.rglob("*")):
        if ".ipynb_checkpoints" in path.parts or path.is_symlink() or not path.is_file():
            continue
        relative = str(path.relative_to(submission_dir))
        if path.suffix == ".ipynb":
            found[relative] = (path.stat().st_size, path.read_bytes)
        elif path.suffix == ".zip" and zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                members = sorted(archive.infolist(), key=lambda info: info.filename)
            for member in members:
                if member.filename.endswith(".ipynb") and ".ipynb_checkpoints" not in member.filename:
                    found[f"{relative}:{member.filename}"] = (
                        member.file_size, functools.partial(_read_member, path, member.filename))
    return found


def _read_member(archive_path: Path, name: str) -> bytes:
    with zipfile.ZipFile(archive_path) as archive:
        return archive.read(name)


def find_notebook(submission_dir: Path, assignment_id: str) -> tuple[bytes | None, str]:
    """The submitted notebook's bytes, and where it was found or why none was chosen.

    A notebook named ``<assignment_id>.ipynb`` wins; otherwise the only notebook uploaded.
    """
    candidates = _candidates(submission_dir)
    expected = f"{assignment_id}.ipynb"
    named = [name for name in candidates if Path(name.split(":")[-1]).name == expected]
    chosen = named[:1] or (list(candidates) if len(candidates) == 1 else [])
    if not chosen:
        if not candidates:
            return None, f"missing: no notebook was uploaded; submit {expected}"
        return None, f"misnamed: found {', '.join(candidates)}; expected {expected}"
    size, read = candidates[chosen[0]]
    if size > MAX_NOTEBOOK_BYTES:
        return None, f"unreadable: {chosen[0]} is over {MAX_NOTEBOOK_BYTES // 2**20} MiB"
    return read(), chosen[0]


def grade_submission(submission_dir: Path, assignment_id: str, options: GradeOptions) -> GradedRow:
    """Grade the notebook in ``submission_dir`` as ``assignment_id``; one grades.csv row."""
    content, where = find_notebook(submission_dir, assignment_id)
    if content is None:
        return GradedRow(STUDENT_ID, assignment_id, RowStatus.parse(where), 0.0, rubric.max_score(assignment_id))
    with tempfile.TemporaryDirectory(prefix="gradescope-") as scratch:
        submitted = Path(scratch) / "submitted"
        notebook = submitted / STUDENT_ID / assignment_id / f"{assignment_id}.ipynb"
        notebook.parent.mkdir(parents=True)
        notebook.write_bytes(content)
        [row] = grade_class(submitted, Path(scratch) / "out", options)
    return row


def main(argv: list[str] | None = None) -> int:
    """Grade ``<root>/submission`` into ``<root>/results/results.json``; the exit status says how it went."""
    parser = argparse.ArgumentParser(prog="python -m autograder.platforms.gradescope.run",
                                     description="Grade <root>/submission into <root>/results/results.json.")
    parser.add_argument("--root", type=Path, default=Path("/autograder"), help="Gradescope's folder")
    parser.add_argument("--assignment", required=True, choices=ASSIGNMENTS)
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds the student's code may take per test (default 10)")
    args = parser.parse_args(argv)
    options = GradeOptions(assignment=args.assignment, timeout=args.timeout)
    try:
        row = grade_submission(args.root / "submission", args.assignment, options)
    except (GradingError, SandboxError, BrokenReferenceError, RubricError) as error:
        print(f"The grader itself failed, so no results were written: {error}", file=sys.stderr)
        return 1
    except GraderUntrusted as error:
        print(f"The grader refuses to grade, so no results were written: {error}", file=sys.stderr)
        return 1
    results = args.root / "results" / "results.json"
    write_atomically(results, json.dumps(results_document(row), indent=2, ensure_ascii=False) + "\n")
    print(f"{row.assignment_id}: {row.score:g} / {row.max_score:g} ({row.status_text()}); wrote {results}")
    if row.isolation is not None:  # for the instructor's log: how the student's code was confined
        print(f"Isolation: {row.isolation}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
