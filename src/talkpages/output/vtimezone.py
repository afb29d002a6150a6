"""VTIMEZONE components that every calendar client reads the same way.

icalendar's own `add_missing_timezones()` writes all transitions of an observance as
one RDATE line with many values, which ical.js (Thunderbird) reads only the first of,
and adds a COMMENT that libical rejects. We write one STANDARD or DAYLIGHT component
per transition instead, each with a single DTSTART and no RDATE or RRULE: the plainest
form RFC 5545 allows, read alike by every implementation we test against. The
components cover the years the feed's events fall in, plus one on either side.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo

from . import ics

UTC = timezone.utc
# Changes of the clocks are months apart (the closest ever, a few weeks): a week-long
# step cannot miss one, and bisection then finds it to the second.
_STEP = timedelta(days=7)


def transitions(zone: str, first_year: int, last_year: int,
                ) -> list[tuple[datetime, timedelta, timedelta, str, bool]]:
    """(UTC instant, offset before, offset after, name after, is DST) for each change."""
    return list(_transitions(zone, first_year, last_year))


@lru_cache(maxsize=256)
def _transitions(zone: str, first_year: int, last_year: int,
                 ) -> tuple[tuple[datetime, timedelta, timedelta, str, bool], ...]:
    tz = ZoneInfo(zone)
    moment = datetime(max(first_year, 1), 1, 1, tzinfo=UTC) + _STEP
    end = datetime(min(last_year, 9998), 12, 31, tzinfo=UTC)
    found = []
    state = _state(moment, tz)
    while moment < end:
        following = moment + _STEP
        new_state = _state(following, tz)
        if new_state != state:
            low, high = moment, following  # bisect to the second of the change
            while high - low > timedelta(seconds=1):
                middle = low + (high - low) / 2
                if _state(middle, tz) == state:
                    low = middle
                else:
                    high = middle
            change = high.replace(microsecond=0)
            found.append((change, state[0], new_state[0], new_state[1], new_state[2]))
            state = new_state
        moment = following
    return tuple(found)


def _state(moment: datetime, tz: ZoneInfo) -> tuple[timedelta, str, bool]:
    local = moment.astimezone(tz)
    return (local.utcoffset() or timedelta(), local.tzname() or "",
            bool(local.dst()))


def vtimezone(zone: str, first_year: int, last_year: int) -> list[str]:
    """Content lines of a VTIMEZONE for `zone`, right for every instant of those years."""
    first_year, last_year = max(first_year - 1, 1), min(last_year + 1, 9998)
    start = datetime(first_year, 1, 1, 12, tzinfo=UTC)
    initial = _state(start, ZoneInfo(zone))
    out = ["BEGIN:VTIMEZONE", f"TZID:{zone}"]
    # The observance in force when the covered span begins.
    out += _observance(datetime(first_year, 1, 1), initial[0], initial[0], initial[1],
                       initial[2])
    for instant, before, after, name, dst in transitions(zone, first_year, last_year):
        local_start = (instant + before).replace(tzinfo=None)  # wall clock before the change
        out += _observance(local_start, before, after, name, dst)
    out.append("END:VTIMEZONE")
    return out


def _observance(local_start: datetime, before: timedelta, after: timedelta, name: str,
                dst: bool) -> list[str]:
    kind = "DAYLIGHT" if dst else "STANDARD"
    out = [f"BEGIN:{kind}", f"DTSTART:{ics.local_stamp(local_start)}",
           f"TZOFFSETFROM:{ics.offset(before)}", f"TZOFFSETTO:{ics.offset(after)}"]
    if name and name[0] not in "+-":
        out.append(f"TZNAME:{ics.text(name)}")
    out.append(f"END:{kind}")
    return out
