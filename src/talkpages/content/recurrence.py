"""Recurring talks: a weekly meetup, a lecture series.

A talk's `recurrence` is an RFC 5545 RRULE value (`FREQ=WEEKLY;COUNT=10`,
`FREQ=WEEKLY;UNTIL=2019-12-31`), with optional `exdates`. Occurrences follow the wall
clock of the talk's zone, as RFC 5545 says: a weekly 19:00 talk in Madrid is at 19:00
in winter and in summer, so its UTC time moves when the clocks change. python-dateutil
expands the rule for the site; the feed carries the RRULE itself, with UNTIL in UTC
when the start has a zone, and one EXDATE per excluded date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from . import rulecheck
from .rulecheck import RecurrenceError
from .times import Schedule, day_stamp, parse_moment, utc_stamp

if TYPE_CHECKING:
    from dateutil import rrule

UTC = timezone.utc
MAX_OCCURRENCES = 1000  # shown on the page and checked; the feed keeps the rule itself
_UNTIL = re.compile(r"^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2}):?(\d{2}):?(\d{2})?(Z)?)?$",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Recurrence:
    parts: tuple[tuple[str, str], ...]  # the rule's NAME=VALUE pairs, UNTIL left out
    until: datetime | date | None  # UTC instant (timed talks) or last day (all-day)
    exdates: tuple[datetime | date, ...]  # aware in the talk's zone, or days

    def rule(self, utc_until: bool = True) -> str:
        """The RRULE value for the feed."""
        parts = [f"{k}={v}" for k, v in self.parts]
        if isinstance(self.until, datetime):
            parts.append(f"UNTIL={utc_stamp(self.until)}")
        elif isinstance(self.until, date):
            parts.append(f"UNTIL={day_stamp(self.until)}")
        return ";".join(parts)

    @property
    def bounded(self) -> bool:
        return self.until is not None or any(k == "COUNT" for k, _ in self.parts)


def parse(value: object, exdates: object, schedule: Schedule) -> Recurrence:
    """Check and normalise a `recurrence` field; raise RecurrenceError saying what is
    wrong, and in which field."""
    try:
        return _parse(value, exdates, schedule)
    except RecurrenceError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:  # dateutil's, in its words
        raise RecurrenceError(f"invalid `recurrence`: {exc}") from None


def _parse(value: object, exdates: object, schedule: Schedule) -> Recurrence:
    if not isinstance(value, str):
        raise RecurrenceError("`recurrence` must be an RRULE written as text, such as "
                              "\"FREQ=WEEKLY;COUNT=10\"")
    parts, until_text = rulecheck.read(value, schedule.all_day)
    until = _until(until_text, schedule) if until_text else None
    result = Recurrence(parts, until, _exdates(exdates, schedule))
    rulecheck.check_dates(parts, *_wall_clock(result, schedule))
    count = dict(parts).get("COUNT")
    if result.exdates and result.bounded and int(count or 0) <= len(result.exdates) \
            and not occurrences(schedule, result, limit=1):
        raise RecurrenceError("`exdates` leave out every date of the series",
                              "a talk that no longer takes place can stay in the feed with "
                              'status = "cancelled"', field="exdates")
    return result


def _until(text: str, schedule: Schedule) -> datetime | date:
    match = _UNTIL.match(text)
    if not match:
        raise RecurrenceError(f"`recurrence` UNTIL={text} is not a date such as 20191231 or "
                              "20191231T235959Z")
    year, month, day, hour, minute, second, utc = match.groups()
    try:
        day_value = date(int(year), int(month), int(day))
        if schedule.all_day:
            return day_value
        if hour is None:  # a day: the whole of it, in the talk's zone
            local = datetime.combine(day_value, time(23, 59, 59))
        else:
            local = datetime(int(year), int(month), int(day), int(hour), int(minute),
                             int(second or 0))
        if utc:
            return local.replace(tzinfo=UTC)
        return local.replace(tzinfo=schedule.tz).astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise RecurrenceError(f"`recurrence` UNTIL={text} is not a real date and time: "
                              f"{exc}") from None


def _wall_clock(recurrence: Recurrence, schedule: Schedule) -> tuple[datetime, datetime | None]:
    """The start and UNTIL as the talk's wall clock shows them, which the rule follows."""
    start, until = schedule.start, recurrence.until
    if not isinstance(start, datetime):
        return (datetime.combine(start, time()),
                datetime.combine(until, time()) if isinstance(until, date) else None)
    wall = until.astimezone(start.tzinfo).replace(tzinfo=None) \
        if isinstance(until, datetime) else None
    return start.replace(tzinfo=None), wall


def _exdates(value: object, schedule: Schedule) -> tuple[datetime | date, ...]:
    if value in (None, "", []):
        return ()
    items = value if isinstance(value, list) else [value]
    found: list[datetime | date] = []
    for item in items:
        try:
            moment = parse_moment(item)
        except ValueError as exc:
            raise RecurrenceError(f"`exdates`: {exc}", None, field="exdates") from None
        if isinstance(moment, datetime):
            aware = moment if moment.tzinfo else moment.replace(tzinfo=schedule.tz)
            found.append(moment.date() if schedule.all_day else aware.astimezone(schedule.tz))
        elif isinstance(moment, date):
            found.append(moment)
        else:
            raise RecurrenceError(f"`exdates` entry {item!r} is not a date",
                                  "write dates or date-times, like `date`", field="exdates")
    return tuple(found)


def _rule(recurrence: Recurrence, schedule: Schedule) -> rrule.rrule:
    """The dateutil rule, on aware wall-clock times (timed) or midnights (all-day)."""
    start = schedule.start
    until: datetime | None = None
    if isinstance(start, datetime):
        if isinstance(recurrence.until, datetime):
            until = recurrence.until.astimezone(start.tzinfo)
    else:
        start = datetime.combine(start, time())
        if isinstance(recurrence.until, date):
            until = datetime.combine(recurrence.until, time())
    text = ";".join(f"{k}={v}" for k, v in recurrence.parts)
    from dateutil import rrule  # only for talks that recur

    rule = rrule.rrulestr(text, dtstart=start)
    assert isinstance(rule, rrule.rrule)
    return rule.replace(until=until) if until is not None else rule


def occurrences(schedule: Schedule, recurrence: Recurrence,
                limit: int = MAX_OCCURRENCES) -> list[Schedule]:
    """The talk's occurrences in order, excluded dates left out, at most `limit`."""
    try:
        rule = _rule(recurrence, schedule)
    except (ValueError, TypeError) as exc:  # checked in parse(); here for safety
        raise ValueError(str(exc)) from None
    length = _length(schedule)
    excluded_days = {d for d in recurrence.exdates if not isinstance(d, datetime)}
    excluded = {d.astimezone(UTC) for d in recurrence.exdates if isinstance(d, datetime)}
    found: list[Schedule] = []
    for start in rule:
        if len(found) >= limit:
            break
        if schedule.all_day:
            day = start.date()
            if day in excluded_days:
                continue
            found.append(Schedule(day, day + length, True, schedule.zone))
            continue
        start = _real(start)
        if start.astimezone(UTC) in excluded or start.date() in excluded_days:
            continue
        end = (start.astimezone(UTC) + length).astimezone(start.tzinfo)
        found.append(Schedule(start, end, False, schedule.zone))
    return found


def _length(schedule: Schedule) -> timedelta:
    if isinstance(schedule.start, datetime) and isinstance(schedule.end, datetime):
        return schedule.end.astimezone(UTC) - schedule.start.astimezone(UTC)
    first = schedule.start if not isinstance(schedule.start, datetime) else schedule.start.date()
    last = schedule.end if not isinstance(schedule.end, datetime) else schedule.end.date()
    return last - first


def _real(moment: datetime) -> datetime:
    """A wall-clock time that the clocks skip is moved past the gap, as RFC 5545 says."""
    tz = moment.tzinfo
    if not isinstance(tz, ZoneInfo):
        return moment
    round_trip = moment.astimezone(UTC).astimezone(tz)
    return round_trip if round_trip.replace(tzinfo=None) != moment.replace(tzinfo=None) \
        else moment
