"""The "Think about it" questions, answered: every question has an answer cell in every language,
found by its question's id; the grader collects what a student writes there (not the
placeholder), for no points; and the class report lists the answers per question, HTML shown as
text. The class report is made for real: a small class graded by ``grade``, then ``report``."""

from __future__ import annotations

import copy
import html
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder import cli
from autograder.feedback.report import report_html
from autograder.grading import engine
from autograder.notebooks import building
from autograder.notebooks.variants import (
    filled,
    load_solution,
    load_student,
    with_think_answer,
    write_submission,
)
from autograder.paths import ASSIGNMENTS_DIR, solution_notebook, student_notebook
from autograder.reading.learning_records import MAX_ANSWER_CHARS, MAX_CELL_CHARS, learning_records
from autograder.reading.notebook import extract_definitions
from autograder.records.files import read_outputs
from autograder.records.results import GradedRow, RowKind, RowStatus, ThinkAnswer
from autograder.student import think_about_it
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.language import LANGUAGES, TRANSLATIONS

A01 = "01_attention_scores"
STAGES = STAGES_BY_ASSIGNMENT[A01]
HOSTILE = '<script>window.pwned = 1</script> & <b>not bold</b>'


def _notebook_path(language: str, assignment_id: str) -> Path:
    """The student notebook of ``assignment_id`` in ``language``."""
    folder = ASSIGNMENTS_DIR if language == "en" else ASSIGNMENTS_DIR / language
    return folder / assignment_id / f"{assignment_id}.ipynb"


def _answer_cells(notebook: dict) -> list[dict]:
    return [cell for cell in notebook["cells"] if think_about_it.question_of(cell)]


def _answers(notebook: dict) -> dict[str, str]:
    return learning_records(notebook, STAGES).think_answers


# ---------------------------------------------------------------- the notebooks


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_question_has_one_answer_cell_with_the_same_id_in_every_language(assignment_id):
    expected = [question.id for question in think_about_it.questions_of(assignment_id)]
    assert expected, f"{assignment_id} asks no think-about-it question"
    master = nbformat.read(solution_notebook(assignment_id), as_version=4)
    assert building.answer_cells_problem(master, assignment_id) is None
    cell_ids = None
    for language in LANGUAGES:
        notebook = json.loads(_notebook_path(language, assignment_id).read_text(encoding="utf-8"))
        cells = _answer_cells(notebook)
        assert [think_about_it.question_of(cell) for cell in cells] == expected, language
        assert all(cell["cell_type"] == "markdown" for cell in cells)
        assert ["".join(cell["source"]) for cell in cells] == [think_about_it.answer_cell_source(language)] * len(cells)
        assert cell_ids in (None, [cell["id"] for cell in cells])  # the same cells in every language
        cell_ids = [cell["id"] for cell in cells]
        for cell in cells:  # each comes after its question, within a few cells
            position = notebook["cells"].index(cell)
            before = ["".join(earlier["source"]) for earlier in notebook["cells"][max(position - 3, 0):position]]
            assert any("🤔" in text for text in before), f"{language} {cell['id']} follows no question"


def test_the_placeholder_is_translated():
    sources = {language: think_about_it.answer_cell_source(language) for language in LANGUAGES}
    assert len(set(sources.values())) == len(LANGUAGES)
    assert "你的回答" in sources["zh"]
    assert "Sua resposta" in sources["pt"]


def test_a_master_whose_answer_cells_do_not_match_the_questions_stops_the_build():
    master = nbformat.read(solution_notebook(A01), as_version=4)
    for cell in master.cells:
        if think_about_it.question_of(cell) == "subtract_max":
            cell.metadata["attention_kit"]["think_about_it"] = "subtract_mean"
    problem = building.answer_cells_problem(master, A01)
    assert "'subtract_mean'" in problem
    assert "['exp_not_division', 'subtract_max', 'asymmetric_weights', 'word_order']" in problem


# ---------------------------------------------------------------- what the grader reads


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_answer_cell_is_no_answer(language):
    for assignment_id in ASSIGNMENTS:
        notebook = json.loads(_notebook_path(language, assignment_id).read_text(encoding="utf-8"))
        assert _answers(notebook) == {}


def test_an_answer_is_found_by_its_question_wherever_the_cell_moved_and_however_it_was_written():
    notebook = json.loads(student_notebook(A01).read_text(encoding="utf-8"))
    zh_placeholder = think_about_it.answer_cell_source("zh")
    en = think_about_it.words("en")
    notebook = with_think_answer(notebook, "exp_not_division", "A negative score gives a negative weight.")
    notebook = with_think_answer(notebook, "subtract_max", f"{en['label']}\n\nOnly the max keeps every exp ≤ 1.\n\n"
                                                           f"{en['placeholder']}")  # wrote between label and line
    notebook = with_think_answer(notebook, "asymmetric_weights", f"{en['label']} Each row has its own sum.")
    notebook = with_think_answer(notebook, "word_order", zh_placeholder)  # pasted from the Chinese notebook
    moved = _answer_cells(notebook)[0]
    notebook["cells"].remove(moved)
    notebook["cells"].append(moved)
    [word_order] = [cell for cell in notebook["cells"] if think_about_it.question_of(cell) == "word_order"]
    copied = copy.deepcopy(word_order)  # copied, and answered in the copy
    copied["source"] = ["No: the same three rows,\n", "in another order."]
    notebook["cells"].append(copied)
    assert _answers(notebook) == {
        "subtract_max": "Only the max keeps every exp ≤ 1.",
        "asymmetric_weights": "Each row has its own sum.",
        "word_order": "No: the same three rows,\nin another order.",
        "exp_not_division": "A negative score gives a negative weight.",
    }


def test_an_answer_is_bounded_and_made_safe_and_odd_cells_are_ignored():
    notebook = json.loads(student_notebook(A01).read_text(encoding="utf-8"))
    notebook = with_think_answer(notebook, "exp_not_division", "why " * 2000 + "\x1b[31m")
    notebook = with_think_answer(notebook, "subtract_max", "a\x00b\u202ec")
    notebook = with_think_answer(notebook, "word_order", "x" * (MAX_CELL_CHARS + 1))  # not read at all
    notebook["cells"] += [
        {"cell_type": "markdown", "metadata": {"attention_kit": {"think_about_it": "no_such_question"}}, "source": "a"},
        {"cell_type": "markdown", "metadata": {"attention_kit": {"think_about_it": ["first_row"]}}, "source": "b"},
        {"cell_type": "markdown", "metadata": {"attention_kit": "first_row"}, "source": "c"},
        {"cell_type": "markdown", "metadata": [], "source": "d"},
        {"cell_type": "code", "metadata": {"attention_kit": {"think_about_it": "first_row"}}, "source": "e",
         "outputs": []},
    ]
    answers = _answers(notebook)
    assert set(answers) == {"exp_not_division", "subtract_max"}
    assert len(answers["exp_not_division"]) == MAX_ANSWER_CHARS
    assert answers["exp_not_division"].endswith("…")
    assert answers["subtract_max"] == "a\ufffdb\ufffdc"


def test_the_answers_travel_into_the_results_in_notebook_order_for_no_points():
    notebook = json.loads(student_notebook(A01).read_text(encoding="utf-8"))
    notebook = with_think_answer(notebook, "word_order", "No.")
    notebook = with_think_answer(notebook, "exp_not_division", HOSTILE)
    answers = engine.think_answers(A01, extract_definitions(notebook, STAGES))
    assert answers == (ThinkAnswer("exp_not_division", HOSTILE), ThinkAnswer("word_order", "No."))
    row = GradedRow("ada", A01, RowStatus(RowKind.GRADED), 0.0, 100.0, think_answers=answers)
    data = json.loads(json.dumps(row.to_json()))
    assert data["think_answers"] == {"exp_not_division": HOSTILE, "word_order": "No."}
    assert GradedRow.from_json(data).think_answers == answers


def test_the_report_lists_each_question_with_its_answers_escaped():
    rows = [GradedRow(student, A01, RowStatus(RowKind.GRADED), 0.0, 100.0, think_answers=answers)
            for student, answers in (("bo", (ThinkAnswer("exp_not_division", HOSTILE),)),
                                     ("al", (ThinkAnswer("exp_not_division", "Negative scores."),
                                             ThinkAnswer("word_order", "No."))),
                                     ("cy", ()))]
    page = report_html(rows)
    assert "<script>window.pwned" not in page
    assert "<b>not bold" not in page
    sections = _think_sections(page)
    assert list(sections) == [question.id for question in think_about_it.questions_of(A01)]
    assert sections["exp_not_division"]["answered"] == "answered by 2 of 3 graded submissions"
    assert sections["exp_not_division"]["answers"] == [("al", "Negative scores."), ("bo", HOSTILE)]
    assert sections["word_order"]["answers"] == [("al", "No.")]
    assert sections["subtract_max"] == {"title": think_about_it.QUESTIONS["subtract_max"].title,
                                        "answered": "answered by 0 of 3 graded submissions", "answers": []}


def _think_sections(page: str) -> dict[str, dict]:
    """The report's think-about-it sections by question id: title, count and (student, answer) rows,
    as text."""
    def text(fragment: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", fragment))

    sections = {}
    for question_id, body in re.findall(r'<details id="think-([a-z_]+)">(.*?)</details>', page, re.DOTALL):
        title = re.search(r"<summary><strong>(.*?)</strong>", body, re.DOTALL).group(1)
        answered = re.search(r"(answered by \d+ of \d+ graded submissions?)", " ".join(body.split())).group(1)
        answers = [(text(student), text(answer)) for student, answer in
                   re.findall(r'<tr><td>(.*?)</td><td class="answer">(.*?)</td></tr>', body, re.DOTALL)]
        sections[question_id] = {"title": html.unescape(title), "answered": answered, "answers": answers}
    return sections


# ---------------------------------------------------------------- a class graded for real


@pytest.mark.slow
def test_answers_written_in_submitted_notebooks_appear_in_the_class_report(tmp_path):
    """ana (English) answers two questions, one with HTML in it and one with the label kept; bo
    (Chinese) answers one in Chinese; cy leaves every answer cell as it was. ``grade`` collects the
    answers, ``report`` lists them per question."""
    complete = filled(load_student(A01), load_solution(A01), STAGES)
    ana = with_think_answer(complete, "exp_not_division", HOSTILE)
    label = think_about_it.words("en")["label"]
    ana = with_think_answer(ana, "word_order", f"{label}\n\nNo: the same rows, reordered.")
    chinese = json.loads(_notebook_path("zh", A01).read_text(encoding="utf-8"))
    bo = with_think_answer(chinese, "subtract_max", "只有最大值能保证每个 exp 都不超过 1。")
    submitted, out = tmp_path / "submitted", tmp_path / "out"
    for student, notebook in (("ana", ana), ("bo", bo), ("cy", load_student(A01))):
        write_submission(submitted, student, A01, notebook)
    graded = subprocess.run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
                             "--jobs", "2"], capture_output=True, text=True, timeout=900)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    rows = {row.student_id: row for row in read_outputs(out)}
    assert rows["ana"].score == 100  # the answers score nothing, and take nothing away
    assert rows["cy"].think_answers == ()
    assert cli.main(["report", str(out)]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<script>window.pwned" not in page
    sections = _think_sections(page)
    assert sections["exp_not_division"]["answers"] == [("ana", HOSTILE)]
    assert sections["exp_not_division"]["answered"] == "answered by 1 of 3 graded submissions"
    assert sections["word_order"]["answers"] == [("ana", "No: the same rows, reordered.")]
    assert sections["subtract_max"]["answers"] == [("bo", "只有最大值能保证每个 exp 都不超过 1。")]
    assert sections["asymmetric_weights"]["answers"] == []
    for language in TRANSLATIONS + ("en",):  # no placeholder is taken for an answer
        assert think_about_it.words(language)["placeholder"] not in page
