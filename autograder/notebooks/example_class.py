"""Generate ``source_data/example_class/``: the small class that ``make demo`` grades.

Four students show the range an instructor meets: full marks, partial work with typical
mistakes, untouched stubs, and broken submissions. Run ``python -m autograder.notebooks.example_class``
(part of ``make assignments``); a kit test fails when the committed copy is stale.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from autograder.notebooks.variants import (
    filled,
    load_solution,
    load_student,
    with_answer,
    with_replacement,
    write_submission,
)
from autograder.paths import SOURCE_DATA_DIR
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT

EXAMPLE_CLASS_DIR = SOURCE_DATA_DIR / "example_class"


def complete_notebook(assignment_id: str) -> dict:
    return filled(load_student(assignment_id), load_solution(assignment_id), STAGES_BY_ASSIGNMENT[assignment_id])


def partial_notebook(assignment_id: str) -> dict | None:
    """Typical work in progress: the first stages done, two of them with a classic mistake."""
    stages = STAGES_BY_ASSIGNMENT[assignment_id]
    if assignment_id == "01_attention_scores":
        notebook = filled(load_student(assignment_id), load_solution(assignment_id), stages)
        return with_replacement(notebook, "softmax_naive", "sum(dim=dim", "sum(dim=0")  # wrong dim
    if assignment_id == "02_self_attention":
        notebook = filled(load_student(assignment_id), load_solution(assignment_id), stages[:2])
        return with_replacement(notebook, "scaled_dot_product_scores", "scores / d_k**0.5", "scores")
    if assignment_id == "03_causal_attention":
        return filled(load_student(assignment_id), load_solution(assignment_id), stages[: len(stages) // 2])
    return None  # never started the last notebook


def broken_notebook(assignment_id: str) -> dict | str | None:
    """Submissions that go wrong in the ways a grader must survive."""
    if assignment_id == "01_attention_scores":
        return '{"cells": [{"cell_type": "code", "source": "def attention'  # a truncated upload
    if assignment_id == "02_self_attention":
        notebook = complete_notebook(assignment_id)
        return with_replacement(notebook, "SelfAttention_v2", "def forward(self, x):", "def forward(self, x)")
    if assignment_id == "03_causal_attention":
        endless = "def causal_mask(num_tokens, device=None):\n    while True:\n        pass\n"
        return with_answer(complete_notebook(assignment_id), "causal_mask", endless)
    return None


def build(out_dir: Path) -> None:
    """Write the example class into ``out_dir`` (replacing what was there)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    for assignment_id in ASSIGNMENTS:
        write_submission(out_dir, "ada_full_marks", assignment_id, complete_notebook(assignment_id))
        write_submission(out_dir, "cy_untouched_stubs", assignment_id, load_student(assignment_id))
        for student_id, make in (("ben_partial", partial_notebook), ("dee_broken", broken_notebook)):
            notebook = make(assignment_id)
            if notebook is not None:
                write_submission(out_dir, student_id, assignment_id, notebook)
    misnamed = out_dir / "dee_broken" / "04_multi_head_attention"
    misnamed.mkdir(parents=True)
    (misnamed / "multihead (1).ipynb").write_text("{}")  # a renamed download


def main() -> int:
    build(EXAMPLE_CLASS_DIR)
    print(f"wrote {EXAMPLE_CLASS_DIR.relative_to(EXAMPLE_CLASS_DIR.parents[1])}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
