"""The benchmark's own parts: its class, its class of one, its nbgrader masters and its memory watch.

The full ``make bench`` takes minutes (nbgrader autograde on every notebook) and is run by hand;
these tests keep its pieces honest.
"""

from __future__ import annotations

from autograder.grading.engine import GradeOptions
from autograder.notebooks.reading import cell_source
from autograder.student.curriculum import ASSIGNMENTS
from autograder.tools import bench


def test_the_class_has_every_notebook_of_every_student(tmp_path):
    assert bench.build_class(tmp_path, 3) == 3 * len(ASSIGNMENTS)
    assert len(list(tmp_path.glob("*/*/*.ipynb"))) == 3 * len(ASSIGNMENTS)


def test_nbgrader_masters_grade_each_self_check():
    notebook = bench.nbgrader_master(ASSIGNMENTS[0])
    graded = [cell for cell in notebook["cells"] if cell["metadata"].get("nbgrader", {}).get("grade")]
    assert graded
    assert all("run_check(" in cell_source(cell) for cell in graded)


def test_a_class_of_one_is_graded_with_its_memory_watched(tmp_path):
    bench.build_class(tmp_path / "class", 1)
    one = bench.first_notebook(tmp_path / "class", tmp_path / "one")
    assert len(list(one.glob("*/*/*.ipynb"))) == 1
    with bench.MemoryWatch() as memory:
        seconds = bench.time_ours(one, tmp_path / "out", GradeOptions(jobs=1))
    assert seconds > 0
    assert memory.grader_peak_kib > 100 * 1024  # the grader holds torch
    assert memory.worker_peak_kib > 100 * 1024  # so does a worker, forked from the fork server
