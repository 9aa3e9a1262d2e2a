"""Build submission notebooks from the master notebooks: for the example class, the benchmark
and the kit's tests (filled answers, mistakes, stubs, extra cells, malformed files)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import nbformat

from autograder.paths import solution_notebook, student_notebook
from autograder.reading.notebook import cell_source
from autograder.student.think_about_it import question_of

_SOLUTION_REGION = re.compile(r"( *)### BEGIN SOLUTION\n.*?### END SOLUTION\n?", re.DOTALL)


def load_solution(assignment_id: str) -> dict:
    """The master notebook of ``assignment_id`` (trusted, so read with nbformat)."""
    return nbformat.read(solution_notebook(assignment_id), as_version=4)


def load_student(assignment_id: str) -> dict:
    """The released student notebook of ``assignment_id``."""
    return nbformat.read(student_notebook(assignment_id), as_version=4)


def answer_cell(notebook: dict, stage: str) -> dict:
    """The answer cell whose nbgrader grade_id is ``stage``."""
    for cell in notebook["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == stage:
            return cell
    raise KeyError(f"no answer cell for {stage}")


def with_answer(notebook: dict, stage: str, source: str) -> dict:
    """A copy of ``notebook`` whose answer cell for ``stage`` holds ``source``."""
    changed = copy.deepcopy(notebook)
    answer_cell(changed, stage)["source"] = source
    return changed


def with_replacement(notebook: dict, stage: str, old: str, new: str) -> dict:
    """A copy whose answer cell for ``stage`` has ``old`` replaced by ``new`` (which must occur)."""
    source = cell_source(answer_cell(notebook, stage))
    if old not in source:
        raise ValueError(f"{old!r} does not occur in the answer cell of {stage}")
    return with_answer(notebook, stage, source.replace(old, new))


def with_think_answer(notebook: dict, question_id: str, source: str) -> dict:
    """A copy of ``notebook`` whose answer cell for the think-about-it question ``question_id`` holds ``source``."""
    changed = copy.deepcopy(notebook)
    [cell] = [cell for cell in changed["cells"] if question_of(cell) == question_id]
    cell["source"] = source
    return changed


def with_cell(notebook: dict, source: str, outputs: list | None = None) -> dict:
    """A copy with one more code cell at the end."""
    changed = copy.deepcopy(notebook)
    changed["cells"].append({"cell_type": "code", "execution_count": None, "id": f"extra-{len(changed['cells'])}",
                             "metadata": {}, "outputs": outputs or [], "source": source})
    return changed


def solved_source(solution: dict, stage: str) -> str:
    """The solution's answer for ``stage`` as a student would write it (no region markers)."""
    lines = cell_source(answer_cell(solution, stage)).splitlines(keepends=True)
    return "".join(line for line in lines if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))


def filled(student: dict, solution: dict, stages: list[str]) -> dict:
    """The student notebook with the answers for ``stages`` filled in from the solution."""
    for stage in stages:
        student = with_answer(student, stage, solved_source(solution, stage))
    return student


def stubbed(notebook: dict) -> dict:
    """Every solution region replaced by ``raise NotImplementedError()`` (an untouched student)."""
    changed = copy.deepcopy(notebook)
    for cell in changed["cells"]:
        if cell["cell_type"] == "code":
            cell["source"] = _SOLUTION_REGION.sub(r"\1raise NotImplementedError()\n", cell_source(cell))
    return changed


def notebook_text(notebook: dict) -> str:
    """A notebook as JSON text, the same bytes every time (as nbformat writes it)."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_submission(root: Path, student_id: str, assignment_id: str, notebook: dict | str | bytes) -> Path:
    """Write a notebook (dict, or raw text/bytes for malformed files) in nbgrader's layout."""
    path = root / student_id / assignment_id / f"{assignment_id}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(notebook, dict):
        path.write_text(notebook_text(notebook))
    elif isinstance(notebook, bytes):
        path.write_bytes(notebook)
    else:
        path.write_text(notebook)
    return path


def stage_points(results_file: Path) -> dict[str, float]:
    """Points earned per stage in a results JSON."""
    document = json.loads(results_file.read_text())
    points: dict[str, float] = {}
    for test in document["tests"]:
        points[test["stage"]] = round(points.get(test["stage"], 0.0) + test["points"], 4)
    return points
