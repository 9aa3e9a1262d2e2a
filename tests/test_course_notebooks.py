"""The course notebooks: how they are stored, what they define, and what they print when run."""

from __future__ import annotations

import ast
import json
import math
import os
import re
import string

import nbformat
import pytest
import torch
from kit_notebooks import errors, execute_notebooks, load_definitions, notebook_paths, printed_close, printed_text
from mutations import MUTATIONS

from autograder.course.predictions import outcomes as prediction_outcomes
from autograder.notebooks import demo_words
from autograder.notebooks.solutions_only import INSTRUCTOR_NOTES, is_solutions_only
from autograder.notebooks.variants import filled, load_solution, load_student, with_replacement
from autograder.paths import ASSIGNMENTS_DIR, solution_notebook, student_notebook
from autograder.student import language as languages
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages, assignment_of
from autograder.student.language import TRANSLATIONS
from autograder.student.predictions import QUESTIONS, answer_fields, judge, questions_of
from autograder.student.selfcheck.hints import DESIGNED

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
    """Three or four questions per notebook, each followed in the master, before the next question
    (the student's own answer cell comes between), by its answer, which no student notebook holds,
    in any language."""
    cells = _cells(solution_notebook(assignment))
    questions = [index for index, cell in enumerate(cells) if cell.id.startswith("question-")]
    assert 3 <= len(questions) <= 4
    for index, following in zip(questions, [*questions[1:], len(cells)], strict=True):
        answer = next((cell for cell in cells[index + 1:following] if is_solutions_only(cell)), None)
        assert answer is not None, f"{cells[index].id} is not followed by its answer"
        assert answer.source.startswith("**Answer.**")
    hidden = {cell.id for cell in cells if is_solutions_only(cell)}  # the answers, and the instructor's notes
    assert len(hidden - {INSTRUCTOR_NOTES}) == len(questions)
    for language, notebook in _released_notebooks(assignment).items():
        ids = {cell.id for cell in notebook.cells}
        assert not ids & hidden, language
        assert {cells[index].id for index in questions} <= ids, language
        assert "**Answer.**" not in nbformat.writes(notebook), language


_GRADING_MECHANICS = re.compile(r"\bgrad(er|ed|ing)\b|\bdemos?\b|\bhooks?\b|\bchecks?\b", re.IGNORECASE)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_docstrings_students_read_speak_of_attention_not_of_grading(assignment):
    """The docstrings of the answer cells and the given cells state a contract (attributes, shapes,
    errors); how the grader or a demo uses the code is no part of it (issue 41)."""
    for cell in _cells(solution_notebook(assignment)):
        if cell.cell_type != "code" or "nbgrader" not in cell.metadata:
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node):
                assert not _GRADING_MECHANICS.search(ast.get_docstring(node)), (cell.id, ast.get_docstring(node))


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_grading_contract_comes_last_with_one_pointer_on_top(assignment):
    """Last of what students read (the instructor's notes may follow it in the master)."""
    cells = [cell for cell in _cells(solution_notebook(assignment)) if not is_solutions_only(cell)]
    assert cells[-1].id == "grading"
    assert cells[-1].source.startswith("## How this notebook is graded")
    assert "How this notebook is graded" in cells[0].source
    assert "* **" not in cells[0].source  # the contract itself is no longer in the first cell


# In every notebook one graded stage or more comes with no recipe: its prompt states the contract,
# and the student composes it from the stages before it (issue 34).
NO_RECIPE_STAGES = {assignment: [stage for stage in STAGES_BY_ASSIGNMENT[assignment] if stage in DESIGNED]
                    for assignment in ASSIGNMENTS}


def _solution_expressions(source: str) -> set[str]:
    """What each line of a cell's solution regions computes, without spaces: the right-hand side of
    an assignment, what is returned or raised. Shape arithmetic (names and // only) and unfinished
    lines are left out: a contract may state a shape."""
    found = set()
    for region in source.split("### BEGIN SOLUTION")[1:]:
        for line in region.split("### END SOLUTION")[0].splitlines():
            code = re.sub(r"^(return|raise)\s+", "", line.split("#")[0].strip())
            code = re.sub(r"\s+", "", re.sub(r"^[\w.\[\], ]+\s*=\s*", "", code))
            if len(code) >= 10 and not code.endswith("(") and not re.fullmatch(r"[\w//*+-]+", code):
                found.add(code)
    return found


def _visible_markdown(notebook) -> str:
    return re.sub(r"\s+", "", "\n".join(cell.source for cell in notebook.cells
                                         if cell.cell_type == "markdown" and not is_solutions_only(cell)))


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_prompts_state_the_contract_never_a_line_of_the_solution(assignment):
    """In every language, no prompt holds what a line of its own solution computes, and no hint
    block is left in a prompt: the hints come in tiers, from hint("<stage>")."""
    master = _cells(solution_notebook(assignment))
    for language, notebook in _released_notebooks(assignment).items():
        prompts = {cell.id: cell.source for cell in notebook.cells if cell.id.startswith("task-")}
        assert len(prompts) == len(STAGES_BY_ASSIGNMENT[assignment])
        for cell in master:
            if not cell.metadata.get("nbgrader", {}).get("solution"):
                continue
            stage = cell.metadata["nbgrader"]["grade_id"]
            prompt = re.sub(r"\s+", "", prompts[f"task-{stage}"])
            assert "<details>" not in prompt, (language, stage)
            assert not [line for line in _solution_expressions(cell.source) if line in prompt], (language, stage)


def _calls(expressions: set[str]) -> set[str]:
    """The expressions without ``self.`` and without their receiver (``x.view(...)`` is
    ``view(...)``): what a walk-through or a diagram would show with other names."""
    calls = {re.sub(r"^\w+\.", "", expression.replace("self.", "")) for expression in expressions}
    return {call for call in calls if len(call) >= 7 and ("(" in call or "@" in call)}


def _cells_before_the_check(notebook, stage: str) -> str:
    """The markdown and the demo code a student reads before ``stage``'s check, without spaces."""
    cells = []
    for cell in notebook.cells:
        if f'check("{stage}")' in cell.source:
            break
        if not is_solutions_only(cell) and not cell.id.startswith("answer-"):
            cells.append(cell.source)
    return re.sub(r"\s+", "", "\n".join(cells))


# A row of a table of shapes: a name, then, past a column's gap (two spaces or more, or a "|"), a
# shape of two dimensions or more as the notebooks write one: "keys  (b, h, T, hd)", "| `x` | (2, 6, 3) |".
_SHAPE_ROW = re.compile(r"^[\s|`]*[A-Za-z_][\w ,.`]*?(?: {2,}|\s*\|\s*)`?\((?:\w+, ?)+\w+\)", re.ASCII)


def _shape_walkthrough(notebook, stage: str) -> list[str]:
    """The lines of a markdown cell between the check before ``stage``'s and its own that walk
    through shapes step by step: a table of three rows or more, each a name and its shape. A
    contract states the shapes in and out; those in between are the student's to work out."""
    section: list[str] = []
    for cell in notebook.cells:
        if f'check("{stage}")' in cell.source:
            break
        if cell.cell_type == "code" and "check(" in cell.source:
            section = []  # what came before the previous stage's check was that stage's
        elif cell.cell_type == "markdown" and not is_solutions_only(cell):
            section.append(cell.source)
    for source in section:
        run: list[str] = []
        for line in source.splitlines():
            run = [*run, line] if _SHAPE_ROW.match(line) else []
            if len(run) >= 3:
                return run
    return []


@pytest.mark.parametrize(("assignment", "stage"), [(assignment, stage) for assignment, stages in
                                                   NO_RECIPE_STAGES.items() for stage in stages])
def test_a_stage_without_recipe_is_not_shown_before_its_check(assignment, stage):
    """Its prompt says so, and no markdown of the notebook, nor any demo before its check, shows
    a line of its solution that an earlier stage's solution does not hold (those the student has
    written already, in this notebook or an earlier one), even with other names; nor does a table
    before its check walk through the shapes it makes on the way."""
    master = _cells(solution_notebook(assignment))
    answers = [cell for cell in master if cell.metadata.get("nbgrader", {}).get("solution")]
    earlier = set().union(*(_solution_expressions(cell.source) for cell in answers
                            if STAGES_BY_ASSIGNMENT[assignment].index(cell.metadata["nbgrader"]["grade_id"])
                            < STAGES_BY_ASSIGNMENT[assignment].index(stage)))
    lines = _solution_expressions(next(cell for cell in answers if cell.metadata["nbgrader"]["grade_id"] == stage)
                                  .source) - earlier
    written = set().union(*(_solution_expressions(cell.source)  # in the notebooks before this one
                            for previous in ASSIGNMENTS[:ASSIGNMENTS.index(assignment)]
                            for cell in _cells(solution_notebook(previous))
                            if cell.metadata.get("nbgrader", {}).get("solution")))
    calls = _calls(lines) - _calls(earlier | written)
    for language, notebook in _released_notebooks(assignment).items():
        text = _visible_markdown(notebook)
        assert not [line for line in lines if line in text], language
        before = _cells_before_the_check(notebook, stage)
        assert not [call for call in calls if call in before], language
        assert _shape_walkthrough(notebook, stage) == [], language
    prompt = next(cell.source for cell in master if cell.id == f"task-{stage}")
    assert "No recipe this time" in prompt
    assert "* " not in prompt.split("The contract")[0]  # no list of steps before the contract


def test_the_setup_cell_is_short_and_defines_nothing():
    """The helpers live in the student package; the cell installs it where it is missing and
    imports them in its language, in six lines of code, with no grading plumbing (needs, tr) among them."""
    for language, notebook in _released_notebooks(ASSIGNMENTS[0]).items():
        cell = next(cell for cell in notebook.cells if cell.id == "self-checks")
        code = [line for line in cell.source.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        assert len(code) <= 6, language
        tree = ast.parse(cell.source)
        assert not [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Lambda))]
        helpers = "check, hint, predict, reveal, submit"
        assert code[-1] == f"from attention_kit_student.{language} import {helpers}"
        # The installing is plumbing: its code starts hidden (JupyterLab, VS Code), and Colab shows its title.
        assert cell.metadata["jupyter"]["source_hidden"] is True
        assert cell.metadata["cellView"] == "form"
        assert cell.source.startswith("#@title ")


@pytest.mark.parametrize("assignment", ["03_causal_attention", "04_multi_head_attention"])
def test_the_masters_register_a_boolean_mask_and_use_it_as_it_is(assignment):
    """causal_mask demands a torch.bool mask; the modules of the masters keep one, without .bool()."""
    namespace = load_definitions(solution_notebook(assignment))[0]
    for name, arguments in (("CausalAttention", (4, 4, 6, 0.0)), ("MultiHeadAttention", (4, 4, 6, 0.0, 2))):
        if name not in namespace or (assignment == "04_multi_head_attention" and name == "CausalAttention"):
            continue
        buffers = dict(namespace[name](*arguments).named_buffers())
        assert [buffer.dtype for buffer in buffers.values()] == [torch.bool], name
    for cell in _answer_cells(solution_notebook(assignment)):
        assert ".bool()" not in cell.source, cell.metadata["nbgrader"]["grade_id"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_map_of_attention_weights_is_drawn_on_the_scale_of_a_weight(assignment):
    """A heat map of weights runs its colours from 0 to 1: auto-scaled colours make flat weights
    (0.10 to 0.24) look contrasted."""
    for cell in _cells(solution_notebook(assignment)):
        for call in re.findall(r"imshow\((.*)\)", cell.source):
            if "Pastel1" not in call:  # the split figure colours heads, not weights
                assert "vmin=0, vmax=1" in call, (cell.id, call)


def _demo_words_of_the_masters(catalog) -> set[str]:
    """The strings of the masters' demos that are words of ``catalog`` (``demo_words.words``)."""
    return {node.value for assignment in ASSIGNMENTS
            for cell in demo_words.demo_cells(nbformat.read(solution_notebook(assignment), as_version=4))
            for node in demo_words.words(cell.source, catalog)}


def test_demo_texts_are_translated_in_every_language():
    """Every entry of the demos' catalogs is a string a master's demo shows, each language has them
    all, with the same fields, and the translation is not the English (unless it has no words)."""
    catalogs = {language: languages.load_catalog(language, "demos") for language in TRANSLATIONS}
    english = set(catalogs[TRANSLATIONS[0]])
    assert len(english) > 50
    for language, catalog in catalogs.items():
        assert set(catalog) == english, language
        assert _demo_words_of_the_masters(catalog) == english, language  # no entry left over
        for text, translated in catalog.items():
            assert _format_fields(translated) == _format_fields(text), (language, text)
            assert translated != text or not any(char.isalpha() for char in text.replace("torch", "")), (language, text)


def test_every_comment_of_the_demos_is_translated_in_every_language():
    """A reviewer read English comments in the Chinese and Portuguese demos: each language's
    catalog translates every comment of the masters' demos (and nothing else), keeping its code,
    in backticks, and its numbers."""
    english = {demo_words.comment_key(token.string) for assignment in ASSIGNMENTS
               for cell in demo_words.demo_cells(nbformat.read(solution_notebook(assignment), as_version=4))
               for token in demo_words.comments(cell.source)}
    assert len(english) > 100
    for language in TRANSLATIONS:
        catalog = demo_words.comment_catalog(language)
        assert set(catalog) == english, (language, english ^ set(catalog))
        for key, translated in catalog.items():
            for kept in re.findall(r"`[^`]+`|\d+(?:\.\d+)?", key):
                assert kept in translated, (language, key, kept)


def test_every_docstring_of_the_demos_is_translated_in_every_language():
    """A reviewer read English docstrings in the Chinese and Portuguese demos' models: each
    language's catalog translates every docstring the masters' demos define (and nothing else),
    keeping its code (shapes, arguments, numbers)."""
    english = {text for assignment in ASSIGNMENTS
               for cell in demo_words.demo_cells(nbformat.read(solution_notebook(assignment), as_version=4))
               for text in demo_words.demo_docstrings(cell.source)}
    assert len(english) > 20
    for language in TRANSLATIONS:
        catalog = demo_words.docstring_catalog(language)
        assert set(catalog) == english, (language, english ^ set(catalog))
        for key, translated in catalog.items():
            shapes = [shape for shape in re.findall(r"\((?:\s*(?:\.\.\.|\w+)\s*,)+\s*(?:\.\.\.|\w+)\s*\)", key)
                      if re.search(r"_|\.\.\.|\d", shape)]  # (b, T, d_model), not (digit, colour)
            for kept in [*shapes, *re.findall(r"\b\w+=\w+|-?\d+(?:\.\d+)?", key)]:
                assert kept in translated, (language, key, kept)


def _format_fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_every_demo_string_a_student_reads_is_translatable():
    """What a demo prints or draws in words is in the demos' catalogs, so the build translates it;
    what is left is code or numbers."""
    catalog = languages.load_catalog(TRANSLATIONS[0], "demos")
    words = re.compile(r"[A-Za-z]{3,}")
    code_like = re.compile(r"^[\w.(), =:\[\]\-]*[:=]?\s*$")
    for assignment in ASSIGNMENTS:
        for cell in demo_words.demo_cells(nbformat.read(solution_notebook(assignment), as_version=4)):
            for node in ast.walk(ast.parse(cell.source)):
                is_call = isinstance(node, ast.Call)
                name = getattr(node.func, "attr", getattr(node.func, "id", None)) if is_call else None
                if name not in ("print", "set_title", "set_xlabel", "set_ylabel", "suptitle", "bar"):
                    continue
                for argument in [*node.args, *(keyword.value for keyword in node.keywords if keyword.arg == "label")]:
                    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                        text = argument.value
                        assert text in catalog or not words.search(text) or code_like.match(text), \
                            (assignment, cell.id, text)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_notebook_shows_grading_plumbing(assignment):
    """Attention is the only subject in the student's view: no code cell calls needs or tr (demos
    wait for their stage by themselves and are translated when built), and the setup text does not
    explain them."""
    notebooks = {"master": nbformat.read(solution_notebook(assignment), as_version=4),
                 **_released_notebooks(assignment)}
    for language, notebook in notebooks.items():
        for cell in notebook.cells:
            if cell.cell_type == "code":
                names = {node.id for node in ast.walk(ast.parse(cell.source)) if isinstance(node, ast.Name)}
                assert not names & {"needs", "tr"}, (language, cell.id)
            elif cell.id == "setup-md":
                assert not re.search(r"\bneeds\b|\btr\(|`tr`", cell.source), language


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_translated_notebook_shows_its_demos_words_in_its_language(assignment):
    """Its demo cells are the English ones with their words' literals, comments and docstrings
    translated, and nothing else."""
    english = nbformat.read(student_notebook(assignment), as_version=4)
    for language in TRANSLATIONS:
        catalog = languages.load_catalog(language, "demos")
        translated = _released_notebooks(assignment)[language]
        cells = dict(zip((cell.id for cell in demo_words.demo_cells(english)),
                         demo_words.demo_cells(translated), strict=True))
        changed = 0
        for cell in demo_words.demo_cells(english):
            expected = demo_words.translated_demo(cell.source, language)
            assert cells[cell.id].source == expected, (language, cell.id)
            left = [node.value for node in demo_words.words(cells[cell.id].source, catalog)
                    if catalog[node.value] != node.value]
            assert left == [], (language, cell.id)  # no English words left
            changed += cells[cell.id].source != cell.source
        assert changed >= 3, language


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
        "en": ["the form every GPT uses", "uniform, 0.5, generator=generator",
               "the grader tries other lengths", "the grader\nchecks this, and it takes gradients",
               "any name, or none with is_causal=True"],
        "zh": ["所有 GPT 都采用的形式", "评分程序会试其他长度", "评分程序会检查这一点，还会通过你的函数求梯度"],
        "pt": ["a forma que todo GPT usa", "o corretor testa outros comprimentos",
               "o corretor verifica isso e calcula gradientes"],
    },
    "04_multi_head_attention": {  # the view fails only for heads of more than one feature; kdim and vdim exist
        "en": ["as soon as there are several tokens and several\nheads, the `view`", "it has no separate `d_in`"],
        "zh": ["所以只要有多个 token 和多个头，`view`", "它没有单独的 `d_in`"],
        "pt": ["assim que há vários tokens e várias cabeças, o `view`", "ele não tem um `d_in` separado"],
    },
}
# What each language says instead (a phrase per statement), and notebook 4's d_out warning.
RIGHT_STATEMENTS = {
    # (The range of the shifted exponentials is no longer stated: softmax_stable's markdown asks for it.)
    "01_attention_scores": {"en": ["looks at the whole", "negative when the angle between them is over 90°",
                                   "rows are counted from 0", "from 0 (white) to 1 (dark blue)"],
                            "zh": ["同时查看整个上下文", "夹角超过 90° 时分数为负",
                                   "行号和 token 一样从 0 开始数", "从 0（白色）到 1（深蓝）"],
                            "pt": ["olha para o contexto inteiro", "negativo quando o ângulo entre eles passa de 90°",
                                   "as linhas são contadas a partir de 0", "de 0 (branco) a 1 (azul-escuro)"]},
    "02_self_attention": {"en": ["is whatever the embeddings make it,\nand it is symmetric",
                                 "Without\nindependence this fails", "and both are accepted"],
                          "zh": ["完全由嵌入决定，而且它是对称的", "不独立时这个结论就不成立", "两种都算对"],
                          "pt": ["é o que os embeddings fizerem dela, e ela é simétrica",
                                 "Sem independência isso falha", "os dois são aceitos"]},
    "03_causal_attention": {"en": ["skip the tiles wholly above the diagonal", "can never be exactly\n1",
                                   "position 1 is\nright **every time**", "The causal mask carries position"],
                            "zh": ["完全位于对角线以上的块直接跳过", "永远不可能恰好是 1", "位置 1 **每次都对**",
                                   "因果掩码携带了位置信息"],
                            "pt": ["pulam os blocos inteiramente acima da diagonal", "nunca pode dar exatamente 1",
                                   "a posição 1 acerta **todas as vezes**", "A máscara causal carrega posição"]},
    "04_multi_head_attention": {"en": ["⚠️ **`d_out` means two different things", "heads of **more than one feature**",
                                       "(`kdim`,\n`vdim`", "`True` means **hidden**", "so `forward` passes `~mask`"],
                                "zh": ["⚠️ **和书中一样，`d_out` 在这个笔记本中有两种不同的含义。**",
                                       "每个头有**不止一个特征**", "（`kdim`、`vdim`", "`True` 表示**隐藏**",
                                       "所以 `forward` 传入的是 `~mask`"],
                                "pt": ["⚠️ **`d_out` quer dizer duas coisas diferentes",
                                       "várias cabeças de **mais de uma característica**", "(`kdim`, `vdim`",
                                       "`True` quer dizer **oculto**", "por isso o `forward` passa `~mask`"]},
}


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_statements_the_review_found_wrong_stay_corrected(assignment):
    for language, notebook in _released_notebooks(assignment).items():
        text = "\n".join(cell.source for cell in notebook.cells)
        for wrong in WRONG_STATEMENTS.get(assignment, {}).get(language, []):
            assert wrong not in text, (language, wrong)
        for right in RIGHT_STATEMENTS[assignment][language]:
            assert right in text, (language, right)


def test_the_answer_on_position_embeddings_no_longer_claims_guessing():
    """The instructors' answer said a model without position embeddings does "little better than
    guessing"; measured, it is right about half of the time, and always at position 1 (the causal
    mask carries position). The answer no longer says it, and the notebook measures it instead."""
    answers = {cell.id: cell.source for cell in _cells(solution_notebook("03_causal_attention"))}
    assert "little better than\nguessing" not in answers["answer-learned"]
    assert "What would training give without the position embeddings?" not in answers["question-learned"]
    assert "positions-demo" in answers


def test_with_one_feature_per_head_the_view_after_transpose_works_and_with_two_it_fails():
    """What merge-md says of view after transpose(1, 2), in torch."""
    one_feature = torch.arange(6).view(1, 2, 3, 1).transpose(1, 2)  # (b, T, h, hd) with hd = 1
    assert one_feature.view(1, 3, 2).tolist() == [[[0, 3], [1, 4], [2, 5]]]
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.arange(12).view(1, 2, 3, 2).transpose(1, 2).view(1, 3, 4)


def test_the_causal_attention_prompt_and_docstring_no_longer_invite_is_causal():
    cells = {cell.id: cell.source for cell in _cells(student_notebook("03_causal_attention"))}
    for cell_id in ("task-CausalAttention", "answer-CausalAttention", "causal-attention-md"):
        assert "is_causal" not in cells[cell_id], cell_id


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
        assert printed_close(value, text), f"{value!r} not printed by the solution of {assignment}"
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


# ---------------------------------------------------------------- the trained demos, on several seeds


class _Demo:
    """The demo cells of a master notebook, run in this process on the solution's answers, with a
    model seed of our choosing: figures are not shown, words stay English, a demo that fails raises,
    and what each reveal(...) measured is kept."""

    def __init__(self, assignment: str, monkeypatch):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        monkeypatch.setattr(plt, "show", lambda: plt.close("all"))
        self.cells = {cell.id: cell.source for cell in _cells(solution_notebook(assignment))}
        self.revealed: dict[str, dict] = {}
        self.namespace = {**load_definitions(solution_notebook(assignment))[0], "reveal": self._reveal}
        self.run("setup")

    def _reveal(self, question, outcome=None, /, **fields):
        self.revealed[question] = answer_fields(QUESTIONS[question], outcome, fields)

    def run(self, cell_id: str, seed: int | None = None):
        source = self.cells[cell_id]
        if seed is not None:
            assert "torch.manual_seed(0)" in source
            source = source.replace("torch.manual_seed(0)", f"torch.manual_seed({seed})")
        exec(compile(source, cell_id, "exec"), self.namespace)
        return self.namespace


def test_the_word_order_demo_of_notebook_1_shows_the_weights_change_only_with_positions(monkeypatch, capsys):
    """order-md: without positions "journey"'s weights only move with the words (the same row read in
    either order); with a position vector per token, the weights themselves change."""
    demo = _Demo("01_attention_scores", monkeypatch)
    demo.run("example")
    capsys.readouterr()
    demo.run("order-demo")
    printed = capsys.readouterr().out.splitlines()
    rows = {line.split(":")[0].strip(): line.split(":", 1)[1].split("|") for line in printed if "forwards" in line}
    without, with_positions = rows["without positions"], rows["with positions"]
    assert without[0].replace("forwards", "").split() == without[1].replace("reversed", "").split()
    assert with_positions[0].replace("forwards", "").split() != with_positions[1].replace("reversed", "").split()
    assert demo.revealed["reversed_sentence"] == {"answer": "same"}


@pytest.mark.parametrize("assignment", ["03_causal_attention", "04_multi_head_attention"])
def test_the_trained_head_figures_draw_only_attention_weights(monkeypatch, capsys, assignment):
    """A reviewer's module with dropout on its scores drew "weights" of 36, and one with dropout on
    its context vectors negative ones: what passes through the dropout is drawn only when it is
    attention weights (rows from 0 to 1 summing to 1); otherwise the figure says why it is skipped."""
    demo = _Demo(assignment, monkeypatch)
    attention_weights = demo.run("learned-model")["attention_weights"]
    tokens = torch.randint(10, (4, 8), generator=torch.Generator().manual_seed(0))

    class Attention(torch.nn.Module):
        def __init__(self, passes):
            super().__init__()
            self.dropout, self.passes = torch.nn.Dropout(0.0), passes

        def forward(self, tokens):
            return self.dropout(self.passes(tokens))

    class Model(torch.nn.Module):
        def __init__(self, passes):
            super().__init__()
            self.attention = Attention(passes)

        def forward(self, tokens):
            return self.attention(tokens)

    scores = torch.randn(4, 8, 8, generator=torch.Generator().manual_seed(1)) * 10
    for passes, drawn in ((lambda tokens: torch.softmax(scores, dim=-1), True), (lambda tokens: scores, False)):
        model = Model(passes)
        arguments = (model, tokens) if assignment.startswith("03") else (model, tokens, [model.attention])
        capsys.readouterr()
        assert (attention_weights(*arguments) is not None) == drawn
        assert ("no attention weights" in capsys.readouterr().out) != drawn


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_one_way_relation_of_notebook_2_looks_as_its_text_says(monkeypatch, seed):
    """learned-result-md: with two matrices, once the task is learned, every digit puts nearly all of
    its weight on the next one; with one shared W the scores are symmetric, and on every seed at least
    one digit looks back at least as much as forward. The text states no accuracy: the demo prints it."""
    demo = _Demo("02_self_attention", monkeypatch)
    demo.run("learned-model")
    found = demo.run("learned-training", seed)
    two, one = found["accuracies"]
    assert two > 0.99
    weights = found["weights_by_digit"](found["two_matrices"], found["cards"])  # rows and columns by digit
    assert all(weights[digit, (digit + 1) % 8] > 0.8 for digit in range(8))
    shared = found["weights_by_digit"](found["one_matrix"], found["cards"])
    assert any(shared[digit, (digit - 1) % 8] >= shared[digit, (digit + 1) % 8] for digit in range(8))
    attention = found["one_matrix"].attention
    x = torch.randn(8, 16, generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        scores = attention.W_query(x) @ attention.W_key(x).T
    torch.testing.assert_close(scores, scores.T)  # one shared W: symmetric scores
    assert demo.revealed["shared_w"] == {"answer": "worse"}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_position_experiment_of_notebook_3_finds_what_its_text_says(monkeypatch, seed):
    """positions-result-md: about half right without position embeddings, position 1 every time,
    58 % at position 2 down to about a third at position 7; with them, nearly all."""
    demo = _Demo("03_causal_attention", monkeypatch)
    demo.run("learned-model")
    demo.run("learned-training", seed)
    found = demo.run("positions-demo", seed)
    assert 0.43 < found["overall"] < 0.55
    without = found["without"]
    assert without[0] > 0.99
    assert 0.5 < without[1] < 0.65
    assert 0.25 < without[6] < 0.4
    assert min(found["with_positions"]) > 0.95
    assert demo.revealed["no_positions"]["position_1"] == 100.0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_induction_heads_of_notebook_4_appear_as_its_text_says(monkeypatch, seed):
    """induction-result-md: a plateau at guessing for about a hundred steps, a creep down to about
    2.4, then a sudden fall of the loss on the repeated stretch to nearly 0 around step 200 while the
    other tokens stay at guessing; a layer-1 head looks at the earlier copy of the current token, a
    layer-2 head one column further right."""
    demo = _Demo("04_multi_head_attention", monkeypatch)
    demo.run("induction-model")
    found = demo.run("induction-training", seed)
    repeated, other = found["repeated_losses"], found["other_losses"]
    guessing = math.log(16)
    assert abs(sum(repeated[50:100]) / 50 - guessing) < 0.3  # the plateau
    assert 2.2 < sum(repeated[150:200]) / 50 < 2.6  # the creep
    assert sum(repeated[-50:]) / 50 < 0.3
    assert abs(sum(other[-50:]) / 50 - guessing) < 0.2
    fall = [step for step, loss in enumerate(repeated) if loss < 2.0][0], \
        [step for step, loss in enumerate(repeated) if loss < 0.5][0]
    assert 150 < fall[0] < 300
    assert fall[1] - fall[0] < 120
    assert found["earlier_copy"][found["looker"]] > 0.6
    assert found["after_copy"][found["inducer"]] > 0.6
    assert demo.revealed["induction"] == {"repeated": "near_zero", "other": "guessing"}


@pytest.mark.slow
def test_an_in_place_masked_softmax_no_longer_changes_the_figure_without_a_mask(monkeypatch):
    """The heat map computes its scores afresh and its "without a mask" weights before masked_softmax
    sees them: a masked_fill_ that writes into the scores leaves that panel unmasked."""
    def masked_softmax(attn_scores, d_k):
        hidden = torch.ones(attn_scores.shape[-2:], dtype=torch.bool).triu(diagonal=1)
        return torch.softmax(attn_scores.masked_fill_(hidden, -torch.inf) / d_k**0.5, dim=-1)

    demo = _Demo("03_causal_attention", monkeypatch)
    demo.run("scores")
    demo.namespace["masked_softmax"] = masked_softmax
    demo.run("masked-softmax-demo")
    found = demo.run("heatmap")
    assert found["before"].triu(diagonal=1).sum() > 1  # the panel without a mask shows the future
    assert torch.equal(found["after"].triu(diagonal=1), torch.zeros(6, 6))


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_answer_key_is_what_the_solutions_demos_measure(executed, assignment):
    """Every question of the notebook is revealed by the solution's own demo, and the answer key
    the grader judges predictions by holds for what it measured."""
    measured = {}
    for cell in executed[f"solutions/{assignment}"].cells:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get("attention_kit", {}).get("outcome")
            if record:
                measured[record["question"]] = record["measured"]
    questions = {question.id: question for question in questions_of(assignment)}
    assert set(measured) == set(questions)
    for question_id, outcome in measured.items():
        assert judge(questions[question_id], prediction_outcomes()[question_id], outcome), (question_id, outcome)
