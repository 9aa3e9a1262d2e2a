"""The folder tree is the trust boundary: these tests fail when code crosses it.

- ``autograder/worker/`` runs inside the sandbox, next to student code: it imports nothing from
  the rest of the kit (no grading, reference, rubric or hidden-test code can reach a worker).
- ``autograder/student/`` is the student package (``attention_kit_student`` once built): it
  imports nothing from the rest of the kit, and only relatively, so it works under either name.
- Reading results (``autograder.records.results`` and what reads outputs) does not load torch.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.paths import KIT_ROOT
from autograder.probes.client import Submission
from autograder.reading.notebook import extract_definitions
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.sandbox.session import ForkServerChannel, WorkerSession

PACKAGE = KIT_ROOT / "autograder"


def _kit_imports(path: Path) -> dict[str, bool]:
    """The ``autograder`` modules a file imports, each with whether the import is relative
    (resolved from the file's own package)."""
    package = path.relative_to(KIT_ROOT).with_suffix("").parts[:-1]
    found = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name: False for alias in node.names if alias.name.split(".")[0] == "autograder"}
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = ".".join(package[:len(package) - node.level + 1] + ((node.module,) if node.module else ()))
            found |= {f"{base}.{alias.name}": True for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "autograder":
            found |= {f"{node.module}.{alias.name}": False for alias in node.names}
    return found


@pytest.mark.parametrize(("side", "allowed"), [("worker", "autograder.worker"), ("student", "autograder.student")])
def test_a_side_of_the_boundary_imports_only_itself(side, allowed):
    crossing = {str(path.relative_to(KIT_ROOT)): sorted(name for name in _kit_imports(path)
                                                        if not name.startswith(allowed + "."))
                for path in sorted((PACKAGE / side).rglob("*.py"))}
    assert {path: names for path, names in crossing.items() if names} == {}


def test_only_the_student_package_imports_relatively():
    """The student package is built under another name, so it must name none of its modules;
    the rest of the kit names every module it imports, so a grep finds them all."""
    for path in sorted(PACKAGE.rglob("*.py")):
        student = (PACKAGE / "student") in path.parents
        wrong = sorted(name for name, relative in _kit_imports(path).items() if relative != student)
        assert wrong == [], f"{path.relative_to(KIT_ROOT)}: {'absolute' if student else 'relative'} imports {wrong}"


def _modules_after_import(module: str) -> list[str]:
    script = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=KIT_ROOT)
    return result.stdout.split()


@pytest.mark.parametrize("module", ["autograder.records.results", "autograder.records.files",
                                    "autograder.grading.outputs", "autograder.feedback.report",
                                    "autograder.platforms.junit", "autograder.platforms.gradescope.results"])
def test_reading_results_does_not_load_torch(module):
    assert "torch" not in _modules_after_import(module)


def test_the_student_package_loads_no_grading_code():
    loaded = _modules_after_import("attention_kit_student.selfcheck")
    assert "attention_kit_student.selfcheck.runner" in loaded
    assert [name for name in loaded if name.split(".")[0] == "autograder"] == []


def test_a_real_worker_holds_no_grading_code(tmp_path):
    """What a sandboxed worker has loaded is what student code can reach: only the worker side
    and the student package (the fork server preloads it for the notebooks' imports)."""
    code = extract_definitions({"cells": [{"cell_type": "code", "source": (
        "import sys\n\ndef loaded():\n"
        "    return sorted(name for name in sys.modules if name.split('.')[0] == 'autograder')\n")}]})
    forkserver = ForkServer()
    sandbox = standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path)])
    worker = WorkerSession(ForkServerChannel(forkserver.control(0)), code, sandbox, timeout=30)
    try:
        ready = worker.start()
        loaded = Submission(worker, ready.defined, ready.load_problems, ready.isolation).call("loaded")
    finally:
        worker.close()
        forkserver.close()
    assert "autograder.worker.probe_server" in loaded
    outside = [name for name in loaded if name != "autograder" and not name.startswith("autograder.worker")]
    assert outside == []
