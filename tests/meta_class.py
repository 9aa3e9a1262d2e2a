"""The meta-class: every submission the kit's own tests grade to check the hidden tests (the
solutions, their stubs, correct answers in other styles, the whole mutant corpus and a scratch
redefinition), graded in one engine call per test session (``graded``, a fixture of
``conftest.py``: ``test_hidden_tests`` and ``test_on_gpu`` share it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from mutations import CORPUS

from autograder.grading.engine import grade_class
from autograder.notebooks.variants import load_solution, stubbed, with_answer, with_cell, write_submission
from autograder.records.jobs import GradeOptions
from autograder.records.results import GradedRow
from autograder.student.curriculum import ASSIGNMENTS, assignment_of

ALTERNATIVES_DIR = Path(__file__).resolve().parent / "alternative_answers"
# Correct answers in other styles than the solution's: one module per style, one submission each.
ALTERNATIVES = sorted(ALTERNATIVES_DIR.glob("*.py"))


def alternative_answers(path: Path) -> tuple[str, dict[str, str]]:
    """A style module's assignment and its answer cells by stage: each top-level definition
    replaces the answer cell of the stage it is named after, with the module's imports and
    constants above it."""
    source = path.read_text()
    tree = ast.parse(source)
    shared = "".join(ast.get_source_segment(source, node) + "\n" for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)))
    answers = {node.name: f"{shared}\n\n{ast.get_source_segment(source, node)}\n" for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assignments = {assignment_of(stage) for stage in answers}
    assert len(assignments) == 1, f"{path.name} answers stages of {assignments}"
    return assignments.pop(), answers


def alternative_notebook(path: Path) -> tuple[str, dict]:
    """The assignment of a style module, and its solution notebook with the module's answers."""
    assignment_id, answers = alternative_answers(path)
    notebook = load_solution(assignment_id)
    for stage, answer in answers.items():
        notebook = with_answer(notebook, stage, answer)
    return assignment_id, notebook


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> dict[tuple[str, str], GradedRow]:
    """Every submission of the meta-class, graded in one engine call, by (student, assignment)."""
    root = tmp_path_factory.mktemp("meta_class")
    submitted = root / "submitted"
    for assignment_id in ASSIGNMENTS:
        solution = load_solution(assignment_id)
        write_submission(submitted, "solution", assignment_id, solution)
        write_submission(submitted, "stubs", assignment_id, stubbed(solution))
    for path in ALTERNATIVES:
        assignment_id, notebook = alternative_notebook(path)
        write_submission(submitted, f"alternative_{path.stem}", assignment_id, notebook)
    for mutation in CORPUS:
        write_submission(submitted, mutation.name, mutation.assignment, mutation.notebook())
    scratch = with_cell(load_solution("01_attention_scores"), "def softmax_naive(x, dim=-1):\n    return x\n")
    write_submission(submitted, "scratch_redefinition", "01_attention_scores", scratch)
    rows = grade_class(submitted, root / "out", GradeOptions(jobs=2))
    return {(row.student_id, row.assignment_id): row for row in rows if row.status.text() != "missing"}
