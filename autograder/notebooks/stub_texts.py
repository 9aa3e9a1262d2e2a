"""The answer cells' words in a translated notebook: their docstrings and comments; and the
docstrings of the demo cells' functions and classes (their comments are ``demo_words``').

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

from autograder.notebooks.demo_words import comment_key, comments, demo_cells, source_index
from autograder.notebooks.translation import TranslationError, catalog_problems
from autograder.paths import LOCALES_DIR
from autograder.student.language import load_catalog

QUOTES = '"""'


def catalog_name(assignment_id: str) -> str:
    """The name of the catalog of ``assignment_id``'s answer cells, under each language's locales."""
    return f"{assignment_id}.stubs"


def answer_cells(notebook: nbformat.NotebookNode) -> Iterator[nbformat.NotebookNode]:
    """The code cells students write their answers in (nbgrader's solution cells)."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
            yield cell


def _documented(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.Constant]]:
    """The qualified name and docstring literal of every class and function under ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                yield name, first.value
            yield from _documented(node, name + ".")


def english_texts(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """The docstrings and comments students read in the answer cells of an English student
    notebook, and the docstrings of its demo cells, by catalog key, in the order they appear."""
    texts: dict[str, str] = {}
    for cell in answer_cells(notebook):
        for name, literal in _documented(ast.parse(cell.source)):
            texts[name] = inspect.cleandoc(str(literal.value))  # a str: _documented yields no other
        for token in comments(cell.source):
            texts[comment_key(token.string)] = token.string.lstrip("#").strip()
    for cell in demo_cells(notebook):
        for name, literal in _documented(_parsed(cell.source)):
            texts[name] = inspect.cleandoc(str(literal.value))
    return texts


def _parsed(source: str) -> ast.Module:
    """A demo cell's code; a cell of IPython magics only is read as holding no definitions."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


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


def _docstring_literal(lines: list[str], indent: str, english_literal: str) -> str:
    """The triple-quoted literal of a translated docstring, laid out as the English one is: one
    line, or its closing quotes on a line of their own (a backslash, three quotes or a closing quote
    of the translation escaped, so that the docstring reads exactly as translated)."""
    lines = [line.replace("\\", "\\\\").replace(QUOTES, '\\""\\"') for line in lines]
    if len(lines) == 1 and "\n" not in english_literal:
        last = lines[0]
        return QUOTES + (last[:-1] + '\\"' if last.endswith('"') else last) + QUOTES
    body = "\n".join(indent + line if line else "" for line in lines[1:])
    return QUOTES + lines[0] + "\n" + (body + "\n" if body else "") + indent + QUOTES


def translated_source(source: str, catalog: Mapping[str, dict], with_comments: bool = True) -> str:
    """A cell's ``source`` with its docstrings and (``with_comments``: an answer cell's) comments
    replaced from ``catalog``."""
    lines = source.splitlines(keepends=True)
    replacements = []  # (start, end, text), indices into source
    for name, literal in _documented(_parsed(source)):
        start = source_index(lines, literal.lineno, literal.col_offset)
        end = source_index(lines, literal.end_lineno or literal.lineno, literal.end_col_offset or 0)
        indent = " " * (start - source_index(lines, literal.lineno, 0))
        replacements.append((start, end, _docstring_literal(catalog[name]["markdown"], indent, source[start:end])))
    for token in comments(source) if with_comments else ():
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
    for cell in demo_cells(notebook):
        cell.source = translated_source(cell.source, catalog, with_comments=False)
    return notebook
