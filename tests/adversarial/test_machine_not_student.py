"""Limits judge the student's code, not the machine (issue 31).

- **Memory**: each worker's limit is sized from the container's, so that a student who allocates
  too much always reaches their own limit first and loses their own test, named as a memory
  limit, in every container size; were the container's limit reached first, the grader would
  have to stop the run (memory others used is never a student's fault).
- **CPU**: time limits count the student's own time. In half a CPU on a busy host, beside a student
  who burns CPU, correct code waits for a CPU most of the time; that wait is the machine's.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from container import busy_host, container_skip_reason, fresh_cgroups, run_as_container
from containment import make_context
from hostile_corpus import A1, A4, wrapped

from autograder.notebooks.variants import load_solution, write_submission
from autograder.sandbox.memory import _limit_and_use

pytestmark = [pytest.mark.slow, pytest.mark.container]

# 3 GiB, more than any container here holds, taken two ways: allocated by torch (an address-space
# limit refuses it), and held in memfd files outside the worker's address space (only its memory
# cgroup counts those).
ALLOCATES = wrapped(A1, "attention_scores", '''
import torch


def attention_scores(inputs):
    hoard = torch.ones(3 * 2**28)
    return _solution_attention_scores(inputs) + hoard[0]
''')
HOLDS_OUTSIDE = wrapped(A1, "attention_scores", '''
import os


def attention_scores(inputs):
    hoard = [os.memfd_create("hoard") for _ in range(96)]
    for fd in hoard:
        os.posix_fallocate(fd, 0, 32 << 20)
    return _solution_attention_scores(inputs)
''')


def _grade_in_container(submitted: Path, out: Path, memory_mb: int, cpu: float, *extra: str):
    return run_as_container([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
                             "--device", "cpu", *extra], memory_mb=memory_mb, cpu=cpu, timeout=900)


def _results(out: Path, student: str, assignment: str) -> dict:
    return json.loads((out / "results" / student / f"{assignment}.json").read_text())


@pytest.mark.parametrize("memory_mb", [512, 768, 2048])
def test_a_student_over_their_memory_loses_only_their_own_test(tmp_path, memory_mb):
    if reason := container_skip_reason():
        pytest.skip(reason)
    submitted, out = tmp_path / "submitted", tmp_path / "out"
    write_submission(submitted, "control", A1, load_solution(A1))
    context = make_context(tmp_path)
    write_submission(submitted, "allocates", A1, ALLOCATES(context))
    write_submission(submitted, "holds-outside", A1, HOLDS_OUTSIDE(context))
    run = _grade_in_container(submitted, out, memory_mb, cpu=2)
    assert run.result.returncode == 0, run.result.stdout[-3000:] + run.result.stderr[-3000:]
    with (out / "grades.csv").open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert rows["control"]["score"] == rows["control"]["max_score"]
    for student in ("allocates", "holds-outside"):
        tests = _results(out, student, A1)["tests"]
        lost = {test["stage"] for test in tests if test["status"] != "passed"}
        assert lost == {"attention_scores"}, (student, lost)
        keys = {test["finding"]["key"] for test in tests if test["status"] != "passed"}
        assert keys <= {"memory_limit", "memory_refused"}, (student, keys)  # named as a memory limit
    assert run.peak_mb < memory_mb


def test_file_pages_a_fresh_container_is_charged_for_leave_room_for_workers(tmp_path):
    """A fresh container is charged for every page of torch's libraries it reads first, and pages
    read twice sit on the active list; the kernel drops them all before it kills anyone, so the
    memory plan counts none of them (the 512 MiB container above was refused on CI's fresh runner,
    its cache counted as in use). 96 MiB of a file nobody had cached, read twice, in a fresh group."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    cached = tmp_path / "library.so"
    cached.write_bytes(os.urandom(96 * 2**20))
    with cached.open("rb") as handle:
        os.fsync(handle.fileno())
        os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)  # out of the cache: charged on the next read
    with fresh_cgroups(1024, 2) as (groups, _):
        join = "; ".join(f"echo $$ > {group}" for group in groups)
        subprocess.run(["bash", "-c", f"{join}; cat {cached} > /dev/null; cat {cached} > /dev/null"], check=True)
        group = groups[0].parent
        charged = int((group / ("memory.usage_in_bytes" if (group / "memory.usage_in_bytes").exists()
                                else "memory.current")).read_text())
        limit, used = _limit_and_use(group)
    assert limit == 1024 * 2**20
    assert charged >= 80 * 2**20  # the pages were charged to the group
    assert used < 16 * 2**20, used / 2**20


def test_doctor_prints_each_workers_memory(tmp_path):
    if reason := container_skip_reason():
        pytest.skip(reason)
    run = run_as_container([sys.executable, "-m", "autograder", "doctor", "--assignment", A1, "--jobs", "2"],
                           memory_mb=768, cpu=2, timeout=600)
    line = next(line for line in run.result.stdout.splitlines() if "memory:" in line)
    assert "MiB per worker: what is free within the container's memory limit of 768 MiB" in line, line
    assert "shared among 2 job slots" in line


BURNER = wrapped(A4, "split_heads", '''
import os


def _burn():
    while True:
        pass


def split_heads(x, num_heads):
    """Burns the CPU in 40 processes for as long as its worker lives (every stage that calls it, too)."""
    for _ in range(39):
        if os.fork() == 0:
            _burn()
    _burn()
''')


INNOCENTS = ("ada", "ben")  # ada, in the other job slot, is graded while the burner burns


def test_an_innocent_class_beside_a_cpu_burner_on_a_starved_machine_keeps_full_marks(tmp_path):
    """Half a CPU shared with the grader, a busy host and a student who burns 40 processes beside the
    innocents (graded first in the other job slot): correct code waits for a CPU far longer than
    the 1 s it may take per answer, and the 6 s its notebook may take, on the wall clock, and
    still earns every point (GPT-2 small's attention included)."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    submitted, out = tmp_path / "submitted", tmp_path / "out"
    for student in INNOCENTS:
        write_submission(submitted, student, A4, load_solution(A4))
    write_submission(submitted, "aaa-burner", A4, BURNER(make_context(tmp_path)))  # dealt out first
    with busy_host():
        run = _grade_in_container(submitted, out, 768, 0.5, "--jobs", "2", "--timeout", "1")
    assert run.result.returncode == 0, run.result.stdout[-3000:] + run.result.stderr[-3000:]
    with (out / "grades.csv").open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    for student in INNOCENTS:
        assert rows[student]["score"] == rows[student]["max_score"], _results(out, student, A4)["tests"]
        assert rows[student]["status"].startswith("graded")
    lost = {test["stage"] for test in _results(out, "aaa-burner", A4)["tests"] if test["status"] != "passed"}
    assert "split_heads" in lost
