"""The solutions students may read once an assignment is closed: each stage's reference code and
each "Think about it" question's model answer, read from the masters (never a second copy), in
every language; and ``make release ANSWERS=1``, which writes them beside the bundles and never
into one. The service's side (when a student sees them) is tests/test_service_answers_browser.py."""

from __future__ import annotations

import copy
import json
import re
import zipfile
from collections import Counter

import nbformat
import pytest

from autograder.feedback.page import feedback_html
from autograder.notebooks import model_answers, release
from autograder.notebooks.translation import english_hash
from autograder.paths import ASSIGNMENTS_DIR, solution_notebook
from autograder.records.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.language import DEFAULT_LANGUAGE, LANGUAGES, TRANSLATIONS

NOTEBOOKS = [(language, assignment) for language in LANGUAGES for assignment in ASSIGNMENTS]
PACKAGE = "attention-kit-student"  # a location for the self-checks cell, so that no wheel is needed
_CODE_OR_MATH = re.compile(r"`[^`]+`|\$[^$\n]+\$")


def _solution_regions(assignment: str) -> dict[str, list[str]]:
    """Each stage's lines between nbgrader's markers in the master, read here on their own."""
    regions = {}
    for cell in json.loads(solution_notebook(assignment).read_text(encoding="utf-8"))["cells"]:
        stage = cell["metadata"].get("nbgrader", {}).get("grade_id")
        source = "".join(cell["source"])
        if stage and "### BEGIN SOLUTION" in source:
            regions[stage] = [line for part in source.split("### BEGIN SOLUTION")[1:]
                              for line in part.split("### END SOLUTION")[0].splitlines() if line.strip()]
    return regions


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_stage_has_its_reference_code_without_nbgraders_markers(assignment):
    references = model_answers.answers_of(assignment, DEFAULT_LANGUAGE).references
    assert list(references) == STAGES_BY_ASSIGNMENT[assignment]
    for stage, lines in _solution_regions(assignment).items():
        assert "SOLUTION" not in references[stage]
        assert references[stage].startswith(("def ", "class ")), stage
        for line in lines:
            assert line in references[stage], (stage, line)


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_the_code_is_the_same_in_every_language_as_in_the_notebooks(language, assignment):
    assert model_answers.answers_of(assignment, language).references == \
        model_answers.answers_of(assignment, DEFAULT_LANGUAGE).references


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_question_has_its_model_answer(assignment):
    english = model_answers.answers_of(assignment, DEFAULT_LANGUAGE).questions
    master = nbformat.read(solution_notebook(assignment), as_version=4)
    questions = [cell for cell in master.cells if cell.id.startswith(model_answers.QUESTION_PREFIX)]
    assert [answer.question_id for answer in english] == [cell.id for cell in questions]
    for answer, cell in zip(english, questions, strict=True):
        assert answer.question == cell.source
        assert answer.answer.startswith("**Answer.**")


def test_sixteen_questions_in_all():
    assert sum(len(model_answers.answers_of(assignment, DEFAULT_LANGUAGE).questions)
               for assignment in ASSIGNMENTS) == 16


@pytest.mark.parametrize(("language", "assignment"), [(lang, a) for lang in TRANSLATIONS for a in ASSIGNMENTS])
def test_every_model_answer_is_translated_from_todays_english(language, assignment):
    assert model_answers.answer_translation_problems(language, assignment) == []
    english = model_answers.answers_of(assignment, DEFAULT_LANGUAGE).questions
    translated = model_answers.answers_of(assignment, language).questions
    student = nbformat.read(ASSIGNMENTS_DIR / language / assignment / f"{assignment}.ipynb", as_version=4)
    shown = {cell.id: cell.source for cell in student.cells}
    for theirs, ours in zip(translated, english, strict=True):
        assert theirs.question == shown[ours.question_id]  # as the student's notebook asks it
        assert theirs.answer != ours.answer
        lost = Counter(_CODE_OR_MATH.findall(ours.answer)) - Counter(_CODE_OR_MATH.findall(theirs.answer))
        assert not lost, f"{language}/{assignment} {ours.question_id} lost {sorted(lost)}"


def test_a_changed_english_answer_names_its_translation_and_shows_in_english_until_updated(tmp_path, monkeypatch):
    master = nbformat.read(solution_notebook("03_causal_attention"), as_version=4)
    changed = copy.deepcopy(master)
    answer = next(cell for cell in changed.cells if cell.id == "answer-diagonal")
    answer.source = "**Answer.** Row 0 would be all $-\\infty$, and its softmax `nan`."
    nbformat.write(changed, tmp_path / "03.ipynb")
    monkeypatch.setattr(model_answers, "solution_notebook", lambda assignment: tmp_path / "03.ipynb")
    problems = model_answers.answer_translation_problems("zh", "03_causal_attention")
    assert problems == [f"autograder/locales/zh/03_causal_attention.answers.json: model answer 'answer-diagonal'"
                        f" changed in the master since it was translated: update the translation, then set"
                        f' "en_hash" to "{english_hash(answer.source)}"']
    shown = {item.question_id: item.answer for item in model_answers.answers_of("03_causal_attention", "zh").questions}
    assert shown["question-diagonal"] == answer.source  # never a translation of other English
    assert shown["question-first-row"].startswith("**答案。**")


def test_grades_own_feedback_page_shows_no_solutions():
    """``grade`` writes the page with no solutions at all: only the service decides when they show."""
    row = GradedRow("s", "01_attention_scores", RowStatus(RowKind.GRADED), 0.0, 100.0,
                    (ScoredTest("test_softmax_naive", "softmax_naive", 0.0, 10.0, TestStatus.FAILED),))
    page = feedback_html(row)
    assert 'id="solutions"' not in page
    assert "exp_x.sum(dim=dim, keepdim=True)" not in page


# ---------------------------------------------------------------- make release ANSWERS=1


def _files(folder) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_release_writes_answers_only_when_asked_and_never_into_a_bundle(tmp_path):
    release.write_release(tmp_path / "plain", PACKAGE)
    release.write_release(tmp_path / "answers", PACKAGE, answers=True)
    plain, answered = _files(tmp_path / "plain"), _files(tmp_path / "answers")
    answer_files = {f"{language}/answers/{assignment}.ipynb" for language, assignment in NOTEBOOKS}
    answer_files |= {f"{language}/answers/grading-rules.md" for language, _ in NOTEBOOKS}  # their last cells link to it
    assert set(answered) == set(plain) | answer_files  # the bundles as they were, the answers beside them
    assert all(answered[name] == data for name, data in plain.items())
    given = "".join((ASSIGNMENTS_DIR / assignment / f"{assignment}.ipynb").read_text(encoding="utf-8")
                    for assignment in ASSIGNMENTS)  # notebook 04's own CausalAttention shares some lines
    secret = {line.strip() for assignment in ASSIGNMENTS for lines in _solution_regions(assignment).values()
              for line in lines if len(line.strip()) > 25 and json.dumps(line.strip())[1:-1] not in given}
    for name, data in plain.items():
        texts = [data.decode("utf-8", "replace")]
        if name.endswith(".zip"):
            with zipfile.ZipFile(tmp_path / "plain" / name) as archive:
                texts = [archive.read(member).decode("utf-8", "replace") for member in archive.namelist()]
        for text in texts:
            assert not [opening for opening in ("**Answer.**", "**答案。**", "**Resposta.**") if opening in text], name
            assert not [line for line in secret if line in text], name


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_an_answers_notebook_is_the_students_notebook_with_the_solutions_in_place(tmp_path, language, assignment):
    notebook = nbformat.reads(release.answers_file(language, assignment, PACKAGE).decode("utf-8"), as_version=4)
    student = nbformat.reads(release.bundle_files(language, assignment, PACKAGE)[f"{assignment}.ipynb"].decode(),
                             as_version=4)
    answers = model_answers.answers_of(assignment, language)
    model = {item.question_id: item.answer for item in answers.questions}
    shown = {cell.id: cell for cell in student.cells}
    assert "SOLUTION" not in nbformat.writes(notebook)
    assert notebook.metadata.get("attention_kit", {}).get("language", "en") == language
    cells = notebook.cells
    for index, cell in enumerate(cells):
        assert cell.get("outputs", []) == []
        stage = cell.metadata.get("nbgrader", {}).get("grade_id") if cell.metadata.get("nbgrader", {}).get(
            "solution") else None
        if stage:
            assert cell.source == answers.references[stage]
        elif cell.id in shown:  # every other cell as the student's notebook of that language has it
            assert cell.source == shown[cell.id].source, cell.id
        else:  # a model answer, after its question (and the cell where the student answers it)
            question = next(earlier for earlier in reversed(cells[:index])
                            if earlier.id.startswith(model_answers.QUESTION_PREFIX))
            assert cell.source == model[question.id], cell.id
    assert [cell.id for cell in cells if cell.id in shown] == [cell.id for cell in student.cells]
    assert len(cells) == len(student.cells) + len(answers.questions)
