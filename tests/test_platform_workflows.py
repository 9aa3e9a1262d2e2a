"""GitHub Actions: the instructor's workflow runs `make test`; the student-repository workflow's
shell steps run for real here on a student's notebook (the `uses:` steps are GitHub's)."""

from __future__ import annotations

import base64
import csv
import json
import os
import re
import subprocess
import sys

import jsonschema
import pytest
import yaml
from platform_class import ASSIGNMENT, wrong_dim_notebook
from test_sharding import write_mixed_class

from autograder.course.paths import KIT_ROOT
from autograder.grading.outputs import read_outputs
from autograder.notebooks.variants import notebook_text

WORKFLOWS = KIT_ROOT / ".github" / "workflows"
_EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def _triggers(workflow: dict) -> dict:
    return workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as True


def test_instructor_workflow_runs_make_test_on_every_push():
    workflow = _load("kit.yml")
    assert {"push", "pull_request"} <= set(_triggers(workflow))
    runs = [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(run.startswith("make test") for run in runs)


def test_student_workflow_is_reusable_and_keeps_expressions_out_of_its_scripts():
    workflow = _load("grade-student-repo.yml")
    inputs = _triggers(workflow)["workflow_call"]["inputs"]
    assert {"assignment", "notebook", "kit_repository", "kit_ref", "fail_under"} == set(inputs)
    [job] = workflow["jobs"].values()
    # Inputs reach the scripts through env only, so a student's text is never spliced into shell code.
    assert not [step.get("name") for step in job["steps"] if "${{" in step.get("run", "")]
    grade = next(step["run"] for step in job["steps"] if step.get("name") == "Grade")
    assert "sudo kit/.venv/bin/python -m autograder grade submitted" in grade
    assert "--junit grading/junit.xml" in grade


# What education/autograding-grading-reporter reads from a runner's `result` (src/main.js parses
# it; console-results.js and notify-classroom.js read these fields).
AUTOGRADING_RESULT_SCHEMA = {
    "type": "object",
    "required": ["version", "status", "max_score", "tests"],
    "properties": {
        "version": {"const": 1},
        "status": {"enum": ["pass", "fail", "error"]},
        "max_score": {"type": "number", "minimum": 0},
        "tests": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["name", "status", "score"],
            "properties": {"name": {"type": "string"}, "status": {"enum": ["pass", "fail", "error"]},
                           "score": {"type": "number", "minimum": 0}, "max_score": {"type": "number"},
                           "message": {"type": "string"}},
        }},
    },
}


def _runner_env(workspace) -> dict[str, str]:
    """The environment of a runner's shell steps: a `sudo` that just runs the command (the tests
    already run as root, or need not), and the files GitHub collects the summary and outputs in."""
    shims = workspace / "shims"
    shims.mkdir(exist_ok=True)
    (shims / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    (shims / "sudo").chmod(0o755)
    return {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_STEP_SUMMARY": str(workspace / "summary.md"), "GITHUB_OUTPUT": str(workspace / "output.txt")}


def _expanded(variables: dict, values: dict[str, str]) -> dict[str, str]:
    """``variables`` with each ``${{ expression }}`` replaced by its value in ``values``."""
    return {key: _EXPRESSION.sub(lambda m: values[m.group(1)], str(value)) for key, value in variables.items()}


def _run_steps(job: dict, workspace, env: dict[str, str], python: str) -> dict[str, int]:
    """Run a job's shell steps as the runner would, ``python`` being this kit's interpreter (the
    checkout and `make setup` steps, not run here, give the runner its own); returns each step's
    exit status."""
    statuses = {}
    for step in job["steps"]:
        if "run" in step and not step["run"].startswith("make "):
            script = step["run"].replace(python, sys.executable)
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                    cwd=workspace, env=env, capture_output=True, text=True, timeout=600)
            statuses[step["name"]] = result.returncode
    return statuses


def _run_student_workflow(workspace, inputs: dict[str, str]) -> dict[str, int]:
    """Run the student workflow's shell steps; returns each step's exit status."""
    [job] = _load("grade-student-repo.yml")["jobs"].values()
    values = {f"inputs.{key}": value for key, value in inputs.items()} | {"github.actor": "octocat"}
    env = {**_runner_env(workspace), **_expanded(job["env"], values)}
    return _run_steps(job, workspace, env, "kit/.venv/bin/python")


def _grades(workspace) -> dict[str, dict]:
    with (workspace / "grading" / "grades.csv").open() as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


@pytest.mark.slow
def test_student_workflow_grades_the_notebook_and_summarises(tmp_path):
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "attention.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    statuses = _run_student_workflow(tmp_path, {"assignment": ASSIGNMENT, "notebook": "attention.ipynb",
                                                "fail_under": "50"})
    assert set(statuses.values()) == {0}, statuses
    row = _grades(tmp_path)["octocat"]
    assert (row["status"], row["score"]) == ("graded", "88.25")
    assert (tmp_path / "grading" / "junit.xml").is_file()
    assert (tmp_path / "grading" / "feedback" / "octocat" / f"{ASSIGNMENT}.html").is_file()
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith(f"## {ASSIGNMENT}\n")
    assert f"octocat,{ASSIGNMENT},88.25,100,graded" in summary
    # The `result` output, as the autograding reporter reads it: its schema, and the same score.
    [line] = (tmp_path / "output.txt").read_text().splitlines()
    key, _, encoded = line.partition("=")
    document = json.loads(base64.b64decode(encoded))
    assert key == "result"
    jsonschema.validate(document, AUTOGRADING_RESULT_SCHEMA)
    assert document["max_score"] == 100
    assert sum(test["score"] for test in document["tests"]) == pytest.approx(88.25)
    [failed] = [test for test in document["tests"] if test["status"] == "fail"]
    assert failed["name"] == f"{ASSIGNMENT}: softmax_naive"
    assert "Likely mistake" in failed["message"]
    assert document["status"] == "fail"


@pytest.mark.slow
def test_student_workflow_without_the_notebook_is_red_only_under_fail_under(tmp_path):
    (tmp_path / "student").mkdir()
    statuses = _run_student_workflow(tmp_path, {"assignment": ASSIGNMENT, "notebook": "", "fail_under": "50"})
    assert statuses["Grade"] == 3
    assert statuses["Summary"] == 0
    assert _grades(tmp_path)["octocat"]["status"] == "missing"


@pytest.mark.slow
def test_class_matrix_workflow_grades_each_shard_and_merges_them(tmp_path):
    workflow = _load("grade-class.yml")
    assert "workflow_dispatch" in _triggers(workflow)
    grade, merge = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    shards = grade["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, int(workflow["env"]["SHARDS"]) + 1))
    assert merge["needs"] == "grade"
    submitted = tmp_path / "course" / "submitted"
    write_mixed_class(submitted)
    base = {**_runner_env(tmp_path), **workflow["env"]}
    for shard in shards:  # each matrix job; the artifacts carry shards/shard-K to the merge job unchanged
        values = {"matrix.shard": str(shard), "inputs.submitted": "course/submitted"}
        statuses = _run_steps(grade, tmp_path, {**base, **_expanded(grade["env"], values)}, ".venv/bin/python")
        assert set(statuses.values()) == {0}, statuses
    assert set(_run_steps(merge, tmp_path, base, ".venv/bin/python").values()) == {0}
    rows = read_outputs(tmp_path / "grades")
    assert {row.student_id for row in rows} == {path.name for path in submitted.iterdir()}
    assert (tmp_path / "grades" / "report.html").is_file()
    assert "## Class grades" in (tmp_path / "summary.md").read_text()
