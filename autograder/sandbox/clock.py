"""The student's clock: how long an answer took the student's code, not the machine.

A time limit on the wall clock blames the student for a slow machine: in a container with half a
CPU on a busy host, correct code waits for a CPU most of the time and looks like an endless loop.
So an answer's time runs from the moment the grader has sent the question to the moment the
reply starts to arrive, less the time the worker's main thread spent waiting for a CPU it was
ready to use (the kernel's run-queue delay, ``/proc/<pid>/schedstat``, which counts a container's
CPU quota too) and less the time the grader itself waited for one (its own wake-up once the reply
is there); or it is the CPU time of all the worker's processes, when that is more (work spread
over threads or child processes). Sleeping, or waiting for input, counts: the student's code
chose to wait.

The wall clock keeps a generous ceiling as a backstop. An answer that reaches it while the
student's clock is still under the limit was held back by the machine: that is the grader's
problem (``GraderOverloaded``: the test runs again, and the run fails if it keeps happening),
never the student's, unless the student's code lowered its own priority (``nice``, SCHED_IDLE),
which makes any machine look busy.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

# The wall clock's ceiling for an answer whose student's limit is ``limit`` seconds.
CEILING_FACTOR = 6
CEILING_EXTRA_SECONDS = 30.0


def wall_ceiling(limit: float) -> float:
    """How long an answer may take on the wall clock, whatever the machine does."""
    return CEILING_FACTOR * limit + CEILING_EXTRA_SECONDS


@dataclass(frozen=True)
class _Reading:
    wall: float
    run_delay: float  # seconds the worker's main thread, and the grader's own, waited for a CPU
    cpu: float | None  # CPU seconds of every process of the worker (None: not read)


class StudentClock:
    """Times the answers of one worker: ``supervisor`` is the process the fork server forked, and
    ``worker`` its child that runs the student's code (its main thread answers the probes)."""

    def __init__(self, supervisor: int, worker: int | None):
        self._supervisor = supervisor
        self._worker = worker
        self._start: _Reading | None = None
        self._start_cpu: float | None = None

    def start(self) -> None:
        """Start timing an answer. Its processes' CPU time counts from the first ``precise``
        reading (reading it walks every process: too dear for each of thousands of quick answers,
        and until then the main thread's own time counts)."""
        self._start = self._read(with_cpu=False)
        self._start_cpu = None

    @property
    def started(self) -> bool:
        return self._start is not None

    def elapsed(self, *, precise: bool = False) -> float:
        """The student's seconds since ``start``: cheap (one file read) unless ``precise``, which
        also reads the CPU time of every process of the worker."""
        now, start = self._read(with_cpu=precise), self._started()
        waited = max(0.0, now.run_delay - start.run_delay)
        seconds = now.wall - start.wall - waited
        if precise:
            if self._start_cpu is None:  # the first precise reading: CPU time counts from here
                self._start_cpu = now.cpu
            seconds = max(seconds, (now.cpu or 0.0) - (self._start_cpu or 0.0))
        return seconds

    def wall(self) -> float:
        return time.monotonic() - self._started().wall

    def _started(self) -> _Reading:
        """The reading ``start`` took: an answer is timed from there."""
        if self._start is None:
            raise RuntimeError("the student's clock is read before it was started")
        return self._start

    def held_back_by_the_machine(self) -> bool:
        """Whether an answer that reached the wall clock's ceiling was kept from the CPU by others:
        its clock is short of the wall, and the student's code did not lower its own priority below
        the grader's (workers start with the grader's, as children of its fork server)."""
        if self._worker is None:
            return False
        return _nice_and_policy(self._worker) == (os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0))

    def _read(self, *, with_cpu: bool) -> _Reading:
        waited = _run_delay(f"/proc/{self._worker}/schedstat" if self._worker else None)
        return _Reading(time.monotonic(), waited + _run_delay("/proc/thread-self/schedstat"),
                        _tree_cpu(self._supervisor) if with_cpu else None)


def _run_delay(schedstat: str | None) -> float:
    """Seconds a thread has waited on a run queue (0 where the kernel does not say)."""
    if schedstat is None:
        return 0.0
    try:
        return int(Path(schedstat).read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _tree_cpu(supervisor: int) -> float:
    """CPU seconds of the supervisor's descendants, living or already reaped by one of them."""
    total = 0.0
    with contextlib.suppress(psutil.Error):
        root = psutil.Process(supervisor)
        times = root.cpu_times()
        total += times.children_user + times.children_system
        for process in root.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
    return total


def _nice_and_policy(pid: int) -> tuple[int | None, int | None]:
    """The nice value and scheduling policy of ``pid``'s main thread (``/proc/<pid>/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[16]), int(fields[38])  # fields 19 and 41 of proc(5), after pid and comm
    except (OSError, IndexError, ValueError):
        return None, None
