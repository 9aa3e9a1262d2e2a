"""Points per hidden test, from ``rubric.toml`` (one table per assignment).

A test function's points are shared equally by its CPU instances; an instance on a GPU is
reported for no points (``grading.engine.score_outcomes``), so a notebook scores the same on
every machine. ``[behaviours.<stage>]`` shares a big stage's value points among the behaviours it
must get right, and ``[faults]`` says which named mistakes are faults of which behaviour
(``[faults.<stage>]`` where a stage reads one otherwise; ``grading.partial_credit``). ``[purpose]`` caps a stage whose failures show it misses what it is
for (``grading.purpose``). ``[hint_charges]`` prices the hint tiers (none by default:
``records.hint_charges``).
"""

from __future__ import annotations

import ast
import functools
from autograder.worker.compat import tomllib
from collections import Counter
from pathlib import Path

from autograder.records.hint_charges import HintPriceError, HintPrices
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT, all_stages
from autograder.student.predictions import questions_of
from autograder.paths import HIDDEN_TESTS_DIR

RUBRIC_FILE = Path(__file__).resolve().parent / "rubric.toml"


class RubricError(Exception):
    """The rubric file is missing, malformed or lacks a test: an instructor must fix it."""


@functools.cache
def _table() -> dict:
    try:
        with RUBRIC_FILE.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise RubricError(f"cannot read the rubric {RUBRIC_FILE}: {error}") from None


@functools.cache
def points_by_test(assignment_id: str) -> dict[str, float]:
    return {name: float(points) for name, points in _table().get(assignment_id, {}).items()}


def prediction_points(question_id: str) -> float:
    """What a right prediction earns (``[predictions]``; 0 for a question the rubric leaves out)."""
    return float(_table().get("predictions", {}).get(question_id, 0.0))


@functools.cache
def hint_prices() -> HintPrices:
    """What each hint tier costs, per stage or for every stage of the course (``[hint_charges]``;
    nothing when the table is absent or empty)."""
    try:
        return HintPrices.from_table(_table().get("hint_charges", {}), all_stages())
    except HintPriceError as error:
        raise RubricError(f"{RUBRIC_FILE.name} [hint_charges]: {error}") from None


def max_score(assignment_id: str) -> float:
    """The hidden tests' points and what the assignment's predictions can earn."""
    predictions = sum(prediction_points(question.id) for question in questions_of(assignment_id))
    return round(sum(points_by_test(assignment_id).values()) + predictions, 2)


def shares(assignment_id: str, functions: list[str]) -> list[float]:
    """The points of each test instance that ran, given the test function of each: a function's
    points are shared equally by its instances."""
    points = points_by_test(assignment_id)
    instances = Counter(functions)
    for function in instances:
        if function not in points:
            raise RubricError(f"{RUBRIC_FILE.name} gives no points for {assignment_id}::{function}")
    return [round(points[function] / instances[function], 4) for function in functions]


@functools.cache
def _test_markers(assignment_id: str) -> dict[str, frozenset[str]]:
    """Test function name -> the names of its ``@pytest.mark.<name>`` decorators, read from the
    hidden test module's source."""
    tree = ast.parse((HIDDEN_TESTS_DIR / f"test_{assignment_id}.py").read_text())
    return {node.name: frozenset(decorator.attr for decorator in node.decorator_list
                                 if isinstance(decorator, ast.Attribute))
            for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


@functools.cache
def behaviour_shares(stage: str) -> dict[str, float]:
    """The behaviours of ``stage`` and their shares of its value points, in percent (none for a
    stage the rubric does not share out: a failed test of it loses all its points)."""
    return {name: float(share) for name, share in _table().get("behaviours", {}).get(stage, {}).items()}


@functools.cache
def fault_behaviours(stage: str | None = None) -> dict[str, str]:
    """Named mistake -> the behaviour it is a fault of (``[faults]``), in ``stage`` where given:
    ``[faults.<stage>]`` maps a mistake that means something else there (zeroing the future after
    a softmax is a fault of the mask in a module, and of the renormalisation in the stage that
    must renormalise)."""
    table = _table().get("faults", {})
    found = {mistake: behaviour for behaviour, mistakes in table.items() if isinstance(mistakes, list)
             for mistake in mistakes}
    own = table.get(stage, {}) if stage else {}
    return found | {mistake: behaviour for behaviour, mistakes in own.items() for mistake in mistakes}


def purpose_keeps(stage: str) -> float:
    """The share of its points, as a fraction, that ``stage`` keeps at most when it misses its
    purpose (``[purpose.keeps_in]``'s percent for the stage, else ``[purpose]``'s ``keeps``; all
    of them when the rubric sets neither)."""
    table = _table().get("purpose", {})
    keeps = float(table.get("keeps_in", {}).get(stage, table.get("keeps", 100)))
    if not 0 <= keeps <= 100:
        raise RubricError(f"{RUBRIC_FILE.name} [purpose] keeps for {stage} = {keeps:g}: a percent, from 0 to 100")
    return keeps / 100


@functools.cache
def purpose_shown_by(stage: str) -> frozenset[str]:
    """The findings, evidence and named mistakes that show ``stage`` misses its purpose
    (``[purpose.shown_by]``; none for a stage the rubric does not list)."""
    return frozenset(_table().get("purpose", {}).get("shown_by", {}).get(stage, []))


def value_points(assignment_id: str, stage: str) -> float:
    """The points of ``stage``'s value tests: its test functions not marked behaviour."""
    stage_of, behaviour = stage_of_test_functions(assignment_id), behaviour_tests(assignment_id)
    return sum(points for function, points in points_by_test(assignment_id).items()
               if stage_of.get(function) == stage and function not in behaviour)


def stage_of_test_functions(assignment_id: str) -> dict[str, str]:
    """Test function name -> its stage marker, read from the hidden test module's source."""
    stages = STAGES_BY_ASSIGNMENT[assignment_id]
    return {function: stage for function, markers in _test_markers(assignment_id).items()
            for stage in stages if stage in markers}


def behaviour_tests(assignment_id: str) -> frozenset[str]:
    """The test functions marked ``@pytest.mark.behaviour``: checks that earn their points only
    together with correct values (see ``autograder.grading.dependencies``)."""
    return frozenset(function for function, markers in _test_markers(assignment_id).items()
                     if "behaviour" in markers)


def points_table() -> str:
    """The table of points per notebook and stage on docs/grading/points.md (``python -m autograder.course.rubric``)."""
    lines = ["| notebook | points per stage | total |", "| --- | --- | --- |"]
    for assignment_id, stages in STAGES_BY_ASSIGNMENT.items():
        stage_of = stage_of_test_functions(assignment_id)
        per_stage = []
        for stage in stages:
            points = sum(p for name, p in points_by_test(assignment_id).items() if stage_of.get(name) == stage)
            per_stage.append(f"`{stage}` {points:g}")
        lines.append(f"| `{assignment_id}` | {', '.join(per_stage)} | {max_score(assignment_id):g} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(points_table(), end="")
