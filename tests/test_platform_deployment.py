"""The service's deployment files (docs/service/deployment.md): the systemd units, the container image
and the Kubernetes Deployments. No container engine or cluster runs here, so each file is checked
as far as this machine can: systemd's own verifier, Kubernetes' own schemas, every command run
against the kit's real command line, every path the image copies or installs found in the kit,
and the trust boundary (the web never root, the workers exactly as privileged as the Indexed Job).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from autograder.paths import KIT_ROOT

PLATFORMS = KIT_ROOT / "autograder" / "platforms"
SYSTEMD = PLATFORMS / "systemd"
CONTAINERFILE = PLATFORMS / "container" / "Containerfile"
KUBERNETES = PLATFORMS / "kubernetes"
KUBERNETES_VERSIONS = ["1.31.0", "1.33.0"]
UNIT_KIT_ROOT = "/opt/attention-kit"  # where the units expect the kit
IMAGE_KIT_ROOT = "/kit"  # where the image holds it
# Tracked top-level entries the image leaves out: what runs no grading and serves no page (the
# documentation and its site's settings, the kit's own tests).
NOT_IN_THE_IMAGE = {".ci", ".github", ".gitignore", "ARCHITECTURE.md", "SECURITY.md", "CONTRIBUTING.md", "docs",
                    "mkdocs.yml", "tests", "tools"}


def _documents(name: str) -> dict[str, dict]:
    return {document["kind"]: document for document in yaml.safe_load_all((KUBERNETES / name).read_text())}


def _pod(name: str) -> dict:
    return _documents(name)["Deployment" if name.startswith("service-") else "Job"]["spec"]["template"]["spec"]


def _kit_command(argv: list[str]) -> list[str]:
    """The arguments after ``python -m autograder`` in a command line that runs the kit."""
    start = argv.index("-m")
    assert argv[start - 1].endswith(".venv/bin/python"), argv
    assert argv[start + 1] == "autograder", argv
    return argv[start + 2:]


def assert_real_kit_command(arguments: list[str]) -> None:
    """The command exists (its ``--help`` answers) and takes every option given to it."""
    words = [word for word in arguments if not word.startswith("-")]
    command = words[:2] if words[0] == "service" else words[:1]
    shown = subprocess.run([sys.executable, "-m", "autograder", *command, "--help"], capture_output=True,
                           text=True, cwd=KIT_ROOT, timeout=120)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    for option in (word for word in arguments if word.startswith("--")):
        assert re.search(rf"(^|\s|\[){re.escape(option)}\b", shown.stdout), f"{command} takes no {option}"


# systemd


def _unit_files() -> list[Path]:
    return sorted(SYSTEMD.glob("*.service"))


def test_the_units_are_the_web_and_a_template_for_n_workers():
    assert [path.name for path in _unit_files()] == ["autograder-web.service", "autograder-worker@.service"]


def test_systemd_verifies_the_units(tmp_path):
    """systemd's own verifier (unknown keys, bad values, an ExecStart that is not executable), on
    copies that point at this checkout instead of /opt/attention-kit."""
    assert shutil.which("systemd-analyze"), "systemd-analyze is missing: `make setup` installs Debian's systemd"
    for unit in _unit_files():
        (tmp_path / unit.name).write_text(unit.read_text().replace(UNIT_KIT_ROOT, str(KIT_ROOT)))
    names = [str(tmp_path / name) for name in ("autograder-web.service", "autograder-worker@3.service")]
    verified = subprocess.run(["systemd-analyze", "verify", *names], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout + verified.stderr == ""  # not even a warning (an unknown key is only one)


def _unit(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if re.match(r"^[A-Za-z]+=", line))


@pytest.mark.parametrize("unit", ["autograder-web.service", "autograder-worker@.service"])
def test_each_unit_starts_a_real_command_of_the_kit(unit):
    assert_real_kit_command(_kit_command(shlex.split(_unit(SYSTEMD / unit)["ExecStart"])))


def test_the_web_unit_never_runs_as_root_nor_grades():
    web = _unit(SYSTEMD / "autograder-web.service")
    assert web["User"] not in ("", "root", "0")
    assert web["NoNewPrivileges"] == "yes"
    assert web["CapabilityBoundingSet"] == ""
    assert _kit_command(shlex.split(web["ExecStart"]))[-2:] == ["--workers", "0"]
    worker = _unit(SYSTEMD / "autograder-worker@.service")
    assert "User" not in worker  # root: the sandbox needs it
    assert _kit_command(shlex.split(worker["ExecStart"])) == ["service", "worker"]


# The container image


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, its arguments) for each instruction, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", CONTAINERFILE.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [tuple(line.split(None, 1)) for line in lines]


def test_the_image_copies_the_kit_and_leaves_out_only_what_no_process_needs():
    tracked = subprocess.run(["git", "-C", str(KIT_ROOT), "ls-files", "-z"], capture_output=True, text=True,
                             check=True).stdout.split("\0")
    copied = set()
    for instruction, arguments in _instructions():
        if instruction == "COPY":
            *sources, target = arguments.split()
            assert target.startswith(IMAGE_KIT_ROOT)
            for source in sources:
                assert (KIT_ROOT / source).exists(), f"the Containerfile copies {source}, which is not in the kit"
                copied.add(source)
    top_level = {name.split("/")[0] for name in tracked if name}
    assert copied | NOT_IN_THE_IMAGE == top_level, "a top-level entry is neither copied into the image nor left out"


def test_the_image_installs_the_kit_as_make_setup_does():
    makefile = (KIT_ROOT / "Makefile").read_text()
    [run_install] = [arguments for instruction, arguments in _instructions() if "pip install" in arguments]
    [torch_pin] = set(re.findall(r"torch==[\d.]+", makefile))
    assert torch_pin in run_install
    python = re.search(r"^PYTHON \?= (\S+)", makefile, re.MULTILINE).group(1)
    assert run_install.startswith(f"{python} -m venv .venv")
    for editable in re.findall(r"-e '?([^'\s\[]+)", run_install):
        assert (KIT_ROOT / editable / "pyproject.toml").exists()
        assert re.search(rf"-e '?{re.escape(editable)}[\['\s]", makefile), f"make setup does not install {editable}"
    assert "-e '.[service]'" in run_install  # the image's default command is the service
    installs = re.findall(r"pip install [^&]*", run_install)[1:]  # after pip: torch, the kit, its student package
    assert all("-c constraints.txt" in install for install in installs), installs


def test_the_images_default_command_is_the_web_as_its_unprivileged_user():
    instructions = dict(_instructions())  # the last of each kind
    assert instructions["WORKDIR"] == IMAGE_KIT_ROOT
    user = instructions["USER"]
    assert user not in ("root", "0")
    assert re.search(rf"useradd .*--uid {user} ", CONTAINERFILE.read_text())  # the user the image makes
    command = json.loads(instructions["CMD"])
    assert_real_kit_command(_kit_command(command))
    assert command == _pod("service-web.yaml")["containers"][0]["command"]  # the Deployment runs the same
    assert int(user) == _pod("service-web.yaml")["securityContext"]["runAsUser"]


# Kubernetes


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("name", ["service-web.yaml", "service-workers.yaml"])
def test_every_document_passes_the_kubernetes_schema(name, version):
    for document in _documents(name).values():
        kubernetes_validate.validate(document, version, strict=True)  # raises ValidationError


def test_the_web_pod_is_never_root_and_takes_its_secrets_from_a_secret():
    pod = _pod("service-web.yaml")
    [container] = pod["containers"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert pod["automountServiceAccountToken"] is False
    assert_real_kit_command(_kit_command(container["command"]))
    assert container["command"][-2:] == ["--workers", "0"]
    environment = {variable["name"]: variable for variable in container["env"]}
    for secret in ("KIT_SERVICE_DATABASE_URL", "KIT_SERVICE_SECRET_KEY"):
        assert "secretKeyRef" in environment[secret]["valueFrom"]
    settings_page = KIT_ROOT / "docs" / "service" / "settings.md"
    documented = set(re.findall(r"`(KIT_SERVICE_[A-Z_]+)`", settings_page.read_text()))
    assert set(environment) <= documented, "the web pod sets a setting docs/service/settings.md does not document"
    assert "secretKeyRef" in environment["KIT_SERVICE_METRICS_TOKEN"]["valueFrom"]
    service = _documents("service-web.yaml")["Service"]["spec"]
    assert service["selector"].items() <= _documents("service-web.yaml")["Deployment"]["spec"]["template"][
        "metadata"]["labels"].items()
    assert service["ports"][0]["targetPort"] == container["ports"][0]["name"]


def test_the_web_pod_is_probed_at_the_services_own_health_and_readiness_addresses():
    """Liveness (and start-up) at /healthz, readiness at /readyz: addresses the web really serves,
    on its port, with a Host header its settings allow (Django answers no other host)."""
    [container] = _pod("service-web.yaml")["containers"]
    served = set(re.findall(r'path\("([^"<]+)"', (KIT_ROOT / "autograder" / "service" / "web" / "urls.py").read_text()))
    environment = {variable["name"]: variable.get("value") for variable in container["env"]}
    allowed = environment["KIT_SERVICE_ALLOWED_HOSTS"].split(",")
    paths = {}
    for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
        probe = container[kind]["httpGet"]
        assert probe["port"] == container["ports"][0]["name"]
        assert probe["path"].lstrip("/") in served, f"{kind} probes {probe['path']}, which the web does not serve"
        assert [header["value"] for header in probe["httpHeaders"] if header["name"] == "Host"][0] in allowed
        paths[kind] = probe["path"]
    assert paths == {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}


def test_the_worker_pods_are_exactly_as_privileged_as_the_indexed_jobs():
    """The same decisions as the Indexed Job's pods, whose command is run as a pod runs it in
    test_platform_kubernetes.py: no broader privilege for the service's workers."""
    worker, job = _pod("service-workers.yaml"), _pod("grade-indexed-job.yaml")
    [worker_container], [job_container] = worker["containers"], job["containers"]
    assert worker_container["securityContext"] == job_container["securityContext"]
    for key in ("securityContext", "automountServiceAccountToken", "enableServiceLinks"):
        assert worker[key] == job[key]
    # The same modes first (they keep the secrets from student code on nodes without Landlock).
    closing = job_container["args"][0].split("chmod 0700 /class")[0]
    [command] = worker_container["args"]
    assert command.startswith(closing)
    assert_real_kit_command(_kit_command(shlex.split(command.removeprefix(closing).removeprefix("exec "))))
    assert [variable["name"] for variable in worker_container["env"]] == ["KIT_SERVICE_DATABASE_URL"]
    assert "secretKeyRef" in worker_container["env"][0]["valueFrom"]
    assert {"cpu", "memory"} <= set(worker_container["resources"]["limits"])


def test_the_workers_reach_only_the_database_and_dns():
    documents = _documents("service-workers.yaml")
    policy = documents["NetworkPolicy"]["spec"]
    labels = documents["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    assert "ingress" not in policy
    ports = {(port["protocol"], port["port"]) for rule in policy["egress"] for port in rule["ports"]}
    assert ports == {("TCP", 5432), ("UDP", 53), ("TCP", 53)}
    assert all(set(rule) == {"ports"} for rule in policy["egress"])
