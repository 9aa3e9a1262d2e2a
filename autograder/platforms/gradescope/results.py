"""A graded notebook as Gradescope's ``results.json``.

Students see at once their score, what was wrong with the notebook as a whole, and per stage how
many hidden tests passed (an entry without points, so nothing is counted twice). Each hidden
test is an entry with its score, ``max_score`` and teaching message, shown only after the due
date (``"visibility": "after_due_date"``), so that the hidden tests cannot be probed while the
assignment is open. The top-level ``score`` is the grader's score, as in grades.csv.
"""

from __future__ import annotations

from collections.abc import Mapping

from autograder.feedback.page import page_text
from autograder.findings.render import render
from autograder.records.results import GradedRow

SUMMARY_VISIBILITY = "visible"
DETAIL_VISIBILITY = "after_due_date"


def _gradescope_status(passed: bool) -> str:
    return "passed" if passed else "failed"


def _overall_output(row: GradedRow, text: Mapping[str, str]) -> str:
    lines = [text["gradescope.score"].format(score=f"{row.score:g}", max_score=f"{row.max_score:g}")]
    if not row.graded:
        lines.append(text["gradescope.not_graded"].format(status=row.status, assignment_id=row.assignment_id))
    if row.load_problems:
        lines.append(text["gradescope.load_problems"])
        lines.extend(f"- {render(problem, row.language)}" for problem in row.load_problems)
    if row.tests:
        lines.append(text["gradescope.stages"])
    return "\n".join(lines)


def _stage_summaries(row: GradedRow, text: Mapping[str, str]) -> list[dict]:
    return [{
        "name": text["gradescope.stage_waiting" if stage.waiting else "gradescope.stage"].format(
            stage=stage.stage, passed=stage.passed + stage.waiting, total=stage.total, waiting=stage.waiting),
        "status": _gradescope_status(stage.all_passed),
        "output": text["gradescope.points"].format(points=f"{stage.points:g}", max_points=f"{stage.max_points:g}"),
        "visibility": SUMMARY_VISIBILITY,
    } for stage in row.stage_totals()]


def results_document(row: GradedRow) -> dict:
    """The results.json document of one graded notebook, in the notebook's language (the
    visible lines and each test's message alike)."""
    text = page_text(row.language)
    details = [{
        "name": f"{test.stage}: {test.name}",
        "score": test.points,
        "max_score": test.max_points,
        "status": _gradescope_status(test.passed),
        "output": test.message(row.language) or text["gradescope.passed"],
        "visibility": DETAIL_VISIBILITY,
    } for test in row.tests]
    return {
        "score": row.score,
        "output": _overall_output(row, text),
        "stdout_visibility": "hidden",
        "tests": _stage_summaries(row, text) + details,
    }
