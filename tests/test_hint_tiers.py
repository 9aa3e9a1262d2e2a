"""Hints teach without handing the answer over (issue 41): tier 1 says the idea in words, tier 2
names the tools, tier 3 is a scaffold with blanks, in every language, and none of them holds a
piece of the stage's solution (the reference in ``solutions/``).

The solution is read as code, not as text: every statement and every compound expression of the
stage's ``### BEGIN SOLUTION`` regions, written out by ``ast.unparse`` without spaces, so that a
hint cannot hide a line of it behind other spacing, quotes, ``1.0`` written ``1``, or (in tier 3)
other names for its variables.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
import textwrap

import pytest

from autograder.notebooks.variants import answer_cell, load_solution
from autograder.reading.notebook import cell_source
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT, all_stages
from autograder.student.language import LANGUAGES, TRANSLATIONS
from autograder.student.selfcheck import catalog

BLANK = "____"  # what a scaffold leaves for the student: a name to replace, or `...` for lines
KEPT_NAMES = {"torch", "nn", "F", "self", BLANK, *all_stages()}  # names that are not the stage's own variables
OPERATORS = {ast.MatMult: "@", ast.Div: "/", ast.Mult: "*", ast.Add: "+", ast.Sub: "-", ast.Pow: "**",
             ast.FloorDiv: "//", ast.Mod: "%", ast.USub: "-", ast.Not: "not", ast.Eq: "==", ast.NotEq: "!=",
             ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.And: "and", ast.Or: "or"}
# Words that only English writes: one left in a zh or pt hint (outside its code) is untranslated.
ENGLISH_WORDS = {"the", "and", "of", "to", "is", "are", "each", "every", "with", "from", "then", "that", "this",
                 "which", "into", "your", "it", "its", "by", "what", "one", "same", "here", "fill", "in", "blank",
                 "blanks", "row", "rows", "keep", "turn", "round", "other", "first", "where", "after", "before"}


def _normalised(code: str) -> str:
    """``code`` (or prose) with no space beside punctuation or an operator, one space between two
    words, quotes made one kind, and ``1.0`` written ``1``."""
    spaced = re.sub(r"\s+(?=\W)|(?<=\W)\s+", "", re.sub(r"\s+", " ", code.strip()))
    return re.sub(r"(\d)\.0\b", r"\1", spaced.replace('"', "'"))


def _regions(stage: str) -> list[ast.Module]:
    """The stage's solution regions, each parsed on its own (a class has one per method)."""
    source = cell_source(answer_cell(load_solution(_assignment(stage)), stage))
    return [ast.parse(textwrap.dedent(part.split("### END SOLUTION")[0].split("\n", 1)[1]))
            for part in source.split("### BEGIN SOLUTION")[1:]]


def _assignment(stage: str) -> str:
    return next(assignment for assignment in ASSIGNMENTS if stage in STAGES_BY_ASSIGNMENT[assignment])


class _Renamed(ast.NodeTransformer):
    """A statement with the stage's own variables named by their order (``v0``, ``v1``, ...)."""

    def __init__(self):
        self.names: dict[str, str] = {}

    def visit_Name(self, node):
        if node.id in KEPT_NAMES or hasattr(builtins, node.id):
            return node
        return ast.Name(self.names.setdefault(node.id, f"v{len(self.names)}"), node.ctx)


def _statements(tree: ast.AST) -> set[str]:
    """Every statement of ``tree`` (a compound one by its header), variables renamed, normalised;
    the definitions a scaffold repeats from the stage's signature left out."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module)) or not isinstance(node, ast.stmt):
            continue
        header = {ast.If: lambda n: f"if {ast.unparse(n.test)}:",
                  ast.While: lambda n: f"while {ast.unparse(n.test)}:",
                  ast.For: lambda n: f"for {ast.unparse(n.target)} in {ast.unparse(n.iter)}:",
                  ast.With: lambda n: f"with {', '.join(ast.unparse(item) for item in n.items)}:"}.get(type(node))
        text = header(node) if header else ast.unparse(node)
        lines.add(_normalised(ast.unparse(_Renamed().visit(ast.parse(text + ("\n pass" if header else ""))))))
    return lines


def _fragments(tree: ast.AST) -> set[str]:
    """The compound expressions of ``tree``: calls with arguments, arithmetic, comparisons,
    indexing, keyword arguments and transposes (``.T``), normalised, four characters or more."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg:
            found.add(f"{node.arg}={ast.unparse(node.value)}")
        elif (isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.Subscript))
              or isinstance(node, ast.Call) and (node.args or node.keywords)
              or isinstance(node, ast.UnaryOp) and not isinstance(node.operand, ast.Constant)
              or isinstance(node, ast.Attribute) and node.attr in ("T", "mT")):
            found.add(ast.unparse(node))
    return {text for text in map(_normalised, found) if len(text) >= 4}


def _operations(tree: ast.AST) -> set[str]:
    """What a statement does, operation by operation: its operators, the attributes and
    functions it uses, and the keyword arguments it passes."""
    found = set()
    for node in ast.walk(tree):
        if type(node) in OPERATORS:
            found.add(OPERATORS[type(node)])
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found.add(node.func.id)
        elif isinstance(node, ast.keyword) and node.arg:
            found.add(node.arg)
    return found


def _numbers(tree: ast.AST) -> set[str]:
    """The numbers a solution writes out, other than those any code writes (0, 1, 2, -1, 0.5)."""
    return {str(node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and type(node.value) in (int, float) and node.value not in (0, 1, 2, -1, 0.5)}


@functools.cache
def solution(stage: str) -> tuple[set[str], set[str], list[set[str]], set[str]]:
    """The stage's statements, fragments, the operations of each statement when it is one
    statement long, and its numbers."""
    regions = _regions(stage)
    body = [statement for region in regions for statement in region.body]
    return (set().union(*map(_statements, regions)), set().union(*map(_fragments, regions)),
            [_operations(body[0])] if len(body) == 1 else [], set().union(*map(_numbers, regions)))


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]*)`", text)


def _names(span: str, operation: str) -> bool:
    """Whether a code span of a hint names ``operation``."""
    if operation.isidentifier():
        return re.search(rf"(?<![\w]){re.escape(operation)}(?!\w)", span) is not None
    return operation in span


def violations(stage: str, tiers: dict[int, str]) -> list[str]:
    """What in the hints ``tiers`` (1, 2, 3) of ``stage`` gives its solution away; empty when nothing does."""
    statements, fragments, operations, numbers = solution(stage)
    found = []
    for tier in (1, 2):
        said = _normalised(tiers[tier].replace("`", ""))
        found += [f"tier {tier} holds the solution's code {piece!r}" for piece in sorted(fragments)
                  if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", said)]
        written = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]\d)", tiers[tier]))
        if len(numbers) >= 2 and numbers <= written:
            found.append(f"tier {tier} lists every number of the solution, {sorted(numbers)}")
    if catalog.holds_code(tiers[1]):
        found.append("tier 1 shows code, not the idea in words")
    spans = _code_spans(tiers[2])
    for line in operations:
        if all(any(_names(span, operation) for span in spans) for operation in line):
            found.append(f"tier 2 names every operation of the one-line solution, {sorted(line)}")
    try:
        scaffold = ast.parse(textwrap.dedent(tiers[3]))
    except SyntaxError as error:
        return [*found, f"tier 3 is not Python: {error}"]
    found += [f"tier 3 holds the solution's line {line!r}" for line in sorted(_statements(scaffold) & statements)]
    if not any(isinstance(node, ast.Name) and node.id == BLANK or isinstance(node, ast.Constant)
               and node.value is Ellipsis for node in ast.walk(scaffold)):
        found.append(f"tier 3 leaves no blank ({BLANK} or ...) for the student")
    return found


def english_left(language: str, tiers: dict[int, str]) -> list[str]:
    """English words left in a translated hint, outside its code (in tier 3, in its comments)."""
    words = []
    for tier, text in tiers.items():
        prose = "\n".join(line.partition("#")[2] for line in text.splitlines()) if tier == 3 else text
        prose = re.sub(r"`[^`]*`", " ", prose)
        words += [f"tier {tier}: {word!r}" for word in re.findall(r"[A-Za-z_]\w*", prose)
                  if word.lower() in ENGLISH_WORDS]
    return words


def _tiers(stage: str, language: str) -> dict[int, str]:
    with catalog.speaking(language):
        return {tier: catalog.tier_text(stage, tier) for tier in (1, 2, 3)}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("stage", all_stages())
def test_hints_hold_no_piece_of_the_solution(stage, language):
    """Tiers 1 and 2 hold no code of the solution; tier 3 is a scaffold with blanks and no working line."""
    assert violations(stage, _tiers(stage, language)) == []


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("stage", all_stages())
def test_translated_hints_are_translated_and_keep_the_scaffold(stage, language):
    """No English is left in a zh or pt hint, its scaffold's comments included, and the scaffold's
    code is the English one (a translator translates comments, not code)."""
    tiers = _tiers(stage, language)
    assert english_left(language, tiers) == []
    english = _tiers(stage, "en")[3]
    assert ast.dump(ast.parse(textwrap.dedent(tiers[3]))) == ast.dump(ast.parse(textwrap.dedent(english)))


# What a stage asks the student to work out, in words no tier 1 or 2 may say in any language (the
# solution's code aside): the transposition that the shapes lead to in SelfAttention_v1 and the
# softmax's dim; and exercise 3.1's blanks, how nn.Linear lays out its matrix against v1's.
TRANSPOSED = [r"transpos", r"转置", r"\.T\b", r"\.mT\b", r"\.t\(\)", r"\bpermute\b"]
DERIVED = {
    "SelfAttention_v1": [*TRANSPOSED, r"last dim", r"última dimensão", r"最后一维", r"dim ?= ?-1"],
    "copy_v2_weights_into_v1": [*TRANSPOSED, r"\(d_out, ?d_in\)", r"layout", r"排布", r"布局", r"F\.linear"],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("stage", sorted(DERIVED))
def test_tiers_one_and_two_leave_the_derivation_to_the_student(stage, language):
    """Tier 1 says the idea and tier 2 names the tools and why (compare `.weight.shape` with what
    `x @ W` needs); neither states the conclusion the stage asks the student to reach."""
    tiers = _tiers(stage, language)
    assert [(tier, pattern) for tier in (1, 2) for pattern in DERIVED[stage]
            if re.search(pattern, tiers[tier], re.IGNORECASE)] == []


def test_the_rules_catch_a_hint_that_hands_the_answer_over():
    """A hint made of the solution itself, renamed or respaced, breaks every rule above."""
    honest = {1: "The idea, in words.", 2: "A tool, and why.", 3: f"return {BLANK}"}
    assert violations("attention_scores", honest) == []
    assert violations("attention_scores", {**honest, 3: "return  inputs@inputs.T  # done"}) == [
        "tier 3 holds the solution's line 'return v0@v0.T'", "tier 3 leaves no blank (____ or ...) for the student"]
    renamed = "for i in range(B):\n    ____\nresult = torch.zeros_like(x)"
    assert violations("causal_average_loop", {**honest, 3: renamed}) == [
        "tier 3 holds the solution's line 'for v0 in range(v1):pass'",
        "tier 3 holds the solution's line 'v0=torch.zeros_like(v1)'"]
    assert {"tier 2 holds the solution's code 'keepdim=True'",
            "tier 2 holds the solution's code 'exp_x.sum(dim=dim,keepdim=True)'"} <= set(
        violations("softmax_naive", {**honest, 2: "Divide by `exp_x.sum(dim = dim, keepdim = True)`."}))
    assert violations("attention_scores", {**honest, 2: "`@` and a transpose, `.T`."}) == [
        "tier 2 names every operation of the one-line solution, ['@', 'T']"]
    assert violations("gpt2_small_attention", {**honest, 1: "768 features, 12 heads, a context of 1024."}) == [
        "tier 1 lists every number of the solution, ['1024', '12', '768']"]
    assert english_left("zh", {1: "每一行", 2: "`torch.tril`", 3: "x = ____  # the same for keys"}) == [
        "tier 3: 'the'", "tier 3: 'same'"]
