"""Names a stage reads that only the notebook's kernel has: the check says so before it runs.

The grader loads each notebook's imports (from any cell) and the definitions and simple
constants of its answer cells, nothing else. A stage that reads a demo's variable (`d_out`,
`inputs`, `weights_2`) or a helper written in a cell of its own works in the kernel, where the
check runs it, and raises NameError for the grader: ✅ here, 0 there. The kernel's history
(IPython's ``In``: every cell run, in order) tells where each name was made: an answer cell is one
that defines a stage. Without a history (a plain namespace) nothing can be told, and nothing is.
"""

from __future__ import annotations

import ast
import builtins
import re
import types
from collections.abc import Mapping

from ..curriculum import all_stages
from ..reading.loaded import is_loaded
from ..waiting_demos import bound_names, code_objects, globals_read

STAGES = frozenset(all_stages())


def read_from_other_cells(stage: str, namespace: Mapping) -> tuple[list[str], list[str]]:
    """The names ``stage``'s code reads from the notebook that the grader will not have: those no
    import and no answer cell makes, and those an answer cell sets to a value a call computes (a
    tensor at the top of the cell: ``loaded.is_loaded``, the grader's own rule)."""
    history = namespace.get("In")
    if not isinstance(history, list) or not history:
        return [], []
    imported, in_answer_cells, computed = set(), set(), set()
    for source in history:
        tree = _parsed(source)
        if tree is None:
            continue
        answer_cell = any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                          and node.name in STAGES for node in tree.body)
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            elif answer_cell:
                names = bound_names([node])  # the last binding of a name decides, as in the grader
                if _loads(node, imported):
                    in_answer_cells, computed = in_answer_cells | names, computed - names
                else:
                    in_answer_cells, computed = in_answer_cells - names, computed | names
    read = set().union(*(globals_read(code) for code in code_objects(namespace.get(stage))))
    missing = sorted(name for name in read if name in namespace and name not in STAGES | imported | in_answer_cells
                     and not hasattr(builtins, name) and not isinstance(namespace[name], types.ModuleType))
    return [name for name in missing if name not in computed], [name for name in missing if name in computed]


def _loads(node: ast.stmt, imported: set[str]) -> bool:
    try:
        return is_loaded(node, imported)
    except RecursionError:  # an expression nested thousands deep is no simple constant
        return False


def unreadable_definition(stage: str, namespace: Mapping) -> tuple[int, str] | None:
    """The line and Python's words for the syntax error of the last cell run that defines ``stage``
    (a ``def`` or ``class`` line of that name), when that error is why it is not defined; None
    when no such cell ran, it parses, or the line is IPython's own syntax (%magic, !shell)."""
    history = namespace.get("In")
    if not isinstance(history, list):
        return None
    defining = re.compile(rf"^\s*(?:def|class)\s+{re.escape(stage)}\b", re.MULTILINE)
    source = next((cell for cell in reversed(history) if isinstance(cell, str) and defining.search(cell)), None)
    if source is None:
        return None
    try:
        ast.parse(source)
    except SyntaxError as error:
        lines = source.splitlines()
        line = lines[error.lineno - 1].strip() if error.lineno and error.lineno <= len(lines) else ""
        if line.startswith(("%", "!")):
            return None
        return error.lineno or 0, error.msg
    return None


def _parsed(source: object) -> ast.Module | None:
    if not isinstance(source, str):
        return None
    try:
        return ast.parse(source)
    except SyntaxError:  # a cell with IPython's own syntax (%magic, !shell): none of its names are graded
        return None
