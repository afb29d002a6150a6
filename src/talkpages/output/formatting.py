"""Dates and times as people read them, in the site's language, always in the event's
own zone, the zone named: CLDR's patterns and names, through Babel, so that a German
page reads `Mi., 22. Mai 2019, 14:50–15:25 Uhr MESZ` and an American English one
`Wed, May 22, 2019, 2:50 – 3:25 PM Madrid (GMT+02:00)`.

The zone: CLDR's short name of it where the language has one in common use (`MESZ` in
German, `CEST` in British English, `EST` in American English), else the zone's city and
its offset; never a bare abbreviation CLDR does not vouch for ("CST" is both China's
and the American Central time). The browser's `Intl` writes the visitor's own time from
CLDR too (site.js), in the same order and words; its spaces and its names of zones may
differ slightly with the browser's version of the data.

The same bytes on every machine, whatever its locale. Each text is made once a build
for each value (a day, a time of day, a range of them, a zone at an offset) and looked
up after: a site's talks share their days and hours, and Babel's formatting costs
microseconds a call.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timezone
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.dates import (
    format_interval,
    format_time,
    get_timezone_gmt,
    get_timezone_location,
    get_timezone_name,
    match_skeleton,
    parse_pattern,
)

from ..content.times import Schedule

_KEPT = 500_000  # texts kept at most (some 60 MB): then forgotten, and made again
# A schedule's texts kept at most, of each kind: a talk's page, list item, feed entry and
# records ask for them one after the other, and a talk listed on many pages is made once
# for all of them (talkview's `others`). Kept for every talk, 10,000 talks' texts would
# be 13 MB of memory read by nothing after their talk's page, in every worker.
_SCHEDULES_KEPT = 2048
_OFFSET_ONLY = re.compile(r"[+\-\u2212]\d{2}:?\d{2}")  # Babel's answer when CLDR has no name


class Dates:
    """The date and time texts of one locale; `dates_for` keeps one per locale."""

    def __init__(self, locale: Locale) -> None:
        self.locale = locale
        self.hour = "H" if "H" in locale.time_formats["short"].pattern else "h"
        self.joined = str(locale.datetime_formats["medium"])  # "{1}, {0}": day, time
        self._texts: dict[Any, str] = {}
        self._day, self._short_day = _DayPattern(locale, "yMMMEd"), _DayPattern(locale, "yMMMd")
        self._ranges = {skeleton: _DaysPattern(locale, skeleton)
                        for skeleton in ("yMMMEd", "yMMMd")}
        self._clocks = _HoursPattern(locale, f"{self.hour}m")
        self._when_kept: dict[int, tuple[Schedule, str]] = {}
        self._short_when_kept: dict[int, tuple[Schedule, str]] = {}
        self._schedule_when_kept: dict[int, tuple[Schedule, str]] = {}
        self._start_time_kept: dict[int, tuple[Schedule, str]] = {}
        self._zone_note_kept: dict[int, tuple[Schedule, str]] = {}

    def _once(self, key: Any, make: Any) -> str:
        text = self._texts.get(key)
        return self._keep(key, make()) if text is None else text

    def _keep(self, key: Any, text: str) -> str:
        """`text` kept under `key` (the callers look first: a look-up, not a closure)."""
        if len(self._texts) >= _KEPT:  # `serve` builds again and again: bounded
            self._texts.clear()
        self._texts[key] = text
        return text

    def _of(self, kept: dict[int, tuple[Schedule, str]], schedule: Schedule,
            make: Callable[[Schedule], str]) -> str:
        """A text of a talk's schedule, made once: a talk's page, list item, feed entry and
        records each ask for it. Kept by the schedule's id, with the schedule (so that the
        id stays its own): a talk's page asks for several, and hashing a schedule costs
        more than making some of them."""
        found = kept.get(id(schedule))
        if found is not None and found[0] is schedule:
            return found[1]
        if len(kept) >= _SCHEDULES_KEPT:
            kept.clear()
        text = make(schedule)
        kept[id(schedule)] = (schedule, text)
        return text

    # ---- the pieces, each made once a value ----
    def day(self, value: date) -> str:
        """`Wed, May 22, 2019`; `Mi., 22. Mai 2019`."""
        text = self._texts.get(key := ("day", value))
        return self._keep(key, self._day(value)) if text is None else text

    def short_day(self, value: date) -> str:
        """`May 22, 2019`; `22. Mai 2019`."""
        text = self._texts.get(key := ("short", value))
        return self._keep(key, self._short_day(value)) if text is None else text

    def clock(self, value: datetime) -> str:
        """`2:50 PM`; `14:50`."""
        text = self._texts.get(key := ("clock", value.hour, value.minute))
        return self._keep(key, format_time(time(value.hour, value.minute), "short",
                                           locale=self.locale)) if text is None else text

    def clocks(self, start: datetime, end: datetime) -> str:
        """The hours of one day: `2:50 – 3:25 PM`; `14:50–15:25 Uhr`."""
        key = ("clocks", start.hour, start.minute, end.hour, end.minute)
        text = self._texts.get(key)
        return self._keep(key, self._clocks(time(start.hour, start.minute), time(
            end.hour, end.minute))) if text is None else text

    def days(self, first: date, last: date, skeleton: str = "yMMMEd") -> str:
        """A range of days: `Thu, Mar 4 – Sat, Mar 6, 2027`; one day alone as `day`."""
        if first == last:
            return self.day(first) if skeleton == "yMMMEd" else self.short_day(first)
        ranges = self._ranges.get(skeleton)
        return self._once(("days", first, last, skeleton), lambda: ranges(first, last)
                          if ranges is not None else format_interval(first, last, skeleton,
                                                                     locale=self.locale))

    def zone(self, moment: datetime) -> str:
        """The zone of `moment` as the page names it (see the module's docstring)."""
        tz = moment.tzinfo
        key = ("zone", getattr(tz, "key", None), moment.utcoffset(), moment.dst())
        text = self._texts.get(key)
        return self._keep(key, self._zone(moment)) if text is None else text

    def _zone(self, moment: datetime) -> str:
        if moment.utcoffset() == timezone.utc.utcoffset(None) and \
                getattr(moment.tzinfo, "key", "UTC") in ("UTC", "Etc/UTC", "Etc/GMT"):
            return "UTC"
        offset = get_timezone_gmt(moment, "long", locale=self.locale)
        if getattr(moment.tzinfo, "key", None) is None:  # an offset, no zone: the offset
            return offset
        short = get_timezone_name(moment, "short", locale=self.locale)
        if short and not _OFFSET_ONLY.fullmatch(short) and short != offset \
                and short != get_timezone_name(moment, "long", locale=self.locale):
            return short  # (Babel gives the long name where CLDR marks none in use)
        city = get_timezone_location(moment, locale=self.locale, return_city=True)
        return str(self.locale.zone_formats["fallback"] % {"0": offset, "1": city})

    def zone_name(self, moment: datetime) -> str:
        """CLDR's long name of the zone at `moment` (`Central European Summer Time`), or
        "" when it has none."""
        key = ("zone name", getattr(moment.tzinfo, "key", None), moment.utcoffset(),
               moment.dst())

        def make() -> str:
            if getattr(moment.tzinfo, "key", None) is None:
                return ""
            name = get_timezone_name(moment, "long", locale=self.locale)
            return "" if _OFFSET_ONLY.fullmatch(name) or name.startswith(
                get_timezone_gmt(moment, "long", locale=self.locale)[:3]) else name
        return self._once(key, make)

    def _with_time(self, day_text: str, time_text: str) -> str:
        return self.joined.replace("{1}", day_text).replace("{0}", time_text)

    def moment(self, value: datetime) -> str:
        """One instant with its day and zone: `Mon, May 20, 2030, 12:00 PM CEST`."""
        return f"{self._with_time(self.day(value), self.clock(value))} {self.zone(value)}"

    # ---- what the pages show ----
    def when(self, schedule: Schedule) -> str:
        return self._of(self._when_kept, schedule, self._when)

    def _when(self, schedule: Schedule) -> str:
        """The whole date and time range of a talk."""
        start, end = schedule.start, schedule.end
        if not isinstance(start, datetime) or not isinstance(end, datetime):
            return self.days(_as_date(start), _as_date(end))
        first, last = self.zone(start), self.zone(end)
        if start.date() == end.date():
            if first == last:
                return f"{self._with_time(self.day(start), self.clocks(start, end))} {first}"
            return (f"{self._with_time(self.day(start), self.clock(start))} {first} \u2013 "
                    f"{self.clock(end)} {last}")
        said = "" if first == last else f" {first}"  # one zone: said once, at the end
        return (f"{self._with_time(self.day(start), self.clock(start))}{said} \u2013 "
                f"{self._with_time(self.day(end), self.clock(end))} {last}")

    def short_when(self, schedule: Schedule) -> str:
        return self._of(self._short_when_kept, schedule, self._short_when)

    def _short_when(self, schedule: Schedule) -> str:
        """The day (or days) only, for lists: `May 22, 2019`."""
        return self.days(_as_date(schedule.start), _as_date(schedule.end), "yMMMd")

    def schedule_when(self, schedule: Schedule) -> str:
        return self._of(self._schedule_when_kept, schedule, self._schedule_when)

    def _schedule_when(self, schedule: Schedule) -> str:
        """A list row of an upcoming talk, as a schedule reads: the weekday, the start and
        its zone (`Thu, Jan 14, 2027 · 6:00 PM EST`); the days with their weekdays when
        all-day."""
        start = schedule.start
        if schedule.all_day or not isinstance(start, datetime):
            return self.days(_as_date(start), _as_date(schedule.end))
        return f"{self.day(start)} \u00b7 {self.start_time(schedule)}"

    def start_time(self, schedule: Schedule) -> str:
        return self._of(self._start_time_kept, schedule, self._start_time)

    def _start_time(self, schedule: Schedule) -> str:
        """The time a timed talk starts and its zone (`6:00 PM EST`); "" when all-day."""
        start = schedule.start
        if schedule.all_day or not isinstance(start, datetime):
            return ""
        return f"{self.clock(start)} {self.zone(start)}"

    def zone_note(self, schedule: Schedule) -> str:
        return self._of(self._zone_note_kept, schedule, self._zone_note)

    def _zone_note(self, schedule: Schedule) -> str:
        """The zone spelled out: `Europe/Madrid, Central European Summer Time`; what
        `when` says already is not said again; "" for all-day talks and for times at an
        offset or in UTC, which `when` names whole."""
        start = schedule.start
        if schedule.all_day or not isinstance(start, datetime):
            return ""
        label = self.zone(start)
        if label == "UTC":
            return ""
        parts = dict.fromkeys(p for p in (schedule.zone, self.zone_name(start)) if p)
        return ", ".join(p for p in parts if p != label and p != "UTC")


class _DayPattern:
    """CLDR's pattern of a day for a skeleton (`yMMMEd`: the weekday, day, abbreviated
    month and year, in the locale's order and words), matched once and applied with the
    locale's names looked up: what Babel's `format_skeleton` gives, at a tenth of its
    time (it matches the skeleton again at every call). A pattern with another field
    than these is Babel's to apply."""

    FIELDS = frozenset({"d", "y", "M", "MMM", "LLL", "E", "EE", "EEE"})

    def __init__(self, locale: Locale, skeleton: str) -> None:
        self.locale = locale
        self.pattern = parse_pattern(locale.datetime_skeletons[
            match_skeleton(skeleton, locale.datetime_skeletons)])
        self.format: str = getattr(self.pattern, "format")  # noqa: B009 - "%(d)s. %(MMM)s…"
        self.plain = set(re.findall(r"%\((\w+)\)s", self.format)) <= self.FIELDS
        # Babel's tables resolve CLDR's aliases at every look-up: copied once, plainly
        names = locale.days["format"]["abbreviated"]
        self.weekdays = [str(names[day]) for day in range(7)]
        names = locale.months["format"]["abbreviated"]
        self.months = [""] + [str(names[month]) for month in range(1, 13)]

    def __call__(self, value: date) -> str:
        if not self.plain:
            return str(self.pattern.apply(datetime(value.year, value.month, value.day),
                                          self.locale))
        weekday, month = self.weekdays[value.weekday()], self.months[value.month]
        return self.format % {"d": value.day, "y": value.year, "M": value.month,
                              "MMM": month, "LLL": month, "E": weekday, "EE": weekday,
                              "EEE": weekday}


class _DaysPattern:
    """CLDR's interval of two days for a skeleton (`yMMMEd`: `Thu, Mar 4 – Sat, Mar 6,
    2027`), as Babel's `format_interval` writes it: the pattern of the greatest field
    that differs (the year, the month, the day), its two halves parsed once and applied
    with the locale's names looked up, at a tenth of Babel's time (it matches the
    skeleton and parses the halves at every call). A pattern with another field is
    Babel's to write."""

    def __init__(self, locale: Locale, skeleton: str) -> None:
        self.locale, self.skeleton = locale, skeleton
        found = locale.interval_formats.get(skeleton) or {}
        self.halves: dict[str, list[str]] = {
            field: [str(parse_pattern(half).format) for half in halves]
            for field, halves in found.items()}
        said = {name for halves in self.halves.values() for half in halves
                for name in re.findall(r"%\((\w+)\)s", half)}
        self.plain = {"y", "M", "d"} <= set(self.halves) and said <= _DayPattern.FIELDS
        names = locale.days["format"]["abbreviated"]
        self.weekdays = [str(names[day]) for day in range(7)]
        names = locale.months["format"]["abbreviated"]
        self.months = [""] + [str(names[month]) for month in range(1, 13)]

    def __call__(self, first: date, last: date) -> str:
        if not self.plain:
            return str(format_interval(first, last, self.skeleton, locale=self.locale))
        field = "y" if first.year != last.year else "M" if first.month != last.month else "d"
        start, end = self.halves[field]
        return start % self._fields(first) + end % self._fields(last)

    def _fields(self, value: date) -> dict[str, Any]:
        weekday, month = self.weekdays[value.weekday()], self.months[value.month]
        return {"d": value.day, "y": value.year, "M": value.month, "MMM": month,
                "LLL": month, "E": weekday, "EE": weekday, "EEE": weekday}


class _HoursPattern:
    """CLDR's interval of two times of one day for a skeleton (`hm`: `2:50 – 3:25 PM`),
    as Babel's `format_interval` writes it: the pattern of the first field in CLDR's
    order that differs (the half of the day, the hour, the minute), its two halves
    parsed once and applied with the hour, minute and period looked up. A pattern with
    another field, or a locale without the skeleton, is Babel's to write."""

    FIELDS = frozenset({"h", "hh", "H", "HH", "m", "mm", "a"})

    def __init__(self, locale: Locale, skeleton: str) -> None:
        self.locale, self.skeleton = locale, skeleton
        found = locale.interval_formats.get(skeleton) or {}
        self.halves: dict[str, list[str]] = {
            field: [str(parse_pattern(half).format) for half in halves]  # "%(h)s:%(mm)s…"
            for field, halves in found.items()}
        said = {name for halves in self.halves.values() for half in halves
                for name in re.findall(r"%\((\w+)\)s", half)}
        self.plain = bool(self.halves) and said <= self.FIELDS and \
            set(self.halves) <= {"a", "h", "H", "m"}
        periods = locale.day_periods["format"]["abbreviated"]
        self.periods = (str(periods["am"]), str(periods["pm"])) if self.plain else ("", "")

    def __call__(self, start: time, end: time) -> str:
        if not self.plain or (start.hour, start.minute) == (end.hour, end.minute):
            return self._babel(start, end)
        if "a" in self.halves and (start.hour < 12) != (end.hour < 12):
            field = "a"
        elif start.hour != end.hour:
            field = "h" if "h" in self.halves else "H"
        else:
            field = "m"
        if field not in self.halves:
            return self._babel(start, end)
        first, second = self.halves[field]
        return first % self._fields(start) + second % self._fields(end)

    def _babel(self, start: time, end: time) -> str:
        try:
            return str(format_interval(start, end, self.skeleton, locale=self.locale))
        except NotImplementedError:  # Babel reads no flexible day period (zh-Hant's `B`)
            pattern = str(self.locale.interval_formats.get(None) or "{0} \u2013 {1}")
            return pattern.replace("{0}", format_time(start, "short", locale=self.locale)) \
                .replace("{1}", format_time(end, "short", locale=self.locale))

    def _fields(self, value: time) -> dict[str, Any]:
        hour = value.hour % 12 or 12
        return {"h": hour, "hh": f"{hour:02d}", "H": value.hour, "HH": f"{value.hour:02d}",
                "m": value.minute, "mm": f"{value.minute:02d}",
                "a": self.periods[value.hour >= 12]}


@lru_cache(maxsize=16)
def dates_for(locale: Locale) -> Dates:
    return Dates(locale)


def instant(value: datetime) -> str:
    """An instant in UTC for a script (`2027-01-14T23:00:00Z`): when a talk starts or is
    over, all-day talks included (their midnights in the talk's zone)."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def machine(value: date) -> str:
    """The `datetime` attribute of <time>: ISO 8601 with the real offset."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes" if not value.second else "seconds")
    return value.isoformat()


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def glued(text: str) -> str:
    """A schedule's text for a page: the space before each " · " made a no-break space,
    so that a narrow column breaks after the separator, never leaves it to start a line
    of its own. Cards and feeds keep the plain text: they do not wrap it."""
    return text.replace(" \u00b7 ", "\u00a0\u00b7 ")
