"""The hostile class, graded once per test session by the real command (see containment.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from containment import GradingRun, control_id, grade_contained
from hostile_corpus import Context, hostile_submissions

from autograder.curriculum import ASSIGNMENTS
from autograder.notebook_variants import load_solution
from autograder.paths import KIT_ROOT

# Short limits keep the suite fast; the memory limit is low enough that a bomb stops quickly
# and high enough for the solutions (GPT-2 small's attention included).
GRADE_ARGS = ["--jobs", "2", "--timeout", "3", "--memory-gib", "1.5", "--device", "cpu"]


def make_context(root: Path, world_writable: Path | None = None) -> Context:
    return Context(kit_root=KIT_ROOT, submitted=root / "submitted", out=root / "out",
                   canary=root / "canary.txt", markers=root / "markers", world_writable=world_writable)


@contextlib.contextmanager
def world_writable_folder():
    """A folder anyone may write to, outside every scratch folder the workers get (like /var/crash
    or /var/mail on many machines): workers must not write there either. Removed afterwards."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="attention-kit-adversarial-", dir="/var"))
    except OSError:
        yield None
        return
    try:
        folder.chmod(0o1777)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def hostile_run(tmp_path_factory) -> GradingRun:
    if os.geteuid() != 0:
        pytest.skip("the adversarial suite checks the isolation of a grader run as root, as in CI"
                    " (run it as root; test_fallback_isolation covers the unprivileged grader)")
    with world_writable_folder() as world_writable:
        context = make_context(tmp_path_factory.mktemp("adversarial"), world_writable)
        controls = {control_id(assignment): (assignment, load_solution(assignment)) for assignment in ASSIGNMENTS}
        return grade_contained(context, hostile_submissions(), GRADE_ARGS, students=controls)
