"""The command line: ``python -m autograder grade|doctor|merge|report|gradebook|export|similarity|serve|service ...``
(see the documentation in docs/)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from autograder import extras
from autograder.course.reference import BrokenReferenceError
from autograder.course.rubric import RubricError
from autograder.grading.discovery import (
    ClassShard,
    DiscoveryError,
    discover,
    grading_output_folders,
    not_student_folders,
)
from autograder.grading.engine import GradingError, ProgressCallback, grade_entries
from autograder.grading.merge import MergeError, merge_shards
from autograder.grading.outputs import write_outputs, write_shard_record
from autograder.grading.publish import FAILED_FILE, OutputFolder, OutputFolderError, command_line
from autograder.grading.trust import GraderUntrusted
from autograder.paths import KIT_ROOT
from autograder.platforms.junit import junit_xml
from autograder.platforms.lms_export import ROSTER_COLUMNS, Lms, RosterError, export_grades, read_roster
from autograder.probes.errors import SandboxError
from autograder.records.files import OutputsError, read_outputs, write_atomically
from autograder.records.jobs import ACCELERATORS, GradeOptions
from autograder.records.results import UNSAFE_FLAG, GradedRow, RowKind
from autograder.student.curriculum import ASSIGNMENTS
from autograder.term.adjustments import AdjustmentsError, read_adjustments
from autograder.term.answers import graded_answers
from autograder.term.lateness import DueDateError, check_late_penalty, parse_due_dates
from autograder.term.scoring import TermPolicy, apply_term

# The submission service's commands (autograder/service/commands.py) parse their own arguments:
# main hands them over before the parser below runs, which lists them only so that --help does.
SERVICE_COMMANDS = {
    "serve": "run the submission service: its web process and grading workers (serve --help)",
    "service": "the submission service's instructor commands and grading worker (service --help)",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder",
                                     description="Grade attention-kit notebooks safely and fast.")
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser("grade", help="grade a folder of submissions (nbgrader layout)")
    grade.add_argument("submitted", type=Path,
                       help="<submitted>/<student_id>/<assignment_id>/<assignment_id>.ipynb, an nbgrader course"
                            " folder (its submitted/ is graded), or one notebook")
    grade.add_argument("--out", type=Path, required=True, help="where grades.csv, results/ and feedback/ go")
    grade.add_argument("--assignment", help="grade only this assignment id")
    grade.add_argument("--jobs", type=int, default=1, help="submissions graded at once (default 1)")
    grade.add_argument("--timeout", type=float, default=10.0,
                       help="seconds a student's code may take per test (default 10)")
    grade.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto",
                       help="auto: CPU plus every accelerator present (default)")
    grade.add_argument("--memory-gib", type=float, default=4.0, help="memory per worker (default 4)")
    grade.add_argument(UNSAFE_FLAG, action="store_true",
                       help="grade even when the sandbox cannot keep the solutions, hidden tests and other students'"
                            " work from student code (every row of grades.csv then says so)")
    grade.add_argument("--shard", metavar="K/N",
                       help="grade only the K-th of N shares of the students (1 <= K <= N), to grade a class on N"
                            " machines at once; `merge` then joins the N outputs")
    grade.add_argument("--private-outputs", action="store_true",
                       help="make the outputs readable by their owner only (0600 files in a 0700 folder);"
                            " by default they follow the umask (0644 under the usual 022)")
    grade.add_argument("--junit", type=Path, metavar="FILE",
                       help="also write JUnit XML: a test suite per student and notebook, a test case per hidden test")
    grade.add_argument("--fail-under", type=float, metavar="PERCENT",
                       help="exit with status 3 when a row of grades.csv scores below PERCENT %% of its max_score"
                            " (a missing or unreadable notebook scores 0); without it, scores never fail the command")
    grade.add_argument("--due", action="append", default=[], metavar="ASSIGNMENT=TIME",
                       help="the due date of an assignment, in ISO-8601 with its offset from UTC (for example"
                            " 01_attention_scores=2025-03-01T23:59+01:00); repeat it for each assignment. Submission"
                            " times come from the timestamp.txt that nbgrader collect writes beside each notebook")
    grade.add_argument("--late-penalty", type=float, metavar="PERCENT",
                       help="take PERCENT %% of the maximum score per started day late (needs --due); a submission"
                            " without a readable timestamp.txt is never late, and grades.csv says so")
    grade.add_argument("--adjustments", type=Path, metavar="FILE.csv",
                       help="points to add after grading (negative to take away), a row each with the columns"
                            " student_id,assignment_id,points,reason; the reason is shown on the feedback page")
    doctor = commands.add_parser("doctor", help="say what this machine can do, and what `grade` would do here"
                                                " (exit 1 where it would refuse)")
    doctor.add_argument("--assignment", choices=ASSIGNMENTS, help="check the canary of this assignment only")
    doctor.add_argument("--jobs", type=int, default=1, help="job slots to prove, as grade --jobs (default 1)")
    doctor.add_argument("--timeout", type=float, default=10.0, help="as grade --timeout (default 10)")
    doctor.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto", help="as grade --device")
    doctor.add_argument("--memory-gib", type=float, default=4.0, help="as grade --memory-gib (default 4)")
    report = commands.add_parser("report", help="write <out>/report.html: the class at a glance")
    report.add_argument("out", type=Path, help="the --out folder of a grading run")
    gradebook = commands.add_parser("gradebook", help="record a grading run in an nbgrader gradebook")
    gradebook.add_argument("out", type=Path, help="the --out folder of a grading run")
    gradebook.add_argument("--course", type=Path, default=KIT_ROOT / "course",
                           help="the nbgrader course directory (default: the kit's course/)")
    merge = commands.add_parser("merge", help="join the outputs of `grade --shard K/N` runs into one")
    merge.add_argument("shards", type=Path, nargs="+", help="the --out folders of the shard runs")
    merge.add_argument("--out", type=Path, required=True, help="where the merged grades.csv, results/ and feedback/ go")
    export = commands.add_parser("export", help="write a grades file for Canvas's or Moodle's gradebook import")
    export.add_argument("out", type=Path, help="the --out folder of a grading run")
    export.add_argument("--lms", choices=[lms.value for lms in Lms], required=True, help="the learning platform")
    export.add_argument("--roster", type=Path,
                        help="CSV mapping student_id (the submission folder names) to the platform's ids: any of"
                             f" {', '.join(ROSTER_COLUMNS[1:])}")
    export.add_argument("--output", type=Path, help="the file to write (default: <out>/<lms>_grades.csv)")
    similarity = commands.add_parser("similarity",
                                     help="write <out>/similarity.html: the pairs of students whose answers are most"
                                          " alike, per assignment")
    similarity.add_argument("out", type=Path, help="the --out folder of a grading run")
    similarity.add_argument("--pairs", type=int, default=10, help="pairs listed per assignment (default 10)")
    for name, summary in SERVICE_COMMANDS.items():
        commands.add_parser(name, help=summary, add_help=False)
    return parser


def _progress_callback(console: Console, total: int) -> tuple[Progress | None, ProgressCallback]:
    """A progress bar on a terminal, plain lines elsewhere (CI logs)."""
    if console.is_terminal:
        progress = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), console=console, transient=True)
        task = progress.add_task("grading", total=total)
        return progress, lambda student, assignment: progress.advance(task)
    done = [0]

    def plain(student: str, assignment: str) -> None:
        done[0] += 1
        console.print(f"[{done[0]}/{total}] {student}/{assignment}", highlight=False, markup=False)

    return None, plain


def print_summary(console: Console, rows: list[GradedRow], out: Path) -> None:
    """Students by status, a row per notebook with its statuses and mean score, the stages that
    most students failed, and any warnings."""
    if not rows:
        console.print(f"No submission to grade here (an empty share of --shard?): wrote an empty"
                      f" {out / 'grades.csv'}", markup=False, highlight=False)
        return
    statuses = [kind for kind in RowKind if any(row.status.kind is kind for row in rows)]
    # Notebooks are counted, not students: one student may have a graded notebook and a missing one.
    counted = ", ".join(f"{sum(row.status.kind is kind for row in rows)} {kind.value}" for kind in statuses)
    students = len({row.student_id for row in rows})
    table = Table(title=f"{students} student{'s' if students != 1 else ''}, {len(rows)} notebook"
                        f"{'s' if len(rows) != 1 else ''}: {counted}")
    for column in ("notebook", *(kind.value for kind in statuses), "mean score"):
        table.add_column(column)
    by_assignment: dict[str, list[GradedRow]] = defaultdict(list)
    for row in rows:
        by_assignment[row.assignment_id].append(row)
    for assignment, group in by_assignment.items():
        mean = sum(row.score for row in group) / len(group)
        table.add_row(assignment, *(str(sum(row.status.kind is kind for row in group)) for kind in statuses),
                      f"{mean:.1f} / {group[0].max_score:g}")
    console.print(table)
    failing = Counter(stage for stage, _ in {(test.stage, row.student_id) for row in rows for test in row.tests
                                              if not test.passed})
    if failing:
        top = ", ".join(f"{stage} ({count})" for stage, count in failing.most_common(5))
        console.print(f"Stages most students failed (students): {top}", markup=False, highlight=False)
    _print_term(console, rows)
    _print_trust(console, rows)
    console.print(f"Wrote {out / 'grades.csv'}, {out / 'results'}/ and {out / 'feedback'}/", markup=False,
                  highlight=False)


def _print_term(console: Console, rows: list[GradedRow]) -> None:
    """Late submissions, submissions whose time is unknown, and adjustments applied."""
    times = [row.submission_time for row in rows if row.graded and row.submission_time and row.submission_time.due]
    late = [time for time in times if time.days_late]
    if times:
        console.print(f"Late: {len(late)} of {len(times)} graded notebooks with a due date"
                      + (f" ({sum(time.penalty for time in late):g} points of penalties)" if late else ""),
                      markup=False, highlight=False)
    unknown = [row for row in rows if row.graded and row.submission_time and row.submission_time.due
               and row.submission_time.problem]
    if unknown:
        listed = ", ".join(f"{row.student_id}/{row.assignment_id}" for row in unknown[:10])
        console.print(f"Counted as on time, with no readable timestamp.txt: {len(unknown)} ({listed}"
                      f"{', ...' if len(unknown) > 10 else ''}); grades.csv says so in their status.",
                      style="yellow", markup=False, highlight=False, soft_wrap=True)  # ids are folder names
    adjusted = [row for row in rows if row.adjustments]
    if adjusted:
        console.print(f"Adjustments: {sum(len(row.adjustments) for row in adjusted)} applied to {len(adjusted)}"
                      " notebooks", markup=False, highlight=False)


def _print_trust(console: Console, rows: list[GradedRow]) -> None:
    """The isolation the workers reached and the guarantees the run proved before grading."""
    isolations = sorted({str(row.isolation) for row in rows if row.isolation is not None})
    if isolations:
        console.print(f"Isolation: {'; '.join(isolations)}", highlight=False, soft_wrap=True)
    trust = next((row.trust for row in rows if row.trust is not None and row.trust.guarantees), None)
    if trust is not None and trust.guarantees is not None:
        held = ", ".join(guarantee.value for guarantee in trust.guarantees.held) or "none"
        console.print(f"Proved before grading: {held}", highlight=False, soft_wrap=True)
        if trust.guarantees.broken:
            console.print(f"[yellow]Does not hold: {trust.guarantees.broken_text()}[/yellow]", soft_wrap=True)
        if trust.secrets_exposed:
            console.print(f"[red]Graded with {UNSAFE_FLAG}: student code could read the solutions; every row of"
                          " grades.csv says so.[/red]", soft_wrap=True)
    if any(row.weaker_isolation for row in rows):
        remedy = ("For full isolation the grader needs CAP_SYS_ADMIN as well (a virtual machine, or a container"
                  " started with --cap-add SYS_ADMIN)" if os.geteuid() == 0 else "Run the grader as root for full"
                  " isolation")
        console.print(f"[yellow]Warning: workers ran with weaker isolation (named above). {remedy}; SECURITY.md says"
                      " what each environment defends.[/yellow]", soft_wrap=True)


class _NoSuchDevice(Exception):
    """``--device cuda`` on a machine without one (the fork server says which devices it has)."""


def _announce(console: Console, count: int, asked: str) -> Callable[[list[str]], None]:
    """What to say once the tested devices are known (and refuse --device cuda without one)."""
    def announce(devices: list[str]) -> None:
        if asked == "cuda" and "cuda" not in devices:
            raise _NoSuchDevice
        untested = [name for name in ACCELERATORS if name not in devices]
        console.print(f"Grading {count} submissions on {', '.join(devices)}"
                      + (f"; {' and '.join(untested)} tests not run (no such device, or --device cpu)"
                         if untested else ""))
    return announce


class _BadPath(Exception):
    """A path given on the command line that cannot be used; the message says what to do."""


def _output_folder(out: Path, option: str = "--out") -> None:
    """An output folder must be a folder (or not exist yet) whose parent exists: a mistyped
    parent is refused rather than created."""
    if out.exists() and not out.is_dir():
        raise _BadPath(f"{option} {out} is a file; name a folder (it is created if it does not exist)")
    if not out.exists() and not out.absolute().parent.is_dir():
        raise _BadPath(f"{option} {out}: the folder {out.absolute().parent} does not exist; check the spelling,"
                       f" or create it first (mkdir -p {out.absolute().parent})")


def _output_file(path: Path, option: str) -> None:
    """An output file must not be a folder, and its folder must exist."""
    if path.is_dir():
        raise _BadPath(f"{option} {path} is a folder; name the file to write")
    if not path.absolute().parent.is_dir():
        raise _BadPath(f"{option} {path}: the folder {path.absolute().parent} does not exist; check the spelling,"
                       f" or create it first (mkdir -p {path.absolute().parent})")


def _check_grade_paths(args: argparse.Namespace) -> None:
    """--out (and --junit) usable, and --out outside the submissions: a run's outputs inside them
    would be taken for a student's folder by the next run."""
    _output_folder(args.out)
    if args.junit and not args.junit.absolute().is_relative_to(args.out.absolute()):  # --out's folders are made
        _output_file(args.junit, "--junit")
    if args.submitted.is_dir() and args.out.resolve().is_relative_to(args.submitted.resolve()):
        raise _BadPath(f"--out {args.out} is inside the submissions folder {args.submitted}, where the next run"
                       " would take it for a student's folder; write the outputs elsewhere, for example --out"
                       f" {args.submitted.resolve().parent / 'grades'}")


def _term_policy(args: argparse.Namespace, students: set[str]) -> TermPolicy:
    """--due, --late-penalty and --adjustments, checked before anything is graded."""
    due_dates = parse_due_dates(args.due)
    check_late_penalty(args.late_penalty, due_dates)
    adjustments = read_adjustments(args.adjustments, students) if args.adjustments else {}
    return TermPolicy(due_dates, args.late_penalty or 0.0, adjustments)


def _grade(args: argparse.Namespace, console: Console) -> int:
    if args.jobs < 1 or args.timeout <= 0 or args.memory_gib <= 0:
        console.print("--jobs, --timeout and --memory-gib must be positive.")
        return 2
    if args.fail_under is not None and not 0 <= args.fail_under <= 100:
        console.print("--fail-under is a percentage of the maximum score, from 0 to 100.")
        return 2
    try:
        _check_grade_paths(args)
        shard = ClassShard.parse(args.shard) if args.shard else None
        entries = discover(args.submitted, args.assignment)
        policy = _term_policy(args, {entry.student_id for entry in entries})
    except (DiscoveryError, ValueError, DueDateError, _BadPath, AdjustmentsError) as error:
        console.print(f"Nothing graded: {error}", markup=False, soft_wrap=True)
        return 2
    _print_skipped(console, args.submitted)
    if shard is not None:
        entries = shard.select(entries)
        console.print(f"Shard {shard.number}/{shard.count}: {len({entry.student_id for entry in entries})} students",
                      markup=False, highlight=False)
    try:
        with OutputFolder(args.out, command_line(), private=args.private_outputs) as folder:
            return _grade_into(folder, args, entries, policy, shard, console)
    except OutputFolderError as error:
        console.print(f"Nothing graded: {error}", markup=False, soft_wrap=True)
        return 2


def _grade_into(folder: OutputFolder, args: argparse.Namespace, entries: list, policy: TermPolicy,
                shard: ClassShard | None, console: Console) -> int:
    """Grade ``entries``, then publish every output whole into ``folder`` (or record why not)."""
    options = GradeOptions(assignment=args.assignment, jobs=args.jobs, timeout=args.timeout,
                           device=args.device, memory_bytes=int(args.memory_gib * 2**30),
                           accept_readable_secrets=args.unsafe_let_students_read_solutions)
    bar, progress = _progress_callback(console, len(entries))
    try:
        with bar or contextlib.nullcontext():
            rows = grade_entries(entries, args.submitted, folder.out, options, progress,
                                 on_devices=_announce(console, len(entries), args.device))
    except _NoSuchDevice:
        folder.fail("--device cuda was asked for, but no CUDA device is available here")
        console.print("--device cuda was asked for, but no CUDA device is available here.")
        return 2
    except (GradingError, SandboxError, BrokenReferenceError, RubricError) as error:
        folder.fail(f"the grader itself failed: {error}")
        console.print(f"The grader itself failed, so no grades were written: {error}", markup=False)
        return 1
    except GraderUntrusted as error:
        folder.fail(f"the grader refused to grade: {error}")
        console.print(f"The grader refuses to grade, so no grades were written: {error}", markup=False,
                      soft_wrap=True)
        return 1
    rows = apply_term(rows, entries, policy)
    rows, answers = graded_answers(rows, entries)
    staging = folder.staging()
    devices = next((list(row.devices) for row in rows if row.devices), [])
    write_shard_record(staging, (shard.number, shard.count) if shard else None, devices,
                       private=args.private_outputs)
    rows = write_outputs(staging, rows, private=args.private_outputs, answers=answers)
    junit_inside = args.junit is not None and args.junit.absolute().is_relative_to(folder.out)
    if junit_inside:
        write_atomically(staging / args.junit.absolute().relative_to(folder.out), junit_xml(rows),
                         private=args.private_outputs)
    folder.publish()
    if args.junit and not junit_inside:
        write_atomically(args.junit, junit_xml(rows), private=args.private_outputs)
    print_summary(console, rows, args.out)
    waiting = set(policy.adjustments) - {(row.student_id, row.assignment_id) for row in rows}
    if waiting:
        console.print(f"Not applied in this run: the adjustments of {len(waiting)} notebooks it did not grade"
                      " (--assignment or --shard); the run that grades them applies them.", markup=False,
                      highlight=False)
    unfinished = [row for row in rows if row.status.kind is RowKind.ERROR]
    if unfinished:  # every other row is written; these say why not, and the run did not do its job
        listed = "; ".join(f"{row.student_id}/{row.assignment_id}: {row.status.detail}" for row in unfinished[:5])
        console.print(f"The grader could not finish {len(unfinished)} rows (grades.csv says so, with 0 points):"
                      f" {listed}", markup=False, soft_wrap=True)
        return 1
    if args.fail_under is not None:
        return _check_fail_under(console, rows, args.fail_under)
    return 0


def _print_skipped(console: Console, submitted: Path) -> None:
    """The folders of the submissions that are no student's: earlier outputs, and what operating
    systems and tools leave (``__MACOSX`` from a zip made on a Mac, ``.ipynb_checkpoints``)."""
    if not submitted.is_dir():
        return
    for folder in grading_output_folders(submitted):
        console.print(f"Skipped {folder}: it holds a grading run's outputs, not a student's work; move it out of"
                      " the submissions folder", markup=False, highlight=False, soft_wrap=True)
    litter = not_student_folders(submitted)
    if litter:
        listed = ", ".join(folder.name for folder in litter[:5]) + (" ..." if len(litter) > 5 else "")
        console.print(f"Skipped {len(litter)} folders that hold no student's work ({listed}): hidden folders and what"
                      " operating systems and archivers leave", markup=False, highlight=False, soft_wrap=True)


def _check_fail_under(console: Console, rows: list[GradedRow], percent: float) -> int:
    """Exit status 3 when a row scores below ``percent`` of its maximum, else 0."""
    below = [row for row in rows if row.score < percent / 100 * row.max_score]
    if not below:
        return 0
    listed = ", ".join(f"{row.student_id}/{row.assignment_id} ({row.score:g}/{row.max_score:g})" for row in below[:10])
    more = f" and {len(below) - 10} more" if len(below) > 10 else ""
    console.print(f"--fail-under {percent:g}: {len(below)} of {len(rows)} scored below {percent:g} %: {listed}{more}",
                  markup=False, highlight=False, soft_wrap=True)
    return 3


def _doctor(args: argparse.Namespace, console: Console) -> int:
    from autograder.grading.doctor import State, diagnose

    if args.jobs < 1 or args.timeout <= 0 or args.memory_gib <= 0:
        console.print("--jobs, --timeout and --memory-gib must be positive.")
        return 2
    options = GradeOptions(jobs=args.jobs, timeout=args.timeout, device=args.device,
                           memory_bytes=int(args.memory_gib * 2**30))
    console.print("Checking this machine, then running grade's start-up checks and canaries (a few seconds)...")
    diagnosis = diagnose(options, [args.assignment] if args.assignment else None)
    colours = {State.OK: "green", State.WARNING: "yellow", State.PROBLEM: "red"}
    for check in diagnosis.checks:  # a line each, so that logs and terminals show it whole
        state = f"[{colours[check.state]}]{check.state.value:>7}[/]"
        console.print(f"{state}  {escape(check.name)}: {escape(check.detail)}", soft_wrap=True, highlight=False)
    console.print(f"[{'green' if diagnosis.would_grade else 'red'}]{escape(diagnosis.verdict)}[/]", soft_wrap=True)
    return 0 if diagnosis.would_grade else 1


def _report(args: argparse.Namespace, console: Console) -> int:
    from autograder.feedback.report import write_report  # matplotlib is imported only for this command

    try:
        path = write_report(args.out)
    except OutputsError as error:
        console.print(str(error), markup=False, soft_wrap=True)
        return 2
    console.print(f"Wrote {path}", highlight=False, soft_wrap=True)
    return 0


def _similarity(args: argparse.Namespace, console: Console) -> int:
    # copydetect and numpy are imported only for this command
    from autograder.feedback.similarity_page import write_similarity_page
    from autograder.term.similarity import SimilarityError, class_similarity

    if args.pairs < 1:
        console.print("--pairs must be at least 1.")
        return 2
    try:
        read_outputs(args.out)  # a finished grading run, with its answers
        assignments = class_similarity(args.out, args.pairs)
    except (OutputsError, SimilarityError) as error:
        console.print(str(error), markup=False, soft_wrap=True)
        return 2
    path = write_similarity_page(args.out, assignments)
    for assignment in assignments:
        top = ", ".join(f"{pair.first} and {pair.second} ({100 * pair.similarity:.0f} %)"
                        for pair in assignment.pairs[:3]) or "no shared code beyond the starter code"
        given = "".join(f"; {found.student_id} holds {100 * found.given_share:.0f} % of the code given in"
                        f" {found.given_in}" for found in assignment.given_code)
        console.print(f"{assignment.assignment_id}: {assignment.answers} answers, {assignment.compared} with code"
                      f" of their own; most alike: {top}{given}",
                      markup=False, highlight=False, soft_wrap=True)
    console.print(f"Wrote {path}: every listed pair side by side, the matching regions marked", markup=False,
                  highlight=False, soft_wrap=True)
    return 0


def _gradebook(args: argparse.Namespace, console: Console) -> int:
    try:
        extras.require("nbgrader", "python -m autograder gradebook")
    except extras.MissingExtra as missing:
        console.print(str(missing), markup=False, highlight=False, soft_wrap=True)
        return 2
    from autograder.platforms.nbgrader_gradebook import GradebookError, record_grades  # nbgrader loads slowly

    try:
        recorded = record_grades(read_outputs(args.out), args.course)
    except (OutputsError, GradebookError) as error:
        console.print(str(error), markup=False, soft_wrap=True)
        return 2
    console.print(f"Recorded {recorded.submissions} submissions of {recorded.students} students in"
                  f" {recorded.db_url}; formgrader and `nbgrader export` show them.", markup=False, highlight=False,
                  soft_wrap=True)
    return 0


def _merge(args: argparse.Namespace, console: Console) -> int:
    try:
        _output_folder(args.out)
        count = merge_shards(args.shards, args.out, command_line())
    except (MergeError, _BadPath, OutputFolderError) as error:
        console.print(f"Nothing merged: {error}", markup=False)
        return 2
    console.print(f"Merged {count} rows from {len(args.shards)} shards into {args.out}", markup=False, highlight=False)
    return 0


def _export(args: argparse.Namespace, console: Console) -> int:
    try:
        if args.output:
            _output_file(args.output, "--output")
        roster = read_roster(args.roster) if args.roster else None
        export = export_grades(read_outputs(args.out), Lms(args.lms), roster)
    except (OutputsError, RosterError, _BadPath) as error:
        console.print(str(error), markup=False)
        return 2
    path = args.output or args.out / f"{args.lms}_grades.csv"
    write_atomically(path, export.text)
    console.print(f"Wrote {path}", markup=False, highlight=False)
    if export.not_in_roster:
        console.print(f"Not in the roster, so left out: {len(export.not_in_roster)} graded students"
                      f" ({', '.join(export.not_in_roster)}); add them to the roster and export again.", markup=False)
    if export.without_submission:
        console.print(f"In the roster without a submission folder, so 0 for every notebook:"
                      f" {len(export.without_submission)} ({', '.join(export.without_submission)}).", markup=False)
    return 0


class _Stopped(BaseException):
    """SIGTERM (a CI job cancelled, a pod evicted): the run stops as it does on Ctrl-C."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise _Stopped


_COMMANDS = {"grade": _grade, "report": _report, "doctor": _doctor, "gradebook": _gradebook, "export": _export,
             "merge": _merge, "similarity": _similarity}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in SERVICE_COMMANDS:  # the submission service (autograder/service/)
        from autograder.service.commands import serve_main, service_main

        try:
            return (serve_main if argv[0] == "serve" else service_main)(argv[1:])
        except extras.MissingExtra as missing:
            print(missing, file=sys.stderr)
            return 2
    args = _parser().parse_args(argv)
    console = Console(file=sys.stdout, soft_wrap=True)  # piped output: long lines and paths stay whole
    signal.signal(signal.SIGTERM, _stop)
    try:
        return _COMMANDS[args.command](args, console)
    except (KeyboardInterrupt, _Stopped) as stop:
        how = "Interrupted" if isinstance(stop, KeyboardInterrupt) else "Stopped by SIGTERM"
        where = (f"; {args.out} keeps the files of the last run that finished, without grades.csv, and"
                 f" {args.out / FAILED_FILE} says so" if args.command in ("grade", "merge") else "")
        console.print(f"{how}: nothing was written{where}.", markup=False, highlight=False, soft_wrap=True)
        return 130 if isinstance(stop, KeyboardInterrupt) else 143
