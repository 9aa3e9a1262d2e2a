"""The GitLab CI template for student repositories: its script runs for real here on a student's
notebook (the kit's clone and setup steps aside: the kit here is this one)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml
from platform_class import ASSIGNMENT, wrong_dim_notebook

from autograder.course.paths import KIT_ROOT
from autograder.notebooks.variants import notebook_text

TEMPLATE = KIT_ROOT / "autograder" / "platforms" / "gitlab" / "student-repo.gitlab-ci.yml"


def _template() -> dict:
    return yaml.safe_load(TEMPLATE.read_text())


def _run_script(workspace, variables: dict[str, str]) -> subprocess.CompletedProcess:
    """The job's script as a GitLab runner runs it: one shell, stopping at the first failing line."""
    template = _template()
    lines = [line for line in template["grade"]["script"] if not line.startswith(("git clone", "make "))]
    script = "\n".join(lines).replace("kit/.venv/bin/python", sys.executable)
    env = {**os.environ, **template["variables"], **variables, "GITLAB_USER_LOGIN": "octocat"}
    return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-c", script], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_junit_report_and_feedback_are_kept_as_artifacts():
    job = _template()["grade"]
    grade_line = next(line for line in job["script"] if "-m autograder grade" in line)
    junit = re.search(r"--junit (\S+)", grade_line).group(1)
    assert job["artifacts"]["reports"]["junit"] == junit
    assert junit in job["artifacts"]["paths"]
    assert "grading/feedback/" in job["artifacts"]["paths"]
    assert job["artifacts"]["when"] == "always"


@pytest.mark.slow
def test_the_script_grades_the_notebook_and_shows_the_score_as_coverage(tmp_path):
    (tmp_path / "attention.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    result = _run_script(tmp_path, {"NOTEBOOK": "attention.ipynb", "FAIL_UNDER": "50"})
    assert result.returncode == 0, result.stdout + result.stderr
    coverage = re.search(_template()["grade"]["coverage"].strip("/"), result.stdout)
    assert coverage is not None
    assert coverage.group(1) == "88.25"
    assert (tmp_path / "grading" / "junit.xml").is_file()
    assert (tmp_path / "grading" / "feedback" / "octocat" / f"{ASSIGNMENT}.html").is_file()


@pytest.mark.slow
def test_a_missing_notebook_is_red_only_under_fail_under(tmp_path):
    assert _run_script(tmp_path, {"FAIL_UNDER": ""}).returncode == 0
    result = _run_script(tmp_path, {"FAIL_UNDER": "50"})
    assert result.returncode == 3
    assert "Score: 0 %" in result.stdout
