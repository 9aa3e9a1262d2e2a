"""On a machine with CUDA: the hidden tests' GPU instances, through the real sandbox.

The meta-class of ``test_hidden_tests`` (solutions, correct idioms in every style, stubs and
the whole mutant corpus) is graded with ``--device auto``, so every numeric test also runs on
the GPU, in sandboxed CUDA workers. Correct code must pass every GPU instance; a mistake must
not fail on the GPU where it passes on the CPU (its cost would then depend on the machine, and
the meta-device checks would have missed it). The example class must give the same grades.csv
on cpu, cuda and auto. ``make gpu-check`` runs this file with the doctor and the timings.

Without CUDA every test here is skipped, saying why: the rest of the suite covers what a CPU
machine can show (``test_gpu_support``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch
from meta_class import ALTERNATIVES
from mutations import CORPUS

from autograder.notebooks.example_class import EXAMPLE_CLASS_DIR
from autograder.records.results import GradedRow
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.nvidia import cuda_driver_problem, nvidia_driver

# Asked of NVML, not of torch.cuda: this process may fork (the benchmark's floor, in other tests).
_PROBLEM = cuda_driver_problem(nvidia_driver(), torch.version.cuda)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("meta-class"),  # the meta-class is graded once
              pytest.mark.skipif(bool(_PROBLEM), reason=f"no usable CUDA here: {_PROBLEM}")]


def _on(device: str, row: GradedRow) -> list:
    return [test for test in row.tests if f"[{device}" in test.name or f"-{device}" in test.name]


def _correct_rows(graded) -> list[GradedRow]:
    rows = [graded[("solution", assignment)] for assignment in ASSIGNMENTS]
    return rows + [row for (student, _), row in graded.items()
                   if student in {f"alternative_{path.stem}" for path in ALTERNATIVES}]


def test_the_gpu_was_tested(graded):
    row = graded[("solution", ASSIGNMENTS[0])]
    assert row.devices == ("cpu", "cuda")
    assert _on("cuda", row), "no test instance ran on cuda"


def test_correct_code_passes_every_gpu_instance(graded):
    failing = {(row.student_id, row.assignment_id): [f"{test.name}: {test.message()[:200]}"
                                                     for test in _on("cuda", row) if not test.passed]
               for row in _correct_rows(graded)}
    assert not {key: tests for key, tests in failing.items() if tests}


def test_no_mistake_fails_on_the_gpu_only(graded):
    """Where a mutant fails on the GPU, it fails on the CPU too (value or meta-device checks)."""
    gpu_only = {}
    for mutation in CORPUS:
        row = graded[(mutation.name, mutation.assignment)]
        on_cpu = {test.stage for test in row.tests if not test.passed and "cuda" not in test.name}
        on_gpu = {test.stage for test in _on("cuda", row) if not test.passed}
        if on_gpu - on_cpu:
            gpu_only[mutation.name] = sorted(on_gpu - on_cpu)
    assert not gpu_only


def test_the_example_class_grades_the_same_on_cpu_cuda_and_auto(tmp_path):
    grades = {}
    for device in ("cpu", "cuda", "auto"):
        out = tmp_path / device
        result = subprocess.run([sys.executable, "-m", "autograder", "grade", str(EXAMPLE_CLASS_DIR), "--out", str(out),
                                 "--jobs", "2", "--device", device], capture_output=True, text=True, timeout=1200)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        grades[device] = (out / "grades.csv").read_text()
    assert grades["cpu"] == grades["cuda"] == grades["auto"]


def test_the_doctor_makes_a_cuda_context_in_the_sandbox():
    result = subprocess.run([sys.executable, "-m", "autograder", "doctor", "--device", "cuda"], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "CUDA in the sandbox:" in result.stdout
    assert "grade would grade, on cpu, cuda" in result.stdout
