"""The demos' words in a translated notebook: their string literals, translated when it is built.

A demo prints and draws plain English strings in the masters, and the student package's catalog
``autograder/student/locales/<language>/demos.json`` maps each such string (the English itself is
the key) to its translation. Building a notebook in another language rewrites, in every code cell
that is not an answer cell, each string literal that is a key of the catalog: only the literal's
own characters change, so the code reads, runs and lines up as the English does. A literal that
is data rather than words stays as it is: one that a cell returns or compares, or that it passes
to ``predict`` or ``reveal`` (an outcome such as ``"guessing"``, which a label may also read).
A part of an f-string is never rewritten (its words are no catalog key).

The demos' comments are translated too, from ``autograder/locales/<language>/demo_comments.json``
(used only when a notebook is built, so it stays out of the student package): the comment as
written after ``#`` is the key, and only the comment's text changes. So are the docstrings of the
functions and classes a demo defines, from ``demo_docstrings.json``: the English docstring
(cleaned) is the key, and the literal is laid out as the English one is.
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
import tokenize
from collections.abc import Iterator, Mapping

import nbformat

from autograder.notebooks.self_checks_cell import CELL_ID, columns
from autograder.paths import LOCALES_DIR
from autograder.student import language as languages

CATALOG = "demos"
COMMENTS = "demo_comments"
DOCSTRINGS = "demo_docstrings"
QUOTES = '"""'
# Calls whose string arguments are data the kit compares, never words to translate.
DATA_CALLS = ("predict", "reveal")


def demo_cells(notebook: nbformat.NotebookNode) -> Iterator[nbformat.NotebookNode]:
    """The code cells whose words a translation rewrites: all but the answer cells and the setup cell."""
    for cell in notebook.cells:
        if cell.cell_type == "code" and cell.get("id") != CELL_ID and \
                not cell.metadata.get("nbgrader", {}).get("solution"):
            yield cell


def _data_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes whose strings are data: returned, compared, given to predict/reveal, or
    parts of an f-string."""
    data = set()
    for node in ast.walk(tree):
        is_data_call = isinstance(node, ast.Call) and getattr(node.func, "id", None) in DATA_CALLS
        if isinstance(node, (ast.Return, ast.Compare, ast.JoinedStr)) or is_data_call:
            data |= {id(inner) for inner in ast.walk(node) if inner is not node}
    return data


def words(source: str, catalog: Mapping[str, str]) -> list[ast.Constant]:
    """The string literals of ``source`` that are words of the catalog, in the order they appear."""
    tree = ast.parse(source)
    data = _data_nodes(tree)
    found = [node for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and node.value in catalog and id(node) not in data]
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def source_index(lines: list[str], line_number: int, column: int) -> int:
    """The index in the source of ``column`` (counted in UTF-8 bytes, as ast counts) of a line."""
    before = sum(len(line) for line in lines[:line_number - 1])
    return before + len(lines[line_number - 1].encode("utf-8")[:column].decode("utf-8"))


def translated_source(source: str, catalog: Mapping[str, str]) -> str:
    """``source`` with each of its ``words`` replaced by the literal of its translation."""
    lines = source.splitlines(keepends=True)
    for node in reversed(words(source, catalog)):
        word, end_line, end_column = str(node.value), node.end_lineno or node.lineno, node.end_col_offset or 0
        start = source_index(lines, node.lineno, node.col_offset)
        end = source_index(lines, end_line, end_column)  # ast.parse sets both ends
        literal = source[start:end]
        if node.lineno == end_line:
            source = source[:start] + _literal(catalog[word]) + source[end:]
        else:  # the English runs over several lines, "..." "...": so does the translation, as wide
            indent = " " * columns(lines[node.lineno - 1][:start - source_index(lines, node.lineno, 0)])
            width = max(columns(line.strip()) for line in literal.splitlines()) - 2
            source = source[:start] + f"\n{indent}".join(
                _literal(piece) for piece in _pieces(catalog[word], width)) + source[end:]
    return source


def _pieces(text: str, width: int) -> list[str]:
    """``text`` cut into pieces about ``width`` columns wide (a CJK character takes two), between
    words or characters, each space kept at the start of the piece after it: they join up to
    ``text``."""
    found: list[str] = []
    for token in re.findall(r"\s*[!-~]+|\s*.|\s+", text, re.DOTALL):
        if found and columns(found[-1] + token) <= width:
            found[-1] += token
        else:
            found.append(token)
    return found


def _literal(text: str) -> str:
    """A string literal of ``text``, in double quotes as the masters write them."""
    quoted = repr(text)
    if quoted.startswith("'") and '"' not in text:
        quoted = '"' + quoted[1:-1].replace("\\'", "'") + '"'
    return quoted


def comments(source: str) -> Iterator[tokenize.TokenInfo]:
    """The comment tokens of ``source``."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token


def comment_key(comment: str) -> str:
    """The catalog key of a comment: its English, as written after ``#``."""
    return "# " + comment.lstrip("#").strip()


def comment_catalog(language: str) -> dict[str, str]:
    """The translations of the demos' comments into ``language``, by ``comment_key`` (none for English)."""
    path = LOCALES_DIR / language / f"{COMMENTS}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def translated_comments(source: str, catalog: Mapping[str, str]) -> str:
    """``source`` with each comment that ``catalog`` translates replaced by its translation."""
    lines = source.splitlines(keepends=True)
    for token in reversed(list(comments(source))):
        translation = catalog.get(comment_key(token.string))
        if translation is not None:
            before = sum(len(line) for line in lines[:token.start[0] - 1])  # tokenize counts characters
            source = source[:before + token.start[1]] + "# " + translation + source[before + token.end[1]:]
    return source


def documented(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.Constant]]:
    """The qualified name and docstring literal of every class and function under ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                yield name, first.value
            yield from documented(node, name + ".")


def docstring_literal(lines: list[str], indent: str, english_literal: str) -> str:
    """The triple-quoted literal of a translated docstring, laid out as the English one is: one
    line, or its closing quotes on a line of their own (a backslash, three quotes or a closing quote
    of the translation escaped, so that the docstring reads exactly as translated)."""
    lines = [line.replace("\\", "\\\\").replace(QUOTES, '\\""\\"') for line in lines]
    if len(lines) == 1 and "\n" not in english_literal:
        last = lines[0]
        return QUOTES + (last[:-1] + '\\"' if last.endswith('"') else last) + QUOTES
    body = "\n".join(indent + line if line else "" for line in lines[1:])
    return QUOTES + lines[0] + "\n" + (body + "\n" if body else "") + indent + QUOTES


def docstring_catalog(language: str) -> dict[str, str]:
    """The translations of the docstrings of the demos' functions and classes into ``language``, by
    their English (``inspect.cleandoc``'s lines, joined; none for English)."""
    path = LOCALES_DIR / language / f"{DOCSTRINGS}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def demo_docstrings(source: str) -> Iterator[str]:
    """The docstrings of the functions and classes a demo cell defines, cleaned (the catalog's keys)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a cell of IPython magics defines nothing
        return
    for _, literal in documented(tree):
        yield inspect.cleandoc(str(literal.value))


def translated_docstrings(source: str, catalog: Mapping[str, str]) -> str:
    """``source`` with each docstring that ``catalog`` translates replaced by its translation, laid
    out as the English literal is."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines(keepends=True)
    replacements = []
    for _, literal in documented(tree):
        translation = catalog.get(inspect.cleandoc(str(literal.value)))
        if translation is None:
            continue
        start = source_index(lines, literal.lineno, literal.col_offset)
        end = source_index(lines, literal.end_lineno or literal.lineno, literal.end_col_offset or 0)
        indent = " " * (start - source_index(lines, literal.lineno, 0))
        replacements.append((start, end, docstring_literal(translation.split("\n"), indent, source[start:end])))
    for start, end, text in sorted(replacements, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def translated_demo(source: str, language: str) -> str:
    """A demo cell's ``source`` with its words, comments and docstrings in ``language``."""
    words = languages.messages(language, CATALOG, {})
    return translated_docstrings(translated_comments(translated_source(source, words), comment_catalog(language)),
                                 docstring_catalog(language))


def with_demo_words(notebook: nbformat.NotebookNode, language: str) -> nbformat.NotebookNode:
    """``notebook`` with the words, comments and docstrings of its demos in ``language`` (the
    English stays where the catalogs have no translation)."""
    for cell in demo_cells(notebook):
        cell.source = translated_demo(cell.source, language)
    return notebook
