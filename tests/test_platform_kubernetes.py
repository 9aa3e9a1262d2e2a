"""The Kubernetes Indexed Job that grades a class in shards: valid against Kubernetes' own
schemas, unprivileged and offline, and its container command grades and merges for real here."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import kubernetes_validate
import pytest
import yaml
from test_sharding import write_mixed_class

from autograder.course.paths import KIT_ROOT

MANIFEST = KIT_ROOT / "autograder" / "platforms" / "kubernetes" / "grade-indexed-job.yaml"
KUBERNETES_VERSIONS = ["1.31.0", "1.33.0"]


def _documents() -> dict[str, dict]:
    return {document["kind"]: document for document in yaml.safe_load_all(MANIFEST.read_text())}


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_document_passes_the_kubernetes_schema(version):
    for document in _documents().values():
        kubernetes_validate.validate(document, version, strict=True)  # raises ValidationError


def test_the_job_runs_one_shard_per_index_unprivileged_and_limited():
    job = _documents()["Job"]["spec"]
    assert job["completionMode"] == "Indexed"
    assert job["completions"] == job["parallelism"]
    pod = job["template"]["spec"]
    [container] = pod["containers"]
    command = container["args"][0]
    assert "JOB_COMPLETION_INDEX" in command
    assert f'--shard "$shard/{job["completions"]}"' in command
    assert pod["automountServiceAccountToken"] is False
    assert container["securityContext"]["privileged"] is False
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert {"cpu", "memory"} <= set(container["resources"]["limits"])


def test_the_grading_pods_get_no_network():
    policy = _documents()["NetworkPolicy"]["spec"]
    labels = _documents()["Job"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    assert "ingress" not in policy
    assert "egress" not in policy  # no rule: nothing is allowed


@pytest.mark.slow
def test_each_pods_command_grades_its_shard_and_the_shards_merge(tmp_path):
    job = _documents()["Job"]["spec"]
    [container] = job["template"]["spec"]["containers"]
    (tmp_path / "class").mkdir()
    write_mixed_class(tmp_path / "class" / "submitted")
    command = container["args"][0].replace("/class", str(tmp_path / "class"))
    command = command.replace(".venv/bin/python", sys.executable)
    for index in range(job["completions"]):
        env = {**os.environ, "JOB_COMPLETION_INDEX": str(index)}
        result = subprocess.run(["/bin/sh", "-c", command], cwd=KIT_ROOT, env=env, capture_output=True, text=True,
                                timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
    shards = sorted(str(path) for path in (tmp_path / "class" / "shards").iterdir())
    assert [re.sub(r".*/", "", shard) for shard in shards] == [str(k) for k in range(1, job["completions"] + 1)]
    merged = subprocess.run([sys.executable, "-m", "autograder", "merge", *shards, "--out", str(tmp_path / "grades")],
                            capture_output=True, text=True, timeout=120)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert len((tmp_path / "grades" / "grades.csv").read_text().splitlines()) == 1 + 9
