"""A submission as discovery finds it (``autograder.grading.discovery``): a (student, assignment)
pair, where its notebook is, or why there is nothing to grade. The late-work and graded-code steps
(``autograder.term``) find each row's files through it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder.records.results import RowStatus

SubmissionKey = tuple[str, str]  # (student_id, assignment_id)


@dataclass(frozen=True)
class SubmissionEntry:
    """One (student, assignment) pair; ``problem`` is set when there is nothing to grade."""

    student_id: str
    assignment_id: str
    path: Path
    problem: RowStatus | None = None

    @property
    def key(self) -> SubmissionKey:
        return self.student_id, self.assignment_id
