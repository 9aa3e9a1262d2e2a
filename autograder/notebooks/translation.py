"""Translated notebooks: the English student notebook with its markdown replaced from a catalog,
and its demos' words from the student package's (``autograder.notebooks.demo_words``); the build
then translates its answer cells' docstrings and comments (``autograder.notebooks.stub_texts``).

    python -m autograder.notebooks.translation      (lists missing or stale translations)

A translation never copies code: ``autograder/locales/<language>/<id>.json`` maps the id of
every markdown cell to its translated text and to a hash of the English text it translates::

    {"intro": {"en_hash": "3f2a...", "markdown": ["# 作业 1 · ...", "", "..."]}}

Cell ids and cell metadata stay exactly as in the English notebook, and so does the code but for
the string literals a demo prints or draws (``demo_words``) and the stubs' words (``stub_texts``);
the notebook's metadata gains ``attention_kit.language``. The think-about-it answer cells are not
in the catalogs: ``make assignments`` writes them in each language
(``autograder.student.think_about_it``). When a master's markdown changes, its hash no longer
matches, and the build stops until the translation is updated: a catalog cannot go stale silently.
"""

from __future__ import annotations

import copy
import hashlib
import sys

import nbformat

from autograder.notebooks.demo_words import with_demo_words
from autograder.notebooks.solutions_only import student_cells
from autograder.paths import KIT_ROOT, LOCALES_DIR, solution_notebook, student_notebook
from autograder.reading.notebook import cell_source
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import METADATA_KEY, TRANSLATIONS, CatalogError, catalog_path, load_catalog
from autograder.student.think_about_it import question_of


class TranslationError(Exception):
    """Some markdown cells lack an up-to-date translation; the message lists each one."""


def english_hash(markdown: str) -> str:
    """The short hash that ties a translation to the English text it was made from."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()[:16]


def _markdown_cells(notebook: dict) -> dict[str, str]:
    """The markdown that students read, by cell id (answers for the solutions only are not translated,
    and the think-about-it answer cells are written in each language by the build)."""
    return {cell["id"]: cell_source(cell) for cell in student_cells(notebook["cells"])
            if cell["cell_type"] == "markdown" and question_of(cell) is None}


def translation_problems(notebook: dict, language: str, assignment_id: str) -> list[str]:
    """What keeps ``notebook`` (the English one) from being translated; empty when nothing does."""
    return catalog_problems(_markdown_cells(notebook), language, assignment_id)


def catalog_problems(english: dict[str, str], language: str, name: str, part: str = "markdown cell",
                     master: str = "the master") -> list[str]:
    """What keeps the catalog ``name`` of ``language`` from translating ``english`` (markdown by
    id: the cells of a master notebook, or the sections of another text); empty when nothing does."""
    where = catalog_path(language, name, LOCALES_DIR).relative_to(KIT_ROOT)
    try:
        catalog = load_catalog(language, name, LOCALES_DIR)
    except CatalogError as error:
        return [str(error)]
    problems = []
    for part_id, text in english.items():
        entry = catalog.get(part_id)
        if not isinstance(entry, dict) or not isinstance(entry.get("markdown"), list):
            problems.append(f"{where}: {part} {part_id!r} has no translation"
                            f' (add {{"en_hash": "{english_hash(text)}", "markdown": [...]}})')
        elif entry.get("en_hash") != english_hash(text):
            problems.append(f"{where}: {part} {part_id!r} changed in {master} since it was"
                            f' translated: update the translation, then set "en_hash" to "{english_hash(text)}"')
    for part_id in sorted(set(catalog) - set(english)):
        problems.append(f"{where}: {part_id!r} is not a {part} of {master} any more: remove it")
    return problems


def translated_notebook(notebook: nbformat.NotebookNode, language: str, assignment_id: str) -> nbformat.NotebookNode:
    """A copy of the English ``notebook`` in ``language`` (raises TranslationError if incomplete)."""
    problems = translation_problems(notebook, language, assignment_id)
    if problems:
        raise TranslationError("\n".join(problems))
    catalog = load_catalog(language, assignment_id, LOCALES_DIR)
    translated = copy.deepcopy(notebook)
    for cell in translated.cells:
        if cell.cell_type == "markdown" and question_of(cell) is None:
            cell.source = "\n".join(catalog[cell.id]["markdown"])
    translated.metadata[METADATA_KEY] = {"language": language}
    return with_demo_words(translated, language)


def main() -> int:
    """List every missing or stale translation of the masters' markdown, of the stubs' docstrings and
    comments (``autograder.notebooks.stub_texts``) and of the grading rules."""
    from autograder.notebooks import grading_rules, stub_texts  # which build on this module

    problems = []
    for assignment_id in ASSIGNMENTS:
        master = nbformat.read(solution_notebook(assignment_id), as_version=4)
        english = nbformat.read(student_notebook(assignment_id), as_version=4)  # its stubs, as nbgrader wrote them
        for language in TRANSLATIONS:
            problems += translation_problems(master, language, assignment_id)
            problems += stub_texts.translation_problems(english, language, assignment_id)
    for language in TRANSLATIONS:
        problems += grading_rules.translation_problems(language)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"every markdown cell, the stubs' docstrings and comments, and the grading rules are translated"
              f" into {', '.join(TRANSLATIONS)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
