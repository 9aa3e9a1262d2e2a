"""The typed records of a grading run: a scored test and a graded row, serialised in one place.

A ``GradedRow`` is one row of grades.csv and one results JSON: its status (a kind, and the
detail of what went wrong), its score, its scored tests and the findings of its loading
problems. Every output (grades.csv, results JSON, feedback pages, the report, platforms) is
made from these records, and ``from_json`` reads a results file back. Per-stage totals and the
order of rows are computed here once. This module does not import torch: reading results is cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from autograder.findings.finding import Finding, FindingFormatError
from autograder.findings.render import render
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT
from autograder.student.language import DEFAULT_LANGUAGE
from autograder.worker.compat import StrEnum
from autograder.worker.isolation import GuaranteeReport, Isolation
from autograder.worker.text import clean_text

# The first five columns are the contract scripts rely on; the term's columns come after them.
CSV_COLUMNS = ["student_id", "assignment_id", "score", "max_score", "status", "submitted_at", "late_penalty"]
# The finding of a behaviour check that passed but waits for its stage's values (grading/dependencies.py).
WAITING_KEY = "counts_with_values"
# The command-line flag that grades although student code could read the secrets: its name says so.
UNSAFE_FLAG = "--unsafe-let-students-read-solutions"


class ResultsFormatError(ValueError):
    """A stored results record that this kit cannot read; the message says what is wrong."""


class TestStatus(StrEnum):
    """How one hidden test instance ended for one submission."""

    __test__ = False  # not a pytest test class

    PASSED = "passed"
    FAILED = "failed"  # a hidden check found a wrong answer
    ERROR = "error"  # the student's code raised, or its worker stopped
    TIMEOUT = "timeout"  # the student's code ran out of time (or the test was not run for it)


class RowKind(StrEnum):
    """What became of one (student, assignment) pair."""

    GRADED = "graded"
    MISSING = "missing"
    MISNAMED = "misnamed"
    UNREADABLE = "unreadable"
    ERROR = "error"  # the grader could not finish this row (its files could not be written, say)


@dataclass(frozen=True)
class RowStatus:
    """The kind of a row and, for rows that could not be graded, what was found instead."""

    kind: RowKind
    detail: str = ""

    def text(self) -> str:
        """As grades.csv writes it: ``missing``, ``misnamed: found ...; expected ...``."""
        return f"{self.kind.value}: {self.detail}" if self.detail else self.kind.value

    @classmethod
    def parse(cls, text: str) -> RowStatus:
        """The status of a grades.csv row (``graded (weaker isolation: ...)`` counts as graded)."""
        head, _, detail = text.partition(":")
        kind = head.split(" (", 1)[0].strip()
        try:
            return cls(RowKind(kind), detail.strip() if kind != RowKind.GRADED else "")
        except ValueError:
            raise ResultsFormatError(f"unknown status {text!r}") from None


# The behaviour under which a cap on a stage that misses its purpose records what it took
# (``autograder.grading.purpose``).
PURPOSE = "purpose"


@dataclass(frozen=True)
class BehaviourLoss:
    """Points a failed test lost to one wrong behaviour of its stage, the rest of them kept
    (``autograder.grading.partial_credit``)."""

    behaviour: str
    points: float

    def to_json(self) -> dict:
        return {"behaviour": self.behaviour, "points": self.points}

    @classmethod
    def from_json(cls, data: dict) -> BehaviourLoss:
        return cls(str(data["behaviour"]), float(data["points"]))


@dataclass(frozen=True)
class ScoredTest:
    """One hidden test instance of one submission, with its share of the points."""

    __test__ = False  # not a pytest test class

    name: str
    stage: str
    points: float
    max_points: float
    status: TestStatus
    finding: Finding | None = None  # what the test found; for a passed test, a note (or None)
    largest_difference: float | None = None  # the largest |answer - reference| its comparisons met
    # A failure pinned to behaviours of its stage: what each cost (empty: it lost all, or passed);
    # or, under the behaviour ``purpose``, what a cap on a stage that misses its purpose took.
    lost_to: tuple[BehaviourLoss, ...] = ()

    @property
    def passed(self) -> bool:
        return self.status is TestStatus.PASSED

    @property
    def waiting(self) -> bool:
        """A behaviour check that passed but counts only once its stage's values are right."""
        return self.finding is not None and self.finding.key == WAITING_KEY

    def message(self, language: str = DEFAULT_LANGUAGE) -> str:
        return render(self.finding, language) if self.finding else ""

    def to_json(self) -> dict:
        data = {"name": self.name, "stage": self.stage, "points": self.points, "max_points": self.max_points,
                "status": self.status.value, "message": self.message()}
        if self.finding is not None:
            data["finding"] = self.finding.to_json()
        if self.largest_difference is not None:
            data["largest_difference"] = self.largest_difference
        if self.lost_to:
            data["lost_to"] = [loss.to_json() for loss in self.lost_to]
        return data

    @classmethod
    def from_json(cls, data: dict) -> ScoredTest:
        found = data.get("finding")
        difference = data.get("largest_difference")
        return cls(str(data["name"]), str(data["stage"]), float(data["points"]), float(data["max_points"]),
                   TestStatus(data["status"]), Finding.from_json(found) if found is not None else None,
                   float(difference) if difference is not None else None,
                   tuple(BehaviourLoss.from_json(loss) for loss in data.get("lost_to", [])))


@dataclass(frozen=True)
class StageTotal:
    """A stage's tests in one row: how many passed, and the points earned of those possible."""

    stage: str
    passed: int
    total: int
    points: float
    max_points: float
    waiting: int = 0  # behaviour checks that passed, counted once the stage's values are right
    lost_to: tuple[BehaviourLoss, ...] = ()  # points lost to each wrong behaviour, the rest kept

    @property
    def all_passed(self) -> bool:
        return self.passed == self.total


@dataclass(frozen=True)
class RunTrust:
    """What every graded row of a run carries about the run itself (``autograder.grading.trust``)."""

    guarantees: GuaranteeReport | None  # None: no sandbox was used (the benchmark's floor)
    secrets_exposed: bool = False  # graded although student code could read the secrets (the unsafe flag)


@dataclass(frozen=True)
class SubmissionTime:
    """When a notebook was submitted (nbgrader's ``timestamp.txt``) against its due date
    (``grade --due``), and the points lateness cost (``autograder.term.lateness``)."""

    submitted_at: str | None = None  # ISO-8601 in UTC; None when the time is unknown
    problem: str | None = None  # why it is unknown: a key of TIMESTAMP_PROBLEMS
    due: str | None = None  # ISO-8601, with the offset it was given in; None: no due date
    days_late: int = 0  # days or parts of a day after ``due`` (0 when on time or the time is unknown)
    penalty: float = 0.0  # points taken for lateness

    def to_json(self) -> dict:
        return {"submitted_at": self.submitted_at, "timestamp_problem": self.problem, "due": self.due,
                "days_late": self.days_late, "late_penalty": self.penalty}

    @classmethod
    def from_json(cls, data: dict) -> SubmissionTime:
        return cls(data.get("submitted_at"), data.get("timestamp_problem"), data.get("due"),
                   int(data.get("days_late", 0)), float(data.get("late_penalty", 0.0)))


# Why a submission's time is unknown, as grades.csv's status says it (the feedback page translates it).
TIMESTAMP_PROBLEMS = {
    "missing": "no timestamp.txt",
    "unreadable": "timestamp.txt unreadable",
    "unparsable": "timestamp.txt holds no time",
}


@dataclass(frozen=True)
class Adjustment:
    """Points added to (or, when negative, taken from) a row after grading, and why (``--adjustments``)."""

    points: float
    reason: str

    def to_json(self) -> dict:
        return {"points": self.points, "reason": self.reason}

    @classmethod
    def from_json(cls, data: dict) -> Adjustment:
        return cls(float(data["points"]), str(data["reason"]))


@dataclass(frozen=True)
class HintUse:
    """The highest hint tier a student opened for a stage (1 the idea, 2 the functions, 3 code):
    reported for the instructor, never scored."""

    stage: str
    tier: int


@dataclass(frozen=True)
class HintCharge:
    """Points taken for the hints of a stage (``autograder.records.hint_charges``): the highest
    tier opened, its price, and what was charged, the price or, when the stage earned less, what
    it earned (a charge never takes points the student did not earn)."""

    stage: str
    tier: int
    points: float
    price: float

    @property
    def capped(self) -> bool:
        """Whether the stage earned less than the price, and so only that was charged."""
        return self.points < self.price

    def to_json(self) -> dict:
        return {"stage": self.stage, "tier": self.tier, "points": self.points, "price": self.price}

    @classmethod
    def from_json(cls, data: dict) -> HintCharge:
        return cls(str(data["stage"]), int(data["tier"]), float(data["points"]), float(data["price"]))


@dataclass(frozen=True)
class PredictionResult:
    """A question the notebook asks before a demo: what the student predicted (None: no
    well-formed answer), whether the notebook holds a ``predict`` call for it at all, whether the
    answer held, and its points (none unless the rubric gives some)."""

    question: str
    answer: dict | None
    asked: bool
    correct: bool
    points: float = 0.0
    max_points: float = 0.0

    def to_json(self) -> dict:
        return {"question": self.question, "answer": self.answer, "asked": self.asked, "correct": self.correct,
                "points": self.points, "max_points": self.max_points}

    @classmethod
    def from_json(cls, data: dict) -> PredictionResult:
        answer = data.get("answer")
        return cls(str(data["question"]), dict(answer) if isinstance(answer, dict) else None, bool(data["asked"]),
                   bool(data["correct"]), float(data.get("points", 0.0)), float(data.get("max_points", 0.0)))


@dataclass(frozen=True)
class ThinkAnswer:
    """What a student wrote under a "Think about it" question (``autograder.student.think_about_it``):
    for the instructor to read, never scored."""

    question: str
    text: str


@dataclass(frozen=True)
class GradedRow:
    """One (student, assignment) row: grades.csv's line and the results JSON's content."""

    student_id: str
    assignment_id: str
    status: RowStatus
    score: float
    max_score: float
    tests: tuple[ScoredTest, ...] = ()
    load_problems: tuple[Finding, ...] = ()
    isolation: Isolation | None = None  # how the worker was confined (None: no worker ran)
    language: str = DEFAULT_LANGUAGE  # the notebook's language: its feedback's, never its results'
    trust: RunTrust | None = None  # what the run proved before grading
    notes: tuple[Finding, ...] = ()  # how the notebook was read (the grading contract at work)
    devices: tuple[str, ...] = ()  # where the run's hidden tests ran ("cpu", "cuda"); () when none ran
    submission_time: SubmissionTime | None = None  # None: not looked at (rows made before the term applies)
    adjustments: tuple[Adjustment, ...] = ()
    hints: tuple[HintUse, ...] = ()  # the hint tiers opened, in stage order
    hint_charges: tuple[HintCharge, ...] = ()  # what the hints cost, in stage order (none unless one is set)
    predictions: tuple[PredictionResult, ...] = ()  # every question of the notebook, judged
    think_answers: tuple[ThinkAnswer, ...] = ()  # the think-about-it questions answered, in notebook order
    float32_settings: Mapping[str, str] = field(default_factory=dict)  # what the references ran under

    @property
    def graded(self) -> bool:
        return self.status.kind is RowKind.GRADED

    @property
    def weaker_isolation(self) -> bool:
        return self.isolation is not None and not self.isolation.full

    @property
    def tests_score(self) -> float:
        """The points the hidden tests gave, before any late penalty or adjustment."""
        return round(sum(test.points for test in self.tests), 2)

    @property
    def predictions_score(self) -> float:
        """The points right predictions earned (none unless the rubric gives some)."""
        return round(sum(prediction.points for prediction in self.predictions), 2)

    @property
    def hint_charge(self) -> float:
        """The points the hints cost (none unless the rubric or the service's policy sets a charge)."""
        return round(sum(charge.points for charge in self.hint_charges), 2)

    @property
    def before_term(self) -> float:
        """The points earned before the term: the hidden tests', the predictions', less the hints' charge."""
        return round(self.tests_score + self.predictions_score - self.hint_charge, 2)

    def hint_tier(self, stage: str) -> int:
        """The highest hint tier opened for ``stage`` (0: none)."""
        return next((use.tier for use in self.hints if use.stage == stage), 0)

    def _time_note(self) -> str | None:
        """A graded row with a due date whose submission time is unknown is counted as on time, and says so."""
        time = self.submission_time
        if time is None or time.due is None or time.problem is None:
            return None
        return f"{TIMESTAMP_PROBLEMS.get(time.problem, time.problem)}: counted as on time"

    def status_text(self) -> str:
        """The status column of grades.csv, short: ``graded`` alone means full isolation with every
        guarantee proved; otherwise a graded row says what was weaker (the isolation itself is in
        the results file and the summary)."""
        if not self.graded:
            return self.status.text()
        notes = []
        guarantees = self.trust.guarantees if self.trust else None
        if self.weaker_isolation:
            notes.append("weaker isolation")
        if guarantees is not None and guarantees.broken:
            notes.append("does not hold: " + ", ".join(guarantee.value for guarantee, _ in guarantees.broken))
        if self.trust and self.trust.secrets_exposed:
            notes.append(f"graded with {UNSAFE_FLAG}")
        time_note = self._time_note()
        if time_note:
            notes.append(time_note)
        return f"graded ({'; '.join(notes)})" if notes else "graded"

    def csv_fields(self) -> list[str]:
        time = self.submission_time or SubmissionTime()
        return [self.student_id, self.assignment_id, _number(self.score), _number(self.max_score),
                self.status_text(), time.submitted_at or "", _number(time.penalty) if time.due else ""]

    def to_json(self) -> dict:
        """The results JSON document (messages in English, whatever the notebook's language)."""
        return {
            "student_id": self.student_id,
            "assignment_id": self.assignment_id,
            "status": self.status_text(),
            "score": self.score,
            "max_score": self.max_score,
            "devices": list(self.devices),
            **self._isolation_json(),
            "load_problems": [render(problem) for problem in self.load_problems],
            "load_problem_findings": [problem.to_json() for problem in self.load_problems],
            "notes": [render(note) for note in self.notes],
            "note_findings": [note.to_json() for note in self.notes],
            "tests": [test.to_json() for test in self.tests],
            "tests_score": self.tests_score,
            "submission_time": (self.submission_time or SubmissionTime()).to_json(),
            "adjustments": [adjustment.to_json() for adjustment in self.adjustments],
            "stages": [{"stage": total.stage, "passed": total.passed, "total": total.total, "points": total.points,
                        "max_points": total.max_points, "hint_tier": self.hint_tier(total.stage),
                        **({"lost_to": [loss.to_json() for loss in total.lost_to]} if total.lost_to else {})}
                       for total in self.stage_totals()],
            "hint_tiers": {use.stage: use.tier for use in self.hints},
            "hint_charges": [charge.to_json() for charge in self.hint_charges],
            "hint_charge": self.hint_charge,
            "predictions": [prediction.to_json() for prediction in self.predictions],
            "predictions_score": self.predictions_score,
            "think_answers": {answer.question: answer.text for answer in self.think_answers},
            **({"float32_settings": dict(self.float32_settings)} if self.float32_settings else {}),
        }

    def _isolation_json(self) -> dict:
        """How the worker was confined and what the run proved before grading (graded rows only)."""
        data = {}
        if self.isolation is not None:
            data["isolation"] = {"text": str(self.isolation), **self.isolation.to_json()}
        guarantees = self.trust.guarantees if self.trust else None
        if guarantees is not None:
            data["guarantees"] = {"held": [guarantee.value for guarantee in guarantees.held],
                                  "broken": [[guarantee.value, what] for guarantee, what in guarantees.broken]}
        return data

    @classmethod
    def from_json(cls, data: dict, csv_status: str | None = None) -> GradedRow:
        """A row from its results JSON (``csv_status``: its grades.csv status, when known)."""
        try:
            return cls(str(data["student_id"]), str(data["assignment_id"]),
                       RowStatus.parse(csv_status or str(data["status"])), float(data["score"]),
                       float(data["max_score"]), tuple(ScoredTest.from_json(test) for test in data.get("tests", [])),
                       tuple(Finding.from_json(item) for item in data.get("load_problem_findings", [])),
                       notes=tuple(Finding.from_json(item) for item in data.get("note_findings", [])),
                       devices=tuple(str(device) for device in data.get("devices", [])),
                       submission_time=SubmissionTime.from_json(data["submission_time"])
                       if isinstance(data.get("submission_time"), dict) else None,
                       adjustments=tuple(Adjustment.from_json(item) for item in data.get("adjustments", [])),
                       hints=tuple(HintUse(str(stage), int(tier))
                                   for stage, tier in data.get("hint_tiers", {}).items()),
                       hint_charges=tuple(HintCharge.from_json(item) for item in data.get("hint_charges", [])),
                       predictions=tuple(PredictionResult.from_json(item) for item in data.get("predictions", [])),
                       think_answers=tuple(ThinkAnswer(str(question), str(text))
                                           for question, text in data.get("think_answers", {}).items()),
                       float32_settings={str(key): str(value)
                                         for key, value in (data.get("float32_settings") or {}).items()})
        except (KeyError, TypeError, ValueError, FindingFormatError) as error:
            raise ResultsFormatError(f"{type(error).__name__}: {error}") from None

    def unfinished(self, step: str, error: BaseException) -> GradedRow:
        """This row as an ``error`` row: the grader could not ``step`` (``error`` says why). It
        scores 0 and says so, and the command exits 1: the grader's failure, never a grade."""
        detail = f"the grader could not {step} ({type(error).__name__}: {clean_text(str(error), 300)})"
        return GradedRow(self.student_id, self.assignment_id, RowStatus(RowKind.ERROR, detail), 0.0, self.max_score,
                         language=self.language, devices=self.devices)

    def stages_that_lost_points(self) -> list[str]:
        """The stages whose tests lost points, and those whose hints were charged: both cost the
        student points on that stage (a service shows their reference once the assignment is closed)."""
        charged = {charge.stage for charge in self.hint_charges if charge.points > 0}
        return [total.stage for total in self.stage_totals()
                if total.points < total.max_points or total.stage in charged]

    def stage_totals(self) -> list[StageTotal]:
        """Each stage that has tests in this row, in curriculum order (unknown stages last)."""
        stages = [*STAGES_BY_ASSIGNMENT.get(self.assignment_id, []), *(test.stage for test in self.tests)]
        totals = []
        for stage in dict.fromkeys(stages):
            tests = [test for test in self.tests if test.stage == stage]
            # A test worth no points (a note worth fixing) is shown, but is no test to pass.
            counted = [test for test in tests if test.max_points > 0]
            if tests:
                totals.append(StageTotal(stage, sum(test.passed for test in counted), len(counted),
                                         round(sum(test.points for test in tests), 2),
                                         round(sum(test.max_points for test in tests), 2),
                                         sum(test.waiting for test in counted), _losses_by_behaviour(tests)))
        return totals


def _losses_by_behaviour(tests: list[ScoredTest]) -> tuple[BehaviourLoss, ...]:
    """The points the tests lost to each behaviour, in the order the behaviours first appear."""
    lost: dict[str, float] = {}
    for loss in (loss for test in tests for loss in test.lost_to):
        lost[loss.behaviour] = lost.get(loss.behaviour, 0.0) + loss.points
    return tuple(BehaviourLoss(behaviour, round(points, 2)) for behaviour, points in lost.items())


def each_row(rows: Iterable[GradedRow], step: str, handle: Callable[[GradedRow], GradedRow]) -> list[GradedRow]:
    """``handle`` applied to each row on its own: a row it raises on becomes that row's ``error``
    status (``step`` says what could not be done), and the other rows go on. Every step after the
    tests goes through here, so that nothing one student sent (a timestamp, a name, a notebook)
    can stop the class."""
    handled = []
    for row in rows:
        try:
            handled.append(handle(row))
        except Exception as error:  # noqa: BLE001 - one row's failure is that row's status
            handled.append(row.unfinished(step, error))
    return handled


def assignment_position(assignment_id: str) -> int:
    """Where an assignment comes in the course (unknown ones after every known one)."""
    return ASSIGNMENTS.index(assignment_id) if assignment_id in ASSIGNMENTS else len(ASSIGNMENTS)


def ordered_assignments(assignment_ids: Iterable[str]) -> list[str]:
    """The distinct assignment ids, in course order (unknown ones last, by name)."""
    return sorted(set(assignment_ids), key=lambda assignment_id: (assignment_position(assignment_id), assignment_id))


def row_order(row: GradedRow) -> tuple[str, int, str]:
    """The order of rows in every output: by student, then by assignment in course order."""
    return row.student_id, assignment_position(row.assignment_id), row.assignment_id


def _number(value: float) -> str:
    return f"{value:g}"

