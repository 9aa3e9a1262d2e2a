"""Fixtures of the hidden tests.

Under the grading engine, ``student`` is parametrised over the submissions being graded
(see ``autograder.grading.plugin``). Run by hand, ``pytest autograder/hidden_tests`` grades
one notebook in a sandboxed worker: ``--submission PATH`` (default: each module's solution).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
import torch

from autograder.course.reference import load_reference
from autograder.grading import markers
from autograder.grading.plugin import GRADING_PLUGIN
from autograder.hidden import stand_ins
from autograder.paths import solution_notebook
from autograder.student.curriculum import CONSULTED, STAGES_BY_ASSIGNMENT, all_stages
from autograder.worker.precision import math_attention_kernel, pin_float32

DEVICES = ["cpu", "cuda", "mps"]
ALL_STAGES = frozenset(all_stages())
DTYPES = [torch.float32, torch.float64]


def pytest_addoption(parser):
    parser.addoption("--submission", default=None, help="notebook to grade (default: the solution)")


def _device_available(device: str) -> bool:
    if device == "cuda":
        return torch.cuda.is_available()
    if device == "mps":
        return torch.backends.mps.is_available()
    return True


@pytest.fixture(params=DEVICES)
def device(request) -> str:
    if not _device_available(request.param):
        pytest.skip(f"no {request.param} device on this machine")
    return request.param


@pytest.fixture(params=DTYPES, ids=["float32", "float64"])
def dtype(request) -> torch.dtype:
    return request.param


def pytest_configure(config):
    # The stage markers, from the curriculum: the grader's session reads no pyproject.toml's list.
    markers.declare(config)
    # One thread, as in the grader: tiny tensors only lose time to a thread pool.
    torch.set_num_threads(1)
    # TF32 would make correct GPU answers differ from the reference by about 1e-3, and the fused
    # attention kernels sum in another order. Set once for the session: only this trusted process
    # computes references (workers pin float32 again before every probe).
    pin_float32()
    math_attention_kernel()


@pytest.fixture(scope="module")
def reference(request):
    return load_reference(request.module.ASSIGNMENT)


@pytest.fixture(autouse=True)
def _graded_alone(request):
    """Each test of a stage that may call another of the student's pure function stages of its own
    accord (a ``simple_self_attention`` calling ``softmax_naive``) runs with the reference answering
    those calls (``grading.dependencies.CONSULTED``): one mistake costs only its own stage. So does a
    stage of the notebook whose cell did not load (a syntax error): a stage that calls it is graded
    with the reference in its place, not stopped by a name that never loaded."""
    stage = next((marker.name for marker in request.node.iter_markers() if marker.name in ALL_STAGES), None)
    student = request.getfixturevalue("student") if stage and "student" in request.fixturenames else None
    reference = request.getfixturevalue("reference") if student is not None else None
    own_stages = set(STAGES_BY_ASSIGNMENT.get(getattr(request.module, "ASSIGNMENT", ""), ()))
    names = sorted(name for name in CONSULTED & (set(student.defined) | own_stages) - {stage}
                   if hasattr(reference, name)) if student is not None else []
    with student.standing_in(*stand_ins.consulted(reference, names)) if names else contextlib.nullcontext():
        yield


@pytest.fixture(scope="module")
def student(request):
    grading = request.config.stash.get(GRADING_PLUGIN, None)
    if grading is not None:
        with grading.open_submission(request.param) as submission:
            yield submission
        return
    from autograder.sandbox.opener import open_notebook_submission

    option = request.config.getoption("--submission")
    path = Path(option) if option else solution_notebook(request.module.ASSIGNMENT)
    with open_notebook_submission(path) as submission:
        yield submission
