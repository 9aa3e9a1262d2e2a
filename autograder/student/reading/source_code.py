"""The student's definitions as Python's ``ast`` reads them (never run), for the readers of an
exception: which definitions hold the line that failed, and the statements of theirs that make a
name. A reading that names a mistake may only name one that this code is consistent with."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence


def parsed(sources: Sequence[str]) -> list[ast.Module]:
    """The sources that parse, parsed (a cell with a syntax error says nothing here)."""
    trees = []
    for source in sources:
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    return trees


def definitions_holding(line: str, trees) -> list[ast.stmt]:
    """The top-level definitions (functions, classes) with a statement that reads as ``line``;
    none when the line is no whole statement."""
    try:
        wanted = ast.unparse(ast.parse(line.strip()))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [definition for tree in trees for definition in tree.body
            if isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and any(isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.ClassDef))
                    and ast.unparse(node) == wanted for node in ast.walk(definition))]


def statements_besides(line: str, trees) -> Iterator[str]:
    """Every simple statement (no definition, loop or branch) of the definitions that hold ``line``,
    as code, but ``line`` itself."""
    wanted = ast.unparse(ast.parse(line.strip())) if definitions_holding(line, trees) else None
    for definition in definitions_holding(line, trees):
        for node in ast.walk(definition):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                code = ast.unparse(node)
                if code != wanted:
                    yield code


def assigned_to(name: str, line: str, trees) -> Iterator[str]:
    """The values that the definitions holding ``line`` assign to the plain name ``name``, as code."""
    for definition in definitions_holding(line, trees):
        for node in ast.walk(definition):
            if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == name
                                                    for target in node.targets):
                yield ast.unparse(node.value)
