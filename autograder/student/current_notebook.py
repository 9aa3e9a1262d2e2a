"""Which notebook a kernel runs, as ``submit()`` needs it: its bytes as the student last saved them.

A kernel is not told its notebook in any one way; each front end leaves its own trace:

- Jupyter Notebook 7 and JupyterLab (jupyter_server 2 and later) start the kernel with
  ``JPY_SESSION_NAME``, the notebook's full path, and ipykernel copies it into the namespace as
  ``__session__``. It is the path at the kernel's start: a notebook renamed since is found again
  after a kernel restart. Older servers gave a path relative to their root (or a UUID), so a
  relative path is also tried in the working directory, where the kernel starts;
- VS Code's Jupyter extension sets ``__vsc_ipynb_file__``, the full path;
- Colab keeps the notebook in the browser and Drive, not on the kernel's disk; its front end
  answers ``get_ipynb`` (``google.colab._message``) with the notebook as it is now, unsaved edits
  included;
- nbclient, nbconvert and papermill set none of these, but start the kernel in the notebook's
  folder: one ``<assignment id>.ipynb`` there is taken.

None of Jupyter's front ends lets a kernel save the notebook, so the file is the last saved one;
``unsaved_cell`` tells when it cannot be the one the student sees (it lacks the running cell).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from .language import MAX_NOTEBOOK_BYTES

SESSION_VARIABLES = ("__session__", "__vsc_ipynb_file__")  # ipykernel's (from JPY_SESSION_NAME), VS Code's
SESSION_ENVIRONMENT = "JPY_SESSION_NAME"
COLAB_TIMEOUT_S = 30


class NotebookNotFound(Exception):
    """No notebook file could be found or read; ``reason`` is a key of the submit messages."""

    def __init__(self, reason: str, **fields: str):
        super().__init__(reason)
        self.reason, self.fields = reason, fields


class FoundNotebook(NamedTuple):
    name: str  # the file name sent to the service
    content: bytes
    notebook: dict  # the parsed notebook: its metadata says its language and the service's address
    path: Path | None  # None for Colab's, which lives in the browser
    how: str  # "given", "session", "folder" or "colab"


def read_notebook(path: Path, how: str) -> FoundNotebook:
    """The notebook at ``path``; NotebookNotFound when it is missing, too large or no notebook."""
    try:
        if path.stat().st_size > MAX_NOTEBOOK_BYTES:
            raise NotebookNotFound("too_large", path=str(path))
        content = path.read_bytes()
    except FileNotFoundError:
        raise NotebookNotFound("missing_file", path=str(path)) from None
    except OSError as error:
        raise NotebookNotFound("unreadable", path=str(path), reason=str(error)) from None
    try:
        notebook = json.loads(content)
    except ValueError:
        notebook = None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookNotFound("not_a_notebook", path=str(path))
    return FoundNotebook(path.name, content, notebook, path, how)


def session_paths(namespace: Mapping, environ: Mapping[str, str]) -> list[Path]:
    """The paths the front ends left for this kernel, in order of trust, each existing file once."""
    named = [namespace.get(name) for name in SESSION_VARIABLES] + [environ.get(SESSION_ENVIRONMENT)]
    paths: list[Path] = []
    for value in named:
        if not isinstance(value, str) or not value.endswith(".ipynb"):
            continue
        for path in (Path(value), Path(Path(value).name)):  # as given; else beside the kernel
            if path.is_file() and path.resolve() not in [known.resolve() for known in paths]:
                paths.append(path)
                break
    return paths


def folder_notebook(assignment_ids: Iterable[str], folder: Path = Path()) -> Path | None:
    """The one ``<assignment id>.ipynb`` in ``folder`` (the kernel's), if there is exactly one."""
    present = [folder / f"{assignment_id}.ipynb" for assignment_id in assignment_ids]
    present = [path for path in present if path.is_file()]
    return present[0] if len(present) == 1 else None


def colab_notebook() -> FoundNotebook | None:
    """The notebook open in Colab, as its front end holds it now; None outside Colab."""
    try:
        from google.colab import _message  # type: ignore[import-not-found]  # only on Colab
    except ImportError:
        return None
    answer = _message.blocking_request("get_ipynb", request="", timeout_sec=COLAB_TIMEOUT_S)
    notebook = answer.get("ipynb") if isinstance(answer, dict) else None
    if not isinstance(notebook, dict):
        raise NotebookNotFound("colab_silent")
    name = str(notebook.get("metadata", {}).get("colab", {}).get("name") or "notebook.ipynb")
    content = json.dumps(notebook, ensure_ascii=False).encode("utf-8")
    return FoundNotebook(name, content, notebook, None, "colab")


def find_notebook(given: str | os.PathLike | None, namespace: Mapping, assignment_ids: Iterable[str],
                  environ: Mapping[str, str] = os.environ) -> FoundNotebook:
    """The notebook to submit: ``given`` when the student names it, else the one this kernel runs."""
    if given is not None:
        return read_notebook(Path(given).expanduser(), "given")
    from_colab = colab_notebook()
    if from_colab is not None:
        return from_colab
    for path in session_paths(namespace, environ):
        return read_notebook(path, "session")
    path = folder_notebook(assignment_ids)
    if path is not None:
        return read_notebook(path, "folder")
    raise NotebookNotFound("not_found")


def unsaved_cell(found: FoundNotebook, running_cell: str | None) -> bool:
    """Whether the saved file lacks the cell that is running now (so the student has not saved
    since writing it). Only for a file found by the kernel's session or folder: one the student
    names may be another notebook, and Colab's is the live one."""
    if found.how not in ("session", "folder") or not running_cell or not running_cell.strip():
        return False
    sources = {cell_source(cell).strip() for cell in found.notebook["cells"] if cell.get("cell_type") == "code"}
    return running_cell.strip() not in sources


def cell_source(cell: dict) -> str:
    """A cell's text, whether saved as one string or as a list of lines."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)
