"""How a notebook is graded: a short last cell in every notebook, and the full rules beside it.

The last cell of each notebook says in at most 80 words what a student must do and links to
``grading-rules.md``, which every release bundle holds beside the notebook, in its language
(autograder/notebooks/grading_rules.py).
"""

from __future__ import annotations

import re

import nbformat
import pytest

from autograder.notebooks import grading_rules, release, stub_texts
from autograder.notebooks.translation import TranslationError, english_hash
from autograder.paths import ASSIGNMENTS_DIR, KIT_ROOT, LOCALES_DIR, solution_notebook
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import DEFAULT_LANGUAGE, LANGUAGES, TRANSLATIONS, load_catalog

BUNDLES = [(language, assignment) for language in LANGUAGES for assignment in ASSIGNMENTS]
MAX_WORDS = 80
# The languages that put spaces between words, whose cells are counted too; a Chinese cell is the
# translation of the English one (its hash in the catalog says of which text), with its bullets and link.
SPACED = ("en", "pt")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def words(markdown: str) -> int:
    """The words a reader reads: what holds a letter or digit, link targets and markup left out."""
    without_targets = re.sub(r"\]\([^)]*\)", "]", markdown)
    return len([token for token in without_targets.split() if re.search(r"\w", token)])


def _bullets(markdown: str) -> int:
    return sum(line.startswith("* ") for line in markdown.splitlines())


def grading_cell(notebook: nbformat.NotebookNode) -> str:
    (cell,) = [cell for cell in notebook.cells if cell.get("id") == "grading"]
    return cell.source


def test_words_counts_what_a_reader_reads():
    assert words("## How it is graded\n\n* ✅ is a good sign: `check`.\n\n[The rules](grading-rules.md).") == 11


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_last_cell_says_what_to_do_in_at_most_80_words(assignment):
    """Counted in the languages that space their words; every translation is one of the English
    cell, tied to its exact text by the catalog's hash (tests/test_translations.py), with the same
    bullets and link."""
    english = grading_cell(nbformat.read(solution_notebook(assignment), as_version=4))
    assert words(english) <= MAX_WORDS, f"{assignment}: {words(english)} words"
    for must in ("✏️ Your turn", "signatures", "Demo cells are not graded", "arguments",
                 "Predictions and hints score nothing", "unless your instructor", "Restart & Run All",
                 "✅", "not the grade"):
        assert must in english, (assignment, must)
    assert english.rstrip().splitlines()[-1].count(f"({grading_rules.FILE_NAME})") == 1  # it ends with the link
    for language in TRANSLATIONS:
        notebook = nbformat.read(ASSIGNMENTS_DIR / language / assignment / f"{assignment}.ipynb", as_version=4)
        translated = grading_cell(notebook)
        assert _LINK.findall(translated) == _LINK.findall(english), language
        assert _bullets(translated) == _bullets(english), language
        if language in SPACED:
            assert words(translated) <= MAX_WORDS, f"{language}/{assignment}: {words(translated)} words"


@pytest.mark.parametrize(("language", "assignment"), BUNDLES)
def test_every_link_of_the_last_cell_opens_a_file_of_its_bundle(language, assignment):
    files = release.bundle_files(language, assignment, "attention-kit-student")
    notebook = nbformat.reads(files[f"{assignment}.ipynb"].decode("utf-8"), as_version=4)
    targets = _LINK.findall(grading_cell(notebook))
    assert targets == [grading_rules.FILE_NAME]
    for target in targets:
        assert target in files, f"{language}/{assignment}: {target} is not in the bundle"
    assert files[grading_rules.FILE_NAME].decode("utf-8") == grading_rules.rules_markdown(language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_rules_beside_every_notebook_are_current(language):
    base = ASSIGNMENTS_DIR if language == DEFAULT_LANGUAGE else ASSIGNMENTS_DIR / language
    for assignment in ASSIGNMENTS:
        committed = base / assignment / grading_rules.FILE_NAME
        assert committed.read_text(encoding="utf-8") == grading_rules.rules_markdown(language), (
            f"{committed.relative_to(KIT_ROOT)} is stale: run `make assignments`")


def test_the_full_rules_keep_what_the_old_last_cells_said():
    """Every rule the notebooks' last cells used to state in full, including each notebook's own."""
    sections = {key: " ".join(text.split()) for key, text in grading_rules.english_sections().items()}
    text = " ".join(sections.values())
    for rule in ("`# YOUR CODE HERE`", "it loads definitions", "**only from the answer cells**",
                 "**from any cell**", "A definition outside its answer cell is ignored",
                 "Copied into a new notebook?", "such as `inputs`", "`load_state_dict`",
                 "how far into the hints", "other shapes, batches, float64, a GPU"):
        assert rule in text, rule
    assert "written from the formula" in sections["notebook-1-attention-scores"]
    assert "buffer of any name" in sections["notebook-3-causal-attention"]
    assert "`is_causal=True`" in sections["notebook-4-multi-head-attention"]
    assert "The given `CausalAttention` cell is loaded too" in sections["notebook-4-multi-head-attention"]


def test_the_rules_ship_alone_so_they_link_nowhere_else():
    """A bundle holds the rules without the rest of the site: no link may point beside them."""
    for language in LANGUAGES:
        assert "](" not in grading_rules.rules_markdown(language), language


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_section_of_the_rules_is_translated(language):
    assert grading_rules.translation_problems(language) == []
    translated = grading_rules.rules_markdown(language)
    assert translated.count("\n## ") == len(grading_rules.english_sections()) - 1
    english_code = re.findall(r"`[^`]+`", grading_rules.rules_markdown(DEFAULT_LANGUAGE))
    shown = [_as_the_notebooks_show(span, language) for span in english_code]
    assert sorted(re.findall(r"`[^`]+`", translated)) == sorted(shown)


def _as_the_notebooks_show(span: str, language: str) -> str:
    """A code span of the English rules as the ``language`` notebooks show it: the stubs' comment
    (nbgrader's ``# YOUR CODE HERE``) is translated with the answer cells (``stub_texts``)."""
    stubs = load_catalog(language, stub_texts.catalog_name(ASSIGNMENTS[0]), LOCALES_DIR)
    entry = stubs.get(span.strip("`")) if span.startswith("`#") else None
    return f"`# {entry['markdown'][0]}`" if entry else span


def test_a_changed_or_new_english_section_stops_the_translation(monkeypatch, tmp_path):
    english = grading_rules.ENGLISH_RULES.read_text(encoding="utf-8")
    changed = tmp_path / "rules.md"
    changed.write_text(english.replace("## What scores nothing\n", "## What scores nothing\n\nA new rule.\n")
                       + "\n## Notebook 5: transformers\n\n- New.\n", encoding="utf-8")
    monkeypatch.setattr(grading_rules, "ENGLISH_RULES", changed)
    monkeypatch.setattr(grading_rules, "KIT_ROOT", tmp_path)
    problems = grading_rules.translation_problems("zh")
    new_text = grading_rules.english_sections()["what-scores-nothing"]
    assert problems == [
        "autograder/locales/zh/grading_rules.json: section 'what-scores-nothing' changed in rules.md since it"
        f' was translated: update the translation, then set "en_hash" to "{english_hash(new_text)}"',
        "autograder/locales/zh/grading_rules.json: section 'notebook-5-transformers' has no translation"
        f' (add {{"en_hash": "{english_hash(grading_rules.english_sections()["notebook-5-transformers"])}",'
        ' "markdown": [...]})']
    with pytest.raises(TranslationError, match="what-scores-nothing"):
        grading_rules.rules_markdown("zh")
    assert grading_rules.rules_markdown("en") == changed.read_text(encoding="utf-8")


def test_two_sections_with_one_heading_are_refused():
    with pytest.raises(ValueError, match="'your-answers'"):
        grading_rules.english_sections("# Rules\n\n## Your answers\n\nA.\n\n## Your answers!\n\nB.\n")
