"""A small class of submissions, graded once per test run, for the tests of the platform adapters.

ada answered everything, ben normalised his softmax over the wrong dimension (a named mistake),
cy left the stubs, dee submitted nothing and eve's file is not a notebook. ada predicted that
softmax_naive gives "nan" for large scores and opened the third hint of softmax_stable (an output
that records it); ben predicted "weights" and called the first hint of softmax_naive. The grading
command runs for real, with ``--junit`` and ``--fail-under 50``.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from autograder.notebooks.variants import filled, load_solution, load_student, with_answer, write_submission
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

ASSIGNMENT = "01_attention_scores"
FAIL_UNDER = 50
WRONG_DIM_SOFTMAX = (
    "import torch\n\n"
    "def softmax_naive(x, dim=-1):\n"
    "    exps = torch.exp(x)\n"
    "    return exps / exps.sum(dim=0, keepdim=True)\n"
)


@dataclass(frozen=True)
class GradedClass:
    submitted: Path
    out: Path
    junit: Path
    result: subprocess.CompletedProcess


def complete_notebook() -> dict:
    """The student notebook with every answer filled in from the solution."""
    return filled(load_student(ASSIGNMENT), load_solution(ASSIGNMENT), STAGES_BY_ASSIGNMENT[ASSIGNMENT])


def wrong_dim_notebook() -> dict:
    """A complete notebook whose softmax_naive sums over dim 0 (the mistake softmax_wrong_dim)."""
    return with_answer(complete_notebook(), "softmax_naive", WRONG_DIM_SOFTMAX)


def with_learning(notebook: dict, prediction: str, hint_call: str | None = None,
                  hint_output: tuple[str, int] | None = None) -> dict:
    """``notebook`` with its naive_overflow prediction answered, and a hint called in a cell or
    recorded in a cell's outputs, as the student package records one."""
    for cell in notebook["cells"]:
        if cell.get("id") == "predict-overflow":
            cell["source"] = f'predict("naive_overflow", {prediction!r})'
        if cell.get("id") == "check-softmax_stable" and hint_output:
            stage, tier = hint_output
            cell["outputs"] = [{"output_type": "display_data", "data": {"text/plain": "💡"},
                                "metadata": {"attention_kit": {"hint": {"stage": stage, "tier": tier}}}}]
        if cell.get("id") == "check-softmax_naive" and hint_call:
            cell["source"] += f"\n{hint_call}"
    return notebook


def write_class(submitted: Path) -> None:
    write_submission(submitted, "ada", ASSIGNMENT, with_learning(complete_notebook(), "nan",
                                                                 hint_output=("softmax_stable", 3)))
    write_submission(submitted, "ben", ASSIGNMENT, with_learning(wrong_dim_notebook(), "weights",
                                                                 hint_call='hint("softmax_naive")'))
    write_submission(submitted, "cy", ASSIGNMENT, load_student(ASSIGNMENT))
    (submitted / "dee").mkdir(parents=True)
    write_submission(submitted, "eve", ASSIGNMENT, "this is not a notebook")


@functools.cache
def _grade_once(root: Path) -> GradedClass:
    submitted, out = root / "submitted", root / "out"
    write_class(submitted)
    junit = out / "junit.xml"
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), "--jobs", "2",
               "--junit", str(junit), "--fail-under", str(FAIL_UNDER)]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=600)
    return GradedClass(submitted, out, junit, result)


def graded_class(tmp_path_factory) -> GradedClass:
    """The class above, graded once per test session (the first caller's temporary folder)."""
    return _grade_once(tmp_path_factory.getbasetemp() / "platform-class")
