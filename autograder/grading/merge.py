"""Merge the outputs of ``grade --shard K/N`` runs into the files one run over the class writes.

Each shard's per-student files (``results/``, ``feedback/``) depend on that student's notebook
only, so they are copied byte for byte; ``grades.csv`` gets every shard's rows, in the order one
run writes them. A shard without ``grades.csv`` (it failed, or is still running), one of the N
shares missing or given twice, the same (student, notebook) in two shards, or shards whose
hidden tests ran on different devices (a GPU node beside CPU nodes) stops the merge before
anything is written; each shard's ``shard.json`` says which share it holds.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from autograder.grading.outputs import PER_STUDENT_FILES, SHARD_RECORD
from autograder.grading.publish import OutputFolder
from autograder.records.files import OutputsError, csv_read, read_outputs, write_atomically
from autograder.records.results import CSV_COLUMNS, GradedRow, assignment_position


class MergeError(Exception):
    """The shard outputs cannot be merged; the message says which and why."""


def _finished(shard: Path) -> None:
    if not (shard / "grades.csv").is_file():
        raise MergeError(f"{shard} has no grades.csv: that shard failed or has not finished; grade it again")


def _grade_rows(shard: Path) -> list[list[str]]:
    """The rows of a shard's grades.csv, each with its results file and feedback page whole."""
    grades = shard / "grades.csv"
    try:
        with grades.open(newline="", encoding="utf-8") as handle:
            header, *rows = list(csv.reader(handle)) or [[]]
    except (UnicodeDecodeError, csv.Error) as error:
        raise MergeError(f"{grades} cannot be read ({error}); grade that shard again") from None
    if header != CSV_COLUMNS or any(len(row) != len(CSV_COLUMNS) for row in rows):
        raise MergeError(f"{grades} is not a grades.csv of this kit; grade that shard again")
    try:
        written = read_outputs(shard)
    except OutputsError as error:
        raise MergeError(f"{shard} holds damaged grading outputs; grade that shard again ({error})") from None
    for row in written:
        results = shard / "results" / row.student_id / f"{row.assignment_id}.json"
        page = shard / "feedback" / row.student_id / f"{row.assignment_id}.html"
        if not _whole_results(results, row) or not _whole_page(page):
            raise MergeError(f"{shard} lacks whole results for {row.student_id}/{row.assignment_id} (its results file"
                             " or feedback page is missing or damaged); grade that shard again")
    return rows


def _whole_results(path: Path, row: GradedRow) -> bool:
    """Whether ``path`` is the results file of ``row`` as grades.csv has it."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return (isinstance(document, dict) and document.get("student_id") == row.student_id
                and document.get("assignment_id") == row.assignment_id and document.get("score") == row.score)
    except (OSError, ValueError):
        return False


def _whole_page(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return False
    return text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")


@dataclass(frozen=True)
class _ShardRecord:
    number: int
    count: int
    devices: tuple[str, ...]


def _shard_record(shard: Path) -> _ShardRecord:
    """What ``grade --shard K/N`` wrote about the share a folder holds."""
    try:
        record = json.loads((shard / SHARD_RECORD).read_text(encoding="utf-8"))
        return _ShardRecord(int(record["shard"]), int(record["of"]), tuple(map(str, record["devices"])))
    except FileNotFoundError:
        raise MergeError(f"{shard} has no {SHARD_RECORD}: it is not the output of a `grade --shard K/N` run") from None
    except (OSError, ValueError, KeyError, TypeError):
        raise MergeError(f"{shard / SHARD_RECORD} is not a shard record of this kit; grade that shard again") from None


def _check_the_whole_class(shards: list[Path], records: list[_ShardRecord]) -> None:
    """Refuse unless the folders are the N shares of one class, each once, graded on the same devices."""
    counts = {record.count for record in records}
    if len(counts) > 1:
        raise MergeError(f"the shards come from runs that split the class differently (N = {sorted(counts)}): merge"
                         " the outputs of one --shard K/N run per K, with the same N")
    [count] = counts
    seen: dict[int, Path] = {}
    for shard, record in zip(shards, records, strict=True):
        if record.number in seen:
            raise MergeError(f"{seen[record.number]} and {shard} are both shard {record.number}/{count}")
        seen[record.number] = shard
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        listed = ", ".join(f"{number} of {count}" for number in missing)
        raise MergeError(f"shard {listed} is missing: grade it (--shard {missing[0]}/{count}) and merge all {count}"
                         " again")
    tested = {shard: record.devices for shard, record in zip(shards, records, strict=True) if record.devices}
    if len(set(tested.values())) > 1:
        per_shard = "; ".join(f"{shard}: {'+'.join(devices)}" for shard, devices in tested.items())
        raise MergeError(f"the shards were graded on different devices ({per_shard}). Grade every shard on"
                         " machines with the same devices, or all with --device cpu, then merge again")


def merge_shards(shards: list[Path], out: Path, command: str = "merge") -> int:
    """Write into ``out`` the merged outputs of the ``shards`` folders; returns the number of rows.
    Every check comes first (MergeError leaves ``out`` untouched); the outputs are then published
    whole, as a grading run's are (``autograder.grading.publish``)."""
    for shard in shards:
        _finished(shard)
    _check_the_whole_class(shards, [_shard_record(shard) for shard in shards])
    shard_rows = [_grade_rows(shard) for shard in shards]
    rows: list[list[str]] = []
    source_of: dict[tuple[str, str], Path] = {}
    for shard, rows_of_shard in zip(shards, shard_rows, strict=True):
        for row in rows_of_shard:
            key = (csv_read(row[0]), row[1])
            if key in source_of:
                raise MergeError(f"{key[0]}/{key[1]} was graded in both {source_of[key]} and {shard}: merge the"
                                 " outputs of one --shard K/N run per K, with the same N")
            source_of[key] = shard
            rows.append(row)
    rows.sort(key=lambda row: (csv_read(row[0]), assignment_position(row[1]), row[1]))
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([CSV_COLUMNS, *rows])
    with OutputFolder(out, command) as folder:
        staging = folder.staging()
        for shard in shards:
            for per_student, pattern in PER_STUDENT_FILES:
                for source in sorted((shard / per_student).glob(pattern)):
                    write_atomically(staging / source.relative_to(shard), source.read_text(encoding="utf-8"))
        write_atomically(staging / "grades.csv", buffer.getvalue())
        folder.publish()
    return len(rows)
