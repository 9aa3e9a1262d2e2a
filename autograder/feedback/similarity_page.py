"""The similarity page: ``python -m autograder similarity <out>`` writes ``<out>/similarity.html``,
the instructor's (in English), with each listed pair's code side by side and its matching regions
marked (``autograder.term.similarity`` finds them)."""

from __future__ import annotations

from pathlib import Path

from autograder.feedback.page import templates
from autograder.grading.outputs import write_atomically
from autograder.term.similarity import AssignmentSimilarity

PAGE_NAME = "similarity.html"


def similarity_html(assignments: list[AssignmentSimilarity]) -> str:
    return templates.get_template("similarity.html.j2").render(assignments=assignments)


def write_similarity_page(out: Path, assignments: list[AssignmentSimilarity]) -> Path:
    """Write ``<out>/similarity.html``; returns its path."""
    path = out / PAGE_NAME
    write_atomically(path, similarity_html(assignments))
    return path
