"""The reference implementation, taken from the master notebooks in ``solutions/``.

The solutions are the single source of truth: their definitions are executed once per
grading process, in the trusted process only, and never copied anywhere else.
"""

from __future__ import annotations

import functools
import types

from autograder.reading.notebook import extract_notebook_file
from autograder.paths import solution_notebook


class BrokenReferenceError(Exception):
    """The master notebook itself is broken: an instructor must fix solutions/."""


@functools.cache
def load_reference(assignment_id: str) -> types.SimpleNamespace:
    """The solution's definitions for ``assignment_id`` as attributes (functions, classes)."""
    path = solution_notebook(assignment_id)
    code = extract_notebook_file(path)
    namespace: dict = {"__name__": f"reference_{assignment_id}"}
    for block in code.blocks:
        padded = "\n" * (block.line - 1) + block.source
        try:
            exec(compile(padded, f"{path.name}, cell {block.cell_index + 1}", "exec"), namespace)
        except Exception as error:
            raise BrokenReferenceError(f"{path}: cell {block.cell_index + 1} failed: {error}") from error
    if code.problems:
        raise BrokenReferenceError(f"{path}: " + "; ".join(map(str, code.problems)))
    return types.SimpleNamespace(**{k: v for k, v in namespace.items() if not k.startswith("__")})
