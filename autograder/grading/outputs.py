"""Write what a grading run produces: grades.csv, one results JSON and one feedback page each.

Only the trusted process writes here, after the workers are gone, and every file is written
atomically (a temporary file renamed into place), so a reader never sees half a result.
Nothing depends on time or order of completion: regrading the same input gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections import Counter
from pathlib import Path

import jinja2

from autograder.feedback.text import PAGE_TEXT, localize_message, page_text
from autograder.grading.engine import GradedSubmission
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.language import HTML_LANG

CSV_COLUMNS = ["student_id", "assignment_id", "score", "max_score", "status"]
STATUS_LABELS = {status: PAGE_TEXT[f"status.{status}"] for status in ("passed", "failed", "error", "timeout")}

_templates = jinja2.Environment(
    loader=jinja2.PackageLoader("autograder.feedback", "templates"),
    autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
)


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _sort_key(graded: GradedSubmission):
    order = ASSIGNMENTS.index(graded.assignment_id) if graded.assignment_id in ASSIGNMENTS else 99
    return graded.student_id, order


def _format_score(value: float) -> str:
    return f"{value:g}"


def grades_csv(rows: list[GradedSubmission]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in sorted(rows, key=_sort_key):
        writer.writerow([row.student_id, row.assignment_id, _format_score(row.score),
                         _format_score(row.max_score), row.status])
    return buffer.getvalue()


def results_json(row: GradedSubmission) -> str:
    document = {
        "student_id": row.student_id,
        "assignment_id": row.assignment_id,
        "status": row.status,
        "score": row.score,
        "max_score": row.max_score,
        "load_problems": row.load_problems,
        "tests": row.tests,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _stage_summaries(row: GradedSubmission) -> list[dict]:
    """The stages of the page, in the notebook's language."""
    text = page_text(row.language)
    summaries = []
    for stage in STAGES_BY_ASSIGNMENT.get(row.assignment_id, []):
        tests = [test for test in row.tests if test["stage"] == stage]
        if not tests:
            continue
        messages = Counter((t["status"], t["message"]) for t in tests if t["status"] != "passed")
        summaries.append({
            "name": stage,
            "passed": sum(t["status"] == "passed" for t in tests),
            "total": len(tests),
            "points": round(sum(t["points"] for t in tests), 2),
            "max_points": round(sum(t["max_points"] for t in tests), 2),
            # The same message from several tests (devices, dtypes) is shown once.
            "messages": [{"status": status, "text": localize_message(message, row.language),
                          "label": text["message_label_tests" if count > 1 else "message_label"].format(
                              label=text[f"status.{status}"], count=count)}
                         for (status, message), count in messages.items()],
        })
    return summaries


def feedback_html(row: GradedSubmission) -> str:
    """The student's page, in the language of the submitted notebook."""
    text = page_text(row.language)
    return _templates.get_template("feedback.html.j2").render(
        lang=HTML_LANG.get(row.language, "en"), student_id=row.student_id, assignment_id=row.assignment_id,
        score=row.score, max_score=row.max_score, status=row.status,
        load_problems=[localize_message(problem, row.language) for problem in row.load_problems],
        stages=_stage_summaries(row), text=text,
        heading=text["heading"].format(assignment_id=row.assignment_id, student_id=row.student_id),
        not_graded=text["not_graded"].format(status=row.status),
    )


def write_outputs(out: Path, rows: list[GradedSubmission]) -> None:
    """Write all three outputs and remove stale per-student files from an earlier run."""
    produced = set()
    for row in rows:
        for path, text in (
            (out / "results" / row.student_id / f"{row.assignment_id}.json", results_json(row)),
            (out / "feedback" / row.student_id / f"{row.assignment_id}.html", feedback_html(row)),
        ):
            write_atomically(path, text)
            produced.add(path)
    for folder, pattern in (("results", "*/*.json"), ("feedback", "*/*.html")):
        for stale in (out / folder).glob(pattern):
            if stale not in produced:
                stale.unlink()
    write_atomically(out / "grades.csv", grades_csv(rows))
