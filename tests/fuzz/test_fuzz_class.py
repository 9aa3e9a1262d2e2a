"""A whole class through the real command, with hostile students drawn by Hypothesis beside
innocent ones: their folder names, notebook files and ``timestamp.txt`` files at once (the
canary runs first, as always). The run exits as documented, every innocent row keeps its full
score with status ``graded``, every hostile row gets a status that names its problem, and the
outputs are whole."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from student_inputs import folder_names, notebook_files, place_timestamp, timestamp_files

from autograder.grading.discovery import NOT_STUDENTS, student_name
from autograder.notebooks.variants import load_solution, notebook_text, write_submission
from autograder.records.files import read_outputs

A1, A2 = "01_attention_scores", "02_self_attention"
INNOCENTS = ("innocent-1", "innocent-2")
# A grading run costs seconds: the ci profile grades a couple of classes, make fuzz many more.
CLASSES = 2 if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci" else int(os.environ.get("FUZZ_CLASSES", "40"))
KINDS = {"graded", "missing", "misnamed", "unreadable"}

hostile_students = st.lists(st.tuples(folder_names, st.sampled_from([A1, A2]), timestamp_files(), st.data()),
                            min_size=1, max_size=3, unique_by=lambda student: student[0])


@pytest.mark.slow
@settings(max_examples=CLASSES, phases=(Phase.explicit, Phase.reuse, Phase.generate))  # a class is too dear to shrink
@given(hostile=hostile_students)
def test_a_class_with_hostile_students_is_graded_whole(tried, tmp_path_factory, hostile):
    tried()
    root = tmp_path_factory.mktemp("class")
    submitted, out = root / "submitted", root / "out"
    for student in INNOCENTS:
        for assignment in (A1, A2):
            innocent = write_submission(submitted, student, assignment, load_solution(assignment))
            (innocent.parent / "timestamp.txt").write_text("2025-03-01 12:00:00.000000 UTC")
    for name, assignment, stamp, data in hostile:
        notebook = data.draw(notebook_files(assignment))
        path = write_submission(submitted, name, assignment, notebook_text(load_solution(assignment)))
        path.write_bytes(notebook)
        place_timestamp(path.parent, *stamp)
    result = subprocess.run([sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
                             "--device", "cpu", "--jobs", "2", "--timeout", "5",
                             "--due", f"{A1}=2025-03-01T23:59-05:00", "--due", f"{A2}=2025-03-08T23:59+09:00",
                             "--late-penalty", "10"], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = {(row.student_id, row.assignment_id): row for row in read_outputs(out)}
    for student in INNOCENTS:
        for assignment in (A1, A2):
            assert rows[(student, assignment)].score == rows[(student, assignment)].max_score
            assert rows[(student, assignment)].status_text() == "graded"
    for name, assignment, _, _ in hostile:
        if name.startswith(".") or name in NOT_STUDENTS:
            continue
        row = rows[(student_name(name), assignment)]
        assert row.status.kind.value in KINDS, row.status  # named, and never the grader's own error
        if not row.graded:
            assert row.status.detail or row.status.kind.value == "missing"
    with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == len(rows)
    for student, assignment in rows:
        assert (out / "results" / student / f"{assignment}.json").is_file()
        assert (out / "feedback" / student / f"{assignment}.html").is_file()
    assert sorted(path.name for path in root.iterdir()) == ["out", "submitted"]  # nothing left beside

