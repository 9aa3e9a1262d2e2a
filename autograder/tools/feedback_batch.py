"""Measure the feedback on a batch of answers nobody here has seen: is each mistake named?

    python -m autograder.tools.feedback_batch BATCH [--out FOLDER] [--jobs N] [--grades REPORT]

``BATCH`` holds single-stage answer files (each the whole answer cell of one stage, as a student
writes it) and ``manifest.json``, a list of entries::

    {"file": "a.py", "stage": "masked_softmax", "assignment": "03_causal_attention",
     "correct": false, "mistake": "the mask is applied after the softmax"}

Each answer is put into the solution notebook of its assignment (every other stage stays the
reference's) and the whole batch is graded by the real grader, sandbox and canary included, as
``python -m autograder grade`` grades a class. The report (``report.md`` and ``report.json`` in
``--out``) shows per answer its score, whether its stage lost points, and for a mistake the
first failing test's English message and the mistake the grader named, beside the manifest's
description, so that a reader can judge it named, not named or misnamed; for a correct answer,
whether it earned full marks. The totals say how many mistakes were caught and how many got a
named mistake (the reader still judges whether the name is right), and how many correct answers
earned full marks.

Each answer also meets the public check a student runs in the notebook (``check("<stage>")``),
in a process of its own per assignment (``public_check``): the report gives whether it passed,
the mistake it named and its message, and how it compares with the grader (``check_verdict``):
it names the same mistake, states what it found (values, a shape, a row) without a name, is vague
(only the exception's own words and the stage's idea), or contradicts the grader (passes what
the grader fails, fails what it passes, or names a mistake the grader does not). ``--grades``
takes the grader's side from an earlier ``report.json`` of the same batch and runs only the check
(minutes instead of a grading run), to measure a change of the check alone.

A batch is measured as it comes, before it joins the kit's corpus (issue 35): the first
measurement is the honest one. Exit status 0 once the report is written, 2 for a batch that
cannot be read (the message says which entry and why), 1 when the grader itself failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from autograder.grading.engine import GradingError, grade_class
from autograder.grading.trust import GraderUntrusted
from autograder.notebooks.variants import load_solution, with_answer, write_submission
from autograder.records.jobs import GradeOptions
from autograder.records.results import GradedRow, ScoredTest
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.mistakes import MISTAKES
from autograder.tools.public_check import CheckOutcome, check_answers

MANIFEST = "manifest.json"


class BatchError(ValueError):
    """A batch that cannot be measured: the message names the entry and what is wrong."""


@dataclass(frozen=True)
class BatchEntry:
    """One answer of the batch, as its manifest describes it."""

    file: str
    stage: str
    assignment: str
    correct: bool
    mistake: str  # the writer's words for the mistake ("" for a correct answer)
    source: str
    prefix: str = ""  # set when several batches are graded in one run: their names stay apart

    @property
    def student_id(self) -> str:
        """The answer's folder name in the graded tree: its file name, made safe."""
        stem = self.prefix + Path(self.file).stem
        return "".join(char if char.isalnum() or char in "-_" else "_" for char in stem) or "answer"


@dataclass(frozen=True)
class CaseReport:
    """What the grader made of one answer."""

    file: str
    stage: str
    correct: bool
    description: str
    score: float
    max_score: float
    stage_points: float
    stage_max_points: float
    full_marks: bool
    caught: bool  # the answer's stage lost points
    first_failure: str  # the first failing test of the stage: its name and English message
    named: list[str]  # the mistake ids the feedback names on the stage
    named_text: str  # their words, as the student reads them
    lost_elsewhere: list[str]  # other stages that lost points (a correct answer should have none)
    also_said: list[str] = field(default_factory=list)  # its other failing tests and notes, as said
    check_passed: bool | None = None  # the public check's outcome (None: not run)
    check_mistake: str | None = None  # the mistake it named
    check_message: str = ""
    check_verdict: str = ""  # beside the grader: one of VERDICTS


def read_batch(folder: Path, prefix: str = "") -> list[BatchEntry]:
    """The entries of ``folder/manifest.json``, each with its answer's source (``prefix``: put
    before each answer's name, to grade several batches in one run)."""
    manifest = folder / MANIFEST
    try:
        entries = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BatchError(f"{manifest} cannot be read as JSON: {error}") from None
    if not isinstance(entries, list) or not entries:
        raise BatchError(f"{manifest} must hold a non-empty list of entries")
    batch, names = [], set()
    for number, item in enumerate(entries, 1):
        where = f"{manifest}, entry {number}"
        if not isinstance(item, dict) or not all(isinstance(item.get(key), str) for key in ("file", "stage")):
            raise BatchError(f"{where}: needs \"file\" and \"stage\" as strings")
        stage = item["stage"]
        assignment = item.get("assignment") or next(
            (name for name, stages in STAGES_BY_ASSIGNMENT.items() if stage in stages), "")
        if stage not in STAGES_BY_ASSIGNMENT.get(assignment, []):
            raise BatchError(f"{where}: {stage!r} is not a stage of {assignment or 'any assignment'}")
        if not isinstance(item.get("correct"), bool):
            raise BatchError(f"{where}: \"correct\" must be true or false")
        path = folder / item["file"]
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as error:
            raise BatchError(f"{where}: {path} cannot be read ({error.strerror})") from None
        entry = BatchEntry(item["file"], stage, assignment, item["correct"], str(item.get("mistake") or ""), source,
                           prefix)
        if entry.student_id in names:
            raise BatchError(f"{where}: two answers share the name {entry.student_id!r}")
        names.add(entry.student_id)
        batch.append(entry)
    return batch


def _stage_points(row: GradedRow) -> dict[str, tuple[float, float]]:
    return {total.stage: (total.points, total.max_points) for total in row.stage_totals()}


def _also_said(tests: list[ScoredTest], first: ScoredTest | None) -> list[str]:
    """What the stage's page says besides its first failure: one message per other finding (a
    failing test's, or a passed test's note worth 0 points), the same finding of other cases once."""
    seen = {(first.finding.key, frozenset(first.finding.mistakes()))} if first is not None and first.finding else set()
    said = []
    for test in tests:
        if test.finding is None or test.waiting:
            continue
        found = (test.finding.key, frozenset(test.finding.mistakes()))
        if found not in seen:
            seen.add(found)
            said.append(test.message())
    return said


def case_report(entry: BatchEntry, row: GradedRow, solution: GradedRow) -> CaseReport:
    """Compare an answer's row with the solution's: what its stage lost, and what was said."""
    points, full = _stage_points(row), _stage_points(solution)
    stage_points, stage_max = points.get(entry.stage, (0.0, full.get(entry.stage, (0.0, 0.0))[1]))
    failing = [test for test in row.tests if test.stage == entry.stage and not test.passed]
    named = sorted(set().union(*(test.finding.mistakes() for test in failing if test.finding is not None)))
    first = f"{failing[0].name}: {failing[0].message()}" if failing else ""
    said = _also_said([test for test in row.tests if test.stage == entry.stage], failing[0] if failing else None)
    if not row.graded:
        first = f"not graded: {row.status_text()}"
    lost_elsewhere = sorted(stage for stage, (earned, _) in points.items()
                            if stage != entry.stage and earned < full.get(stage, (earned, 0.0))[0])
    return CaseReport(entry.file, entry.stage, entry.correct, entry.mistake, row.score, row.max_score, stage_points,
                      stage_max, row.score == row.max_score, stage_points < stage_max, first, named,
                      " | ".join(MISTAKES.get(mistake, mistake) for mistake in named), lost_elsewhere, said)


SOLUTION_ID = "__solution__"
# The public check of one assignment's answers runs in one process; it may take this long per answer.
CHECK_TIMEOUT_PER_ANSWER_S = 90


# How the public check's outcome compares with the grader's on one answer: both pass it; it names
# a mistake the grader names too; it fails the answer with what it found, naming nothing; only an
# exception's words (or "not implemented"); the three contradictions; it did not finish.
VERDICTS = ("agrees", "names", "states", "vague", "passes_what_the_grader_fails", "fails_what_the_grader_passes",
            "names_another_mistake", "no_result")
CONTRADICTIONS = VERDICTS[4:7]


def check_verdict(case: CaseReport, outcome: CheckOutcome) -> str:
    """How the public check's outcome compares with the grader's finding on the same answer (one
    of ``VERDICTS``)."""
    if outcome.finding in ("timeout", "no_result"):
        return "no_result"
    if not case.caught:
        return "agrees" if outcome.passed else "fails_what_the_grader_passes"
    if outcome.passed:
        return "passes_what_the_grader_fails"
    if outcome.mistake is not None:
        return "names" if outcome.mistake in case.named else "names_another_mistake"
    return "vague" if outcome.finding in ("raised", "not_implemented") else "states"


def with_check(case: CaseReport, outcome: CheckOutcome) -> CaseReport:
    return replace(case, check_passed=outcome.passed, check_mistake=outcome.mistake, check_message=outcome.message,
                   check_verdict=check_verdict(case, outcome))


def check_batch(batch: list[BatchEntry], jobs: int) -> list[CheckOutcome]:
    """The public check's outcome on every answer, one process per assignment, ``jobs`` at a time."""
    by_assignment: dict[str, list[int]] = {}
    for number, entry in enumerate(batch):
        by_assignment.setdefault(entry.assignment, []).append(number)

    def run(numbers: list[int]) -> list[CheckOutcome]:
        answers = [{"assignment": batch[n].assignment, "stage": batch[n].stage, "source": batch[n].source}
                   for n in numbers]
        return check_answers(answers, CHECK_TIMEOUT_PER_ANSWER_S * len(numbers))

    outcomes: list[CheckOutcome | None] = [None] * len(batch)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for numbers, found in zip(by_assignment.values(), pool.map(run, by_assignment.values()), strict=True):
            for number, outcome in zip(numbers, found, strict=True):
                outcomes[number] = outcome
    return outcomes


def earlier_grades(report: Path, batch: list[BatchEntry]) -> list[CaseReport]:
    """The grader's side of an earlier report of this batch, answer by answer."""
    try:
        cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
        graded = {case["file"]: CaseReport(**case) for case in cases}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BatchError(f"{report} cannot be read as a report of this tool: {error}") from None
    missing = [entry.file for entry in batch if entry.file not in graded]
    if missing:
        raise BatchError(f"{report} has no grade for {', '.join(missing[:5])}: grade the batch again")
    return [graded[entry.file] for entry in batch]


def grade_batch(batch: list[BatchEntry], out: Path, jobs: int) -> list[CaseReport]:
    """Grade every answer of the batch in its assignment's solution notebook, with the solutions
    themselves as the yardstick of full marks, and run the public check on it."""
    rows = graded_rows(batch, out, jobs)
    cases = [case_report(entry, rows[(entry.student_id, entry.assignment)], rows[(SOLUTION_ID, entry.assignment)])
             for entry in batch]
    return [with_check(case, outcome) for case, outcome in zip(cases, check_batch(batch, jobs), strict=True)]


def graded_rows(batch: list[BatchEntry], out: Path, jobs: int) -> dict[tuple[str, str], GradedRow]:
    """The graded row of every answer, and of each assignment's solution (student ``SOLUTION_ID``),
    by (student, assignment); the grader's outputs are kept in ``out/graded``."""
    with tempfile.TemporaryDirectory(prefix="feedback-batch-") as scratch:
        submitted = Path(scratch) / "submitted"
        assignments = sorted({entry.assignment for entry in batch})
        for assignment in assignments:
            write_submission(submitted, SOLUTION_ID, assignment, load_solution(assignment))
        for entry in batch:
            notebook = with_answer(load_solution(entry.assignment), entry.stage, entry.source)
            write_submission(submitted, entry.student_id, entry.assignment, notebook)
        rows = grade_class(submitted, out / "graded", GradeOptions(jobs=jobs))
    return {(row.student_id, row.assignment_id): row for row in rows}


def totals(cases: list[CaseReport]) -> dict[str, int]:
    """The batch's figures: mistakes caught and named (a name still to be judged right), correct
    answers at full marks."""
    mistakes = [case for case in cases if not case.correct]
    correct = [case for case in cases if case.correct]
    caught = [case for case in cases if case.caught]
    verdicts = Counter(case.check_verdict for case in cases)
    return {"mistakes": len(mistakes), "caught": sum(case.caught for case in mistakes),
            "with_a_named_mistake": sum(bool(case.named) for case in mistakes),
            "correct": len(correct), "correct_at_full_marks": sum(case.full_marks for case in correct),
            "check_on_caught": len(caught), "check_names": verdicts["names"], "check_states": verdicts["states"],
            "check_vague": verdicts["vague"], "check_contradicts": sum(verdicts[name] for name in CONTRADICTIONS),
            **{f"check_{name}": verdicts[name] for name in CONTRADICTIONS},
            "check_no_result": verdicts["no_result"], "grader_names": sum(bool(case.named) for case in caught)}


def check_summary(figures: dict[str, int]) -> str:
    """The public check beside the grader, in one sentence."""
    caught = figures["check_on_caught"]
    said = figures["check_names"] + figures["check_states"]
    share = f"{100 * said / caught:.0f} %" if caught else "-"
    return (f"The public check names or states {share} of what the grader does ({said} of {caught} answers the"
            f" grader fails: {figures['check_names']} named, where the grader names {figures['grader_names']};"
            f" {figures['check_states']} stated; {figures['check_vague']} vague) and contradicts it on"
            f" {figures['check_contradicts']} (passes what the grader fails:"
            f" {figures['check_passes_what_the_grader_fails']}; fails what it passes:"
            f" {figures['check_fails_what_the_grader_passes']}; names another mistake:"
            f" {figures['check_names_another_mistake']}; no result: {figures['check_no_result']}).")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _check_cell(case: CaseReport) -> str:
    if case.check_passed is None:
        return ""
    named = f"[{case.check_mistake}] " if case.check_mistake else ""
    return named + case.check_message


def report_markdown(cases: list[CaseReport]) -> str:
    figures = totals(cases)
    lines = ["# Feedback on a fresh batch", "",
             f"Mistakes: {figures['mistakes']}; caught (their stage lost points): {figures['caught']}; with a named"
             f" mistake: {figures['with_a_named_mistake']} (judge each below: named, not named or misnamed).",
             f"Correct answers: {figures['correct']}; at full marks: {figures['correct_at_full_marks']}.", "",
             check_summary(figures), "",
             "| file | stage | correct | score | stage points | the writer's mistake | first failing test |"
             " also said on the stage | named mistake | public check | beside the grader | verdict |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for case in cases:
        named = ", ".join(case.named) + (f": {case.named_text}" if case.named else "")
        lost = f" (also lost: {', '.join(case.lost_elsewhere)})" if case.lost_elsewhere else ""
        lines.append(f"| {_cell(case.file)} | {case.stage} | {'yes' if case.correct else 'no'} | {case.score:g} /"
                     f" {case.max_score:g} | {case.stage_points:g} / {case.stage_max_points:g}{lost} |"
                     f" {_cell(case.description)} | {_cell(case.first_failure)} | {_cell(' / '.join(case.also_said))} |"
                     f" {_cell(named)} |"
                     f" {_cell(_check_cell(case))} | {case.check_verdict} | |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.tools.feedback_batch",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("batch", type=Path, help=f"a folder of answer files and {MANIFEST}")
    parser.add_argument("--out", type=Path, default=None, help="where the report goes (default: BATCH/measured)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    parser.add_argument("--grades", type=Path, default=None,
                        help="an earlier report.json of this batch: its grades are reused, only the check runs")
    args = parser.parse_args(argv)
    out = args.out or args.batch / "measured"
    try:
        batch = read_batch(args.batch)
        earlier = earlier_grades(args.grades, batch) if args.grades else None
    except BatchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    try:
        if earlier is None:
            cases = grade_batch(batch, out, args.jobs)
        else:
            outcomes = check_batch(batch, args.jobs)
            cases = [with_check(case, outcome) for case, outcome in zip(earlier, outcomes, strict=True)]
    except (GradingError, GraderUntrusted) as error:
        print(f"The grader itself failed, so nothing was measured: {error}", file=sys.stderr)
        return 1
    (out / "report.md").write_text(report_markdown(cases), encoding="utf-8")
    (out / "report.json").write_text(json.dumps({"totals": totals(cases), "cases": [asdict(case) for case in cases]},
                                                indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    figures = totals(cases)
    print(f"mistakes {figures['mistakes']}: caught {figures['caught']}, with a named mistake"
          f" {figures['with_a_named_mistake']}; correct answers {figures['correct']}: at full marks"
          f" {figures['correct_at_full_marks']}; report in {out / 'report.md'}")
    print(check_summary(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
