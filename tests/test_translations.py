"""One master, three languages: the translated notebooks, their self-checks and their feedback.

The English, Chinese and Portuguese notebooks share every code cell and cell id; only the
markdown (from autograder/locales/) and one metadata key differ. A submission made from any of
them grades exactly alike, and its self-checks and feedback page speak its language, down to the
hidden tests' failure messages.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import importlib
import io
import json
import os
import re
import shutil
import string
import tokenize
from collections import Counter
from pathlib import Path

import nbformat
import pytest
import torch
from kit_notebooks import NOTEBOOK_TIMEOUT_S, errors, execute_notebooks, load_definitions, printed_text
from mutations import CORPUS
from nbclient import NotebookClient

from autograder.feedback import page as feedback_page
from autograder.findings.english import SENTENCES
from autograder.findings.finding import Failure, Finding, finding
from autograder.findings.render import render
from autograder.grading.engine import grade_class
from autograder.grading.outputs import write_outputs
from autograder.hidden import modules
from autograder.hidden.compare import expect_structure, expect_tensor
from autograder.hidden.failures import describe_failure
from autograder.hidden_tests import test_03_causal_attention as causal_tests
from autograder.hidden_tests import test_04_multi_head_attention as multi_head_tests
from autograder.notebooks import building as build_assignments
from autograder.notebooks import demo_words, self_checks_cell, stub_texts
from autograder.notebooks.translation import TranslationError, english_hash, translated_notebook, translation_problems
from autograder.notebooks.variants import filled, load_solution, with_answer, with_replacement, write_submission
from autograder.paths import ASSIGNMENTS_DIR, KIT_ROOT, LOCALES_DIR, solution_notebook, student_notebook
from autograder.probes.client import Submission
from autograder.probes.errors import StudentError
from autograder.reading.notebook import extract_definitions
from autograder.records.jobs import GradeOptions
from autograder.student import language as i18n
from autograder.student import think_about_it
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.language import LANGUAGES, TRANSLATIONS, kernel_language, notebook_language
from autograder.student.mistakes import MISTAKES
from autograder.student.selfcheck import catalog as selfcheck_catalog
from autograder.student.selfcheck import run_check
from autograder.tools import translations
from autograder.worker import forkserver

NOTEBOOKS = [(language, assignment) for language in TRANSLATIONS for assignment in ASSIGNMENTS]
# What a check prints for a stub, per language (the start of the line after the stage name).
# What a reader of each language must see, written here by someone who reads it (not read from the
# catalogs under test): a new language adds its words (docs/contributing, "Adding a language").
NOT_IMPLEMENTED = {"en": ": not implemented yet", "zh": "：尚未实现", "pt": ": ainda não implementado"}
PASSED = {"en": "passed its public check", "zh": "通过了公开检查", "pt": "passou na verificação pública"}


def words(table: dict[str, str], language: str) -> str:
    """``table``'s words for ``language``; a language the table lacks fails saying where to add them."""
    if language not in table:
        pytest.fail(f"tests/test_translations.py has no {language!r} words for {table['en']!r}: add them to its table"
                    " (docs/contributing, Adding a language)")
    return table[language]


def translated_path(language: str, assignment: str) -> Path:
    """The released notebook of ``assignment`` in ``language`` (English at its DESIGN.md path)."""
    if language == "en":
        return student_notebook(assignment)
    return ASSIGNMENTS_DIR / language / assignment / f"{assignment}.ipynb"


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


# ---------------------------------------------------------------- the notebooks (fast)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_the_module_its_setup_cell_imports_and_workers_preload_it(language):
    """The setup cell imports ``attention_kit_student.<language>``; workers cannot read the kit's folder,
    so the fork server must have imported it before they start."""
    assert callable(importlib.import_module(f"attention_kit_student.{language}").check)
    assert f"attention_kit_student.{language}" in forkserver.helper_modules()


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_every_markdown_cell_of_the_master_is_translated(language, assignment):
    master = nbformat.read(solution_notebook(assignment), as_version=4)
    assert translation_problems(master, language, assignment) == []


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_translated_notebook_has_the_english_code_cells_and_ids(language, assignment):
    english, translated = read_json(student_notebook(assignment)), read_json(translated_path(language, assignment))
    nbformat.validate(nbformat.reads(json.dumps(translated), as_version=4))
    assert [cell["id"] for cell in translated["cells"]] == [cell["id"] for cell in english["cells"]]
    catalog = i18n.load_catalog(language, assignment, LOCALES_DIR)
    for ours, theirs in zip(english["cells"], translated["cells"], strict=True):
        assert ours["cell_type"] == theirs["cell_type"]
        if ours["cell_type"] == "code" and ours["id"] == self_checks_cell.CELL_ID:  # written in each language
            assert _source(theirs) == self_checks_cell.self_checks_source(language)
        elif ours["cell_type"] == "code" and ours["metadata"].get("nbgrader", {}).get("solution"):
            # an answer cell: the same code, but for the words of its stub, its docstrings and comments
            # (stub_texts), and nbgrader's checksum
            stage = ours["metadata"]["nbgrader"]["grade_id"]
            stubs = i18n.load_catalog(language, stub_texts.catalog_name(assignment), LOCALES_DIR)
            assert _source(theirs) == stub_texts.translated_source(_source(ours), stubs).replace(
                self_checks_cell.stub("en", stage), self_checks_cell.stub(language, stage))
            assert _code_without_words(_source(theirs)) == _code_without_words(_source(ours)), ours["id"]
            assert self_checks_cell.stub(language, stage) in _source(theirs)
            assert {**theirs["metadata"]["nbgrader"], "checksum": None} == {**ours["metadata"]["nbgrader"],
                                                                            "checksum": None}
        elif ours["cell_type"] == "code":  # a demo: the same code, but for its words, comments, docstrings (demo_words)
            assert theirs == {**ours, "source": theirs["source"]}, f"code cell {ours['id']} differs in {language}"
            assert _source(theirs) == demo_words.translated_demo(_source(ours), language), ours["id"]
        elif think_about_it.question_of(ours):  # a think-about-it answer cell: written in each language
            assert theirs["metadata"] == ours["metadata"]
            assert _source(theirs) == think_about_it.answer_cell_source(language)
        else:
            assert theirs["metadata"] == ours["metadata"]
            assert _source(theirs) == "\n".join(catalog[ours["id"]]["markdown"])
            assert _source(theirs) != _source(ours), f"markdown cell {ours['id']} is not translated"
    assert translated["metadata"] == {**english["metadata"], "attention_kit": {"language": language}}
    assert notebook_language(translated) == language
    assert notebook_language(english) == "en"


def _code_without_words(source: str) -> str:
    """What Python runs of an answer cell: its syntax tree, without docstrings and the stub's message."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                getattr(node.exc.func, "id", None) == "NotImplementedError":
            node.exc.args = []
    return ast.dump(tree)


def _answer_texts(path: Path) -> dict[tuple[str, int], str]:
    """The docstrings, then the comments, of a notebook's answer cells, by cell id and place in the cell."""
    texts = {}
    for cell in stub_texts.answer_cells(nbformat.read(path, as_version=4)):
        docstrings = [ast.get_docstring(node) for node in ast.walk(ast.parse(cell.source))
                      if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node)]
        comments = [token.string.lstrip("#").strip() for token in tokenize.generate_tokens(
            io.StringIO(cell.source).readline) if token.type == tokenize.COMMENT]
        texts |= {(cell.id, place): text for place, text in enumerate(docstrings + comments)}
    return texts


# Words of English prose that neither language writes (pt's "e", "de", "com" and zh's characters are
# no such words); a translated docstring or comment holding one, outside its code, is left in English.
_ENGLISH_WORDS = re.compile(r"\b(the|of|with|and|every|each|when|returns?|that|which|is|are|from|into|its|"
                            r"your|code|here)\b", re.IGNORECASE)
# What a translation keeps as it is: inline code, calls, indexing and shapes (a parenthesis of
# names, numbers and operators, not an aside such as "(such as 1000)"), dotted or snake_case
# names, CamelCase classes, and the parameter names that start a line ("inputs:").
_BRACKETED = re.compile(r"`[^`]+`|[\w.]*\((?:[^()]|\([^()]*\))*\)|[\w.]*\[[^\]]*\]")
_ASIDE = re.compile(r"\b[A-Za-z]{2,}\s+\w|\d\s+[A-Za-z]{2,}")
_NAMES = re.compile(r"\b[A-Za-z]\w*(?:[._]\w+)+\b|\b[A-Z][a-z]+[A-Z]\w*\b|^[a-z_]\w*(?=:)", re.MULTILINE)


def _kept_as_is(text: str) -> Counter:
    """The code, shapes and math of a docstring, which every translation keeps."""
    bracketed = [span for span in _BRACKETED.findall(text) if span.startswith("`") or not _ASIDE.search(span)]
    return Counter(bracketed + _NAMES.findall(text))


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_every_stub_docstring_and_comment_is_translated_from_the_english_students_read(language, assignment):
    """The catalog translates the English student notebook's answer cells as they are today: a
    changed docstring (its hash) or a new comment fails here, and stops `make assignments`."""
    english = nbformat.read(student_notebook(assignment), as_version=4)
    assert stub_texts.translation_problems(english, language, assignment) == []


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_no_stub_of_a_translated_notebook_speaks_english(language, assignment):
    """Every docstring and comment of a translated notebook's answer cells reads in its language,
    and keeps the identifiers, shapes and formulas of the English."""
    english = _answer_texts(student_notebook(assignment))
    translated = _answer_texts(translated_path(language, assignment))
    assert set(translated) == set(english)
    for where, text in translated.items():
        prose = _NAMES.sub("", _BRACKETED.sub("", text))
        assert text != english[where], (language, where)
        assert not _ENGLISH_WORDS.search(prose), (language, where, text)
        if language == "zh":
            assert re.search(r"[\u4e00-\u9fff]", prose), (where, text)
        lost = _kept_as_is(english[where]) - _kept_as_is(text)
        assert not lost, f"{language}/{assignment} {where} lost {sorted(lost)}"


def test_a_translated_docstring_reads_exactly_as_its_catalog_writes_it():
    """Backslashes and quotes in a translation are escaped; the layout follows the English."""
    source = ('def f(x):\n    """One line."""\n    # YOUR CODE HERE\n    return x\n\n\n'
              'class A:\n    """Two.\n\n    Lines.\n    """\n')
    catalog = {"f": {"markdown": ['把 "\\n" 和 """ 留在 "x"']}, "A": {"markdown": ["两行。", "", "第二行 \\"]},
               "# YOUR CODE HERE": {"markdown": ["在这里写你的代码"]}}
    translated = stub_texts.translated_source(source, catalog)
    tree = ast.parse(translated)
    assert ast.get_docstring(tree.body[0]) == catalog["f"]["markdown"][0]
    assert ast.get_docstring(tree.body[1]) == "\n".join(catalog["A"]["markdown"])
    assert "    # 在这里写你的代码\n    return x" in translated
    assert translated.count("\n") == source.count("\n")


def test_a_changed_docstring_or_a_new_comment_stops_the_translation():
    english = nbformat.read(student_notebook("04_multi_head_attention"), as_version=4)
    cell = next(cell for cell in english.cells if cell.get("id") == "answer-split_heads")
    cell.source = cell.source.replace("a view of x", "a view of x, never a copy").replace(
        "# YOUR CODE HERE", "# YOUR CODE HERE\n    # (a view: no copy)")
    problems = stub_texts.translation_problems(english, "pt", "04_multi_head_attention")
    assert len(problems) == 2
    assert "pt/04_multi_head_attention.stubs.json: answer-cell text 'split_heads' changed" in problems[0]
    assert english_hash(stub_texts.english_texts(english)["split_heads"]) in problems[0]
    assert "answer-cell text '# (a view: no copy)' has no translation" in problems[1]
    with pytest.raises(TranslationError, match="split_heads"):
        stub_texts.with_stub_texts(english, "pt", "04_multi_head_attention")


_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def _untranslatable(markdown: str) -> list[str]:
    """Code blocks, inline code (whitespace-normalised, as markdown renders it) and math, its
    decimal commas (pt's ``2{,}77``) read as points.

    A translation keeps each of them (it may add some: "um `view` direto" for "viewing").
    """
    fences = _FENCE.findall(markdown)
    rest = _FENCE.sub("", markdown)
    spans = [" ".join(match.group(2).split()) for match in _CODE_SPAN.finditer(rest)]
    return sorted(fences + spans + [_DECIMAL_COMMA.sub(".", math) for math in _MATH.findall(_CODE_SPAN.sub("", rest))])


_DECIMAL_COMMA = re.compile(r"(?<=\d)\{,\}(?=\d)")  # LaTeX's comma that sets no space after it


def test_portuguese_math_writes_decimals_as_its_prose_does():
    """pt prose writes 0,8; its formulas do too (``0{,}8``: a bare comma in math adds a space), so
    that no number changes its decimal mark between a sentence and the formula beside it."""
    for assignment in ASSIGNMENTS:
        for cell in read_json(translated_path("pt", assignment))["cells"]:
            if cell["cell_type"] == "markdown":
                maths = _MATH.findall(_CODE_SPAN.sub("", _FENCE.sub("", _source(cell))))
                assert not [math for math in maths if re.search(r"\d\.\d", math)], (assignment, cell["id"])


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_translations_keep_every_identifier_shape_and_formula(language, assignment):
    english = {cell["id"]: _source(cell) for cell in read_json(student_notebook(assignment))["cells"]
               if cell["cell_type"] == "markdown"}
    translated = {cell["id"]: _source(cell) for cell in read_json(translated_path(language, assignment))["cells"]
                  if cell["cell_type"] == "markdown"}
    for cell_id, text in english.items():
        lost = Counter(_untranslatable(text)) - Counter(_untranslatable(translated[cell_id]))
        assert not lost, f"{language}/{assignment}, cell {cell_id} lost {sorted(lost)}"


def test_an_outdated_or_missing_translation_is_named(tmp_path):
    master = nbformat.read(solution_notebook("02_self_attention"), as_version=4)
    changed = copy.deepcopy(master)
    next(cell for cell in changed.cells if cell.id == "setup-md").source = "## Set-up"
    changed.cells.append(nbformat.v4.new_markdown_cell("A new remark.", id="new-remark"))
    del changed.cells[[cell.id for cell in changed.cells].index("summary")]
    problems = translation_problems(changed, "zh", "02_self_attention")
    assert len(problems) == 3
    assert "'setup-md' changed in the master" in problems[0]
    assert english_hash("## Set-up") in problems[0]
    assert "'new-remark' has no translation" in problems[1]
    assert "'summary' is not a markdown cell of the master any more" in problems[2]
    with pytest.raises(TranslationError, match="autograder/locales/zh/02_self_attention.json"):
        translated_notebook(changed, "zh", "02_self_attention")


@pytest.mark.slow
def test_the_build_stops_before_writing_when_a_translation_is_missing(tmp_path, monkeypatch):
    master = nbformat.read(solution_notebook("01_attention_scores"), as_version=4)
    master.cells.insert(1, nbformat.v4.new_markdown_cell("Untranslated.", id="untranslated"))
    path = tmp_path / "master.ipynb"
    nbformat.write(master, path)
    monkeypatch.setattr(build_assignments, "ASSIGNMENTS", ["01_attention_scores"])
    monkeypatch.setattr(build_assignments, "solution_notebook", lambda assignment_id: path)
    with pytest.raises(build_assignments.BuildError) as raised:
        build_assignments.build(tmp_path / "assignments", tmp_path / "course")
    message = str(raised.value)
    assert "nothing was written" in message
    for language in TRANSLATIONS:
        assert f"{language}/01_attention_scores.json: markdown cell 'untranslated' has no translation" in message
    assert not (tmp_path / "assignments").exists()


# ---------------------------------------------------------------- the catalogs (fast)


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("name", translations.CATALOGS)
def test_message_catalog_has_every_key_with_the_same_fields(language, name):
    english = translations.CATALOGS[name].english
    catalog = i18n.load_catalog(language, name, translations.CATALOGS[name].locales)
    assert set(catalog) == set(english), f"{translations.translations_path(language, name)} is out of step with English"
    for key, template in english.items():
        assert _fields(catalog[key]) == _fields(template), f"{language}/{name}.json: {key}"
        words = re.sub(r"\{[^}]*\}", "", template)
        if re.search(r"[a-z]{4}", words):
            assert catalog[key] != template, f"{language}/{name}.json: {key} is not translated"


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("name", translations.CATALOGS)
def test_every_message_translation_was_reviewed_against_todays_english(language, name):
    assert translations.review_problems(language, name) == []


def _findings_translating(english: dict[str, str], tmp_path, monkeypatch) -> Path:
    """The findings catalogs and their hashes, copied under ``tmp_path``, now translating ``english``."""
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES_DIR, locales)
    monkeypatch.setitem(translations.CATALOGS, "findings", translations.MessageCatalog(locales, english))
    return locales


def test_a_changed_english_message_fails_in_each_language_until_its_translation_is_reviewed(tmp_path, monkeypatch):
    changed = {"wrong_shape": "{what}: the shape is {actual_shape}.",
               "wrong_dtype": "{what}: the dtype is {actual_dtype}."}
    locales = _findings_translating({**SENTENCES, **changed}, tmp_path, monkeypatch)
    for language in TRANSLATIONS:
        shape, dtype = translations.review_problems(language, "findings")
        assert f"locales/{language}/findings.json: the English of 'wrong_shape' changed" in shape
        assert f"since its {language} translation was reviewed; it now reads '{{what}}: the shape is" in shape
        assert f"`python -m autograder.tools.translations review {language} findings wrong_shape`" in shape
        assert "'wrong_dtype'" in dtype
    before = read_json(locales / "zh" / "findings.hashes.json")
    assert translations.main(["review", "zh", "findings", "wrong_shape"]) == 0
    [left] = translations.review_problems("zh", "findings")
    assert "the English of 'wrong_dtype' changed" in left
    assert len(translations.review_problems("pt", "findings")) == 2  # each language is reviewed on its own
    after = read_json(locales / "zh" / "findings.hashes.json")
    assert list(after) == list(before)
    assert {key for key in after if after[key] != before[key]} == {"wrong_shape"}


def test_a_new_english_message_fails_until_it_is_translated_and_reviewed(tmp_path, monkeypatch, capsys):
    locales = _findings_translating({**SENTENCES, "brand_new": "A new sentence about {what}."}, tmp_path, monkeypatch)
    [problem] = translations.review_problems("zh", "findings")
    assert "locales/zh/findings.json: 'brand_new' has no zh translation" in problem
    assert translations.main(["review", "zh", "findings", "brand_new"]) == 1
    assert "has no 'brand_new': translate it first" in capsys.readouterr().err
    catalog = read_json(locales / "zh" / "findings.json")
    (locales / "zh" / "findings.json").write_text(json.dumps({**catalog, "brand_new": "关于 {what} 的新句子。"}))
    [problem] = translations.review_problems("zh", "findings")
    assert "the zh translation of 'brand_new' was never reviewed" in problem
    assert translations.main(["review", "zh", "findings", "brand_new"]) == 0
    assert translations.review_problems("zh", "findings") == []


def test_a_removed_english_message_fails_until_its_translation_and_hash_are_gone(tmp_path, monkeypatch):
    english = {key: text for key, text in SENTENCES.items() if key != "wrong_shape"}
    locales = _findings_translating(english, tmp_path, monkeypatch)
    [problem] = translations.review_problems("pt", "findings")
    assert problem.endswith("locales/pt/findings.json: 'wrong_shape' is no English message any more: remove it")
    catalog = read_json(locales / "pt" / "findings.json")
    del catalog["wrong_shape"]
    (locales / "pt" / "findings.json").write_text(json.dumps(catalog))
    [problem] = translations.review_problems("pt", "findings")
    assert "locales/pt/findings.hashes.json: 'wrong_shape' has no translation" in problem
    translations.review("pt", "findings", ["not_tensor"])  # any review rewrites the hashes keyed like the catalog
    assert translations.review_problems("pt", "findings") == []


def test_a_review_names_the_keys_or_says_all():
    with pytest.raises(SystemExit):
        translations.main(["review", "zh", "findings"])
    with pytest.raises(SystemExit):
        translations.main(["review", "zh", "findings", "wrong_shape", "--all"])


def test_every_chinese_character_a_figure_shows_is_in_the_bundled_font():
    """The demos' words and the figure captions in Chinese render with the font the student package
    ships (matplotlib's own has no Chinese); `make cjk-font` rewrites it when a text needs more."""
    from fontTools.ttLib import TTFont

    from autograder.notebooks.cjk_font import characters
    from autograder.student.selfcheck.figures import CJK_FONT

    covered = set(TTFont(CJK_FONT).getBestCmap())
    assert not [char for char in characters() if ord(char) not in covered]


# ---------------------------------------------------------------- which language a kernel runs (fast)


@pytest.fixture
def plain_kernel(monkeypatch, tmp_path):
    """No hint from the environment; the working directory holds no notebook."""
    for variable in (i18n.LANGUAGE_VARIABLE, "JPY_SESSION_NAME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_kernel_language_is_english_without_a_notebook(plain_kernel):
    assert kernel_language({}, "01_attention_scores") == "en"


@pytest.mark.parametrize("language", LANGUAGES)
def test_kernel_language_follows_the_notebook_jupyter_started_it_for(plain_kernel, language):
    path = translated_path(language, "03_causal_attention")
    assert kernel_language({"__session__": str(path)}, "03_causal_attention") == language
    assert kernel_language({"__vsc_ipynb_file__": str(path)}, "03_causal_attention") == language


def test_kernel_language_reads_the_notebook_metadata_wherever_the_file_is(plain_kernel, monkeypatch):
    copied = plain_kernel / "my copy.ipynb"
    shutil.copyfile(translated_path("pt", "01_attention_scores"), copied)
    monkeypatch.setenv("JPY_SESSION_NAME", str(copied))
    assert kernel_language({}, "01_attention_scores") == "pt"


def test_kernel_language_falls_back_to_the_notebook_in_the_working_directory(plain_kernel):
    shutil.copyfile(translated_path("zh", "04_multi_head_attention"), plain_kernel / "04_multi_head_attention.ipynb")
    assert kernel_language({}, "04_multi_head_attention") == "zh"
    assert kernel_language({}, "01_attention_scores") == "en"


def test_kernel_language_of_an_unreadable_notebook_comes_from_its_path(plain_kernel):
    missing = plain_kernel / "assignments" / "zh" / "01_attention_scores" / "01_attention_scores.ipynb"
    assert kernel_language({"__session__": str(missing)}, "01_attention_scores") == "zh"
    broken = plain_kernel / "pt" / "02_self_attention" / "02_self_attention.ipynb"
    broken.parent.mkdir(parents=True)
    broken.write_text("{ not json")
    assert kernel_language({"__session__": str(broken)}, "02_self_attention") == "pt"


def test_the_environment_variable_chooses_the_language(plain_kernel, monkeypatch):
    monkeypatch.setenv(i18n.LANGUAGE_VARIABLE, "PT")
    assert kernel_language({"__session__": str(translated_path("zh", "01_attention_scores"))}, None) == "pt"
    monkeypatch.setenv(i18n.LANGUAGE_VARIABLE, "klingon")
    assert kernel_language({}, None) == "en"


@pytest.mark.parametrize("value", [None, "x-none", 3, ["zh"], {"language": "x-none"}])  # codes no kit will list
def test_unknown_declared_languages_mean_english(value):
    assert notebook_language({"cells": [], "metadata": {"attention_kit": {"language": value}}}) == "en"
    assert notebook_language({"cells": [], "metadata": {"attention_kit": value}}) == "en"
    assert notebook_language({"cells": [], "metadata": value}) == "en"


# ---------------------------------------------------------------- self-checks (fast)


@pytest.mark.parametrize("language", LANGUAGES)
def test_self_checks_speak_the_notebooks_language(plain_kernel, language):
    assignment = "03_causal_attention"
    path = translated_path(language, assignment)
    stubs, _ = load_definitions(path)
    solved, _ = load_definitions(solution_notebook(assignment))
    stubs["__session__"] = solved["__session__"] = str(path)
    for stage in STAGES_BY_ASSIGNMENT[assignment]:
        assert run_check(stage, stubs).message.startswith(f"❌ {stage}{words(NOT_IMPLEMENTED, language)}")
        assert run_check(stage, solved).message == f"✅ {stage} {words(PASSED, language)}"
    wrong = dict(solved, causal_mask=lambda num_tokens, device=None: solved["causal_mask"](num_tokens).T)
    result = run_check("causal_mask", wrong)
    hint = selfcheck_catalog.texts(language)["mask_swapped"]  # the future shown, the past hidden: a named mistake
    assert hint == selfcheck_catalog._sentence((MISTAKES if language == "en" else i18n.load_catalog(
        language, "mistakes"))["mask_swapped"])
    assert result.hint == hint
    assert hint not in result.message  # the fix waits until the student asks for it


def test_an_explicit_language_wins_and_the_english_default_is_untouched(plain_kernel):
    stubs, _ = load_definitions(student_notebook("01_attention_scores"))
    assert run_check("softmax_naive", stubs, language="zh").message.startswith("❌ softmax_naive：尚未实现")
    assert run_check("softmax_naive", stubs).message.startswith("❌ softmax_naive: not implemented yet")


# ---------------------------------------------------------------- findings in every language (fast)

# A sample of every plain field of the findings, as the hidden tests and the grader fill them in.
SAMPLES = {
    "call": "MultiHeadAttentionWrapper(3, 2, 8, 0.0, 3)", "argument": "attn_scores", "attribute": "sa_v1.W_query",
    "module": "sa_v1", "name": "heads.0.W_key.weight", "stages": "split_heads, merge_heads",
    "class_name": "MultiHeadAttention",
    "names": "mask, causal_bias", "type_name": "tuple", "error_type": "RuntimeError", "shape": "(2, 5, 4)",
    "before": "(2, 6, 4)",
    "actual_shape": "(2, 3)", "expected_shape": "(3, 2)", "index": "(0, 1, 2)", "queries_shape": "(2, 5, 3)",
    "keys_shape": "(2, 6, 3)", "actual_dtype": "torch.float64", "expected_dtype": "torch.float32",
    "actual_device": "cpu", "expected_device": "meta", "count": 17, "total": 40, "position": 2, "heads": 3,
    "got": 6, "cap": 80, "expected_heads": 2, "features": 10, "tokens": 1024, "value": "-0.5", "difference": "0.12",
    "p": "0.75",
    "fraction": "12.0%", "expected_fraction": "75%", "parameters": "2,360,064",
    "expected_parameters": "2,359,296", "kinds": "['CausalAttention', 'Linear']", "stage": "softmax_naive",
    "dtype": "torch.bool", "limit": "10", "budget": "60", "cell": 7, "line": 3, "reason": "invalid syntax",
    "characters": "250,000",
    "error": "EOFError: the worker went away", "message": "p must be in [0, 1]", "text": "a message of its own",
    "functions": "softmax",
    "first_line": "class CausalAttention(nn.Module):", "factor": "1/8", "order": "(0, 2, 1, 3)", "first": -2,
    "second": -1, "row": 0, "dim": -1, "expected_dim": -2, "sums": "1.5, 2, 0.75", "factors": "1, 2, 3", "along": -2,
    "divisor": "64", "divisors": "1054, 1041", "decimals": 4, "right": "sqrt(d_k) = 2", "later": 3, "low": -3,
    "high": 2,
    "written": "__init_",
    "meant": "__init__", "owner": "torch.nn", "suggestion": "Module", "keyword": "biass",
    "function": "Linear.__init__", "kept": 36, "sizes": "d_out = 10", "asked": 30, "size": 120,
    "last": 3, "method": "register_buffer", "context_length": 8, "parameter": "training", "given": "True",
    "layers": "self.dropout.p = 0.5", "actual": "True", "expected": "False", "head": 1,
    "calls": 9, "more_tokens": 9, "more_calls": 21, "arguments": "inputs, query", "rows": "(1, 4)",
    "indices": "(0, 2)",
}
# Fields that hold phrases of the table itself (nested findings), with an example of each.
PHRASES = {
    "what": finding("what.for_shape", call="softmax_naive(x, dim=1)", argument="x", shape="(2, 5, 4)"),
    "problems": [finding("problems.missing", name="W_value", shape="(3, 4)"), finding("problems.more", count=2)],
    "blocks": [finding("evidence.block_holds", first=0, last=1, head=1),
               finding("evidence.block_holds", first=2, last=3, head=0)],
    "doing": finding("doing.answering"),
    "found": finding("raised", error_type="RuntimeError", message="shape '[2, 5, 3, 4]' is invalid"),
    "forms": finding("evidence.forms", forms="1/sqrt(64)"),
    "evidence": finding("evidence.scores_divided_by", divisor="1", forms=finding("evidence.no_forms"),
                        right="sqrt(d_k) = 2"),
    "problem": finding("syntax_error", cell=finding("cell.code", position=3, count=9, first_line="def f(:"), line=1,
                       reason="invalid syntax"),
}


def _sample(key: str) -> Finding:
    """A finding of ``key`` with every field filled as the grader fills it."""
    fields = {field: PHRASES[field] if field in PHRASES else SAMPLES[field] for field in _fields(SENTENCES[key])}
    return Finding(key, fields)


def _english_fragments() -> list[str]:
    """The fixed words of the English table: what a translated message must not keep."""
    fragments = set()
    for template in SENTENCES.values():
        for part in re.split(r"\{\w+\}", template):
            part = part.strip(" .,;:()")
            # Two words at least: a single word ("tokens") may be the same in a translation.
            if " " in part and re.search(r"[a-z]{4}", part):
                fragments.add(part)
    return sorted(fragments)


ENGLISH_FRAGMENTS = _english_fragments()


def _quoted_messages(found) -> list[str]:
    """The exception messages a finding (and those it holds) quotes verbatim."""
    held, quoted = [found], []
    while held:
        one = held.pop()
        held.extend(one.nested())
        if one.key == "raised" and "message" in one.fields:
            quoted.append(str(one.fields["message"]))
    return quoted


def _english_left(text: str) -> list[str]:
    return [fragment for fragment in ENGLISH_FRAGMENTS if fragment in text]


# Keys that are no finding of their own: they join or end other findings' renderings.
JOINERS = {"hint.likely_mistake", "hint.same_mistake", "hint.another_fault", "problems.separator"}


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("key", sorted(set(SENTENCES) - JOINERS))
def test_every_finding_is_rendered_in_every_language_with_its_fields(language, key):
    found = _sample(key).with_mistake("softmax_wrong_dim")
    localized = render(found, language)
    assert not _english_left(localized), localized
    for field, value in found.fields.items():
        if field not in PHRASES:
            assert str(value) in localized, (field, localized)
    assert i18n.load_catalog(language, "mistakes")["softmax_wrong_dim"] in localized
    assert "Likely mistake" not in localized
    assert render(found, "en").startswith(SENTENCES[key].split("{")[0])


def test_a_finding_travels_as_json_and_back():
    found = _sample("parameters").with_mistake("missing_out_proj").with_notes(
        finding("while_loading", problems=[_sample("syntax_error")]), detail="  File <cell 3>")
    assert Finding.from_json(json.loads(json.dumps(found.to_json()))) == found
    assert found.mistakes() == {"missing_out_proj"}


def test_chinese_sentences_use_full_width_punctuation():
    catalog = i18n.load_catalog("zh", "findings", LOCALES_DIR)
    for key, english in SENTENCES.items():
        if "." not in key and english.endswith("."):
            assert catalog[key].endswith("。"), key
    for key, text in catalog.items():
        # Between Chinese words (or after {what}), ASCII , ; : read as typos; inside code they stay.
        assert not re.search(r"[\u4e00-\u9fff}][,;:]", text), (key, text)


def _keys(found: Finding) -> set[str]:
    """The keys of a finding and of every finding inside it."""
    nested = [value for value in found.fields.values() if isinstance(value, Finding)]
    nested += [item for value in found.fields.values() if isinstance(value, list) for item in value]
    return {found.key}.union(*(_keys(item) for item in [*nested, *found.notes]))


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_the_graders_own_findings_are_rendered_without_english(language):
    """describe_failure's findings, as the grader produces them."""
    submission = Submission(None, set(), [finding("syntax_error", cell=5, line=2, reason="invalid syntax")])

    def failure(error):
        try:
            raise error
        except BaseException:  # noqa: BLE001 - any error the tests can meet
            return describe_failure(pytest.ExceptionInfo.from_current(), "softmax_naive", submission)[1]

    findings = [
        failure(StudentError("NotImplementedError", "softmax_naive: replace this line with your code")),
        failure(StudentError("NameError", "name 'weights' is not defined")),
        failure(StudentError("NameError", "softmax_naive is not defined in your notebook", "",
                             undefined_name="softmax_naive")),
        failure(AssertionError("")),
        failure(KeyError("x")),
        failure(Failure(finding("values_differ", "softmax_whole_tensor", what="softmax_naive(x)", count=3,
                                total=6, difference="0.5", index="(0, 1)", value="0.25"))),
    ]
    for found in findings:
        assert _keys(found) <= set(SENTENCES), found
        localized = render(found, language)
        assert not _english_left(localized), (found, localized)
        assert "Likely mistake" not in localized


class _Student:
    """A submission whose every call returns ``result``, or raises it."""

    def __init__(self, result):
        self.result = result

    def call(self, name, *args, **kwargs):
        if isinstance(self.result, Exception):
            raise self.result
        return self.result

    def call_then_fill(self, name, args, fills):
        return self.call(name, *args)

    def call_reporting_changes(self, name, *args, **kwargs):
        return self.call(name, *args, **kwargs), []


class _RejectsWithTypeError(_Student):
    """An inverted_dropout that raises a TypeError for p outside [0, 1], and answers for a valid p."""

    def call(self, name, x, p, *args, **kwargs):
        if not 0 <= p <= 1:
            raise StudentError("TypeError", "bad")
        return self.result


class _Module:
    """A student's module as the probe client describes it: no parameters, ``plain`` tensors (which
    stay on the CPU, so that running it on the stand-in GPU fails as torch does)."""

    def __init__(self, plain=(), buffers=(), output_shape=(2, 6, 4)):
        self.plain, self.buffers, self.output_shape = list(plain), dict.fromkeys(buffers), output_shape

    def to(self, *args):
        return self

    def describe(self):
        return {"parameters": {"W_o": ([4, 4], "float32")}, "plain_tensor_attributes": self.plain,
                "buffers": self.buffers}

    def call_on_stand_in_gpu(self, x):
        if self.plain:
            raise StudentError("RuntimeError", "Expected all tensors to be on the same device,"
                               " but found at least two devices, cuda:0 and cpu!")
        return torch.zeros(self.output_shape, device=x.device)


def _failure(check) -> Finding:
    with pytest.raises(Failure) as raised:
        check()
    return raised.value.finding


def _real_failures() -> list[Finding]:
    """Findings of the comparisons, the shared module checks and some hidden tests."""
    x = torch.arange(6.0).view(2, 3)
    nan = x.clone()
    nan[0, 1] = torch.nan
    mask = torch.ones(3, 3, dtype=torch.bool).triu(1)
    reference = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 4))
    leaky = x.new_tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]])
    what = finding("what.for_shape", call="softmax_naive(x, dim=1)", argument="x", shape="(2, 3)")
    return [
        _failure(lambda: expect_tensor([0.5], x, what)),
        _failure(lambda: expect_tensor(x.T, x, what, mistakes={"softmax_wrong_dim": [x.T]})),
        _failure(lambda: expect_tensor(x.int(), x, what)),
        _failure(lambda: expect_structure(x, x.to("meta"), what)),
        _failure(lambda: expect_tensor(nan, x, what, mistakes={"softmax_overflow": [nan]})),
        _failure(lambda: expect_tensor(x + 1, x, what)),
        _failure(lambda: expect_tensor(mask.T, mask, "causal_mask(3)", mistakes={"mask_swapped": [mask.T]})),
        _failure(lambda: modules.load_reference_weights(_Module(), reference, "CausalAttention(4, 4, 6, 0.0)")),
        _failure(lambda: modules.expect_runs_on_stand_in(_Module(plain=["mask"]), (2, 6, 5), (2, 6, 4),
                                                     "CausalAttention(5, 4, 8, 0.1)")),
        _failure(lambda: modules.expect_on_stand_in(torch.zeros(2, 4, device="meta"),
                                                    torch.empty(2, 6, 4, device="meta"),
                                                    finding("what.on_meta", what="SelfAttention_v1(5, 4)",
                                                            shape="(2, 6, 5)"))),
        _failure(lambda: modules.expect_no_future_leakage(lambda x: x.flip(1).cumsum(1).flip(1),
                                                          lambda x: x.cumsum(1), leaky, 0,
                                                          "MultiHeadAttention(2, 2, 4, 0.0, 1)")),
        _failure(lambda: causal_tests.test_inverted_dropout_rejects_invalid_p(_Student(x), 1.5)),
        _failure(lambda: causal_tests.test_inverted_dropout_rejects_invalid_p(_RejectsWithTypeError(x), -0.1)),
        _failure(lambda: causal_tests.test_inverted_dropout_follows_the_generator(
            _Student(torch.ones(40, 50)), "cpu")),
        _failure(lambda: causal_tests.test_inverted_dropout_in_training(
            _Student(torch.ones(40, 50)), "cpu", torch.float32, 101, 0.1)),
        _failure(lambda: multi_head_tests.test_split_heads_returns_a_view(_Student(torch.zeros(2, 3, 5, 4)))),
        _failure(lambda: multi_head_tests.test_split_heads_rejects_indivisible_sizes(_Student(x), 3)),
    ]


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_real_failures_are_rendered_without_english(language):
    for found in _real_failures():
        assert _keys(found) <= set(SENTENCES), found
        assert _english_left(render(found)), f"not a finding of the hidden tests: {found}"
        localized = render(found, language)
        assert not _english_left(localized), (found, localized)
        assert "Likely mistake" not in localized


def _string_literals(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module (f-string parts included), without its docstrings and
    the patterns given to re.compile (torch's own words, matched and never shown)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and ast.get_docstring(node)}
    patterns = {id(constant) for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile"
                and node.args for constant in ast.walk(node.args[0])}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | patterns]


MESSAGE_SOURCES = sorted([*(KIT_ROOT / "autograder" / "hidden").glob("*.py"),
                          *(KIT_ROOT / "autograder" / "hidden_tests").glob("test_*.py"),
                          KIT_ROOT / "autograder" / "grading" / "plugin.py",
                          KIT_ROOT / "autograder" / "sandbox" / "session.py"])


@pytest.mark.parametrize("path", MESSAGE_SOURCES, ids=lambda path: path.name)
def test_findings_are_worded_only_in_the_table(path):
    """An English sentence written straight into a check would stay English on every page: words
    belong in findings.english.SENTENCES, with their translations."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    keys = [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "finding"
            and isinstance(node.args[0], ast.Constant)]
    assert set(keys) <= set(SENTENCES)
    if "hidden" in path.parts or "hidden_tests" in path.parts:
        english = [(line, text) for line, text in _string_literals(path)
                   if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", text)]
        assert not english, f"{path.name}: word these with a key of findings.english.SENTENCES: {english}"


@pytest.mark.slow
@pytest.mark.xdist_group("meta-class")  # reads the meta-class, graded once per session
@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_mutants_failure_is_rendered_without_english(graded_mutants, language):
    """Every finding of a failed test of every mistake of the corpus (tests/mutations.py and
    tests/wrong_answers.py), graded by the engine in the meta-class. An exception's own message is
    quoted as torch wrote it, in English, in every language: it is left out of what is read."""
    assert len(graded_mutants) > 50
    for found in graded_mutants:
        localized = render(found, language)
        for quoted in _quoted_messages(found):
            localized = localized.replace(quoted, "")
        assert not _english_left(localized), (found, localized)
        assert "Likely mistake" not in localized


@pytest.fixture(scope="module")
def graded_mutants(graded) -> list[Finding]:
    rows = [graded[(mutation.name, mutation.assignment)] for mutation in CORPUS]
    failed = {json.dumps(test.finding.to_json(), sort_keys=True) for row in rows for test in row.tests
              if test.status == "failed"}
    return [Finding.from_json(json.loads(text)) for text in sorted(failed)]


# ---------------------------------------------------------------- grading the three languages (slow)

ASSIGNMENT = "01_attention_scores"
STUDENTS = {"en": "from_en", "zh": "from_zh", "pt": "from_pt"}


def _submission(language: str) -> dict:
    """The same answers in the notebook of ``language``: right, wrong, endless, stubbed, broken."""
    student = read_json(translated_path(language, ASSIGNMENT))
    notebook = filled(student, load_solution(ASSIGNMENT),
                      ["attention_scores_for_query", "attention_scores", "softmax_naive"])
    notebook = with_replacement(notebook, "softmax_naive", "exp_x.sum(dim=dim, keepdim=True)", "exp_x.sum()")
    notebook = with_answer(notebook, "softmax_stable",
                           "import torch\n\ndef softmax_stable(x, dim=-1):\n    while True:\n        pass\n")
    return with_answer(notebook, "simple_self_attention",
                       "def simple_self_attention(inputs):\n    return weights @ inputs\n")  # a demo variable


@pytest.fixture(scope="module")
def graded_languages(tmp_path_factory):
    root = tmp_path_factory.mktemp("languages")
    for language, student in STUDENTS.items():
        write_submission(root / "submitted", student, ASSIGNMENT, _submission(language))
    rows = grade_class(root / "submitted", root / "out", GradeOptions(jobs=2, timeout=3, device="cpu"))
    write_outputs(root / "out", rows)
    return root / "out", {row.student_id: row for row in rows}


@pytest.mark.slow
@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translated_submission_grades_exactly_like_the_english_one(graded_languages, language):
    out, rows = graded_languages
    english, translated = rows[STUDENTS["en"]], rows[STUDENTS[language]]
    assert (translated.status, translated.score, translated.max_score) == (english.status, english.score,
                                                                          english.max_score)
    assert translated.tests == english.tests
    assert {test.status for test in english.tests} == {"passed", "failed", "error", "timeout"}
    results = {student: read_json(out / "results" / student / f"{ASSIGNMENT}.json") for student in STUDENTS.values()}
    for document in results.values():
        del document["student_id"]
    assert results[STUDENTS[language]] == results[STUDENTS["en"]]  # the results JSON stays language-neutral
    grades = (out / "grades.csv").read_text().splitlines()
    assert {line.split(",", 1)[1] for line in grades[1:]} == {grades[1].split(",", 1)[1]}


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_feedback_page_is_in_the_notebooks_language(graded_languages, language):
    out, rows = graded_languages
    page = (out / "feedback" / STUDENTS[language] / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    text = feedback_page.page_text(language)
    assert re.search(rf'<html lang="{re.escape(i18n.HTML_LANG[language])}"[ >]', page), page[:200]
    for key in ("column.stage", "column.tests_passed", "column.points", "status.failed", "status.error",
                "status.timeout"):
        assert text[key] in page
    assert text["heading"].format(assignment_id=ASSIGNMENT, student_id=STUDENTS[language]) in page
    mistakes = MISTAKES if language == "en" else i18n.load_catalog(language, "mistakes")
    assert mistakes["softmax_whole_tensor"] in page
    catalog = i18n.load_catalog(language, "findings", LOCALES_DIR) if language != "en" else None
    expected = ["context_vector is not implemented yet", "Your code raised NameError", "Your code ran longer",
                "not run: an earlier test of this stage"]
    if catalog is not None:
        expected = [catalog["not_implemented"].format(stage="context_vector"),
                    catalog["raised"].format(error_type="NameError", message=""),
                    catalog["timeout"].format(limit="3", doing=catalog["doing.answering"]), catalog["stage_timed_out"]]
        english_left = ["is not implemented yet", "Likely mistake", "Your code raised", "Your code ran longer",
                        "not run:", "Only imports", "Not yet right", "Ran out of time", "feedback for",
                        "Tests passed", "were graded"]
        assert [fragment for fragment in english_left if fragment in page] == []
    for sentence in expected:
        assert sentence in page.replace("&#39;", "'"), sentence


# ---------------------------------------------------------------- running the notebooks (slow)


@pytest.mark.slow
def test_translated_notebooks_run_and_their_checks_speak_their_language(tmp_path):
    """Every translated student notebook, run in a kernel as Jupyter would start one.

    Chinese: the kernel runs in the notebook's folder (found there by name). Portuguese: the
    kernel runs elsewhere and Jupyter's JPY_SESSION_NAME names the notebook.
    """
    python_path = os.pathsep.join(filter(None, [str(KIT_ROOT), os.environ.get("PYTHONPATH")]))
    env = {key: value for key, value in os.environ.items() if key not in (i18n.LANGUAGE_VARIABLE, "JPY_SESSION_NAME")}
    runs = {}
    for language, assignment in NOTEBOOKS:
        folder = tmp_path / language / assignment
        folder.mkdir(parents=True)
        copied = folder / f"{assignment}.ipynb"
        shutil.copyfile(translated_path(language, assignment), copied)
        kernel_env = {**env, "PYTHONPATH": python_path}
        cwd = folder
        if language == "pt":
            kernel_env["JPY_SESSION_NAME"] = str(copied)
            cwd = tmp_path
        runs[(language, assignment)] = (nbformat.read(copied, as_version=4), cwd, kernel_env)

    async def run(notebook, cwd, kernel_env, slots):
        async with slots:  # two kernels at a time: a busy two-core machine times out twelve
            await NotebookClient(notebook, timeout=NOTEBOOK_TIMEOUT_S, kernel_name="python3", allow_errors=True,
                                 resources={"metadata": {"path": str(cwd)}}).async_execute(env=kernel_env)

    async def run_all():
        slots = asyncio.Semaphore(2)
        await asyncio.gather(*(run(*job, slots) for job in runs.values()))

    asyncio.run(run_all())
    for (language, assignment), (notebook, _, _) in runs.items():
        stages = STAGES_BY_ASSIGNMENT[assignment]
        for cell_id, name, message in errors(notebook):
            assert name == "NotImplementedError", f"{language}/{assignment} cell {cell_id} raised {name}: {message}"
        text = printed_text(notebook)
        for stage in stages:
            assert f"❌ {stage}{words(NOT_IMPLEMENTED, language)}" in text, f"{language}/{assignment}: {stage}"
        assert "not implemented yet" not in text
        assert "✅" not in text


def test_extracted_code_carries_the_notebooks_language():
    for language in TRANSLATIONS:
        assert extract_definitions(read_json(translated_path(language, ASSIGNMENT))).language == language
    assert extract_definitions(read_json(student_notebook(ASSIGNMENT))).language == "en"


def test_a_demos_words_are_translated_and_its_data_is_not():
    """Only a literal that is words of the catalog changes, in place; what a cell returns, compares or
    gives to predict/reveal, and an f-string's parts, stay; words over several lines stay so."""
    catalog = {"guessing": "猜测", "loss:": "损失：",
               "a long sentence of words": "a much longer sentence made of many words"}
    source = ('print("loss:", 1)\n'
              'ax.plot([0], label="guessing")\n'
              'def outcome(loss):\n    return "guessing" if loss > 1 else "near_zero"\n'
              'reveal("induction", "guessing")\n'
              'same = kind == "guessing"\n'
              'print(f"loss: {1}")\n'
              'print("a long sentence"\n      " of words")\n')
    translated = demo_words.translated_source(source, catalog)
    assert translated == ('print("损失：", 1)\n'
                          'ax.plot([0], label="猜测")\n'
                          'def outcome(loss):\n    return "guessing" if loss > 1 else "near_zero"\n'
                          'reveal("induction", "guessing")\n'
                          'same = kind == "guessing"\n'
                          'print(f"loss: {1}")\n'
                          'print("a much longer"\n      " sentence made"\n      " of many words")\n')


@pytest.mark.slow
def test_demos_print_and_draw_in_the_notebooks_language(tmp_path):
    """With the answers filled in, a Chinese or Portuguese notebook's demos print their words in its
    language (the build translated their literals, autograder.notebooks.demo_words), and its figures draw every
    character (matplotlib warns of a glyph it lacks: none may)."""
    from autograder.student.language import load_catalog as student_catalog

    notebooks = {}
    for language in TRANSLATIONS:
        for assignment in ("01_attention_scores", "03_causal_attention"):
            solution = nbformat.read(solution_notebook(assignment), as_version=4)
            student = nbformat.read(translated_path(language, assignment), as_version=4)
            notebooks[f"{language}/{assignment}"] = nbformat.from_dict(
                filled(student, solution, STAGES_BY_ASSIGNMENT[assignment]))
    executed = execute_notebooks(notebooks, tmp_path)
    for key, notebook in executed.items():
        language = key.split("/")[0]
        assert errors(notebook) == [], key
        text = printed_text(notebook)
        demos = student_catalog(language, "demos")
        english = ["scores of 'journey':", "the same, with position vectors added:"] if "01" in key else [
            "same as the loop:", "the mask is a buffer:"]
        for words in english:
            assert demos[words] in text, (key, words)
            assert words not in text, (key, words)
        stderr = "".join(output.get("text", "") for cell in notebook.cells for output in cell.get("outputs", [])
                         if output.get("name") == "stderr")
        assert "Glyph" not in stderr, key


@pytest.mark.parametrize("language", ["en", *TRANSLATIONS])
def test_a_mistake_told_above_is_named_again_in_short(language):
    """A reviewer's page alternated two mistakes' groups, so "the same as above" pointed to the
    other one: the short name (what the mistake looks like, without its fix) follows it."""
    found = _sample("values_differ").with_mistake("softmax_wrong_dim")
    said = (MISTAKES if language == "en" else i18n.load_catalog(language, "mistakes"))["softmax_wrong_dim"]
    short = re.split(r":\s|：", said, maxsplit=1)[0]
    localized = render(found, language, told=frozenset({"softmax_wrong_dim"}))
    assert short in localized
    assert said not in localized
