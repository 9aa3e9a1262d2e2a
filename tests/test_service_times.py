"""The course's clock (autograder/service/times.py): a typed time without an offset is the course's
wall-clock time, refused where that clock skips it (spring forward) or shows it twice (autumn)."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from autograder.service.times import NoSuchTime, NotATime, TwiceTime, typed_form, typed_moment

LISBON = ZoneInfo("Europe/Lisbon")  # 2027-03-28: 01:00 -> 02:00; 2027-10-31: 02:00 -> 01:00


@pytest.mark.parametrize("typed", ["2027-03-28 01:30", "2027-03-28T01:00", "2027-03-28 01:59:59"])
def test_a_time_the_clocks_skip_is_refused_saying_the_jump(typed):
    with pytest.raises(NoSuchTime) as refused:
        typed_moment(typed, LISBON)
    assert (refused.value.start, refused.value.end) == ("01:00", "02:00")


def test_a_time_the_clocks_show_twice_asks_for_an_offset():
    with pytest.raises(TwiceTime) as refused:
        typed_moment("2027-10-31 01:30", LISBON)
    assert (refused.value.first, refused.value.second) == ("2027-10-31T01:30+01:00", "2027-10-31T01:30+00:00")
    for offered in (refused.value.first, refused.value.second):  # each offered answer is read as one moment
        assert typed_form(typed_moment(offered, LISBON), LISBON) == offered


@pytest.mark.parametrize(("typed", "meant"), [
    ("2027-03-28 00:59", datetime(2027, 3, 28, 0, 59, tzinfo=timezone.utc)),  # just before the gap
    ("2027-03-28 02:00", datetime(2027, 3, 28, 1, 0, tzinfo=timezone.utc)),  # its end, as the refusal says
    ("2027-10-31 00:59", datetime(2027, 10, 30, 23, 59, tzinfo=timezone.utc)),
    ("2027-10-31 02:00", datetime(2027, 10, 31, 2, 0, tzinfo=timezone.utc)),
    ("2027-03-28T01:30+00:00", datetime(2027, 3, 28, 1, 30, tzinfo=timezone.utc)),  # an offset is taken as given
    ("2027-03-28 01:30Z", datetime(2027, 3, 28, 1, 30, tzinfo=timezone.utc)),
])
def test_times_around_the_changes_are_read_as_the_moment_they_name(typed, meant):
    assert typed_moment(typed, LISBON) == meant


def test_a_zone_without_changes_takes_every_time():
    assert typed_moment("2027-03-28 01:30", ZoneInfo("UTC")) == datetime(2027, 3, 28, 1, 30, tzinfo=timezone.utc)
    with pytest.raises(NotATime):
        typed_moment("tomorrow", LISBON)
