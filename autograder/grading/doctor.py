"""``python -m autograder doctor``: what this machine can do, proved before anyone grades.

The doctor reads what it can without running anything (the grader's user, Landlock's ABI,
seccomp, the Python installation's folders, the NVIDIA driver against torch's CUDA build, the
device nodes), then runs what ``grade`` runs before its first student: the fork server, real
sandboxed workers that try every guarantee, and the canary (each reference solution graded
through the students' path, on every device ``--device`` would test). So its verdict is the one
``grade`` would reach here: grade (with which isolation, on which devices), or refuse, and why.
Nothing here imports torch: the fork server reports what torch sees.
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from autograder.course.reference import BrokenReferenceError
from autograder.course.rubric import RubricError
from autograder.grading.engine import GradingError, GradingRun, run_shards_on
from autograder.grading.trust import GraderUntrusted
from autograder.grading.workers import SandboxedWorkers
from autograder.probes.errors import SandboxError
from autograder.records.jobs import GradeOptions
from autograder.sandbox.layout import closed_to_others, python_paths
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker import landlock, syscall_filter
from autograder.worker.isolation import Isolation, Layer
from autograder.worker.nvidia import nvidia_device_nodes


class State(Enum):
    """How a check came out: fine, weaker than it could be, or something that stops grading."""

    OK = "ok"
    WARNING = "warning"
    PROBLEM = "problem"


@dataclass(frozen=True)
class Check:
    """One thing the doctor looked at, how it came out, and what it found."""

    name: str
    state: State
    detail: str


@dataclass(frozen=True)
class Diagnosis:
    """Every check, and what ``grade`` would do on this machine."""

    checks: list[Check]
    would_grade: bool
    verdict: str


def diagnose(options: GradeOptions, assignments: list[str] | None = None) -> Diagnosis:
    """Look at this machine and run the start-up checks and canaries of ``assignments`` (default:
    every one) as ``grade`` with ``options`` would."""
    checks = [_grader_user(), _landlock(), _seccomp(), _students_clock()]
    with tempfile.TemporaryDirectory(prefix="attention-kit-doctor-") as scratch:
        submitted, out = Path(scratch) / "submitted", Path(scratch) / "out"
        submitted.mkdir()
        jobs = max(1, options.jobs)
        with SandboxedWorkers(jobs, submitted, out, options) as started:
            checks += _torch_and_cuda(started.machine)
            checks.append(Check("memory", State.OK if started.memory.enough else State.PROBLEM, started.memory.text()))
            devices = started.devices(options.device)
            if options.device == "cuda" and "cuda" not in devices:
                problem = started.machine.get("cuda_problem") or "no CUDA device"
                return Diagnosis(checks, False, f"grade --device cuda would stop: {problem}")
            try:
                run = run_shards_on(started, jobs, devices, [], assignments or list(ASSIGNMENTS), [], submitted, out,
                                    options, lambda student, assignment: None)
            except GraderUntrusted as error:
                checks.append(_python_installation(None))
                checks.append(Check("start-up checks and canary", State.PROBLEM, str(error)))
                return Diagnosis(checks, False, f"grade would refuse to grade: {error}")
            except (GradingError, SandboxError, BrokenReferenceError, RubricError) as error:
                checks.append(_python_installation(None))
                checks.append(Check("start-up checks and canary", State.PROBLEM, str(error)))
                return Diagnosis(checks, False, f"grade would fail: {error}")
    checks += _proved(run)
    return Diagnosis(checks, True, f"grade would grade, on {', '.join(run.devices)}")


def _grader_user() -> Check:
    if os.geteuid() == 0:
        return Check("grader's user", State.OK, "root: each job slot's workers run as a user of their own")
    return Check("grader's user", State.WARNING, f"uid {os.geteuid()}, not root: workers run as this same user"
                 " (in a user namespace where the machine allows one); run as root for full isolation")


def _landlock() -> Check:
    abi = landlock.abi_version()
    if abi == 0:
        return Check("Landlock", State.WARNING, "not in this kernel: without namespaces, only file modes and the"
                     " workers' own user keep the secrets from student code")
    layers = ["files"] + (["TCP"] if abi >= 4 else []) + (["device ioctls"] if abi >= 5 else []) \
        + (["signals and abstract sockets"] if abi >= 6 else [])
    return Check("Landlock", State.OK if abi >= 6 else State.WARNING, f"ABI {abi}: confines {', '.join(layers)}")


def _seccomp() -> Check:
    if syscall_filter.available():
        return Check("seccomp", State.OK, "a filter refuses the system calls workers never need")
    return Check("seccomp", State.WARNING, "no seccomp filter on this machine (x86_64 Linux only)")


def _students_clock() -> Check:
    if Path("/proc/thread-self/schedstat").is_file():
        return Check("time limits", State.OK, "they count the student's own time: what a busy machine or a CPU quota"
                     " withholds (the kernel's run-queue delay) is not the student's")
    return Check("time limits", State.WARNING, "this kernel does not report run-queue delays (/proc/<pid>/schedstat):"
                 " time limits count the wall clock, so a busy machine can cost students their tests; grade with"
                 " a larger --timeout")


def _python_installation(isolations: set[Isolation] | None) -> Check:
    """Whether workers of a user of their own can read the Python installation (``isolations``:
    how the workers were confined, when known; namespaces bind the installation back in)."""
    closed = {path: found for path in python_paths() if (found := closed_to_others(path))}
    if not closed:
        return Check("Python installation", State.OK, f"readable by other users: {', '.join(python_paths())}")
    where = "; ".join(f"{path} (behind {folder}, mode {mode:o})" for path, (folder, mode) in closed.items())
    if isolations and all(Layer.NAMESPACES in isolation.layers for isolation in isolations):
        return Check("Python installation", State.OK, f"closed to other users ({where}), but the workers' namespaces"
                     " bind it back in")
    return Check("Python installation", State.WARNING, f"closed to other users: {where}. Workers of a user of their"
                 " own can run correct code only under namespaces, which bind it back in")


def _torch_and_cuda(machine: dict) -> list[Check]:
    """torch's build, the NVIDIA driver against it, and the device nodes a CUDA worker opens."""
    build = machine.get("cuda_build")
    checks = [Check("torch", State.OK, f"{machine.get('torch')}, " + (f"built for CUDA {build}" if build
                                                                     else "a CPU build")
                    + f"; CPU kernels for {machine.get('cpu_capability')}")]
    driver = machine.get("driver")
    problem = machine.get("cuda_problem", "")
    if driver:
        checks.append(Check("NVIDIA driver", State.PROBLEM if problem and build else State.OK,
                            f"{driver['version']}, {driver['devices']} of {driver['all_devices']} devices visible"
                            + (f": {problem}" if problem else "")))
    elif build:
        checks.append(Check("NVIDIA driver", State.WARNING, f"{problem}; the CUDA tests will not run"))
    nodes = nvidia_device_nodes()
    if nodes:
        closed = [node for node in nodes if os.stat(node).st_mode & 0o006 != 0o006]
        listed = ", ".join(f"{node} ({stat.filemode(os.stat(node).st_mode)})" for node in nodes)
        checks.append(Check("NVIDIA device nodes", State.WARNING if closed and os.geteuid() == 0 else State.OK,
                            listed + (f"; not read-write for other users: {', '.join(closed)} (workers of a user of"
                                      " their own cannot open them)" if closed else "")))
    return checks


def _proved(run: GradingRun) -> list[Check]:
    """What the start-up checks and the canaries proved, and what the workers' CUDA contexts cost."""
    guarantees = run.trust.guarantees
    isolations = {record.isolation for record in run.records.values() if record.isolation is not None}
    weaker = any(not isolation.full or isolation.missing for isolation in isolations)
    checks = [_python_installation(isolations),
              Check("isolation of the workers", State.WARNING if weaker else State.OK,
                    "; ".join(sorted(map(str, isolations))))]
    if guarantees is not None:
        held = ", ".join(guarantee.value for guarantee in guarantees.held)
        checks.append(Check("guarantees proved from real workers", State.WARNING if guarantees.broken else State.OK,
                            held + (f"; does not hold: {guarantees.broken_text()}" if guarantees.broken else "")))
    checks.append(Check("canary", State.OK, f"every reference solution earned full marks through the sandbox, on"
                                            f" {', '.join(run.devices)}"))
    contexts = [record.cuda for record in run.records.values() if record.cuda is not None]
    if contexts:
        slowest = max(contexts, key=lambda context: context.seconds)
        checks.append(Check("CUDA in the sandbox", State.OK,
                            f"{slowest.device}: a worker's context took {slowest.seconds:.2f} s (outside the"
                            f" students' time); {slowest.used_bytes / 2**30:.1f} of"
                            f" {slowest.total_bytes / 2**30:.1f} GiB of GPU memory in use then"))
    return checks


