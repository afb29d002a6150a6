"""Human-readable dates: always in the event's zone, the zone named."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from talkpages.content.times import Schedule
from talkpages.output import formatting

MADRID = ZoneInfo("Europe/Madrid")


def timed(start: datetime, end: datetime, zone: str | None = "Europe/Madrid") -> Schedule:
    return Schedule(start, end, False, zone)


@pytest.mark.parametrize(("schedule", "text"), [
    (timed(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID), datetime(2019, 5, 22, 15, 25,
                                                                  tzinfo=MADRID)),
     "Wed 22 May 2019, 14:50–15:25 CEST"),
    (timed(datetime(2019, 12, 2, 9, 0, tzinfo=MADRID), datetime(2019, 12, 3, 17, 0,
                                                                tzinfo=MADRID)),
     "Mon 2 Dec 2019, 09:00 – Tue 3 Dec 2019, 17:00 CET"),
    (timed(datetime(2019, 10, 27, 1, 30, tzinfo=MADRID),
           datetime(2019, 10, 27, 3, 30, tzinfo=MADRID)),
     "Sun 27 Oct 2019, 01:30 CEST – 03:30 CET"),
    (timed(datetime(2024, 3, 1, 10, tzinfo=timezone(timedelta(hours=9))),
           datetime(2024, 3, 1, 11, tzinfo=timezone(timedelta(hours=9))), None),
     "Fri 1 Mar 2024, 10:00–11:00 UTC+09:00"),
    (timed(datetime(2024, 3, 1, 10, tzinfo=ZoneInfo("Asia/Kathmandu")),
           datetime(2024, 3, 1, 11, tzinfo=ZoneInfo("Asia/Kathmandu")), "Asia/Kathmandu"),
     "Fri 1 Mar 2024, 10:00–11:00 UTC+05:45"),
    (Schedule(date(2019, 5, 22), date(2019, 5, 22), True, "UTC"), "Wed 22 May 2019"),
    (Schedule(date(2019, 5, 20), date(2019, 5, 23), True, "UTC"), "Mon 20 – Thu 23 May 2019"),
    (Schedule(date(2019, 9, 30), date(2019, 10, 1), True, "UTC"),
     "Mon 30 Sep – Tue 1 Oct 2019"),
    (Schedule(date(2019, 12, 30), date(2020, 1, 2), True, "UTC"),
     "Mon 30 Dec 2019 – Thu 2 Jan 2020"),
])
def test_when(schedule: Schedule, text: str) -> None:
    assert formatting.when(schedule) == text


def test_short_when_and_zone_note() -> None:
    s = timed(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID),
              datetime(2019, 5, 22, 15, 25, tzinfo=MADRID))
    assert formatting.short_when(s) == "22 May 2019"
    assert formatting.zone_note(s) == "Europe/Madrid, UTC+02:00"
    days = Schedule(date(2019, 5, 20), date(2019, 5, 23), True, "UTC")
    assert formatting.short_when(days) == "20–23 May 2019"
    assert formatting.zone_note(days) == ""


def test_machine_readable_times_carry_the_real_offset() -> None:
    assert formatting.machine(datetime(2019, 5, 22, 14, 50, tzinfo=MADRID)) == \
        "2019-05-22T14:50+02:00"
    assert formatting.machine(datetime(2019, 1, 22, 14, 50, 30, tzinfo=MADRID)) == \
        "2019-01-22T14:50:30+01:00"
    assert formatting.machine(date(2019, 5, 22)) == "2019-05-22"


def test_zone_note_never_says_utc_twice() -> None:
    """A UTC site's pages read "10:00–11:00 UTC", not "10:00–11:00 UTC (UTC, UTC)"."""
    utc = ZoneInfo("UTC")
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=utc), datetime(2019, 5, 22, 11, tzinfo=utc),
                 False, "UTC")
    assert formatting.when(s) == "Wed 22 May 2019, 10:00–11:00 UTC"
    assert formatting.zone_note(s) == ""
    offset = timezone(timedelta(hours=9))
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=offset),
                 datetime(2019, 5, 22, 11, tzinfo=offset), False, None)
    assert formatting.zone_note(s) == ""  # "UTC+09:00" is in the time's label already
    tokyo = ZoneInfo("Asia/Tokyo")
    s = Schedule(datetime(2019, 5, 22, 10, tzinfo=tokyo),
                 datetime(2019, 5, 22, 11, tzinfo=tokyo), False, "Asia/Tokyo")
    assert formatting.zone_note(s) == "Asia/Tokyo, UTC+09:00"  # JST: both still said
