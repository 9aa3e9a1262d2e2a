"""A finding: what a check or the grader found, kept as data until someone reads it.

A finding is a message key (of ``autograder.findings.english.SENTENCES``), the fields that fill
its template, and, where the answer matches one, the id of a known mistake
(``autograder.student.mistakes.MISTAKES``). A field holds what is never translated (code, a
shape, a number, a student's own error text) or a nested finding: a phrase such as
``what.for_shape``, or a list of them (``problems``). ``notes`` are sentences that follow the
main one (advice, what went wrong while loading); ``faults`` are the other faults the same
evidence shows, each a finding of its own with its own named mistake, in the order to fix them
after this one (a mask inverted, of the wrong dtype and of the wrong shape is three faults, not
one); ``detail`` is verbatim text shown last (the student's own traceback).

Findings travel as typed values and as JSON (``to_json``/``from_json``); they are rendered once,
when shown, in the reader's language (``autograder.findings.render``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from autograder.worker.text import clean_text

FieldValue = Union[str, int, "Finding", list["Finding"]]
# A field set (to 1) on a finding whose named mistake the catalogue reproduced exactly
# (``hidden.diagnosis.conclude``): partial credit may pin it whatever evidence is stated beside it.
REPRODUCED_FIELD = "reproduced"
# A text field or detail (code, a student's own error message, a traceback) is cut to this.
MAX_FIELD_CHARS = 4_000
# The texts of one test's finding together are cut to about this (every text keeps at least
# MIN_TEXT_CHARS): with at most a few dozen tests per notebook, a results file and a feedback
# page stay well under 2 MiB whatever the student's code says.
MAX_FINDING_CHARS = 3_000
MIN_TEXT_CHARS = 60


class FindingFormatError(ValueError):
    """Stored data that is not a finding (a results file edited by hand, say)."""


@dataclass(frozen=True)
class Finding:
    """A message key, its fields, the named mistake if any, and what follows it."""

    key: str
    fields: Mapping[str, FieldValue] = field(default_factory=dict)
    mistake: str | None = None
    notes: tuple[Finding, ...] = ()
    detail: str = ""
    faults: tuple[Finding, ...] = ()

    def with_mistake(self, mistake: str | None) -> Finding:
        return Finding(self.key, self.fields, mistake, self.notes, self.detail, self.faults)

    def with_notes(self, *notes: Finding, detail: str = "") -> Finding:
        return Finding(self.key, self.fields, self.mistake, self.notes + notes,
                       clean_text(self.detail + detail, MAX_FIELD_CHARS), self.faults)

    def with_faults(self, *faults: Finding) -> Finding:
        """This finding followed by other faults the same evidence shows, in the order to fix them."""
        return Finding(self.key, self.fields, self.mistake, self.notes, self.detail, self.faults + faults)

    def all_faults(self) -> list[Finding]:
        """This finding and each further fault, each its own finding, in the order to fix them."""
        return [Finding(self.key, self.fields, self.mistake, self.notes, self.detail), *self.faults]

    def texts(self) -> list[str]:
        """Every text this finding holds: its text fields and details, nested ones included."""
        found = [self.detail] if self.detail else []
        for value in [*self.fields.values(), list(self.notes), list(self.faults)]:
            for nested in value if isinstance(value, list) else [value]:
                if isinstance(nested, Finding):
                    found += nested.texts()
                elif isinstance(nested, str):
                    found.append(nested)
        return found

    def within(self, max_chars: int = MAX_FINDING_CHARS) -> Finding:
        """This finding with its texts cut to share ``max_chars`` (itself when they fit)."""
        texts = self.texts()
        if sum(map(len, texts)) <= max_chars:
            return self
        return self._texts_cut_to(max(max_chars // len(texts), MIN_TEXT_CHARS))

    def _texts_cut_to(self, chars: int) -> Finding:
        def cut(value: FieldValue) -> FieldValue:
            if isinstance(value, Finding):
                return value._texts_cut_to(chars)
            if isinstance(value, list):
                return [item._texts_cut_to(chars) for item in value]
            return clean_text(value, chars) if isinstance(value, str) else value

        return Finding(self.key, {name: cut(value) for name, value in self.fields.items()}, self.mistake,
                       tuple(note._texts_cut_to(chars) for note in self.notes), clean_text(self.detail, chars),
                       tuple(fault._texts_cut_to(chars) for fault in self.faults))

    def nested(self) -> list[Finding]:
        """The findings this one holds: in its fields, its notes and its further faults."""
        held = []
        for value in [*self.fields.values(), list(self.notes), list(self.faults)]:
            held += [item for item in (value if isinstance(value, list) else [value]) if isinstance(item, Finding)]
        return held

    def mistakes(self) -> set[str]:
        """The named mistakes of this finding and of the findings it holds (its faults' included)."""
        return ({self.mistake} if self.mistake else set()).union(*(held.mistakes() for held in self.nested()))

    def keys(self) -> set[str]:
        """The message keys of this finding and of the findings it holds (its evidence and notes included)."""
        return {self.key}.union(*(held.keys() for held in self.nested()))

    def to_json(self) -> dict:
        data: dict = {"key": self.key, "fields": {name: _field_to_json(value) for name, value in self.fields.items()}}
        if self.mistake:
            data["mistake"] = self.mistake
        if self.notes:
            data["notes"] = [note.to_json() for note in self.notes]
        if self.detail:
            data["detail"] = self.detail
        if self.faults:
            data["faults"] = [fault.to_json() for fault in self.faults]
        return data

    @classmethod
    def from_json(cls, data: object) -> Finding:
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise FindingFormatError("a finding must be an object with a string key")
        fields = data.get("fields", {})
        notes, faults = data.get("notes", []), data.get("faults", [])
        mistake, detail = data.get("mistake"), data.get("detail", "")
        if not isinstance(fields, dict) or not isinstance(notes, list) or not isinstance(faults, list) \
                or not isinstance(detail, str) or not (mistake is None or isinstance(mistake, str)):
            raise FindingFormatError(f"finding {data['key']!r} is malformed")
        return cls(data["key"], {str(name): _field_from_json(value) for name, value in fields.items()}, mistake,
                   tuple(cls.from_json(note) for note in notes), detail,
                   tuple(cls.from_json(fault) for fault in faults))

    def __str__(self) -> str:
        from autograder.findings.render import render  # the English text, for logs and tracebacks

        return render(self)


def finding(key: str, mistake: str | None = None, **fields: object) -> Finding:
    """A Finding whose fields are made data: a value that is not a whole number, text or a
    finding (a dtype, a device, a float) is kept as the text it prints as."""
    return Finding(key, {name: _as_field(value) for name, value in fields.items()}, mistake)


class FindingError(Exception):
    """An exception that carries what was found; its text is the finding in English."""

    def __init__(self, found: Finding):
        super().__init__(found)
        self.finding = found

    def __str__(self) -> str:
        return str(self.finding)


class Failure(FindingError, AssertionError):
    """A check failed; ``finding`` says what it found (pytest counts it as a failed test)."""


def _as_field(value: object) -> FieldValue:
    if isinstance(value, Finding) or (type(value) is int):
        return value
    if isinstance(value, list) and value and all(isinstance(item, Finding) for item in value):
        return value
    return clean_text(str(value), MAX_FIELD_CHARS)


def _field_to_json(value: FieldValue) -> object:
    if isinstance(value, Finding):
        return value.to_json()
    if isinstance(value, list):
        return [item.to_json() for item in value]
    return value


def _field_from_json(value: object) -> FieldValue:
    if isinstance(value, dict):
        return Finding.from_json(value)
    if isinstance(value, list):
        return [Finding.from_json(item) for item in value]
    if isinstance(value, str):
        return clean_text(value, MAX_FIELD_CHARS)
    if type(value) is int:
        return value
    raise FindingFormatError(f"a finding's field holds a {type(value).__name__}")
