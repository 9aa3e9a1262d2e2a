"""The GitLab CI template for student repositories: its script runs for real here, against a live
submission service, on a student's notebook, with nothing of the kit on the runner."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
import yaml
from platform_class import ASSIGNMENT, wrong_dim_notebook
from service_harness import LiveService, secret_lines

from autograder.notebooks.variants import notebook_text
from autograder.paths import KIT_ROOT

TEMPLATE = KIT_ROOT / "autograder" / "platforms" / "gitlab" / "student-repo.gitlab-ci.yml"


def _template() -> dict:
    return yaml.safe_load(TEMPLATE.read_text())


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _run_script(workspace, service, variables: dict[str, str], student: str = "octocat"):
    """The job's script as a GitLab runner runs it: one shell, stopping at the first failing line,
    with the runner's own python3 (nothing of the kit) and the student's token as a CI variable."""
    template = _template()
    service.link_for(student)
    env = {**os.environ, **template["variables"], "KIT_SERVICE_URL": service.url, **variables,
           "KIT_TOKEN": service.cli("token", student).stdout.strip()}
    env["PATH"] = os.pathsep.join(part for part in env["PATH"].split(os.pathsep) if ".venv" not in part)
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-c", "\n".join(template["grade"]["script"])],
                          cwd=workspace, env=env, capture_output=True, text=True, timeout=600)


def test_the_job_keeps_what_the_service_said_and_installs_nothing_of_the_kit():
    job = _template()["grade"]
    assert job["artifacts"] == {"when": "always", "paths": ["submission.txt"]}
    script = "\n".join(job["script"])
    assert "/client/submit.py" in script
    for kit_step in ("git clone", "make ", "pip install"):
        assert kit_step not in script


@pytest.mark.slow
@pytest.mark.live
def test_the_script_submits_the_notebook_and_shows_the_score_as_coverage(tmp_path, service):
    (tmp_path / "attention.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    result = _run_script(tmp_path, service, {"NOTEBOOK": "attention.ipynb", "FAIL_UNDER": "50"})
    assert result.returncode == 0, result.stdout + result.stderr
    coverage = re.search(_template()["grade"]["coverage"].strip("/"), result.stdout)
    assert coverage is not None
    assert coverage.group(1) == "91.55"
    assert "softmax_naive" in (tmp_path / "submission.txt").read_text()
    held = sorted(path.name for path in tmp_path.iterdir())
    assert held == ["attention.ipynb", "submission.txt", "submit.py"]
    assert not [line for line in secret_lines() if line in result.stdout + (tmp_path / "submit.py").read_text()]


@pytest.mark.slow
@pytest.mark.live
def test_a_missing_notebook_is_red_and_a_low_score_only_under_fail_under(tmp_path, service):
    result = _run_script(tmp_path, service, {"FAIL_UNDER": ""})
    assert result.returncode == 2
    assert "commit your notebook" in result.stdout
    (tmp_path / f"{ASSIGNMENT}.ipynb").write_text(notebook_text(wrong_dim_notebook()))
    assert _run_script(tmp_path, service, {"FAIL_UNDER": "95"}, student="lab2").returncode == 3
