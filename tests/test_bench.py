"""The benchmark's own parts: its class, its class of one, its nbgrader masters and its memory watch,
and the service bench's mixed rush.

The full ``make bench`` takes minutes (nbgrader autograde on every notebook) and is run by hand;
these tests keep its pieces honest.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from autograder.notebooks.variants import answer_cell
from autograder.reading.notebook import cell_source
from autograder.records.jobs import GradeOptions
from autograder.student.curriculum import ASSIGNMENTS
from tools import bench, bench_serve, time_breakdown


def test_the_class_is_mostly_complete_with_plausible_mistakes_and_some_stubs(tmp_path):
    by_kind = bench.build_class(tmp_path, 20)
    assert {kind: len(paths) for kind, paths in by_kind.items()} == {"complete": 40, "one mistake": 28, "stubs": 12}
    assert len(list(tmp_path.glob("*/*/*.ipynb"))) == 20 * len(ASSIGNMENTS)
    for assignment_id in ASSIGNMENTS:  # every assignment gets every kind
        assert all(any(path.parent.name == assignment_id for path in paths) for paths in by_kind.values())
    complete = bench.complete_notebook(ASSIGNMENTS[0])
    mistaken = [json.loads(path.read_text()) for path in by_kind["one mistake"] if path.parent.name == ASSIGNMENTS[0]]
    for notebook in mistaken:  # one answer cell differs from the complete notebook's
        differing = [cell for cell, right in zip(notebook["cells"], complete["cells"], strict=True)
                     if cell_source(cell) != cell_source(right)]
        assert len(differing) == 1


def test_timing_counts_the_cpu_of_waited_children():
    with bench.timed() as timing:
        subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    assert timing[0].cpu > 0.1
    assert timing[0].wall >= timing[0].cpu / (os.cpu_count() or 1)


def test_nbgrader_masters_grade_each_self_check():
    notebook = bench.nbgrader_master(ASSIGNMENTS[0])
    graded = [cell for cell in notebook["cells"] if cell["metadata"].get("nbgrader", {}).get("grade")]
    assert graded
    assert all("run_check(" in cell_source(cell) for cell in graded)


@pytest.mark.slow
def test_a_class_of_one_is_graded_with_its_memory_watched(tmp_path):
    bench.build_class(tmp_path / "class", 1)
    one = bench.class_of([min((tmp_path / "class").glob("*/*/*.ipynb"))], tmp_path / "class", tmp_path / "one")
    assert len(list(one.glob("*/*/*.ipynb"))) == 1
    with bench.MemoryWatch() as memory:
        timing = bench.time_ours(one, tmp_path / "out", GradeOptions(jobs=1))
    assert timing.total.wall > 0
    assert timing.notebooks == 1
    assert memory.grader_peak_kib > 100 * 1024  # the grader holds torch
    assert memory.worker_peak_kib > 100 * 1024  # so does a worker, forked from the fork server


def test_the_time_per_further_notebook_is_the_slope_of_the_completions():
    marks = [bench.Timing(10 + 0.5 * index, 20 + 0.8 * index) for index in range(20)]
    marks[0] = bench.Timing(3.0, 4.0)  # a slow start is left out
    further = bench.per_further_notebook(marks)
    assert further.wall == pytest.approx(0.5)
    assert further.cpu == pytest.approx(0.8)


@pytest.mark.slow
def test_the_time_breakdown_charges_every_sample_to_a_part_of_the_grader():
    assert time_breakdown.main(["--students", "3", "--rounds", "1"]) == 0
    samples = dict(line.split("\t") for line in time_breakdown.SampledWorkers.result_file.read_text().splitlines())
    parts = {part for part, _ in time_breakdown.PARTS} | {time_breakdown.OTHER}
    assert set(samples) <= parts
    assert int(samples["the student's code, run by the probe server"]) > 0
    assert int(samples["the reference solution"]) > 0


def test_the_mixed_rush_holds_its_share_of_endless_loops_and_memory_hogs_spread_over_the_window():
    random.seed(0)
    plan = bench_serve.rush_plan([f"student{index}" for index in range(200)], 60, 0.05)
    kinds = Counter(kind for _, _, kind, _ in plan)
    assert (kinds["endless loop"], kinds["memory hog"]) == (5, 5)
    assert sum(kinds.values()) == 200
    assert all(0 <= second <= 60 for *_, second in plan)
    plain = {kind for _, _, kind, _ in bench_serve.rush_plan([f"student{index}" for index in range(200)], 60)}
    assert plain.isdisjoint(bench_serve.MISBEHAVING)  # the plain rush: a class's mix only
    for kind, answer in bench_serve.MISBEHAVING.items():
        notebook = json.loads(bench_serve._misbehaving_notebook(kind, "tag"))
        assert cell_source(answer_cell(notebook, "softmax_naive")) == answer
