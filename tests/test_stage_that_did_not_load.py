"""A stage whose cell did not load costs only its own points (reviews6: a syntax error in the 8-point
``causal_mask`` cost 48, since ``masked_softmax``, which called it, then met a name that was never
defined, though its feedback said it was graded with correct code in its place). The stages that
call it are graded with the reference standing in, as for a stage that loads and is wrong. The
grader runs for real, sandbox included."""

from __future__ import annotations

import pytest

from autograder.grading.engine import grade_class
from autograder.notebooks.variants import load_solution, with_answer, write_submission
from autograder.records.jobs import GradeOptions

pytestmark = pytest.mark.slow

ASSIGNMENT = "03_causal_attention"
UNCLOSED = '''def causal_mask(num_tokens, device=None):
    return torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device), diagonal=1
'''
CALLS_IT = '''def masked_softmax(attn_scores, d_k):
    future = causal_mask(attn_scores.shape[-1], device=attn_scores.device)
    return torch.softmax(attn_scores.masked_fill(future, -torch.inf) / d_k ** 0.5, dim=-1)
'''


def test_a_stage_calling_one_that_did_not_load_keeps_its_points(tmp_path):
    notebook = with_answer(with_answer(load_solution(ASSIGNMENT), "causal_mask", UNCLOSED), "masked_softmax", CALLS_IT)
    write_submission(tmp_path / "submitted", "ada", ASSIGNMENT, notebook)
    [row] = grade_class(tmp_path / "submitted", tmp_path / "out", GradeOptions(jobs=2))
    totals = {total.stage: total for total in row.stage_totals()}
    assert totals["causal_mask"].points == 0
    assert totals["masked_softmax"].points == totals["masked_softmax"].max_points
    assert row.score == pytest.approx(row.max_score - totals["causal_mask"].max_points)


COMPUTED_AT_THE_TOP = '''_FUTURE = torch.ones(1024, 1024, dtype=torch.bool).triu(1)


def causal_mask(num_tokens, device=None):
    return _FUTURE[:num_tokens, :num_tokens].to(device)
'''


def test_a_value_the_answer_cell_computes_is_told_as_not_loaded_not_as_another_cells(tmp_path):
    """blind28/058: told "a variable made in another cell" of a tensor made at the top of the answer
    cell itself; the grader loads no value a call computes, and says that, naming the cell."""
    notebook = with_answer(load_solution(ASSIGNMENT), "causal_mask", COMPUTED_AT_THE_TOP)
    write_submission(tmp_path / "submitted", "ada", ASSIGNMENT, notebook)
    [row] = grade_class(tmp_path / "submitted", tmp_path / "out", GradeOptions(jobs=2))
    [first, *_] = [test for test in row.tests if test.stage == "causal_mask" and not test.passed]
    assert first.finding.key == "computed_not_loaded"
    assert first.finding.fields["name"] == "_FUTURE"
    assert "another cell" not in first.message()
