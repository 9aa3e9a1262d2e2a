"""Run the real grading command over a class of hostile students and record what it left behind."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hostile_corpus import Context, Hostile, write_notebook

from autograder.paths import KIT_ROOT
from autograder.sandbox.layout import GRADER_BLOCKS, UID_BLOCK_VARIABLE, UIDS_PER_GRADER, WORKER_UID_BASE

RUNNER = Path(__file__).resolve().parent / "contained_grading.py"
# Shared scratch folders of the machine, where a leaking worker would most likely leave files.
SYSTEM_SCRATCH = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
CANARY_TEXT = "the grader must never touch this file\n"
# Short limits keep the suite fast; the memory limit is low enough that a bomb stops quickly
# and high enough for the solutions (GPT-2 small's attention included).
GRADE_ARGS = ["--jobs", "2", "--timeout", "3", "--memory-gib", "1.5", "--device", "cpu"]


def make_context(root: Path, world_writable: Path | None = None) -> Context:
    return Context(kit_root=KIT_ROOT, submitted=root / "submitted", out=root / "out",
                   canary=root / "canary.txt", markers=root / "markers", world_writable=world_writable)


def control_id(assignment: str) -> str:
    return f"{assignment[:2]}-solution"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _kit_files() -> list[Path]:
    """The kit's own files: tracked and not ignored (not build outputs of other runs)."""
    try:
        listed = subprocess.run(["git", "-C", str(KIT_ROOT), "ls-files", "-z", "--cached", "--others",
                                 "--exclude-standard"], capture_output=True, check=True).stdout
        return [KIT_ROOT / name for name in listed.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        return [path for path in KIT_ROOT.rglob("*") if ".git" not in path.parts and "__pycache__" not in path.parts]


def _stat_tree(root: Path) -> dict[str, tuple]:
    """(size, mtime, inode, mode) of every file and folder under ``root``, caches left out."""
    entries = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name != "__pycache__"]
        for name in [*files, *folders, "."]:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            timestamp = 0 if stat.S_ISDIR(info.st_mode) else info.st_mtime_ns  # a folder's mtime moves with caches
            entries[os.path.normpath(path)] = (info.st_size if not stat.S_ISDIR(info.st_mode) else 0,
                                               timestamp, info.st_ino, info.st_mode)
    return entries


def snapshot(class_root: Path, out: Path, world_writable: Path | None = None) -> dict[str, object]:
    """What must not change: the kit, its Python environment, and the class folder but the output."""
    state: dict[str, object] = {}
    for path in _kit_files():
        if path.is_file() and not path.is_symlink():
            state[str(path)] = _digest(path)
    for tree in (KIT_ROOT / ".venv", KIT_ROOT / ".git" / "hooks", Path(sys.base_prefix)):
        if tree.is_dir():
            state.update(_stat_tree(tree))
    for name in ("config", "HEAD"):
        if (KIT_ROOT / ".git" / name).is_file():
            state[str(KIT_ROOT / ".git" / name)] = _digest(KIT_ROOT / ".git" / name)
    for path in class_root.rglob("*"):
        if out in path.parents or path == out:
            continue
        state[str(path)] = _digest(path) if path.is_file() else "folder"
    if world_writable is not None:
        state.update({str(path): "present" for path in world_writable.rglob("*")})
    return state


def changed_paths(before: dict[str, object], after: dict[str, object]) -> list[str]:
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def worker_files_in_system_scratch(uids: range) -> list[str]:
    """Files that belong to one of ``uids`` (a grader's workers') in the machine's shared scratch
    folders (other graders on the machine use other uids)."""
    found = []
    for top in SYSTEM_SCRATCH:
        for folder, folders, files in os.walk(top):
            if folder.count(os.sep) - top.count(os.sep) >= 2:
                folders[:] = []
            for name in files + folders:
                path = os.path.join(folder, name)
                try:
                    if os.lstat(path).st_uid in uids:
                        found.append(path)
                except OSError:
                    continue
    return found


@dataclass
class GradingRun:
    """One run of ``python -m autograder grade`` over a class, and what it left behind."""

    context: Context
    hostiles: list[Hostile]
    report: dict
    stdout: str
    stderr: str
    changes: list[str] = field(default_factory=list)
    scratch_leftovers: list[str] = field(default_factory=list)
    mode: str = "root"
    wrap: list[str] = field(default_factory=list)  # the command prefix the grader ran under

    @property
    def grades(self) -> dict[tuple[str, str], dict]:
        with (self.context.out / "grades.csv").open() as handle:
            return {(row["student_id"], row["assignment_id"]): row for row in csv.DictReader(handle)}

    def results(self, student: str, assignment: str) -> dict:
        return json.loads((self.context.out / "results" / student / f"{assignment}.json").read_text())

    def stage_points(self, student: str, assignment: str) -> dict[str, float]:
        points: dict[str, float] = {}
        for test in self.results(student, assignment)["tests"]:
            points[test["stage"]] = round(points.get(test["stage"], 0.0) + test["points"], 4)
        return points

    def messages(self, student: str, assignment: str, stage: str) -> list[str]:
        return sorted({f"{t['status']}: {t['message'][:300]}" for t in self.results(student, assignment)["tests"]
                       if t["stage"] == stage and t["status"] != "passed"})


def unshare_available() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"], capture_output=True)
    return probe.returncode == 0


def grade_contained(context: Context, hostiles: list[Hostile], extra_args: list[str],
                    wrap: list[str] | None = None, students: dict[str, tuple[str, dict | str]] | None = None,
                    timeout: float = 300) -> GradingRun:
    """Write the class, grade it with the real command in a PID namespace of its own, and check."""
    context.markers.mkdir(parents=True, exist_ok=True)
    context.canary.write_text(CANARY_TEXT)
    for hostile in hostiles:
        write_notebook(context.submitted / hostile.student_id / hostile.assignment / f"{hostile.assignment}.ipynb",
                       hostile.build(context))
    for student, (assignment, notebook) in (students or {}).items():
        write_notebook(context.submitted / student / assignment / f"{assignment}.ipynb", notebook)
    class_root = context.canary.parent
    before = snapshot(class_root, context.out, context.world_writable)
    # The grader's workers get a block of uids of this run's own, so that what other graders on
    # the machine leave meanwhile is not taken for this run's leftovers.
    block = secrets.randbelow(GRADER_BLOCKS)
    uids = range(WORKER_UID_BASE + block * UIDS_PER_GRADER, WORKER_UID_BASE + (block + 1) * UIDS_PER_GRADER)
    scratch_before = set(worker_files_in_system_scratch(uids))
    report_path = class_root / "containment-report.json"
    grade = [sys.executable, "-m", "autograder", "grade", str(context.submitted), "--out", str(context.out),
             *extra_args]
    command = [sys.executable, str(RUNNER), str(report_path), "--", *(wrap or []), *grade]
    if unshare_available():
        # --kill-child: should the test time out and kill unshare, the namespace dies with it.
        command = ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc", "--propagation", "private", *command]
    subprocess.run(command, cwd="/", timeout=timeout, check=True, env={**os.environ, UID_BLOCK_VARIABLE: str(block)})
    # Code persisted into the Python installation would run at the next interpreter start.
    subprocess.run([sys.executable, "-c", "pass"], cwd="/", check=True)
    after = snapshot(class_root, context.out, context.world_writable)
    excluded = {str(report_path), f"{report_path}.stdout", f"{report_path}.stderr"}
    return GradingRun(context, hostiles, json.loads(report_path.read_text()),
                      Path(f"{report_path}.stdout").read_text(), Path(f"{report_path}.stderr").read_text(),
                      [path for path in changed_paths(before, after) if path not in excluded],
                      sorted(set(worker_files_in_system_scratch(uids)) - scratch_before))
