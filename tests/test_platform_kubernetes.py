"""The Kubernetes Indexed Job that grades a class in shards: valid against Kubernetes' own
schemas, unprivileged and offline, and its container command grades and merges for real here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from container import NO_LANDLOCK, container_skip_reason, run_as_container
from test_sharding import write_mixed_class

from autograder.paths import KIT_ROOT

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


@pytest.fixture
def pod_volumes():
    """What a pod sees: a copy of the kit as the image holds it, and the class volume with a mixed
    class, in a folder every user may pass through (as / is in a pod): only the pod command's own
    modes then keep the secrets from student code, where the kernel has no Landlock."""
    root = Path(tempfile.mkdtemp(prefix="attention-pod-"))
    root.chmod(0o755)
    kit = root / "kit"
    tracked = subprocess.run(["git", "-C", str(KIT_ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (KIT_ROOT / name).is_file():
            (kit / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(KIT_ROOT / name, kit / name)
    write_mixed_class(root / "class" / "submitted")
    yield kit, root / "class"
    shutil.rmtree(root, ignore_errors=True)


def _pod_command(kit: Path, volume: Path) -> str:
    """The container's command, with this machine's paths (the image's .venv is this interpreter)."""
    [container] = _documents()["Job"]["spec"]["template"]["spec"]["containers"]
    command = container["args"][0].replace("/class", str(volume)).replace("/kit", str(kit))
    return command.replace(".venv/bin/python", sys.executable)


@pytest.mark.slow
@pytest.mark.parametrize("landlock", [True, False], ids=["landlock", "no-landlock"])
@pytest.mark.container
def test_each_pods_command_grades_its_shard_and_the_shards_merge(pod_volumes, landlock):
    """Each pod's command, run as a pod runs it (root without CAP_SYS_ADMIN, limited memory and
    CPU), on a node with Landlock and on one without: every shard grades, and the shards merge."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    kit, volume = pod_volumes
    completions = _documents()["Job"]["spec"]["completions"]
    kernel = [] if landlock else [sys.executable, str(NO_LANDLOCK)]
    for index in range(completions):
        env = {**os.environ, "JOB_COMPLETION_INDEX": str(index)}
        run = run_as_container([*kernel, "/bin/sh", "-c", _pod_command(kit, volume)], memory_mb=6144, cpu=2,
                               cwd=kit, env=env)
        assert run.result.returncode == 0, run.result.stdout[-3000:] + run.result.stderr[-3000:]
        assert ("no landlock files: no Landlock in this kernel" in run.result.stdout) is not landlock
    shards = sorted(str(path) for path in (volume / "shards").iterdir())
    assert [re.sub(r".*/", "", shard) for shard in shards] == [str(k) for k in range(1, completions + 1)]
    merged = subprocess.run([sys.executable, "-m", "autograder", "merge", *shards, "--out", str(volume / "grades")],
                            capture_output=True, text=True, timeout=120)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert len((volume / "grades" / "grades.csv").read_text().splitlines()) == 1 + 9


@pytest.mark.slow
@pytest.mark.container
def test_without_its_modes_the_pod_refuses_on_a_node_without_landlock(pod_volumes):
    """The modes are what keeps the secrets there: without them the grader proves that student code
    could read the solutions, and refuses before writing any row."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    kit, volume = pod_volumes
    command = re.sub(r"^.*?shard=", "shard=", _pod_command(kit, volume), flags=re.DOTALL)
    run = run_as_container([sys.executable, str(NO_LANDLOCK), "/bin/sh", "-c", command], memory_mb=6144, cpu=2,
                           cwd=kit, env={**os.environ, "JOB_COMPLETION_INDEX": "0"})
    assert run.result.returncode == 1, run.result.stdout[-3000:] + run.result.stderr[-3000:]
    assert "student code could read what it must not" in run.result.stdout
    assert not (volume / "shards" / "1" / "grades.csv").exists()
