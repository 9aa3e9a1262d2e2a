"""Defaults the student changed in the signature the notebook gives.

The stub of each stage keeps the reference's signature, defaults included (``dim=-1``,
``training=True``, ``qkv_bias=False``), and the hidden tests call it as the notebook does, often
leaving those arguments out. An answer whose default differs computes something else whenever
the argument is left out, whatever its body does: no catalogue of outputs can name that, but the
signature can. The student's code is read with ``ast`` (never run); a default that is not a plain
literal (``dim=DIM``) is not judged.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Sequence
from dataclasses import dataclass

_NO_DEFAULT = inspect.Parameter.empty


@dataclass(frozen=True)
class ChangedDefault:
    """A parameter whose default the student wrote differently from the notebook's signature."""

    parameter: str
    written: str  # as the student's code writes it
    given: str  # as the notebook's signature gives it


def changed_defaults(name: str, reference: object, sources: Sequence[str]) -> list[ChangedDefault]:
    """The parameters of the student's function or class ``name`` (its ``__init__``) whose literal
    default differs from the one of ``reference``, the notebook's function or class."""
    try:
        given = {parameter.name: parameter.default for parameter in inspect.signature(reference).parameters.values()
                 if parameter.default is not _NO_DEFAULT}
    except (TypeError, ValueError):
        return []
    arguments = _student_arguments(name, sources)
    if arguments is None:
        return []
    changed = []
    for parameter, node in _defaults(arguments).items():
        if parameter not in given:
            continue
        try:
            written = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue  # a name or an expression: not judged
        if _differ(written, given[parameter]):
            changed.append(ChangedDefault(parameter, ast.unparse(node), repr(given[parameter])))
    return changed


def _differ(written: object, given: object) -> bool:
    """Whether two defaults mean different things (0 and 0.0 do not; True and 1 do)."""
    if isinstance(written, bool) != isinstance(given, bool):
        return True
    try:
        return bool(written != given)
    except Exception:  # noqa: BLE001 - a literal against any default (a tensor, say) may raise anything: not judged
        return False


def _student_arguments(name: str, sources: Sequence[str]) -> ast.arguments | None:
    """The arguments of the last top-level definition of ``name`` (the one Python keeps): a
    function's, or a class's ``__init__``'s."""
    found = None
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                found = node.args
            elif isinstance(node, ast.ClassDef) and node.name == name:
                inits = [method for method in node.body if isinstance(method, ast.FunctionDef)
                         and method.name == "__init__"]
                found = inits[-1].args if inits else None
    return found


def _defaults(arguments: ast.arguments) -> dict[str, ast.expr]:
    """Each parameter's default expression, by name."""
    positional = arguments.posonlyargs + arguments.args
    defaults = dict(zip([argument.arg for argument in positional[len(positional) - len(arguments.defaults):]],
                        arguments.defaults, strict=True))
    defaults.update({argument.arg: default for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults,
                                                                          strict=True) if default is not None})
    return defaults


def left_out(reference: object, positional: int, keywords: frozenset[str]) -> set[str]:
    """The parameters of ``reference`` (a function, or a class's ``__init__``) that a call passing
    ``positional`` arguments by position and ``keywords`` by name leaves to their defaults."""
    try:
        parameters = list(inspect.signature(reference).parameters.values())
    except (TypeError, ValueError):
        return set()
    by_position = [parameter.name for parameter in parameters
                   if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)][:positional]
    return {parameter.name for parameter in parameters if parameter.default is not _NO_DEFAULT
            and parameter.name not in by_position and parameter.name not in keywords}
