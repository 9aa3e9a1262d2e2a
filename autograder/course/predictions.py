"""Judge the predictions a notebook records against the outcomes its demos measure.

The questions and their tolerances are the student package's (``autograder.student.predictions``);
the outcomes are here, in ``predictions.toml`` (what the solutions' demos measure, checked by a
kit test), and the points in ``rubric.toml``'s ``[predictions]`` table (none unless an instructor
gives some). An unanswered question is reported as such and scores nothing.

The student package carries a copy of these outcomes (``autograder/student/prediction_outcomes.json``,
written by ``make assignments``), so that ``reveal`` in the notebook gives the verdict given here,
whatever the student's own demo measured.
"""

from __future__ import annotations

import functools
from pathlib import Path

from autograder.course import rubric
from autograder.records.results import PredictionResult
from autograder.student.predictions import QUESTIONS, judge, questions_of
from autograder.worker.compat import tomllib

ANSWER_KEY_FILE = Path(__file__).resolve().parent / "predictions.toml"


class AnswerKeyError(Exception):
    """The answer key is missing, malformed, or out of step with the questions."""


@functools.cache
def outcomes() -> dict[str, dict]:
    """The measured outcome of every question, by question id."""
    try:
        with ANSWER_KEY_FILE.open("rb") as handle:
            table = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise AnswerKeyError(f"cannot read {ANSWER_KEY_FILE}: {error}") from None
    for question_id, question in QUESTIONS.items():
        if set(table.get(question_id, {})) != set(question.field_names()):
            raise AnswerKeyError(f"{ANSWER_KEY_FILE.name}: [{question_id}] must give {', '.join(question.field_names())}")
    return table


def judged(assignment_id: str, answers: dict[str, dict | None]) -> tuple[PredictionResult, ...]:
    """Every question of ``assignment_id``, with the student's answer (None: none recorded) judged."""
    results = []
    for question in questions_of(assignment_id):
        answer = answers.get(question.id)
        correct = answer is not None and judge(question, answer, outcomes()[question.id])
        worth = rubric.prediction_points(question.id)
        results.append(PredictionResult(question.id, answer, question.id in answers, correct,
                                        worth if correct else 0.0, worth))
    return tuple(results)
