"""When students read the solutions, and which: on their feedback page, once the assignment is
closed, the reference code of each stage they lost points on and the model answers to the
"Think about it" questions (``autograder/notebooks/model_answers.py`` reads both from the masters).

Closed means that no student can hand the assignment in any more, so that no one who may still
submit reads the reference first: its due date has passed, and so has its hard deadline
(``closes_at``), or it takes no more submissions (``accepting`` off). An assignment that takes
late work without a hard deadline never closes by itself: its solutions wait until the instructor
sets one or stops taking submissions, and the page says that no time is set yet. Without a due
date they never show to students. Instructors see them on every feedback page, at any time.

The answers are read once, when this module is imported, which the web process does before it
leaves root (``webserver.py``: the kit's folder may be closed to the web user). They are the
masters' JSON, never executed; nothing of them reaches a student's page before the assignment is
closed, and no other response carries them (the API neither).
"""

from __future__ import annotations

from datetime import datetime

from autograder.feedback.page import Solutions
from autograder.notebooks.model_answers import answers_of
from autograder.records.results import GradedRow
from autograder.service.models import AssignmentPolicy
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import DEFAULT_LANGUAGE, LANGUAGES

ANSWERS = {(assignment_id, language): answers_of(assignment_id, language)
           for assignment_id in ASSIGNMENTS for language in LANGUAGES}


def students_from(policy: AssignmentPolicy) -> datetime | None:
    """When the assignment closes for every student, and its solutions show to them: None while
    that is not set (no due date, or late work taken with no hard deadline)."""
    if policy.due_at is None:
        return None
    if not policy.accepting:
        return policy.due_at
    if policy.closes_at is None:
        return None
    return max(policy.due_at, policy.closes_at)


def open_to_students(policy: AssignmentPolicy, now: datetime) -> bool:
    closes = students_from(policy)
    return closes is not None and now >= closes


def solutions_for(row: GradedRow, policy: AssignmentPolicy, now: datetime, instructor: bool) -> Solutions:
    """What ``row``'s feedback page says of the solutions now: when students will see them, or
    (once the assignment is closed, and for an instructor at any time) the reference of each stage
    the row lost points on and the model answers, in the row's language."""
    is_open = open_to_students(policy, now)
    if not (is_open or instructor):
        return Solutions(shown=False, open_to_students=False, students_from=students_from(policy))
    answers = ANSWERS.get((row.assignment_id, row.language)) or ANSWERS.get((row.assignment_id, DEFAULT_LANGUAGE))
    if answers is None:  # an assignment the curriculum does not know: nothing to show
        return Solutions(shown=True, open_to_students=is_open, students_from=students_from(policy))
    references = tuple((stage, answers.references[stage]) for stage in row.stages_that_lost_points()
                       if stage in answers.references)
    return Solutions(shown=True, open_to_students=is_open, students_from=students_from(policy),
                     references=references,
                     questions=tuple((question.question, question.answer) for question in answers.questions))
