"""Human-readable dates and times, always in the event's own zone, the zone named.

English, independent of the machine's locale, so that two machines build the same
bytes: `Wed 22 May 2019, 14:50–15:25 CEST`.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

from ..content.times import Schedule, utc_offset, zone_label

DASH = "\u2013"
# The names strftime's %a and %b give in the C locale, looked up rather than asked of
# strftime: the same bytes whatever the locale, at a tenth of the time (a talk page and
# each of a talk's fragments write several dates).
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day(value: date) -> str:
    return f"{WEEKDAYS[value.weekday()]} {value.day} {MONTHS[value.month - 1]} {value.year}"


def short_day(value: date) -> str:
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def clock(value: datetime) -> str:
    return f"{value.hour:02d}:{value.minute:02d}"


def when(schedule: Schedule) -> str:
    """The whole date and time range of a talk."""
    start, end = schedule.start, schedule.end
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return _days(_as_date(start), _as_date(end))
    first, last = zone_label(start), zone_label(end)
    if start.date() == end.date():
        if first == last:
            return f"{day(start)}, {clock(start)}{DASH}{clock(end)} {first}"
        return f"{day(start)}, {clock(start)} {first} {DASH} {clock(end)} {last}"
    if first == last:
        return f"{day(start)}, {clock(start)} {DASH} {day(end)}, {clock(end)} {first}"
    return f"{day(start)}, {clock(start)} {first} {DASH} {day(end)}, {clock(end)} {last}"


def _days(first: date, last: date) -> str:
    if first == last:
        return day(first)
    if first.year != last.year:
        return f"{day(first)} {DASH} {day(last)}"
    if first.month != last.month:
        return f"{WEEKDAYS[first.weekday()]} {first.day} {MONTHS[first.month - 1]} {DASH} " \
            f"{day(last)}"
    return f"{WEEKDAYS[first.weekday()]} {first.day} {DASH} {day(last)}"


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def short_when(schedule: Schedule) -> str:
    """The day (or days) only, for lists."""
    first, last = _as_date(schedule.start), _as_date(schedule.end)
    if first == last:
        return short_day(first)
    if first.year == last.year and first.month == last.month:
        return f"{first.day}{DASH}{short_day(last)}"
    return f"{short_day(first)} {DASH} {short_day(last)}"


def schedule_when(schedule: Schedule) -> str:
    """A list row of an upcoming talk, as a schedule reads: the weekday, the start and its
    zone (`Thu 14 Jan 2027 · 18:00 EST`); the days with their weekdays when all-day."""
    start = schedule.start
    if schedule.all_day or not isinstance(start, datetime):
        return _days(_as_date(start), _as_date(schedule.end))
    return f"{day(start)} \u00b7 {start_time(schedule)}"


def start_time(schedule: Schedule) -> str:
    """The time a timed talk starts and its zone (`18:00 EST`); empty when all-day."""
    start = schedule.start
    if schedule.all_day or not isinstance(start, datetime):
        return ""
    return f"{clock(start)} {zone_label(start)}"


def instant(value: datetime) -> str:
    """An instant in UTC for a script (`2027-01-14T23:00:00Z`): when a talk starts or is
    over, all-day talks included (their midnights in the talk's zone)."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def zone_note(schedule: Schedule) -> str:
    """The zone spelled out: `Europe/Madrid, UTC+02:00`; empty for all-day talks, and
    for times in UTC or at an offset, which the time's own label names already."""
    if schedule.all_day or not isinstance(schedule.start, datetime):
        return ""
    label = zone_label(schedule.start)  # what `when` already says: never twice
    parts = dict.fromkeys(p for p in (schedule.zone, utc_offset(schedule.start)) if p)
    return ", ".join(p for p in parts if p != label)


def machine(value: date) -> str:
    """The `datetime` attribute of <time>: ISO 8601 with the real offset."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes" if not value.second else "seconds")
    return value.isoformat()
