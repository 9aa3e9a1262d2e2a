"""Write which cells are the kit's demos: the hash of every demo cell's code, in every language.

    python -m autograder.notebooks.kit_demos      (run by `make assignments`, before the student package)

A notebook's kernel makes the kit's demo cells wait for their stage (``autograder.student.
waiting_demos``) and leaves every other cell alone; it knows a demo cell by the hash of its code
(``autograder.student.kit_demos``). The demo cells are the code cells of a master that students
get, other than its answer cells and its setup cell (``demo_words.demo_cells``), with their words
in each language (``demo_words.with_demo_words``), exactly as the build writes them: the hashes
are taken from the masters, so that the student package, built before the notebooks, carries
them. A kit test fails when the file is stale or differs from the demo cells in assignments/.
"""

from __future__ import annotations

import copy
import json
import sys

import nbformat

from autograder.notebooks.demo_words import demo_cells, with_demo_words
from autograder.notebooks.solutions_only import student_cells
from autograder.paths import solution_notebook
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.kit_demos import DEMOS_FILE, source_hash
from autograder.student.language import DEFAULT_LANGUAGE, TRANSLATIONS


def demo_hashes(notebook: nbformat.NotebookNode) -> set[str]:
    """The hashes of a notebook's demo cells."""
    return {source_hash(cell.source) for cell in demo_cells(notebook)}


def masters_demo_hashes() -> set[str]:
    """The hashes of the demo cells of every student notebook the masters make, in every language."""
    hashes: set[str] = set()
    for assignment_id in ASSIGNMENTS:
        master = nbformat.read(solution_notebook(assignment_id), as_version=4)
        master.cells = student_cells(master.cells)
        for language in (DEFAULT_LANGUAGE, *TRANSLATIONS):
            hashes |= demo_hashes(with_demo_words(copy.deepcopy(master), language))
    return hashes


def rendered(hashes: set[str]) -> str:
    return json.dumps({"comment": "Written by python -m autograder.notebooks.kit_demos (make assignments) from"
                                  " the masters' demo cells; do not edit.",
                       "demos": sorted(hashes)}, indent=1, ensure_ascii=False) + "\n"


def stale() -> bool:
    """Whether the committed file differs from the masters' demo cells."""
    current = DEMOS_FILE.read_text(encoding="utf-8") if DEMOS_FILE.exists() else None
    return current != rendered(masters_demo_hashes())


def main() -> int:
    if stale():
        DEMOS_FILE.write_text(rendered(masters_demo_hashes()), encoding="utf-8")
        print(f"wrote {DEMOS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
