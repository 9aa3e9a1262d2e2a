"""Which cells are the kit's own demo cells: those whose code is, character for character, a demo
cell of a notebook the kit built.

The kit writes ``kit_demos.json`` when it builds the notebooks (``python -m autograder.notebooks.
kit_demos``, run by `make assignments`; a kit test fails when it is stale): the hash of every demo
cell's code, in every language. A kernel cannot tell one cell from another by its id or metadata
(Jupyter sends them, VS Code and Colab may not, a bare IPython kernel has none), but every one of
them hands the kernel the cell's code, so a cell is known by its code alone. A demo the student
edited is no longer the kit's, and neither is any cell of their own: both run as plain Python.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

DEMOS_FILE = Path(__file__).resolve().parent / "kit_demos.json"


def source_hash(source: str) -> str:
    """The hash of a cell's code, the same whatever line endings, trailing spaces or blank lines at
    either end the editor saved it with."""
    lines = [line.rstrip() for line in source.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return hashlib.sha256("\n".join(lines).strip("\n").encode("utf-8")).hexdigest()[:16]


@functools.cache
def _demo_hashes() -> frozenset[str]:
    try:
        return frozenset(json.loads(DEMOS_FILE.read_text(encoding="utf-8")).get("demos", []))
    except (OSError, ValueError):
        return frozenset()  # a package built without the file knows no demo: every cell runs as written


def is_kit_demo(source: str) -> bool:
    """Whether ``source`` is the code of one of the kit's demo cells, unedited."""
    return source_hash(source) in _demo_hashes()
