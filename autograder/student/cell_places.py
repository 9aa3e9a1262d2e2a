"""Which cell each stage's live definition ran from, by the id the front end gives that cell.

The check warns when the definition it ran lives outside the stage's ✏️ cell (``selfcheck.answer_cell``).
Reading the saved notebook cannot tell while the student's edits are unsaved: a class written in a
new cell below its stub is not in the file yet. JupyterLab, Notebook 7 and VS Code send the id of
each cell they run (IPython's ``ExecutionInfo.cell_id``), and the released notebooks name each ✏️
cell ``answer-<stage>``. So the kernel itself can record, as each cell ends, the id of the cell that
defined each stage, with that cell's text. Front ends that send no id (nbclient, some hosted ones)
leave nothing recorded, and the saved notebook is read as before.
"""

from __future__ import annotations

import ast
import contextlib
import sys

from .curriculum import all_stages

ACTIVE: CellPlaces | None = None


def answer_cell_id(stage: str) -> str:
    """The id the kit's notebooks give ``stage``'s ✏️ cell."""
    return f"answer-{stage}"


class CellPlaces:
    """IPython's ``pre_run_cell`` / ``post_run_cell`` callbacks, and what they recorded."""

    def __init__(self) -> None:
        self._running: tuple[str, str] | None = None  # the running cell's id and text, when it has an id
        self.places: dict[str, tuple[str, str]] = {}  # a stage -> the id and text of the cell that defined it last

    def cell_starts(self, info=None) -> None:
        cell_id, source = getattr(info, "cell_id", None), getattr(info, "raw_cell", None)
        self._running = (cell_id, source) if isinstance(cell_id, str) and isinstance(source, str) else None

    def cell_ends(self, result=None) -> None:
        running, self._running = self._running, None
        if running is None:
            return
        from .waiting_demos import bound_names  # here: waiting_demos imports the checks, which import this module

        try:
            body = ast.parse(running[1]).body
        except SyntaxError:
            return  # nothing ran, so nothing was defined
        for stage in bound_names(body) & set(all_stages()):
            self.places[stage] = running


def place_of(stage: str) -> tuple[str, str] | None:
    """The id and text of the cell that last defined ``stage`` in this kernel, where the front end
    sent cell ids; else None."""
    return ACTIVE.places.get(stage) if ACTIVE is not None else None


def record_cell_places() -> CellPlaces | None:
    """Register the callbacks with the IPython shell this code runs in (replacing earlier ones, so
    that running the setup cell again registers them once, and keeping what they recorded); None
    outside IPython."""
    global ACTIVE
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    earlier = ACTIVE
    if earlier is not None:
        for event, callback in (("pre_run_cell", earlier.cell_starts), ("post_run_cell", earlier.cell_ends)):
            with contextlib.suppress(ValueError):
                shell.events.unregister(event, callback)
    ACTIVE = CellPlaces()
    if earlier is not None:
        ACTIVE.places.update(earlier.places)
    shell.events.register("pre_run_cell", ACTIVE.cell_starts)
    shell.events.register("post_run_cell", ACTIVE.cell_ends)
    return ACTIVE
