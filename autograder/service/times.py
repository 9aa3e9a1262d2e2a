"""The course's clock: how a time an instructor types becomes one moment, and how a stored moment
is written back into a time field (``feedback/moments.py`` writes it for reading, on every page).

Why one module: the policy page and ``service policy`` used to read a due date by two rules (the
page took a time without an offset as UTC, the command refused it), so an instructor an hour east
of Greenwich who typed 23:59 got a deadline an hour late. Both now read a typed time here, in the
course's time zone (the ``time_zone`` setting) unless it carries its own offset, and the pages
write times back in that zone with the offset beside them. Stored moments stay in UTC. No Django
here: the command line and the settings read it before Django is set up.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# The words that mean "no time" in a policy's time field, besides leaving it empty.
NO_TIME = ("", "none")


class NotATime(ValueError):
    """Text that is no date and time; the caller says so in the reader's language."""


class NoSuchTime(NotATime):
    """A wall-clock time the course's zone skips (the spring-forward gap): the clocks jump from
    ``start`` to ``end`` (``01:00``, ``02:00``) that night. Moving it silently to either side
    would set a deadline the instructor never typed."""

    def __init__(self, typed: str, start: str, end: str):
        super().__init__(typed)
        self.start, self.end = start, end


class TwiceTime(NotATime):
    """A wall-clock time the course's zone passes twice (the autumn fall-back hour): ``first`` and
    ``second`` are the same time written with each offset, one of which the instructor must choose."""

    def __init__(self, typed: str, first: str, second: str):
        super().__init__(typed)
        self.first, self.second = first, second


def course_zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (``Europe/Lisbon``), or ValueError saying what is wanted: an
    unknown name must stop the service at start, not shift every deadline by hours."""
    text = str(name).strip()
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError("an IANA time zone name such as UTC, Europe/Lisbon or Asia/Shanghai (the tz database's;"
                         " an offset like +01:00 is no zone: it ignores summer time)") from None


def typed_moment(text: str | None, zone: tzinfo) -> datetime | None:
    """A time as typed (ISO-8601: ``2026-03-01T23:59``, ``2026-03-01 23:59``, ``...+01:00``,
    ``...Z``) as one moment in UTC; None for an empty field or ``none``. A time without an offset
    is the course's wall-clock time in ``zone`` (refused where that clock skips it or shows it
    twice: ``NoSuchTime``, ``TwiceTime``); one with an offset is taken as given."""
    stripped = (text or "").strip()
    if stripped.lower() in NO_TIME:
        return None
    try:
        moment = datetime.fromisoformat(stripped[:-1] + "+00:00" if stripped[-1:] in "zZ" else stripped)
    except ValueError:
        raise NotATime(stripped) from None
    if moment.tzinfo is None:
        moment = _wall_clock(moment, zone, stripped)
    return moment.astimezone(timezone.utc)


def _wall_clock(naive: datetime, zone: tzinfo, typed: str) -> datetime:
    """``naive`` as a time on the course's clock, refused (``NoSuchTime``, ``TwiceTime``) where
    that clock never shows it or shows it twice: its two readings (``fold``) then disagree."""
    earlier, later = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    earlier_offset, later_offset = earlier.utcoffset(), later.utcoffset()
    if earlier_offset is None or later_offset is None or earlier_offset == later_offset:
        return earlier
    if _exists(earlier, zone):
        raise TwiceTime(typed, earlier.isoformat(timespec="minutes"), later.isoformat(timespec="minutes"))
    start = naive
    while not _exists((start - timedelta(minutes=1)).replace(tzinfo=zone), zone):
        start -= timedelta(minutes=1)
    start = start.replace(second=0, microsecond=0)
    end = start + (later_offset - earlier_offset)
    raise NoSuchTime(typed, start.strftime("%H:%M"), end.strftime("%H:%M"))


def _exists(local: datetime, zone: tzinfo) -> bool:
    """Whether the clock in ``zone`` shows ``local``: it survives the round trip through UTC."""
    return local.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None) == local.replace(tzinfo=None)


def typed_form(moment: datetime | None, zone: tzinfo) -> str:
    """A stored moment as a time field holds it, in the course's zone with its offset
    (``2026-12-01T23:59+01:00``): read back by ``typed_moment``, it is the same moment, to the
    microsecond (seconds are written only when there are some)."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    return local.isoformat(timespec="minutes") if not (local.second or local.microsecond) else local.isoformat()


def iso_moment(moment: datetime | None) -> str:
    """A stored moment as the API gives it: ISO-8601 in UTC with its offset, to the second
    (``2026-11-28T15:04:05+00:00``), which every client's date parser reads as one moment; "" for none."""
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds") if moment else ""
