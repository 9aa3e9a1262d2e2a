"""The meta-class: every submission the kit's own tests grade to check the hidden tests (the
solutions, their stubs, correct answers in other styles, the whole mutant corpus and a scratch
redefinition), graded in one engine call per test session (``graded``, a fixture of
``conftest.py``: ``test_hidden_tests`` and ``test_on_gpu`` share it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from mutations import CORPUS

from autograder.grading.engine import grade_class
from autograder.notebooks.variants import (
    load_solution,
    stubbed,
    with_answer,
    with_cell,
    with_replacement,
    write_submission,
)
from autograder.records.jobs import GradeOptions
from autograder.records.results import GradedRow
from autograder.student.curriculum import ASSIGNMENTS, assignment_of

ALTERNATIVES_DIR = Path(__file__).resolve().parent / "alternative_answers"
# Correct answers in other styles than the solution's: one module per style, one submission each.
ALTERNATIVES = sorted(ALTERNATIVES_DIR.glob("*.py"))


def alternative_answers(path: Path) -> tuple[str, dict[str, str]]:
    """A style module's assignment and its answer cells by stage: each top-level definition
    replaces the answer cell of the stage it is named after, with the module's imports and
    constants above it."""
    source = path.read_text()
    tree = ast.parse(source)
    shared = "".join(ast.get_source_segment(source, node) + "\n" for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)))
    answers = {node.name: f"{shared}\n\n{ast.get_source_segment(source, node)}\n" for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assignments = {assignment_of(stage) for stage in answers}
    assert len(assignments) == 1, f"{path.name} answers stages of {assignments}"
    return assignments.pop(), answers


def alternative_notebook(path: Path) -> tuple[str, dict]:
    """The assignment of a style module, and its solution notebook with the module's answers."""
    assignment_id, answers = alternative_answers(path)
    notebook = load_solution(assignment_id)
    for stage, answer in answers.items():
        notebook = with_answer(notebook, stage, answer)
    return assignment_id, notebook


# Notebooks where a stage calls another stage of the student's own accord, and that one is wrong:
# (name, assignment, the called stage and the callers, and the (stage, old, new) changes to the
# solution). The callers must keep their points (``grading.dependencies.CONSULTED``).
_SCORES_THEN_SOFTMAX = ("attn_scores = queries @ keys.T  # (T, d_out) @ (d_out, T) -> (T, T)\n"
                        "        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)  # (T, T)")
COMPOSITIONS = [
    ("composed_softmax_naive", "01_attention_scores", "softmax_naive", ["simple_self_attention"], [
        ("softmax_naive", "exp_x.sum(dim=dim, keepdim=True)", "exp_x.sum(dim=0, keepdim=True)"),
        ("simple_self_attention", "torch.softmax(attn_scores, dim=-1)", "softmax_naive(attn_scores)")]),
    ("composed_scaled_scores", "02_self_attention", "scaled_dot_product_scores",
     ["SelfAttention_v1", "SelfAttention_v2"], [
         ("scaled_dot_product_scores", "return scores / d_k**0.5", "return scores / d_k"),
         *((stage, _SCORES_THEN_SOFTMAX,
            "attn_weights = torch.softmax(scaled_dot_product_scores(queries, keys), dim=-1)  # (T, T)")
           for stage in ("SelfAttention_v1", "SelfAttention_v2"))]),
    ("composed_masked_softmax", "03_causal_attention", "masked_softmax", ["CausalAttention"], [
        ("masked_softmax", "attn_scores.masked_fill(future, -torch.inf)", "attn_scores.masked_fill(future, 0.0)"),
        ("CausalAttention", "attn_scores = attn_scores.masked_fill(future, -torch.inf)\n"
         "        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)  # (b, T, T)",
         "attn_weights = masked_softmax(attn_scores, keys.shape[-1])  # (b, T, T)")]),
    ("composed_causal_mask", "03_causal_attention", "causal_mask", ["masked_softmax"], [
        ("causal_mask", "torch.triu(ones, diagonal=1)", "torch.triu(ones, diagonal=0)"),
        ("masked_softmax", "future = torch.triu(\n        torch.ones(num_tokens, num_tokens, dtype=torch.bool,"
         " device=attn_scores.device),\n        diagonal=1,\n    )",
         "future = causal_mask(num_tokens, attn_scores.device)")]),
    # A mask made on the CPU whatever the device: the caller's device check runs on the stand-in GPU.
    ("composed_causal_mask_on_cpu", "03_causal_attention", "causal_mask", ["masked_softmax"], [
        ("causal_mask", "dtype=torch.bool, device=device)", "dtype=torch.bool)"),
        ("masked_softmax", "future = torch.triu(\n        torch.ones(num_tokens, num_tokens, dtype=torch.bool,"
         " device=attn_scores.device),\n        diagonal=1,\n    )",
         "future = causal_mask(num_tokens, attn_scores.device)")]),
]


def composition_notebook(assignment_id: str, changes: list[tuple[str, str, str]]) -> dict:
    notebook = load_solution(assignment_id)
    for stage, old, new in changes:
        notebook = with_replacement(notebook, stage, old, new)
    return notebook


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> dict[tuple[str, str], GradedRow]:
    """Every submission of the meta-class, graded in one engine call, by (student, assignment)."""
    root = tmp_path_factory.mktemp("meta_class")
    submitted = root / "submitted"
    for assignment_id in ASSIGNMENTS:
        solution = load_solution(assignment_id)
        write_submission(submitted, "solution", assignment_id, solution)
        write_submission(submitted, "stubs", assignment_id, stubbed(solution))
    for path in ALTERNATIVES:
        assignment_id, notebook = alternative_notebook(path)
        write_submission(submitted, f"alternative_{path.stem}", assignment_id, notebook)
    for mutation in CORPUS:
        write_submission(submitted, mutation.name, mutation.assignment, mutation.notebook())
    for name, assignment_id, _, _, changes in COMPOSITIONS:
        write_submission(submitted, name, assignment_id, composition_notebook(assignment_id, changes))
    scratch = with_cell(load_solution("01_attention_scores"), "def softmax_naive(x, dim=-1):\n    return x\n")
    write_submission(submitted, "scratch_redefinition", "01_attention_scores", scratch)
    rows = grade_class(submitted, root / "out", GradeOptions(jobs=2))
    return {(row.student_id, row.assignment_id): row for row in rows if row.status.text() != "missing"}
