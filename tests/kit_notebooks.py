"""Helpers for the tests of the course notebooks: load their definitions, execute them."""

from __future__ import annotations

import asyncio
import functools
import os
import re
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from autograder.paths import KIT_ROOT, solution_notebook, student_notebook
from autograder.reading.notebook import extract_notebook_file
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.probe_server import load_definitions as worker_load_definitions

# A cell's wall-clock ceiling: a backstop against a hung kernel, never a speed check (speed is
# the benchmarks' job). Generous, because make test runs two test files at once on two cores and
# a training cell's 40 s of CPU may then take minutes.
NOTEBOOK_TIMEOUT_S = 1800
KERNELS_AT_ONCE = 2  # the machines that run the kit's tests have two cores; more only add waiting


def notebook_paths() -> dict[str, Path]:
    """Every notebook of the kit, keyed "solutions/<id>" and "assignments/<id>"."""
    paths = {f"solutions/{a}": solution_notebook(a) for a in ASSIGNMENTS}
    paths.update({f"assignments/{a}": student_notebook(a) for a in ASSIGNMENTS})
    return paths


def load_definitions(path: Path) -> tuple[dict, list[str]]:
    """The notebook's definitions as a namespace, loaded exactly as the grader's worker does.

    Returns the namespace and one line per block that raised.
    """
    return worker_load_definitions([vars(block) for block in extract_notebook_file(path).blocks])


def execute_notebooks(notebooks: dict[str, Path | nbformat.NotebookNode],
                      cwd: Path, *, cell_ids: bool = False) -> dict[str, nbformat.NotebookNode]:
    """Run every notebook (a file, or a notebook in memory) top to bottom, KERNELS_AT_ONCE kernels
    at a time, errors recorded not raised. ``cell_ids``: send each cell's id with its code, as
    JupyterLab and VS Code do (nbclient sends none)."""
    # The kernels find the kit's package even where it is not installed in the environment.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(KIT_ROOT), os.environ.get("PYTHONPATH")]))}
    notebooks = {key: nbformat.read(notebook, as_version=4) if isinstance(notebook, Path) else notebook
                 for key, notebook in notebooks.items()}

    async def run_all():
        slots = asyncio.Semaphore(KERNELS_AT_ONCE)

        async def run(notebook: nbformat.NotebookNode) -> None:
            async with slots:
                client = NotebookClient(notebook, timeout=NOTEBOOK_TIMEOUT_S, kernel_name="python3",
                                        allow_errors=True, resources={"metadata": {"path": str(cwd)}})
                if cell_ids:
                    client.on_cell_execute = functools.partial(_send_cell_id, client)
                await client.async_execute(env=env)

        await asyncio.gather(*(run(notebook) for notebook in notebooks.values()))

    asyncio.run(run_all())
    return notebooks


def _send_cell_id(client: NotebookClient, cell: nbformat.NotebookNode, cell_index: int) -> None:
    """nbclient's hook before a cell runs: its code goes with the cell's id in the request's
    metadata (``cellId``), where a front end puts it."""

    def execute(code, silent=False, store_history=True, user_expressions=None, allow_stdin=None, stop_on_error=True):
        content = {"code": code, "silent": silent, "store_history": store_history,
                   "user_expressions": user_expressions or {}, "allow_stdin": False, "stop_on_error": stop_on_error}
        message = client.kc.session.msg("execute_request", content, metadata={"cellId": cell.id})
        client.kc.shell_channel.send(message)
        return message["header"]["msg_id"]

    client.kc.execute = execute


def printed_text(notebook: nbformat.NotebookNode) -> str:
    """Everything the notebook printed, with runs of whitespace collapsed to one space."""
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                parts.append(output.text)
            elif output.output_type in ("execute_result", "display_data"):
                parts.append(output.get("data", {}).get("text/plain", ""))
    return re.sub(r"\s+", " ", "\n".join(parts))


_NUMBER = r"-?\d+\.\d+"


def _in_last_places(number: str, like: str) -> int:
    """``number`` in units of the last decimal place that ``like`` prints."""
    return round(float(number) * 10 ** len(like.split(".")[1]))


def printed_close(expected: str, text: str) -> bool:
    """Whether ``text`` prints ``expected`` (a printed tensor, say) with each decimal number at
    most one unit of its last printed place away: a float32 value that sits at a rounding edge
    prints one unit apart on a CPU whose kernels round it the other way."""
    numbers = re.findall(_NUMBER, expected)
    pattern = re.escape(expected)
    for number in numbers:
        pattern = pattern.replace(re.escape(number), f"({_NUMBER})", 1)
    for match in re.finditer(pattern, text):
        if all(abs(_in_last_places(found, book) - _in_last_places(book, book)) <= 1
               for found, book in zip(match.groups(), numbers, strict=True)):
            return True
    return False


def errors(notebook: nbformat.NotebookNode) -> list[tuple[str, str, str]]:
    """(cell id, exception name, message) for every cell that raised."""
    return [
        (cell.get("id", "?"), output.ename, output.evalue)
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]
