"""The answer cells' words in a translated notebook: their docstrings and comments.

An answer cell hands the student a contract: the docstrings of its stub (what the function or class
takes, returns and raises) and nbgrader's ``# YOUR CODE HERE``. A Chinese or Portuguese student
reads them in their language. ``autograder/locales/<language>/<id>.stubs.json`` translates them, in
the format of the notebooks' markdown catalogs (``autograder.notebooks.translation``)::

    {"SelfAttention_v1.forward": {"en_hash": "3f2a...", "markdown": ["x：(T, d_in) -> ..."]},
     "# YOUR CODE HERE": {"en_hash": "...", "markdown": ["在这里写你的代码"]}}

A docstring is keyed by the qualified name of what it documents (``split_heads``,
``CausalAttention.forward``), and its lines are those of the cleaned docstring (``ast.get_docstring``);
a comment is keyed by its English text, which its translation replaces everywhere. The English comes
from the English student notebook, after nbgrader has replaced the solutions with stubs: a master's
changed docstring changes its hash, and the build stops until the translation is updated.

Only the literal's characters and the comment's text change: the code, its lines of code, the cell's
id and metadata stay as in English, so the grader and nbgrader read a translated answer cell exactly
as an English one.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator, Mapping

import nbformat

from autograder.notebooks.demo_words import comment_key, comments, docstring_literal, documented, source_index
from autograder.notebooks.translation import TranslationError, catalog_problems
from autograder.paths import LOCALES_DIR
from autograder.student.language import load_catalog


def catalog_name(assignment_id: str) -> str:
    """The name of the catalog of ``assignment_id``'s answer cells, under each language's locales."""
    return f"{assignment_id}.stubs"


def answer_cells(notebook: nbformat.NotebookNode) -> Iterator[nbformat.NotebookNode]:
    """The code cells students write their answers in (nbgrader's solution cells)."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
            yield cell


def english_texts(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """The docstrings and comments students read in the answer cells of an English student
    notebook, by catalog key, in the order they appear."""
    texts: dict[str, str] = {}
    for cell in answer_cells(notebook):
        for name, literal in documented(ast.parse(cell.source)):
            texts[name] = inspect.cleandoc(str(literal.value))  # a str: documented yields no other
        for token in comments(cell.source):
            texts[comment_key(token.string)] = token.string.lstrip("#").strip()
    return texts


def translation_problems(notebook: nbformat.NotebookNode, language: str, assignment_id: str) -> list[str]:
    """What keeps the answer cells of ``notebook`` (the English student notebook) from being
    translated into ``language``; empty when nothing does."""
    name = catalog_name(assignment_id)
    problems = catalog_problems(english_texts(notebook), language, name, part="answer-cell text",
                                master="the English student notebook (a master's stub)")
    if problems:
        return problems
    return [f"{language}/{name}.json: the comment {key!r} is translated in {len(entry['markdown'])} lines: give it one"
            for key, entry in load_catalog(language, name, LOCALES_DIR).items()
            if key.startswith("#") and len(entry["markdown"]) != 1]


def translated_source(source: str, catalog: Mapping[str, dict]) -> str:
    """An answer cell's ``source`` with its docstrings and comments replaced from ``catalog``."""
    lines = source.splitlines(keepends=True)
    replacements = []  # (start, end, text), indices into source
    for name, literal in documented(ast.parse(source)):
        start = source_index(lines, literal.lineno, literal.col_offset)
        end = source_index(lines, literal.end_lineno or literal.lineno, literal.end_col_offset or 0)
        indent = " " * (start - source_index(lines, literal.lineno, 0))
        replacements.append((start, end, docstring_literal(catalog[name]["markdown"], indent, source[start:end])))
    for token in comments(source):
        before = sum(len(line) for line in lines[:token.start[0] - 1])  # tokenize counts characters
        [translation] = catalog[comment_key(token.string)]["markdown"]
        replacements.append((before + token.start[1], before + token.end[1], "# " + translation))
    for start, end, text in sorted(replacements, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def with_stub_texts(notebook: nbformat.NotebookNode, language: str, assignment_id: str) -> nbformat.NotebookNode:
    """``notebook`` (a copy of the English student notebook) with its answer cells' docstrings and
    comments in ``language`` (raises TranslationError when the catalog does not cover them)."""
    problems = translation_problems(notebook, language, assignment_id)
    if problems:
        raise TranslationError("\n".join(problems))
    catalog = load_catalog(language, catalog_name(assignment_id), LOCALES_DIR)
    for cell in answer_cells(notebook):
        cell.source = translated_source(cell.source, catalog)
    return notebook
