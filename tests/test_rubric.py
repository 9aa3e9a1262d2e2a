"""The rubric covers every hidden test, and the README shows its current points."""

import re

from autograder.course import rubric
from autograder.paths import KIT_ROOT
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT


def test_every_stage_earns_points_and_every_notebook_is_worth_100():
    for assignment_id, stages in STAGES_BY_ASSIGNMENT.items():
        stage_of = rubric.stage_of_test_functions(assignment_id)
        points = rubric.points_by_test(assignment_id)
        assert {stage_of[name] for name in points} == set(stages)
        assert rubric.max_score(assignment_id) == 100


def test_readme_points_table_is_up_to_date():
    readme = (KIT_ROOT / "README.md").read_text()
    assert rubric.points_table() in readme, "README.md is stale: paste `python -m autograder.course.rubric` into it"


def test_readme_names_the_rubric_where_it_is():
    readme = (KIT_ROOT / "README.md").read_text()
    points = readme[readme.index("### Points"):]
    named = re.findall(r"`(autograder/[\w/.]+\.toml)`", points[: points.index("|")])
    assert named, "the Points section names no rubric file"
    assert all((KIT_ROOT / path).is_file() for path in named), named


def test_every_kit_path_the_readme_names_exists():
    readme = (KIT_ROOT / "README.md").read_text()
    named = set(re.findall(r"`((?:autograder|tests|source_data|solutions)/[\w/.-]+\.(?:py|toml|yml|yaml|json))`",
                           readme))
    assert named
    assert [path for path in sorted(named) if not (KIT_ROOT / path).is_file()] == []
