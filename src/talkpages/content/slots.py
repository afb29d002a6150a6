"""A talk of a series (`series = "colloquium"`): what it takes from its slot, and the
sessions of a term, with their talks or "To be announced".

The rules, in one place:
- A talk whose date has no time (`date = 2027-01-08`) takes the slot's `time` and
  `duration`; a time written in the talk wins, and so does an end (`date_end`).
- The series' `timezone` is the talk's when the talk names none; the slot's
  `location` is the talk's when it has none.
- A `series` that no `[series.<key>]` declares is an error, with the keys there are.
  A list (`series = ["…"]`) is Hugo's taxonomy of that name, not a series here: it is
  kept for templates (`talk.params`), as any key talkpages does not read.
- A talk on a day that is no session (another weekday, a break, outside the term) is
  published as written: `check` warns about it (`off_slot`), the build does not fail.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from . import times
from .config import Config
from .model import Site, Talk
from .series import Series

START_KEYS = ("event_start", "time_start", "date")
END_KEYS = ("event_end", "time_end", "date_end")


def take_slot(data: dict[str, Any], config: Config,
              error: Callable[[str, str, str | None], None]) -> tuple[str, Config]:
    """The key of the talk's series ("" for none) and the settings its times are read
    with; `data` (the front matter, keys in lower case) takes the slot's time, zone
    and location where the talk has none. `error(key, message, hint)` reports."""
    value = data.get("series")
    if not isinstance(value, (str, list)) and value is not None:
        error("series", "`series` must be the key of a series, such as \"colloquium\"", None)
    if not isinstance(value, str) or not value.strip():
        return "", config
    key = value.strip()
    series = config.series.get(key) or config.series.get(key.lower())
    if series is None:
        known = ", ".join(repr(k) for k in sorted(config.series))
        error("series", f"unknown series {key!r}",
              f"the series of talkpages.toml are {known}" if known else
              f"declare it in talkpages.toml: [series.{key.lower()}] title = \"…\"")
        return "", config
    if not _given(data, "timezone") and series.timezone:
        data["timezone"] = series.timezone
    if not _given(data, "location") and series.location:
        data["location"] = series.location
    start_key = next((k for k in START_KEYS if _given(data, k)), None)
    timed = _day_only(data.get(start_key)) if start_key else None
    if timed is not None and series.time is not None and not _all_day(data) \
            and not any(_given(data, k) and not _is_time(data[k]) for k in END_KEYS):
        data[start_key] = datetime.combine(timed, series.time)  # type: ignore[index]
    if series.duration is not None and not any(_given(data, k) for k in END_KEYS):
        config = dataclasses.replace(config, default_length=series.duration)
    return series.key, config


def _given(data: dict[str, Any], key: str) -> bool:
    return data.get(key) not in (None, "", [])


def _all_day(data: dict[str, Any]) -> bool:
    return any(data.get(k) in (True, "true") for k in ("all_day", "event_all_day"))


def _is_time(value: Any) -> bool:
    """An end written as a time of day (`time_end = 16:00`): the slot's day keeps it."""
    try:
        return isinstance(times.parse_moment(value), time)
    except ValueError:
        return False


def _day_only(value: Any) -> date | None:
    """The day of a date written without a time, else None."""
    try:
        moment = times.parse_moment(value)
    except ValueError:
        return None  # the schedule reports it
    return moment if isinstance(moment, date) and not isinstance(moment, datetime) else None


def off_slot(talk: Talk, series: Series) -> str | None:
    """Why the talk's day is no session of its series, or None."""
    return series.off_slot(local_day(talk, series))


def local_day(talk: Talk, series: Series) -> date:
    """The day the talk starts on, as the series' clock reads it."""
    start = talk.schedule.start
    if not isinstance(start, datetime):
        return start
    return start.astimezone(ZoneInfo(series.timezone)).date() if series.timezone \
        else start.date()


@dataclass(frozen=True)
class Session:
    """A date of a series: its talk, or none yet ("To be announced")."""

    day: date
    talk: Talk | None
    start: datetime | None = None  # a session without a talk: the slot's start
    end: datetime | None = None


def sessions(site: Site, series: Series) -> list[Session]:
    """The sessions of the term not taken by a talk of the series, with their slot's
    times in the series' zone (a day only, without a `time`)."""
    taken = {local_day(talk, series) for talk in site.talks if talk.series == series.key}
    found = []
    zone = ZoneInfo(series.zone(site.config.timezone))
    length = timedelta(minutes=series.duration or site.config.default_length)
    for day in series.dates():
        if day in taken:
            continue
        if series.time is None:
            found.append(Session(day, None))
            continue
        start = datetime.combine(day, series.time, zone)
        end = (start.astimezone(times.UTC) + length).astimezone(zone)
        found.append(Session(day, None, start, end))
    return found


def talks_of(site: Site, series: Series) -> tuple[Talk, ...]:
    return tuple(talk for talk in site.talks if talk.series == series.key)
