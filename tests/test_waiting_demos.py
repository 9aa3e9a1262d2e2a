"""The kit's demo cells wait for their stage by themselves (``autograder.student.waiting_demos``), and
every other cell runs as plain Python, in a real IPython shell and in a real kernel running a
notebook top to bottom.

The shell is IPython's own ``InteractiveShell``, which every Jupyter kernel (Jupyter, JupyterLab,
Colab, VS Code) runs cells through: a cell is run as a student runs it, with ``run_cell``. The kit
knows its demos by their code (``autograder.student.kit_demos``): the tests of how a demo waits name
their own demos, those of which cells are demos run the demo cells of a built notebook.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from kit_notebooks import errors, execute_notebooks, printed_text

from autograder.notebooks import kit_demos
from autograder.notebooks.variants import filled
from autograder.paths import ASSIGNMENTS_DIR, KIT_ROOT, solution_notebook, student_notebook
from autograder.student import language as languages
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.kit_demos import DEMOS_FILE
from autograder.student.selfcheck.catalog import MESSAGES
from autograder.student.waiting_demos import WaitingDemos, unwritten_stages, wait_for_stages

STUB = 'raise NotImplementedError("{stage}: replace this line with your code")'
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _said(language: str, key: str, **fields: str) -> str:
    return languages.messages(language, "selfcheck", MESSAGES)[key].format(**fields)


def _fresh_shell() -> InteractiveShell:
    InteractiveShell.clear_instance()
    return InteractiveShell.instance()


@pytest.fixture
def demos() -> set[str]:
    """The code of the cells a test runs as demos."""
    return set()


@pytest.fixture
def shell(demos):
    """A fresh IPython shell whose demos wait (in Chinese, to see the language followed): those of
    the test, so that a test of how a demo waits writes the stages it waits for."""
    ipython = _fresh_shell()
    wait_for_stages("zh", is_demo=demos.__contains__)
    yield ipython
    ipython.ast_transformers.clear()
    InteractiveShell.clear_instance()


def _run(shell, code: str, capsys) -> tuple[bool, str]:
    """Run a cell as a student does: whether it succeeded, and what it printed (a traceback too)."""
    result = shell.run_cell(code, store_history=True)
    return result.success, ANSI.sub("", capsys.readouterr().out)


def _demo(shell, demos: set[str], code: str, capsys) -> tuple[bool, str]:
    """Run ``code`` as one of the demos."""
    demos.add(code)
    return _run(shell, code, capsys)


def test_a_demo_of_an_unwritten_stage_is_skipped_and_says_so_in_one_line_each_time(shell, demos, capsys):
    _run(shell, "def attention_scores(inputs):\n    " + STUB.format(stage="attention_scores"), capsys)
    success, printed = _demo(shell, demos, "scores = attention_scores([1, 2])\nprint('ran')", capsys)
    assert success
    assert printed == _said("zh", "needs.finish_first", stage="attention_scores") + "\n"
    waiting = _said("zh", "needs.waiting", stage="attention_scores") + "\n"
    assert _demo(shell, demos, "print('again', attention_scores([3]))", capsys) == (True, waiting)
    assert _demo(shell, demos, "print('and again', attention_scores([3]))", capsys) == (True, waiting)
    # A demo that reads what the skipped one would have made waits with it.
    assert _demo(shell, demos, "print(scores)", capsys) == (True, waiting)
    # Its cell run again (a new stub): the next demo says to write it again.
    _run(shell, "def attention_scores(inputs):\n    " + STUB.format(stage="attention_scores"), capsys)
    assert _demo(shell, demos, "print(attention_scores([3]))", capsys)[1] == _said(
        "zh", "needs.finish_first", stage="attention_scores") + "\n"


def test_a_name_a_later_demo_binds_for_itself_does_not_wait_for_a_skipped_one(shell, demos, capsys):
    """Notebook 3's trained-head cells waited for masked_softmax: a helper of the model's cell reads
    its own local ``weights``, a name the skipped figure of masked_softmax would have made."""
    _run(shell, "def masked_softmax(scores, d_k):\n    " + STUB.format(stage="masked_softmax"), capsys)
    _demo(shell, demos, "weights = masked_softmax(1, 2)", capsys)
    helper = ("def heaviest(rows):\n    weights = [max(row) for row in rows]\n    return weights\n"
              "print(heaviest([[1, 3]]))")
    assert _demo(shell, demos, helper, capsys) == (True, "[3]\n")
    assert _demo(shell, demos, "print(weights)", capsys) == (
        True, _said("zh", "needs.waiting", stage="masked_softmax") + "\n")


def test_once_written_the_demo_runs_as_written_and_shows_its_last_value(shell, demos, capsys):
    _run(shell, "def attention_scores(inputs):\n    " + STUB.format(stage="attention_scores"), capsys)
    _demo(shell, demos, "scores = attention_scores([1, 2])", capsys)
    _run(shell, "def attention_scores(inputs):\n    return [2 * x for x in inputs]", capsys)
    assert _demo(shell, demos, "scores = attention_scores([1, 2])\nprint('ran', scores)", capsys) == (
        True, "ran [2, 4]\n")
    success, printed = _demo(shell, demos, "attention_scores([5])", capsys)
    assert success
    assert "[10]" in printed
    assert shell.user_ns["_"] == [10]  # displayed as IPython displays a cell's value


def test_a_demo_of_two_unwritten_stages_names_the_one_not_named_yet(shell, demos, capsys):
    for stage in ("softmax_naive", "softmax_stable"):
        _run(shell, f"def {stage}(x, dim=-1):\n    " + STUB.format(stage=stage), capsys)
    assert _demo(shell, demos, "print(softmax_naive(1))", capsys)[1] == _said(
        "zh", "needs.finish_first", stage="softmax_naive") + "\n"
    assert _demo(shell, demos, "print(softmax_stable(1), softmax_naive(1))", capsys)[1] == _said(
        "zh", "needs.finish_first", stage="softmax_stable") + "\n"
    assert _demo(shell, demos, "print(softmax_naive(softmax_stable(1)))", capsys) == (
        True, _said("zh", "needs.waiting", stage="softmax_naive") + "\n")


def test_a_stage_that_calls_an_unwritten_stage_waits_for_that_one(shell, demos, capsys):
    _run(shell, "def softmax_stable(x, dim=-1):\n    " + STUB.format(stage="softmax_stable"), capsys)
    _run(shell, "def simple_self_attention(inputs):\n    return softmax_stable(inputs)", capsys)
    assert unwritten_stages(["simple_self_attention"], shell.user_ns) == ["softmax_stable"]
    assert _demo(shell, demos, "print(simple_self_attention(1))", capsys) == (
        True, _said("zh", "needs.finish_first", stage="softmax_stable") + "\n")


def test_a_class_stage_with_a_stub_in_one_method_is_unwritten(shell, demos, capsys):
    _run(shell, "class CausalAttention:\n    def __init__(self):\n        self.ready = True\n\n"
                "    def forward(self, x):\n        " + STUB.format(stage="CausalAttention"), capsys)
    assert unwritten_stages(["CausalAttention"], shell.user_ns) == ["CausalAttention"]
    assert _demo(shell, demos, "ca = CausalAttention()\nprint(ca.ready)", capsys)[1].startswith("⏭")


def test_an_undefined_stage_asks_for_its_cell(shell, demos, capsys):
    assert _demo(shell, demos, "print(masked_softmax(1, 2))", capsys) == (
        True, _said("zh", "needs.undefined", stage="masked_softmax") + "\n")


def test_a_wrong_answer_stops_its_demo_in_one_line_and_run_all_goes_on(shell, demos, capsys):
    _run(shell, "def causal_mask(T):\n    return [1] * T", capsys)
    success, printed = _demo(shell, demos, "print(causal_mask(3) + 'x')", capsys)
    assert success  # a kernel reports no error, so "Run All" goes on
    assert printed.startswith("⚠")
    assert "TypeError" in printed
    assert "causal_mask" in printed
    assert "Traceback" not in printed


def test_a_stopped_demo_names_the_stage_whose_code_raised_else_the_one_it_is_about(shell, demos, capsys):
    """Exercise 3.1's demo builds v1 and v2, then copies: a reviewer's failing copy was told to look
    at SelfAttention_v1, whose check passed."""
    _run(shell, "class SelfAttention_v1:\n    pass\n\nclass SelfAttention_v2:\n    pass", capsys)
    _run(shell, "def copy_v2_weights_into_v1(sa_v2, sa_v1):\n    sa_v1.W_query.copy_(sa_v2.W_query)", capsys)
    demo = "first = SelfAttention_v1()\ncopy_v2_weights_into_v1(SelfAttention_v2(), first)"
    printed = _demo(shell, demos, demo, capsys)[1]
    assert "AttributeError" in printed
    assert "copy_v2_weights_into_v1" in printed
    assert 'check("SelfAttention_v1")' not in printed
    raised_in_the_demo = _demo(shell, demos, "SelfAttention_v2() + SelfAttention_v1()", capsys)[1]
    assert "SelfAttention_v2" in raised_in_the_demo  # the later stage in teaching order


RIGHT_MODULES = """import torch
from torch import nn

class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries, keys, values = x @ self.W_query, x @ self.W_key, x @ self.W_value
        return torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1) @ values

class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        return torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1) @ values
"""


def test_a_stopped_demo_never_sends_the_student_to_a_check_that_passes(shell, demos, capsys):
    """A reviewer's copy that kept the layers' own layout made the demo stop in SelfAttention_v1's
    forward, whose check passes: the demo now names the stage whose check fails."""
    _run(shell, RIGHT_MODULES, capsys)
    _run(shell, "import torch\n\ndef copy_v2_weights_into_v1(sa_v2, sa_v1):\n    with torch.no_grad():\n"
                "        for name in ('W_query', 'W_key', 'W_value'):\n"
                "            setattr(sa_v1, name, torch.nn.Parameter(getattr(sa_v2, name).weight.clone()))", capsys)
    demo = ("import torch\nsa_v1, sa_v2 = SelfAttention_v1(3, 2), SelfAttention_v2(3, 2)\n"
            "copy_v2_weights_into_v1(sa_v2, sa_v1)\nsa_v1(torch.rand(6, 3))")
    printed = _demo(shell, demos, demo, capsys)[1]
    assert printed.startswith("⚠")
    assert "RuntimeError" in printed
    assert 'check("copy_v2_weights_into_v1")' in printed
    assert 'check("SelfAttention_v1")' not in printed


def test_a_demo_that_stops_though_every_check_passes_says_so(shell, demos, capsys):
    _run(shell, RIGHT_MODULES, capsys)
    printed = _demo(shell, demos, "SelfAttention_v2(3, 2).qkv", capsys)[1]
    assert printed.startswith("⚠")
    assert "AttributeError" in printed
    assert _said("zh", "needs.stopped_checks_pass", reason="", stages="`SelfAttention_v2`").split("。")[1] in printed
    assert "check(" not in printed


def test_a_cell_of_the_student_runs_as_plain_python_with_its_output_and_traceback(shell, demos, capsys):
    _run(shell, "def attention_scores(inputs):\n    " + STUB.format(stage="attention_scores"), capsys)
    _demo(shell, demos, "print(attention_scores([1]))", capsys)  # the stage named once already
    success, printed = _run(shell, "print('trying my stage')\nmine = attention_scores([1, 2])", capsys)
    assert not success
    assert printed.startswith("trying my stage\n")
    assert "NotImplementedError" in printed
    assert "mine = attention_scores([1, 2])" in printed  # the student's own line, in Python's traceback
    _run(shell, "def causal_mask(T):\n    return [1] * T", capsys)
    success, printed = _run(shell, "print(causal_mask(3) + 'x')", capsys)
    assert not success
    assert "TypeError" in printed
    assert "⚠" not in printed


def test_an_answer_cell_and_a_cell_without_stages_run_as_written(shell, demos, capsys):
    # An answer cell that calls a stage still a stub is the student's code: it runs, and its errors show.
    _run(shell, "def softmax_naive(x):\n    " + STUB.format(stage="softmax_naive"), capsys)
    assert _demo(shell, demos, "def softmax_stable(x):\n    return softmax_naive(x)", capsys) == (True, "")
    assert _demo(shell, demos, "1 / 0", capsys)[0] is False  # no stage: Python's own error, as always


def test_a_silent_run_after_a_demo_is_no_demo(shell, demos, capsys):
    """A frontend's silent run (VS Code's variable view) sends no ``pre_run_cell``: it runs as written."""
    _run(shell, "def attention_scores(inputs):\n    " + STUB.format(stage="attention_scores"), capsys)
    code = "print(attention_scores([1]))"
    _demo(shell, demos, code, capsys)
    assert shell.run_cell(code, silent=True).success is False


def test_running_the_setup_again_registers_the_transformer_once(shell):
    wait_for_stages("en")
    assert [type(transformer) for transformer in shell.ast_transformers] == [WaitingDemos]
    for event in ("pre_run_cell", "post_run_cell"):
        assert [getattr(callback, "__self__", None) for callback in shell.events.callbacks[event]] == [
            shell.ast_transformers[0]]


def test_outside_ipython_nothing_is_registered_and_a_demo_runs_as_it_is():
    """A bare python run of an exported notebook: the import works, the stubs raise as written."""
    code = ("from autograder.student.en import check, hint, predict, reveal, submit\n"
            "from autograder.student import waiting_demos\n"
            "assert waiting_demos.ACTIVE is None\n"
            "print('imported')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=KIT_ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "imported\n"


# ---------------------------------------------------------------- the kit's own demo cells


def _cells(path: Path) -> dict[str, str]:
    """A built notebook's code cells by id."""
    return {cell.id: cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"}


@pytest.fixture
def kit_shell():
    """A fresh IPython shell, set up as a Chinese notebook's setup cell does: the kit's demos wait."""
    ipython = _fresh_shell()
    wait_for_stages("zh")
    yield ipython
    ipython.ast_transformers.clear()
    InteractiveShell.clear_instance()


def test_only_the_kit_s_demo_cells_wait_and_an_edited_one_is_plain_code(kit_shell, capsys):
    cells = _cells(ASSIGNMENTS_DIR / "zh" / "01_attention_scores" / "01_attention_scores.ipynb")
    for cell_id in ("setup", "example", "answer-attention_scores"):
        assert _run(kit_shell, cells[cell_id], capsys)[0], cell_id
    demo = cells["all-scores-demo"]  # print(attention_scores(inputs))
    assert _run(kit_shell, demo, capsys) == (True, _said("zh", "needs.finish_first", stage="attention_scores") + "\n")
    waiting = _said("zh", "needs.waiting", stage="attention_scores") + "\n"
    assert _run(kit_shell, demo, capsys) == (True, waiting)
    assert _run(kit_shell, "\n" + demo.replace("\n", "\r\n") + "  \n", capsys) == (True, waiting)  # as saved on Windows
    # The student's own cell, and the demo they edited, run as plain Python: their output, Python's traceback.
    success, printed = _run(kit_shell, "print('my try')\nattention_scores(inputs[:2])", capsys)
    assert not success
    assert printed.startswith("my try\n")
    assert "NotImplementedError" in printed
    assert "attention_scores(inputs[:2])" in printed
    success, printed = _run(kit_shell, demo + "  # with my note", capsys)
    assert not success
    assert "NotImplementedError" in printed
    assert "⏭" not in printed


def test_the_demo_hashes_are_those_of_the_built_notebooks():
    built = set()
    for path in [student_notebook(a) for a in ASSIGNMENTS] + sorted(ASSIGNMENTS_DIR.glob("*/*/*.ipynb")):
        built |= kit_demos.demo_hashes(nbformat.read(path, as_version=4))
    assert not kit_demos.stale(), "run `make assignments` (python -m autograder.notebooks.kit_demos)"
    assert kit_demos.masters_demo_hashes() == built, f"{DEMOS_FILE.name} is not what the build writes"


# ---------------------------------------------------------------- a real kernel, top to bottom


@pytest.mark.slow
def test_a_fresh_notebook_runs_top_to_bottom_with_one_message_per_stage(tmp_path):
    """Notebook 1 with its stubs, in English and Chinese: no cell raises, each stage's demos say
    once which stage to write first, then that they wait for it; with the reference answers every
    demo runs and none waits."""
    assignment = "01_attention_scores"
    stages = STAGES_BY_ASSIGNMENT[assignment]
    paths = {"en": student_notebook(assignment), "zh": ASSIGNMENTS_DIR / "zh" / assignment / f"{assignment}.ipynb"}
    notebooks = {f"{language}-stubs": nbformat.read(path, as_version=4) for language, path in paths.items()}
    notebooks["en-answers"] = nbformat.from_dict(filled(nbformat.read(paths["en"], as_version=4),
                                                        nbformat.read(solution_notebook(assignment), as_version=4),
                                                        stages))
    executed = execute_notebooks(notebooks, tmp_path)
    for key in ("en-stubs", "zh-stubs"):
        language, notebook = key.split("-")[0], executed[key]
        assert errors(notebook) == [], key
        printed = printed_text(notebook)
        for stage in stages:
            line = re.sub(r"\s+", " ", _said(language, "needs.finish_first", stage=stage))
            assert printed.count(line) == 1, (key, stage)
        # Its later demos (the overflow and stable demos, a skipped demo's names) say they wait.
        assert re.sub(r"\s+", " ", _said(language, "needs.waiting", stage="softmax_naive")) in printed, key
        assert "Traceback" not in printed
    answered = executed["en-answers"]
    assert errors(answered) == []
    printed = printed_text(answered)
    assert "⏭" not in printed
    assert "⚠" not in printed
    assert "scores of 'journey':" in printed
    assert "outputs permuted the same way: True" in printed


FUSED_V2 = """
import torch
from torch import nn

class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)

    def forward(self, x):
        queries, keys, values = self.qkv(x).chunk(3, dim=-1)
        return torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1) @ values
"""


def test_a_demo_that_reads_a_layer_by_the_notebooks_name_says_so_to_a_fused_module(shell, demos, capsys):
    """A reviewer's fused SelfAttention_v2 earned full marks and stopped the card demo, which reads
    W_query and W_key by name: the line says why, and sends the student to no check."""
    _run(shell, FUSED_V2, capsys)
    printed = _demo(shell, demos, "SelfAttention_v2(3, 2).W_query", capsys)[1]
    assert printed.startswith("⚠")
    assert "W_query" in printed
    assert _said("zh", "needs.stopped_layer_name", reason="", name="W_query").split("。")[1] in printed
    assert "check(" not in printed
