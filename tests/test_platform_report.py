"""`python -m autograder report <out>`: the class report renders with its plots and mistakes."""

from __future__ import annotations

import base64
import re

import pytest
from platform_class import graded_class

from autograder import cli
from autograder.feedback.report import common_mistakes, stage_pass_rates
from autograder.findings.finding import finding
from autograder.grading.outputs import read_outputs
from autograder.grading.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus

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
    # ada 100, ben 88.75, cy, dee (missing) and eve (unreadable) 0: mean 37.75, median 0.
    assert "01_attention_scores 5 3 missing: 1, unreadable: 1 37.8 % 0.0 %" in text
    assert "softmax_wrong_dim : the softmax normalised over the wrong dimension" in text


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
