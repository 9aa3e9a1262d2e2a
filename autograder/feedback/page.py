"""The student's feedback page, in the language of the submitted notebook.

The page is rendered from the graded row's data: its own words (``PAGE_TEXT``, translated in
``autograder/locales/<language>/feedback.json``) and each test's finding, rendered in the same
language (``autograder.findings.render``). Code, shapes, numbers and the text of errors raised
by the student's own code stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

import jinja2

from autograder.course.paths import LOCALES_DIR
from autograder.findings.finding import Finding
from autograder.findings.render import render
from autograder.grading.results import GradedRow, ScoredTest
from autograder.student import language as languages

PAGE_TEXT: dict[str, str] = {
    "heading": "{assignment_id}: feedback for {student_id}",
    "not_graded": "Your notebook could not be graded: {status}.",
    "load_problems": "Some of your definitions could not be loaded, so the stages that need them earned nothing:",
    "notes": "How your notebook was read:",
    "definitions_only": (
        "Imports from any cell, and the functions, classes and simple constants of the answer cells,"
        " were graded; other cells were not run."
    ),
    "column.stage": "Stage",
    "column.tests_passed": "Tests passed",
    "column.points": "Points",
    "message_label": "{label}:",  # above a failure message
    "message_label_tests": "{label} ({count} tests):",  # the same message from several tests
    "status.passed": "Passed",
    "status.failed": "Not yet right",
    "status.error": "Your code raised an error",
    "status.timeout": "Ran out of time",
    "status.not_implemented": "Not implemented yet",  # an untouched stub: no error of the student's
}

templates = jinja2.Environment(
    loader=jinja2.PackageLoader("autograder.feedback", "templates"),
    autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
)


def page_text(language: str) -> Mapping[str, str]:
    """The page's own text (PAGE_TEXT's keys) in ``language``."""
    return languages.messages(language, "feedback", PAGE_TEXT, LOCALES_DIR)


def _problem(test: ScoredTest) -> tuple:
    """What a failed test found, less where: the same problem on other shapes, dtypes or devices
    has the same key, named mistake and kind of call."""
    found = test.finding
    if found is None:
        return (test.status.value,)
    what = found.fields.get("what")
    return test.status.value, found.key, found.mistake, what.key if isinstance(what, Finding) else what


def _label_key(test: ScoredTest) -> str:
    """The page text that labels a failed test's message: its status, or "not implemented yet"
    for a stub that still raises NotImplementedError."""
    if test.finding is not None and test.finding.key == "not_implemented":
        return "status.not_implemented"
    return f"status.{test.status.value}"


def _stage_summaries(row: GradedRow) -> list[dict]:
    """The stages of the page, with their failure messages in the notebook's language: one
    message per problem, the first test's, however many tests (shapes, dtypes, devices) found it."""
    text = page_text(row.language)
    summaries = []
    for total in row.stage_totals():
        groups: dict[tuple, list[ScoredTest]] = {}
        for test in row.tests:
            if test.stage == total.stage and not test.passed:
                groups.setdefault(_problem(test), []).append(test)
        summaries.append({
            "name": total.stage, "passed": total.passed, "total": total.total,
            "points": total.points, "max_points": total.max_points,
            "messages": [{"status": tests[0].status.value, "text": tests[0].message(row.language),
                          "label": text["message_label_tests" if len(tests) > 1 else "message_label"].format(
                              label=text[_label_key(tests[0])], count=len(tests))}
                         for tests in groups.values()],
        })
    return summaries


def feedback_html(row: GradedRow) -> str:
    """The student's page, in the language of the submitted notebook."""
    text = page_text(row.language)
    return templates.get_template("feedback.html.j2").render(
        lang=languages.HTML_LANG.get(row.language, "en"), student_id=row.student_id,
        assignment_id=row.assignment_id, score=row.score, max_score=row.max_score, graded=row.graded,
        load_problems=[render(problem, row.language) for problem in row.load_problems],
        notes=[render(note, row.language) for note in row.notes],
        stages=_stage_summaries(row), text=text,
        heading=text["heading"].format(assignment_id=row.assignment_id, student_id=row.student_id),
        not_graded=text["not_graded"].format(status=row.status_text()),
    )
