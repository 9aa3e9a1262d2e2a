"""Every hidden test carries exactly one stage marker of its assignment and has its points."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from autograder.course import rubric
from autograder.grading import markers
from autograder.grading.shard import pytest_args
from autograder.paths import HIDDEN_TESTS_DIR, KIT_ROOT
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
    # A whole number of points for every test; none only for a note worth fixing (ARCHITECTURE.md, "Fairness").
    assert all(value == int(value) and (value > 0 or name.endswith("_worth_fixing")) for name, value in points.items())
    assert rubric.max_score(assignment_id) == 100


def test_every_stage_has_its_marker_declared_from_the_curriculum():
    declared = {line.split(":")[0] for line in markers.marker_lines()}
    assert declared == {markers.BEHAVIOUR, *all_stages()}


def test_the_graders_session_declares_the_stage_markers_without_the_kits_pyproject(tmp_path):
    """The grader's own pytest session (--strict-markers) reads the markers from the curriculum, through
    the hidden tests' conftest: an installed kit has no pyproject.toml to list them."""
    bare = tmp_path / "pytest.ini"
    bare.write_text("[pytest]\n")  # no markers at all
    args = [*pytest_args(set(ASSIGNMENTS), ["cpu"]), "--collect-only", "-c", str(bare)]
    assert "--strict-markers" in args
    result = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=KIT_ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
