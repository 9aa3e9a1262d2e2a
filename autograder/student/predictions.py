"""Recorded predictions: a student answers in code before a demo runs, and the demo says after it
whether the prediction held.

    predict("no_positions", overall=30, position_1=100)   # before the demo, in its own cell
    ...                                                  # the demo runs and measures
    reveal("no_positions", overall=48.5, position_1=100)  # the demo's last line: the comparison

Each question has one or more fields, each a number (right within a tolerance) or a choice
among short names. The answer a student writes stays in the notebook's code, where the grader
reads it without running it and judges it with ``judge`` against the outcome the reference
solution's demos measure (the answer key, ``autograder/course/predictions.toml``); a prediction
scores nothing unless the instructor gives it points.

``reveal`` judges against the same reference outcome, which the kit copies beside this module
(``prediction_outcomes.json``, data it writes), and not against what the student's own demo
measured: a demo runs the student's code, and a stage that is still wrong (a ``softmax_naive``
that calls ``torch.softmax``, a module that leaks the future) measures something else. Judged
against that, a right prediction would be told it missed, and a verdict the grader never gives
would reach the student. When the demo's measurement tells another story than the reference's,
``reveal`` shows the reference's value, and says in one line what the student's demo measured
instead, so that nothing it prints contradicts what the screen shows.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from . import language as languages
from .records import show

ANSWER = "answer"  # the field of a question with one answer, given without a name: predict("q", "nan")
# What the reference solution's demos measure, per question: written by the kit from the answer key
# (python -m autograder.notebooks.known_outputs, run by `make assignments`); a kit test fails when stale.
OUTCOMES_FILE = Path(__file__).resolve().parent / "prediction_outcomes.json"


@dataclass(frozen=True)
class Field:
    """One thing to predict: a number in [low, high], right within ``tolerance`` of the outcome,
    or (with ``choices``) one of a few short names. A ``percent`` is asked as a percentage: a
    fraction (0.5 for 50 %) is not recorded, with the percentage it would be."""

    name: str
    low: float = 0.0
    high: float = 0.0
    tolerance: float = 0.0
    choices: tuple[str, ...] = ()
    percent: bool = False

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)

    def normalised(self, value: object) -> object:
        """``value`` read as a person means it: a choice in any case or spacing ("NaN", "as well",
        "Same "), a float nan or inf for the choice of that name, a number written as a string
        ("0.24", "0,24", "32 %", "1,769,472"). Anything else is kept as written, for ``problem`` to explain."""
        if self.is_choice:
            if isinstance(value, float) and not math.isfinite(value):
                value = "nan" if math.isnan(value) else "inf"
            if isinstance(value, str):
                word = "_".join(value.strip().lower().replace("-", " ").replace("_", " ").split())
                return word if word in self.choices else value
            return value
        if isinstance(value, str):
            text = value.strip().rstrip("%").strip()
            grouped = re.fullmatch(r"\d{1,3}(?:([,. ])\d{3})(?:\1\d{3})*", text)  # 1,769,472 or 1 769 472
            text = text.replace(grouped.group(1), "") if grouped and text.count(grouped.group(1)) > 1 else \
                text.replace(",", ".")
            try:
                number = float(text)
            except ValueError:
                return value
            return number if math.isfinite(number) else value
        return value

    def problem(self, value: object) -> tuple[str, dict] | None:
        """Why ``value`` is no answer to this field (a message key and its fields), or None."""
        if value is Ellipsis:
            return ("replace_dots", {}) if self.name == ANSWER else ("replace_field_dots", {"field": self.name})
        if self.is_choice:
            if value not in self.choices:
                return "not_a_choice", {"field": self.name, "value": repr(value),
                                        "choices": ", ".join(repr(choice) for choice in self.choices)}
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return "not_a_number", {"field": self.name, "value": repr(value)}
        if self.percent and 0 < value < 1:
            return "a_fraction", {"field": self.name, "value": _number(value), "percent": _number(value * 100)}
        if not self.low <= value <= self.high:
            return "out_of_range", {"field": self.name, "value": _number(value), "low": _number(self.low),
                                    "high": _number(self.high)}
        return None

    def holds(self, answer: object, outcome: object) -> bool:
        """Whether ``answer`` is right for the measured ``outcome``. A student's demo may measure
        what no answer could be (a nan, a word outside the choices): that holds for nothing."""
        if self.is_choice:
            return answer == outcome
        if not (_is_number(answer) and _is_number(outcome)):
            return False
        return abs(float(answer) - float(outcome)) <= self.tolerance + 1e-9


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Question:
    """A prediction a notebook asks for before one of its demos, and the stage that demo runs
    (``needs``), which ``reveal`` names when the student's demo measures something else; None
    when the demo runs no code of the student's."""

    id: str
    assignment: str
    fields: tuple[Field, ...]
    stage: str | None = None

    def field_names(self) -> list[str]:
        return [field.name for field in self.fields]


def _number_field(name: str, low: float, high: float, tolerance: float) -> Field:
    return Field(name, low=low, high=high, tolerance=tolerance)


def _percent_field(name: str, tolerance: float) -> Field:
    return Field(name, low=0, high=100, tolerance=tolerance, percent=True)


def _choice_field(name: str, *choices: str) -> Field:
    return Field(name, choices=choices)


QUESTIONS: dict[str, Question] = {question.id: question for question in (
    # 01: what softmax_naive makes of [1000, 1001, 1002]; the largest weight of the heat map; whether
    # reversing the sentence changes any token's context vector.
    Question("naive_overflow", "01_attention_scores", (_choice_field(ANSWER, "weights", "nan", "inf", "error"),),
             "softmax_naive"),
    Question("largest_weight", "01_attention_scores", (_number_field(ANSWER, 0.0, 1.0, 0.06),), "attention_scores"),
    Question("reversed_sentence", "01_attention_scores", (_choice_field(ANSWER, "same", "different"),),
             "simple_self_attention"),
    # 02: the spread of q·k for keys of 1024 features; whether one shared W learns a one-way relation.
    Question("scores_spread", "02_self_attention", (_number_field(ANSWER, 0.0, 10_000.0, 4.0),)),
    Question("shared_w", "02_self_attention", (_choice_field(ANSWER, "as_well", "worse"),), "SelfAttention_v2"),
    # 03: the darkest cell of row 4 of the trained head; accuracy without position embeddings (%).
    Question("trained_head", "03_causal_attention", (_number_field("column", 0, 7, 0),), "CausalAttention"),
    Question("no_positions", "03_causal_attention", (_percent_field("overall", 10),
                                                     _percent_field("position_1", 10)), "CausalAttention"),
    # 04: how two heads share two jobs; the parameters of a 12-head wrapper; the loss of the
    # two-layer model on the repeated stretch and on the other tokens of its sequences.
    Question("two_heads", "04_multi_head_attention", (_choice_field(ANSWER, "split", "both_mixed", "one_does_both"),),
             "MultiHeadAttention"),
    Question("wrapper_parameters", "04_multi_head_attention", (_number_field(ANSWER, 0, 1e9, 0),),
             "MultiHeadAttentionWrapper"),
    Question("induction", "04_multi_head_attention", (_choice_field("repeated", "guessing", "near_zero"),
                                                      _choice_field("other", "guessing", "near_zero")),
             "MultiHeadAttention"),
)}


@functools.cache
def reference_outcomes() -> dict[str, dict[str, object]]:
    """What the reference solution's demos measure, by question id (the answer key's copy beside
    this module); empty when the file is missing or unreadable, and ``reveal`` then falls back on
    the student's own measurement rather than fail a demo."""
    try:
        outcomes = json.loads(OUTCOMES_FILE.read_text(encoding="utf-8"))["outcomes"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return outcomes if isinstance(outcomes, dict) else {}


def questions_of(assignment: str) -> list[Question]:
    return [question for question in QUESTIONS.values() if question.assignment == assignment]


def answer_fields(question: Question, answer: object, fields: Mapping[str, object]) -> dict[str, object]:
    """The fields of a call ``predict(question, answer, **fields)``: a lone answer names the
    question's single field."""
    given = dict(fields)
    if answer is not None:
        given.setdefault(question.fields[0].name if len(question.fields) == 1 else ANSWER, answer)
    by_name = {field.name: field for field in question.fields}
    return {name: by_name[name].normalised(value) if name in by_name else value for name, value in given.items()}


def problems(question: Question, given: Mapping[str, object]) -> list[tuple[str, dict]]:
    """What keeps ``given`` from being an answer to ``question``: message keys and their fields."""
    unknown = sorted(set(given) - set(question.field_names()))
    if unknown:
        return [("unknown_fields", {"question": question.id, "fields": ", ".join(unknown),
                                    "expected": ", ".join(question.field_names())})]
    found = []
    for field in question.fields:
        if field.name not in given:
            found.append(("missing_field", {"field": field.name}))
        elif (problem := field.problem(given[field.name])) is not None:
            found.append(problem)
    return found


def judge(question: Question, answer: Mapping[str, object], outcome: Mapping[str, object]) -> bool:
    """Whether a well-formed ``answer`` is right for the measured ``outcome``, field by field."""
    return all(field.holds(answer[field.name], outcome[field.name]) for field in question.fields)


def _number(value: float) -> str:
    """A number as a person writes it: 0.24, 32, 1,769,472 (never 1.76947e+06)."""
    if abs(value) >= 1_000_000 and float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def answer_text(question: Question, values: Mapping[str, object]) -> str:
    """``values`` as the student wrote them: ``'nan'``, or ``overall=30, position_1=100``."""
    def one(value):
        return _number(value) if _is_number(value) else repr(value)

    if [field.name for field in question.fields] == [ANSWER]:
        return one(values.get(ANSWER))
    return ", ".join(f"{field.name}={one(values.get(field.name))}" for field in question.fields)


def tells_the_same(question: Question, measured: Mapping[str, object], reference: Mapping[str, object],
                   answer: Mapping[str, object] | None) -> bool:
    """Whether the student's demo measured what the reference measures, closely enough that the
    verdict reads the same against either: every field within its tolerance of the reference and,
    when there is an answer, each field of it right against both or wrong against both. Then the
    screen's own number can stand in the verdict; otherwise the verdict must show the reference's."""
    for field in question.fields:
        if not field.holds(measured.get(field.name), reference[field.name]):
            return False
        if answer is not None and (field.holds(answer[field.name], measured[field.name])
                                   != field.holds(answer[field.name], reference[field.name])):
            return False
    return True


# -- what the student sees -----------------------------------------------------------------

MESSAGES: dict[str, str] = {
    "recorded": "📝 Prediction recorded: {answer}. Now run the demo below and compare.",
    "unknown_question": "There is no prediction called {question!r}; this course asks for: {known}.",
    "unknown_fields": "{question} has no {fields}: write {expected}.",
    "missing_field": "give a value for {field}",
    "replace_dots": "write your prediction where the ... stands",
    "replace_field_dots": "write your prediction for {field} where its ... stands",
    "not_a_choice": "{field} = {value} is not one of the choices: write one of {choices}",
    "not_a_number": "{field} = {value} is not a number: write a number",
    "several_values": ("{values} are several values: Python reads a comma between numbers as a separator, so write"
                       " a decimal number with a point (0.24), or in quotes (\"0,24\")"),
    "out_of_range": "{field} = {value} is outside {low} to {high}",
    "a_fraction": "{field} = {value} looks like a fraction: the question asks for a percentage ({percent} for"
                  " {value})",
    "separator": "; ",  # between the problems of one answer, in the language's punctuation
    "not_recorded": "✏️ Not recorded yet: {problems}.",
    "right": "✅ You predicted {answer}; the demo measured {outcome}. Right!",
    "wrong": "🔎 You predicted {answer}; the demo measured {outcome}. Not this time.",
    "right_reference": "✅ You predicted {answer}; the reference solution measures {reference}. Right!",
    "wrong_reference": "🔎 You predicted {answer}; the reference solution measures {reference}. Not this time.",
    "no_prediction_reference": "The reference solution measures {reference}. (No prediction was recorded above: make"
                               " one next time before you run the demo; it is how you find out what you expected.)",
    "own_measurement": "⚠️ Your demo measured {measured} instead: the code it ran does not behave like the reference"
                       " yet (check(\"{stage}\") and the checks of the other stages the demo uses say where), so"
                       " your prediction is judged against the reference.",
    "own_measurement_plain": "⚠️ Your demo measured {measured} instead, so your prediction is judged against the"
                             " reference.",
    "near_measurement": "(Your demo measured {measured}, within the tolerance of the reference: numbers differ a"
                        " little from machine to machine, and your prediction is judged against the reference.)",
    "stage_fails_check": "⚠️ Your `{stage}` does not pass its check yet (check(\"{stage}\") says why), so the demo"
                         " above ran code that differs from the reference: your prediction is judged against the"
                         " reference, whatever the demo showed.",
    "not_measured": "⚠️ Your demo could not measure this (the message above says why), so your prediction is"
                    " judged against the reference.",
    "tolerance": "(A number counts as right within {tolerances} of the measurement.)",
    "exact": "(The number must match exactly.)",
    "parts_right": "You got {fields} right.",
    "unreadable": "The demo measured {outcome}. (Your prediction above was not recorded: the line under it says"
                  " what to change.)",
    "unreadable_reference": "The reference solution measures {reference}. (Your prediction above was not recorded:"
                            " the line under it says what to change.)",
    "no_prediction": "The demo measured {outcome}. (No prediction was recorded above: make one next time before you"
                     " run the demo; it is how you find out what you expected.)",
    "explain.naive_overflow": "exp(1000) is already too large for a float32: it overflows to inf, and inf / inf is"
                              " nan in every entry.",
    "explain.largest_weight": "Within a row the scores differ by less than 0.8 and e^0.8 is about 2.2, so no weight"
                              " can be much larger than the 1/6 of a uniform row.",
    "explain.reversed_sentence": "Attention alone only compares embeddings: every token gets exactly the same"
                                 " context vector, and the rows come out in the new order.",
    "explain.scores_spread": "The q·k of random vectors with d_k independent entries has a standard deviation of"
                             " about sqrt(d_k): sqrt(1024) = 32.",
    "explain.shared_w": "With one W the score matrix x W Wᵀ xᵀ is symmetric: a digit cannot score the next digit high"
                        " while the next one scores it low, which the task needs of every digit around the clock.",
    "explain.trained_head": "The head finds the digit just before the query by its position: row 4 looks at"
                            " column 3, not at the other 1 in column 1.",
    "explain.no_positions": "Position 1 sees only two tokens, itself and its answer: a head that looks away from"
                            " its own digit is right there every time. Later positions see more tokens, and the"
                            " same rule can only guess among them.",
    # Says what the maps show, not why: that is the think-about-it question below it.
    "explain.two_heads": "After training one head puts nearly all of its weight on the first digit, the other on"
                         " the digit just before: the printed averages say which is which.",
    # Says no more than the count: where the rest comes from is the think-about-it answer below it.
    "explain.wrapper_parameters": "Twelve heads with three 768 × 64 matrices each are 1,769,472 parameters.",
    "explain.induction": "On the repeated stretch the model copies what followed the token's first appearance; the"
                         " other tokens cannot be known in advance, so their loss stays at guessing.",
}


def _texts(language: str) -> Mapping[str, str]:
    return languages.messages(language, "predictions", MESSAGES)


class Predictions:
    """``predict`` and ``reveal`` for one kernel, speaking one language; the answers made so far."""

    def __init__(self, language: str = languages.DEFAULT_LANGUAGE,
                 fails_its_check: Callable[[str, Mapping], bool] | None = None):
        """``fails_its_check(stage, namespace)``: whether the notebook's ``stage`` fails its public
        check (the notebook's helpers give the checks'; the grader, which reads recorded reveals,
        imports this module without them)."""
        self.language = language
        self.fails_its_check = fails_its_check
        self.answers: dict[str, dict[str, object]] = {}
        self.unreadable: set[str] = set()  # questions whose last predict() could not be recorded

    def _text(self, key: str, **fields) -> str:
        return _texts(self.language)[key].format(**fields)

    def _question(self, question_id: str) -> Question | None:
        question = QUESTIONS.get(question_id)
        if question is None:
            print(self._text("unknown_question", question=question_id, known=", ".join(QUESTIONS)))
        return question

    def predict(self, question_id: str, answer: object = None, /, *more: object, **fields: object) -> None:
        """Record a prediction for the demo that follows (in the output, where the grader sees it).
        A number written with a decimal comma, ``predict("q", 0,24)``, reaches here as two
        arguments: it is told so, not raised as Python's TypeError."""
        question = self._question(question_id)
        if question is None:
            return
        if more:
            self.answers.pop(question.id, None)
            self.unreadable.add(question.id)
            written = ", ".join(repr(value) for value in (answer, *more))
            print(self._text("not_recorded", problems=self._text("several_values", values=written)))
            return
        given = answer_fields(question, answer, fields)
        found = problems(question, given)
        if found:
            self.answers.pop(question.id, None)
            self.unreadable.add(question.id)
            listed = self._text("separator").join(self._text(key, **values) for key, values in found)
            print(self._text("not_recorded", problems=listed))
            return
        self.answers[question.id] = given
        self.unreadable.discard(question.id)
        show(self._text("recorded", answer=answer_text(question, given)),
             {"prediction": {"question": question.id, "answer": given}})

    def _verdict_details(self, question: Question, answer: Mapping[str, object], judged_by: Mapping[str, object],
                         verdict: str) -> list[str]:
        """The tolerance of the numbers, and, when a prediction of several parts missed, the parts
        it got right (against ``judged_by``, the outcome the verdict was given for)."""
        numbers = [field for field in question.fields if not field.is_choice]
        loose = [field for field in numbers if field.tolerance > 0]
        several = len(question.fields) > 1
        details = []
        if loose:
            tolerances = ", ".join(f"{field.name} ±{_number(field.tolerance)}" if several
                                   else f"±{_number(field.tolerance)}" for field in loose)
            details.append(self._text("tolerance", tolerances=tolerances))
        elif numbers:
            details.append(self._text("exact"))
        right = [field.name for field in question.fields if field.holds(answer[field.name], judged_by[field.name])]
        if verdict == "wrong" and several and right:
            details.append(self._text("parts_right", fields=", ".join(right)))
        return details

    def _own_measurement(self, question: Question, measured: Mapping[str, object],
                         reference: Mapping[str, object]) -> str:
        """The one line that says the student's demo measured something else than the reference."""
        measured_text = answer_text(question, measured)
        if all(field.holds(measured.get(field.name), reference[field.name]) for field in question.fields):
            return self._text("near_measurement", measured=measured_text)
        if question.stage is None:
            return self._text("own_measurement_plain", measured=measured_text)
        return self._text("own_measurement", measured=measured_text, stage=question.stage)

    def reveal(self, question_id: str, outcome: object = None, /, **fields: object) -> None:
        """After the demo: the prediction judged against the reference solution's outcome, beside
        what the demo measured, and why it is so.

        The verdict is the grader's (the reference's outcome), whatever the student's code measured.
        It names the demo's own measurement when that tells the same story; otherwise it names the
        reference's, and one more line says what the demo measured instead, so that the verdict
        never contradicts the numbers just printed above it. Called with no outcome, the demo
        measured nothing (it said why): the verdict is the reference's, and says so. A demo whose
        stage fails its public check may measure the reference's number with wrong code (a head that
        sees the future learns the same lookup): the verdict is then the reference's, and says why."""
        question = self._question(question_id)
        if question is None:
            return
        namespace = inspect.currentframe().f_back.f_globals  # the notebook's, where reveal() was called
        measured = answer_fields(question, outcome, fields)
        reference = reference_outcomes().get(question.id, measured)
        answer = self.answers.get(question.id)
        unmeasured = not measured and question.id in reference_outcomes()
        same = not unmeasured and tells_the_same(question, measured, reference, answer)
        stage_wrong = (same and self.fails_its_check is not None and question.stage is not None
                       and question.stage in namespace and self.fails_its_check(question.stage, namespace))
        same = same and not stage_wrong
        if answer is None:
            missing = "unreadable" if question.id in self.unreadable else "no_prediction"
            line = self._text(missing, outcome=answer_text(question, measured)) if same else \
                self._text(f"{missing}_reference", reference=answer_text(question, reference))
        else:
            verdict = "right" if judge(question, answer, reference) else "wrong"
            line = self._text(verdict, answer=answer_text(question, answer), outcome=answer_text(question, measured)) \
                if same else self._text(f"{verdict}_reference", answer=answer_text(question, answer),
                                        reference=answer_text(question, reference))
            line += "".join(f" {part}" for part in self._verdict_details(question, answer, reference, verdict))
        if unmeasured:
            line += f"\n   {self._text('not_measured')}"
        elif stage_wrong:
            line += f"\n   {self._text('stage_fails_check', stage=question.stage)}"
        elif not same:
            line += f"\n   {self._own_measurement(question, measured, reference)}"
        show(f"{line}\n   {self._text('explain.' + question.id)}",
             {"outcome": {"question": question.id, "measured": measured}})
