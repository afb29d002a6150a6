"""`talkpages import ics FEED.ics`: talks from a calendar file.

pretalx, Indico, Sessionize, conference sites and calendar apps all export iCalendar;
this turns each event of such a file into a talk file, read with the icalendar
library. What carries over:

- SUMMARY -> title; DESCRIPTION -> the body; LOCATION -> location; URL -> a link;
  CATEGORIES -> tags; GEO -> coordinates; the calendar's name -> event.
- UID -> uid, so that people who subscribed to the old feed see the same events, not
  copies, once they subscribe to the new one.
- DTSTART/DTEND: a time with a zone becomes the local time and `timezone`; a UTC time
  stays UTC (`…Z`); a date is an all-day talk, the exclusive DTEND becoming the last
  day; DURATION gives the end when there is no DTEND.
- STATUS, SEQUENCE, RRULE (as `recurrence`) and EXDATE (as `exdates`).

Control characters are dropped from every text, with a remark in the report: RFC 5545
forbids them in TEXT values, and talk text cannot hold them (characters.py), so a talk
written with them would be refused by the very loader that checks the import.

Only what loads is imported: each talk is read back through the loader before it is
written, and an event it refuses (RRULE:FREQ=SECONDLY, an end before the start) is
reported at its line of the .ics file, its property's or its BEGIN:VEVENT's, and not
written. A TZID that is neither an IANA zone nor a VTIMEZONE of the file is such an
error too, not a warning: the time would be read in the site's zone instead, and the
talk would be published at a time that may be hours off, to people who subscribed to
the feed. An event that changes one occurrence of a series (RECURRENCE-ID) is
reported, not imported. Files are created, never replaced, never through a link; an
import run again changes nothing.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import tomli_w

from ...content.characters import FORBIDDEN
from ...content.config import Config, load_config
from ...content.fields import make_talk
from ...content.frontmatter import split
from ...content.loader import TALKS_DIR, find_talk_files, load_talk
from ...content.model import slugify
from ...diagnostics import Diagnostic
from ..safefile import Refused, check_folders, create_or_match
from ..scaffold import slug_for
from .sources import calendar_bytes

UTC = timezone.utc
STATUS = {"CANCELLED": "cancelled", "TENTATIVE": "tentative", "CONFIRMED": "confirmed"}
# the property of the event each key of a talk comes from
PROPERTY = {"title": "SUMMARY", "date": "DTSTART", "date_end": "DTEND", "timezone": "DTSTART",
            "all_day": "DTSTART", "location": "LOCATION", "uid": "UID", "tags": "CATEGORIES",
            "status": "STATUS", "sequence": "SEQUENCE", "recurrence": "RRULE",
            "exdates": "EXDATE", "coordinates": "GEO", "links": "URL", "body": "DESCRIPTION"}
_KEY = re.compile(r"\[*([A-Za-z0-9_-]+)")
Lines = dict[str, int]  # BEGIN and each property of an event -> its line in the file


def import_calendar(source: Path, site_dir: Path, report: Any) -> Any:
    """Fill `report` (an ImportReport) with what became of every event of `source`."""
    events = _read(source, report)
    if events is None:
        return report
    calendar, found = events
    report.found = len(found)
    if not found:
        report.problems.append(Diagnostic(source, "the calendar has no events"))
        return report
    config, problems = load_config(site_dir)
    if any(p.is_error for p in problems):
        report.problems += problems
        return report
    try:  # the talks there are read for their slugs: never through a link out of the site
        check_folders(site_dir, site_dir / TALKS_DIR)
    except Refused as exc:
        report.problems.append(exc.diagnostic())
        return report
    taken = _existing(site_dir, config)
    event_name = str(calendar.get("X-WR-CALNAME") or calendar.get("NAME") or "")
    for number, (event, lines) in enumerate(found, 1):
        where = f"event {number} ({event.get('UID', 'no UID')})"
        broken = next((name for name in [*PROPERTY.values(), "DURATION"]
                       if name in lines and name not in event), None)
        if broken is not None:  # a line the library could not read, and left out
            _refuse(report, source, f"{where} not imported ({broken}): the line cannot be "
                    "read as iCalendar", lines, prop=broken)
            continue
        try:
            data, body = _talk(event, event_name)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            _refuse(report, source, f"{where} not imported: {exc}", lines)
            continue
        zone = _unknown_zone(event)
        if zone is not None:
            _refuse(report, source, f"{where} not imported ({zone[0]}): its TZID {zone[1]!r} "
                    "is not a known time zone (an IANA name such as Europe/Berlin, or a "
                    "VTIMEZONE of the calendar)", lines, prop=zone[0],
                    hint="give the property an IANA zone, or write its time in UTC (…Z)")
            continue
        dropped = _drop_controls(data) + len(FORBIDDEN.findall(body))
        if dropped:
            body = FORBIDDEN.sub("", body)
            report.problems.append(Diagnostic(
                source, f"{where}: {dropped} control "
                f"{'character' if dropped == 1 else 'characters'} dropped from its text "
                "(RFC 5545 forbids them, and pages and calendar feeds cannot carry them)",
                lines.get("BEGIN"), severity="warning"))
        slug = _free_slug(slug_for(data["title"], data["date"]), data.get("uid", ""), taken)
        text = "+++\n" + tomli_w.dumps(data) + "+++\n" + (body + "\n" if body else "")
        target = site_dir / TALKS_DIR / f"{slug}.md"
        _, refused = make_talk(split(text), target, slug, config)  # as `check` reads it
        errors = [p for p in refused if p.is_error]
        for index, problem in enumerate(errors):  # the event counts once as failed
            _refuse(report, source, where, lines, problem, text, count=index == 0)
        if errors:
            continue
        try:
            state = create_or_match(site_dir, target, text.encode("utf-8"))
        except Refused as exc:
            report.problems.append(exc.diagnostic())
            report.failed.append(source)
            continue
        except OSError as exc:
            report.problems.append(Diagnostic(target, f"{where} not written: {exc}"))
            report.failed.append(source)
            continue
        if state == "created":
            report.written.append(target)
            taken[slug] = data.get("uid", "")
        elif state == "same":
            report.unchanged.append(target)
        else:
            report.problems.append(Diagnostic(
                target, f"{where} not imported: this file exists with other content",
                hint="move it aside, or import into another site with -s"))
            report.failed.append(source)
    return report


def _refuse(report: Any, source: Path, what: str, lines: Lines,
            problem: Diagnostic | None = None, text: str = "", *, prop: str = "",
            hint: str | None = None, count: bool = True) -> None:
    """An event not imported (`what`: which, or the whole message), at the line of the
    property `prop` in the file, else of its BEGIN; `problem`: the loader's error in the
    talk's `text`, which names the key and so the property."""
    if problem is not None:
        prop = _property(text, problem.line, lines)
        what = f"{what} not imported" + (f" ({prop})" if prop else "") + f": {problem.message}"
        hint = problem.hint
    report.problems.append(Diagnostic(source, what, lines.get(prop) or lines.get("BEGIN"),
                                      hint=hint))
    if count:
        report.failed.append(source)


def _read(source: Path, report: Any,
          ) -> tuple[icalendar.Calendar, list[tuple[Any, Lines]]] | None:
    data, problem = calendar_bytes(source)
    if data is None:
        assert problem is not None
        report.problems.append(problem)
        return None
    try:
        calendar = icalendar.Calendar.from_ical(data)
    except (ValueError, IndexError, KeyError) as exc:
        report.problems.append(Diagnostic(source, f"not an iCalendar file: {exc}"))
        return None
    events = calendar.walk("VEVENT")
    lines = event_lines(data)
    if len(lines) != len(events):  # read otherwise than the library did: no lines
        lines = [{} for _ in events]
    found = []
    for event, at in zip(events, lines, strict=True):
        if "RECURRENCE-ID" in event:
            report.problems.append(Diagnostic(
                source, f"the change to one occurrence of {event.get('UID')} on "
                f"{event.get('RECURRENCE-ID').to_ical().decode()} is not imported; edit the "
                "series' `exdates` or add that date as its own talk",
                at.get("RECURRENCE-ID"), severity="warning"))
            continue
        found.append((event, at))
    return calendar, found


def event_lines(data: bytes) -> list[Lines]:
    """For each VEVENT of a calendar file, in the order of the file: the line of its
    BEGIN and the first line of each of its own properties (not those of a VALARM
    inside it). A folded line (one that starts with a space or a tab) goes on the
    property above it."""
    found: list[Lines] = []
    stack: list[Lines | None] = []  # the components open: an event's lines, or None
    for number, raw in enumerate(data.split(b"\n"), 1):
        if raw[:1] in (b" ", b"\t"):
            continue
        line = raw.rstrip(b"\r").decode("utf-8", "replace")
        name = re.split("[;:]", line, maxsplit=1)[0].strip().upper()
        value = line.partition(":")[2].strip().upper()
        if name == "BEGIN":
            stack.append({"BEGIN": number} if value == "VEVENT" else None)
            if value == "VEVENT":
                found.append(stack[-1])  # type: ignore[arg-type]
        elif name == "END":
            if stack:
                stack.pop()
        elif stack and stack[-1] is not None:
            stack[-1].setdefault(name, number)
    return found


def _property(text: str, line: int | None, lines: Lines) -> str:
    """The property of the event that gave the key at `line` of a talk file's `text`
    (DESCRIPTION for its body); "" when there is none (the line of BEGIN:VEVENT)."""
    if line is None:
        return ""
    rows = text.split("\n")
    if "+++" in rows[1:line - 1]:
        return "DESCRIPTION"
    key = next((m.group(1) for row in reversed(rows[1:line])
                if (m := _KEY.match(row)) is not None), "")
    prop = PROPERTY.get(key, "")
    return "DURATION" if prop == "DTEND" and prop not in lines and "DURATION" in lines \
        else prop


def _unknown_zone(event: Any) -> tuple[str, str] | None:
    """The first of DTSTART, DTEND and EXDATE whose TZID the library could not read as a
    zone (it then gives a time without one), with that TZID."""
    for name in ("DTSTART", "DTEND", "EXDATE"):
        values = event.get(name)
        for value in values if isinstance(values, list) else [values] if values else []:
            zone = value.params.get("TZID")
            moments = [item.dt for item in getattr(value, "dts", [])] or \
                [getattr(value, "dt", None)]
            if zone and any(isinstance(m, datetime) and m.tzinfo is None for m in moments):
                return name, str(zone)
    return None


def _talk(event: Any, event_name: str) -> tuple[dict[str, Any], str]:
    title = str(event.get("SUMMARY") or "").strip()
    if not title:
        raise ValueError("it has no SUMMARY (title)")
    if "DTSTART" not in event:
        raise ValueError("it has no DTSTART")
    start = event.decoded("DTSTART")
    end = _end(event, start)
    data: dict[str, Any] = {"title": title}
    if isinstance(start, datetime):
        zone = _zone(start)
        data["date"] = _local(start, zone)
        if isinstance(end, datetime) and end != start:
            data["date_end"] = _local(end, zone)
        if zone:
            data["timezone"] = zone
    else:
        data["date"] = start
        if isinstance(end, date) and not isinstance(end, datetime) and \
                end - start > timedelta(days=1):
            data["date_end"] = end - timedelta(days=1)  # DTEND is exclusive
        data["all_day"] = True
    for key, value in (("location", event.get("LOCATION")), ("event", event_name),
                       ("uid", event.get("UID"))):
        if value and str(value).strip():
            data[key] = str(value).strip()
    categories = _categories(event)
    if categories:
        data["tags"] = categories
    status = STATUS.get(str(event.get("STATUS", "")).upper())
    if status:
        data["status"] = status
    if int(event.get("SEQUENCE", 0) or 0) > 0:
        data["sequence"] = int(event.get("SEQUENCE"))
    if "RRULE" in event:
        data["recurrence"] = event["RRULE"].to_ical().decode()
        exdates = _exdates(event, start)
        if exdates:
            data["exdates"] = exdates
    if "GEO" in event:
        geo = event.decoded("GEO")
        latitude, longitude = (geo.latitude, geo.longitude) if hasattr(geo, "latitude") \
            else geo
        data["coordinates"] = {"latitude": float(latitude), "longitude": float(longitude)}
    url = str(event.get("URL") or "").strip()
    if url.startswith(("http://", "https://")):
        data["links"] = [{"name": "Details", "url": url}]
    body = str(event.get("DESCRIPTION") or "").strip().replace("\r\n", "\n")
    return data, body


def _drop_controls(data: dict[str, Any]) -> int:
    """Remove the characters talk text cannot hold from every string of `data`, in
    place; how many there were."""
    count = 0

    def clean(value: Any) -> Any:
        nonlocal count
        if isinstance(value, str):
            count += len(FORBIDDEN.findall(value))
            return FORBIDDEN.sub("", value)
        if isinstance(value, list):
            return [clean(item) for item in value]
        if isinstance(value, dict):
            return {clean(key): clean(item) for key, item in value.items()}
        return value

    data.update(clean(data))
    return count


def _end(event: Any, start: date) -> date | None:
    if "DTEND" in event:
        end: date = event.decoded("DTEND")
        return end
    if "DURATION" in event:
        length: timedelta = event.decoded("DURATION")
        return start + length
    return None


def _zone(moment: datetime) -> str | None:
    """The IANA name of a time's zone, or None for UTC and fixed offsets."""
    tz = moment.tzinfo
    if isinstance(tz, ZoneInfo) and tz.key not in ("UTC", "Etc/UTC"):
        return tz.key
    return None


def _local(moment: datetime, zone: str | None) -> datetime:
    """Naive wall-clock time in `zone`, or the instant itself (UTC, or floating)."""
    if moment.tzinfo is None:
        return moment
    if zone:
        return moment.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
    return moment.astimezone(UTC)


def _categories(event: Any) -> list[str]:
    found: list[str] = []
    values = event.get("CATEGORIES")
    for value in values if isinstance(values, list) else [values] if values else []:
        found += [str(c).strip() for c in getattr(value, "cats", [value]) if str(c).strip()]
    return list(dict.fromkeys(found))


def _exdates(event: Any, start: date) -> list[date | datetime]:
    found: list[date | datetime] = []
    values = event.get("EXDATE")
    for value in values if isinstance(values, list) else [values] if values else []:
        for item in value.dts:
            moment = item.dt
            if isinstance(moment, datetime) and isinstance(start, datetime):
                found.append(_local(moment, _zone(start)))
            elif isinstance(moment, date):
                found.append(moment)
    return found


def _free_slug(slug: str, uid: str, taken: dict[str, str]) -> str:
    """`slug`, or `slug-2`, `slug-3`…: never the slug of another talk (a talk imported
    before with the same UID keeps its own, so that a second run changes nothing)."""
    candidate, number = slug, 1
    while candidate in taken and (not uid or taken[candidate] != uid):
        number += 1
        candidate = f"{slug}-{number}"
    return candidate


def _existing(site_dir: Path, config: Config) -> dict[str, str]:
    taken: dict[str, str] = {}
    talks = site_dir / TALKS_DIR
    if not talks.is_dir():
        return taken
    for path, slug, bundle in find_talk_files(talks, []):
        talk, _ = load_talk(path, slug, config, bundle, through_links=True)
        taken[talk.slug if talk else slugify(path.stem)] = talk.uid if talk else ""
    return taken
