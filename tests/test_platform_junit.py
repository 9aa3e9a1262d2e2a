"""`grade --junit FILE` and `--fail-under PERCENT`: the JUnit XML read back with a JUnit parser."""

from __future__ import annotations

import csv

import pytest
from junitparser import Error, Failure, JUnitXml
from platform_class import FAIL_UNDER, graded_class

from autograder import cli
from autograder.findings.finding import finding
from autograder.platforms.junit import junit_xml
from autograder.records.files import read_outputs
from autograder.records.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return graded_class(tmp_path_factory)


GRADED, MISSING = RowStatus(RowKind.GRADED), RowStatus(RowKind.MISSING)


def _grades(out) -> dict[str, dict]:
    with (out / "grades.csv").open() as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


@pytest.mark.slow
def test_fail_under_exits_3_after_writing_everything(graded):
    assert graded.result.returncode == 3, graded.result.stdout + graded.result.stderr
    assert f"--fail-under {FAIL_UNDER}: 3 of 5 scored below" in " ".join(graded.result.stdout.split())
    assert set(_grades(graded.out)) == {"ada", "ben", "cy", "dee", "eve"}
    assert graded.junit.is_file()


@pytest.mark.slow
def test_junit_has_a_suite_per_row_and_a_case_per_hidden_test(graded):
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(graded.junit))}
    rows = {row.student_id: row for row in read_outputs(graded.out)}
    assert set(suites) == {f"{student}/01_attention_scores" for student in rows}
    for student, row in rows.items():
        suite = suites[f"{student}/01_attention_scores"]
        cases = list(suite)
        properties = {p.name: p.value for p in suite.properties()}
        assert properties == {"score": f"{row.score:g}", "max_score": f"{row.max_score:g}", "status": row.status_text()}
        if not row.graded:
            [case] = cases
            assert case.name == "submission"
            assert isinstance(case.result[0], Failure)
            status = row.status_text()
            assert case.result[0].message == status[:197] + ("..." if len(status) > 200 else "")
            continue
        assert [case.name for case in cases] == [test.name for test in row.tests]
        for case, test in zip(cases, row.tests, strict=True):
            assert case.classname == f"01_attention_scores.{test.stage}"
            if test.status == "passed":
                assert case.is_passed
            else:
                expected = Failure if test.status == "failed" else Error
                assert isinstance(case.result[0], expected)
                assert case.result[0].text == test.message()
        assert suite.tests == len(cases)
        assert suite.failures == sum(test.status == "failed" for test in row.tests)


@pytest.mark.slow
def test_ada_passes_every_case_and_ben_fails_softmax_naive_only(graded):
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(graded.junit))}
    assert all(case.is_passed for case in suites["ada/01_attention_scores"])
    failed = {case.classname for case in suites["ben/01_attention_scores"] if not case.is_passed}
    assert failed == {"01_attention_scores.softmax_naive"}


def test_junit_survives_control_characters_in_messages(tmp_path):
    message = "raised ValueError: bad \x1b[31mcolour\x00 and a NUL"
    row = GradedRow("s\x07", "01_attention_scores", GRADED, 0.0, 10.0, tests=(
        ScoredTest("test_x[cpu]", "softmax_naive", 0.0, 10.0, TestStatus.ERROR, finding("verbatim", text=message)),
    ))
    path = tmp_path / "junit.xml"
    path.write_text(junit_xml([row]), encoding="utf-8")
    [suite] = JUnitXml.fromfile(str(path))
    [case] = suite
    assert isinstance(case.result[0], Error)
    assert case.result[0].type == "error"
    assert "colour" in case.result[0].text
    assert "\x00" not in case.result[0].text


def test_junit_of_the_same_rows_is_the_same_text():
    rows = [GradedRow("b", "02_self_attention", MISSING, 0.0, 100.0),
            GradedRow("a", "01_attention_scores", MISSING, 0.0, 100.0)]
    assert junit_xml(rows) == junit_xml(list(reversed(rows)))
    assert junit_xml(rows).index('name="a/01_attention_scores"') < junit_xml(rows).index('name="b/')


@pytest.mark.parametrize("percent", ["-1", "100.5"])
def test_fail_under_outside_0_to_100_is_refused(tmp_path, capsys, percent):
    code = cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "out"), "--fail-under", percent])
    assert code == 2
    assert "--fail-under is a percentage" in capsys.readouterr().out


@pytest.mark.parametrize(("percent", "expected"), [(0, 0), (88.75, 0), (88.76, 3), (100, 3)])
def test_fail_under_compares_each_row_with_its_maximum(capsys, percent, expected):
    rows = [GradedRow("ada", "01_attention_scores", GRADED, 100.0, 100.0),
            GradedRow("ben", "01_attention_scores", GRADED, 88.75, 100.0)]
    assert cli._check_fail_under(cli.Console(), rows, percent) == expected
