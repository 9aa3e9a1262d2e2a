"""The folder tree is the trust boundary: these tests fail when code crosses it.

- ``autograder/worker/`` runs inside the sandbox, next to student code: it imports nothing from
  the rest of the kit (no grading, reference, rubric or hidden-test code can reach a worker).
- ``autograder/student/`` is the student package (``attention_kit_student`` once built): it
  imports nothing from the rest of the kit, and only relatively, so it works under either name.
- Reading results (``autograder.records.results`` and what reads outputs) does not load torch.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from autograder.paths import KIT_ROOT
from autograder.probes.client import Submission
from autograder.reading.notebook import extract_definitions
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.sandbox.session import ForkServerChannel, WorkerSession
from autograder.worker.compat import tomllib

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


def test_the_layers_contracts_hold():
    """``lint-imports`` over pyproject.toml's contracts: the layers, the web process's imports, and
    the results' readers without torch."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint_imports), "--no-cache"], capture_output=True, text=True, cwd=KIT_ROOT)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_the_architecture_diagram_is_the_layers_contract():
    """ARCHITECTURE.md's diagram draws the layers that lint-imports checks, in the same order."""
    with (KIT_ROOT / "pyproject.toml").open("rb") as handle:
        contracts = tomllib.load(handle)["tool"]["importlinter"]["contracts"]
    layers = next(contract["layers"] for contract in contracts if contract["id"] == "layers")
    diagram = (KIT_ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").split("```mermaid", 1)[1].split("```")[0]
    drawn = dict(re.findall(r'\bL(\d+)\["([^"]+)"\]', diagram))
    assert [drawn[str(index)] for index in range(len(drawn))] == layers


def _package_of(path: Path) -> str:
    """The top-level part of the kit a file belongs to: its folder under autograder/, or the module itself."""
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _package_graph() -> dict[str, dict[str, list[str]]]:
    """Which top-level packages of the kit each one imports, with where (``file:line``): every
    import, those inside functions too (a lazy import is a dependency all the same), and the
    folders that are no package (``hidden_tests/``, which pytest imports) as well."""
    graph: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = _package_of(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] == "autograder" and len(parts) > 1 and parts[1] != importer:
                    graph[importer][parts[1]].append(f"{path.relative_to(KIT_ROOT)}:{node.lineno}")
    return graph


def _a_cycle(graph: dict[str, dict[str, list[str]]]) -> list[str] | None:
    """The packages of one import cycle, the first again at the end (None: there is none)."""
    state: dict[str, str] = {}  # "open" while on the path being followed, "done" after

    def follow(package: str, path: list[str]) -> list[str] | None:
        state[package] = "open"
        for imported in sorted(graph.get(package, {})):
            if state.get(imported) == "open":
                return path[path.index(imported):] + [imported]
            if imported not in state and (cycle := follow(imported, [*path, imported])):
                return cycle
        state[package] = "done"
        return None

    return next((cycle for package in sorted(graph) if package not in state
                 for cycle in [follow(package, [package])] if cycle), None)


def _described(cycle: list[str], graph: dict[str, dict[str, list[str]]]) -> str:
    """A cycle as a failure says it: its packages, then the first imports that make each step."""
    steps = [f"  {importer} -> {imported}: {', '.join(graph[importer][imported][:3])}"
             for importer, imported in zip(cycle, cycle[1:], strict=False)]
    return "\n".join(["an import cycle: " + " -> ".join(cycle), *steps])


def test_the_packages_import_one_another_without_a_cycle():
    graph = _package_graph()
    assert "records" in graph["grading"]  # the graph sees the kit's imports
    assert "grading" in graph["hidden_tests"]  # and the hidden tests' folder, which is no package
    cycle = _a_cycle(graph)
    assert cycle is None, _described(cycle, graph)


def test_a_cycle_is_named_with_the_imports_that_make_it():
    graph = {"a": {"b": ["a.py:1"]}, "b": {"c": ["b.py:1"]}, "c": {"a": ["c.py:1"]}, "d": {"a": ["d.py:1"]}}
    assert _a_cycle(graph) == ["a", "b", "c", "a"]
    assert _described(["a", "b", "c", "a"], graph).splitlines() == [
        "an import cycle: a -> b -> c -> a", "  a -> b: a.py:1", "  b -> c: b.py:1", "  c -> a: c.py:1"]
    assert _a_cycle({"a": {"b": ["a.py:1"]}, "b": {}}) is None
