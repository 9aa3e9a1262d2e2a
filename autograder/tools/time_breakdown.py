"""``python -m autograder.tools.time_breakdown``: where a complete notebook's grading time goes.

Classes of complete notebooks (every assignment; one student, then several) are graded with the
bench's in-process floor (one shard, student code in the shard's own process: no isolation),
while a sampler looks at the shard's stack every millisecond and charges each sample to the
first part of the grader found on it, in the order of ``PARTS``. The difference between the two
classes is what each further notebook costs, start-up left out. What isolation itself costs (a
sandboxed worker per notebook, the socket between them) is the bench's isolated time minus this
floor.

    python -m autograder.tools.time_breakdown [--students N]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import threading
from collections import Counter

from rich.console import Console
from rich.table import Table

from autograder.grading.engine import GradeOptions
from autograder.grading.jobs import ShardJob
from autograder.notebooks.example_class import complete_notebook
from autograder.notebooks.variants import write_submission
from autograder.student.curriculum import ASSIGNMENTS
from autograder.tools.bench import BENCH_DIR, Timing, time_ours
from autograder.tools.inprocess import InProcessWorkers

# (part, how a frame's file shows it): the first part found on a sample's stack gets the sample.
PARTS = [
    ("the student's code, run by the probe server", lambda path: path.endswith("worker/probe_server.py")),
    ("encoding probes and replies (JSON + safetensors)", lambda path: path.endswith("worker/protocol.py")),
    ("the reference solution", lambda path: ".ipynb, cell " in path),
    ("naming the mistake of a wrong answer", lambda path: path.endswith("hidden/wrong_outputs.py")),
    ("comparing, building modules (hidden/ helpers)", lambda path: "/autograder/hidden/" in path),
    ("the hidden tests' own code", lambda path: "/autograder/hidden_tests/" in path),
    ("loading the notebook's definitions", lambda path: path.endswith("sandbox/session.py")),
]
OTHER = "pytest, the grading plugin and the rest"
INTERVAL_S = 0.001


class StackSampler(threading.Thread):
    """Samples one thread's stack every ``INTERVAL_S`` and counts the samples by part."""

    def __init__(self, thread_id: int):
        super().__init__(daemon=True)
        self.thread_id, self.samples, self._done = thread_id, Counter(), threading.Event()

    def run(self) -> None:
        while not self._done.wait(INTERVAL_S):
            frame = sys._current_frames().get(self.thread_id)
            files = []
            while frame is not None:
                files.append(frame.f_code.co_filename)
                frame = frame.f_back
            self.samples[next((part for part, found in PARTS if any(map(found, files))), OTHER)] += 1

    def stop(self) -> Counter:
        self._done.set()
        self.join()
        return self.samples


class SampledWorkers(InProcessWorkers):
    """The in-process floor, with each shard's stack sampled into ``result_file``."""

    result_file = BENCH_DIR / "breakdown.tsv"

    @staticmethod
    def run_shard(job: ShardJob, link) -> None:
        """A shard of the floor, sampled; writes ``part<TAB>samples`` lines."""
        sys.setswitchinterval(INTERVAL_S / 2)  # let the sampler in while the shard runs Python code
        sampler = StackSampler(threading.get_ident())
        sampler.start()
        try:
            InProcessWorkers.run_shard(job, link)
        finally:
            samples = sampler.stop()
            SampledWorkers.result_file.write_text("".join(f"{part}\t{count}\n" for part, count in samples.items()))


def sampled_run(students: int) -> tuple[Timing, Counter]:
    """Grade ``students`` complete copies of every notebook in the sampled floor."""
    class_dir = BENCH_DIR / "breakdown-class"
    shutil.rmtree(class_dir, ignore_errors=True)
    for index in range(students):
        for assignment_id in ASSIGNMENTS:
            write_submission(class_dir, f"student{index:03d}", assignment_id, complete_notebook(assignment_id))
    timing = time_ours(class_dir, BENCH_DIR / "breakdown-out", GradeOptions(jobs=1), workers=SampledWorkers)
    lines = SampledWorkers.result_file.read_text().splitlines()
    return timing, Counter({part: int(count) for part, count in (line.split("\t") for line in lines)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.time_breakdown",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=6, help="complete copies of every notebook (default 6)")
    args = parser.parse_args(argv)
    if args.students < 2:
        parser.error("--students must be 2 or more: the breakdown compares a class of one with a larger one")
    # A class of one student against a class of many: start-up, reference loading and first calls
    # cancel out, and what is left is what each further notebook costs.
    small, small_samples = sampled_run(1)
    large, large_samples = sampled_run(args.students)
    further = (args.students - 1) * len(ASSIGNMENTS)
    samples = large_samples - small_samples
    total = sum(samples.values())
    seconds = (large.wall - small.wall) / further
    table = Table(title=f"where a further complete notebook's time goes: {seconds:.3f} s each, in one process with"
                        " no isolation (the bench's floor)")
    for column in ("part", "share", "s / notebook"):
        table.add_column(column)
    for part, count in samples.most_common():
        table.add_row(part, f"{count / total:.0%}", f"{count / total * seconds:.3f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
