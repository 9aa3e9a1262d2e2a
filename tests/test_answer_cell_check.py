"""The check warns when the definition it ran lives outside the stage's ✏️ cell (issue 41).

The grader reads a stage only from its answer cell. A reviewer wrote ``context_vector`` in a new
cell below the stub: the check said ✅ and the grader gave 0. These tests run a real kernel on a
saved notebook, as a student's would run (nbclient starts it in the notebook's folder, where the
check finds the saved file), and read what ``check`` printed.
"""

from __future__ import annotations

import nbformat
import pytest
from kit_notebooks import execute_notebooks, printed_text

from autograder.paths import student_notebook
from autograder.student.selfcheck import catalog

pytestmark = pytest.mark.slow

ANSWER = '''def context_vector(attn_weights, inputs):
    return attn_weights @ inputs
'''


def _notebook(answer_in_stub_cell: bool) -> nbformat.NotebookNode:
    """Notebook 01's setup, the ✏️ cell of context_vector (the stub, or the answer written in it),
    a new cell with the answer when the stub stays, and the check."""
    cells = nbformat.read(student_notebook("01_attention_scores"), as_version=4).cells
    setup = [cell for cell in cells if cell.cell_type == "code"][:2]
    [answer_cell] = [cell for cell in cells if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                     == "context_vector"]
    assert "NotImplementedError" in answer_cell.source
    notebook = nbformat.v4.new_notebook(metadata=nbformat.read(student_notebook("01_attention_scores"),
                                                               as_version=4).metadata)
    if answer_in_stub_cell:
        answer_cell = nbformat.from_dict({**answer_cell, "source": ANSWER})
        notebook.cells = [*setup, answer_cell]
    else:
        notebook.cells = [*setup, answer_cell, nbformat.v4.new_code_cell(ANSWER)]
    notebook.cells.append(nbformat.v4.new_code_cell('check("context_vector")'))
    return notebook


def test_the_check_says_when_it_ran_an_answer_the_grader_ignores_and_not_otherwise(tmp_path):
    runs = {}
    for where, in_stub_cell in (("new_cell", False), ("answer_cell", True)):
        folder = tmp_path / where
        folder.mkdir()
        notebook = _notebook(in_stub_cell)
        nbformat.write(notebook, folder / "01_attention_scores.ipynb")  # saved, as the student's is
        runs[where] = printed_text(execute_notebooks({where: notebook}, folder)[where])
    with catalog.speaking("en"):
        warning = catalog.text("defined_elsewhere", stage="context_vector",
                               line="return attn_weights @ inputs")
    assert "✅ context_vector" in runs["new_cell"]
    assert warning in runs["new_cell"]
    assert "✅ context_vector" in runs["answer_cell"]
    assert "⚠️" not in runs["answer_cell"]


def test_the_check_tells_an_answer_in_another_cell_before_the_notebook_is_saved(tmp_path):
    """A reviewer's class below its stub, in a notebook never saved since: the saved file holds the
    stub alone, so only the cell ids the front end sends tell where the live definition ran."""
    runs = {}
    for where, in_stub_cell in (("new_cell", False), ("answer_cell", True)):
        folder = tmp_path / where
        folder.mkdir()
        notebook = _notebook(in_stub_cell)
        saved = nbformat.from_dict({**notebook, "cells": [cell for cell in notebook.cells
                                                          if cell.source != ANSWER or in_stub_cell]})
        if in_stub_cell:  # the stub as released is what is saved; the answer typed in it is not
            saved.cells = [nbformat.from_dict({**cell, "source": "raise NotImplementedError"})
                           if cell.get("id") == "answer-context_vector" else cell for cell in saved.cells]
        nbformat.write(saved, folder / "01_attention_scores.ipynb")
        runs[where] = printed_text(execute_notebooks({where: notebook}, folder, cell_ids=True)[where])
    with catalog.speaking("en"):
        warning = catalog.text("defined_elsewhere", stage="context_vector",
                               line="return attn_weights @ inputs")
    assert "✅ context_vector" in runs["new_cell"]
    assert warning in runs["new_cell"]
    assert "✅ context_vector" in runs["answer_cell"]
    assert "⚠️" not in runs["answer_cell"]


def test_the_check_says_when_a_stage_reads_a_variable_no_answer_cell_makes(tmp_path):
    """A reviewer's `context_vector` used the demo's `weights_2`, and a `simple_self_attention`
    called a helper written in a cell of its own: both ran in the kernel and raise NameError for
    the grader, which loads only the answer cells' definitions and simple constants."""
    cells = nbformat.read(student_notebook("01_attention_scores"), as_version=4).cells
    setup = [cell for cell in cells if cell.cell_type == "code"][:2]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [*setup,
                      nbformat.v4.new_code_cell("weights_2 = torch.tensor([0.5, 0.5])\nSCALE = 1.0"),
                      nbformat.v4.new_code_cell("def context_vector(attn_weights, inputs):\n"
                                                "    return weights_2 @ inputs * SCALE"),
                      nbformat.v4.new_code_cell('check("context_vector")'),
                      nbformat.v4.new_code_cell("SCALE = 1.0\n\ndef context_vector(attn_weights, inputs):\n"
                                                "    return attn_weights @ inputs * SCALE"),
                      nbformat.v4.new_code_cell('check("context_vector")')]
    executed = execute_notebooks({"globals": notebook}, tmp_path)["globals"]
    first, second = (printed_text(nbformat.v4.new_notebook(cells=[cell])) for cell in executed.cells[-3::2])
    with catalog.speaking("en"):
        said = catalog.text("reads_other_cells", stage="context_vector", names="SCALE, weights_2")
    assert said in first
    assert "✅ context_vector" in second  # SCALE set in the answer cell itself: a simple constant, loaded


def test_the_check_says_when_a_stage_it_calls_was_redefined_in_another_cell(tmp_path):
    """A reviewer's scratch cell redefined causal_mask below its ✏️ cell: the check of a stage that
    calls it failed and blamed causal_mask, whose answer cell was right (the grader gave both full
    marks). Here simple_self_attention calls a softmax_naive redefined in a scratch cell."""
    cells = nbformat.read(student_notebook("01_attention_scores"), as_version=4).cells
    setup = [cell for cell in cells if cell.cell_type == "code"][:2]
    answers = {"softmax_naive": ("def softmax_naive(x):\n"
                                 "    return torch.exp(x) / torch.exp(x).sum(dim=-1, keepdim=True)\n"),
               "simple_self_attention": ("def simple_self_attention(inputs):\n"
                                         "    return softmax_naive(inputs @ inputs.T) @ inputs\n")}
    answer_cells = [nbformat.from_dict({**cell, "source": answers[grade_id]}) for cell in cells
                    if (grade_id := cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")) in answers]
    assert len(answer_cells) == 2
    notebook = nbformat.v4.new_notebook(metadata=nbformat.read(student_notebook("01_attention_scores"),
                                                               as_version=4).metadata)
    scratch = "def softmax_naive(x):\n    return torch.exp(x)\n"
    notebook.cells = [*setup, *answer_cells, nbformat.v4.new_code_cell(scratch),
                      nbformat.v4.new_code_cell('check("simple_self_attention")')]
    nbformat.write(notebook, tmp_path / "01_attention_scores.ipynb")
    printed = printed_text(execute_notebooks({"scratch": notebook}, tmp_path)["scratch"])
    with catalog.speaking("en"):
        warning = catalog.text("defined_elsewhere", stage="softmax_naive", line="return torch.exp(x)")
    assert "❌ simple_self_attention" in printed
    assert warning in printed
