"""What the grader extracts from a notebook: definitions only, whatever else the cells hold."""

import json
import re

import pytest

from autograder.notebooks.variants import load_solution, load_student
from autograder.reading import notebook as notebook_code
from autograder.reading.notebook import (
    EmptyNotebook,
    NotebookError,
    OtherAssignmentNotebook,
    extract_definitions,
    extract_notebook_file,
)
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT


def _notebook(*sources: str) -> dict:
    return {"cells": [{"cell_type": "code", "source": source} for source in sources]}


def _sources(*cells: str) -> list[str]:
    return [block.source for block in extract_definitions(_notebook(*cells)).blocks]


def test_keeps_imports_functions_classes_and_simple_constants():
    cell = (
        "import torch\nfrom torch import nn\n"
        "SCALE = 2 ** -0.5\nDTYPE = torch.float64\nNAMES = ('a', 'b')\n"
        "@torch.no_grad()\ndef f(x):\n    return x\n"
        "class M(nn.Module):\n    pass\n"
    )
    assert _sources(cell) == [
        "import torch", "from torch import nn", "SCALE = 2 ** -0.5", "DTYPE = torch.float64",
        "NAMES = ('a', 'b')", "@torch.no_grad()\ndef f(x):\n    return x", "class M(nn.Module):\n    pass",
    ]


def test_keeps_constants_made_by_a_configuring_call():
    """A logger, a number or a device made at the top of an answer cell loads, as in Jupyter;
    a call that computes (a tensor, the student's own function) does not."""
    cell = (
        "import logging\nimport math\nimport torch\n"
        "logger = logging.getLogger(__name__)\nSCALE = 1 / math.sqrt(64)\n"
        "NEG = torch.finfo(torch.float32).min\nCPU = torch.device('cpu')\n"
        "x = torch.randn(3)\nlog = logging.getLogger(name)\nhelper = f(2)\n"
    )
    assert _sources(cell) == [
        "import logging", "import math", "import torch", "logger = logging.getLogger(__name__)",
        "SCALE = 1 / math.sqrt(64)", "NEG = torch.finfo(torch.float32).min", "CPU = torch.device('cpu')",
    ]


def test_keeps_constants_made_by_pythons_constructors():
    """A settings dict written as ``dict(...)`` in the answer cell loads like its literal (a lecturer's
    ``GPT2 = dict(d_in=768, ...)`` above ``return MultiHeadAttention(**GPT2)`` once lost every point
    to a NameError); a constructor of a computed value, or a range, does not."""
    cell = (
        "GPT2 = dict(d_in=768, d_out=768, num_heads=12)\nSIZES = tuple([1, 2])\nRATE = float('0.1')\n"
        "ROWS = list(range(10))\nX = dict(x=torch.randn(3))\nY = dict(a=f(1))\n"
    )
    assert _sources(cell) == ["GPT2 = dict(d_in=768, d_out=768, num_heads=12)", "SIZES = tuple([1, 2])",
                              "RATE = float('0.1')"]


def test_keeps_a_function_written_as_a_lambda():
    """``attention_scores = lambda inputs: inputs @ inputs.T`` is a function as a ``def`` is (it
    passed every check and lost its stage's points when it was taken for a computed value); a
    lambda whose default is computed is not loaded."""
    cell = "scores = lambda inputs, scale=1.0: inputs @ inputs.T * scale\nnoisy = lambda x, n=torch.randn(3): x + n\n"
    assert _sources(cell) == ["scores = lambda inputs, scale=1.0: inputs @ inputs.T * scale"]


def test_drops_demo_work():
    cell = (
        "import torch\nx = torch.randn(3)\nprint(x)\nfor i in range(3):\n    pass\n"
        "scores = x @ x\nrow = x.T\nwhile True:\n    pass\n"
    )
    assert _sources(cell) == ["import torch"]


def test_one_line_with_two_statements_keeps_only_the_definition():
    assert _sources("import os; os.system('echo hi')") == ["import os"]


def test_magics_and_shell_escapes_are_ignored():
    assert _sources("%matplotlib inline\n!pip install x\ndef f():\n    return 1\n", "%%bash\nls") == [
        "def f():\n    return 1"
    ]


def test_a_syntax_error_costs_only_its_cell():
    extracted = extract_definitions(_notebook("def broken(:\n    pass", "def fine():\n    return 1"))
    assert [block.names for block in extracted.blocks] == [["fine"]]
    assert [str(problem) for problem in extracted.problems] == [
        "code cell 1 of 2 (it begins `def broken(:`) has a syntax error at line 1 (invalid syntax); none of its"
        " definitions were loaded"
    ]


def test_markdown_and_odd_cells_are_skipped():
    notebook = {"cells": [{"cell_type": "markdown", "source": "def f(): pass"}, "not a cell",
                          {"cell_type": "code", "source": ["def g():\n", "    return 2\n"]}]}
    assert [block.names for block in extract_definitions(notebook).blocks] == [["g"]]


@pytest.mark.parametrize(("content", "message"), [
    (b"", r"is an empty file \(0 bytes\), not a notebook: save your notebook"),
    (b"\xff\xfe not text", "is damaged: it cannot be read as a notebook; download your notebook again"),
    (b'{"cells": [{"cell_type": "code", "source": "def f(', "is damaged: it cannot be read as a notebook"),
    (b'{"cells": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}", "is damaged"),
    (b"[1, 2]", r"is not a Jupyter notebook \(it has no list of cells\); download your notebook again"),
    (b'{"cells": 3}', "is not a Jupyter notebook"),
])
def test_unreadable_files_raise_a_clear_error(tmp_path, content, message):
    path = tmp_path / "nb.ipynb"
    path.write_bytes(content)
    with pytest.raises(NotebookError, match=message) as raised:
        extract_notebook_file(path)
    assert raised.value.row_kind == "unreadable"
    assert not re.search(r"Expecting|column|char \d", str(raised.value))  # never the JSON parser's words


def test_a_notebook_without_code_is_empty(tmp_path):
    path = tmp_path / "01_attention_scores.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": "notes"},
                                          {"cell_type": "code", "source": ["\n", "   "]}]}))
    with pytest.raises(EmptyNotebook, match="is an empty notebook: none of its cells holds code") as raised:
        extract_notebook_file(path, STAGES_BY_ASSIGNMENT["01_attention_scores"])
    assert raised.value.row_kind == "missing"
    assert extract_notebook_file(path).blocks == []  # read without an assignment, it is just empty


@pytest.mark.parametrize("markers", [True, False])
def test_another_assignments_notebook_says_which_it_looks_like(tmp_path, markers):
    """02's notebook saved as 01's, with its answer cells' markers or (cells copied into a new
    notebook) without them."""
    notebook = load_solution("02_self_attention")
    if not markers:
        for cell in notebook["cells"]:
            cell["metadata"].pop("nbgrader", None)
    path = tmp_path / "01_attention_scores.ipynb"
    path.write_text(json.dumps(notebook))
    with pytest.raises(OtherAssignmentNotebook,
                       match="01_attention_scores.ipynb looks like 02_self_attention, not 01_attention_scores"
                       ) as raised:
        extract_notebook_file(path, STAGES_BY_ASSIGNMENT["01_attention_scores"])
    assert raised.value.row_kind == "misnamed"


@pytest.mark.parametrize("assignment_id", list(STAGES_BY_ASSIGNMENT))
def test_each_assignments_own_notebooks_are_its_own(tmp_path, assignment_id):
    """The solution and the untouched student notebook (04 holds 03's CausalAttention as a given cell)."""
    for notebook in (load_solution(assignment_id), load_student(assignment_id)):
        path = tmp_path / f"{assignment_id}.ipynb"
        path.write_text(json.dumps(notebook))
        assert extract_notebook_file(path, STAGES_BY_ASSIGNMENT[assignment_id]).blocks


def test_symlinks_and_huge_files_are_refused(tmp_path, monkeypatch):
    real = tmp_path / "real.ipynb"
    real.write_text(json.dumps(_notebook("x = 1")))
    link = tmp_path / "link.ipynb"
    link.symlink_to(real)
    with pytest.raises(NotebookError, match="symbolic link"):
        extract_notebook_file(link)
    monkeypatch.setattr(notebook_code, "MAX_NOTEBOOK_BYTES", 10)
    with pytest.raises(NotebookError, match="over the"):
        extract_notebook_file(real)


# -- The grading contract: what each notebook says about which cells are graded ----------------
def _answer(stage: str, source: str) -> dict:
    return {"cell_type": "code", "source": source,
            "metadata": {"nbgrader": {"solution": True, "grade_id": stage, "locked": False}}}


def _plain(source: str) -> dict:
    return {"cell_type": "code", "source": source, "metadata": {}}


def _read(*cells: dict, graded=("f", "g")):
    return extract_definitions({"cells": list(cells)}, graded)


def test_definitions_come_from_the_answer_cells_and_imports_from_anywhere():
    extracted = _read(_plain("import torch\nHELPER = 3\ndef helper():\n    return 1"),
                      _answer("f", "def f():\n    return HELPER"),
                      _plain("from torch import nn\nSCALE = 2"))
    assert [block.source for block in extracted.blocks] == ["import torch", "def f():\n    return HELPER",
                                                            "from torch import nn"]
    assert extracted.notes == []


def test_a_later_definition_of_a_graded_name_is_ignored_and_noted():
    extracted = _read(_answer("f", "def f():\n    return 1"), _plain("def f():\n    return 'scratch'"))
    assert [block.source for block in extracted.blocks] == ["def f():\n    return 1"]
    assert [str(note) for note in extracted.notes] == [
        "f is defined again in code cell 2 of 2 (it begins `def f():`), outside its answer cell: that definition"
        " was ignored (only the answer cell of f is graded)."]


def test_a_missing_answer_cell_falls_back_to_any_cell_and_says_so():
    extracted = _read(_answer("f", "def f():\n    return 1"), _plain("def g():\n    return 2"))
    assert [block.names for block in extracted.blocks] == [["f"], ["g"]]
    assert [note.key for note in extracted.notes] == ["note.answer_cell_missing"]


def test_a_notebook_without_markers_is_read_as_before_and_says_so():
    extracted = _read(_plain("def f():\n    return 1"), _plain("def f():\n    return 2\nLIMIT = 3"))
    assert [block.source for block in extracted.blocks] == ["def f():\n    return 1", "def f():\n    return 2",
                                                            "LIMIT = 3"]
    assert [note.key for note in extracted.notes] == ["note.no_answer_cells"]


def test_given_read_only_cells_count():
    given = {"cell_type": "code", "source": "class Given:\n    pass",
             "metadata": {"nbgrader": {"locked": True, "solution": False, "grade_id": "provided-Given"}}}
    extracted = _read(given, _answer("f", "def f():\n    return Given()"))
    assert [block.names for block in extracted.blocks] == [["Given"], ["f"]]
