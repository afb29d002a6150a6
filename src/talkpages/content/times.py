"""Dates and times of talks: parsing what authors write, and resolving time zones.

The rules, in one place:
- A datetime with an offset (`2019-05-22T14:50:00+02:00`, `…Z`) is an instant, taken as
  given. When the talk names a `timezone`, it is shown in that zone.
- A naive datetime (`2019-05-22T14:50:00`) is wall-clock time in the talk's
  `timezone`, or else the site's `timezone` (UTC by default). A time that happens twice
  (clocks going back) is the first of the two, as RFC 5545 says; a time that never
  happens (clocks going forward) is reported.
- A date without a time, or `all_day = true`, makes an all-day event on the date as
  written (no zone conversion: `2020-03-05T00:00:00Z` with `all_day` is 5 March).
- An end on a later day makes a multi-day event; no end gives the site's default length.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from typing import Any, Generic, TypeVar, overload
from zoneinfo import ZoneInfo

UTC = timezone.utc
_DATE_START = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}")
# What dateutil may parse beyond ISO 8601: a space before the time or a numeric offset
# ("2019-05-22 14:50:00 +0200", Jekyll's style). Zone abbreviations are refused: "CST"
# means three different offsets, and dateutil would silently drop it.
_LENIENT = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?"
                      r"\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$", re.IGNORECASE)
_TIME_ONLY = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")

Moment = datetime | date | time
# Talks before the year 1000 are refused rather than written: feeds carry them well
# formed (four-digit years, day_stamp below), but the calendars tried part ways on them
# (libical ends each occurrence of a series of the year 990 at its start; ical.js and
# recurring-ical-events give three-digit years) and such a date is almost always a typo.
FIRST_YEAR = 1000


def parse_moment(value: Any) -> Moment | None:
    """A TOML/YAML value as a datetime, date or time; None for an empty value.

    Raises ValueError with a message an author can act on.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, (datetime, date, time)):
        return value
    if not isinstance(value, str):
        raise ValueError(f"expected a date such as 2019-05-22T14:50:00, got {value!r}")
    text = value.strip()
    if _TIME_ONLY.match(text):
        try:
            hour, minute, *second = (int(part) for part in text.split(":"))
            return time(hour, minute, second[0] if second else 0)
        except ValueError:
            raise ValueError(f"{text!r} is not a valid time of day") from None
    if not _DATE_START.match(text):
        raise ValueError(f"{text!r} is not a date: write 2019-05-22 or 2019-05-22T14:50:00")
    if len(text) == 11 and text[-1] in "Zz":  # a date "in UTC" is still just a date
        text = text[:-1]
    try:
        if len(text) <= 10:
            return date.fromisoformat(_zero_pad_date(text))
        return _check_offset(datetime.fromisoformat(text.replace("Z", "+00:00")
                                                    .replace("z", "+00:00")), text)
    except ValueError as exc:
        if "offset" in str(exc):
            raise ValueError(f"{text!r} has a UTC offset out of range: offsets run from "
                             "-12:00 to +14:00") from None
    try:
        from dateutil import parser as dateparser  # only for dates written as text

        parsed = dateparser.isoparse(text)
    except (ValueError, OverflowError):
        try:
            if not _LENIENT.match(text):
                raise ValueError(text)
            parsed = dateparser.parse(text)
        except (ValueError, OverflowError, dateparser.ParserError):
            raise ValueError(f"{text!r} is not a valid date and time: write "
                             "2019-05-22T14:50:00, optionally with an offset such as "
                             "+02:00") from None
    return _check_offset(parsed, text)


def _check_offset(value: datetime, text: str) -> datetime:
    """UTC offsets on Earth run from -12:00 to +14:00; anything past ±18:00 is a typo."""
    offset = value.utcoffset()
    if offset is not None and abs(offset) > timedelta(hours=18):
        raise ValueError(f"{text!r} has a UTC offset out of range: offsets run from "
                         "-12:00 to +14:00")
    return value


def _zero_pad_date(text: str) -> str:
    year, month, day = text.split("-")
    return f"{year}-{int(month):02d}-{int(day):02d}"


Value = TypeVar("Value")


class once(Generic[Value]):  # noqa: N801 - used as a decorator, as functools.cached_property
    """A property worked out on first use and kept in the instance, as
    `functools.cached_property`, but without the lock it takes on every first use in
    Python 3.11 (some microseconds, hundreds of thousands of times in a large build).
    Works on frozen dataclasses: it writes to the instance's __dict__."""

    def __init__(self, function: Callable[[Any], Value]):
        self.function = function
        self.name = function.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[Value]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> Value: ...

    def __get__(self, instance: object | None, owner: type | None = None,
                ) -> once[Value] | Value:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value


@dataclass(frozen=True)
class Schedule:
    """When a talk happens. Timed: aware datetimes. All-day: dates, `end` inclusive."""

    start: datetime | date
    end: datetime | date
    all_day: bool
    zone: str | None  # the IANA zone times are shown in; None for a fixed offset

    @property
    def tz(self) -> tzinfo:
        if isinstance(self.start, datetime) and self.start.tzinfo is not None:
            return self.start.tzinfo
        return ZoneInfo(self.zone) if self.zone else UTC

    @once  # asked for by every list and feed a talk is in
    def start_utc(self) -> datetime:
        """The instant the talk starts (an all-day talk: midnight in its zone)."""
        if isinstance(self.start, datetime):
            return self.start.astimezone(UTC)
        return _midnight(self.start, self.tz)

    @once
    def end_utc(self) -> datetime:
        """The instant the talk is over (an all-day talk: midnight after its last day)."""
        if isinstance(self.end, datetime):
            return self.end.astimezone(UTC)
        return _midnight(self.end + timedelta(days=1), self.tz)

    @property
    def multi_day(self) -> bool:
        return _day(self.start) != _day(self.end)


def _day(value: datetime | date) -> date:
    return value.date() if isinstance(value, datetime) else value


def _midnight(day: date, tz: tzinfo) -> datetime:
    return datetime.combine(day, time(), tz).astimezone(UTC)


class ScheduleError(ValueError):
    def __init__(self, message: str, field: str, hint: str | None = None):
        super().__init__(message)
        self.field = field
        self.hint = hint


def resolve(start: Moment, end: Moment | None, *, all_day: bool, zone: str | None,
            default_zone: str, default_length: timedelta,
            start_field: str = "date", end_field: str = "date_end") -> Schedule:
    """Turn the author's values into a Schedule, or raise ScheduleError."""
    if isinstance(start, time):
        raise ScheduleError(f"`{start_field}` has a time but no day", start_field,
                            "write the full date, such as 2019-05-22T14:50:00")
    if start.year < FIRST_YEAR:
        raise ScheduleError(f"`{start_field}` is in the year {start.year}: talkpages handles "
                            f"talks from the year {FIRST_YEAR} on", start_field,
                            "check the year (written with four digits, such as 2019)")
    if all_day or not isinstance(start, datetime):
        return _all_day(_day(start), end, zone or default_zone, end_field)
    shown_zone = zone or (default_zone if start.tzinfo is None else None)
    begin = _localize(start, zone, default_zone, start_field)
    if end is None:
        return Schedule(begin, _after(begin, default_length), False, shown_zone)
    if isinstance(end, time):
        end = datetime.combine(start.date(), end)
    if isinstance(end, datetime):
        if end.tzinfo is None and start.tzinfo is not None and not zone:
            end = end.replace(tzinfo=start.tzinfo)  # a naive end shares the start's offset
        finish = _localize(end, zone, default_zone, end_field)
    elif end == start.date():
        return Schedule(begin, _after(begin, default_length), False, shown_zone)
    else:  # a timed start and a later end day: a multi-day event over whole days
        return _all_day(start.date(), end, zone or default_zone, end_field)
    if finish.astimezone(UTC) < begin.astimezone(UTC):
        raise ScheduleError(
            f"`{end_field}` ({finish.isoformat()}) is before `{start_field}` "
            f"({begin.isoformat()})", end_field, "the end must be at or after the start")
    return Schedule(begin, finish, False, shown_zone)


def _after(begin: datetime, length: timedelta) -> datetime:
    """`length` of real time after `begin` (Python's own `+` adds wall-clock time)."""
    tz = begin.tzinfo
    return (begin.astimezone(UTC) + length).astimezone(tz)


def _all_day(first: date, end: Moment | None, zone: str, end_field: str) -> Schedule:
    last = first
    if isinstance(end, (datetime, date)):
        last = _day(end)
    if last < first:
        raise ScheduleError(f"`{end_field}` ({last.isoformat()}) is before the first day "
                            f"({first.isoformat()})", end_field,
                            "the last day must be on or after the first")
    return Schedule(first, last, True, zone)


def _localize(value: datetime, zone: str | None, default_zone: str, field: str) -> datetime:
    if value.tzinfo is None:
        tz = ZoneInfo(zone or default_zone)
        local = value.replace(tzinfo=tz)
        round_trip = local.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
        if round_trip != value:
            raise ScheduleError(
                f"`{field}` {value.isoformat()} does not exist in {zone or default_zone}: "
                "the clocks skip that hour", field,
                f"did you mean {round_trip.isoformat()}?")
        return local
    if zone:
        return value.astimezone(ZoneInfo(zone))
    return value


def zone_label(moment: datetime) -> str:
    """A short name for the zone of `moment`: CEST, or UTC+08:00 when it has none."""
    name = moment.tzname() or ""
    if name and name[0] not in "+-" and name != "UTC":
        return name
    return utc_offset(moment)


def utc_offset(moment: datetime) -> str:
    offset = moment.utcoffset() or timedelta()
    if not offset:
        return "UTC"
    sign = "+" if offset >= timedelta() else "\u2212"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def day_stamp(day: date) -> str:
    """A DATE value, 20190522. Every date written into a feed goes through here and the
    two below (the feed's writer, output/ics.py, and the RRULE's UNTIL): strftime's %Y
    writes the year 999 as `999` (the C library decides), which makes a value no client
    reads as a date; RFC 5545 wants four digits."""
    return f"{day.year:04d}{day.month:02d}{day.day:02d}"


def local_stamp(moment: datetime) -> str:
    """A DATE-TIME as the clock shows it (floating, or with a TZID)."""
    return f"{day_stamp(moment)}T{moment.hour:02d}{moment.minute:02d}{moment.second:02d}"


def utc_stamp(moment: datetime) -> str:
    """A DATE-TIME in UTC, 20190522T125000Z."""
    return local_stamp(moment.astimezone(UTC)) + "Z"
