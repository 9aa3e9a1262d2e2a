"""Every hidden test carries exactly one stage marker of its assignment and has its points."""

from __future__ import annotations

import importlib.util

import pytest

from autograder.course import rubric
from autograder.paths import HIDDEN_TESTS_DIR
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages


def hidden_test_functions(assignment_id: str) -> dict[str, object]:
    """The test functions of the assignment's hidden test module, by name."""
    path = HIDDEN_TESTS_DIR / f"test_{assignment_id}.py"
    spec = importlib.util.spec_from_file_location(f"hidden_{assignment_id}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert assignment_id == module.ASSIGNMENT
    return {name: value for name, value in vars(module).items()
            if name.startswith("test_") and callable(value)}


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_each_hidden_test_has_one_stage_marker_of_its_assignment(assignment_id):
    every_stage = set(all_stages())
    covered = set()
    for name, function in hidden_test_functions(assignment_id).items():
        stages = [mark.name for mark in getattr(function, "pytestmark", [])
                  if mark.name in every_stage]
        assert len(stages) == 1, f"{name} has the stage markers {stages}"
        assert stages[0] in STAGES_BY_ASSIGNMENT[assignment_id], name
        covered.add(stages[0])
    assert covered == set(STAGES_BY_ASSIGNMENT[assignment_id]), "a stage has no hidden test"


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_rubric_gives_points_to_exactly_the_hidden_tests(assignment_id):
    points = rubric.points_by_test(assignment_id)
    tests = hidden_test_functions(assignment_id)
    assert sorted(set(tests) - set(points)) == [], "hidden tests without points in rubric.toml"
    assert sorted(set(points) - set(tests)) == [], "rubric.toml entries without a hidden test"
    assert all(value > 0 and value == int(value) for value in points.values())
    assert rubric.max_score(assignment_id) == 100
