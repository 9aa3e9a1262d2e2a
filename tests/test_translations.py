"""One master, three languages: the translated notebooks, their self-checks and their feedback.

The English, Chinese and Portuguese notebooks share every code cell and cell id; only the
markdown (from autograder/locales/) and one metadata key differ. A submission made from any of
them grades exactly alike, and its self-checks and feedback page speak its language.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import re
import shutil
import string
from collections import Counter
from pathlib import Path

import nbformat
import pytest
from kit_notebooks import errors, load_definitions, printed_text
from nbclient import NotebookClient

from autograder import build_assignments, feedback_text, i18n
from autograder.compare import mistake_hint
from autograder.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.engine import GradeOptions, grade_class
from autograder.feedback_text import GRADER_SENTENCES, PAGE_TEXT, localize_message
from autograder.grading_plugin import describe_failure
from autograder.i18n import LANGUAGES, TRANSLATIONS, kernel_language, notebook_language
from autograder.mistakes import MESSAGES as MISTAKES
from autograder.notebook_code import extract_definitions
from autograder.notebook_translation import TranslationError, english_hash, translated_notebook, translation_problems
from autograder.notebook_variants import filled, load_solution, with_answer, with_replacement, write_submission
from autograder.outputs import write_outputs
from autograder.paths import ASSIGNMENTS_DIR, KIT_ROOT, solution_notebook, student_notebook
from autograder.probe_client import StudentError, Submission
from autograder.selfcheck import MESSAGES as SELFCHECK_MESSAGES
from autograder.selfcheck import run_check

NOTEBOOKS = [(language, assignment) for language in TRANSLATIONS for assignment in ASSIGNMENTS]
# What a check prints for a stub, per language (the start of the line after the stage name).
NOT_IMPLEMENTED = {"en": ": not implemented yet", "zh": "：尚未实现", "pt": ": ainda não implementado"}
# Messages that read the same in every language (code and symbols only).
SAME_IN_EVERY_LANGUAGE = {"hint.gpt2"}


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


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_every_markdown_cell_of_the_master_is_translated(language, assignment):
    master = nbformat.read(solution_notebook(assignment), as_version=4)
    assert translation_problems(master, language, assignment) == []


@pytest.mark.parametrize(("language", "assignment"), NOTEBOOKS)
def test_translated_notebook_has_the_english_code_cells_and_ids(language, assignment):
    english, translated = read_json(student_notebook(assignment)), read_json(translated_path(language, assignment))
    nbformat.validate(nbformat.reads(json.dumps(translated), as_version=4))
    assert [cell["id"] for cell in translated["cells"]] == [cell["id"] for cell in english["cells"]]
    catalog = i18n.load_catalog(language, assignment)
    for ours, theirs in zip(english["cells"], translated["cells"], strict=True):
        assert ours["cell_type"] == theirs["cell_type"]
        if ours["cell_type"] == "code":
            assert theirs == ours, f"code cell {ours['id']} differs in {language}"
        else:
            assert theirs["metadata"] == ours["metadata"]
            assert _source(theirs) == "\n".join(catalog[ours["id"]]["markdown"])
            assert _source(theirs) != _source(ours), f"markdown cell {ours['id']} is not translated"
    assert translated["metadata"] == {**english["metadata"], "attention_kit": {"language": language}}
    assert notebook_language(translated) == language
    assert notebook_language(english) == "en"


_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
_FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


def _untranslatable(markdown: str) -> list[str]:
    """Code blocks, inline code (whitespace-normalised, as markdown renders it) and math.

    A translation keeps each of them (it may add some: "um `view` direto" for "viewing").
    """
    fences = _FENCE.findall(markdown)
    rest = _FENCE.sub("", markdown)
    spans = [" ".join(match.group(2).split()) for match in _CODE_SPAN.finditer(rest)]
    return sorted(fences + spans + _MATH.findall(_CODE_SPAN.sub("", rest)))


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
@pytest.mark.parametrize(("name", "english"), [
    ("selfcheck", SELFCHECK_MESSAGES),
    ("mistakes", MISTAKES),
    ("feedback", {**PAGE_TEXT, **{key: template for key, (_, template) in GRADER_SENTENCES.items()},
                  **dict.fromkeys(feedback_text.DOING.values(), ""), feedback_text.LIKELY_MISTAKE: " {mistake}"}),
])
def test_message_catalog_has_every_key_with_the_same_fields(language, name, english):
    catalog = i18n.load_catalog(language, name)
    assert set(catalog) == set(english), f"autograder/locales/{language}/{name}.json is out of step with English"
    for key, template in english.items():
        assert _fields(catalog[key]) == _fields(template), f"{language}/{name}.json: {key}"
        words = re.sub(r"\{[^}]*\}", "", template)
        if key not in SAME_IN_EVERY_LANGUAGE and re.search(r"[a-z]{4}", words):
            assert catalog[key] != template, f"{language}/{name}.json: {key} is not translated"


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


@pytest.mark.parametrize("value", [None, "de", 3, ["zh"], {"language": "fr"}])
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
    passed = {"en": "passed its public check", "zh": "通过了公开检查", "pt": "passou na verificação pública"}
    for stage in STAGES_BY_ASSIGNMENT[assignment]:
        assert run_check(stage, stubs).message.startswith(f"❌ {stage}{NOT_IMPLEMENTED[language]}")
        assert run_check(stage, solved).message == f"✅ {stage} {passed[language]}"
    wrong = dict(solved, causal_mask=lambda num_tokens, device=None: solved["causal_mask"](num_tokens).T)
    message = run_check("causal_mask", wrong).message
    hint = SELFCHECK_MESSAGES["hint.mask_future"] if language == "en" else i18n.load_catalog(
        language, "selfcheck")["hint.mask_future"]
    assert message.endswith(hint)


def test_an_explicit_language_wins_and_the_english_default_is_untouched(plain_kernel):
    stubs, _ = load_definitions(student_notebook("01_attention_scores"))
    assert run_check("softmax_naive", stubs, language="zh").message.startswith("❌ softmax_naive：尚未实现")
    assert run_check("softmax_naive", stubs).message.startswith("❌ softmax_naive: not implemented yet")


# ---------------------------------------------------------------- feedback sentences (fast)


def _example(template: str) -> str:
    samples = {"stage": "softmax_naive", "error_type": "ValueError", "name": "softmax_naive", "limit": "10",
               "count": "4", "cell": "7", "line": "3", "reason": "invalid syntax", "doing": "answering this test",
               "error": "EOFError: the worker went away"}
    return template.format(**{field: samples[field] for field in _fields(template)})


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("key", list(GRADER_SENTENCES))
def test_every_grader_sentence_is_translated_with_its_details(language, key):
    english = _example(GRADER_SENTENCES[key][1])
    text = english + ("rest of the message" if GRADER_SENTENCES[key][0] != "whole" else "")
    localized = localize_message(text, language)
    assert english not in localized
    catalog = i18n.load_catalog(language, "feedback")
    for field in _fields(GRADER_SENTENCES[key][1]) - {"doing"}:
        assert re.search(re.escape(_example("{" + field + "}")), localized)
    if "doing" in _fields(GRADER_SENTENCES[key][1]):
        assert catalog["doing.answering"] in localized


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_the_grader_writes_the_sentences_the_page_translates(language):
    """describe_failure's wording, as the grader produces it, is recognised."""
    submission = Submission(None, set(), ["code cell 5 has a syntax error at line 2 (invalid syntax); none of its"
                                          " definitions were loaded"])

    def failure(error):
        try:
            raise error
        except BaseException:  # noqa: BLE001 - any error the tests can meet
            return describe_failure(pytest.ExceptionInfo.from_current(), "softmax_naive", submission)[1]

    messages = [
        failure(StudentError("NotImplementedError", "softmax_naive: replace this line with your code")),
        failure(StudentError("NameError", "name 'weights' is not defined")),
        failure(StudentError("NameError", "softmax_naive is not defined in your notebook")),
        failure(AssertionError("")),
        failure(KeyError("x")),
        failure(AssertionError("softmax_naive(x): 3 of 6 values differ." + mistake_hint("softmax_whole_tensor"))),
    ]
    english_fragments = ["is not implemented yet", "Your code raised", "Only imports", "While loading",
                         "has a syntax error", "is not defined in your notebook", "did not pass a hidden check",
                         "could not check", "Likely mistake", MISTAKES["softmax_whole_tensor"]]
    for message in messages:
        localized = localize_message(message, language)
        assert not [fragment for fragment in english_fragments if fragment in localized], (message, localized)
    assert localize_message(messages[0], "en") == messages[0]


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
    assert {test["status"] for test in english.tests} == {"passed", "failed", "error", "timeout"}
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
    text = feedback_text.page_text(language)
    assert f'<html lang="{i18n.HTML_LANG[language]}">' in page
    for key in ("column.stage", "column.tests_passed", "column.points", "status.failed", "status.error",
                "status.timeout"):
        assert text[key] in page
    assert text["heading"].format(assignment_id=ASSIGNMENT, student_id=STUDENTS[language]) in page
    mistakes = MISTAKES if language == "en" else i18n.load_catalog(language, "mistakes")
    assert mistakes["softmax_whole_tensor"] in page
    catalog = i18n.load_catalog(language, "feedback") if language != "en" else None
    expected = ["context_vector is not implemented yet", "Your code raised NameError", "Your code ran longer",
                "not run: an earlier test of this stage"]
    if catalog is not None:
        expected = [catalog["not_implemented"].format(stage="context_vector"),
                    catalog["raised"].format(error_type="NameError"),
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

    async def run_all():
        await asyncio.gather(*(
            NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                           resources={"metadata": {"path": str(cwd)}}).async_execute(env=kernel_env)
            for notebook, cwd, kernel_env in runs.values()))

    asyncio.run(run_all())
    for (language, assignment), (notebook, _, _) in runs.items():
        stages = STAGES_BY_ASSIGNMENT[assignment]
        for cell_id, name, message in errors(notebook):
            assert name == "NotImplementedError", f"{language}/{assignment} cell {cell_id} raised {name}: {message}"
        text = printed_text(notebook)
        for stage in stages:
            assert f"❌ {stage}{NOT_IMPLEMENTED[language]}" in text, f"{language}/{assignment}: {stage}"
        assert "not implemented yet" not in text
        assert "✅" not in text


def test_extracted_code_carries_the_notebooks_language():
    for language in TRANSLATIONS:
        assert extract_definitions(read_json(translated_path(language, ASSIGNMENT))).language == language
    assert extract_definitions(read_json(student_notebook(ASSIGNMENT))).language == "en"
