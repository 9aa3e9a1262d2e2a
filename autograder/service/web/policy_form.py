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

from autograder.service.models import AssignmentPolicy, Counting, Visibility
from autograder.service.times import NoSuchTime, NotATime, TwiceTime, typed_form, typed_moment
from autograder.service.web.text import page_text

# The command line's option for each field, for its messages.
OPTIONS = {"accepting": "--accepting", "due_at": "--due", "closes_at": "--closes",
           "late_penalty_percent": "--late-penalty", "visibility_before_due": "--visibility", "counts": "--counts",
           "per_hour_limit": "--per-hour", "total_limit": "--total"}


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

    def __init__(self, data, *, language: str, zone: tzinfo):
        super().__init__(data)
        self.words = page_text(language)
        self.zone = zone

    @staticmethod
    def data_of(policy: AssignmentPolicy, zone: tzinfo) -> dict[str, object]:
        """The stored policy as the form's fields hold it (times in the course's zone, with their
        offset): what the page shows, and what the command keeps for the options it was not given."""
        return {"accepting": policy.accepting, "due_at": typed_form(policy.due_at, zone),
                "late_penalty_percent": f"{policy.late_penalty_percent:g}",
                "closes_at": typed_form(policy.closes_at, zone),
                "visibility_before_due": policy.visibility_before_due, "counts": policy.counts,
                "per_hour_limit": "" if policy.per_hour_limit is None else str(policy.per_hour_limit),
                "total_limit": "" if policy.total_limit is None else str(policy.total_limit)}

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

    def apply(self, policy: AssignmentPolicy) -> None:
        """The validated values onto ``policy`` (not saved)."""
        for name, value in self.cleaned_data.items():
            setattr(policy, name, value)

    def refusals(self) -> dict[str, list[str]]:
        """Each refused field's sentences, by field name."""
        return {name: list(messages) for name, messages in self.errors.items()}
