"""The hidden tests' pytest markers, declared from the curriculum rather than by hand.

One marker per stage (``@pytest.mark.<stage>``: the rubric's points and the grader's per-stage
credit are keyed on it) and ``behaviour`` (a check that counts only when its stage's values are
right, ``autograder.grading.dependencies``). Both pytest sessions that collect hidden tests
declare them here, so ``--strict-markers`` holds in each and a new stage needs no marker list:
the grader's own session (``autograder/hidden_tests/conftest.py``, which may run with no
``pyproject.toml`` in reach, from an installed kit) and the kit's tests (``tests/conftest.py``).
"""

from __future__ import annotations

import pytest

from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

BEHAVIOUR = "behaviour"


def marker_lines() -> list[str]:
    """The ``markers`` ini lines: ``name: description``, the stages in teaching order."""
    lines = [f"{BEHAVIOUR}: a hidden check that counts only when its stage's values are right"]
    for assignment, stages in STAGES_BY_ASSIGNMENT.items():
        lines += [f"{stage}: graded stage {stage} of {assignment}" for stage in stages]
    return lines


def declare(config: pytest.Config) -> None:
    """Declare every hidden-test marker in ``config`` (call it from ``pytest_configure``)."""
    for line in marker_lines():
        config.addinivalue_line("markers", line)
