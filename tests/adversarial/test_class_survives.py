"""One student can never stop, stall or starve the class (issue 14).

A class mixes correct notebooks with attacks on the trusted side (see
``hostile_corpus.trusted_side_attacks``) and with files that attack it before any worker runs: a
folder name that is not UTF-8, a folder named like a spreadsheet formula, JSON the parser
refuses, 3,000 stray notebooks. It is graded by the real command, as root with full isolation,
and then once more without the hostile students, to compare the time.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from container import container_skip_reason, run_as_container
from containment import GRADE_ARGS, GradingRun, control_id, grade_contained, make_context
from hostile_corpus import A1, A2, nuisance, trusted_side_attacks, wrapped, write_notebook

from autograder.grading.plugin import NOTEBOOK_BUDGET_TIMEOUTS
from autograder.notebooks.variants import load_solution
from autograder.term.answers import graded_code

pytestmark = pytest.mark.slow

# No output file may grow past this, whatever the students send (the bound).
MAX_OUTPUT_BYTES = 2 * 2**20
NOT_UTF8 = os.fsdecode(b"01-caf\xe9-\xff")  # a folder name that is not UTF-8
FORMULA = "=1+1+cmd|calc!A0"
STRAYS = 3_000
TIMEOUT_S = float(GRADE_ARGS[GRADE_ARGS.index("--timeout") + 1])
JOBS = int(GRADE_ARGS[GRADE_ARGS.index("--jobs") + 1])


def _controls() -> dict[str, tuple[str, dict | str]]:
    return {control_id(A1): (A1, load_solution(A1)), control_id(A2): (A2, load_solution(A2))}


def _file_attacks(submitted: Path) -> dict[str, tuple[str, dict | str]]:
    """Students whose files, not code, attack the grader; the strays are written here directly."""
    digits = "1" * 5_000  # more digits than Python's int() accepts from text
    strays = submitted / "01-stray-notebooks" / A1
    strays.mkdir(parents=True)
    for index in range(STRAYS):
        (strays / f"stray-{index:04d}-{'x' * 100}.ipynb").write_text("{}")
    return {NOT_UTF8: (A1, load_solution(A1)), FORMULA: (A1, load_solution(A1)),
            "01-huge-integer": (A1, '{"cells": [], "metadata": {"n": ' + digits + "}, \"nbformat\": 4}")}


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory) -> GradingRun:
    if os.geteuid() != 0:
        pytest.skip("the trusted side is attacked as CI runs it: a root grader with full isolation")
    context = make_context(tmp_path_factory.mktemp("mixed"))
    students = {**_controls(), **_file_attacks(context.submitted)}
    return grade_contained(context, trusted_side_attacks(), GRADE_ARGS, students=students)


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory, mixed_run) -> GradingRun:
    return grade_contained(make_context(tmp_path_factory.mktemp("clean")), [], GRADE_ARGS, students=_controls())


def _rows(run: GradingRun) -> dict[tuple[str, str], dict]:
    with (run.context.out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        return {(row["student_id"], row["assignment_id"]): row for row in csv.DictReader(handle)}


def test_the_class_is_graded_and_every_row_written(mixed_run: GradingRun):
    assert mixed_run.report["returncode"] == 0, mixed_run.stdout[-3000:] + mixed_run.stderr[-3000:]
    rows = _rows(mixed_run)
    students = {path.name for path in mixed_run.context.submitted.iterdir()}
    assert len(students) == len(trusted_side_attacks()) + len(_controls()) + 4
    assert len(rows) == len(students) * 2  # every student, both assignments of the class
    assert rows[(control_id(A1), A1)]["score"] == rows[(control_id(A1), A1)]["max_score"]
    assert rows[(control_id(A2), A2)]["score"] == rows[(control_id(A2), A2)]["max_score"]


def test_a_folder_name_that_is_not_utf8_is_graded_under_a_printable_id(mixed_run: GradingRun):
    row = _rows(mixed_run)[("01-caf\\xe9-\\xff", A1)]
    assert row["status"] == "graded"
    assert row["score"] == row["max_score"]
    assert (mixed_run.context.out / "results" / "01-caf\\xe9-\\xff" / f"{A1}.json").is_file()


def test_a_formula_in_a_folder_name_is_defused_in_grades_csv(mixed_run: GradingRun):
    lines = (mixed_run.context.out / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert not [line for line in lines if line.startswith(("=", "+", "-", "@"))]
    assert any(line.startswith(f"'{FORMULA},") for line in lines)
    # The commands that read grades.csv back see the student's own name.
    from autograder.records.files import read_outputs

    assert FORMULA in {row.student_id for row in read_outputs(mixed_run.context.out)}


def test_json_the_parser_refuses_costs_only_its_row(mixed_run: GradingRun):
    status = _rows(mixed_run)[("01-huge-integer", A1)]["status"]
    assert status.startswith("unreadable: ")
    assert "is damaged: it cannot be read as a notebook" in status  # what to do, never the parser's words


def test_thousands_of_stray_notebooks_make_one_short_cell(mixed_run: GradingRun):
    status = _rows(mixed_run)[("01-stray-notebooks", A1)]["status"]
    assert status.startswith("misnamed: ")
    assert f"and {STRAYS - 5} more" in status
    assert len(status) < 2_000


def test_outputs_stay_within_their_caps(mixed_run: GradingRun):
    out = mixed_run.context.out
    sizes = {str(path): path.stat().st_size for path in out.rglob("*") if path.is_file()}
    assert {path: size for path, size in sizes.items() if size > MAX_OUTPUT_BYTES} == {}
    for path in out.glob("results/*/*.json"):
        json.loads(path.read_text(encoding="utf-8"))  # every file encodes and parses


def test_nothing_secret_reaches_any_output(mixed_run: GradingRun):
    from hostile_corpus import SECRET_TEXT

    out, submitted = mixed_run.context.out, mixed_run.context.submitted
    for path in out.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            assert SECRET_TEXT not in text, path
            notebook = submitted / path.parent.name / path.stem / f"{path.stem}.ipynb"
            if path.relative_to(out).parts[0] == "answers" and notebook.is_file():
                # the code a student wrote (their attack on the next student included), as graded
                assert text == graded_code(notebook, path.stem), path
                continue
            assert "a secret from an earlier student" not in text, path


def test_the_commands_that_read_the_outputs_still_work(mixed_run: GradingRun):
    report = subprocess.run([sys.executable, "-m", "autograder", "report", str(mixed_run.context.out)],
                            capture_output=True, text=True, timeout=120)
    assert report.returncode == 0, report.stdout + report.stderr
    assert (mixed_run.context.out / "report.html").stat().st_size < MAX_OUTPUT_BYTES


def test_the_class_takes_as_long_as_without_them_plus_their_own_limits(mixed_run: GradingRun, clean_run: GradingRun):
    """Each hostile notebook may spend at most its own budget of worker time; the trusted side
    adds next to nothing (no decoding, rendering or writing cost that grows with what they send)."""
    budget_per_notebook = NOTEBOOK_BUDGET_TIMEOUTS * TIMEOUT_S
    allowance = len(trusted_side_attacks()) * budget_per_notebook / JOBS + 20  # 20 s: the file attacks, noise
    extra = mixed_run.report["elapsed_s"] - clean_run.report["elapsed_s"]
    print(f"hostile class {mixed_run.report['elapsed_s']:.1f} s, clean class {clean_run.report['elapsed_s']:.1f} s")
    assert extra <= allowance, f"{extra:.1f} s more than the class without them (allowed {allowance:.0f} s)"


def test_a_regrade_whose_row_cannot_be_finished_says_so_and_keeps_no_stale_grades(tmp_path):
    """A row the grader cannot finish (here: its feedback page fails to render, as a bug of the
    grader's would make it) is that row's error; every other row is written, grades.csv is new,
    and the command exits 1 (it did not do its whole job)."""
    submitted, out = tmp_path / "submitted", tmp_path / "out"
    write_notebook(submitted / "alice" / A1 / f"{A1}.ipynb", load_solution(A1))
    write_notebook(submitted / "bob" / A1 / f"{A1}.ipynb", load_solution(A1))
    arguments = ["grade", str(submitted), "--out", str(out), *GRADE_ARGS]
    subprocess.run([sys.executable, "-m", "autograder", *arguments], check=True, capture_output=True, timeout=300)
    before = (out / "grades.csv").read_text()
    breaking_bobs_page = (
        "import sys\nimport autograder.grading.outputs as outputs\nrender = outputs.feedback_html\n"
        "def feedback_html(row):\n"
        "    if row.student_id == 'bob' and row.graded:\n        raise RecursionError('deep inside the page')\n"
        "    return render(row)\n"
        f"outputs.feedback_html = feedback_html\nfrom autograder.cli import main\nsys.exit(main({arguments!r}))")
    regrade = subprocess.run([sys.executable, "-c", breaking_bobs_page], capture_output=True, text=True, timeout=300)
    assert regrade.returncode == 1, regrade.stdout + regrade.stderr
    assert "could not finish 1 rows" in " ".join(regrade.stdout.split())
    after = {row["student_id"]: row for row in csv.DictReader((out / "grades.csv").open())}
    assert after["alice"]["status"] == "graded"
    assert after["alice"]["score"] == after["alice"]["max_score"]
    assert after["bob"]["status"] == ("error: the grader could not write its results and feedback page"
                                      " (RecursionError: deep inside the page)")
    assert after["bob"]["score"] == "0"
    assert (out / "grades.csv").read_text() != before
    page = (out / "feedback" / "bob" / f"{A1}.html").read_text()  # bob reads why, and no graded answer is kept
    assert "RecursionError" in page
    assert not (out / "answers" / "bob").exists()


HOARDER = nuisance(A1, "softmax_stable", '''
import os
import time


def _hoard(gib):
    """memfd pages in files of 32 MiB (under the file-size limit), held open."""
    return [os.posix_fallocate(fd, 0, 32 << 20) or fd for fd in (os.memfd_create("hoard") for _ in range(gib * 32))]


def _trick():
    """10 GiB that no address-space limit counts, more than the container holds: 2 GiB in each
    of five processes (each under the open-file limit)."""
    for _ in range(5):
        if os.fork() == 0:
            _hoard(2)
            time.sleep(60)
    time.sleep(15)
''')


@pytest.mark.container
def test_a_hoarder_in_an_8_gib_container_loses_only_its_own_tests(tmp_path):
    """Without a cgroup per worker, the container's OOM killer would pick any process of the
    class (the grader's included), and nobody would get a grade."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    context = make_context(tmp_path)
    write_notebook(context.submitted / "hoarder" / A1 / f"{A1}.ipynb", HOARDER(context))
    write_notebook(context.submitted / "control" / A1 / f"{A1}.ipynb", load_solution(A1))
    run = run_as_container([sys.executable, "-m", "autograder", "grade", str(context.submitted), "--out",
                            str(context.out), "--jobs", "1", "--timeout", "20", "--memory-gib", "1", "--device", "cpu"],
                           memory_mb=8192, cpu=2, timeout=600)
    assert run.result.returncode == 0, run.result.stdout[-3000:] + run.result.stderr[-3000:]
    assert re.search(r"Isolation: [^(]*cgroups", " ".join(run.result.stdout.split())), run.result.stdout  # applied
    with (context.out / "grades.csv").open() as handle:
        rows = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert rows["control"]["score"] == rows["control"]["max_score"]
    results = json.loads((context.out / "results" / "hoarder" / f"{A1}.json").read_text())
    lost = {test["stage"] for test in results["tests"] if test["status"] != "passed"}
    assert lost == {"softmax_stable"}
    assert "stopped while answering" in json.dumps(results)  # killed for its memory, not merely slow
    assert run.peak_mb < 8192


STREAMER = '''
import json
import struct

import autograder.worker.protocol as protocol


def _stream_its_answers():
    """Every answer becomes one frame of 500 MiB, a tiny header and zeros sent a MiB at a time:
    every cap of the frame holds, and the worker itself holds almost nothing."""
    original = protocol.send

    def streamed(sock, header, tensors):
        if "probe_id" not in header:
            return original(sock, header, tensors)
        head = json.dumps({"ok": True, "probe_id": header["probe_id"], "value": None}).encode()
        sock.sendall(struct.pack("!II", len(head), 500 * 2**20) + head)
        piece = bytes(2**20)
        for _ in range(500):
            sock.sendall(piece)

    protocol.send = streamed
    return True


class _StreamsWhenDefined:
    done = _stream_its_answers()
'''


@pytest.mark.container
def test_streaming_attackers_in_a_768_mb_container_cost_the_innocent_nothing(tmp_path):
    """Two students stream 500 MiB replies beside innocent students and the canaries, in
    Gradescope's 768 MB and half a CPU with two job slots: the grader refuses each reply before it
    allocates anything for it, so no innocent row and no canary loses a point."""
    if reason := container_skip_reason():
        pytest.skip(reason)
    context = make_context(tmp_path)
    answers = {A1: ("softmax_naive", "x, dim=-1", "x, dim"),
               A2: ("scaled_dot_product_scores", "queries, keys", "queries, keys")}
    for attacker, assignment in (("streamer-1", A1), ("streamer-2", A2)):
        stage, parameters, arguments = answers[assignment]
        answer = f"def {stage}({parameters}):\n    return _solution_{stage}({arguments})\n"
        notebook = wrapped(assignment, stage, STREAMER + "\n\n" + answer)
        write_notebook(context.submitted / attacker / assignment / f"{assignment}.ipynb", notebook(context))
    innocents = [(f"innocent-{index}", (A1, A2)[index % 2]) for index in range(4)]
    for student, assignment in innocents:
        write_notebook(context.submitted / student / assignment / f"{assignment}.ipynb", load_solution(assignment))
    run = run_as_container([sys.executable, "-m", "autograder", "grade", str(context.submitted), "--out",
                            str(context.out), "--jobs", "2", "--device", "cpu"], memory_mb=768, cpu=0.5, timeout=900)
    output = run.result.stdout[-3000:] + run.result.stderr[-3000:]
    if run.result.returncode == 1:  # the grader's own failure is allowed; a silent wrong grade is not
        assert "The grader itself failed" in run.result.stdout, output
        assert not (context.out / "grades.csv").exists()
        return
    assert run.result.returncode == 0, output
    with (context.out / "grades.csv").open() as handle:
        rows = {(row["student_id"], row["assignment_id"]): row for row in csv.DictReader(handle)}
    for innocent in innocents:
        assert rows[innocent]["status"].startswith("graded"), rows[innocent]
        assert rows[innocent]["score"] == rows[innocent]["max_score"], rows[innocent]
    for attacker, assignment in (("streamer-1", A1), ("streamer-2", A2)):
        results = json.loads((context.out / "results" / attacker / f"{assignment}.json").read_text())
        # Refused at the cap of whichever probe it answered first (a call's 16 MiB, or the 64 KiB of
        # the stand-ins a test puts in place first).
        assert re.search(r"over the (16|0\.0625) MiB this probe's answer can take", json.dumps(results))
    assert run.peak_mb < 768, f"peak memory {run.peak_mb:.0f} MB"
