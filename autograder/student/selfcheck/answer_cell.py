"""Whether the definition a check just ran is one the grader will read.

The grader reads a stage only from its ✏️ answer cell: a definition in any other cell is ignored
(and its feedback says so). A check runs whatever the kernel defined last. A student who writes
the answer in a new cell below and leaves the stub in the ✏️ cell gets ✅ from the check and 0
from the grader, and the check is the one place that can warn them in time.

Where the front end sends cell ids, the kernel recorded the id of the cell that defined the stage
(``cell_places``): a cell other than ``answer-<stage>`` is another cell, saved or not, provided the
saved notebook keeps the kit's ids (a front end that renumbers them says nothing this way).
Otherwise this reads the notebook as last saved (found as ``submit()`` finds it, never by asking
Colab's front end, which the check must not wait for): the saved cell whose text is the text of the
cell the live definition ran from is where it lives. When that cell is not the stage's answer cell,
the check says so. When nothing can be known (no saved file, unsaved edits and no cell ids, a
notebook without answer-cell markers) it says nothing.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping

from ..cell_places import answer_cell_id, place_of
from ..current_notebook import NotebookNotFound, cell_source, folder_notebook, read_notebook, session_paths
from ..curriculum import ASSIGNMENTS
from ..reading.exceptions import definition_sources
from ..waiting_demos import bound_names


def defined_elsewhere(stage: str, namespace: Mapping, environ: Mapping[str, str] = os.environ) -> str | None:
    """A line of the cell, other than ``stage``'s answer cell, that the live ``stage`` was defined
    in, per the saved notebook (its first line that the answer cell lacks: a new cell often begins
    with the stub's own ``def`` line); None when it is the answer cell or that cannot be known."""
    ran_from = definition_sources([namespace.get(stage)])
    if len(ran_from) != 1 or not ran_from[0].strip():
        return None
    cells = _saved_code_cells(namespace, environ)
    answer_cells = [index for index, (grade_id, _, _) in enumerate(cells) if grade_id == stage]
    if not answer_cells:
        return None  # no markers: every cell counts, as for the grader
    live = place_of(stage)
    if live is not None and live[1].strip() == ran_from[0].strip() and any(
            cells[index][2] == answer_cell_id(stage) for index in answer_cells):
        if live[0] == answer_cell_id(stage):
            return None
        source = live[1]  # another cell, per the front end's id: perhaps not saved yet
    else:
        same_text = [index for index, (_, text, _) in enumerate(cells) if text.strip() == ran_from[0].strip()]
        if not same_text or any(index in answer_cells for index in same_text):
            return None
        source = cells[same_text[0]][1]
    if not _defines(source, stage):
        return None
    lines = [line.strip() for line in source.splitlines() if line.strip()]
    in_answer_cells = {line.strip() for index in answer_cells for line in cells[index][1].splitlines()}
    return next((line for line in lines if line not in in_answer_cells), lines[0])


def _saved_code_cells(namespace: Mapping, environ: Mapping[str, str]) -> list[tuple[str | None, str, str | None]]:
    """The saved notebook's code cells: each one's answer-cell stage (None for other cells), text and id."""
    paths = session_paths(namespace, environ)
    folder = folder_notebook(ASSIGNMENTS)
    path = paths[0] if paths else folder
    if path is None:
        return []
    try:
        notebook = read_notebook(path, "session").notebook
    except NotebookNotFound:
        return []
    cells = []
    for cell in notebook["cells"]:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell_source(cell)
        nbgrader = (cell.get("metadata") or {}).get("nbgrader") or {}
        answer_for = nbgrader.get("grade_id") if isinstance(nbgrader, dict) and nbgrader.get("solution") else None
        cell_id = cell.get("id")
        cells.append((answer_for if isinstance(answer_for, str) else None, source,
                      cell_id if isinstance(cell_id, str) else None))
    return cells


def _defines(source: str, name: str) -> bool:
    """Whether ``source`` defines ``name`` at its top level (a def, a class or an assignment)."""
    try:
        return name in bound_names(ast.parse(source).body)
    except SyntaxError:
        return False
