"""``grade --shard K/N`` and ``merge``: a class graded on N machines gives the files of one run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.grading.discovery import ClassShard
from autograder.grading.merge import MergeError, merge_shards
from autograder.grading.outputs import write_outputs, write_shard_record
from autograder.notebooks.variants import load_solution, load_student, with_answer, write_submission
from autograder.records.results import CSV_COLUMNS, GradedRow, RowKind, RowStatus
from autograder.records.submissions import SubmissionEntry

ASSIGNMENT = "01_attention_scores"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd="/", capture_output=True, text=True,
                          timeout=600)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def write_mixed_class(submitted: Path) -> None:
    solution = load_solution(ASSIGNMENT)
    for student in ("ada", "bo", "cy", "dee", "=eve"):
        write_submission(submitted, student, ASSIGNMENT, solution)
    write_submission(submitted, "fay", ASSIGNMENT, load_student(ASSIGNMENT))
    broken = "import torch\n\ndef softmax_naive(x, dim=-1):\n    return torch.exp(x)\n"
    write_submission(submitted, "gus", ASSIGNMENT, with_answer(solution, "softmax_naive", broken))
    (submitted / "hal").mkdir()  # nothing submitted
    write_submission(submitted, "ivy", ASSIGNMENT, "not a notebook")


@pytest.mark.slow
def test_four_shards_merged_are_byte_identical_to_one_run(tmp_path):
    submitted = tmp_path / "submitted"
    write_mixed_class(submitted)
    whole = _run("grade", str(submitted), "--out", str(tmp_path / "whole"), "--jobs", "2")
    assert whole.returncode == 0, whole.stdout + whole.stderr
    shards = []
    for number in range(1, 5):
        out = tmp_path / f"shard{number}"
        result = _run("grade", str(submitted), "--out", str(out), "--shard", f"{number}/4")
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"Shard {number}/4:" in result.stdout
        shards.append(out)
    merged = _run("merge", *map(str, shards), "--out", str(tmp_path / "merged"))
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "Merged 9 rows from 4 shards" in merged.stdout
    assert _files(tmp_path / "merged") == _files(tmp_path / "whole")


def test_shards_deal_out_students_evenly_and_keep_a_students_notebooks_together():
    entries = [SubmissionEntry(f"s{i:02d}", assignment, Path("x")) for i in range(10)
               for assignment in ("01_attention_scores", "02_self_attention")]
    shares = [ClassShard(number, 4).select(entries) for number in range(1, 5)]
    assert sorted(entry.key for share in shares for entry in share) == sorted(entry.key for entry in entries)
    students = [{entry.student_id for entry in share} for share in shares]
    assert [len(share) for share in students] == [3, 3, 2, 2]
    assert all(not (a & b) for i, a in enumerate(students) for b in students[i + 1:])


@pytest.mark.parametrize("text", ["0/4", "5/4", "1", "a/b", "2/0", "-1/3"])
def test_a_bad_shard_is_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match=r"K/N with 1 <= K <= N"):
        ClassShard.parse(text)


def test_a_bad_shard_argument_exits_2(tmp_path):
    write_submission(tmp_path / "in", "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    result = _run("grade", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--shard", "5/4")
    assert result.returncode == 2
    assert "--shard takes K/N" in result.stdout


def _fake_shard(folder: Path, *students: str, shard: tuple[int, int] = (1, 1), devices=("cpu",)) -> Path:
    """The outputs of a shard whose students all scored 100 (written as a run writes them)."""
    write_outputs(folder, [GradedRow(student, ASSIGNMENT, RowStatus(RowKind.GRADED), 100.0, 100.0)
                           for student in students])
    write_shard_record(folder, shard, list(devices))
    return folder


def test_merge_names_a_missing_shard(tmp_path):
    shards = [_fake_shard(tmp_path / f"s{k}", f"student{k}", shard=(k, 4)) for k in (1, 2, 4)]
    with pytest.raises(MergeError, match=r"shard 3 of 4 is missing: grade it \(--shard 3/4\)"):
        merge_shards(shards, tmp_path / "out")
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_merge_refuses_a_share_given_twice_or_shares_of_different_splits(tmp_path):
    twice = [_fake_shard(tmp_path / "a", "ada", shard=(1, 2)), _fake_shard(tmp_path / "b", "bo", shard=(1, 2))]
    with pytest.raises(MergeError, match="are both shard 1/2"):
        merge_shards(twice, tmp_path / "out")
    split = [_fake_shard(tmp_path / "c", "cy", shard=(1, 2)), _fake_shard(tmp_path / "d", "dee", shard=(2, 3))]
    with pytest.raises(MergeError, match="split the class differently"):
        merge_shards(split, tmp_path / "out")


def test_merge_refuses_the_output_of_a_run_that_was_not_a_shard(tmp_path):
    folder = _fake_shard(tmp_path / "a", "ada")
    (folder / "shard.json").unlink()
    with pytest.raises(MergeError, match="not the output of a `grade --shard K/N` run"):
        merge_shards([folder], tmp_path / "out")


def test_merge_refuses_a_student_graded_twice(tmp_path):
    first = _fake_shard(tmp_path / "a", "ada", "bo", shard=(1, 2))
    second = _fake_shard(tmp_path / "b", "bo", shard=(2, 2))
    with pytest.raises(MergeError, match="bo/01_attention_scores was graded in both"):
        merge_shards([first, second], tmp_path / "out")
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_merge_refuses_an_unfinished_shard(tmp_path):
    first = _fake_shard(tmp_path / "a", "ada", shard=(1, 2))
    (tmp_path / "b").mkdir()
    result = _run("merge", str(first), str(tmp_path / "b"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "has no grades.csv: that shard failed or has not finished" in result.stdout


def test_merge_replaces_an_earlier_merge(tmp_path):
    out = tmp_path / "out"
    merge_shards([_fake_shard(tmp_path / "a", "ada", "bo")], out)
    assert (out / "results" / "bo" / f"{ASSIGNMENT}.json").exists()
    shutil.rmtree(tmp_path / "a")
    merge_shards([_fake_shard(tmp_path / "a", "ada")], out)
    assert (out / "grades.csv").read_text().count(ASSIGNMENT) == 1
    assert not (out / "results" / "bo" / f"{ASSIGNMENT}.json").exists()


@pytest.mark.slow
def test_an_empty_share_writes_an_empty_grades_file_and_merges(tmp_path):
    write_submission(tmp_path / "in", "ada", ASSIGNMENT, load_solution(ASSIGNMENT))
    empty = _run("grade", str(tmp_path / "in"), "--out", str(tmp_path / "s2"), "--shard", "2/2")
    assert empty.returncode == 0, empty.stdout + empty.stderr
    assert "No submission to grade here" in empty.stdout
    assert (tmp_path / "s2" / "grades.csv").read_text() == ",".join(CSV_COLUMNS) + "\n"
    assert _run("grade", str(tmp_path / "in"), "--out", str(tmp_path / "s1"), "--shard", "1/2").returncode == 0
    assert _run("merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")).returncode == 0
    assert "ada,01_attention_scores,100,100,graded" in (tmp_path / "m" / "grades.csv").read_text()


# Found by the fuzz tests (tests/fuzz/): a shard's files damaged after grading once crashed merge
# (UnicodeDecodeError, an empty grades.csv) or were copied into the merged outputs as they were.
@pytest.mark.parametrize(("damaged", "content"), [
    ("grades.csv", b""), ("grades.csv", b"\x80"), ("grades.csv", b"student_id,assignment_id,score,max_score,status\n"),
    ("results/ada/01_attention_scores.json", b"{}"), ("results/ada/01_attention_scores.json", b"[]"),
    ("results/ada/01_attention_scores.json", b"\x80"), ("feedback/ada/01_attention_scores.html", b""),
])
def test_merge_refuses_a_shard_whose_files_are_damaged(tmp_path, damaged, content):
    shards = [_fake_shard(tmp_path / "a", "ada", shard=(1, 2)), _fake_shard(tmp_path / "b", "bo", shard=(2, 2))]
    (shards[0] / damaged).write_bytes(content)
    with pytest.raises(MergeError, match="grade that shard again"):
        merge_shards(shards, tmp_path / "out")
    assert not (tmp_path / "out").exists()
