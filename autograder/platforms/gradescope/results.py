"""A graded notebook as Gradescope's ``results.json``.

Students see at once their score, what was wrong with the notebook as a whole, and per stage how
many hidden tests passed (an entry without points, so nothing is counted twice). Each hidden
test is an entry with its score, ``max_score`` and teaching message, shown only after the due
date (``"visibility": "after_due_date"``), so that the hidden tests cannot be probed while the
assignment is open. The top-level ``score`` is the grader's score, as in grades.csv.
"""

from __future__ import annotations

from autograder.grading.engine import GradedSubmission
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

SUMMARY_VISIBILITY = "visible"
DETAIL_VISIBILITY = "after_due_date"


def _gradescope_status(passed: bool) -> str:
    return "passed" if passed else "failed"


def _overall_output(row: GradedSubmission) -> str:
    lines = [f"Score: {row.score:g} / {row.max_score:g}."]
    if not row.graded:
        lines.append(f"Your notebook could not be graded ({row.status}); submit {row.assignment_id}.ipynb.")
    if row.load_problems:
        lines.append("Some of your code could not be loaded, so the tests that need it failed:")
        lines.extend(f"- {problem}" for problem in row.load_problems)
    if row.tests:
        lines.append("Each stage below shows how many hidden tests passed; what each test checked, and"
                     " the hint for each failure, are shown after the due date.")
    return "\n".join(lines)


def _stage_summaries(row: GradedSubmission) -> list[dict]:
    stages = list(STAGES_BY_ASSIGNMENT.get(row.assignment_id, []))
    stages += [t["stage"] for t in row.tests if t["stage"] not in stages]
    summaries = []
    for stage in dict.fromkeys(stages):
        tests = [test for test in row.tests if test["stage"] == stage]
        if not tests:
            continue
        passed = sum(test["status"] == "passed" for test in tests)
        points = round(sum(test["points"] for test in tests), 2)
        max_points = round(sum(test["max_points"] for test in tests), 2)
        summaries.append({
            "name": f"{stage}: {passed} of {len(tests)} hidden tests passed",
            "status": _gradescope_status(passed == len(tests)),
            "output": f"{points:g} of {max_points:g} points.",
            "visibility": SUMMARY_VISIBILITY,
        })
    return summaries


def results_document(row: GradedSubmission) -> dict:
    """The results.json document of one graded notebook."""
    details = [{
        "name": f"{test['stage']}: {test['name']}",
        "score": test["points"],
        "max_score": test["max_points"],
        "status": _gradescope_status(test["status"] == "passed"),
        "output": test["message"] or "Passed.",
        "visibility": DETAIL_VISIBILITY,
    } for test in row.tests]
    return {
        "score": row.score,
        "output": _overall_output(row),
        "stdout_visibility": "hidden",
        "tests": _stage_summaries(row) + details,
    }
