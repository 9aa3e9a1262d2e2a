"""The rubric covers every hidden test, and the documentation's Points page shows its current points."""

import re

from autograder.course import rubric
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

POINTS_PAGE = KIT_ROOT / "docs" / "grading" / "points.md"


def test_every_stage_earns_points_and_every_notebook_is_worth_100():
    for assignment_id, stages in STAGES_BY_ASSIGNMENT.items():
        stage_of = rubric.stage_of_test_functions(assignment_id)
        points = rubric.points_by_test(assignment_id)
        assert {stage_of[name] for name in points} == set(stages)
        assert rubric.max_score(assignment_id) == 100


def test_the_points_page_is_up_to_date():
    page = POINTS_PAGE.read_text()
    assert rubric.points_table() in page, (
        "docs/grading/points.md is stale: paste the table that `python -m autograder.course.rubric` prints into it")


def test_the_points_page_names_the_rubric_where_it_is():
    page = POINTS_PAGE.read_text()
    named = re.findall(r"`(autograder/[\w/.]+\.toml)`", page[: page.index("|")])
    assert named, "the Points page names no rubric file before its table"
    assert all((KIT_ROOT / path).is_file() for path in named), named
