"""The course notebooks: how they are stored, what they define, and what they print when run."""

from __future__ import annotations

import json
import os
import re

import nbformat
import pytest
import torch
from kit_notebooks import errors, execute_notebooks, load_definitions, notebook_paths, printed_text
from mutations import MUTATIONS

from autograder.course.paths import ASSIGNMENTS_DIR, solution_notebook, student_notebook
from autograder.notebooks.solutions_only import is_solutions_only
from autograder.notebooks.variants import filled, load_solution, load_student, with_replacement
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages, assignment_of
from autograder.student.language import TRANSLATIONS

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
    solution = [cell for cell in _cells(solution_notebook(assignment)) if not is_solutions_only(cell)]
    student = _cells(student_notebook(assignment))
    assert [cell.id for cell in solution] == [cell.id for cell in student]
    for master, released in zip(solution, student, strict=True):
        if "nbgrader" not in master.metadata:
            assert master.source == released.source, f"cell {master.id} changed on release"


def _released_notebooks(assignment: str) -> dict[str, nbformat.NotebookNode]:
    """The student notebooks of ``assignment`` in every language."""
    paths = {"en": student_notebook(assignment)}
    paths.update({language: ASSIGNMENTS_DIR / language / assignment / f"{assignment}.ipynb"
                  for language in TRANSLATIONS})
    return {language: nbformat.read(path, as_version=4) for language, path in paths.items()}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_questions_are_answered_in_the_solutions_only(assignment):
    """Three or four questions per notebook, each followed in the master by its answer, which no
    student notebook holds, in any language."""
    cells = _cells(solution_notebook(assignment))
    questions = [index for index, cell in enumerate(cells) if cell.id.startswith("question-")]
    assert 3 <= len(questions) <= 4
    for index in questions:
        answer = cells[index + 1]
        assert is_solutions_only(answer), f"{cells[index].id} is not followed by its answer"
        assert answer.source.startswith("**Answer.**")
    answers = {cell.id for cell in cells if is_solutions_only(cell)}
    assert len(answers) == len(questions)
    for language, notebook in _released_notebooks(assignment).items():
        ids = {cell.id for cell in notebook.cells}
        assert not ids & answers, language
        assert {cells[index].id for index in questions} <= ids, language
        assert "**Answer.**" not in nbformat.writes(notebook), language


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_grading_contract_comes_last_with_one_pointer_on_top(assignment):
    cells = _cells(solution_notebook(assignment))
    assert cells[-1].id == "grading"
    assert cells[-1].source.startswith("## How this notebook is graded")
    assert "How this notebook is graded" in cells[0].source
    assert "* **" not in cells[0].source  # the contract itself is no longer in the first cell


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_hints_are_folded_away_in_every_language(assignment):
    """A prompt states what to build; how to build it waits in a collapsed <details> block."""
    for language, notebook in _released_notebooks(assignment).items():
        prompts = [cell.source for cell in notebook.cells if cell.id.startswith("task-")]
        assert len(prompts) == len(STAGES_BY_ASSIGNMENT[assignment])
        folded = [prompt for prompt in prompts if "<details><summary>💡" in prompt]
        assert len(folded) >= len(prompts) // 2, language
        for prompt in folded:
            assert prompt.count("<details>") == prompt.count("</details>") == 1, language
            assert prompt.rstrip().endswith("</details>"), language


@pytest.mark.parametrize("key", list(notebook_paths()))
def test_definitions_load_like_the_grader_loads_them(key):
    """The reference loader fails on any definition block that raises: none may."""
    namespace, failures = load_definitions(notebook_paths()[key])
    assert failures == []
    assignment = key.split("/")[1]
    assert set(STAGES_BY_ASSIGNMENT[assignment]) <= set(namespace)


# The statements a lecturer's review found wrong, as each language first put them: none may
# come back (the notebooks now say what is true, with the book's terms in zh and pt).
WRONG_STATEMENTS = {
    "01_attention_scores": {
        "en": ["reads a sentence one token at a time", "unrelated ones a small score", "lies in $(0, 1]$",
               "Row 1 is what you just computed"],
        "zh": ["一次读入一个 token", "不相关的向量得分低", "落在 $(0, 1]$", "第 1 行就是你刚才算出的结果"],
        "pt": ["lê uma frase um token por vez", "vetores sem relação, uma pontuação baixa", "fica em $(0, 1]$",
               "A linha 1 é o que você acabou de calcular"],
    },
    "02_self_attention": {
        "en": ["always attend to each other", "for random vectors (entries of mean 0 and variance 1)",
               "so nothing could be\nlearned"],
        "zh": ["嵌入相似的两个 token 总是互相关注", "对随机向量（各元素均值为 0、方差为 1）而言",
               "所以没有任何东西可以学习"],
        "pt": ["sempre prestam atenção um ao outro", "para vetores aleatórios (com elementos de média 0",
               "então nada podia ser aprendido"],
    },
    "03_causal_attention": {
        "en": ["the form every GPT uses", "uniform, 0.5, generator=generator"],
        "zh": ["所有 GPT 都采用的形式"],
        "pt": ["a forma que todo GPT usa"],
    },
}
# What each language says instead (a phrase per statement), and notebook 4's d_out warning.
RIGHT_STATEMENTS = {
    "01_attention_scores": {"en": ["looks at the whole", "negative when the angle between them is over 90°",
                                   "lies in $[0, 1]$", "rows are counted from 0"],
                            "zh": ["同时查看整个上下文", "夹角超过 90° 时分数为负", "落在 $[0, 1]$",
                                   "行号和 token 一样从 0 开始数"],
                            "pt": ["olha para o contexto inteiro", "negativo quando o ângulo entre eles passa de 90°",
                                   "fica em $[0, 1]$", "as linhas são contadas a partir de 0"]},
    "02_self_attention": {"en": ["is whatever the embeddings make it,\nand it is symmetric",
                                 "Without\nindependence this fails"],
                          "zh": ["完全由嵌入决定，而且它是对称的", "不独立时这个结论就不成立"],
                          "pt": ["é o que os embeddings fizerem dela, e ela é simétrica",
                                 "Sem independência isso falha"]},
    "03_causal_attention": {"en": ["skip the tiles wholly above the diagonal", "can never be exactly\n1"],
                            "zh": ["完全位于对角线以上的块直接跳过", "永远不可能恰好是 1"],
                            "pt": ["pulam os blocos inteiramente acima da diagonal", "nunca pode dar exatamente 1"]},
    "04_multi_head_attention": {"en": ["⚠️ **`d_out` means two different things"],
                                "zh": ["⚠️ **和书中一样，`d_out` 在这个笔记本中有两种不同的含义。**"],
                                "pt": ["⚠️ **`d_out` quer dizer duas coisas diferentes"]},
}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_statements_the_review_found_wrong_stay_corrected(assignment):
    for language, notebook in _released_notebooks(assignment).items():
        text = "\n".join(cell.source for cell in notebook.cells)
        for wrong in WRONG_STATEMENTS.get(assignment, {}).get(language, []):
            assert wrong not in text, (language, wrong)
        for right in RIGHT_STATEMENTS[assignment][language]:
            assert right in text, (language, right)


def _solution_lines(assignment: str) -> set[str]:
    """The lines of the solution regions of ``assignment``, without comments and spaces."""
    lines = set()
    for cell in _answer_cells(solution_notebook(assignment)):
        for region in cell.source.split("### BEGIN SOLUTION")[1:]:
            lines.update(_code_lines(region.split("### END SOLUTION")[0]))
    return lines


def _code_lines(source: str) -> list[str]:
    lines = (re.sub(r"\s+", "", line.split("#")[0]) for line in source.splitlines())
    return [line for line in lines if len(line) >= 12]


# The one line of notebook 3's answers that the contract itself dictates (DESIGN.md: the
# attribute `dropout` is an nn.Dropout), so that a given head can share it.
CONTRACT_LINES = {"self.dropout=nn.Dropout(dropout)"}


def test_no_released_notebook_4_holds_notebook_3s_solution_code():
    """In no language does a released notebook 4 contain a line of notebook 3's answers: its
    given CausalAttention is written another way (on scaled_dot_product_attention)."""
    answers_of_3 = _solution_lines("03_causal_attention") - CONTRACT_LINES
    for language, notebook in _released_notebooks("04_multi_head_attention").items():
        for cell in notebook.cells:
            if cell.cell_type == "code":
                shared = answers_of_3 & set(_code_lines(cell.source))
                assert not shared, f"{language}, cell {cell.id}: {sorted(shared)}"


def test_the_given_causal_attention_computes_what_notebook_3s_does():
    """The head notebook 4 gives, with notebook 3's weights, outputs what notebook 3's reference
    outputs, in both modes, with and without biases; it is read-only and loaded for grading."""
    (given,) = [cell for cell in _cells(solution_notebook("04_multi_head_attention"))
                if cell.id == "provided-CausalAttention"]
    assert given.metadata["nbgrader"] == {"grade": False, "grade_id": "provided-CausalAttention", "locked": True,
                                          "schema_version": 3, "solution": False, "task": False}
    theirs = load_definitions(solution_notebook("03_causal_attention"))[0]["CausalAttention"]
    ours = load_definitions(solution_notebook("04_multi_head_attention"))[0]["CausalAttention"]
    generator = torch.Generator().manual_seed(5)
    for qkv_bias in (False, True):
        torch.manual_seed(11)
        reference = theirs(5, 4, 8, 0.0, qkv_bias=qkv_bias)
        given_head = ours(5, 4, 8, 0.0, qkv_bias=qkv_bias)
        assert set(given_head.state_dict()) == set(reference.state_dict())
        given_head.load_state_dict(reference.state_dict())
        for num_tokens in (1, 6, 8):
            x = torch.randn(3, num_tokens, 5, generator=generator)
            torch.testing.assert_close(given_head(x), reference(x))
            torch.testing.assert_close(given_head.eval()(x), reference.eval()(x))
    torch.manual_seed(123)  # the same weights from the same seed, as the book's numbers need
    first = theirs(3, 2, 6, 0.0)
    torch.manual_seed(123)
    assert all(torch.equal(a, b) for a, b in zip(ours(3, 2, 6, 0.0).parameters(), first.parameters(), strict=True))


def test_curriculum_lists_each_stage_once():
    stages = all_stages()
    assert len(stages) == len(set(stages)) == 24
    assert assignment_of("merge_heads") == "04_multi_head_attention"
    with pytest.raises(KeyError, match="unknown stage"):
        assignment_of("no_such_stage")


# ---------------------------------------------------------------- running the notebooks (slow)


# Printed at the end of the solutions of 03 and 04: the attention weights their figures show.
LEARNED_PROBE = """
import json
print("LEARNED", json.dumps({"untrained": untrained.tolist(), "trained": trained.tolist(),
                             "accuracy": accuracy(model, %s)}))
"""
LEARNED_ANSWERS = {"03_causal_attention": "previous_digit", "04_multi_head_attention": "first_and_previous_digit"}


def _with_learned_probe(assignment: str) -> nbformat.NotebookNode:
    notebook = nbformat.read(solution_notebook(assignment), as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(LEARNED_PROBE % LEARNED_ANSWERS[assignment], id="learned-probe"))
    return notebook


def _wrong_answers(assignment: str) -> dict:
    """The student notebook with every answer wrong: each stage with the first plausible mistake
    of the mutant corpus."""
    solution = load_solution(assignment)
    for stage in STAGES_BY_ASSIGNMENT[assignment]:
        mistake = next(mutation for mutation in MUTATIONS if mutation.stage == stage)
        solution = with_replacement(solution, stage, mistake.old, mistake.new)
    return filled(load_student(assignment), solution, STAGES_BY_ASSIGNMENT[assignment])


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """Every notebook executed once, each with a scratch working directory; the solutions of 03
    and 04 also print their learned attention weights, and "wrong/<id>" is the student notebook
    with a mistake in every answer."""
    cwd = tmp_path_factory.mktemp("notebook-cwd")
    os.chmod(cwd, 0o755)
    notebooks = {**notebook_paths(), **{f"solutions/{a}": _with_learned_probe(a) for a in LEARNED_ANSWERS}}
    notebooks.update({f"wrong/{a}": nbformat.from_dict(_wrong_answers(a)) for a in ASSIGNMENTS})
    return execute_notebooks(notebooks, cwd)


def _learned(notebook: nbformat.NotebookNode) -> tuple[torch.Tensor, torch.Tensor, float]:
    """The untrained and trained weights of the notebook's figure, and the model's accuracy."""
    (line,) = [line for line in printed_lines(notebook) if line.startswith("LEARNED ")]
    learned = json.loads(line.removeprefix("LEARNED "))
    return torch.tensor(learned["untrained"]), torch.tensor(learned["trained"]), learned["accuracy"]


def printed_lines(notebook: nbformat.NotebookNode) -> list[str]:
    return [line for cell in notebook.cells for output in cell.get("outputs", [])
            if output.output_type == "stream" for line in output.text.splitlines()]


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
    assert "⚠" not in text, "a demo stopped on the reference solution"
    assert "⏭" not in text


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
    assert "⚠" not in text, "a demo broke on the stubs instead of waiting for its stage"


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_wrong_answers_do_not_stop_run_all_either(executed, assignment):
    """A wrong (not unfinished) answer makes its check fail and may break its demos, but every
    demo says so in one line and "Run All" goes on to the end."""
    notebook = executed[f"wrong/{assignment}"]
    assert errors(notebook) == []
    text = printed_text(notebook)
    assert text.count("❌") >= len(STAGES_BY_ASSIGNMENT[assignment]) - 1
    assert "⏭" not in text  # nothing is unfinished
    assert notebook.cells[-1].id == "grading"  # and the last cells ran: no cell raised


@pytest.mark.slow
def test_the_trained_head_of_notebook_3_looks_as_its_text_says(executed):
    """learned-result-md describes the figure: these are its claims, on the weights it shows."""
    untrained, trained, accuracy = _learned(executed["solutions/03_causal_attention"])
    assert untrained.shape == trained.shape == (8, 8)
    for weights in (untrained, trained):  # the mask: an empty upper triangle, rows summing to 1
        assert torch.equal(weights.triu(diagonal=1), torch.zeros(8, 8))
        torch.testing.assert_close(weights.sum(dim=-1), torch.ones(8))
    # "in each row the weight is spread over the digits so far, with no pattern"
    assert untrained[1:].max(dim=-1).values.mean() < 0.6
    assert untrained.diagonal(offset=-1).mean() < 0.5
    # "every row from the second on puts nearly all of its weight on one cell ... the digit right before"
    assert (trained.diagonal(offset=-1) > 0.9).all()
    # "almost every answer right on sequences it has never seen"
    assert accuracy > 0.99
    # "Row 4, the 5, looks at the 1 just before it and not at the other 1"
    assert trained[4, 3] > 0.9
    assert trained[4, 1] < 0.05


@pytest.mark.slow
def test_the_two_trained_heads_of_notebook_4_look_as_its_text_says(executed):
    untrained, trained, accuracy = _learned(executed["solutions/04_multi_head_attention"])
    assert untrained.shape == trained.shape == (2, 8, 8)

    def jobs(weights):  # per head, rows 1-7: the weight on the first digit, on the digit just before
        return weights[:, 1:, 0].mean(dim=-1), weights.diagonal(offset=-1, dim1=-2, dim2=-1).mean(dim=-1)

    # "before training, both heads spread their weight ... with no pattern"
    first, previous = jobs(untrained)
    assert (first < 0.5).all()
    assert (previous < 0.6).all()
    # "the two heads have split the work": one on the first digit, the other on the digit just before
    first, previous = jobs(trained)
    first_head = int(first.argmax())
    assert first[first_head] > 0.9
    assert previous[1 - first_head] > 0.9
    assert first[1 - first_head] < 0.5
    assert previous[first_head] < 0.5
    # the question on row 1: both heads look at the same cell, the first digit
    assert (trained[:, 1, 0] > 0.9).all()
    # "the readout names both answers almost always right"
    assert accuracy > 0.99


@pytest.mark.slow
def test_the_dropout_demo_shows_rows_that_no_longer_sum_to_one(executed):
    """dropout-md: "none of the four sums is 1"."""
    (line,) = [line for line in printed_lines(executed["solutions/03_causal_attention"])
               if line.startswith("row sums after dropout:")]
    sums = [float(value) for value in re.findall(r"\d+\.\d+", line)]
    assert len(sums) == 4
    assert all(abs(total - 1.0) > 0.01 for total in sums)
