"""GitHub Actions: the instructor's workflow runs `make test`; the student-repository workflow's
shell steps run for real here on a student's notebook (the `uses:` steps are GitHub's)."""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import shutil
import subprocess
import sys

import jsonschema
import pytest
import yaml
from platform_class import ASSIGNMENT, wrong_dim_notebook
from service_harness import LiveService, secret_lines
from test_sharding import write_mixed_class

from autograder.notebooks.variants import notebook_text
from autograder.paths import KIT_ROOT
from autograder.records.files import read_outputs

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
    assert {"assignment", "notebook", "service_url", "fail_under"} == set(inputs)
    [job] = workflow["jobs"].values()
    # Inputs and the token reach the scripts through env only, so a student's text is never
    # spliced into shell code.
    assert not [step.get("name") for step in job["steps"] if "${{" in step.get("run", "")]
    submit = next(step for step in job["steps"] if step.get("name") == "Submit")
    assert submit["env"]["KIT_TOKEN"] == "${{ secrets.kit_token }}"
    assert "/client/submit.py" in submit["run"]
    assert "make " not in submit["run"]


def test_student_workflow_pins_current_actions_by_commit_and_installs_nothing_of_the_kit():
    [job] = _load("grade-student-repo.yml")["jobs"].values()
    text = (WORKFLOWS / "grade-student-repo.yml").read_text()
    uses = [step["uses"] for step in job["steps"] if "uses" in step]
    assert uses
    assert all(re.fullmatch(r"actions/[\w-]+@[0-9a-f]{40}", use) for use in uses)
    # The majors that run on Node 24 (checkout v6, upload-artifact v6), named beside each pin.
    assert re.search(r"actions/checkout@[0-9a-f]{40}  # v6\.", text)
    assert re.search(r"actions/upload-artifact@[0-9a-f]{40}  # v6\.", text)
    scripts = "\n".join(step.get("run", "") for step in job["steps"])
    assert "pip install" not in scripts
    assert "make " not in scripts
    assert "[dev]" not in scripts
    assert not any("kit_repository" in str(step.get("with", {})) for step in job["steps"])


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


def _run_steps(job: dict, workspace, env: dict[str, str], python: str, outputs: dict | None = None) -> dict[str, int]:
    """Run a job's shell steps as the runner would, ``python`` being this kit's interpreter (the
    checkout and `make setup` steps, not run here, give the runner its own); returns each step's
    exit status (and puts what each printed in ``outputs``)."""
    statuses = {}
    for step in job["steps"]:
        if "run" in step and not step["run"].startswith("make "):
            script = step["run"].replace(python, sys.executable)
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                    cwd=workspace, env={**env, **_expanded(step.get("env", {}), env)},
                                    capture_output=True, text=True, timeout=600)
            statuses[step["name"]] = result.returncode
            if outputs is not None:
                outputs[step["name"]] = result.stdout + result.stderr
    return statuses


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _runner_without_the_kit(workspace) -> dict[str, str]:
    """A runner's environment: its own python3 (not the kit's .venv) and nothing of the kit."""
    env = _runner_env(workspace)
    env["PATH"] = os.pathsep.join(part for part in env["PATH"].split(os.pathsep) if ".venv" not in part)
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    (workspace / "runner-temp").mkdir()
    return {**env, "RUNNER_TEMP": str(workspace / "runner-temp")}


def _run_student_workflow(workspace, service, inputs: dict[str, str], student: str = "octocat") -> dict:
    """Run the student workflow's shell steps against the live service, with the student's token;
    each step's exit status, and what it printed under "<step>: output"."""
    [job] = _load("grade-student-repo.yml")["jobs"].values()
    service.link_for(student)
    values = {f"inputs.{key}": value for key, value in {"service_url": service.url, **inputs}.items()}
    values["secrets.kit_token"] = service.cli("token", student).stdout.strip()
    env = {**_runner_without_the_kit(workspace), **_expanded(job["env"], values), **values}
    outputs: dict[str, str] = {}
    statuses: dict = _run_steps(job, workspace, env, "python3", outputs)
    return statuses | {f"{name}: output": text for name, text in outputs.items()}


@pytest.mark.slow
@pytest.mark.live
def test_student_workflow_submits_with_a_token_and_prints_the_result(tmp_path, service):
    (tmp_path / "student").mkdir()
    (tmp_path / "student" / "attention.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    statuses = _run_student_workflow(tmp_path, service, {"assignment": ASSIGNMENT, "notebook": "attention.ipynb",
                                                         "fail_under": "50"})
    assert statuses["Submit"] == 0, statuses
    printed = statuses["Submit: output"]
    assert "Score: 91.55 / 100 (graded)" in printed
    assert "softmax_naive: " in printed
    assert re.search(r"Feedback page: http://127\.0\.0\.1:\d+/submissions/\d+/feedback$", printed, re.MULTILINE)
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith(f"## {ASSIGNMENT}\n")
    assert "Score: 91.55 / 100" in summary
    # The `result` output, as the autograding reporter reads it: its schema, and the same score.
    [line] = (tmp_path / "output.txt").read_text().splitlines()
    key, _, encoded = line.partition("=")
    document = json.loads(base64.b64decode(encoded))
    assert key == "result"
    jsonschema.validate(document, AUTOGRADING_RESULT_SCHEMA)
    assert document["max_score"] == 100
    assert sum(test["score"] for test in document["tests"]) == pytest.approx(91.55)
    [failed] = [test for test in document["tests"] if test["status"] == "fail"]
    assert failed["name"] == f"{ASSIGNMENT}: softmax_naive"
    assert "Likely mistake" in failed["message"]
    assert document["status"] == "fail"
    # All the runner ever held: the student's notebook, the service's client and what it printed.
    held = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*") if path.is_file())
    assert held == ["output.txt", "runner-temp/submission.txt", "runner-temp/submit.py", "shims/sudo",
                    "student/attention.ipynb", "summary.md"]
    client = (tmp_path / "runner-temp" / "submit.py").read_text()
    imported = {node.names[0].name.split(".")[0] if isinstance(node, ast.Import) else (node.module or "").split(".")[0]
                for node in ast.walk(ast.parse(client)) if isinstance(node, (ast.Import, ast.ImportFrom))}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
    assert not [line for line in secret_lines() if line in client + printed + summary]


@pytest.mark.slow
@pytest.mark.live
def test_student_workflow_is_red_when_the_notebook_is_missing_refused_or_below_fail_under(tmp_path, service):
    (tmp_path / "student").mkdir()
    missing = _run_student_workflow(tmp_path, service, {"assignment": ASSIGNMENT, "notebook": "", "fail_under": ""})
    assert missing["Submit"] == 2
    assert "commit your notebook" in missing["Submit: output"]
    shutil.rmtree(tmp_path / "runner-temp")
    (tmp_path / "student" / f"{ASSIGNMENT}.ipynb").write_text("not a notebook")
    refused = _run_student_workflow(tmp_path, service, {"assignment": ASSIGNMENT, "notebook": "", "fail_under": ""})
    assert refused["Submit"] == 2
    assert "did not take the notebook" in refused["Submit: output"]
    shutil.rmtree(tmp_path / "runner-temp")
    (tmp_path / "student" / f"{ASSIGNMENT}.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    below = _run_student_workflow(tmp_path, service, {"assignment": ASSIGNMENT, "notebook": "", "fail_under": "95"},
                                  student="octocat2")
    assert below["Submit"] == 3
    assert "Score: 91.55 / 100" in below["Submit: output"]


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
