"""The course notebooks: how they are stored, what they define, and what they print when run."""

from __future__ import annotations

import json
import os
import re

import nbformat
import pytest
from kit_notebooks import errors, execute_notebooks, load_definitions, notebook_paths, printed_text

from autograder.course.paths import solution_notebook, student_notebook
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages, assignment_of

ANSWER_METADATA_KEYS = {"grade", "grade_id", "locked", "schema_version", "solution", "task"}

# The book's printed values (whitespace collapsed), with the first row of each module's output.
BOOK_VALUES = {
    "01_attention_scores": [
        "tensor([0.9544, 1.4950, 1.4754, 0.8434, 0.7070, 1.0865])",  # scores of query 2
        "tensor([0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581])",  # softmax_naive weights
        "tensor([0.4419, 0.6515, 0.5683])",  # context vector z(2)
    ],
    "02_self_attention": [
        "tensor([0.4306, 1.4551])",  # query of token 2, seed 123
        "tensor([0.3061, 0.8210])",  # its context vector
        "tensor([[0.2996, 0.8053],",  # SelfAttention_v1, seed 123
        "tensor([[-0.0739, 0.0713],",  # SelfAttention_v2, seed 789
    ],
    "03_causal_attention": [
        "[0.5517, 0.4483, 0.0000, 0.0000, 0.0000, 0.0000]",  # masked, renormalised weights
        "tensor([[[-0.4519, 0.2216],",  # CausalAttention, seed 123
        "context_vecs.shape: torch.Size([2, 6, 2])",
    ],
    "04_multi_head_attention": [
        "tensor([[[-0.4519, 0.2216, 0.4772, 0.1063],",  # MultiHeadAttentionWrapper, seed 123
        "tensor([[[0.3190, 0.4858],",  # MultiHeadAttention, seed 123
        "2,360,064 parameters",  # exercise 3.3
    ],
}


def _cells(path):
    return nbformat.read(path, as_version=4).cells


def _answer_cells(path):
    return [cell for cell in _cells(path) if cell.metadata.get("nbgrader", {}).get("solution")]


# ---------------------------------------------------------------- storage and structure (fast)


@pytest.mark.parametrize("key", list(notebook_paths()))
def test_notebook_is_stored_clean(key):
    path = notebook_paths()[key]
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert (raw["nbformat"], raw["nbformat_minor"]) == (4, 5)
    assert raw["metadata"]["kernelspec"]["name"] == "python3"
    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    ids = [cell["id"] for cell in raw["cells"]]
    assert len(ids) == len(set(ids)), "cell ids must be unique"
    for cell in raw["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"cell {cell['id']} has stored outputs"
            assert cell["execution_count"] is None, f"cell {cell['id']} has an execution count"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_one_answer_cell_per_stage_in_curriculum_order(assignment):
    cells = _cells(solution_notebook(assignment))
    answers = [cell for cell in cells if cell.metadata.get("nbgrader", {}).get("solution")]
    assert [cell.metadata["nbgrader"]["grade_id"] for cell in answers] == STAGES_BY_ASSIGNMENT[assignment]
    for cell in answers:
        stage = cell.metadata["nbgrader"]["grade_id"]
        assert cell.metadata["nbgrader"] == {
            "grade": False,
            "grade_id": stage,
            "locked": False,
            "schema_version": 3,
            "solution": True,
            "task": False,
        }
        assert cell.source.count("### BEGIN SOLUTION") == cell.source.count("### END SOLUTION") >= 1
        assert re.search(rf"^(def|class) {stage}\b", cell.source, re.MULTILINE), f"{stage} is not defined in its cell"
        following = cells[cells.index(cell) + 1]
        assert following.source == f'check("{stage}")', f"the cell after {stage} should run its check"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_notebook_has_named_stubs_and_no_solution(assignment):
    path = student_notebook(assignment)
    text = path.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text
    assert "END SOLUTION" not in text
    answers = _answer_cells(path)
    assert [cell.metadata["nbgrader"]["grade_id"] for cell in answers] == STAGES_BY_ASSIGNMENT[assignment]
    for cell in answers:
        stage = cell.metadata["nbgrader"]["grade_id"]
        assert f'raise NotImplementedError("{stage}: replace this line with your code")' in cell.source
        assert "NotImplementedError()" not in cell.source


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_notebook_keeps_every_cell_but_the_solutions(assignment):
    solution, student = _cells(solution_notebook(assignment)), _cells(student_notebook(assignment))
    assert [cell.id for cell in solution] == [cell.id for cell in student]
    for master, released in zip(solution, student, strict=True):
        if "nbgrader" not in master.metadata:
            assert master.source == released.source, f"cell {master.id} changed on release"


@pytest.mark.parametrize("key", list(notebook_paths()))
def test_definitions_load_like_the_grader_loads_them(key):
    """The reference loader fails on any definition block that raises: none may."""
    namespace, failures = load_definitions(notebook_paths()[key])
    assert failures == []
    assignment = key.split("/")[1]
    assert set(STAGES_BY_ASSIGNMENT[assignment]) <= set(namespace)


def test_provided_causal_attention_matches_notebook_3():
    """Notebook 4 ships CausalAttention so it does not depend on the student's notebook 3."""
    (answer,) = [cell for cell in _answer_cells(solution_notebook("03_causal_attention"))
                 if cell.metadata["nbgrader"]["grade_id"] == "CausalAttention"]
    without_markers = "\n".join(line for line in answer.source.split("\n") if "SOLUTION" not in line)
    (provided,) = [cell for cell in _cells(solution_notebook("04_multi_head_attention"))
                   if cell.id == "provided-CausalAttention"]
    assert provided.source == without_markers
    # Read-only and loaded for grading: the grading contract counts a given cell's definitions.
    assert provided.metadata["nbgrader"] == {"grade": False, "grade_id": "provided-CausalAttention", "locked": True,
                                             "schema_version": 3, "solution": False, "task": False}


def test_curriculum_lists_each_stage_once():
    stages = all_stages()
    assert len(stages) == len(set(stages)) == 24
    assert assignment_of("merge_heads") == "04_multi_head_attention"
    with pytest.raises(KeyError, match="unknown stage"):
        assignment_of("no_such_stage")


# ---------------------------------------------------------------- running the notebooks (slow)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Every notebook executed once, each with a scratch working directory."""
    cwd = tmp_path_factory.mktemp("notebook-cwd")
    os.chmod(cwd, 0o755)
    return execute_notebooks(notebook_paths(), cwd)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_solution_runs_and_prints_the_book_values(executed, assignment):
    notebook = executed[f"solutions/{assignment}"]
    assert errors(notebook) == []
    text = printed_text(notebook)
    for value in BOOK_VALUES[assignment]:
        assert value in text, f"{value!r} not printed by the solution of {assignment}"
    for stage in STAGES_BY_ASSIGNMENT[assignment]:
        assert f"✅ {stage} passed its public check" in text
    assert "❌" not in text


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_notebook_runs_to_the_end_with_its_stubs(executed, assignment):
    """"Run All" on an untouched notebook: no cell raises; each check says "not implemented"
    and each demo waits for its stage with one line."""
    notebook = executed[f"assignments/{assignment}"]
    assert errors(notebook) == []
    text = printed_text(notebook)
    for stage in STAGES_BY_ASSIGNMENT[assignment]:
        assert f"❌ {stage}: not implemented yet" in text
    assert "⏭ Finish `" in text
    assert "✅" not in text
