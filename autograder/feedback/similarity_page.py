"""The similarity page: ``python -m autograder similarity <out>`` writes ``<out>/similarity.html``,
the instructor's (in English), with each listed pair's code side by side and its matching regions
marked (``autograder.term.similarity`` finds them).

copydetect places a match by characters of its tokenised code, which lands inside words once
mapped back (``impo<mark>rt``), and a match window near the starter code covers some of it. The
page marks what the comparison compares: whole tokens whose middle lies in a matching region,
never a comment, and never a line or string that the released notebook itself holds (the
starter code the fingerprints leave out: signatures, docstrings, stubs).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from markupsafe import Markup, escape

from autograder.feedback.page import templates
from autograder.records.files import write_atomically
from autograder.term.similarity import AssignmentSimilarity, MarkedCode

PAGE_NAME = "similarity.html"
_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
_ROUGH_TOKENS = re.compile(r"\w+|[^\w\s]")  # for code tokenize cannot read


def similarity_html(assignments: list[AssignmentSimilarity]) -> str:
    return templates.get_template("similarity.html.j2").render(assignments=assignments, marked=marked_html)


def write_similarity_page(out: Path, assignments: list[AssignmentSimilarity]) -> Path:
    """Write ``<out>/similarity.html``; returns its path."""
    path = out / PAGE_NAME
    write_atomically(path, similarity_html(assignments))
    return path


def marked_html(marked: MarkedCode, starter_code: str = "") -> Markup:
    """The code as HTML, the whole tokens of its matching regions in <mark> (outside the starter code)."""
    code = marked.code
    starter_lines = {line.strip() for line in starter_code.splitlines() if line.strip()}
    spans = [(start, end) for start, end, text, line in _tokens(code)
             if _in_regions((start + end) / 2, marked.regions) and line.strip() not in starter_lines
             and not (text[:1] in "\"'" and text in starter_code)]
    html, position = [], 0
    for start, end in _joined(spans, code):
        html += [str(escape(code[position:start])), "<mark>", str(escape(code[start:end])), "</mark>"]
        position = end
    html.append(str(escape(code[position:])))
    return Markup("".join(html))  # every part of the code was escaped


def _tokens(code: str) -> Iterator[tuple[int, int, str, str]]:
    """Each token of the code (start, end, its text, its line's text), comments and layout left out."""
    line_starts = [0]
    for line in code.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    lines = code.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type not in _NOT_CODE:
                start = line_starts[token.start[0] - 1] + token.start[1]
                end = line_starts[token.end[0] - 1] + token.end[1]
                yield start, end, token.string, lines[token.start[0] - 1]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        for match in _ROUGH_TOKENS.finditer(code):
            row = code.count("\n", 0, match.start())
            yield match.start(), match.end(), match.group(), lines[row] if row < len(lines) else ""


def _in_regions(point: float, regions: tuple[tuple[int, int], ...]) -> bool:
    return any(start <= point < end for start, end in regions)


def _joined(spans: list[tuple[int, int]], code: str) -> list[tuple[int, int]]:
    """Marked tokens next to each other on one line (spaces between them) as one mark."""
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and not code[joined[-1][1]:start].strip(" \t"):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined
