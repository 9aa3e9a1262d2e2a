"""``make bench``: grading throughput against ``nbgrader autograde``, side by side.

The generated class is what a real class hands in: half complete notebooks, 35 % complete but
for one plausible mistake (from the kit's mutant corpus, ``tests/mutations.py``) and 15 %
untouched stubs, over every assignment. It is graded in alternating rounds by our grader (every
isolation measure and the canary on) and by ``nbgrader autograde`` in batch, on the same
notebooks and machine. Wall time and CPU time (of this process and every process it started,
counted by a cpuacct cgroup of its own) are both reported: CPU time is steadier on a shared
machine. The floor is the same hidden tests
run in one process with no isolation at all: what the checks themselves cost. Our grader's
start-up (a fork server importing torch, then the canary) is paid once per run, so the bench
also prints it, the cost of each further notebook, and that cost for each kind of notebook.

    python -m tools.bench [--students N] [--rounds R] [--jobs J]
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import os
import resource
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from autograder.grading.discovery import discover
from autograder.grading.engine import grade_entries
from autograder.notebooks.building import write_course_config
from autograder.notebooks.example_class import complete_notebook
from autograder.notebooks.variants import (
    load_solution,
    load_student,
    notebook_text,
    solved_source,
    with_answer,
    write_submission,
)
from autograder.paths import KIT_ROOT
from autograder.platforms.nbgrader_commands import run_nbgrader
from autograder.reading.notebook import cell_source
from autograder.records.jobs import GradeOptions
from autograder.sandbox.layout import is_worker_uid
from autograder.student.curriculum import ASSIGNMENTS
from tools.inprocess import InProcessWorkers

BENCH_DIR = KIT_ROOT / "bench-output"
CHAPTER = 1200  # notebooks of one chapter in a 300-student course


# Of every 20 notebooks: 10 complete, 7 with one plausible mistake, 3 untouched stubs.
KINDS = {"complete": 10, "one mistake": 7, "stubs": 3}


def mutant_corpus() -> list:
    """The kit's plausible mistakes (``tests/mutations.py``): the bench runs from a checkout."""
    tests_folder = str(KIT_ROOT / "tests")
    if tests_folder not in sys.path:
        sys.path.insert(0, tests_folder)
    from mutations import MUTATIONS  # imported here: test data, found only in a checkout

    return MUTATIONS


def _with_mistake(assignment_id: str, mutation) -> dict:
    """A complete student notebook whose one stage has the mutant's answer."""
    return with_answer(complete_notebook(assignment_id), mutation.stage, solved_source(mutation.notebook(),
                                                                                       mutation.stage))


def build_class(root: Path, students: int) -> dict[str, list[Path]]:
    """Every student hands in every assignment, each notebook of one kind (``KINDS``, in those
    shares, spread over the assignments); returns the notebooks written, by kind."""
    pattern = [kind for kind, share in KINDS.items() for _ in range(share)]
    mutants = {a: [m for m in mutant_corpus() if m.assignment == a] for a in ASSIGNMENTS}
    written: dict[str, list[Path]] = {kind: [] for kind in KINDS}
    for index in range(students):
        for position, assignment_id in enumerate(ASSIGNMENTS):
            kind = pattern[(index + position * 5) % len(pattern)]
            if kind == "complete":
                notebook = complete_notebook(assignment_id)
            elif kind == "one mistake":
                choices = mutants[assignment_id]
                notebook = _with_mistake(assignment_id, choices[(index * 7 + position) % len(choices)])
            else:
                notebook = load_student(assignment_id)
            written[kind].append(write_submission(root, f"student{index:03d}", assignment_id, notebook))
    return written


def class_of(notebooks: list[Path], class_dir: Path, root: Path) -> Path:
    """A class holding only ``notebooks`` (paths in ``class_dir``), copied to ``root``."""
    shutil.rmtree(root, ignore_errors=True)
    for notebook in notebooks:
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


@dataclass(frozen=True)
class Timing:
    """Wall seconds, and CPU seconds of this process and of every process it started."""

    wall: float
    cpu: float


CPU_CGROUPS = Path("/sys/fs/cgroup/cpuacct")  # cgroups v1, as on the machines the kit is measured on


@functools.cache
def _cpu_group() -> Path | None:
    """A cpuacct cgroup holding this process, so that every process it starts is counted (the
    grader's shards and workers are forked by a fork server, and not all are waited for); None
    where none can be made (not root, cgroups v2): then only waited-for processes count."""
    group = CPU_CGROUPS / f"attention-kit-bench-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return None
    atexit.register(_leave_cpu_group, group)
    return group


def _leave_cpu_group(group: Path) -> None:
    with contextlib.suppress(OSError):
        (CPU_CGROUPS / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and what it started (see ``_cpu_group``)."""
    group = _cpu_group()
    if group is not None:
        return int((group / "cpuacct.usage").read_text()) / 1e9
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@contextlib.contextmanager
def timed() -> Iterator[list[Timing]]:
    """Measures the ``with`` block; the Timing is in the yielded list once the block ends."""
    result: list[Timing] = []
    wall, cpu = time.perf_counter(), cpu_seconds()
    yield result
    result.append(Timing(time.perf_counter() - wall, cpu_seconds() - cpu))


def time_nbgrader(course: Path) -> Timing:
    with timed() as timing:
        for assignment_id in ASSIGNMENTS:
            _nbgrader(course, "autograde", assignment_id, "--force")
    return timing[0]


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


@dataclass(frozen=True)
class GradingTime:
    """One grading run, timed: in all, its start-up (until its first notebook was done) and each
    further notebook (the slope of the completion times; start-up and the last stragglers left out)."""

    total: Timing
    startup: Timing
    per_notebook: Timing
    notebooks: int


def _slope(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of ``points`` (index, value)."""
    count = len(points)
    mean_x = sum(x for x, _ in points) / count
    mean_y = sum(y for _, y in points) / count
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0.0


def per_further_notebook(marks: list[Timing]) -> Timing:
    """Wall and CPU seconds per notebook, from the (wall, CPU) clocks at each notebook done: the
    slope over the middle of the run (the first tenth, while the shards still start, and the last,
    when one shard may already be idle, are left out)."""
    middle = marks[len(marks) // 10: len(marks) - len(marks) // 10] or marks
    return Timing(_slope(list(enumerate(mark.wall for mark in middle))),
                  _slope(list(enumerate(mark.cpu for mark in middle))))


def time_ours(class_dir: Path, out: Path, options: GradeOptions, workers=None) -> GradingTime:
    """Grade ``class_dir`` (``workers``: where student code runs, sandboxed by default), noting the
    clocks as each notebook is done."""
    marks: list[Timing] = []
    wall, cpu = time.perf_counter(), cpu_seconds()

    def done(student: str, assignment: str) -> None:
        marks.append(Timing(time.perf_counter() - wall, cpu_seconds() - cpu))

    rows = grade_entries(discover(class_dir), class_dir, out, options, done, workers)
    total = Timing(time.perf_counter() - wall, cpu_seconds() - cpu)
    per_notebook = per_further_notebook(marks) if len(marks) >= 3 else Timing(0.0, 0.0)
    return GradingTime(total, marks[0] if marks else total, per_notebook, len(rows))


def _best(timings: list[Timing]) -> Timing:
    return min(timings, key=lambda timing: timing.wall)


def _median(runs: list[GradingTime], part: str) -> Timing:
    """The run whose ``part`` took the median wall time: that part's wall and CPU time."""
    ordered = sorted(runs, key=lambda run: getattr(run, part).wall)
    return getattr(ordered[len(ordered) // 2], part)


def _spread(runs: list[GradingTime]) -> str:
    walls = [run.per_notebook.wall for run in runs]
    return f"{min(walls):.3f} to {max(walls):.3f} s" if len(walls) > 1 else "one round"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=20, help="students in the generated class (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of our grader (default 3; the median counts)")
    parser.add_argument("--nbgrader-rounds", type=int, default=1, help="rounds of nbgrader autograde (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="our grader's --jobs")
    args = parser.parse_args(argv)
    console = Console()
    class_dir, course = BENCH_DIR / "class", BENCH_DIR / "nbgrader-course"
    shutil.rmtree(class_dir, ignore_errors=True)
    by_kind = build_class(class_dir, args.students)
    notebooks = sum(len(paths) for paths in by_kind.values())
    shares = ", ".join(f"{len(paths)} {kind}" for kind, paths in by_kind.items())
    console.print(f"class: {args.students} students x {len(ASSIGNMENTS)} notebooks = {notebooks} notebooks ({shares});"
                  f" {os.cpu_count()} cores; our grader with --jobs {args.jobs}, canary on; CPU time counted by"
                  f" {'a cpuacct cgroup' if _cpu_group() else 'getrusage (processes waited for only)'}")
    prepare_nbgrader_course(course, class_dir)
    options = GradeOptions(jobs=args.jobs)
    ours: list[GradingTime] = []
    theirs: list[Timing] = []
    for round_number in range(1, max(args.rounds, args.nbgrader_rounds) + 1):  # alternating
        line = f"round {round_number}:"
        if round_number <= args.rounds:
            ours.append(time_ours(class_dir, BENCH_DIR / "ours", options))
            line += (f" ours {ours[-1].total.wall:.1f} s in all, {ours[-1].per_notebook.wall:.3f} s per further"
                     " notebook;")
        if round_number <= args.nbgrader_rounds:
            theirs.append(time_nbgrader(course))
            line += f" nbgrader autograde {theirs[-1].wall:.1f} s"
        console.print(line)
    # Memory is sampled in a run of its own: scanning /proc every few milliseconds costs CPU
    # that the timed rounds must not lose.
    with MemoryWatch() as memory:
        time_ours(class_dir, BENCH_DIR / "ours", options)
    floor = time_ours(class_dir, BENCH_DIR / "floor", GradeOptions(jobs=1), workers=InProcessWorkers)
    nbgrader = _best(theirs)
    nbgrader_each = Timing(nbgrader.wall / notebooks, nbgrader.cpu / notebooks)
    further, total, startup = _median(ours, "per_notebook"), _median(ours, "total"), _median(ours, "startup")
    table = Table(title=f"seconds per notebook (ours: the median of {len(ours)} rounds)")
    for column in ("grader", "wall s / notebook", "CPU s / notebook", "vs nbgrader (wall)"):
        table.add_column(column)
    rows = (("nbgrader autograde (batch)", nbgrader_each),
            (f"ours, --jobs {args.jobs}, isolated, canary on: each further notebook", further),
            (f"ours, --jobs {args.jobs}: the whole class of {notebooks}, start-up included",
             Timing(total.wall / notebooks, total.cpu / notebooks)),
            ("floor (same tests in one process, no isolation): each further notebook", floor.per_notebook))
    for name, timing in rows:
        table.add_row(name, f"{timing.wall:.3f}", f"{timing.cpu:.3f}",
                      f"{nbgrader_each.wall / timing.wall:.1f}x" if timing.wall else "-")
    console.print(table)
    chapter_minutes = (startup.wall + further.wall * (CHAPTER - 1)) / 60
    console.print(f"ours: {startup.wall:.1f} s until the first notebook is done (start-up and canary included), then"
                  f" {further.wall:.3f} s ({further.cpu:.3f} CPU s) per further notebook (over the rounds:"
                  f" {_spread(ours)}); the whole class took {total.wall:.1f} s against nbgrader's {nbgrader.wall:.0f} s"
                  f" ({nbgrader.wall / total.wall:.1f}x). A {CHAPTER:,}-notebook chapter would take about"
                  f" {chapter_minutes:.1f} min (nbgrader: {nbgrader_each.wall * CHAPTER / 60:.0f} min)")
    kinds = Table(title="ours: seconds per further notebook, by kind (each kind graded alone)")
    for column in ("kind", "notebooks", "wall s", "CPU s"):
        kinds.add_column(column)
    for kind, paths in by_kind.items():
        if len(paths) >= 6:
            timing = time_ours(class_of(paths, class_dir, BENCH_DIR / "part"), BENCH_DIR / "ours-part",
                               options).per_notebook
            kinds.add_row(kind, str(len(paths)), f"{timing.wall:.3f}", f"{timing.cpu:.3f}")
    console.print(kinds)
    console.print(f"peak RSS: largest grader process {memory.grader_peak_kib / 1024:.0f} MiB,"
                  f" one worker {memory.worker_peak_kib / 1024:.0f} MiB (Gradescope gives 768 MB in all)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
