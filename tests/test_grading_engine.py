"""The grading command end to end: every submission gets its row, whatever it holds.

These tests run the real command in a subprocess, with real sandboxed workers, real
timeouts and real malformed files.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest

from autograder.grading.discovery import discover
from autograder.notebooks.variants import (
    load_solution,
    load_student,
    stage_points,
    with_answer,
    with_cell,
    with_replacement,
    write_submission,
)
from autograder.records.files import read_outputs
from autograder.sandbox.layout import worker_uids_of
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.worker.names import SERVER_NAME, SHARD_NAME
from autograder.worker.text import clean_text

pytestmark = pytest.mark.slow

ASSIGNMENT = "01_attention_scores"
STAGES = STAGES_BY_ASSIGNMENT[ASSIGNMENT]


def grade(submitted: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    """Run ``python -m autograder grade`` from an unrelated working directory; the result also
    knows the grader's pid (``grader_pid``), which names its workers' uids."""
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), *extra]
    process = subprocess.Popen(command, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = process.communicate(timeout=600)
    result = subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    result.grader_pid = process.pid
    return result


def read_grades(out: Path) -> dict[str, dict]:
    with (out / "grades.csv").open() as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


def _endless_stage(stage: str) -> str:
    return f"import torch\n\ndef {stage}(*args, **kwargs):\n    while True:\n        pass\n"


def build_class(root: Path) -> None:
    solution = load_solution(ASSIGNMENT)
    write_submission(root, "full", ASSIGNMENT, solution)
    write_submission(root, "stubs", ASSIGNMENT, load_student(ASSIGNMENT))
    write_submission(root, "syntax_error", ASSIGNMENT,
                     with_replacement(solution, "softmax_naive", "def softmax_naive", "def softmax_naive("))
    write_submission(root, "failing_import", ASSIGNMENT, with_cell(solution, "import module_that_does_not_exist"))
    write_submission(root, "magics", ASSIGNMENT, with_cell(with_cell(
        with_cell(solution, "%matplotlib inline\n!ls /\nx = 1"), "%%bash\necho hi"), "softmax_naive?"))
    write_submission(root, "endless_demo", ASSIGNMENT, with_cell(solution, "while True:\n    pass"))
    huge_output = [{"name": "stdout", "output_type": "stream", "text": "x" * (20 * 2**20)}]
    write_submission(root, "huge_outputs", ASSIGNMENT, with_cell(solution, "print('x')", huge_output))
    write_submission(root, "endless_stage", ASSIGNMENT,
                     with_answer(solution, "softmax_naive", _endless_stage("softmax_naive")))
    write_submission(root, "prints_a_lot", ASSIGNMENT, with_replacement(
        solution, "softmax_naive", "exp_x = torch.exp(x)", "print('y' * 70 * 2**20)\n    exp_x = torch.exp(x)"))
    write_submission(root, "exits", ASSIGNMENT, with_answer(
        solution, "attention_scores", "import os\n\ndef attention_scores(inputs):\n    os._exit(3)\n"))
    write_submission(root, "empty", ASSIGNMENT, b"")
    write_submission(root, "empty_notebook", ASSIGNMENT, {**solution, "cells": [
        {"cell_type": "markdown", "id": "m", "metadata": {}, "source": "My notes"},
        {"cell_type": "code", "execution_count": None, "id": "c", "metadata": {}, "outputs": [], "source": "  \n"}]})
    write_submission(root, "another_assignment", ASSIGNMENT, load_solution("02_self_attention"))
    write_submission(root, "not_json", ASSIGNMENT, "{ this is not json")
    write_submission(root, "not_a_notebook", ASSIGNMENT, json.dumps({"hello": "world"}))
    misnamed = root / "misnamed" / ASSIGNMENT / "my_work.ipynb"
    misnamed.parent.mkdir(parents=True)
    misnamed.write_text(json.dumps(solution))
    (root / "a_directory" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").mkdir(parents=True)
    outside = root.parent / "outside.ipynb"
    outside.write_text(json.dumps(solution))
    (root / "symlink" / ASSIGNMENT).mkdir(parents=True)
    (root / "symlink" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").symlink_to(outside)
    (root / "nothing_submitted").mkdir()


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory) -> tuple[Path, Path, subprocess.CompletedProcess]:
    root = tmp_path_factory.mktemp("class")
    submitted = root / "submitted"
    build_class(submitted)
    out = root / "out"
    result = grade(submitted, out, "--jobs", "2", "--timeout", "3")
    return submitted, out, result


def test_command_exits_zero_and_writes_every_row(graded_class):
    submitted, out, result = graded_class
    assert result.returncode == 0, result.stdout + result.stderr
    grades = read_grades(out)
    students = {p.name for p in submitted.iterdir()}
    assert set(grades) == students
    for student in students:
        assert (out / "results" / student / f"{ASSIGNMENT}.json").is_file()
        assert (out / "feedback" / student / f"{ASSIGNMENT}.html").is_file()
    # The summary counts notebooks by status (they add up to the notebooks, never to more than the
    # students have), and names the statuses, on whole lines when piped.
    statuses = Counter(row["status"].split(":")[0].split(" (")[0] for row in grades.values())
    title = next(line for line in result.stdout.splitlines() if " notebooks: " in line)
    assert title.strip().startswith(f"{len(students)} students, {len(grades)} notebooks: ")
    assert all(f"{count} {status}" in title for status, count in statuses.items())
    assert str(out / "grades.csv") in result.stdout
    # Outputs follow the umask (the test process's); none is private by accident.
    mask = os.umask(0o022)
    os.umask(mask)
    for path in (out / "grades.csv", next((out / "feedback").rglob("*.html"))):
        assert path.stat().st_mode & 0o777 == 0o666 & ~mask, path


def test_private_outputs_are_their_owners_only(tmp_path):
    submitted = tmp_path / "in"
    write_submission(submitted, "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    out = tmp_path / "out"
    result = grade(submitted, out, "--private-outputs")
    assert result.returncode == 0, result.stdout + result.stderr
    assert out.stat().st_mode & 0o777 == 0o700
    assert {path.stat().st_mode & 0o777 for path in out.rglob("*") if path.is_file()} == {0o600}


def test_an_nbgrader_course_folder_is_graded_from_its_submitted_folder(tmp_path):
    course = tmp_path / "course"
    notebook = course / "submitted" / "alice" / "01_attention_scores" / "01_attention_scores.ipynb"
    notebook.parent.mkdir(parents=True)
    (course / "source").mkdir()
    notebook.write_text("{}")
    entries = discover(course)
    assert [(entry.student_id, entry.assignment_id, entry.path) for entry in entries] == [
        ("alice", "01_attention_scores", notebook)]


def test_a_folder_with_nothing_to_grade_exits_2_and_says_what_it_expected(tmp_path):
    (tmp_path / "empty").mkdir()
    result = grade(tmp_path / "empty", tmp_path / "out")
    assert result.returncode == 2
    assert "nothing to grade in" in result.stdout
    assert "<student_id>/<assignment_id>/<assignment_id>.ipynb" in result.stdout
    assert "zip_collect" not in result.stdout
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_an_lms_download_gets_a_zip_collect_hint(tmp_path):
    download = tmp_path / "download"
    download.mkdir()
    for name in ("ada_1234_01_attention_scores.ipynb", "bob_5678_01_attention_scores.ipynb"):
        (download / name).write_text(json.dumps(load_solution(ASSIGNMENT)))
    result = grade(download, tmp_path / "out")
    assert result.returncode == 2
    assert "2 notebooks or zip files side by side" in result.stdout
    assert "nbgrader zip_collect <assignment_id>" in result.stdout


@pytest.mark.parametrize(("student", "status_start"), [
    ("empty", "unreadable: 01_attention_scores.ipynb is an empty file (0 bytes), not a notebook: save"),
    ("empty_notebook", "missing: 01_attention_scores.ipynb is an empty notebook: none of its cells holds code"),
    ("another_assignment", "misnamed: 01_attention_scores.ipynb looks like 02_self_attention, not"
                           " 01_attention_scores"),
    ("not_json", "unreadable: 01_attention_scores.ipynb is damaged: it cannot be read as a notebook; download"
                 " your notebook again"),
    ("not_a_notebook", "unreadable: 01_attention_scores.ipynb is not a Jupyter notebook (it has no list of cells)"),
    ("misnamed", "misnamed: found my_work.ipynb"),
    ("a_directory", "unreadable: 01_attention_scores.ipynb is a folder"),
    ("symlink", "unreadable: 01_attention_scores.ipynb is a symbolic link"),
    ("nothing_submitted", "missing"),
])
def test_unreadable_submissions_get_a_status_and_zero(graded_class, student, status_start):
    _, out, _ = graded_class
    row = read_grades(out)[student]
    assert row["status"].startswith(status_start)
    assert float(row["score"]) == 0
    assert not re.search(r"Expecting|column|char \d", row["status"])  # never the JSON parser's words


@pytest.mark.parametrize("student", ["full", "failing_import", "magics", "endless_demo", "huge_outputs",
                                     "prints_a_lot"])
def test_demo_cells_and_notebook_noise_cost_nothing(graded_class, student):
    _, out, _ = graded_class
    row = read_grades(out)[student]
    assert row["status"] == "graded"
    assert float(row["score"]) == float(row["max_score"]) > 0


def test_untouched_stubs_earn_zero_with_a_teaching_message(graded_class):
    _, out, _ = graded_class
    assert float(read_grades(out)["stubs"]["score"]) == 0
    document = json.loads((out / "results" / "stubs" / f"{ASSIGNMENT}.json").read_text())
    assert {test["status"] for test in document["tests"]} == {"error"}
    assert all("not implemented yet" in test["message"] for test in document["tests"])


@pytest.mark.parametrize(("student", "stage", "status"), [
    ("syntax_error", "softmax_naive", "error"),
    ("endless_stage", "softmax_naive", "timeout"),
    ("exits", "attention_scores", "error"),
])
def test_a_broken_stage_costs_only_that_stage(graded_class, student, stage, status):
    _, out, _ = graded_class
    full = stage_points(out / "results" / "full" / f"{ASSIGNMENT}.json")
    points = stage_points(out / "results" / student / f"{ASSIGNMENT}.json")
    assert points[stage] == 0
    assert {s: p for s, p in points.items() if s != stage} == {s: p for s, p in full.items() if s != stage}
    document = json.loads((out / "results" / student / f"{ASSIGNMENT}.json").read_text())
    statuses = {test["status"] for test in document["tests"] if test["stage"] == stage}
    assert statuses == {status}


def test_syntax_error_is_explained(graded_class):
    _, out, _ = graded_class
    document = json.loads((out / "results" / "syntax_error" / f"{ASSIGNMENT}.json").read_text())
    assert any("syntax error" in problem for problem in document["load_problems"])
    html = (out / "feedback" / "syntax_error" / f"{ASSIGNMENT}.html").read_text()
    assert "syntax error" in html


def test_no_worker_process_survives_grading(graded_class):
    """Only this run's workers count: their uids come from its grader's pid, so another grading
    run on the machine at the same time cannot make this test fail."""
    _, _, result = graded_class
    ours = set(worker_uids_of(result.grader_pid))
    lingering = [process.pid for process in psutil.process_iter(["uids"])
                 if process.info["uids"] and set(process.info["uids"]) & ours]
    assert lingering == []


def test_regrading_gives_identical_files_whatever_the_jobs(graded_class, tmp_path):
    submitted, out, _ = graded_class
    again = tmp_path / "again"
    result = grade(submitted, again, "--jobs", "1", "--timeout", "3")
    assert result.returncode == 0, result.stderr
    first = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    second = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert first == second
    for relative in first:
        assert (out / relative).read_bytes() == (again / relative).read_bytes(), relative


def test_a_single_notebook_path_is_graded(tmp_path):
    notebook = write_submission(tmp_path / "in", "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    result = grade(notebook, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    row = read_grades(tmp_path / "out")["ada"]
    assert row["status"] == "graded"
    assert float(row["score"]) == float(row["max_score"])


def test_bad_arguments_exit_non_zero_with_a_message(tmp_path):
    result = grade(tmp_path / "does-not-exist", tmp_path / "out")
    assert result.returncode == 2
    assert "neither a folder of submissions nor a notebook" in result.stdout


def test_a_kit_reached_through_a_symlink_grades_the_same(tmp_path):
    from autograder.paths import KIT_ROOT

    link = tmp_path / "kit-link"
    link.symlink_to(KIT_ROOT)
    python = link / Path(sys.executable).relative_to(KIT_ROOT) if Path(sys.executable).is_relative_to(KIT_ROOT) \
        else None
    if python is None:
        pytest.skip("the kit's interpreter lives outside the kit folder")
    notebook = write_submission(tmp_path / "in", "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    command = [str(python), "-m", "autograder", "grade", str(notebook), "--out", str(tmp_path / "out")]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    row = read_grades(tmp_path / "out")["ada"]
    assert float(row["score"]) == float(row["max_score"])


def test_a_broken_hidden_test_stops_grading_with_its_error(tmp_path):
    """pytest's terminal report is off while grading: the grader itself must say what broke.

    A copy of the kit with one hidden test broken grades it: the grading command and its shards
    use the kit they were started from.
    """
    from autograder.paths import KIT_ROOT

    kit = tmp_path / "kit"
    for part in ("autograder", "solutions", "pyproject.toml"):
        source, target = KIT_ROOT / part, kit / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, target)
    (kit / "autograder" / "hidden_tests" / f"test_{ASSIGNMENT}.py").write_text(
        "ASSIGNMENT = '01_attention_scores'\nimport module_the_hidden_tests_lack\n")
    notebook = write_submission(tmp_path / "in", "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    command = [sys.executable, "-m", "autograder", "grade", str(notebook), "--out", str(tmp_path / "out")]
    result = subprocess.run(command, cwd=kit, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "module_the_hidden_tests_lack" in result.stdout
    assert not (tmp_path / "out" / "grades.csv").exists()


def _shards_and_forkserver(grader: psutil.Process) -> tuple[list[psutil.Process], list[psutil.Process]]:
    """The grader's shards and its fork server, by the names they give themselves. A descendant may
    exit between the listing and the naming (a test's own short-lived process): it is no part of
    either, so it is passed over."""
    names = {}
    for descendant in grader.children(recursive=True):
        try:
            names[descendant] = descendant.name()
        except psutil.NoSuchProcess:
            continue
    return ([p for p, name in names.items() if name == SHARD_NAME],
            [p for p, name in names.items() if name == SERVER_NAME])


def _grading_slow_students(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """A grading command at work on four students whose code never ends (with --jobs 2 and a
    timeout of 15 s: the shards are still at work a while), and the folder of its outputs."""
    submitted, out = tmp_path / "submitted", tmp_path / "out"
    for index in range(4):
        write_submission(submitted, f"slow{index}", ASSIGNMENT,
                         with_answer(load_solution(ASSIGNMENT), "softmax_naive", _endless_stage("softmax_naive")))
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), "--jobs", "2",
               "--timeout", "15"]
    return subprocess.Popen(command, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), out


def _grading(grader: psutil.Process) -> tuple[list[psutil.Process], list[psutil.Process]]:
    """The grader's two shards and its fork server, once the shards have started grading."""
    deadline = time.monotonic() + 120
    shards, forkservers = _shards_and_forkserver(grader)
    while len(shards) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        shards, forkservers = _shards_and_forkserver(grader)
    assert len(shards) == 2, "the shards never started"
    time.sleep(2)  # well into grading
    return shards, forkservers


def _left_running(grader_pid: int, descendants: list[psutil.Process]) -> list[str]:
    """What still runs, a few seconds on, of a grading command's ``descendants`` and of the uids
    of its workers (a root grader's): what the kernel kills with its parent goes at once."""
    ours = set(worker_uids_of(grader_pid))

    def running(process: psutil.Process) -> str | None:
        try:  # is_running() tells a reused pid from the process it was
            alive = process.is_running() and process.status() != psutil.STATUS_ZOMBIE
            return f"{process.pid} {process.name()}" if alive else None
        except psutil.NoSuchProcess:
            return None

    def left() -> list[str]:
        by_uid = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and set(p.info["uids"]) & ours]
        return sorted({running(p) for p in [*descendants, *by_uid]} - {None})

    deadline = time.monotonic() + 5
    while left() and time.monotonic() < deadline:
        time.sleep(0.1)
    return left()


@pytest.mark.parametrize("victim", ["shard", "fork server"])
def test_a_killed_shard_or_fork_server_fails_the_run_within_a_minute(tmp_path, victim):
    """Killed by the out-of-memory killer or a signal, a part of the grader cannot report: the run
    must notice, exit 1 and write no grades, instead of waiting for it forever."""
    process, out = _grading_slow_students(tmp_path)
    try:
        grader = psutil.Process(process.pid)
        shards, forkservers = _grading(grader)
        descendants = grader.children(recursive=True)
        (shards[0] if victim == "shard" else forkservers[0]).kill()
        killed_at = time.monotonic()
        output, _ = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert time.monotonic() - killed_at < 60
    assert process.returncode == 1, output
    assert "no grades were written" in output
    assert not (out / "grades.csv").exists()
    assert _left_running(process.pid, descendants) == []


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_grading_command_killed_mid_run_leaves_nothing_at_work(tmp_path, sent):
    """A grading command stopped by a signal it does not handle (``timeout``'s SIGTERM, the
    out-of-memory killer's SIGKILL) takes its fork server, shards and workers with it: none is left
    grading students nobody will see the grades of (a run killed so once left its shards at work
    for 45 minutes)."""
    process, out = _grading_slow_students(tmp_path)
    try:
        grader = psutil.Process(process.pid)
        _grading(grader)
        descendants = grader.children(recursive=True)
        process.send_signal(sent)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode in (-sent, 128 + sent)  # killed, or stopped by its own handler
    assert _left_running(process.pid, descendants) == []
    assert not (out / "grades.csv").exists()


def test_distinct_folders_always_get_distinct_ids_that_read_as_what_they_are(tmp_path):
    """Formula-like names with and without a quote, a name that is not UTF-8 and one whose text is
    its escape, C1 and right-to-left controls: five folders, five ids, each read back as itself."""
    names = ["=x", "'=x", os.fsdecode(b"caf\xe9"), "caf\\xe9", "ada\u202egnp.exe", "bo\x85b"]
    for name in names:
        write_submission(tmp_path / "in", name, ASSIGNMENT, "not a notebook")
    result = grade(tmp_path / "in", tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    ids = [row.student_id for row in read_outputs(tmp_path / "out")]
    assert sorted(ids) == sorted(["=x", "'=x", "caf\\xe9", "caf\\\\xe9", "ada\\u202egnp.exe", "bo\\x85b"])
    assert all(character.isprintable() for student in ids for character in student)
    assert {path.name for path in (tmp_path / "out" / "results").iterdir()} == set(ids)


def test_control_and_bidirectional_characters_never_reach_a_message():
    text = "shape (2, 3)\x85\x9b[31m\u202e)3 ,2( \u2066x\u2069"
    cleaned = clean_text(text)
    bidirectional = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    assert not any(0x80 <= ord(c) <= 0x9F or c in bidirectional for c in cleaned)
    assert cleaned.count("\ufffd") == 5
