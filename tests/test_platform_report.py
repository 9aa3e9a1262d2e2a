"""`python -m autograder report <out>`: the class report renders with its plots and mistakes."""

from __future__ import annotations

import base64
import html
import re

import pytest
from platform_class import graded_class

from autograder import cli
from autograder.feedback.report import common_mistakes, stage_pass_rates
from autograder.findings.finding import finding
from autograder.records.files import read_outputs
from autograder.records.results import GradedRow, HintUse, RowKind, RowStatus, ScoredTest, TestStatus

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    graded = graded_class(tmp_path_factory)
    assert cli.main(["report", str(graded.out)]) == 0
    return (graded.out / "report.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_report_embeds_the_histogram_and_the_pass_rates_as_png(report):
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)">', report)
    assert [alt for alt, _ in images] == ["Histogram of scores per notebook",
                                          "Share of graded submissions passing each stage"]
    for _, data in images:
        assert base64.b64decode(data).startswith(PNG_SIGNATURE)


@pytest.mark.slow
def test_report_summarises_the_class_and_names_the_mistake(report):
    assert "Class report: 5 students" in report
    text = " ".join(re.sub(r"<[^>]+>", " ", report).split())
    # ada 100; ben 91.55 (his softmax_naive's failures are all pinned to its softmax, which costs
    # its share, and its 2-point "from the formula" check counts); cy, dee (missing) and eve
    # (unreadable) 0: mean 38.31, median 0.
    assert "01_attention_scores 5 3 missing: 1, unreadable: 1 38.3 % 0.0 %" in text
    assert "softmax_wrong_dim : the softmax normalised over the wrong dimension" in text


@pytest.mark.slow
def test_report_shows_the_hint_tiers_opened_per_stage(report):
    text = " ".join(re.sub(r"<[^>]+>", " ", report).split())
    assert "Hints opened" in text
    # graded: ada, ben, cy; ben asked for the first hint of softmax_naive, ada for the third of softmax_stable
    assert "01_attention_scores softmax_naive 2 1 0 0" in text
    assert "01_attention_scores softmax_stable 2 0 0 1" in text
    assert "01_attention_scores context_vector 3 0 0 0" in text


@pytest.mark.slow
def test_report_shows_what_the_class_predicted(report):
    text = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", report).split()))
    assert "Predictions" in text
    # naive_overflow: measured 'nan'; ada and ben answered (cy's stub leaves the ...), ada right
    assert "naive_overflow 01_attention_scores 'nan' 2 of 3 1 'weights': 1; 'nan': 1 ; 'inf': 0; 'error': 0" in text
    assert "<strong>&#39;nan&#39;: 1</strong>" in report


@pytest.mark.slow
def test_results_keep_the_hint_tier_of_each_stage_and_the_predictions(tmp_path_factory):
    rows = {row.student_id: row for row in read_outputs(graded_class(tmp_path_factory).out)}
    assert rows["ada"].hints == (HintUse("softmax_stable", 3),)
    assert rows["ben"].hints == (HintUse("softmax_naive", 1),)
    [overflow] = [prediction for prediction in rows["ada"].predictions if prediction.question == "naive_overflow"]
    assert (overflow.answer, overflow.correct, overflow.points) == ({"answer": "nan"}, True, 0.0)
    assert not [prediction for prediction in rows["ben"].predictions if prediction.correct]
    assert rows["ada"].score == 100  # predictions earn nothing unless the rubric says so


@pytest.mark.slow
def test_report_counts_stage_passes_over_graded_submissions(tmp_path_factory):
    rates = {rate.stage: (rate.passed, rate.graded) for rate in stage_pass_rates(read_outputs(
        graded_class(tmp_path_factory).out))}
    assert rates["softmax_naive"] == (1, 3)  # ada only: ben has the mistake, cy the stub
    assert rates["attention_scores"] == (2, 3)


def test_named_mistakes_are_counted_once_per_submission():
    def failing(name):
        return ScoredTest(name, "masked_softmax", 0, 1, TestStatus.FAILED,
                          finding("verbatim", "no_sqrt_scaling", text="differs."))

    rows = [GradedRow(student, "03_causal_attention", RowStatus(RowKind.GRADED), 0, 1, (failing("a"), failing("b")))
            for student in ("x", "y")]
    [counted] = common_mistakes(rows)
    assert (counted.mistake_id, counted.submissions, counted.stages) == ("no_sqrt_scaling", 2, ["masked_softmax"])


def test_report_without_grading_outputs_says_what_to_do(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "run `python -m autograder grade" in capsys.readouterr().out
