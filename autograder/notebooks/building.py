"""Generate the student notebooks in assignments/ from the master notebooks in solutions/.

    python -m autograder.notebooks.building      (what `make assignments` runs)

nbgrader's own `generate_assignment` does the work in a real course directory (course/, not
committed): it replaces every solution region with a stub and clears outputs. Afterwards each
stub's `raise NotImplementedError()` is given a message naming its stage, and the notebook is
written to assignments/<id>/<id>.ipynb, and its translations (the same cells, markdown from
autograder/locales/, see autograder.notebooks.translation) to assignments/<language>/<id>/<id>.ipynb.
Nothing is written unless every notebook can be. The same solutions always give the same bytes.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
from nbgrader.utils import compute_checksum

from autograder.course.paths import ASSIGNMENTS_DIR, KIT_ROOT, solution_notebook
from autograder.notebooks.nbgrader_commands import run_nbgrader
from autograder.notebooks.translation import TranslationError, translated_notebook
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import TRANSLATIONS

COURSE_ID = "attention-kit"
COURSE_DIR = KIT_ROOT / "course"
NBGRADER_STUB = "raise NotImplementedError()"
STAGE_STUB = 'raise NotImplementedError("{stage}: replace this line with your code")'
# `nbgrader zip_collect`: files named <student_id>_<assignment_id>.ipynb, loose or inside zips.
ZIP_COLLECT_REGEXP = r".*/(?P<student_id>[^/]+?)_(?P<file_id>\d\d_[^/]+\.ipynb)$"


class BuildError(Exception):
    """Generating the student notebooks failed; the message says what to do."""


def write_course_config(course_dir: Path) -> None:
    """A minimal nbgrader course directory: the config file and source/<id>/<id>.ipynb."""
    course_dir.mkdir(parents=True, exist_ok=True)
    config = (
        "# Written by autograder/notebooks/building.py; regenerated on every build.\n"
        "c = get_config()  # noqa: F821 (provided by nbgrader when it loads this file)\n"
        f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
        f"c.CourseDirectory.root = {str(course_dir.resolve())!r}\n"
        f"c.FileNameCollectorPlugin.named_regexp = {ZIP_COLLECT_REGEXP!r}\n"
    )
    (course_dir / "nbgrader_config.py").write_text(config, encoding="utf-8")
    for assignment_id in ASSIGNMENTS:
        source = solution_notebook(assignment_id)
        if not source.is_file():
            raise BuildError(f"{source} is missing: every assignment needs its master notebook")
        target = course_dir / "source" / assignment_id / f"{assignment_id}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def run_generate_assignment(course_dir: Path, assignment_id: str) -> Path:
    """Run `nbgrader generate_assignment` and return the released notebook's path."""
    result = run_nbgrader(course_dir, "generate_assignment", assignment_id, "--force")
    released = course_dir / "release" / assignment_id / f"{assignment_id}.ipynb"
    if result.returncode != 0 or not released.is_file():
        log = (result.stdout + result.stderr).strip()[-3000:]
        raise BuildError(
            f"nbgrader generate_assignment {assignment_id} failed (exit {result.returncode});"
            f" fix solutions/{assignment_id}/{assignment_id}.ipynb and run again. nbgrader said:\n"
            f"{log}"
        )
    return released


def finish_student_notebook(released: Path) -> nbformat.NotebookNode:
    """Name the stage in every stub and strip anything run-specific."""
    notebook = nbformat.read(released, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs = []
        cell.execution_count = None
        nbgrader = cell.metadata.get("nbgrader", {})
        if nbgrader.get("solution"):
            stage = nbgrader["grade_id"]
            if NBGRADER_STUB not in cell.source:
                raise BuildError(f"answer cell {stage!r} has no stub after nbgrader ran")
            cell.source = cell.source.replace(NBGRADER_STUB, STAGE_STUB.format(stage=stage))
            if "checksum" in nbgrader:  # nbgrader's record of the released cell, kept truthful
                nbgrader["checksum"] = compute_checksum(cell)
    return notebook


def build(out_dir: Path, course_dir: Path | None = None) -> list[Path]:
    """Write assignments/<id>/<id>.ipynb and assignments/<language>/<id>/<id>.ipynb under `out_dir`.

    `course_dir` is the nbgrader course directory to use (a temporary one when omitted).
    Returns the notebooks written: the English ones in curriculum order, then each translation's.
    """
    if course_dir is None:
        with tempfile.TemporaryDirectory(prefix="nbgrader-course-") as temporary:
            return build(out_dir, Path(temporary))
    write_course_config(course_dir)
    english = {assignment_id: finish_student_notebook(run_generate_assignment(course_dir, assignment_id))
               for assignment_id in ASSIGNMENTS}
    for assignment_id, notebook in english.items():  # `nbgrader release_assignment` hands out these too
        nbformat.write(notebook, course_dir / "release" / assignment_id / f"{assignment_id}.ipynb")
    notebooks = {Path(assignment_id): notebook for assignment_id, notebook in english.items()}
    problems = []
    for language in TRANSLATIONS:
        for assignment_id, notebook in english.items():
            try:
                notebooks[Path(language, assignment_id)] = translated_notebook(notebook, language, assignment_id)
            except TranslationError as error:
                problems.append(str(error))
    if problems:
        raise BuildError("the translations do not cover the masters' markdown; nothing was written:\n"
                         + "\n".join(problems))
    written = []
    for folder, notebook in notebooks.items():
        target = out_dir / folder / f"{folder.name}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        written.append(target)
        print(f"generated {target.relative_to(out_dir.parent)}", flush=True)
    return written


def main() -> int:
    try:
        build(ASSIGNMENTS_DIR, COURSE_DIR)
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
