"""``make bench``: grading throughput against ``nbgrader autograde``, side by side.

One generated class (complete, partial and stub notebooks for every assignment) is graded
in alternating rounds by our grader (every isolation measure on) and by ``nbgrader
autograde`` in batch, on the same notebooks and machine. The floor is the same hidden tests
run in one process with no isolation at all: what the checks themselves cost. Our grader's
start-up (a fork server importing torch, about 3 s) is paid once per run, so its cost per
notebook falls as the class grows; the bench also prints it and the cost of each further notebook.

    python -m autograder.tools.bench [--students N] [--rounds R] [--jobs J]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from autograder.course.paths import KIT_ROOT
from autograder.grading.discovery import discover
from autograder.grading.engine import GradeOptions, grade_entries
from autograder.notebooks.building import write_course_config
from autograder.notebooks.example_class import complete_notebook, partial_notebook
from autograder.notebooks.nbgrader_commands import run_nbgrader
from autograder.notebooks.reading import cell_source
from autograder.notebooks.variants import load_solution, load_student, notebook_text, write_submission
from autograder.sandbox.layout import is_worker_uid
from autograder.student.curriculum import ASSIGNMENTS
from autograder.tools.inprocess import InProcessWorkers

BENCH_DIR = KIT_ROOT / "bench-output"
CHAPTER = 1200  # notebooks of one chapter in a 300-student course


def build_class(root: Path, students: int) -> int:
    """Students cycle through complete, partial and untouched notebooks; returns the count."""
    makers = [complete_notebook, partial_notebook, load_student]
    count = 0
    for index in range(students):
        for assignment_id in ASSIGNMENTS:
            notebook = makers[index % len(makers)](assignment_id) or load_student(assignment_id)
            write_submission(root, f"student{index:03d}", assignment_id, notebook)
            count += 1
    return count


def first_notebook(class_dir: Path, root: Path) -> Path:
    """A class of one: the first notebook of ``class_dir``, copied to ``root``."""
    shutil.rmtree(root, ignore_errors=True)
    notebook = min(class_dir.glob("*/*/*.ipynb"))
    copy = root / notebook.relative_to(class_dir)
    copy.parent.mkdir(parents=True)
    shutil.copy(notebook, copy)
    return root


def nbgrader_master(assignment_id: str) -> dict:
    """The master notebook with each self-check cell turned into an nbgrader grade cell."""
    notebook = load_solution(assignment_id)
    for cell in notebook["cells"]:
        source = cell_source(cell) if cell["cell_type"] == "code" else ""
        if source.startswith("check(\""):
            stage = source.split('"')[1]
            check = f'assert run_check("{stage}", globals()).passed'
            cell["source"] = f"from autograder.student.selfcheck import run_check\n{check}"
            cell["metadata"]["nbgrader"] = {"grade": True, "grade_id": f"check_{stage}", "locked": True,
                                            "points": 1, "schema_version": 3, "solution": False,
                                            "task": False}
    return notebook


def prepare_nbgrader_course(course: Path, class_dir: Path) -> None:
    shutil.rmtree(course, ignore_errors=True)
    write_course_config(course)
    for assignment_id in ASSIGNMENTS:
        source = course / "source" / assignment_id / f"{assignment_id}.ipynb"
        source.write_text(notebook_text(nbgrader_master(assignment_id)))
        _nbgrader(course, "generate_assignment", assignment_id, "--force")
    shutil.copytree(class_dir, course / "submitted")


def _nbgrader(course: Path, *args: str) -> None:
    result = run_nbgrader(course, *args)
    if result.returncode != 0:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{result.stderr[-3000:]}")


def time_nbgrader(course: Path) -> float:
    started = time.perf_counter()
    for assignment_id in ASSIGNMENTS:
        _nbgrader(course, "autograde", assignment_id, "--force")
    return time.perf_counter() - started


class MemoryWatch:
    """Samples peak RSS (VmHWM) of our grader's processes and of its workers while it runs.

    Workers are told apart by their uids; the grader is this process and its descendants
    (shards and fork servers).
    """

    def __init__(self):
        self.grader_peak_kib = 0
        self.worker_peak_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.005):
            parents = {}
            for entry in filter(str.isdigit, os.listdir("/proc")):
                info = _process_info(entry)
                if info is None:
                    continue
                uid, parent, hwm_kib = info
                parents[int(entry)] = parent
                if is_worker_uid(uid):
                    self.worker_peak_kib = max(self.worker_peak_kib, hwm_kib)
                elif _descends_from(int(entry), me, parents):
                    self.grader_peak_kib = max(self.grader_peak_kib, hwm_kib)


def _process_info(pid: str) -> tuple[int, int, int] | None:
    """(uid, parent pid, VmHWM in KiB) of a live process, None when it is gone."""
    try:
        fields = {}
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                fields[key] = value.split()
        return int(fields["Uid"][0]), int(fields["PPid"][0]), int(fields.get("VmHWM", ["0"])[0])
    except (FileNotFoundError, ProcessLookupError, KeyError, IndexError):
        return None


def _descends_from(pid: int, ancestor: int, parents: dict[int, int]) -> bool:
    for _ in range(16):
        if pid == ancestor:
            return True
        pid = parents.get(pid, 0)
        if pid <= 1:
            return False
    return False


def time_ours(class_dir: Path, out: Path, options: GradeOptions, workers=None) -> float:
    """Seconds to grade ``class_dir`` (``workers``: where student code runs, sandboxed by default)."""
    started = time.perf_counter()
    grade_entries(discover(class_dir), class_dir, out, options, lambda student, assignment: None, workers)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=15, help="students in the generated class (default 15)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of each grader (default 2)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="our grader's --jobs")
    args = parser.parse_args(argv)
    console = Console()
    class_dir, course = BENCH_DIR / "class", BENCH_DIR / "nbgrader-course"
    shutil.rmtree(class_dir, ignore_errors=True)
    notebooks = build_class(class_dir, args.students)
    console.print(f"class: {args.students} students x {len(ASSIGNMENTS)} notebooks = {notebooks} notebooks;"
                  f" {os.cpu_count()} cores; our grader with --jobs {args.jobs}")
    prepare_nbgrader_course(course, class_dir)
    ours, theirs = [], []
    options = GradeOptions(jobs=args.jobs)
    for round_number in range(1, args.rounds + 1):
        ours.append(time_ours(class_dir, BENCH_DIR / "ours", options))
        console.print(f"round {round_number}: ours {ours[-1]:.1f} s", end="")
        theirs.append(time_nbgrader(course))
        console.print(f", nbgrader autograde {theirs[-1]:.1f} s")
    # Memory is sampled in a run of its own: scanning /proc every few milliseconds costs CPU
    # that the timed rounds must not lose.
    with MemoryWatch() as memory:
        time_ours(class_dir, BENCH_DIR / "ours", options)
    floor = time_ours(class_dir, BENCH_DIR / "floor", GradeOptions(jobs=1), workers=InProcessWorkers)
    one_notebook = min(time_ours(first_notebook(class_dir, BENCH_DIR / "one"), BENCH_DIR / "ours-one", options)
                       for _ in range(2))
    ours_per, theirs_per, floor_per = (min(t) / notebooks for t in (ours, theirs, [floor]))
    table = Table(title="seconds per notebook (best round)")
    for column in ("grader", "s / notebook", "vs nbgrader"):
        table.add_column(column)
    table.add_row("nbgrader autograde (batch)", f"{theirs_per:.3f}", "1.0x")
    table.add_row(f"autograder grade --jobs {args.jobs} (isolated)", f"{ours_per:.3f}", f"{theirs_per / ours_per:.1f}x")
    table.add_row("floor: same tests in one process, no isolation", f"{floor_per:.3f}",
                  f"{theirs_per / floor_per:.1f}x")
    console.print(table)
    further = (min(ours) - one_notebook) / (notebooks - 1)
    chapter_minutes = (one_notebook + further * (CHAPTER - 1)) / 60
    console.print(f"ours: {one_notebook:.1f} s for a class of one notebook (start-up included), then"
                  f" {further:.3f} s per further notebook: a {CHAPTER:,}-notebook chapter would take about"
                  f" {chapter_minutes:.1f} min (nbgrader: {theirs_per * CHAPTER / 60:.0f} min)")
    console.print(f"peak RSS: largest grader process {memory.grader_peak_kib / 1024:.0f} MiB,"
                  f" one worker {memory.worker_peak_kib / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
