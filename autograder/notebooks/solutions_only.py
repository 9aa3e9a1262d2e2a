"""Cells of a master notebook that students never get: the answers to its questions, and the
instructor's notes at its end (which stages keep a recipe, and why).

A cell whose metadata holds ``{"attention_kit": {"solutions_only": true}}`` stays in
``solutions/``, where instructors read it, and is left out of every student notebook (and so of
every translation and release bundle): ``make assignments`` drops it after nbgrader has run.
"""

from __future__ import annotations

from autograder.student.language import METADATA_KEY

MARKER = "solutions_only"
# The id of the last cell of a master, for the instructor: its notes on the notebook's design.
INSTRUCTOR_NOTES = "instructor-notes"


def is_solutions_only(cell: dict) -> bool:
    """Whether ``cell`` (a notebook cell, as nbformat or plain JSON) is for the solutions only."""
    metadata = cell.get("metadata", {}).get(METADATA_KEY, {})
    return isinstance(metadata, dict) and metadata.get(MARKER) is True


def student_cells(cells: list) -> list:
    """``cells`` without those for the solutions only."""
    return [cell for cell in cells if not is_solutions_only(cell)]
