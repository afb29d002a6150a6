"""The zone and local time an add-to-calendar widget or a calendar link of a talk's text
states, where the front matter's time has none.

Hugo Blox / Wowchemy talk bodies sometimes hold one: an `add-to-calendar-button`
(`startDate="2024-05-22" startTime="18:30" endTime="20:30" timeZone="Europe/Berlin"`
as its attributes, or as keys of the JSON of its older version), an AddEvent widget
(`<span class="start">05/22/2024 06:30 PM</span>` … `<span class="timezone">`), or a
Google Calendar template link (`calendar.google.com/calendar/render?action=TEMPLATE&
dates=20240522T183000/20240522T203000&ctz=Europe/Berlin`). They say what a `Z` or
naive time of the front matter does not: the zone the time is meant in.

When a talk's start is naive or UTC, it has no `timezone` of its own, and its text
states one zone and time:
- if the two name the same instant (`16:30Z` for 18:30 in Berlin), or the same clock
  (`18:30Z` or a naive `18:30`: a local time written without its zone, as Hugo sites
  write them), the talk takes the widget's zone and its local time
  (`timezone = "Europe/Berlin"`, `date = 2024-05-22T18:30:00`), and the widget's end
  when the front matter has none (an end it has keeps its meaning beside the start);
- otherwise the front matter's time is kept, and the report shows both.
Widgets stating different times (a talk given twice) state none. This runs before
zones.py, which then leaves the talk, with its own zone, alone.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from ...content import times
from ...content.config import check_timezone
from ...content.frontmatter import FrontMatterError, split
from .convert import Adapted, Candidate

_KEYED = re.compile(r"""\b(startdate|starttime|enddate|endtime|timezone)["']?\s{0,5}[:=]"""
                    r"""\s{0,5}["']([^"'<>\n]{1,60})["']""", re.IGNORECASE)
_ADDEVENT = re.compile(r"""<span\s{1,5}class\s{0,5}=\s{0,5}["'](start|end|timezone|"""
                       r"""date_format)["']\s{0,5}>([^<]{1,80})</span>""", re.IGNORECASE)
_GOOGLE = re.compile(r"https?://(?:calendar\.google\.com|www\.google\.com)/calendar/"
                     r"[^\s\"'<>)\]]{1,3000}", re.IGNORECASE)
_GOOGLE_DATES = re.compile(r"^(\d{8}T\d{6})(Z?)/(\d{8}T\d{6})(Z?)$")
_SLASHED = re.compile(r"^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})\s{1,5}(\d{1,2}):(\d{2})"
                      r"(?::\d{2})?\s{0,5}([AaPp][Mm])?$")
MAX_BODY = 1024 * 1024  # a widget further in than this is not looked for


@dataclass(frozen=True)
class Stated:
    """A zone and a local time a talk's text states."""

    zone: str
    start: datetime  # naive: the local time in `zone`
    end: datetime | None
    source: str  # what states it: "an add-to-calendar-button", …


@dataclass
class WidgetZones:
    """The Adjuster: gives a talk the zone its widget states (the module's docstring)."""

    zone: str  # the zone naive times are read in: --timezone, or the old site's
    applied: list[tuple[Path, str]] = field(default_factory=list)  # for the report
    differing: list[tuple[Path, str]] = field(default_factory=list)

    def __call__(self, candidate: Candidate, adapted: Adapted,
                 files: tuple[str, ...]) -> list[str]:
        data = adapted.data
        keys = {k.lower(): k for k in data}
        if data.get(keys.get("timezone", "")) not in (None, "") \
                or data.get(keys.get("all_day", "")) is True:
            return []
        written = data.get(keys.get("date", ""))
        start = _moment(written)
        if not isinstance(start, datetime) or (start.tzinfo is not None
                                               and start.utcoffset() != timedelta(0)):
            return []
        stated = stated_in(_body(candidate.path))
        if stated is None:
            return []
        local = ZoneInfo(stated.zone)
        instant = start if start.tzinfo is not None else start.replace(
            tzinfo=ZoneInfo(self.zone))
        same_clock = start.replace(tzinfo=None) == stated.start
        if instant != stated.start.replace(tzinfo=local) and not same_clock:
            self.differing.append((candidate.path, f"{stated.source} states "
                                   f"{_said(stated)}, the front matter {_written(written)}"
                                   + ("" if start.tzinfo else f" (read in {self.zone})")))
            return []
        said = f"timezone = {stated.zone!r} and {_said(stated)}, as {stated.source} states"
        end_key = keys.get("date_end", "date_end")
        end = _moment(data.get(end_key))
        if isinstance(end, datetime) and (end.tzinfo is None or end.utcoffset() == timedelta(0)):
            data[end_key] = end.replace(tzinfo=None) if same_clock else (
                (end if end.tzinfo else end.replace(tzinfo=ZoneInfo(self.zone)))
                .astimezone(local).replace(tzinfo=None))
        elif end in (None, "") and stated.end is not None:
            _place(data, end_key, stated.end, keys["date"])
            said += " (its end too)"
        data[keys["date"]] = stated.start
        _place(data, "timezone", stated.zone, end_key if end_key in data else keys["date"])
        self.applied.append((candidate.path, said))
        return []


def _place(data: dict[str, Any], key: str, value: Any, after: str) -> None:
    """`data[key] = value`, the key placed after `after` (as a reader looks for it)."""
    items = [(k, v) for k, v in data.items() if k != key]
    position = next((i + 1 for i, (k, _) in enumerate(items) if k == after), len(items))
    items.insert(position, (key, value))
    data.clear()
    data.update(items)


def stated_in(body: str) -> Stated | None:
    """The one zone and time `body` states, or None (none, or several)."""
    if len(body) > MAX_BODY:
        body = body[:MAX_BODY]
    found = [s for s in (_keyed(body), _addevent(body), *_google(body)) if s is not None]
    if len({(s.zone, s.start) for s in found}) != 1:
        return None
    first = found[0]
    end = next((s.end for s in found if s.end is not None), None)
    return Stated(first.zone, first.start, end, first.source)


def _keyed(body: str) -> Stated | None:
    """add-to-calendar-button's attributes, or the keys of its JSON."""
    values: dict[str, set[str]] = {}
    for key, value in _KEYED.findall(body):
        values.setdefault(key.lower(), set()).add(value.strip())
    if any(len(v) > 1 for v in values.values()):
        return None
    one = {key: next(iter(v)) for key, v in values.items()}
    zone = _zone(one.get("timezone"))
    if zone is None or "startdate" not in one or "starttime" not in one:
        return None
    try:
        start = datetime.fromisoformat(f"{one['startdate']}T{one['starttime']}")
        end = (datetime.fromisoformat(f"{one.get('enddate', one['startdate'])}T"
                                      f"{one['endtime']}") if "endtime" in one else None)
    except ValueError:
        return None
    return _checked(zone, start, end, "an add-to-calendar-button")


def _addevent(body: str) -> Stated | None:
    """AddEvent's widget: its start, end and timezone, as its date_format says."""
    spans: dict[str, str] = {}
    for key, value in _ADDEVENT.findall(body):
        if spans.setdefault(key.lower(), value.strip()) != value.strip():
            return None
    zone = _zone(spans.get("timezone"))
    day_first = spans.get("date_format", "").upper().startswith("DD")
    start = _slashed(spans.get("start", ""), day_first)
    if zone is None or start is None:
        return None
    return _checked(zone, start, _slashed(spans.get("end", ""), day_first), "an AddEvent widget")


def _google(body: str) -> list[Stated | None]:
    """Google Calendar template links: `dates` and `ctz`."""
    found: list[Stated | None] = []
    for address in _GOOGLE.findall(body):
        query = parse_qs(urlsplit(html.unescape(address)).query)
        zone = _zone(query.get("ctz", [""])[0])
        dates = _GOOGLE_DATES.match(query.get("dates", [""])[0])
        if zone is None or dates is None:
            continue
        moments = []
        for clock, utc in ((dates[1], dates[2]), (dates[3], dates[4])):
            moment = datetime.strptime(clock, "%Y%m%dT%H%M%S")
            if utc:  # an instant: the zone's local time of it
                moment = moment.replace(tzinfo=timezone.utc).astimezone(
                    ZoneInfo(zone)).replace(tzinfo=None)
            moments.append(moment)
        found.append(_checked(zone, moments[0], moments[1], "a Google Calendar link"))
    return found


def _checked(zone: str, start: datetime, end: datetime | None, source: str) -> Stated:
    return Stated(zone, start, end if end is not None and end > start else None, source)


def _slashed(text: str, day_first: bool) -> datetime | None:
    """`05/22/2024 06:30 PM`, `22.05.2024 18:30`, `2024-05-22 18:30`."""
    match = _SLASHED.match(text.strip())
    if match is None:
        return None
    first, second, third, hour, minute, half = match.groups()
    if len(first) == 4:
        year, month, day = int(first), int(second), int(third)
    else:
        year = int(third)
        month, day = (int(second), int(first)) if day_first else (int(first), int(second))
    hours = int(hour)
    if half:
        if not 1 <= hours <= 12:
            return None
        hours = hours % 12 + (12 if half.lower() == "pm" else 0)
    try:
        return datetime(year, month, day, hours, int(minute))
    except ValueError:
        return None


def _zone(name: str | None) -> str | None:
    if not name or not name.strip():
        return None
    try:
        check_timezone(name.strip())
    except ValueError:
        return None
    return name.strip()


def _body(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        return split(text).body
    except (OSError, FrontMatterError):
        return ""


def _said(stated: Stated) -> str:
    end = f"–{stated.end:%H:%M}" if stated.end is not None and \
        stated.end.date() == stated.start.date() else (
        f" to {stated.end:%Y-%m-%d %H:%M}" if stated.end is not None else "")
    instant = stated.start.replace(tzinfo=ZoneInfo(stated.zone)).astimezone(timezone.utc)
    return f"{stated.start:%Y-%m-%d %H:%M}{end} in {stated.zone} ({instant:%H:%M} UTC)"


def _written(value: Any) -> str:
    return value.isoformat().replace("+00:00", "Z") if isinstance(value, datetime) \
        else str(value)


def _moment(value: Any) -> Any:
    try:
        return times.parse_moment(value)
    except ValueError:
        return None
