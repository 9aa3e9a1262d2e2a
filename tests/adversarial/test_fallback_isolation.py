"""The fallbacks: the grader contains every trick, or refuses to grade and says why.

- ``user-namespace``: the grader run by an unprivileged user (as root this test drops to
  ``nobody``, with the Python installation made reachable if it sits in root's home; run by an
  unprivileged user it grades as that user). Workers get a user namespace instead of a user of
  their own.
- ``limits-only``: root without CAP_SYS_ADMIN (a container that forbids namespaces). Workers run
  as a user of their own, confined by Landlock and seccomp.
- ``no-user-namespaces``: the grader run by an unprivileged user on a machine that forbids user
  namespaces. Workers run as the grader's user, confined by Landlock and seccomp, under a
  supervisor that is a child subreaper (nothing they start escapes the kill).
- ``private-python``: the same container, with the Python installation inside a folder of mode
  0700 (a kit cloned into ``mktemp -d``): workers cannot run correct code there, so the canary
  fails and the grader must refuse before writing any row.
In every mode the grader either contains every trick of the suite or refuses to grade with a
message that says what to fix; it never writes a grade it could not trust. A machine whose
kernel lacks Landlock refuses in the limits-only mode (student code could read the secrets),
and so does a checkout whose Python installation other users cannot read.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from container import PRIVATE_MOUNTS, open_to_others
from containment import GRADE_ARGS, GradingRun, control_id, grade_contained, make_context
from hostile_corpus import A1, hostile_submissions

from autograder.notebooks.variants import load_solution
from autograder.paths import KIT_ROOT
from autograder.worker.landlock import abi_version

pytestmark = pytest.mark.slow

NOBODY = 65534
TRICKS = ["reads-solutions", "reads-hidden-tests-and-outputs", "writes-outside-scratch",
          "escapes-through-a-user-namespace", "outlives-its-worker", "fork-bomb", "late-writer",
          "persists-into-python", "kills-the-grader", "forges-result-files"]
MODES = ["user-namespace", "limits-only", "private-python", "no-user-namespaces"]
GRADING_MODES = [mode for mode in MODES if mode != "private-python"]  # the last one must refuse
NO_USER_NAMESPACES = Path(__file__).resolve().parent / "no_user_namespaces.py"


def _as_nobody(then: list[str] | None = None) -> list[str]:
    """A command prefix that runs the rest as nobody, with the kit and its Python installation
    reachable by other users (``container.open_to_others``: this run's mount namespace only)."""
    return open_to_others([*(then or []), "setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups",
                           "--inh-caps=-all", "--bounding-set=-all", "env", "-i", "PATH=/usr/bin:/bin",
                           "HOME=/nonexistent", "LANG=C.UTF-8"])


def _private_python(folder: Path) -> list[str]:
    """A command prefix that runs the grading command's interpreter from ``folder`` (mode 0700):
    in a private mount namespace the virtual environment is bound into it, and the grader then
    runs without CAP_SYS_ADMIN, as in a container, from a kit cloned into ``mktemp -d``."""
    venv = Path(os.path.realpath(sys.prefix))
    if venv == Path(os.path.realpath(sys.base_prefix)):
        pytest.skip("the kit's tests run outside a virtual environment: there is no venv to move")
    inside = shlex.quote(str(folder / "venv"))
    script = (f"set -e; mkdir -p {inside}; mount --bind {shlex.quote(str(venv))} {inside}; shift;"
              f' exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin {inside}/bin/python "$@"')
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh"]


def _wrap_for(mode: str, private: Path) -> list[str]:
    if os.geteuid() != 0:
        if mode != "user-namespace":
            pytest.skip(f"forcing the {mode} fallback needs root (to drop CAP_SYS_ADMIN)")
        return []
    if shutil.which("setpriv") is None or shutil.which("unshare") is None:
        pytest.skip("setpriv and unshare are needed to run the grader in its fallbacks")
    if mode == "limits-only":  # a container: its image's Python is readable by every user
        return open_to_others(["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"])
    if mode == "private-python":
        return _private_python(private)
    kit_files = (KIT_ROOT / "autograder" / "grading" / "engine.py", KIT_ROOT / "solutions")
    if not all(os.stat(p).st_mode & 0o004 for p in kit_files):
        pytest.skip("the kit's files are not readable by other users (a checkout made under umask 077), so nobody"
                    " cannot run the grader")
    return _as_nobody([sys.executable, str(NO_USER_NAMESPACES)] if mode == "no-user-namespaces" else None)


def _may_refuse(mode: str) -> bool:
    """Whether this machine gives the grader good reason to refuse in ``mode``: no Landlock in
    the kernel (student code could read the secrets), or a Python installation that the
    workers' own user cannot read (correct code would fail: the canary)."""
    if mode == "private-python":
        return True
    return mode in ("limits-only", "no-user-namespaces") and abi_version() == 0


def _refused(run: GradingRun) -> bool:
    return run.report["returncode"] == 1 and "refuses to grade" in run.stdout


@pytest.fixture(scope="module")
def runs():
    """The class graded in each mode, once per mode however many tests ask (``runs(mode)``)."""
    made: dict[str, GradingRun] = {}
    folders: list[Path] = []

    def run_in(mode: str) -> GradingRun:
        if mode not in made:
            root = Path(tempfile.mkdtemp(prefix="attention-fallback-"))
            private = Path(tempfile.mkdtemp(prefix="attention-private-"))  # mode 0700
            folders.extend((root, private))
            wrap = _wrap_for(mode, private)
            root.chmod(0o755)
            context = make_context(root)
            context.out.mkdir(mode=0o777)
            context.out.chmod(0o777)
            hostiles = [h for h in hostile_submissions() if h.name in TRICKS and h.assignment == A1]
            made[mode] = grade_contained(context, hostiles, GRADE_ARGS, wrap=wrap,
                                         students={control_id(A1): (A1, load_solution(A1))})
            made[mode].mode, made[mode].wrap = mode, wrap
        return made[mode]

    yield run_in
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=MODES)
def fallback_run(request, runs) -> GradingRun:
    return runs(request.param)


@pytest.fixture(params=GRADING_MODES)
def graded_run(request, runs) -> GradingRun:
    run = runs(request.param)
    if _refused(run) and abi_version() == 0:
        pytest.skip(f"this kernel has no Landlock, so the grader rightly refused in the {run.mode} mode")
    return run


def test_it_grades_or_refuses_before_writing_any_row(fallback_run: GradingRun):
    output = fallback_run.stdout[-3000:] + fallback_run.stderr[-3000:]
    if fallback_run.mode == "private-python":
        assert _refused(fallback_run), output
    if _refused(fallback_run):
        assert _may_refuse(fallback_run.mode), output
        assert not (fallback_run.context.out / "grades.csv").exists()
        assert not (fallback_run.context.out / "results").exists()
        assert "Landlock" in fallback_run.stdout or "chmod" in fallback_run.stdout, output
        if fallback_run.mode == "private-python":
            assert "chmod o+rx" in fallback_run.stdout, output
            assert "attention-private-" in fallback_run.stdout, output
    else:
        assert fallback_run.report["returncode"] == 0, output


@pytest.mark.parametrize("mode", MODES)
def test_the_doctor_foresees_what_grade_did(runs, mode: str):
    """``python -m autograder doctor`` in the same mode says what ``grade`` did there, and exits
    non-zero exactly where grade refused."""
    run = runs(mode)
    doctor = [sys.executable, "-m", "autograder", "doctor", "--assignment", A1, *GRADE_ARGS]
    result = subprocess.run([*PRIVATE_MOUNTS, *run.wrap, *doctor], cwd="/", capture_output=True, text=True,
                            timeout=600)
    output = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == (1 if _refused(run) else 0), output
    if _refused(run):
        assert "grade would refuse to grade" in output
    else:
        assert "grade would grade, on cpu" in output
        assert "ok canary: every reference solution earned full marks" in output
    if mode == "private-python":
        assert "chmod o+rx" in output, output


def test_the_unprivileged_grader_grades_every_row(graded_run: GradingRun):
    students = {h.student_id for h in graded_run.hostiles} | {control_id(A1)}
    assert {student for student, _ in graded_run.grades} == students
    assert all(row["status"].startswith("graded") for row in graded_run.grades.values())


# cgroups are named where the machine has them (root with a writable hierarchy).
ISOLATION_SAID = {"user-namespace": r"Isolation: namespaces \(user namespace\)",
                  "limits-only": r"Isolation: limits only, with unprivileged user, (cgroups, )?landlock files",
                  "no-user-namespaces": "no unprivileged user: the grader is not root"}


def test_it_warns_that_its_isolation_is_weaker(graded_run: GradingRun):
    assert re.search(ISOLATION_SAID[graded_run.mode], " ".join(graded_run.stdout.split()))
    assert "weaker isolation" in graded_run.stdout
    assert "SECURITY.md" in graded_run.stdout
    assert "Proved before grading: secrets unreadable, outputs unwritable" in graded_run.stdout


def test_grades_csv_says_the_isolation_was_weaker(graded_run: GradingRun):
    assert all(row["status"] != "graded" for row in graded_run.grades.values())
    assert all(row["status"] == "graded (weaker isolation)" for row in graded_run.grades.values())
    results = graded_run.results(control_id(A1), A1)
    assert re.search(ISOLATION_SAID[graded_run.mode].removeprefix("Isolation: "), results["isolation"]["text"])
    assert "secrets unreadable" in results["guarantees"]["held"]


@pytest.mark.parametrize("trick", TRICKS)
def test_the_tricks_stay_contained(graded_run: GradingRun, trick: str):
    if trick == "kills-the-grader" and graded_run.mode == "no-user-namespaces" and abi_version() < 6:
        pytest.skip("workers of the grader's own user are kept from signalling it by Landlock's scoping (ABI 6);"
                    " the summary reports that this guarantee does not hold")
    hostile = next(h for h in graded_run.hostiles if h.name == trick)
    earned = graded_run.stage_points(hostile.student_id, A1)
    control = graded_run.stage_points(control_id(A1), A1)
    for stage in hostile.targets:
        assert control.get(stage, 0) > 0
        assert earned.get(stage, 0) == 0, (trick, graded_run.messages(hostile.student_id, A1, stage))
    for stage, points in control.items():
        if stage not in hostile.targets:
            assert earned.get(stage, 0) == points, (trick, stage, graded_run.messages(hostile.student_id, A1, stage))


def test_nothing_is_left_running_and_nothing_changed(fallback_run: GradingRun):
    assert fallback_run.report["leftovers"] == []
    assert fallback_run.changes == []
    assert fallback_run.scratch_leftovers == []
    assert sorted(p.name for p in fallback_run.context.markers.iterdir()) == []
