"""Merge the outputs of ``grade --shard K/N`` runs into the files one run over the class writes.

Each shard's per-student files (``results/``, ``feedback/``) depend on that student's notebook
only, so they are copied byte for byte; ``grades.csv`` gets every shard's rows, in the order one
run writes them. The same (student, notebook) in two shards, or a shard without ``grades.csv``
(it failed, or is still running), or shards whose hidden tests ran on different devices (a GPU
node beside CPU nodes), stops the merge before anything is written.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from autograder.grading.outputs import PER_STUDENT_FILES, csv_read, remove_stale_files, write_atomically
from autograder.grading.results import CSV_COLUMNS, assignment_position


class MergeError(Exception):
    """The shard outputs cannot be merged; the message says which and why."""


def _grade_rows(shard: Path) -> list[list[str]]:
    grades = shard / "grades.csv"
    if not grades.is_file():
        raise MergeError(f"{shard} has no grades.csv: that shard failed or has not finished; grade it again")
    with grades.open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    if header != CSV_COLUMNS:
        raise MergeError(f"{grades} is not a grades.csv of this kit (its columns are {', '.join(header)})")
    return rows


def _devices_tested(shard: Path) -> tuple[str, ...] | None:
    """The devices a shard's hidden tests ran on, from its results files (None: no test ran)."""
    found = set()
    for results in (shard / "results").glob("*/*.json"):
        try:
            devices = json.loads(results.read_text(encoding="utf-8")).get("devices")
        except (OSError, ValueError, AttributeError):
            raise MergeError(f"{results} is not a results file of this kit; grade that shard again") from None
        if devices:
            found.add(tuple(devices))
    if len(found) > 1:
        raise MergeError(f"{shard} holds results tested on different devices ({_listed(found)}); grade it again")
    return found.pop() if found else None


def _listed(device_sets) -> str:
    return " and ".join(sorted("+".join(devices) for devices in device_sets))


def _check_same_devices(shards: list[Path]) -> None:
    """Refuse shards graded on different device sets: the same notebook could be tested differently."""
    tested = {shard: devices for shard in shards if (devices := _devices_tested(shard)) is not None}
    if len(set(tested.values())) > 1:
        per_shard = "; ".join(f"{shard}: {'+'.join(devices)}" for shard, devices in tested.items())
        raise MergeError(f"the shards were graded on different devices ({per_shard}). Grade every shard on"
                         " machines with the same devices, or all with --device cpu, then merge again")


def merge_shards(shards: list[Path], out: Path) -> int:
    """Write into ``out`` the merged outputs of the ``shards`` folders; returns the number of rows."""
    _check_same_devices(shards)
    rows, source_of = [], {}
    for shard in shards:
        for row in _grade_rows(shard):
            key = (csv_read(row[0]), row[1])
            if key in source_of:
                raise MergeError(f"{key[0]}/{key[1]} was graded in both {source_of[key]} and {shard}: merge the"
                                 " outputs of one --shard K/N run per K, with the same N")
            source_of[key] = shard
            rows.append(row)
    (out / "grades.csv").unlink(missing_ok=True)  # as a run does: no grades.csv until all else is written
    produced = set()
    for shard in shards:
        for folder, pattern in PER_STUDENT_FILES:
            for source in sorted((shard / folder).glob(pattern)):
                target = out / source.relative_to(shard)
                write_atomically(target, source.read_text(encoding="utf-8"))
                produced.add(target)
    remove_stale_files(out, produced)
    rows.sort(key=lambda row: (csv_read(row[0]), assignment_position(row[1]), row[1]))
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([CSV_COLUMNS, *rows])
    write_atomically(out / "grades.csv", buffer.getvalue())
    return len(rows)
