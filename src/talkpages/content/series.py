"""`[series.<key>]` of talkpages.toml: a seminar series or a meetup, declared once.

A series is a slot (a weekday, a time, a length, a room) that recurs weekly or on
one week of each month (`week = 1..4` or `"last"`: "the first Friday"), over a term
(`starts`, `ends`) less its `breaks`. Talks join it by key (`series = "colloquium"`,
slots.py); the slot dates of the term without a talk are shown as "To be announced".

A site folder may be a stranger's: a term is at most MAX_TERM_DAYS long and a series
has at most MAX_BREAKS breaks, so no declaration makes a build list unbounded dates.
Every problem names its key (`series.colloquium.weekday`), which config.py turns into
the line of talkpages.toml it is on.
"""

from __future__ import annotations

import difflib
import re
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

MAX_TERM_DAYS = 5 * 366  # a term of five years: 261 weekly dates at most
MAX_BREAKS = 200
MAX_SERIES = 100
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
FREQUENCIES = ("weekly", "monthly")
KEYS = ("title", "description", "weekday", "time", "duration", "timezone", "location",
        "frequency", "week", "starts", "ends", "breaks")
KEY = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


@dataclass(frozen=True)
class Series:
    key: str
    title: str
    description: str = ""
    weekday: int | None = None  # 0 Monday … 6 Sunday
    time: time | None = None  # the slot's start, wall-clock time in `timezone`
    duration: int | None = None  # minutes; else the site's default_length
    timezone: str = ""  # "": the site's
    location: str = ""
    frequency: str = "weekly"
    week: int = 0  # monthly: 1 to 4, or -1 for the last
    starts: date | None = None
    ends: date | None = None
    breaks: tuple[tuple[date, date], ...] = ()  # first and last day of each, inclusive

    @property
    def url(self) -> str:
        return f"series/{self.key}/"

    def zone(self, site_zone: str) -> str:
        return self.timezone or site_zone

    def in_break(self, day: date) -> bool:
        return any(first <= day <= last for first, last in self.breaks)

    def on_slot_day(self, day: date) -> bool:
        """Is `day` the slot's weekday (and week of the month), whatever the term?"""
        if self.weekday is None:
            return True
        if day.weekday() != self.weekday:
            return False
        if self.frequency == "monthly":
            if self.week == -1:
                return (day + timedelta(days=7)).month != day.month
            return (day.day - 1) // 7 + 1 == self.week
        return True

    def off_slot(self, day: date) -> str | None:
        """Why `day` is no session of the series, or None when it is one."""
        if self.starts is not None and self.ends is not None \
                and not self.starts <= day <= self.ends:
            return (f"outside the term of the series ({self.starts.isoformat()} to "
                    f"{self.ends.isoformat()})")
        if not self.on_slot_day(day):
            return f"not a date of its slot ({describe(self)})"
        if self.in_break(day):
            return "in a break of the series"
        return None

    def dates(self) -> Iterator[date]:
        """The session dates of the term (none without a term or a weekday)."""
        if self.starts is None or self.ends is None or self.weekday is None:
            return
        day = self.starts + timedelta(days=(self.weekday - self.starts.weekday()) % 7)
        while day <= self.ends:
            if self.on_slot_day(day) and not self.in_break(day):
                yield day
            day += timedelta(days=7)


def describe(series: Series) -> str:
    """The slot in English, for messages of `check` ("every Friday")."""
    if series.weekday is None:
        return "no weekday"
    name = WEEKDAYS[series.weekday].title()
    if series.frequency == "weekly":
        return f"every {name}"
    ordinal = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}[series.week]
    return f"the {ordinal} {name} of each month"


class SeriesError(ValueError):
    """The problems of `[series]`, each with the dotted key it is at."""

    def __init__(self, problems: list[tuple[str, str, str | None]]):
        super().__init__(problems[0][1])
        self.problems = problems


def series_table(value: Any) -> dict[str, Series]:
    """The validator of `series`: every series, or SeriesError with every problem."""
    problems: list[tuple[str, str, str | None]] = []
    if not isinstance(value, dict):
        raise SeriesError([("series", "expected tables such as [series.colloquium]", None)])
    if len(value) > MAX_SERIES:
        raise SeriesError([("series", f"more than {MAX_SERIES} series", None)])
    found = {}
    for key, table in value.items():
        where = f"series.{key}"
        if not KEY.match(str(key)):
            problems.append((where, f"the key {key!r} is not usable in an address",
                             "lower-case letters, digits and dashes, such as "
                             "[series.colloquium]"))
            continue
        if not isinstance(table, dict):
            problems.append((where, "expected a table with at least a `title`",
                             f"[series.{key}] title = \"…\""))
            continue
        reader = _Reader(where, table, problems)
        series = reader.series(str(key))
        if series is not None:
            found[str(key)] = series
    if problems:
        raise SeriesError(problems)
    return found


class _Reader:
    def __init__(self, where: str, table: dict[str, Any],
                 problems: list[tuple[str, str, str | None]]):
        self.where, self.table, self.problems = where, table, problems

    def problem(self, key: str, message: str, hint: str | None = None) -> None:
        self.problems.append((f"{self.where}.{key}", message, hint))

    def text(self, key: str) -> str:
        value = self.table.get(key, "")
        if not isinstance(value, str):
            self.problem(key, "expected text")
            return ""
        return value.strip()

    def series(self, key: str) -> Series | None:
        count = len(self.problems)
        for name in self.table:
            if name not in KEYS:
                close = difflib.get_close_matches(str(name), KEYS, n=1)
                self.problem(str(name), "not a key of a series",
                             f"did you mean {close[0]!r}?" if close else
                             f"a series has {', '.join(KEYS)}")
        title = self.text("title")
        if not title:
            self.problems.append((self.where, "a series needs a `title`",
                                  f"[series.{key}] title = \"…\""))
        frequency = self.table.get("frequency", "weekly")
        if frequency not in FREQUENCIES:
            self.problem("frequency", f"expected \"weekly\" or \"monthly\", got {frequency!r}")
        values = dict(
            description=self.text("description"), location=self.text("location"),
            weekday=self._weekday(), time=self._time(), duration=self._duration(),
            timezone=self._zone(), week=self._week(frequency), starts=self._day("starts"),
            ends=self._day("ends"), breaks=self._breaks())
        starts, ends = values["starts"], values["ends"]
        if (starts is None) != (ends is None):
            missing = "ends" if ends is None else "starts"
            self.problem("starts" if starts is not None else "ends",
                         f"a term needs both `starts` and `ends`; `{missing}` is missing")
        elif isinstance(starts, date) and isinstance(ends, date):
            if ends < starts:
                self.problem("ends", f"{ends.isoformat()} is before `starts` "
                             f"({starts.isoformat()})")
            elif (ends - starts).days > MAX_TERM_DAYS:
                self.problem("ends", f"a term is at most {MAX_TERM_DAYS} days long",
                             "declare a series for each year, or move `starts` on")
            if values["weekday"] is None:
                self.problem("starts", "a term needs the slot's `weekday`")
        if len(self.problems) > count:
            return None
        return Series(key=key, title=title, frequency=str(frequency),
                      **values)  # type: ignore[arg-type]

    def _weekday(self) -> int | None:
        value = self.table.get("weekday")
        if value is None:
            return None
        name = value.strip().lower() if isinstance(value, str) else ""
        if name not in WEEKDAYS:
            self.problem("weekday", f"expected a day of the week such as \"friday\", got "
                         f"{value!r}")
            return None
        return WEEKDAYS.index(name)

    def _time(self) -> time | None:
        value = self.table.get("time")
        if value is None:
            return None
        if isinstance(value, time) and value.tzinfo is None:
            return value
        match = _CLOCK.match(value.strip()) if isinstance(value, str) else None
        if match and int(match[1]) < 24 and int(match[2]) < 60:
            return time(int(match[1]), int(match[2]))
        self.problem("time", f"expected a time of day such as \"15:30\", got {value!r}",
                     "the wall-clock time in the series' timezone, without an offset")
        return None

    def _duration(self) -> int | None:
        value = self.table.get("duration")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 24 * 60:
            self.problem("duration", f"expected minutes from 1 to 1440, such as 60, got "
                         f"{value!r}")
            return None
        return value

    def _zone(self) -> str:
        from .config import check_timezone

        name = self.text("timezone")
        if name:
            try:
                check_timezone(name)
            except (ValueError, zoneinfo.ZoneInfoNotFoundError) as exc:
                self.problem("timezone", str(exc))
                return ""
        return name

    def _week(self, frequency: Any) -> int:
        value = self.table.get("week")
        if frequency != "monthly":
            if value is not None:
                self.problem("week", "only a monthly series has a `week`",
                             "add frequency = \"monthly\"")
            return 0
        if value == "last":
            return -1
        if isinstance(value, bool) or value not in (1, 2, 3, 4):
            self.problem("week", f"expected 1, 2, 3, 4 or \"last\", got {value!r}",
                         "week = 1 for the first Friday of each month")
            return 0
        return int(value)

    def _day(self, key: str) -> date | None:
        value = self.table.get(key)
        if value is None:
            return None
        day = _as_day(value)
        if day is None:
            self.problem(key, f"expected a date such as 2027-01-08, got {value!r}")
        return day

    def _breaks(self) -> tuple[tuple[date, date], ...]:
        value = self.table.get("breaks")
        if value is None:
            return ()
        if not isinstance(value, list) or len(value) > MAX_BREAKS:
            self.problem("breaks", f"expected a list of at most {MAX_BREAKS} dates or "
                         "[first, last] ranges", "breaks = [2027-02-12, [2027-03-29, "
                         "2027-04-09]]")
            return ()
        found = []
        for item in value:
            pair = item if isinstance(item, list) else [item, item]
            days = [_as_day(day) for day in pair]
            if len(days) != 2 or None in days or days[1] < days[0]:  # type: ignore[operator]
                self.problem("breaks", f"{item!r} is not a date or a [first, last] range",
                             "breaks = [2027-02-12, [2027-03-29, 2027-04-09]]")
                continue
            found.append((days[0], days[1]))
        return tuple(found)  # type: ignore[arg-type]


def _as_day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None
