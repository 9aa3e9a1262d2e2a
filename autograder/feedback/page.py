"""The student's feedback page, in the language of the submitted notebook.

The page is rendered from the graded row's data: its own words (``PAGE_TEXT``, translated in
``autograder/locales/<language>/feedback.json``) and each test's finding, rendered in the same
language (``autograder.findings.render``). Code, shapes, numbers and the text of errors raised
by the student's own code stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo

import jinja2
from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from markupsafe import Markup
from mdit_py_plugins.dollarmath import dollarmath_plugin

from autograder.feedback.moments import shown_moment
from autograder.findings.finding import Finding
from autograder.findings.render import render, rendered_faults
from autograder.paths import LOCALES_DIR
from autograder.records.results import PURPOSE, GradedRow, ScoredTest, StageTotal, SubmissionTime
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
    "time.submitted": "Submitted {submitted}.",
    "time.submitted_due": "Submitted {submitted}; due {due}.",
    "time.on_time": "On time.",
    "time.late_day": "Late by 1 day (any part of a day counts as a day).",
    "time.late_days": "Late by {days} days (any part of a day counts as a day).",
    "time.unknown.missing": "There is no record of when you submitted (no timestamp.txt), so your notebook counts"
                            " as on time.",
    "time.unknown.unreadable": "The record of when you submitted (timestamp.txt) could not be read, so your notebook"
                               " counts as on time.",
    "time.unknown.unparsable": "The record of when you submitted (timestamp.txt) holds no time the grader can read,"
                               " so your notebook counts as on time.",
    "score.tests": "Hidden tests",
    "score.predictions": "Right predictions",
    # What a hint cost (autograder/records/hint_charges.py): the highest tier opened for the stage.
    "score.hint_charge": "Hint charge (tier {tier} opened for {stage})",
    "score.hint_charge_capped": (
        "Hint charge (tier {tier} opened for {stage}; it costs {price}, and a charge never takes more than the"
        " stage earned)"),
    "score.late_penalty": "Late penalty",
    "score.adjustment": "Adjustment: {reason}",
    "score.total": "Score",
    "status.not_implemented": "Not implemented yet",  # an untouched stub: no error of the student's
    "status.waiting": "Passed, and counted once the values are right",  # a behaviour check waiting for them
    "status.note": "Passed, with a note",  # a passed test that says something worth knowing
    "tests_waiting": "({count} of them count once the values are right)",
    "one_test_waiting": "(1 of them counts once the values are right)",
    # Partial credit (autograder/grading/partial_credit.py): what each wrong behaviour of a stage cost.
    "behaviour_losses": (
        "Where the grader could pin what is wrong, the tests that show it lost only its share of this"
        " stage's points:"),
    "behaviour_loss": "{behaviour}: {points} points",
    # The rest of a stage's loss, so that the list accounts for every point the stage lost.
    "behaviour_loss_waiting": "checks that count once the values are right: {points} points",
    "behaviour_loss_unpinned": "other failing tests, each lost in full (see below): {points} points",
    # A stage capped for missing what it is for (autograder/grading/purpose.py).
    "purpose_cap": (
        "The tests show that this stage misses what it is for, so it keeps at most {percent} % of its"
        " points: the cap took {points} more points."),
    "behaviour.projections": "query, key and value projections",
    "behaviour.scores": "scores",
    "behaviour.scale": "scale",
    "behaviour.mask": "causal mask",
    "behaviour.renormalisation": "rows summing to 1 again",
    "behaviour.softmax": "softmax and its dim",
    "behaviour.context": "context vectors",
    "behaviour.dropout": "dropout on the weights",
    "behaviour.heads": "head split and merge",
    "behaviour.head_modules": "heads",
    "behaviour.arguments": "the wrapper's other arguments, as given",
    "behaviour.concatenation": "joining the heads",
    "behaviour.out_proj": "output projection",
    "behaviour.shapes": "output shape and dtype",  # the result's form (a running mean's float32 matrix for float64 x)
    "behaviour.reductions": "sums and maxima along dim",
    "behaviour.memory": "contiguous memory before the view",
    "behaviour.input_kept": "input left as it was",
    "behaviour.count": "what each mean divides by",
    "behaviour.dtype": "dtype",
    "behaviour.layout": "each weight in v1's layout",
    "behaviour.placement": "each weight in the matrix of its name",
    "behaviour.in_place": "written into v1's parameters without autograd",
    # The solutions, on a page the service shows once the assignment is closed (``Solutions``).
    "solutions.heading": "Solutions",
    "solutions.later": (
        "When the assignment closes, on {time}, this page will also show the reference solution of"
        " each stage where you lost points, and model answers to the “Think about it” questions."),
    "solutions.later_unset": (
        "Once the assignment closes (after its due date, when no one can hand it in any more), this page"
        " will also show the reference solution of each stage where you lost points, and model answers to"
        " the “Think about it” questions. Your instructor has not set that time yet."),
    "solutions.instructor": (
        "You see this part as an instructor; students see it from {time}, when the assignment closes."),
    "solutions.instructor_unset": (
        "You see this part as an instructor. Students see it only once the assignment closes: set a due"
        " date and, after it, a hard deadline, or stop taking submissions."),
    "solutions.references": (
        "The reference solution of each stage where you lost points. Compare it with your own code and"
        " with what the feedback above found:"),
    "solutions.no_references": "You lost no points in any stage, so there is no reference code to compare with.",
    "solutions.questions": "Model answers to the “Think about it” questions:",
    # Gradescope's results (autograder/platforms/gradescope/results.py): what students see there.
    "gradescope.score": "Score: {score} / {max_score}.",
    "gradescope.not_graded": "Your notebook could not be graded ({status}); submit {assignment_id}.ipynb.",
    "gradescope.load_problems": "Some of your code could not be loaded, so the tests that need it failed:",
    "gradescope.stages": (
        "Each stage below shows how many hidden tests passed; what each test checked, and the hint for"
        " each failure, are shown after the due date."),
    "gradescope.stage": "{stage}: {passed} of {total} hidden tests passed",
    "gradescope.stage_waiting": (
        "{stage}: {passed} of {total} hidden tests passed ({waiting} count once the values are right)"),
    "gradescope.points": "{points} of {max_points} points.",
    "gradescope.passed": "Passed.",
    "nav.home": "Home",
    "nav.submission": "Back to your submission",
}

MINUS = "\u2212"  # the minus sign, not a hyphen

templates = jinja2.Environment(
    loader=jinja2.PackageLoader("autograder.feedback", "templates"),
    autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
)


def _mathml(latex: str, options: dict) -> str:
    return latex_to_mathml(latex, display="block" if options.get("display_mode") else "inline")


# The model answers are markdown (the masters'): rendered as CommonMark with raw HTML escaped,
# so that the page stays free of anything but the text's own emphasis, code, lists and formulas.
# A formula ($…$ as the notebooks write it) becomes MathML, which browsers draw without a script.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).use(dollarmath_plugin, renderer=_mathml)


@dataclass(frozen=True)
class Solutions:
    """What a page served by the service says of the solutions (``autograder/service/answers.py``
    decides it). While not ``shown``, only when students will see them: ``students_from``, None
    while that time is not set. Once shown, the reference code of each stage the student lost
    points on, (stage, code), and each "Think about it" question with its model answer, (question,
    answer) in the page's language as markdown; ``open_to_students`` is False on an instructor's
    page before students see them."""

    shown: bool
    open_to_students: bool
    students_from: datetime | None = None
    references: tuple[tuple[str, str], ...] = ()
    questions: tuple[tuple[str, str], ...] = ()


def _markdown(text: str) -> Markup:
    return Markup(_MARKDOWN.render(text))


def _without_heading(markdown: str) -> str:
    """A question's text without its heading (``### 🤔 Think about it``, in any language)."""
    lines = markdown.strip().splitlines()
    return "\n".join(lines[1:] if lines and lines[0].startswith("#") else lines).strip()


def _solutions(solutions: Solutions | None, text: Mapping[str, str], zone: tzinfo | None) -> dict | None:
    """The solutions section as the template shows it: its sentences, and the answers rendered."""
    if solutions is None:
        return None
    when = shown_moment(solutions.students_from, zone or timezone.utc) if solutions.students_from else ""
    if not solutions.shown:
        return {"shown": False, "later": text["solutions.later"].format(time=when) if when
                else text["solutions.later_unset"]}
    early = "" if solutions.open_to_students else (
        text["solutions.instructor"].format(time=when) if when else text["solutions.instructor_unset"])
    return {"shown": True, "early": early, "references": solutions.references,
            "questions": [(_markdown(_without_heading(question)), _markdown(answer))
                          for question, answer in solutions.questions]}


def page_text(language: str) -> Mapping[str, str]:
    """The page's own text (PAGE_TEXT's keys) in ``language``."""
    return languages.messages(language, "feedback", PAGE_TEXT, LOCALES_DIR)


def _problem(test: ScoredTest) -> tuple:
    """What a failed test found, less where: the same problem on other shapes, dtypes or devices
    has the same key, named mistake and kind of call, and the same further faults (a test that
    shows a second fault beside the first is a problem of its own, told: review of notebook 1,
    where the fault that set off a cap was left off the page)."""
    found = test.finding
    if found is None:
        return (test.status.value,)
    what = found.fields.get("what")
    faults = tuple((fault.key, fault.mistake) for fault in found.all_faults())
    return test.status.value, faults, what.key if isinstance(what, Finding) else what


def _label_key(test: ScoredTest) -> str:
    """The page text that labels a test's message: its status, "not implemented yet" for a stub
    that still raises NotImplementedError, and neutral labels for a passed behaviour check that
    waits for right values and for a passed test's note."""
    if test.passed:
        return "status.note"
    if test.waiting:
        return "status.waiting"
    if test.finding is not None and test.finding.key == "not_implemented":
        return "status.not_implemented"
    return f"status.{test.status.value}"


def _shown(test: ScoredTest) -> bool:
    """Whether a test has a message for the page: every test that did not pass, and a passed one's note."""
    return not test.passed or test.finding is not None


def _cap_text(total: StageTotal, text: Mapping[str, str]) -> str:
    """What the cap on a stage that misses its purpose took, and the share it keeps ("" if none)."""
    taken = sum(loss.points for loss in total.lost_to if loss.behaviour == PURPOSE)
    if not taken or not total.max_points:
        return ""
    return text["purpose_cap"].format(percent=f"{100 * total.points / total.max_points:.0f}", points=f"{taken:g}")


def _stage_summaries(row: GradedRow) -> list[dict]:
    """The stages of the page, with their messages in the notebook's language: one message per
    problem, the first test's, however many tests (shapes, dtypes, devices) found it; failures
    first, then the checks waiting for right values, then notes. A stage's named mistake is
    explained once, where it first shows; later messages refer to it."""
    text = page_text(row.language)
    summaries = []
    for total in row.stage_totals():
        groups: dict[tuple, list[ScoredTest]] = {}
        for test in sorted((test for test in row.tests if test.stage == total.stage and _shown(test)),
                           key=lambda test: (test.passed, test.waiting)):
            groups.setdefault(_problem(test), []).append(test)
        messages: list[dict] = []
        told: frozenset[str] = frozenset()
        for tests in groups.values():
            counted = [test for test in tests if test.max_points] or tests  # as the table counts them
            found = tests[0].finding
            message = render(found, row.language, faults=False, told=told) if found else ""
            messages.append({"status": _status_class(tests[0]), "text": message, "code": _is_code(message),
                             "faults": rendered_faults(found, row.language, told) if found else [],
                             "label": text["message_label_tests" if len(counted) > 1 else "message_label"].format(
                                 label=text[_label_key(tests[0])], count=len(counted))})
            told |= found.mistakes() if found else set()
        summaries.append({
            "name": total.stage, "passed": total.passed + total.waiting, "total": total.total,
            "points": total.points, "max_points": total.max_points,
            "waiting": (text["one_test_waiting"] if total.waiting == 1
                        else text["tests_waiting"].format(count=total.waiting) if total.waiting else ""),
            "losses": _losses(total, [test for test in row.tests if test.stage == total.stage], text),
            "cap": _cap_text(total, text),
            "messages": messages,
        })
    return summaries


def _losses(total: StageTotal, tests: list[ScoredTest], text: Mapping[str, str]) -> list[str]:
    """What each pinned behaviour of a stage cost and, after them, the rest of what the stage lost
    (checks waiting for right values, failures not pinned), so that the lines add up to the loss.
    Empty when nothing was pinned: the stage's score then says it all."""
    pinned = [loss for loss in total.lost_to if loss.behaviour != PURPOSE]
    if not pinned:
        return []
    lines = [text["behaviour_loss"].format(behaviour=text[f"behaviour.{loss.behaviour}"],
                                           points=f"{MINUS}{loss.points:g}") for loss in pinned]
    waiting = round(sum(test.max_points - test.points for test in tests if test.waiting), 2)
    unpinned = round(total.max_points - total.points - sum(loss.points for loss in total.lost_to) - waiting, 2)
    for key, points in (("behaviour_loss_waiting", waiting), ("behaviour_loss_unpinned", unpinned)):
        if points > 0:
            lines.append(text[key].format(points=f"{MINUS}{points:g}"))
    return lines


def _is_code(message: str) -> bool:
    """Whether a message is shown as code, keeping its lines (a traceback, printed output, a table
    of values): it has more than one line. A one-line finding is a sentence, shown as prose."""
    return "\n" in message.strip()


def _status_class(test: ScoredTest) -> str:
    """The CSS class of a message: red for what failed, neutral for a waiting check or a note."""
    if test.passed or test.waiting:
        return "neutral"
    return test.status.value


def _moment(iso: str, zone: tzinfo | None) -> str:
    """A stored ISO-8601 time as people read it, to the second, written as the service's pages
    write times: ``2025-03-01 23:59:30 (UTC+01:00)``, in ``zone`` (the course's time zone, where
    the service shows the page) or else in the offset it was stored with."""
    moment = datetime.fromisoformat(iso)
    return shown_moment(moment, zone or moment.tzinfo or timezone.utc, seconds=True)


def _time_lines(time: SubmissionTime | None, text: Mapping[str, str], zone: tzinfo | None) -> list[str]:
    """What the page says about the submission time, the due date and lateness. Both times are
    shown in ``zone``, or else in the due date's offset, so that the two read alike."""
    if time is None or (time.submitted_at is None and time.problem is None):
        return []
    if time.submitted_at is None:
        return [text[f"time.unknown.{time.problem}"]] if time.due else []
    if time.due is None:
        return [text["time.submitted"].format(submitted=_moment(time.submitted_at, zone))]
    shown_in = zone or datetime.fromisoformat(time.due).tzinfo
    lines = [text["time.submitted_due"].format(submitted=_moment(time.submitted_at, shown_in),
                                                due=_moment(time.due, shown_in))]
    if time.days_late == 0:
        lines.append(text["time.on_time"])
    else:
        lines.append(text["time.late_day" if time.days_late == 1 else "time.late_days"].format(days=time.days_late))
    return lines


def _score_lines(row: GradedRow, text: Mapping[str, str]) -> list[tuple[str, str]]:
    """How the score was reached, when anything besides the hidden tests counted in it: right
    predictions, what the hints cost, lateness, adjustments."""
    penalty = row.submission_time.penalty if row.submission_time else 0.0
    if not penalty and not row.adjustments and not row.hint_charges and not row.predictions_score:
        return []
    lines = [(text["score.tests"], f"{row.tests_score:g}")]
    if row.predictions_score:
        lines.append((text["score.predictions"], f"+{row.predictions_score:g}"))
    for charge in row.hint_charges:
        said = text["score.hint_charge_capped" if charge.capped else "score.hint_charge"]
        lines.append((said.format(tier=charge.tier, stage=charge.stage, price=f"{charge.price:g}"),
                      f"{MINUS}{charge.points:g}"))
    if penalty:
        lines.append((text["score.late_penalty"], f"{MINUS}{penalty:g}"))
    for adjustment in row.adjustments:
        sign = "+" if adjustment.points >= 0 else MINUS
        lines.append((text["score.adjustment"].format(reason=adjustment.reason), f"{sign}{abs(adjustment.points):g}"))
    lines.append((text["score.total"], f"{row.score:g} / {row.max_score:g}"))
    return lines


def feedback_html(row: GradedRow, zone: tzinfo | None = None, stylesheets: tuple[str, ...] = (),
                  submission_url: str | None = None, solutions: Solutions | None = None) -> str:
    """The student's page, in the language of the submitted notebook; times in ``zone`` (the
    service passes the course's), else as ``grade`` read them (the due date's offset). Self-contained
    (its style inline), or, served by the submission service, styled by its ``stylesheets`` (URLs)
    and headed by links to the service's home and to the submission's page (``submission_url``),
    and ending with what it may say of the ``solutions``."""
    text = page_text(row.language)
    links = [("/", text["nav.home"]), (submission_url, text["nav.submission"])] if submission_url else []
    return templates.get_template("feedback.html.j2").render(
        lang=languages.HTML_LANG.get(row.language, "en"), student_id=row.student_id,
        assignment_id=row.assignment_id, score=row.score, max_score=row.max_score, graded=row.graded,
        load_problems=[render(problem, row.language) for problem in row.load_problems],
        notes=[render(note, row.language) for note in row.notes],
        stages=_stage_summaries(row), text=text, time_lines=_time_lines(row.submission_time, text, zone),
        score_lines=_score_lines(row, text),
        heading=text["heading"].format(assignment_id=row.assignment_id, student_id=row.student_id),
        not_graded=text["not_graded"].format(status=row.status_text()), stylesheets=stylesheets, links=links,
        solutions=_solutions(solutions, text, zone),
    )
