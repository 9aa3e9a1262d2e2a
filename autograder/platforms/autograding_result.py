"""A grading run's score as GitHub's autograding actions report it: the ``result`` output.

The autograding grader actions (``education/autograding-command-grader`` and its kin) set an
output ``result``: base64 of a JSON document ``{"version": 1, "status": "pass" | "fail" |
"error", "max_score": N, "tests": [{"name", "status", "score", "max_score", "message"}]}``. The
reporter (``education/autograding-grading-reporter``) reads it from ``<RUNNER>_RESULTS``, prints
each test, adds up the tests' scores and reports the points on the run. Classroom 50 and
course-made dashboards read the same document.

``python -m autograder.platforms.autograding_result <out>`` prints that base64 text for the rows
of ``<out>/grades.csv``: one test per stage, with the stage's points and, when it failed, the
first failure's message in the notebook's language.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

from autograder.records.files import OutputsError, read_outputs
from autograder.records.results import GradedRow

VERSION = 1


def _stage_tests(row: GradedRow) -> list[dict]:
    if not row.graded:
        return [{"name": f"{row.assignment_id}: submission", "status": "fail", "score": 0,
                 "max_score": row.max_score, "message": row.status.text()}]
    stages: dict[str, list] = {}
    for test in row.tests:
        stages.setdefault(test.stage, []).append(test)
    tests = []
    for stage, scored in stages.items():
        failed = [test for test in scored if not test.passed]
        tests.append({"name": f"{row.assignment_id}: {stage}", "status": "fail" if failed else "pass",
                      "score": round(sum(test.points for test in scored), 2),
                      "max_score": round(sum(test.max_points for test in scored), 2),
                      "message": failed[0].message(row.language) if failed else ""})
    return tests


def result_document(rows: list[GradedRow]) -> dict:
    """The reporter's document for ``rows``: ``pass`` only when every stage earned all its points."""
    tests = [test for row in rows for test in _stage_tests(row)]
    passed = bool(tests) and all(test["status"] == "pass" for test in tests)
    return {"version": VERSION, "status": "pass" if passed else "fail", "max_score": sum(row.max_score for row in rows),
            "tests": tests}


def encoded_result(rows: list[GradedRow]) -> str:
    """The ``result`` output: the document as base64 of its UTF-8 JSON."""
    return base64.b64encode(json.dumps(result_document(rows), ensure_ascii=False).encode()).decode()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m autograder.platforms.autograding_result <out>", file=sys.stderr)
        return 2
    try:
        rows = read_outputs(Path(args[0]))
    except OutputsError as error:
        print(error, file=sys.stderr)
        return 2
    print(encoded_result(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
