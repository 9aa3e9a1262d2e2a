"""GitHub Actions: the instructor's workflow runs `make test`; the student-repository workflow's
shell steps run for real here on a student's notebook (the `uses:` steps are GitHub's)."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys

import pytest
import yaml
from platform_class import ASSIGNMENT, wrong_dim_notebook

from autograder.course.paths import KIT_ROOT
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


def _run_student_workflow(workspace, inputs: dict[str, str]) -> dict[str, int]:
    """Run the job's shell steps as the runner would; returns each step's exit status."""
    [job] = _load("grade-student-repo.yml")["jobs"].values()
    values = {f"inputs.{key}": value for key, value in inputs.items()} | {"github.actor": "octocat"}
    env = {**os.environ, **{key: _EXPRESSION.sub(lambda m: values[m.group(1)], str(value))
                            for key, value in job["env"].items()}}
    shims = workspace / "shims"
    shims.mkdir()
    (shims / "sudo").write_text('#!/bin/sh\nexec "$@"\n')  # the tests already run as root, or need not
    (shims / "sudo").chmod(0o755)
    env["PATH"] = f"{shims}{os.pathsep}{env['PATH']}"
    env["GITHUB_STEP_SUMMARY"] = str(workspace / "summary.md")
    statuses = {}
    for step in job["steps"]:
        if "run" in step and not step["run"].startswith("make "):
            # The checkout and `make -C kit setup` steps give the runner kit/.venv; here it is this kit's.
            script = step["run"].replace("kit/.venv/bin/python", sys.executable)
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                    cwd=workspace, env=env, capture_output=True, text=True, timeout=600)
            statuses[step["name"]] = result.returncode
    return statuses


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
    assert (row["status"], row["score"]) == ("graded", "88.75")
    assert (tmp_path / "grading" / "junit.xml").is_file()
    assert (tmp_path / "grading" / "feedback" / "octocat" / f"{ASSIGNMENT}.html").is_file()
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith(f"## {ASSIGNMENT}\n")
    assert f"octocat,{ASSIGNMENT},88.75,100,graded" in summary


@pytest.mark.slow
def test_student_workflow_without_the_notebook_is_red_only_under_fail_under(tmp_path):
    (tmp_path / "student").mkdir()
    statuses = _run_student_workflow(tmp_path, {"assignment": ASSIGNMENT, "notebook": "", "fail_under": "50"})
    assert statuses["Grade"] == 3
    assert statuses["Summary"] == 0
    assert _grades(tmp_path)["octocat"]["status"] == "missing"
