"""The student's clock counts what the student's code did, not what the machine withheld."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.sandbox.clock import StudentClock

CGROUP_ROOT = Path("/sys/fs/cgroup")


def _child(code: str) -> subprocess.Popen:
    """A process standing for a worker: its supervisor is this test's process."""
    return subprocess.Popen([sys.executable, "-c", code])


def _timed(process: subprocess.Popen, seconds: float) -> tuple[float, float, StudentClock]:
    """The student's time of ``process`` over about ``seconds``, the wall time it was read over
    (longer on a busy machine: the bounds below follow it, not a fixed window), and the clock."""
    clock = StudentClock(os.getpid(), process.pid)
    time.sleep(0.3)  # the interpreter starts
    started = time.monotonic()
    clock.start()
    time.sleep(seconds)
    elapsed = clock.elapsed(precise=True)
    return elapsed, time.monotonic() - started, clock


def test_sleeping_counts_as_the_students_time():
    sleeper = _child("import time; time.sleep(30)")
    try:
        elapsed, wall, _ = _timed(sleeper, 1.5)
    finally:
        sleeper.kill()
    assert 1.3 < elapsed <= wall + 0.01  # all of its sleep, and never more than passed


@pytest.fixture
def fifth_of_a_cpu():
    """A cgroup that lets its processes use a fifth of one CPU (a container's quota)."""
    if os.geteuid() != 0:
        pytest.skip("a CPU quota needs root")
    name = f"attention-kit-clock-{os.getpid()}"
    if (CGROUP_ROOT / "cpu").is_dir():
        group = CGROUP_ROOT / "cpu" / name
        group.mkdir()
        (group / "cpu.cfs_period_us").write_text("100000")
        (group / "cpu.cfs_quota_us").write_text("20000")
        join = group / "tasks"
    else:
        group = CGROUP_ROOT / name
        group.mkdir()
        (group / "cpu.max").write_text("20000 100000")
        join = group / "cgroup.procs"
    yield join
    group.rmdir()


def test_waiting_for_a_cpu_is_the_machines_time(fifth_of_a_cpu):
    burner = _child("while True: pass")
    fifth_of_a_cpu.write_text(str(burner.pid))
    try:
        elapsed, wall, clock = _timed(burner, 3.0)
        assert clock.held_back_by_the_machine()
    finally:
        burner.kill()
        burner.wait()
    assert 0 < elapsed < 0.4 * wall  # a fifth of the time at most (about 0.6 s in 3 s), never the wall's


@pytest.mark.parametrize("lowering", ["os.nice(19)", "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))"])
def test_code_that_lowers_its_own_priority_is_not_held_back_by_the_machine(lowering):
    lowered = _child(f"import os, time; {lowering}; time.sleep(30)")
    try:
        time.sleep(0.5)  # lowered before the answer starts (at loading, say): still its own doing
        _, _, clock = _timed(lowered, 0.1)
        assert not clock.held_back_by_the_machine()
    finally:
        lowered.kill()
