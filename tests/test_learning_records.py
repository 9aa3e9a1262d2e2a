"""What a notebook records of how its student learned, and what the grader makes of it: the hint
tiers opened and the predictions made, read without running the notebook, judged against the answer
key, scored only as the rubric says, and kept in the results."""

from __future__ import annotations

import nbformat
import pytest
from kit_notebooks import execute_notebooks

from autograder.course import predictions, rubric
from autograder.paths import student_notebook
from autograder.reading.learning_records import learning_records
from autograder.reading.notebook import extract_definitions
from autograder.records.results import GradedRow, HintUse, PredictionResult, RowKind, RowStatus
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.predictions import QUESTIONS, judge, problems

STAGES = STAGES_BY_ASSIGNMENT["01_attention_scores"]


def _code(source: str, *outputs: dict) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {}, "outputs": list(outputs)}


def _hint_output(stage, tier) -> dict:
    return {"output_type": "display_data", "data": {"text/plain": "💡"},
            "metadata": {"attention_kit": {"hint": {"stage": stage, "tier": tier}}}}


def test_hint_tiers_come_from_the_outputs_and_the_code_the_highest_per_stage():
    notebook = {"cells": [
        _code("x = 1", _hint_output("softmax_naive", 1), _hint_output("softmax_naive", 3)),
        _code("hint('softmax_stable', 2)\nhint('context_vector')"),  # outputs cleared: the calls still count
        _code("", _hint_output("softmax_stable", 1), _hint_output("not_a_stage", 3), _hint_output("context_vector", 9),
              _hint_output("attention_scores", "3"), _hint_output("attention_scores", True),
              {"output_type": "stream", "metadata": "not a dict"}),
        _code("hint(stage_name, 3)\nhint('attention_scores', tier)"),  # not written out: nothing to read
        # a stage that passes: "no hint needed" is shown, with no record, and the call opened nothing
        _code("hint('simple_self_attention', 3)",
              {"output_type": "stream", "name": "stdout", "text": "✅ passes its public check: no hint needed.\n"}),
    ]}
    assert learning_records(notebook, STAGES).hint_tiers == {"softmax_naive": 3, "softmax_stable": 2,
                                                             "context_vector": 1}


def test_predictions_are_read_from_the_code_as_literals_only():
    notebook = {"cells": [
        _code('predict("naive_overflow", "inf")'),
        _code('predict("naive_overflow", "nan")'),  # the last call counts
        _code('predict("no_positions", overall=45, position_1=100.0)'),
        _code('predict("largest_weight", ...)'),  # not answered yet
        _code('predict("reversed_sentence", answer)'),  # not written out
        _code('predict("two_heads", "several")'),  # not one of the choices
        _code('predict("no_such_question", 3)\npredict(["a list"], 1)\npredict()'),
        _code("def broken(:\n    predict('trained_head', column=3)"),  # a syntax error costs its cell only
    ]}
    assert learning_records(notebook, STAGES).predictions == {
        "naive_overflow": {"answer": "nan"}, "no_positions": {"overall": 45, "position_1": 100.0},
        "largest_weight": None, "reversed_sentence": None, "two_heads": None}


def test_the_records_travel_with_the_extracted_code():
    notebook = {"cells": [_code('predict("naive_overflow", "nan")', _hint_output("softmax_naive", 2))]}
    records = extract_definitions(notebook, STAGES).records
    assert records.hint_tiers == {"softmax_naive": 2}
    assert records.predictions == {"naive_overflow": {"answer": "nan"}}


def test_predictions_are_judged_within_their_tolerance_against_the_answer_key():
    question = QUESTIONS["no_positions"]
    key = predictions.outcomes()["no_positions"]
    assert judge(question, {"overall": 40, "position_1": 95}, key)
    assert not judge(question, {"overall": 30, "position_1": 100}, key)
    assert problems(question, {"overall": 140, "position_1": 100}) == [
        ("out_of_range", {"field": "overall", "value": "140", "low": "0", "high": "100"})]
    judged = predictions.judged("03_causal_attention", {"no_positions": {"overall": 50, "position_1": 100},
                                                        "trained_head": None})
    assert [(result.question, result.asked, result.correct, result.points) for result in judged] == [
        ("trained_head", True, False, 0.0), ("no_positions", True, True, 0.0)]


def test_a_right_prediction_earns_what_the_rubric_gives_and_the_maximum_says_so(monkeypatch):
    monkeypatch.setattr(rubric, "prediction_points", lambda question: 2.0 if question == "naive_overflow" else 0.0)
    tests_only = sum(rubric.points_by_test("01_attention_scores").values())
    assert rubric.max_score("01_attention_scores") == tests_only + 2
    [naive, *others] = predictions.judged("01_attention_scores", {"naive_overflow": {"answer": "nan"}})
    assert (naive.points, naive.max_points) == (2.0, 2.0)
    assert all(result.points == 0 and not result.asked for result in others)


def test_hints_and_predictions_are_kept_in_the_results_per_stage():
    row = GradedRow("ada", "01_attention_scores", RowStatus(RowKind.GRADED), 0.0, 100.0,
                    hints=(HintUse("softmax_stable", 3),),
                    predictions=(PredictionResult("naive_overflow", {"answer": "nan"}, True, True),))
    data = row.to_json()
    assert data["hint_tiers"] == {"softmax_stable": 3}
    assert data["predictions"] == [{"question": "naive_overflow", "answer": {"answer": "nan"}, "asked": True,
                                    "correct": True, "points": 0.0, "max_points": 0.0}]
    back = GradedRow.from_json(data)
    assert back.hints == row.hints
    assert back.predictions == row.predictions
    assert back.hint_tier("softmax_stable") == 3
    assert back.hint_tier("softmax_naive") == 0


@pytest.mark.slow
def test_a_notebook_keeps_the_hints_opened_and_the_predictions_made_in_its_file(tmp_path):
    """Run for real: the student package shows each hint and prediction as an output whose metadata
    the saved notebook keeps, and the grader reads them back from the file."""
    notebook = nbformat.read(student_notebook("01_attention_scores"), as_version=4)
    cells = [cell for cell in notebook.cells if cell.id in ("self-checks", "setup")]
    cells += [nbformat.v4.new_code_cell('hint("softmax_naive", 2)'),
              nbformat.v4.new_code_cell('hint("softmax_stable")'),
              nbformat.v4.new_code_cell('predict("naive_overflow", "nan")'),
              nbformat.v4.new_code_cell('reveal("naive_overflow", "nan")')]
    notebook.cells = cells
    executed = execute_notebooks({"records": notebook}, tmp_path)["records"]
    path = tmp_path / "records.ipynb"
    nbformat.write(executed, path)
    read = nbformat.read(path, as_version=4)
    hint_outputs = [output for cell in read.cells for output in cell.outputs
                    if output.get("metadata", {}).get("attention_kit", {}).get("hint")]
    assert [output.metadata["attention_kit"]["hint"] for output in hint_outputs] == [
        {"stage": "softmax_naive", "tier": 2}, {"stage": "softmax_stable", "tier": 1}]
    for cell in read.cells:  # outputs alone: the calls are gone from the code
        cell.source = cell.source.replace("hint(", "# hint(") if cell.source.startswith("hint(") else cell.source
    records = learning_records(read, STAGES)
    assert records.hint_tiers == {"softmax_naive": 2, "softmax_stable": 1}
    assert records.predictions == {"naive_overflow": {"answer": "nan"}}
    printed = "".join(output.get("data", {}).get("text/plain", "") for output in read.cells[-1].outputs)
    assert "You predicted 'nan'; the demo measured 'nan'. Right!" in printed
