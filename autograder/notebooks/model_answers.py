"""What the solutions answer, for the time students may read it: each stage's reference code and
each "Think about it" question's model answer, in every language.

Read from the master notebooks in ``solutions/`` as JSON, never executed, so that every answer
has one copy, the master's (DESIGN.md: no reference is written twice, and nothing generated can
go stale):

- a stage's reference is its answer cell (nbgrader's ``grade_id``) as the master holds it, less
  nbgrader's ``### BEGIN SOLUTION`` / ``### END SOLUTION`` lines. Code is the same in every
  language, as in the notebooks, whose docstrings and comments are English in each;
- a question is a markdown cell whose id starts with ``question-``; its model answer is the next
  cell for the solutions only (``autograder.notebooks.solutions_only``) before the next question.
  The question reads as the student notebook of that language shows it (the notebook's catalog,
  ``autograder/locales/<language>/<id>.json``); the answer's translation lives beside it, in
  ``<id>.answers.json``, in the same format (``{cell id: {"en_hash", "markdown"}}``), so that a
  changed English answer names its stale translation (``answer_translation_problems``, which a kit
  test runs).

Who may read them is not decided here: the service shows them on a student's feedback page once
the assignment is closed (``autograder/service/answers.py``), and ``make release ANSWERS=1``
writes the answer notebooks (``answers_notebook``) for the instructor to hand out.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

import nbformat

from autograder.notebooks.demo_words import with_demo_words
from autograder.notebooks.solutions_only import is_solutions_only
from autograder.notebooks.translation import catalog_problems, english_hash
from autograder.paths import LOCALES_DIR, solution_notebook
from autograder.reading.notebook import cell_source
from autograder.student.language import DEFAULT_LANGUAGE, METADATA_KEY, CatalogError, load_catalog

QUESTION_PREFIX = "question-"
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


@dataclass(frozen=True)
class ModelAnswer:
    """One "Think about it" question and its model answer, markdown in one language."""

    question_id: str
    question: str  # as the student notebook shows it, its heading included
    answer: str


@dataclass(frozen=True)
class AssignmentAnswers:
    """What an assignment's master answers, in one language."""

    assignment_id: str
    references: dict[str, str]  # stage -> its reference code, in curriculum order
    questions: tuple[ModelAnswer, ...]  # in the notebook's order


def answers_catalog_name(assignment_id: str) -> str:
    """The catalog of an assignment's model answers (``<id>.answers``, beside the notebook's)."""
    return f"{assignment_id}.answers"


def reference_code(source: str) -> str:
    """An answer cell's code as the reference shows it: nbgrader's solution markers left out."""
    return "\n".join(line for line in source.splitlines() if line.strip() not in SOLUTION_MARKERS).strip("\n")


def _master(assignment_id: str) -> dict:
    return json.loads(solution_notebook(assignment_id).read_text(encoding="utf-8"))


def stage_references(master: dict) -> dict[str, str]:
    """Each stage's reference code, by stage, from the master's answer cells."""
    references = {}
    for cell in master["cells"]:
        nbgrader = cell.get("metadata", {}).get("nbgrader", {})
        if cell["cell_type"] == "code" and nbgrader.get("solution") and nbgrader.get("grade_id"):
            references[nbgrader["grade_id"]] = reference_code(cell_source(cell))
    return references


def question_cells(master: dict) -> list[tuple[dict, dict]]:
    """Each question cell of the master with the cell of its model answer."""
    pairs, question = [], None
    for cell in master["cells"]:
        if cell["cell_type"] == "markdown" and cell.get("id", "").startswith(QUESTION_PREFIX):
            question = cell
        elif question is not None and cell["cell_type"] == "markdown" and is_solutions_only(cell):
            pairs.append((question, cell))
            question = None
    return pairs


def _translated(catalog: dict, cell: dict) -> str:
    """A markdown cell in the catalog's language; its English while the catalog lacks it or holds
    a translation of older English (a kit test names either, so that neither ships)."""
    entry = catalog.get(cell["id"])
    english = cell_source(cell)
    if isinstance(entry, dict) and isinstance(entry.get("markdown"), list) and entry.get("en_hash") == english_hash(
            english):
        return "\n".join(entry["markdown"])
    return english


def _catalog(language: str, name: str) -> dict:
    if language == DEFAULT_LANGUAGE:
        return {}
    try:
        return load_catalog(language, name, LOCALES_DIR)
    except CatalogError:
        return {}


def answers_of(assignment_id: str, language: str) -> AssignmentAnswers:
    """What the master of ``assignment_id`` answers, in ``language``."""
    master = _master(assignment_id)
    questions_catalog = _catalog(language, assignment_id)
    answers_catalog = _catalog(language, answers_catalog_name(assignment_id))
    return AssignmentAnswers(assignment_id, stage_references(master), tuple(
        ModelAnswer(question["id"], _translated(questions_catalog, question), _translated(answers_catalog, answer))
        for question, answer in question_cells(master)))


def answer_translation_problems(language: str, assignment_id: str) -> list[str]:
    """What keeps the model answers of ``assignment_id`` from reading in ``language``: an answer
    without a translation, one translated from older English, or an entry for no answer."""
    answers = {answer["id"]: cell_source(answer) for _, answer in question_cells(_master(assignment_id))}
    return catalog_problems(answers, language, answers_catalog_name(assignment_id), part="model answer")


def answers_notebook(assignment_id: str, language: str) -> nbformat.NotebookNode:
    """The master of ``assignment_id`` as students may get it once the assignment is closed:
    every cell of their notebook with the reference code in the answer cells and each question's
    model answer after it, in ``language``, without outputs. Other cells for the solutions only
    (the instructor's notes) stay out."""
    master = nbformat.read(solution_notebook(assignment_id), as_version=4)
    answers = {answer["id"] for _, answer in question_cells(master)}
    notebook = copy.deepcopy(master)
    notebook.cells = [cell for cell in notebook.cells if not is_solutions_only(cell) or cell.id in answers]
    questions_catalog = _catalog(language, assignment_id)
    answers_catalog = _catalog(language, answers_catalog_name(assignment_id))
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            if cell.metadata.get("nbgrader", {}).get("solution"):
                cell.source = reference_code(cell.source)
        elif cell.cell_type == "markdown":
            cell.source = _translated(answers_catalog if cell.id in answers else questions_catalog, cell)
    if language != DEFAULT_LANGUAGE:
        notebook.metadata[METADATA_KEY] = {"language": language}
    return with_demo_words(notebook, language)
