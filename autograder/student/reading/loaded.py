"""Which top-level statements of a notebook the grader loads, and which the kernel alone runs.

The grader reads a notebook without running it (``autograder.reading.notebook``): it keeps the
imports, the ``def`` and ``class`` blocks, and the names set to simple constants, so that a slow
or crashing demo cell costs a student nothing. A value a call computes (a tensor made at the top
of a cell) is not loaded. The public check reads the kernel's cells by the same rule
(``selfcheck.notebook_variables``), so that a stage reading such a value is told so in the
notebook, not first by a grade of 0.
"""

from __future__ import annotations

import ast

# Top-level statements that define something without running demo work.
DEFINITION_NODES = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Calls that only configure (a logger, a number, a device): the one kind of call a constant may
# be made with, by its dotted name as the notebook writes it. No call that computes on tensors.
_CONFIGURING_CALLS = ("logging.", "math.", "operator.", "functools.", "collections.", "typing.",
                      "torch.device", "torch.finfo", "torch.iinfo")
# Python's own constructors of a value, written as a call: ``dict(d_in=768, num_heads=12)`` is as
# much a constant as ``{"d_in": 768, "num_heads": 12}`` (range, which could make a huge list, is not one).
_BUILTIN_CONSTRUCTORS = frozenset({"dict", "tuple", "list", "set", "frozenset", "int", "float", "str", "bool"})


def _is_simple_value(node: ast.AST, imported: set[str]) -> bool:
    """Literals, arithmetic on them, attributes of imported modules (``torch.float64``), the
    module's ``__name__``, a lambda (a function, as a ``def`` is: a review of notebook 1 lost 40
    points to ``attention_scores = lambda inputs: ...``), and a configuring call or one of Python's
    constructors on such values (``logging.getLogger(__name__)``, ``dict(d_in=768)``).

    Never a demo variable and never a call that computes: nothing that can run long or depend
    on demo cells.
    """
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Lambda):  # a function written as an expression: its body runs when called
        return all(_is_simple_value(default, imported)
                   for default in [*node.args.defaults, *node.args.kw_defaults] if default is not None)
    if isinstance(node, ast.Name):
        return node.id == "__name__"
    if isinstance(node, ast.Call):
        callee = _dotted_name(node.func)
        configures = callee is not None and callee.split(".")[0] in imported and callee.startswith(_CONFIGURING_CALLS)
        return ((configures or callee in _BUILTIN_CONSTRUCTORS)
                and all(_is_simple_value(argument, imported) for argument in node.args)
                and all(_is_simple_value(keyword.value, imported) for keyword in node.keywords))
    if isinstance(node, ast.UnaryOp):
        return _is_simple_value(node.operand, imported)
    if isinstance(node, ast.BinOp):
        return _is_simple_value(node.left, imported) and _is_simple_value(node.right, imported)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_simple_value(item, imported) for item in node.elts)
    if isinstance(node, ast.Dict):
        return all(item is not None and _is_simple_value(item, imported) for item in node.keys + node.values)
    if isinstance(node, ast.Attribute):
        root: ast.expr = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Call):  # torch.finfo(torch.float32).min
            return _is_simple_value(root, imported)
        return isinstance(root, ast.Name) and root.id in imported
    return False


def _dotted_name(node: ast.AST) -> str | None:
    """``logging.getLogger`` for that attribute chain; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def is_loaded(node: ast.stmt, imported: set[str]) -> bool:
    """Whether the grader loads this top-level statement of an answer cell: an import, a ``def`` or
    ``class``, or a plain name set to a simple value (``imported``: the module names bound so far)."""
    if isinstance(node, DEFINITION_NODES):
        return True
    if isinstance(node, ast.Assign):
        return all(isinstance(t, ast.Name) for t in node.targets) and _is_simple_value(node.value, imported)
    if isinstance(node, ast.AnnAssign):
        return (isinstance(node.target, ast.Name) and node.value is not None
                and _is_simple_value(node.value, imported))
    return False
