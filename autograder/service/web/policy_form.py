"""An assignment's policy as a form: the one validation of the instructor's page and of
``service policy``.

Why one form for both: the page and the command used to read the same values by two rules and
refuse them in two ways (the page with Python's own words, "could not convert string to float",
and a date hint under every error). Here each field is read once, by a ``clean_*`` method, and each
refusal is a sentence of the service's catalog (``web/text.py``, ``policy.*``) in the reader's
language, attached to its field: the page shows it beside the field, the command prints it after
the option's name. The command fills the fields it was not given from the stored policy, so both
check the same whole.
"""

from __future__ import annotations

from datetime import tzinfo

from django import forms
from django.core.exceptions import ValidationError

from autograder.records.hint_charges import EVERY_STAGE, HintPriceError, HintPrices
from autograder.service.models import AssignmentPolicy, Counting, Visibility
from autograder.service.times import NoSuchTime, NotATime, TwiceTime, typed_form, typed_moment
from autograder.service.web.text import page_text
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

# The command line's option for each field, for its messages.
OPTIONS = {"accepting": "--accepting", "due_at": "--due", "closes_at": "--closes",
           "late_penalty_percent": "--late-penalty", "visibility_before_due": "--visibility", "counts": "--counts",
           "per_hour_limit": "--per-hour", "total_limit": "--total", "hint_charges": "--hint-charges"}
NO_CHARGE = "none"  # the hint charges' field: no charge for this assignment, whatever the rubric says


class PolicyForm(forms.Form):
    """Every field is text, read by its ``clean_*`` method, so that each refusal is the catalog's
    sentence and not a form field's built-in English."""

    accepting = forms.BooleanField(required=False)
    due_at = forms.CharField(required=False)
    late_penalty_percent = forms.CharField(required=False)
    closes_at = forms.CharField(required=False)
    visibility_before_due = forms.CharField(required=False)
    counts = forms.CharField(required=False)
    per_hour_limit = forms.CharField(required=False)
    total_limit = forms.CharField(required=False)
    hint_charges = forms.CharField(required=False)

    def __init__(self, data, *, language: str, zone: tzinfo, assignment_id: str):
        super().__init__(data)
        self.words = page_text(language)
        self.zone = zone
        self.stages = STAGES_BY_ASSIGNMENT[assignment_id]
        self.assignment_id = assignment_id

    @staticmethod
    def data_of(policy: AssignmentPolicy, zone: tzinfo) -> dict[str, object]:
        """The stored policy as the form's fields hold it (times in the course's zone, with their
        offset): what the page shows, and what the command keeps for the options it was not given."""
        return {"accepting": policy.accepting, "due_at": typed_form(policy.due_at, zone),
                "late_penalty_percent": f"{policy.late_penalty_percent:g}",
                "closes_at": typed_form(policy.closes_at, zone),
                "visibility_before_due": policy.visibility_before_due, "counts": policy.counts,
                "per_hour_limit": "" if policy.per_hour_limit is None else str(policy.per_hour_limit),
                "total_limit": "" if policy.total_limit is None else str(policy.total_limit),
                "hint_charges": _charges_text(policy.hint_charges)}

    def _refusal(self, key: str, **fields) -> ValidationError:
        return ValidationError(self.words[f"policy.{key}"].format(**fields), code=key)

    def _moment(self, name: str):
        typed = self.cleaned_data[name]
        try:
            return typed_moment(typed, self.zone)
        except NoSuchTime as skipped:
            raise self._refusal("no_such_time", typed=typed.strip(), zone=str(self.zone), start=skipped.start,
                                end=skipped.end) from None
        except TwiceTime as twice:
            raise self._refusal("twice_time", typed=typed.strip(), zone=str(self.zone), first=twice.first,
                                second=twice.second) from None
        except NotATime:
            raise self._refusal("not_a_time", typed=typed.strip(), zone=str(self.zone)) from None

    def clean_due_at(self):
        return self._moment("due_at")

    def clean_closes_at(self):
        return self._moment("closes_at")

    def clean_late_penalty_percent(self) -> float:
        typed = self.cleaned_data["late_penalty_percent"].strip()
        if not typed:
            return 0.0
        try:
            percent = float(typed.replace(",", ".").removesuffix("%").strip())
        except ValueError:
            raise self._refusal("penalty_not_a_number", typed=typed) from None
        if not 0 <= percent <= 100:  # a nan fails here too
            raise self._refusal("penalty_out_of_range", typed=typed)
        return percent

    def _limit(self, name: str) -> int | None:
        typed = self.cleaned_data[name].strip()
        if not typed:
            return None
        try:
            limit = int(typed)
        except ValueError:
            raise self._refusal("limit_not_a_number", typed=typed) from None
        if limit < 1:
            raise self._refusal("limit_below_one", typed=typed)
        return limit

    def clean_per_hour_limit(self):
        return self._limit("per_hour_limit")

    def clean_total_limit(self):
        return self._limit("total_limit")

    def _choice(self, name: str, allowed: list[str]) -> str:
        typed = self.cleaned_data[name].strip()
        if typed not in allowed:
            raise self._refusal("not_a_choice", typed=typed, choices=", ".join(allowed))
        return typed

    def clean_visibility_before_due(self) -> str:
        return self._choice("visibility_before_due", list(Visibility.values))

    def clean_counts(self) -> str:
        return self._choice("counts", list(Counting.values))

    def clean_hint_charges(self) -> dict[str, list[float]] | None:
        """The field's rows, ``;`` or a new line apart: ``0, 0.5, 1`` prices the tiers of every stage,
        ``split_heads: 0, 1, 2`` one stage's; empty leaves the rubric's prices, ``none`` charges nothing."""
        typed = self.cleaned_data["hint_charges"].strip()
        if not typed:
            return None
        if typed.lower() == NO_CHARGE:
            return {}
        table: dict[str, list[float]] = {}
        for line in filter(None, (part.strip() for part in typed.replace("\n", ";").split(";"))):
            stage, colon, prices = line.rpartition(":")
            name = stage.strip() if colon else EVERY_STAGE
            if name in table:
                raise self._refusal("hint_charges.twice", line=line)
            if name != EVERY_STAGE and name not in self.stages:
                raise self._refusal("hint_charges.unknown_stage", stage=name, assignment=self.assignment_id,
                                    stages=", ".join(self.stages))
            table[name] = self._prices(line, prices)
        return table

    def _prices(self, line: str, typed: str) -> list[float]:
        """One row's prices, checked as the rubric's are (``HintPrices``), refused in the reader's words."""
        numbers = []
        for part in typed.replace(",", " ").split():
            try:
                numbers.append(float(part))
            except ValueError:
                raise self._refusal("hint_charges.not_a_number", line=line, typed=part) from None
        try:
            HintPrices.from_table({EVERY_STAGE: numbers}, ())
        except HintPriceError as error:
            raise self._refusal(f"hint_charges.{error.key}", line=line, **error.fields) from None
        return numbers

    def apply(self, policy: AssignmentPolicy) -> None:
        """The validated values onto ``policy`` (not saved)."""
        for name, value in self.cleaned_data.items():
            setattr(policy, name, value)

    def refusals(self) -> dict[str, list[str]]:
        """Each refused field's sentences, by field name."""
        return {name: list(messages) for name, messages in self.errors.items()}


def _charges_text(table: dict | None) -> str:
    """The stored hint charges as the field is typed (see ``clean_hint_charges``)."""
    if table is None:
        return ""
    if not table:
        return NO_CHARGE
    prices = HintPrices.from_table(table, list(table)).table()
    return "; ".join((f"{name}: " if name != EVERY_STAGE else "") + ", ".join(f"{price:g}" for price in row)
                     for name, row in prices.items())
