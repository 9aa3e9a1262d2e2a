"""A graded notebook as Gradescope's ``results.json``.

Students see at once their score, what was wrong with the notebook as a whole, and per stage how
many hidden tests passed (an entry without points, so nothing is counted twice). Each hidden
test is an entry with its score, ``max_score`` and teaching message, shown only after the due
date (``"visibility": "after_due_date"``), so that the hidden tests cannot be probed while the
assignment is open. The top-level ``score`` is the grader's score, as in grades.csv.
"""

from __future__ import annotations

from autograder.findings.render import render
from autograder.grading.results import GradedRow

SUMMARY_VISIBILITY = "visible"
DETAIL_VISIBILITY = "after_due_date"


def _gradescope_status(passed: bool) -> str:
    return "passed" if passed else "failed"


def _overall_output(row: GradedRow) -> str:
    lines = [f"Score: {row.score:g} / {row.max_score:g}."]
    if not row.graded:
        lines.append(f"Your notebook could not be graded ({row.status}); submit {row.assignment_id}.ipynb.")
    if row.load_problems:
        lines.append("Some of your code could not be loaded, so the tests that need it failed:")
        lines.extend(f"- {render(problem, row.language)}" for problem in row.load_problems)
    if row.tests:
        lines.append("Each stage below shows how many hidden tests passed; what each test checked, and"
                     " the hint for each failure, are shown after the due date.")
    return "\n".join(lines)


def _stage_summaries(row: GradedRow) -> list[dict]:
    return [{
        "name": f"{stage.stage}: {stage.passed} of {stage.total} hidden tests passed",
        "status": _gradescope_status(stage.all_passed),
        "output": f"{stage.points:g} of {stage.max_points:g} points.",
        "visibility": SUMMARY_VISIBILITY,
    } for stage in row.stage_totals()]


def results_document(row: GradedRow) -> dict:
    """The results.json document of one graded notebook."""
    details = [{
        "name": f"{test.stage}: {test.name}",
        "score": test.points,
        "max_score": test.max_points,
        "status": _gradescope_status(test.passed),
        "output": test.message(row.language) or "Passed.",
        "visibility": DETAIL_VISIBILITY,
    } for test in row.tests]
    return {
        "score": row.score,
        "output": _overall_output(row),
        "stdout_visibility": "hidden",
        "tests": _stage_summaries(row) + details,
    }
