"""How a stored moment is written for people, the same on every page: the wall-clock time in a
zone with its offset beside it, ``2026-12-01 23:59 (UTC+01:00)``. The service's pages show the
course's zone (``service/times.py`` reads typed times in it); ``grade``'s feedback pages, the due
date's offset. Here, below both, so that the two write a moment alike."""

from __future__ import annotations

from datetime import datetime, tzinfo


def offset_label(moment: datetime) -> str:
    """``UTC+01:00`` (``UTC+00:00`` in UTC itself): the offset a moment is shown with."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def shown_moment(moment: datetime | None, zone: tzinfo, seconds: bool = False) -> str:
    """A stored moment as pages show it: the course's wall-clock time with its offset,
    ``2026-12-01 23:59 (UTC+01:00)``; "" for none."""
    if moment is None:
        return ""
    local = moment.astimezone(zone)
    return f"{local.strftime('%Y-%m-%d %H:%M:%S' if seconds else '%Y-%m-%d %H:%M')} ({offset_label(local)})"
