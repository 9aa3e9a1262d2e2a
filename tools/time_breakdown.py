"""``python -m tools.time_breakdown``: where a complete notebook's grading time goes.

A class of complete notebooks (every assignment, several students) is graded with the bench's
in-process floor (one shard, student code in the shard's own process: no isolation) while a
sampler looks at the shard's stack every millisecond and charges each sample to the first part
of the grader found on it, in the order of ``PARTS``. Samples count only once the first student
notebook is done (start-up, references and canaries are left out), and the time per notebook is
the slope of the notebooks' completion times (``bench.per_further_notebook``). The class is
graded ``--rounds`` times: the figures are the median round's, with the spread of all rounds, so
that a before and an after can be told apart from noise. What isolation itself costs (a
sandboxed worker per notebook, the socket between them) is the bench's isolated time minus this
floor.

    python -m tools.time_breakdown [--students N] [--rounds R]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import threading
from collections import Counter

from rich.console import Console
from rich.table import Table

from autograder.grading.link import ShardMessage, SubmissionDone
from autograder.notebooks.example_class import complete_notebook
from autograder.notebooks.variants import write_submission
from autograder.records.jobs import GradeOptions, ShardJob
from autograder.student.curriculum import ASSIGNMENTS
from tools.bench import BENCH_DIR, GradingTime, time_ours
from tools.inprocess import InProcessWorkers

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
    """Samples one thread's stack every ``INTERVAL_S`` and counts the samples by part, once
    ``counting`` is set."""

    def __init__(self, thread_id: int):
        super().__init__(daemon=True)
        self.thread_id, self.samples, self._done = thread_id, Counter(), threading.Event()
        self.counting = threading.Event()

    def run(self) -> None:
        while not self._done.wait(INTERVAL_S):
            if not self.counting.is_set():
                continue
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


class _CountingAfterFirstNotebook:
    """The shard's link to the grading command, which starts the sampler's count once the first
    student notebook is reported done."""

    def __init__(self, link, sampler: StackSampler):
        self._link, self._sampler = link, sampler

    def send(self, message: ShardMessage) -> None:
        if isinstance(message, SubmissionDone):
            self._sampler.counting.set()
        self._link.send(message)

    def __getattr__(self, name):
        return getattr(self._link, name)


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
            InProcessWorkers.run_shard(job, _CountingAfterFirstNotebook(link, sampler))
        finally:
            samples = sampler.stop()
            SampledWorkers.result_file.write_text("".join(f"{part}\t{count}\n" for part, count in samples.items()))


def sampled_run(students: int) -> tuple[GradingTime, Counter]:
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
    parser = argparse.ArgumentParser(prog="python -m tools.time_breakdown",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=6, help="complete copies of every notebook (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="times the class is graded (default 3)")
    args = parser.parse_args(argv)
    if args.students < 2:
        parser.error("--students must be 2 or more: the first notebook is left out as start-up")
    runs = sorted((sampled_run(args.students) for _ in range(args.rounds)), key=lambda run: run[0].per_notebook.wall)
    timing, samples = runs[len(runs) // 2]
    seconds = [run.per_notebook.wall for run, _ in runs]
    total = sum(samples.values()) or 1
    table = Table(title=f"where a further complete notebook's time goes: {timing.per_notebook.wall:.3f} s each"
                        f" (median of {len(runs)} rounds: {min(seconds):.3f} to {max(seconds):.3f} s), in one"
                        " process with no isolation (the bench's floor)")
    for column in ("part", "share", "s / notebook"):
        table.add_column(column)
    for part, count in samples.most_common():
        table.add_row(part, f"{count / total:.0%}", f"{count / total * timing.per_notebook.wall:.3f}")
    Console().print(table)
    return 0

if __name__ == "__main__":
    sys.exit(main())
