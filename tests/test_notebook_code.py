"""What the grader extracts from a notebook: definitions only, whatever else the cells hold."""

import json

import pytest

from autograder.notebooks import reading as notebook_code
from autograder.notebooks.reading import NotebookError, extract_definitions, extract_notebook_file


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
        "code cell 1 has a syntax error at line 1 (invalid syntax); none of its definitions were loaded"
    ]


def test_markdown_and_odd_cells_are_skipped():
    notebook = {"cells": [{"cell_type": "markdown", "source": "def f(): pass"}, "not a cell",
                          {"cell_type": "code", "source": ["def g():\n", "    return 2\n"]}]}
    assert [block.names for block in extract_definitions(notebook).blocks] == [["g"]]


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is empty"),
    (b"\xff\xfe not text", "is not valid notebook JSON"),
    (b"[1, 2]", "is JSON but not a Jupyter notebook"),
    (b'{"cells": 3}', "is JSON but not a Jupyter notebook"),
])
def test_unreadable_files_raise_a_clear_error(tmp_path, content, message):
    path = tmp_path / "nb.ipynb"
    path.write_bytes(content)
    with pytest.raises(NotebookError, match=message):
        extract_notebook_file(path)


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
