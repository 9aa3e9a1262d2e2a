"""Every step of the trusted side that reads what a student controls, fuzzed one input at a time:
the steps after the tests (late work from ``timestamp.txt``, adjustments, the graded code, the
results and feedback page, publishing), reading notebooks, discovering folders, similar answers,
and merging shards. Each property is the run's: no exception escapes, an innocent row keeps its
full score with status ``graded``, a hostile row gets a status that names its problem, and the
outputs are whole (every row of grades.csv has its files, and they read back the same)."""

from __future__ import annotations

import ast
import csv
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from student_inputs import (
    answer_codes,
    due_dates,
    folder_names,
    notebook_files,
    place_timestamp,
    timestamp_files,
)

from autograder.grading.discovery import DiscoveryError, discover, not_student_folders
from autograder.grading.engine import _prepare
from autograder.grading.merge import MergeError, merge_shards
from autograder.grading.outputs import write_outputs, write_shard_record
from autograder.grading.publish import OutputFolder
from autograder.notebooks.variants import load_solution, notebook_text, write_submission
from autograder.records.files import read_outputs
from autograder.records.results import GradedRow, RowKind
from autograder.term.adjustments import AdjustmentsError, read_adjustments
from autograder.term.answers import graded_answers
from autograder.term.scoring import TermPolicy, apply_term
from autograder.term.similarity import SimilarityError, class_similarity
from autograder.worker.text import clean_text

A1 = "01_attention_scores"
INNOCENT_TIME = "2025-03-01 12:00:00.000000 UTC"


@pytest.fixture(scope="module")
def graded_row(tmp_path_factory) -> GradedRow:
    """A real graded row: the solution of 01, graded by the real command."""
    root = tmp_path_factory.mktemp("graded")
    write_submission(root / "submitted", "ada", A1, load_solution(A1))
    subprocess.run([sys.executable, "-m", "autograder", "grade", str(root / "submitted"), "--out", str(root / "out"),
                    "--device", "cpu"], check=True, capture_output=True, timeout=600)
    [row] = read_outputs(root / "out")
    assert row.score == row.max_score
    return row


def _class(root: Path, hostile: str) -> Path:
    """An innocent student, and a hostile folder (both with the solution of 01)."""
    submitted = root / "submitted"
    innocent = write_submission(submitted, "innocent", A1, load_solution(A1))
    (innocent.parent / "timestamp.txt").write_text(INNOCENT_TIME)
    write_submission(submitted, hostile, A1, load_solution(A1))
    return submitted


def _publish(out: Path, rows: list[GradedRow], entries) -> list[GradedRow]:
    """What ``grade`` does after the tests, for ``rows``."""
    rows, answers = graded_answers(rows, entries)
    with OutputFolder(out, "fuzz") as folder:
        rows = write_outputs(folder.staging(), rows, answers=answers)
        folder.publish()
    return rows


def _assert_whole(out: Path, rows: list[GradedRow]) -> None:
    """Every row has its files, and grades.csv with them reads back as written."""
    back = {(row.student_id, row.assignment_id): row for row in read_outputs(out)}
    assert set(back) == {(row.student_id, row.assignment_id) for row in rows}
    for row in rows:
        assert (out / "results" / row.student_id / f"{row.assignment_id}.json").is_file()
        assert (out / "feedback" / row.student_id / f"{row.assignment_id}.html").is_file()
        assert back[(row.student_id, row.assignment_id)].score == row.score


def _graded_rows(template: GradedRow, entries) -> list[GradedRow]:
    return [dataclasses.replace(template, student_id=entry.student_id) if entry.problem is None
            else GradedRow(entry.student_id, entry.assignment_id, entry.problem, 0.0, template.max_score)
            for entry in entries]


@given(stamp=timestamp_files(), due=due_dates, penalty=st.floats(0, 100), name=folder_names)
def test_a_timestamp_never_stops_the_class(tried, graded_row, tmp_path_factory, stamp, due, penalty, name):
    tried()
    root = tmp_path_factory.mktemp("timestamp")
    submitted = _class(root, name)
    hostile = submitted / name / A1
    if hostile.is_dir():  # the name may be one that discovery skips (__MACOSX, a dot-folder)
        place_timestamp(hostile, *stamp)
    entries = discover(submitted)
    rows = apply_term(_graded_rows(graded_row, entries), entries, TermPolicy({A1: due}, penalty, {}))
    rows = _publish(root / "out", rows, entries)
    for row in rows:
        assert row.status.kind is RowKind.GRADED, row.status  # a student's time is never the grader's failure
        assert row.tests_score == row.max_score
        assert 0 <= row.score <= row.max_score
        time = row.submission_time
        assert (time.submitted_at is None) == (time.problem is not None)
        if time.problem:
            assert "timestamp.txt" in row.status_text()
    [innocent] = [row for row in rows if row.student_id == "innocent"]
    assert innocent.submission_time.submitted_at == "2025-03-01T12:00:00+00:00"
    _assert_whole(root / "out", rows)


@given(text=st.one_of(st.binary(max_size=600), st.builds(
    lambda rows: "student_id,assignment_id,points,reason\n" + "\n".join(",".join(row) for row in rows),
    st.lists(st.tuples(st.sampled_from(["innocent", "ghost", ""]), st.sampled_from([A1, "02_self_attention", "x"]),
                       st.sampled_from(["1", "-5", "nan", "inf", "-inf", "1e309", "0x10", "1_000", " 2 ", "", "½"]),
                       st.text(max_size=30).map(lambda text: text.replace(",", " ").replace("\n", " "))),
             max_size=5)).map(str.encode)))
def test_an_adjustments_file_is_read_or_refused(tried, graded_row, tmp_path_factory, text):
    tried()
    root = tmp_path_factory.mktemp("adjustments")
    submitted = _class(root, "student")
    (root / "adjustments.csv").write_bytes(text)
    entries = discover(submitted)
    try:
        adjustments = read_adjustments(root / "adjustments.csv", {entry.student_id for entry in entries})
    except AdjustmentsError as refused:
        refusal = str(refused)
        assert "adjustments.csv" in refusal  # names the file (and the line)
        return
    rows = apply_term(_graded_rows(graded_row, entries), entries, TermPolicy({}, 0.0, adjustments))
    for row in rows:
        assert row.status.kind is RowKind.GRADED
        assert 0 <= row.score < float("inf"), row.score  # a finite score, never NaN
    _assert_whole(root / "out", _publish(root / "out", rows, entries))


@given(notebook=notebook_files(A1))
def test_a_notebook_file_is_read_or_gets_its_status(tried, graded_row, tmp_path_factory, notebook):
    tried()
    root = tmp_path_factory.mktemp("notebook")
    submitted = _class(root, "student")
    (submitted / "student" / A1 / f"{A1}.ipynb").write_bytes(notebook)
    entries = discover(submitted)
    prepared, problems = _prepare(entries)
    assert len(prepared) + len(problems) == len(entries)
    for status in problems.values():
        assert status.kind in (RowKind.UNREADABLE, RowKind.MISSING, RowKind.MISNAMED)
        assert status.detail == clean_text(status.detail)
        assert len(status.detail) < 1000
    for submission in prepared:
        for block in submission.code.blocks:
            ast.parse(block.source)  # what the worker is given is code
    rows = [dataclasses.replace(graded_row, student_id=submission.student_id,
                                language=submission.code.language) for submission in prepared]
    rows += [GradedRow(student, assignment, status, 0.0, graded_row.max_score)
             for (student, assignment), status in problems.items()]
    rows = _publish(root / "out", apply_term(rows, entries, TermPolicy()), entries)
    assert all(row.status.kind is not RowKind.ERROR for row in rows)
    _assert_whole(root / "out", rows)


@given(names=st.lists(folder_names, min_size=1, max_size=6, unique=True))
def test_folder_names_become_distinct_printable_ids(tried, graded_row, tmp_path_factory, names):
    tried()
    root = tmp_path_factory.mktemp("names")
    submitted = root / "submitted"
    for name in names:
        write_submission(submitted, name, A1, notebook_text(load_solution(A1)))
    try:
        entries = discover(submitted)
    except DiscoveryError:  # only folders that are no student's: exit 2, saying what was expected
        skipped = not_student_folders(submitted)
        assert len(skipped) == len(names)
        return
    ids = [entry.student_id for entry in entries]
    assert len(set(ids)) == len(ids)
    assert all(student == clean_text(student) and "/" not in student for student in ids)
    rows = _publish(root / "out", apply_term(_graded_rows(graded_row, entries), entries, TermPolicy()), entries)
    _assert_whole(root / "out", rows)
    with (root / "out" / "grades.csv").open(newline="", encoding="utf-8") as handle:
        cells = [cell for record in csv.reader(handle) for cell in record]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)  # never a spreadsheet formula


@given(codes=st.lists(answer_codes, min_size=2, max_size=4))
def test_similarity_reads_any_answer_code(tried, tmp_path_factory, codes):
    tried()
    out = tmp_path_factory.mktemp("similarity")
    for index, code in enumerate(codes):
        answer = out / "answers" / f"student{index}" / f"{A1}.py"
        answer.parent.mkdir(parents=True)
        answer.write_text(code, encoding="utf-8", errors="surrogateescape")
    from autograder.feedback.similarity_page import similarity_html  # copydetect loads slowly

    try:
        assignments = class_similarity(out, 3)
    except SimilarityError:
        return
    assert [assignment.assignment_id for assignment in assignments] == [A1]
    similarity_html(assignments)


@given(damage=st.sampled_from(["grades.csv", "shard.json", "results", "feedback", "row twice", "other class"]),
       text=st.one_of(st.binary(max_size=400), st.sampled_from([b"", b"{}", b"[]", b'{"shard": 1, "of": 1}',
                                                                b"student_id,assignment_id,score,max_score,status\n"])))
def test_merge_joins_whole_shards_or_refuses_untouched(tried, graded_row, tmp_path_factory, damage, text):
    tried()
    root = tmp_path_factory.mktemp("merge")
    shards = [root / "shard1", root / "shard2"]
    for number, (shard, student) in enumerate(zip(shards, ("ada", "ben"), strict=True), start=1):
        write_outputs(shard, [dataclasses.replace(graded_row, student_id=student)])
        write_shard_record(shard, (number, 2), ["cpu"])
    damaged = shards[1]
    if damage in ("grades.csv", "shard.json"):
        (damaged / damage).write_bytes(text)
    elif damage in ("results", "feedback"):
        [file] = (damaged / damage / "ben").iterdir()
        file.write_bytes(text)
    elif damage == "row twice":
        grades = (damaged / "grades.csv").read_text()
        (damaged / "grades.csv").write_text(grades + grades.splitlines()[1] + "\n")
    else:  # a shard of another class: same student as shard 1
        grades = (damaged / "grades.csv").read_text()
        (damaged / "grades.csv").write_text(grades.replace("ben,", "ada,"))
    out = root / "merged"
    try:
        merge_shards(shards, out)
    except MergeError:
        merged = out.exists()
        assert not merged  # nothing written
        return
    rows = read_outputs(out)
    assert sorted(row.student_id for row in rows) == ["ada", "ben"]
    for row in rows:
        assert json.loads((out / "results" / row.student_id / f"{A1}.json").read_text())["score"] == row.score
        assert (out / "feedback" / row.student_id / f"{A1}.html").read_text().startswith("<!DOCTYPE html>")
