"""The kit as a package: what each use installs (pyproject.toml's extras), the versions pinned for CI
(constraints.txt), what a command without its optional part says, and what the wheel leaves out."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from autograder.extras import EXTRA_MODULES
from autograder.paths import KIT_ROOT
from autograder.worker.compat import tomllib

PROJECT = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SETUP_EXTRAS = re.search(r"^SETUP_EXTRAS := (\S+)$", (KIT_ROOT / "Makefile").read_text(), re.MULTILINE).group(1)
TEST_ONLY = ("safetensors", "nbclient", "ipykernel")  # imported by the kit's tests, never by autograder/

# Runs a module as `python -m` does, with the top-level package ``blocked`` refusing to import.
BLOCKED_RUN = """
import runpy, sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

sys.meta_path.insert(0, Refuse())
sys.argv = [{module!r}, *{args!r}]
runpy.run_module({module!r}, run_name="__main__", alter_sys=True)
"""


def _run_without(blocked: tuple[str, ...], module: str, *args: str) -> subprocess.CompletedProcess:
    script = BLOCKED_RUN.format(blocked=blocked, module=module, args=list(args))
    return subprocess.run([sys.executable, "-c", script], cwd=KIT_ROOT, capture_output=True, text=True, timeout=300)


def _requirements(*extras: str) -> list[Requirement]:
    listed = [*PROJECT["dependencies"], *(line for extra in extras for line in PROJECT["optional-dependencies"][extra])]
    return [Requirement(line) for line in listed]


@pytest.mark.parametrize(("extra", "module", "args"), [
    ("service", "autograder", ["serve", "--demo"]),
    ("service", "autograder", ["service", "migrate"]),
    ("nbgrader", "autograder", ["gradebook", "grading-output"]),
    ("nbgrader", "autograder.notebooks.building", []),
], ids=["serve", "service", "gradebook", "building"])
def test_a_command_without_its_optional_part_says_what_to_install(extra, module, args):
    done = _run_without(EXTRA_MODULES[extra][:1], module, *args)
    printed = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Traceback" not in printed, printed
    assert f"-m pip install -e '{KIT_ROOT}[{extra}]'" in printed, printed


def test_grading_needs_no_optional_part():
    blocked = tuple(module for modules in EXTRA_MODULES.values() for module in modules)
    done = _run_without(blocked, "autograder", "grade", "--help")
    assert done.returncode == 0, done.stdout + done.stderr


def test_packages_only_the_tests_import_are_development_dependencies():
    imported = set()
    for path in (KIT_ROOT / "autograder").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    runtime = {canonicalize_name(requirement.name) for requirement in _requirements()}
    development = {canonicalize_name(requirement.name) for requirement in _requirements("dev")} - runtime
    for package in TEST_ONLY:
        assert package not in imported, f"autograder/ imports {package}: it is a runtime dependency then"
        assert package not in runtime
        assert package in development


def test_every_dependency_make_setup_installs_is_pinned_in_the_constraints():
    pinned = {}
    for line in (KIT_ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not a pin (name==version); run make constraints"
            pinned[canonicalize_name(name)] = version
    assert "torch" not in pinned  # the Makefile pins it
    assert not {"attention-kit", "attention-kit-student"} & set(pinned)  # installed editable from here
    wanted = [requirement for requirement in _requirements(*SETUP_EXTRAS.split(","))
              if requirement.name != "torch" and (requirement.marker is None or requirement.marker.evaluate())]
    missing = sorted(requirement.name for requirement in wanted if canonicalize_name(requirement.name) not in pinned)
    assert missing == [], f"not in constraints.txt: {missing}; run make constraints"
    outside = [f"{requirement.name}=={pinned[canonicalize_name(requirement.name)]}" for requirement in wanted
               if pinned[canonicalize_name(requirement.name)] not in requirement.specifier]
    assert outside == [], f"constraints.txt pins versions pyproject.toml excludes: {outside}; run make constraints"


@pytest.mark.slow
def test_the_wheel_holds_neither_the_developer_tools_nor_the_tests(tmp_path):
    """The code that runs student code without a sandbox (the benchmark's floor) and the tests'
    helpers never reach an installed kit."""
    source = tmp_path / "kit"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=KIT_ROOT, check=True, capture_output=True, text=True).stdout
    for name in filter(None, listed.split("\0")):
        if (KIT_ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(KIT_ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--quiet", "--no-isolation", "--outdir",
                    str(tmp_path / "dist"), str(source)], check=True, capture_output=True, timeout=600)
    [wheel] = (tmp_path / "dist").glob("attention_kit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "autograder/cli.py" in names
    assert "autograder/hidden_tests/conftest.py" in names
    assert "autograder/service/lti/demo_platform/templates/home.html" in names  # make lti-demo's LMS, installed too
    # The service's stylesheets (served from the installed package) and its LTI pages.
    static = "autograder/service/web/static/"
    for name in ("pico.classless.min.css", "pico.LICENSE.md", "vendored.json", "kit.css"):
        assert static + name in names
    assert "autograder/service/web/templates/service/lti/deep_link.html" in names
    shipped = [name for name in names if name.startswith(("tools/", "tests/"))
               or name.rsplit("/", 1)[-1] in ("inprocess.py", "scratch_postgres.py", "bench.py")]
    assert shipped == []


def _installed_closure(names: list[str]) -> set[str]:
    """``names`` and everything they require, as installed here (no extras)."""
    seen, waiting = set(), list(names)
    while waiting:
        name = canonicalize_name(waiting.pop())
        if name not in seen:
            seen.add(name)
            for line in importlib.metadata.requires(name) or []:
                requirement = Requirement(line)
                if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                    waiting.append(requirement.name)
    return seen


def test_the_gpu_wheels_hold_everything_a_pytorch_image_may_lack():
    """`make gpu-wheels` is all an air-gapped GPU node gets besides torch, NumPy and their dependencies: a
    package missing from it stops `make gpu-check` there at its first import (an H200 image lacked
    latex2mathml and mdit-py-plugins, which the list had left out)."""
    makefile = (KIT_ROOT / "Makefile").read_text()
    listed = re.search(r"^GPU_WHEELS := ((?:.*\\\n)*.*)$", makefile, re.MULTILINE).group(1)
    wheels = {canonicalize_name(name) for name in listed.split() if name != "\\"}
    # The kit, and what tests/test_on_gpu.py's conftest imports (pytest-xdist's groups, requests).
    needed = _installed_closure(["attention-kit", "pytest-xdist", "requests"]) - {"attention-kit"}
    missing = needed - _installed_closure(["torch", "numpy"]) - wheels
    assert not missing, f"add to GPU_WHEELS in the Makefile: {sorted(missing)}"
