"""Notebooks that attack the trusted process itself: it reads every notebook before any worker runs.

A notebook is parsed (JSON, then ``ast``) by the grader, not by a worker, so one hostile file
must cost only its own row: never the class's grading, and never unbounded time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from containment import GRADE_ARGS, GradingRun, control_id, grade_contained, make_context
from hostile_corpus import A1

from autograder.notebooks.variants import load_solution, with_cell

pytestmark = pytest.mark.slow

def _bombs() -> dict[str, str | dict]:
    solution = load_solution(A1)
    return {
        "01-bomb-deep-json": '{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "01-bomb-deep-unary": with_cell(solution, "x = " + "-" * 200_000 + "1"),
        "01-bomb-long-sum": with_cell(solution, "x = " + "+".join(["1"] * 300_000)),
        "01-bomb-deep-attribute": with_cell(solution, "import torch\nx = torch" + ".a" * 300_000),
    }


@pytest.fixture(scope="module")
def bombed_run(tmp_path_factory) -> GradingRun:
    students = {name: (A1, notebook) for name, notebook in _bombs().items()}
    students[control_id(A1)] = (A1, load_solution(A1))
    return grade_contained(make_context(tmp_path_factory.mktemp("bombs")), [], GRADE_ARGS, students=students)


def test_a_parser_bomb_costs_only_its_own_row(bombed_run: GradingRun):
    assert bombed_run.report["returncode"] == 0, bombed_run.stdout[-2000:] + bombed_run.stderr[-2000:]
    grades = bombed_run.grades
    assert grades[(control_id(A1), A1)]["status"] == "graded"
    assert grades[("01-bomb-deep-json", A1)]["status"].startswith("unreadable: ")
    for name in _bombs():
        if name != "01-bomb-deep-json":  # a bomb in a cell of its own costs that cell, not the answers
            assert grades[(name, A1)]["status"] == "graded"
            assert grades[(name, A1)]["score"] == grades[(control_id(A1), A1)]["score"]


def test_a_parser_bomb_leaves_nothing_running(bombed_run: GradingRun):
    assert bombed_run.report["leftovers"] == []
    assert bombed_run.changes == []


def test_many_one_line_definitions_parse_in_linear_time():
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": "class A: 1/0\n" * 10_000}]}
    code = ("import json, sys; from autograder.reading.notebook import extract_definitions;"
            " print(len(extract_definitions(json.load(sys.stdin)).blocks))")
    result = subprocess.run([sys.executable, "-c", code], input=json.dumps(notebook), capture_output=True,
                            text=True, timeout=10, check=True)
    assert result.stdout.strip() == "10000"
