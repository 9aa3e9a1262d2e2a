"""Generate the student notebooks in assignments/ from the master notebooks in solutions/.

    python -m autograder.notebooks.building [--checks-package LOCATION]   (what `make assignments` runs)

nbgrader's own `generate_assignment` does the work in a fresh, temporary course directory: it
replaces every solution region with a stub and clears outputs. The instructor's course/ (not
committed) then gets the config, the masters and the release, but its gradebook is never opened:
grades recorded there (`python -m autograder gradebook`) make nbgrader refuse to regenerate an
assignment, and it then deletes that assignment's release folder. Afterwards each
stub's `raise NotImplementedError()` is given a message naming its stage, and the notebook is
written to assignments/<id>/<id>.ipynb without the cells for the solutions only (the answers
to its questions, ``autograder.notebooks.solutions_only``), and its translations (the same cells, markdown from
autograder/locales/ and the demos' words from the student package's catalogs, see
autograder.notebooks.translation; the answer cells' docstrings and comments from
autograder/locales/<language>/<id>.stubs.json, see autograder.notebooks.stub_texts) to
assignments/<language>/<id>/<id>.ipynb.
Each notebook's self-checks cell is written in its language, installing the student package
from LOCATION (``autograder.notebooks.self_checks_cell``), and so is the cell under each "Think
about it" question where the student answers (``autograder.student.think_about_it``); the masters'
copies are refreshed too. Beside every notebook goes the file its last cell links to, the full
grading rules in its language (``autograder.notebooks.grading_rules``).
Nothing is written unless every notebook can be. The same solutions always give the same bytes.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat

from autograder import extras
from autograder.notebooks import grading_rules, self_checks_cell
from autograder.notebooks.solutions_only import student_cells
from autograder.notebooks.stub_texts import with_stub_texts
from autograder.notebooks.translation import TranslationError, translated_notebook
from autograder.paths import ASSIGNMENTS_DIR, DIST_DIR, KIT_ROOT, solution_notebook
from autograder.platforms.nbgrader_commands import run_nbgrader
from autograder.student import think_about_it
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import DEFAULT_LANGUAGE, METADATA_KEY, TRANSLATIONS

COURSE_ID = "attention-kit"
COURSE_DIR = KIT_ROOT / "course"
NBGRADER_STUB = "raise NotImplementedError()"
# `nbgrader zip_collect`: files named <student_id>_<assignment_id>.ipynb, loose or inside zips.
ZIP_COLLECT_REGEXP = r".*/(?P<student_id>[^/]+?)_(?P<file_id>\d\d_[^/]+\.ipynb)$"


class BuildError(Exception):
    """Generating the student notebooks failed; the message says what to do."""


def with_self_checks(notebook: nbformat.NotebookNode, language: str, location: str | None = None
                     ) -> nbformat.NotebookNode:
    """``notebook`` with its self-checks cell written for ``language`` and ``location``."""
    cells = [cell for cell in notebook.cells if cell.get("id") == self_checks_cell.CELL_ID]
    if len(cells) != 1:
        raise BuildError(f"every notebook needs exactly one code cell with the id {self_checks_cell.CELL_ID!r}:"
                         " add an empty code cell with that id after the master's setup cell (`make assignments`"
                         " writes its code)")
    cells[0].source = self_checks_cell.self_checks_source(language, location)
    cells[0].metadata.update(self_checks_cell.HIDDEN_CODE)
    return notebook


def with_answer_cells(notebook: nbformat.NotebookNode, language: str) -> nbformat.NotebookNode:
    """``notebook`` with the text of every think-about-it answer cell written for ``language``."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and think_about_it.question_of(cell) is not None:
            cell.source = think_about_it.answer_cell_source(language)
    return notebook


def answer_cells_problem(notebook: nbformat.NotebookNode, assignment_id: str) -> str | None:
    """Why the think-about-it answer cells of a notebook (a master, or the student notebook made from
    it) do not match its questions in ``autograder/student/think_about_it.py`` (one markdown cell
    per question, in their order); None when they do."""
    named = [cell.metadata.get(METADATA_KEY, {}).get(think_about_it.CELL_KEY) for cell in notebook.cells
             if cell.cell_type == "markdown"]
    found = [question_id for question_id in named if question_id is not None]
    expected = [question.id for question in think_about_it.questions_of(assignment_id)]
    if found == expected:
        return None
    return (f"solutions/{assignment_id}: its think-about-it answer cells name {found}, but"
            f" autograder/student/think_about_it.py lists {expected}: give each question one markdown cell"
            f' whose metadata is {{"{METADATA_KEY}": {{"{think_about_it.CELL_KEY}": "<question id>"}}}},'
            " in the same order")


def refresh_master(assignment_id: str) -> None:
    """Rewrite the master's self-checks cell (English, the default location) and its answer cells
    (English) when they are stale."""
    path = solution_notebook(assignment_id)
    notebook = nbformat.read(path, as_version=4)
    before = nbformat.writes(notebook)
    if nbformat.writes(with_answer_cells(with_self_checks(notebook, DEFAULT_LANGUAGE), DEFAULT_LANGUAGE)) != before:
        nbformat.write(notebook, path)


def write_course_config(course_dir: Path) -> None:
    """A minimal nbgrader course directory: the config file and source/<id>/<id>.ipynb, with the
    grading rules beside each notebook, and the student wheel when it is built (``make
    student-package``), so that `nbgrader release_assignment` hands students everything they need."""
    course_dir.mkdir(parents=True, exist_ok=True)
    rules = grading_rules.rules_markdown(DEFAULT_LANGUAGE)
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
        (target.parent / grading_rules.FILE_NAME).write_text(rules, encoding="utf-8")
        wheel = DIST_DIR / self_checks_cell.wheel_name()
        if wheel.is_file():
            shutil.copyfile(wheel, target.parent / wheel.name)


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


def finish_student_notebook(released: Path, location: str | None = None) -> nbformat.NotebookNode:
    """Name the stage in every stub, leave out the cells for the solutions only, strip anything
    run-specific, and write the self-checks cell (English, installing from ``location``)."""
    from nbgrader.utils import compute_checksum  # the [nbgrader] extra: main() checks it is there

    notebook = with_answer_cells(with_self_checks(nbformat.read(released, as_version=4), DEFAULT_LANGUAGE, location),
                                 DEFAULT_LANGUAGE)
    notebook.cells = student_cells(notebook.cells)
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
            cell.source = cell.source.replace(NBGRADER_STUB, self_checks_cell.stub(DEFAULT_LANGUAGE, stage))
            if "checksum" in nbgrader:  # nbgrader's record of the released cell, kept truthful
                nbgrader["checksum"] = compute_checksum(cell)
    return notebook


def with_stubs_in(notebook: nbformat.NotebookNode, language: str) -> nbformat.NotebookNode:
    """``notebook`` (a released one) with the stub of every answer cell worded in ``language``."""
    from nbgrader.utils import compute_checksum

    for cell in notebook.cells:
        nbgrader = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and nbgrader.get("solution"):
            stage = nbgrader["grade_id"]
            cell.source = cell.source.replace(self_checks_cell.stub(DEFAULT_LANGUAGE, stage),
                                              self_checks_cell.stub(language, stage))
            if "checksum" in nbgrader:
                nbgrader["checksum"] = compute_checksum(cell)
    return notebook


def _install_course(course_dir: Path, scratch: Path, english: dict[str, nbformat.NotebookNode]) -> None:
    """Give the instructor's course directory the config, the masters and the release built in
    ``scratch``, leaving its gradebook, submissions and everything else as they are."""
    write_course_config(course_dir)
    for assignment_id, notebook in english.items():
        release = course_dir / "release" / assignment_id
        shutil.rmtree(release, ignore_errors=True)
        shutil.copytree(scratch / "release" / assignment_id, release)
        nbformat.write(notebook, release / f"{assignment_id}.ipynb")  # `nbgrader release_assignment` hands it out


def build(out_dir: Path, course_dir: Path | None = None, location: str | None = None) -> list[Path]:
    """Write assignments/<id>/<id>.ipynb and assignments/<language>/<id>/<id>.ipynb under `out_dir`.

    `course_dir` is the instructor's nbgrader course directory to refresh (none when omitted);
    `location` is where the notebooks install the student package from (by default the wheel's
    file name, beside the notebook). Returns the notebooks written: the English ones in
    curriculum order, then each translation's.
    """
    with tempfile.TemporaryDirectory(prefix="nbgrader-course-") as scratch:
        return _build(out_dir, Path(scratch), course_dir, location)


def _build(out_dir: Path, scratch: Path, course_dir: Path | None, location: str | None) -> list[Path]:
    for assignment_id in ASSIGNMENTS:
        refresh_master(assignment_id)
    write_course_config(scratch)
    english = {assignment_id: finish_student_notebook(run_generate_assignment(scratch, assignment_id), location)
               for assignment_id in ASSIGNMENTS}
    mismatched = [answer_cells_problem(notebook, assignment_id) for assignment_id, notebook in english.items()]
    if any(mismatched):
        raise BuildError("\n".join(filter(None, mismatched)))
    notebooks = {Path(assignment_id): notebook for assignment_id, notebook in english.items()}
    rules = {DEFAULT_LANGUAGE: grading_rules.rules_markdown(DEFAULT_LANGUAGE)}
    problems = []
    for language in TRANSLATIONS:
        try:
            rules[language] = grading_rules.rules_markdown(language)
        except TranslationError as error:
            problems.append(str(error))
        for assignment_id, notebook in english.items():
            try:
                translated = with_stub_texts(translated_notebook(notebook, language, assignment_id), language,
                                             assignment_id)
                notebooks[Path(language, assignment_id)] = with_answer_cells(with_stubs_in(with_self_checks(
                    translated, language, location), language), language)
            except TranslationError as error:
                problems.append(str(error))
    if problems:
        raise BuildError("the translations do not cover the masters' markdown, the stubs' docstrings and comments"
                         " and the grading rules;"
                         " nothing was written:\n" + "\n".join(problems))
    if course_dir is not None:
        _install_course(course_dir, scratch, english)
    written = []
    for folder, notebook in notebooks.items():
        target = out_dir / folder / f"{folder.name}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, target)
        language = folder.parts[0] if len(folder.parts) > 1 else DEFAULT_LANGUAGE  # <language>/<id>, or <id>
        (target.parent / grading_rules.FILE_NAME).write_text(rules[language], encoding="utf-8")
        written.append(target)
        print(f"generated {target.relative_to(out_dir.parent)} and the {grading_rules.FILE_NAME} beside it",
              flush=True)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.notebooks.building")
    parser.add_argument("--checks-package", metavar="LOCATION",
                        help="where the notebooks install the student package from: a wheel file beside the"
                             f" notebook (default: {self_checks_cell.wheel_name()}), a URL or a package name")
    args = parser.parse_args(argv)
    try:
        extras.require("nbgrader", "python -m autograder.notebooks.building (make assignments)")
        build(ASSIGNMENTS_DIR, COURSE_DIR, args.checks_package)
    except (BuildError, extras.MissingExtra) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
