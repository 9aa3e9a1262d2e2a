"""The fallbacks: the grader still grades, contains what it can, and says its isolation is weaker.

- ``user-namespace``: the grader run by an unprivileged user (as root this test drops to
  ``nobody``, with the Python installation made reachable if it sits in root's home; run by an
  unprivileged user it grades as that user). Workers get a user namespace instead of a user of
  their own: every trick below must still be contained.
- ``limits-only``: root without CAP_SYS_ADMIN (a container that forbids namespaces). Workers run
  as a user of their own, with limits and no namespaces: they can read what any user may read
  (the kit's world-readable files included) and write where anyone may, so only the tricks that
  aim at processes, the kit's files and the grader itself are expected to stay contained.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from containment import GRADE_ARGS, GradingRun, control_id, grade_contained, make_context
from hostile_corpus import A1, hostile_submissions

from autograder.course.paths import KIT_ROOT
from autograder.notebooks.variants import load_solution

pytestmark = pytest.mark.slow

NOBODY = 65534
CONTAINED = {
    "user-namespace": {"reads-solutions", "reads-hidden-tests-and-outputs", "writes-outside-scratch",
                       "escapes-through-a-user-namespace", "outlives-its-worker", "fork-bomb", "late-writer",
                       "persists-into-python", "kills-the-grader", "forges-result-files"},
    "limits-only": {"outlives-its-worker", "fork-bomb", "late-writer", "persists-into-python", "kills-the-grader",
                    "forges-result-files"},
}
TRICKS = sorted(set().union(*CONTAINED.values()))


def _closed_ancestor(path: Path) -> Path | None:
    """The outermost folder above ``path`` that other users cannot pass through (root's home)."""
    for ancestor in reversed(path.parents):
        if not os.stat(ancestor).st_mode & 0o001:
            return ancestor
    return None


def _as_nobody() -> list[str]:
    """A command prefix that runs the rest as nobody, with the Python installation reachable.

    Folders closed to others (``/root`` holding pyenv, say) are covered, in this private mount
    namespace only, by an empty tmpfs with the needed folders bound back into it.
    """
    needed = sorted({Path(os.path.realpath(p)) for p in (sys.base_prefix, sys.prefix)} | {KIT_ROOT})
    moves = [(path, closed, f"/tmp/.nobody-bind-{os.getpid()}-{index}")
             for index, path in enumerate(needed) if (closed := _closed_ancestor(path)) is not None]
    quote = lambda path: shlex.quote(str(path))  # noqa: E731
    script = ["set -e"]
    script += [f"mkdir -p {staging} && mount --bind {quote(path)} {staging}" for path, _, staging in moves]
    script += [f"mount -t tmpfs -o mode=0755 tmpfs {quote(closed)}" for closed in sorted({c for _, c, _ in moves})]
    script += [f"mkdir -p {quote(path)} && mount --move {staging} {quote(path)}" for path, _, staging in moves]
    script.append(f'exec setpriv --reuid {NOBODY} --regid {NOBODY} --clear-groups --inh-caps=-all'
                  ' --bounding-set=-all env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C.UTF-8 "$@"')
    return ["sh", "-c", "\n".join(script), "sh"]


def _wrap_for(mode: str) -> list[str]:
    if os.geteuid() != 0:
        if mode == "limits-only":
            pytest.skip("forcing the limits-only fallback needs root (to drop CAP_SYS_ADMIN)")
        return []
    if shutil.which("setpriv") is None or shutil.which("unshare") is None:
        pytest.skip("setpriv and unshare are needed to run the grader in its fallbacks")
    if mode == "limits-only":
        return ["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"]
    kit_files = (KIT_ROOT / "autograder" / "grading" / "engine.py", KIT_ROOT / "solutions")
    if not all(os.stat(p).st_mode & 0o004 for p in kit_files):
        pytest.skip("the kit is not readable by other users here, so nobody cannot run the grader")
    return _as_nobody()


@pytest.fixture(scope="module", params=sorted(CONTAINED))
def fallback_run(request) -> GradingRun:
    wrap = _wrap_for(request.param)
    root = Path(tempfile.mkdtemp(prefix="attention-fallback-"))
    try:
        root.chmod(0o755)
        context = make_context(root)
        context.out.mkdir(mode=0o777)
        context.out.chmod(0o777)
        hostiles = [h for h in hostile_submissions() if h.name in CONTAINED[request.param] and h.assignment == A1]
        run = grade_contained(context, hostiles, GRADE_ARGS, wrap=wrap,
                              students={control_id(A1): (A1, load_solution(A1))})
        run.mode = request.param
        yield run
    finally:
        shutil.rmtree(root, ignore_errors=True)
        # Limits only: what workers wrote in the machine's scratch folders outlives them.
        for leftover in sorted(run.scratch_leftovers if "run" in locals() else [], reverse=True):
            with contextlib.suppress(OSError):
                shutil.rmtree(leftover) if Path(leftover).is_dir() else os.unlink(leftover)


def test_the_unprivileged_grader_grades_every_row(fallback_run: GradingRun):
    assert fallback_run.report["returncode"] == 0, fallback_run.stdout[-3000:] + fallback_run.stderr[-3000:]
    students = {h.student_id for h in fallback_run.hostiles} | {control_id(A1)}
    assert {student for student, _ in fallback_run.grades} == students
    assert all(row["status"].startswith("graded") for row in fallback_run.grades.values())


def test_it_warns_that_its_isolation_is_weaker(fallback_run: GradingRun):
    assert "weaker isolation" in fallback_run.stdout
    assert "SECURITY.md" in fallback_run.stdout


def test_grades_csv_says_the_isolation_was_weaker(fallback_run: GradingRun):
    assert all(row["status"] != "graded" for row in fallback_run.grades.values())


@pytest.mark.parametrize("trick", TRICKS)
def test_the_tricks_stay_contained(fallback_run: GradingRun, trick: str):
    if trick not in CONTAINED[fallback_run.mode]:
        pytest.skip(f"not defended in the {fallback_run.mode} fallback (see SECURITY.md)")
    hostile = next(h for h in fallback_run.hostiles if h.name == trick)
    earned = fallback_run.stage_points(hostile.student_id, A1)
    control = fallback_run.stage_points(control_id(A1), A1)
    for stage in hostile.targets:
        assert control.get(stage, 0) > 0
        assert earned.get(stage, 0) == 0, (trick, fallback_run.messages(hostile.student_id, A1, stage))
    for stage, points in control.items():
        if stage not in hostile.targets:
            assert earned.get(stage, 0) == points, (trick, stage, fallback_run.messages(hostile.student_id, A1, stage))


def test_nothing_is_left_running_and_nothing_changed(fallback_run: GradingRun):
    assert fallback_run.report["leftovers"] == []
    assert fallback_run.changes == []
    if fallback_run.mode != "limits-only":  # there the workers' scratch is the machine's /tmp
        assert fallback_run.scratch_leftovers == []
    assert sorted(p.name for p in fallback_run.context.markers.iterdir()) == []
