"""Late work: due dates (``grade --due ASSIGNMENT=TIME``), the submission times nbgrader records,
and the penalty per started day late (``--late-penalty PERCENT``).

``nbgrader submit`` writes ``timestamp.txt`` beside the submitted notebook, and ``nbgrader
collect`` copies it into ``submitted/<student_id>/<assignment_id>/``; ``nbgrader zip_collect``
writes one there when its collector plugin finds a time. Its text is the exchange's
``timestamp_format`` (by default ``2025-03-01 12:00:00.123456 UTC``: a zone name or a numeric
offset last) or, from zip_collect, ISO-8601 without an offset, which nbgrader reads as UTC.

The student's own nbgrader writes that file, so it is read like any student file: no symbolic
links, no special files, a few hundred bytes at most; only the time parsed from it is kept.
"""

from __future__ import annotations

import functools
import math
import os
import re
import stat
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

from dateutil.parser import isoparse

from autograder.student.curriculum import ASSIGNMENTS

TIMESTAMP_FILE = "timestamp.txt"
MAX_TIMESTAMP_BYTES = 256  # nbgrader writes about 30
_NUMERIC_OFFSET = re.compile(r"^([+-])(\d\d):?(\d\d)$")
_UTC_NAMES = {"UTC", "GMT", "Z"}
UTC = timezone.utc  # datetime.UTC is Python 3.11's, and the kit runs on 3.10 too
# A submission time outside these is no submission time: before 1970, or later than a day after
# the grading run (clocks drift, never by a day). Every later step can then compute with it.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_AFTER_GRADING = timedelta(days=1)


@functools.cache
def _known_zones() -> frozenset[str]:
    """The zone names of the tz database here: a name is looked up only if it is one of these (a
    folder of the database, ``America``, or any other path, is not)."""
    return frozenset(available_timezones())


class DueDateError(ValueError):
    """A ``--due`` or ``--late-penalty`` value that cannot be used; the message says how to write it."""


def _zone(name: str) -> timezone | ZoneInfo:
    """The zone that ends nbgrader's default timestamp: ``UTC``, ``+0100``, or a zone in the tz
    database (``EST``, ``Europe/Lisbon``). Abbreviations that name no zone there (``EDT``,
    ``CEST``) are ambiguous the world over, so they raise ValueError."""
    if name in _UTC_NAMES:
        return UTC
    numeric = _NUMERIC_OFFSET.match(name)
    if numeric:
        sign, hours, minutes = numeric.groups()
        offset = timedelta(hours=int(hours), minutes=int(minutes))
        return timezone(-offset if sign == "-" else offset)
    if name not in _known_zones():
        raise ValueError(f"unknown time zone {name!r}")
    return ZoneInfo(name)


def parse_timestamp(text: str, graded_at: datetime | None = None) -> datetime:
    """The moment a ``timestamp.txt`` names, in UTC; raises ValueError when it names none, or one
    outside the plausible window (from 1970 to a day after ``graded_at``, by default now)."""
    parts = text.strip().split(" ")
    if len(parts) == 3:  # date, time and zone, as nbgrader's default timestamp_format writes them
        moment = isoparse(f"{parts[0]}T{parts[1]}")
        if moment.tzinfo is not None:
            raise ValueError("two time zones")
        moment = moment.replace(tzinfo=_zone(parts[2]))
    elif len(parts) <= 2:
        moment = isoparse("T".join(parts))
        if moment.tzinfo is None:  # zip_collect writes UTC without an offset, and nbgrader reads it so
            moment = moment.replace(tzinfo=UTC)
    else:
        raise ValueError("not a time")
    moment = moment.astimezone(UTC)
    if not EARLIEST <= moment <= (graded_at or datetime.now(UTC)) + LATEST_AFTER_GRADING:
        raise ValueError("a time outside the plausible window")
    return moment


@dataclass(frozen=True)
class ReadTimestamp:
    """What a submission folder's ``timestamp.txt`` says: the time, or why there is none."""

    moment: datetime | None
    problem: str | None  # missing | unreadable | unparsable (results.TIMESTAMP_PROBLEMS)


def read_timestamp(folder: Path, graded_at: datetime | None = None) -> ReadTimestamp:
    """The submission time nbgrader recorded in ``folder`` (``graded_at``: when the run grades, by
    default now; a later time than a day after it is no submission time)."""
    try:  # O_NONBLOCK: a named pipe in its place must not hang the grader
        handle = os.open(folder / TIMESTAMP_FILE, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return ReadTimestamp(None, "missing")
    except OSError:  # a symbolic link (ELOOP), no permission
        return ReadTimestamp(None, "unreadable")
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return ReadTimestamp(None, "unreadable")
        data = os.read(handle, MAX_TIMESTAMP_BYTES + 1)
    except OSError:
        return ReadTimestamp(None, "unreadable")
    finally:
        os.close(handle)
    try:
        if len(data) > MAX_TIMESTAMP_BYTES:
            raise ValueError("too long")
        return ReadTimestamp(parse_timestamp(data.decode("utf-8"), graded_at), None)
    except (ValueError, OverflowError):  # UnicodeDecodeError is a ValueError
        return ReadTimestamp(None, "unparsable")


def parse_due_dates(values: list[str]) -> dict[str, datetime]:
    """``--due ASSIGNMENT=TIME`` values as due dates by assignment; raises DueDateError."""
    due_dates: dict[str, datetime] = {}
    for value in values:
        assignment_id, separator, text = value.partition("=")
        if not separator or assignment_id not in ASSIGNMENTS:
            raise DueDateError(f"--due takes ASSIGNMENT=TIME with ASSIGNMENT one of {', '.join(ASSIGNMENTS)}"
                               f" (for example --due {ASSIGNMENTS[0]}=2025-03-01T23:59+01:00), not {value!r}")
        if assignment_id in due_dates:
            raise DueDateError(f"--due names {assignment_id} twice; give each assignment one due date")
        try:
            due = isoparse(text.strip())
        except (ValueError, OverflowError):
            due = None
        if due is None or due.tzinfo is None:
            raise DueDateError(f"--due {value!r}: write the time in ISO-8601 with its offset from UTC, for example"
                               f" {assignment_id}=2025-03-01T23:59+01:00 (or ...T22:59Z for UTC), so that it"
                               " means the same moment on every machine")
        due_dates[assignment_id] = due
    return due_dates


def check_late_penalty(percent: float | None, due_dates: dict[str, datetime]) -> None:
    """Raise DueDateError when ``--late-penalty`` is out of range or has no due date to apply to."""
    if percent is None:
        return
    if not 0 <= percent <= 100:
        raise DueDateError("--late-penalty is a percentage of the maximum score per started day late, from 0"
                           " to 100")
    if not due_dates:
        raise DueDateError("--late-penalty needs a due date: add --due ASSIGNMENT=TIME for each assignment it"
                           " applies to")


def days_late(submitted: datetime, due: datetime) -> int:
    """Started days after ``due``: a second late is one day, 24 hours and a second are two."""
    seconds = (submitted - due).total_seconds()
    return math.ceil(seconds / 86400) if seconds > 0 else 0


def late_penalty(days: int, percent: float, max_score: float) -> float:
    """``percent`` of ``max_score`` per started day late, never more than ``max_score``."""
    return min(max_score, round(days * percent / 100 * max_score, 2))
