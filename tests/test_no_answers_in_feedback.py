"""No feedback text hands over the code of a reference solution.

The grader's feedback page and the public check show a named mistake's text (and the check its
own sentences) before the deadline, with unlimited resubmissions, so a text that held a
solution's expression (``inputs @ query``, ``mask[:T, :T]``, ``torch.triu(..., diagonal=1)``)
would give more than the hints the student asks for. This test reads the expressions from the
solutions themselves (every answer region of every master notebook), not from a list of
forbidden strings, and looks for each in every named mistake, public-check message and finding,
in every language.

An expression matches a stretch of text token for token, where a variable of the solution (a
name it binds or receives, such as ``num_tokens``) or an elided argument may stand for any name
or ``...`` in the text (a text writes ``T`` for ``num_tokens``); a match counts when at least
three of its tokens, brackets, commas, dots and ``=`` aside, are the solution's own, so that
``(T, d) @ (d, T)`` or ``x @ W`` (shapes and letters) pass while ``inputs @ query`` does not; a
constant of the solution (``"-inf"``, ``1024``) counts twice, being as particular as a name and
an operator.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
import textwrap
from functools import cache

import pytest

from autograder.findings.english import SENTENCES
from autograder.paths import LOCALES_DIR, SOLUTIONS_DIR
from autograder.student.language import TRANSLATIONS, load_catalog
from autograder.student.mistakes import MISTAKES
from autograder.student.selfcheck.catalog import MESSAGES as SELFCHECK_MESSAGES

_ANSWER_REGION = re.compile(r"### BEGIN SOLUTION\n(.*?)^\s*### END SOLUTION", re.DOTALL | re.MULTILINE)
_TOKEN = re.compile(
    r"""(?<![A-Za-z])(?:'[^'\n]*'|"[^"\n]*")|[^\x00-\x7f]+|\.\.\.|\*\*|//|==|<=|>=|!=|[A-Za-z_]\w*|\d+(?:\.\d+)?|[^\s\w]""")
_NOT_COUNTED = {",", "(", ")", "[", "]", "=", "."}
_NOT_VARIABLES = {"torch", "nn", "F", "math", "self"}
_MIN_OWN_TOKENS = 3
_SLOT = "<name>"
_ELIDED = "elided_argument"
# The public check's hints, shown only when the student asks for a hint (and pays its price there),
# may say more than the feedback that comes unasked.
_ASKED_FOR = "hint."

# The texts shown as feedback: the named mistakes, the public check's messages and the grader's findings.
CATALOGS = {"mistakes": (MISTAKES, None), "selfcheck": (SELFCHECK_MESSAGES, None),
            "findings": (SENTENCES, LOCALES_DIR)}


def tokens(code: str) -> list[str]:
    """Code or prose as code tokens: a run of other scripts' letters is one token, which no code
    matches; an apostrophe after a letter opens no string; ``self.`` is dropped (a text says
    ``mask`` for ``self.mask``); every string is written with double quotes."""
    found = [match.group(0) for match in _TOKEN.finditer(code)]
    found = ['"' + token[1:-1] + '"' if token[0] in "'\"" and len(token) > 1 else token for token in found]
    without_self: list[str] = []
    for token in found:
        if without_self[-1:] == ["self"] and token == ".":
            without_self.pop()
            continue
        without_self.append(token)
    return without_self


def _answer_regions() -> list[str]:
    regions = []
    for notebook in sorted(SOLUTIONS_DIR.glob("*/*.ipynb")):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                regions += _ANSWER_REGION.findall("".join(cell["source"]))
    return regions


def _variables(tree: ast.AST) -> set[str]:
    """The names a solution binds or receives: a text may call them anything."""
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return (names | {_ELIDED}) - set(dir(builtins)) - _NOT_VARIABLES


def _expressions(tree: ast.AST) -> list[str]:
    """Every operation, call (also with its positional arguments elided), index, chain of two
    attributes and size given by keyword of a solution, with each method chain also from its
    method on (``view(...)`` as well as ``x.view(...)``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found.append(ast.unparse(_arguments_elided(node)))
        if isinstance(node, (ast.BinOp, ast.Call, ast.Subscript, ast.Compare)) or _is_a_size(node) or (
                isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)):
            code = ast.unparse(node)
            found.append(code)
            while (prefix := re.match(r"[A-Za-z_]\w*\.(?=[A-Za-z_])", code)):
                code = code[prefix.end():]
                found.append(code)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                found.append(node.func.attr + code[len(ast.unparse(node.func)):])
    return found


def _arguments_elided(call: ast.Call) -> ast.Call:
    """``call`` with each positional argument a variable, as a text writes ``torch.cat(..., dim=-1)``."""
    return ast.Call(func=call.func, args=[ast.Name(id=_ELIDED) for _ in call.args], keywords=call.keywords)


def _is_a_size(node: ast.AST) -> bool:
    """A keyword argument set to a size (``num_heads=12``): the answer of a configuring stage. Other
    keywords (``dim=-1``, ``keepdim=True``) name what to use, as the notebook does."""
    return (isinstance(node, ast.keyword) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, (int, float)) and abs(node.value.value) > 2)


@cache
def solution_patterns() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each solution expression as tokens, once with its variables replaced by a slot and once as written."""
    patterns = set()
    for region in _answer_regions():
        tree = ast.parse(textwrap.dedent(region))
        variables = _variables(tree)
        for expression in _expressions(tree):
            pattern = tuple(_SLOT if token in variables else token for token in tokens(expression))
            patterns.add((pattern, tuple(tokens(expression))))
    return sorted(patterns)


def _own_tokens_matched(pattern: tuple[str, ...], original: tuple[str, ...], stretch: list[str]) -> int | None:
    """How many tokens of ``stretch`` are the solution's own, or None where it does not fit."""
    own = 0
    for slot, solution_token, text_token in zip(pattern, original, stretch, strict=True):
        if slot == _SLOT:
            if not re.fullmatch(r"[A-Za-z_]\w*|\.\.\.", text_token):
                return None
        elif slot != text_token:
            return None
        if solution_token == text_token and text_token not in _NOT_COUNTED:
            own += 2 if re.fullmatch(r'".*"|[\d.]+', text_token) else 1
    return own


def solution_code_in(text: str) -> list[str]:
    """The solution expressions that ``text`` writes out."""
    text_tokens = tokens(text)
    found = []
    for pattern, original in solution_patterns():
        for start in range(len(text_tokens) - len(pattern) + 1):
            stretch = text_tokens[start:start + len(pattern)]
            own = _own_tokens_matched(pattern, original, stretch)
            if own is not None and own >= _MIN_OWN_TOKENS:
                found.append(" ".join(stretch))
    return found


def _texts() -> list[tuple[str, str, str, str]]:
    texts = []
    for catalog, (english, locales) in CATALOGS.items():
        texts += [(catalog, "en", key, text) for key, text in english.items()]
        for language in TRANSLATIONS:
            translated = load_catalog(language, catalog, locales) if locales else load_catalog(language, catalog)
            texts += [(catalog, language, key, text) for key, text in translated.items() if key in english]
    return [text for text in texts if not text[2].startswith(_ASKED_FOR)]


@pytest.mark.parametrize(
    "example",
    [
        "compare every input with the query you were given, inputs @ query.",
        "return attn_weights @ inputs.",
        "inputs @ inputs.T gives one row and one column per token",
        "transpose only the last two, keys.transpose(-2, -1) or keys.mT.",
        "hide only the positions above the diagonal, torch.triu(..., diagonal=1)",
        "T tokens need its top-left corner, mask[:T, :T].",
        "fill them with float('-inf'), whose exponential is 0.",
        "view(b, T, h, head_dim) then transpose(1, 2) to split",
        "transpose(1, 2).contiguous().view(b, T, d_out) to merge",
        "GPT-2 small has 12 heads of 64 features (d_out = 768, num_heads = 12).",
    ],
)
def test_the_review_s_examples_count_as_solution_code(example: str) -> None:
    assert solution_code_in(example), example


@pytest.mark.parametrize(
    "words",
    [
        "the product (T, d) @ (d, T) compares every token with every token",
        "so that x @ W turns d_in features into d_out",
        "cut both of the mask's dimensions to the number of tokens in this call",
        "the merge must undo the split's transpose before it flattens the heads",
    ],
)
def test_shapes_and_words_are_not_solution_code(words: str) -> None:
    assert not solution_code_in(words)


def test_no_feedback_text_writes_out_a_solution_expression() -> None:
    leaks = [f"{catalog} [{language}] {key}: {', '.join(found)}"
             for catalog, language, key, text in _texts() if (found := solution_code_in(text))]
    assert not leaks, "these texts hand over solution code; say what to fix in words:\n" + "\n".join(leaks)
