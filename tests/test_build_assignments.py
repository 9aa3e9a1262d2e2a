"""The committed student notebooks are exactly what the build produces from solutions/."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.notebooks import building as build_assignments
from autograder.notebooks import grading_rules
from autograder.notebooks.building import build
from autograder.paths import ASSIGNMENTS_DIR
from autograder.student.curriculum import ASSIGNMENTS
from autograder.student.language import TRANSLATIONS


@pytest.mark.slow
def test_committed_assignments_are_regenerated_byte_for_byte(tmp_path, capsys):
    """The English notebooks at assignments/<id>/, each translation at assignments/<language>/<id>/."""
    written = build(tmp_path / "assignments", tmp_path / "course")
    folders = [Path(assignment_id) for assignment_id in ASSIGNMENTS]
    folders += [Path(language, assignment_id) for language in TRANSLATIONS for assignment_id in ASSIGNMENTS]
    assert [path.parent.relative_to(tmp_path / "assignments") for path in written] == folders
    assert capsys.readouterr().out.count("generated ") == len(folders)
    committed = sorted(path.relative_to(ASSIGNMENTS_DIR) for path in ASSIGNMENTS_DIR.rglob("*.ipynb"))
    assert committed == sorted(path.relative_to(tmp_path / "assignments") for path in written)
    for path in written:
        relative = path.relative_to(tmp_path / "assignments")
        assert path.read_bytes() == (ASSIGNMENTS_DIR / relative).read_bytes(), (
            f"assignments/{relative} is stale: run `make assignments`"
        )
        rules = relative.parent / grading_rules.FILE_NAME  # the file the notebook's last cell links to
        assert (path.parent / grading_rules.FILE_NAME).read_bytes() == (ASSIGNMENTS_DIR / rules).read_bytes(), (
            f"assignments/{rules} is stale: run `make assignments`"
        )


@pytest.mark.slow
def test_a_broken_master_notebook_stops_the_build_with_a_clear_message(tmp_path, monkeypatch):
    broken = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python",
                                                               "display_name": "Python 3"}})
    cell = nbformat.v4.new_code_cell("def softmax_naive(x):\n    ### BEGIN SOLUTION\n    return x\n")
    cell.metadata["nbgrader"] = {"grade": False, "grade_id": "softmax_naive", "locked": False,
                                 "schema_version": 3, "solution": True, "task": False}
    checks = nbformat.v4.new_code_cell("")
    checks["id"] = "self-checks"
    broken.cells += [checks, cell]
    path = tmp_path / "broken.ipynb"
    nbformat.write(broken, path)
    monkeypatch.setattr(build_assignments, "ASSIGNMENTS", ["01_attention_scores"])
    monkeypatch.setattr(build_assignments, "solution_notebook", lambda assignment_id: path)
    with pytest.raises(build_assignments.BuildError, match="generate_assignment 01_attention_scores failed"):
        build(tmp_path / "assignments", tmp_path / "course")
    assert not (tmp_path / "assignments").exists()


def test_main_exits_non_zero_with_the_error(monkeypatch, capsys):
    def failing_build(out_dir, course_dir=None, location=None):
        raise build_assignments.BuildError("solutions/x.ipynb is missing")

    monkeypatch.setattr(build_assignments, "build", failing_build)
    assert build_assignments.main([]) == 1
    assert capsys.readouterr().err == "error: solutions/x.ipynb is missing\n"
