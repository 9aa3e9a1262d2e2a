"""The class report: ``python -m autograder report <out>`` writes ``<out>/report.html``.

One self-contained page for the instructor (the plots are embedded PNG images): a score
histogram per notebook, the pass rate of every stage, the named mistakes that came up most
often, how far into the hints the class went per stage (the highest tier each student opened),
what the class predicted before each demo (how many predicted what, against what the demo
measured), and what each student wrote under each "Think about it" question, to read in class
(as text: it is the students'). A stage counts as passed by a submission when all its hidden tests
passed; a named mistake is one that a failed test's finding names. The page is the instructor's,
in English.
"""

from __future__ import annotations

import base64
import io
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from autograder.course.predictions import outcomes as prediction_outcomes
from autograder.feedback.page import templates
from autograder.findings.render import mistake_texts
from autograder.records.files import read_outputs, write_atomically
from autograder.records.results import GradedRow, ordered_assignments
from autograder.student import think_about_it
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.student.predictions import answer_text, questions_of

TOP_MISTAKES = 10
_HISTOGRAM_BINS = list(range(0, 101, 10))



@dataclass
class StagePassRate:
    """How many of the graded submissions passed every hidden test of one stage."""

    assignment_id: str
    stage: str
    passed: int
    graded: int

    @property
    def rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0


@dataclass
class MistakeCount:
    """A named mistake, how many submissions made it, and in which stages."""

    mistake_id: str
    text: str
    submissions: int
    stages: list[str] = field(default_factory=list)


def _percent(row: GradedRow) -> float:
    return 100 * row.score / row.max_score if row.max_score > 0 else 0.0


def _assignments(rows: list[GradedRow]) -> list[str]:
    return ordered_assignments(row.assignment_id for row in rows)


def stage_pass_rates(rows: list[GradedRow]) -> list[StagePassRate]:
    """For each stage that was tested, how many graded submissions passed all its tests."""
    rates = []
    for assignment_id in _assignments(rows):
        totals = [total for row in rows if row.assignment_id == assignment_id and row.graded
                  for total in row.stage_totals()]
        for stage in STAGES_BY_ASSIGNMENT.get(assignment_id, []):
            passed = [total.all_passed for total in totals if total.stage == stage]
            if passed:
                rates.append(StagePassRate(assignment_id, stage, sum(passed), len(passed)))
    return rates


def common_mistakes(rows: list[GradedRow], limit: int = TOP_MISTAKES) -> list[MistakeCount]:
    """The named mistakes made by the most submissions (each submission counted once per mistake)."""
    submissions: Counter[str] = Counter()
    stages: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        found: set[str] = set()
        for test in row.tests:
            for mistake_id in test.finding.mistakes() if test.finding and not test.passed else ():
                found.add(mistake_id)
                stages[mistake_id].add(test.stage)
        submissions.update(found)
    ranked = sorted(submissions.items(), key=lambda item: (-item[1], item[0]))[:limit]
    texts = mistake_texts("en")
    return [MistakeCount(mistake_id, texts.get(mistake_id, mistake_id), count, sorted(stages[mistake_id]))
            for mistake_id, count in ranked]


@dataclass
class HintUseRow:
    """For one stage, how many graded submissions opened at most each hint tier."""

    assignment_id: str
    stage: str
    graded: int
    by_tier: dict[int, int]  # tier (1 to 3) -> submissions whose highest tier it was

    @property
    def none(self) -> int:
        return self.graded - sum(self.by_tier.values())


def hint_use(rows: list[GradedRow]) -> list[HintUseRow]:
    """Per stage of every graded notebook, the highest hint tier each submission opened."""
    found = []
    for assignment_id in _assignments(rows):
        graded = [row for row in rows if row.assignment_id == assignment_id and row.graded]
        for stage in STAGES_BY_ASSIGNMENT.get(assignment_id, []):
            tiers = Counter(row.hint_tier(stage) for row in graded)
            if graded:
                found.append(HintUseRow(assignment_id, stage, len(graded), {tier: tiers[tier] for tier in (1, 2, 3)}))
    return found


@dataclass
class PredictionSummary:
    """What the class predicted for one question: per field, how many wrote what."""

    question: str
    assignment_id: str
    measured: str
    asked: int  # graded submissions holding a predict(...) for it
    answered: int  # of those, with a well-formed answer
    right: int
    fields: list[tuple[str, list[tuple[str, int, bool]]]]  # field -> (answer or range, count, holds the outcome)


def _number_bins(values: list[float], outcome: float) -> list[tuple[str, int, bool]]:
    """Answers to a number field in ten bins between the smallest and the largest answer (and the
    outcome); each bin says whether the outcome lies in it."""
    low, high = min([*values, outcome]), max([*values, outcome])
    if high == low:
        return [(f"{low:g}", len(values), True)]
    width = (high - low) / 10
    counts = Counter(min(int((value - low) / width), 9) for value in values)
    outcome_bin = min(int((outcome - low) / width), 9)
    return [(f"{low + index * width:.3g} to {low + (index + 1) * width:.3g}", counts[index], index == outcome_bin)
            for index in range(10) if counts[index] or index == outcome_bin]


def prediction_summaries(rows: list[GradedRow]) -> list[PredictionSummary]:
    """For every question of a graded notebook, what the class predicted."""
    summaries = []
    for assignment_id in _assignments(rows):
        graded = [row for row in rows if row.assignment_id == assignment_id and row.graded]
        for question in questions_of(assignment_id):
            results = [p for row in graded for p in row.predictions if p.question == question.id]
            answers = [p.answer for p in results if p.answer is not None]
            outcome = prediction_outcomes()[question.id]
            fields = []
            for asked in question.fields:
                values = [answer[asked.name] for answer in answers if asked.name in answer]
                if asked.is_choice:
                    counts = Counter(values)
                    listed = [(repr(choice), counts[choice], choice == outcome[asked.name]) for choice in asked.choices]
                else:
                    listed = _number_bins([float(value) for value in values], float(outcome[asked.name])) \
                        if values else []
                fields.append((asked.name, listed))
            summaries.append(PredictionSummary(
                question.id, assignment_id, answer_text(question, outcome), sum(p.asked for p in results),
                len(answers), sum(p.correct for p in results), fields))
    return summaries


@dataclass
class ThinkAnswers:
    """What the graded submissions wrote under one think-about-it question: each student's answer,
    by student id (an unanswered question is left out)."""

    question: think_about_it.Question
    graded: int
    answers: list[tuple[str, str]]  # (student id, answer)


def think_answers(rows: list[GradedRow]) -> list[ThinkAnswers]:
    """For every think-about-it question of a graded notebook, in notebook order, the answers written."""
    found = []
    for assignment_id in _assignments(rows):
        graded = sorted((row for row in rows if row.assignment_id == assignment_id and row.graded),
                        key=lambda row: row.student_id)
        if not graded:
            continue
        for question in think_about_it.questions_of(assignment_id):
            answers = [(row.student_id, answer.text) for row in graded for answer in row.think_answers
                       if answer.question == question.id]
            found.append(ThinkAnswers(question, len(graded), answers))
    return found


def _png(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_histogram(rows: list[GradedRow]) -> str:
    """One histogram of score percentages per notebook, side by side, as a base64 PNG."""
    assignments = _assignments(rows)
    figure = Figure(figsize=(3.2 * len(assignments) + 0.6, 3.0), layout="constrained")
    axes = figure.subplots(1, len(assignments), sharey=True, squeeze=False)[0]
    for axis, assignment_id in zip(axes, assignments, strict=True):
        scores = [_percent(row) for row in rows if row.assignment_id == assignment_id]
        axis.hist(scores, bins=_HISTOGRAM_BINS, color="#4c72b0", edgecolor="white")
        axis.set_title(assignment_id, fontsize=9)
        axis.set_xlabel("score (% of the maximum)")
        axis.set_xlim(0, 100)
        axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0].set_ylabel("submissions")
    return _png(figure)


def pass_rate_chart(rates: list[StagePassRate]) -> str:
    """A horizontal bar per stage, its share of graded submissions passing it, as a base64 PNG."""
    figure = Figure(figsize=(7.0, 0.28 * len(rates) + 1.0), layout="constrained")
    axis = figure.subplots()
    palette = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"]
    colours = {a: palette[i % len(palette)] for i, a in enumerate(dict.fromkeys(r.assignment_id for r in rates))}
    positions = list(range(len(rates)))[::-1]  # the first stage on top
    axis.barh(positions, [100 * r.rate for r in rates], color=[colours[r.assignment_id] for r in rates])
    axis.set_yticks(positions, [r.stage for r in rates], fontsize=8)
    axis.set_xlim(0, 100)
    axis.set_xlabel("graded submissions passing every hidden test of the stage (%)")
    return _png(figure)


def report_html(rows: list[GradedRow]) -> str:
    """The whole report page for these rows."""
    summaries = []
    for assignment_id in _assignments(rows):
        group = [row for row in rows if row.assignment_id == assignment_id]
        percents = [_percent(row) for row in group]
        summaries.append({
            "assignment_id": assignment_id,
            "submissions": len(group),
            "graded": sum(row.graded for row in group),
            "not_graded": Counter(row.status.kind.value for row in group if not row.graded),
            "mean": statistics.fmean(percents),
            "median": statistics.median(percents),
        })
    rates = stage_pass_rates(rows)
    return templates.get_template("report.html.j2").render(
        students=len({row.student_id for row in rows}),
        summaries=summaries,
        histogram=score_histogram(rows) if rows else None,
        pass_rates=pass_rate_chart(rates) if rates else None,
        mistakes=common_mistakes(rows),
        hints=hint_use(rows),
        predictions=prediction_summaries(rows),
        think_answers=think_answers(rows),
    )


def write_report(out: Path) -> Path:
    """Write ``<out>/report.html`` from the grading outputs in ``out``; returns its path."""
    path = out / "report.html"
    write_atomically(path, report_html(read_outputs(out)))
    return path
