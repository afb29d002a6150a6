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

An event that changes one occurrence of a series (RECURRENCE-ID) is reported, not
imported. Files are created, never replaced, never through a link; an import run again
changes nothing.
"""

from __future__ import annotations

import os
import select
import stat
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import tomli_w

from ...content.characters import FORBIDDEN
from ...content.config import Config, load_config
from ...content.loader import TALKS_DIR, find_talk_files, load_talk
from ...content.model import slugify
from ...diagnostics import Diagnostic
from ..safefile import Refused, check_folders, create_or_match
from ..scaffold import slug_for

UTC = timezone.utc
STATUS = {"CANCELLED": "cancelled", "TENTATIVE": "tentative", "CONFIRMED": "confirmed"}
MAX_BYTES = 32 * 1024 * 1024
WRITER_WAIT = 3.0  # seconds a named pipe may wait for its writer


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
    for number, event in enumerate(found, 1):
        where = f"event {number} ({event.get('UID', 'no UID')})"
        try:
            data, body = _talk(event, event_name)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            report.problems.append(Diagnostic(source, f"{where} not imported: {exc}"))
            report.failed.append(source)
            continue
        dropped = _drop_controls(data) + len(FORBIDDEN.findall(body))
        if dropped:
            body = FORBIDDEN.sub("", body)
            report.problems.append(Diagnostic(
                source, f"{where}: {dropped} control "
                f"{'character' if dropped == 1 else 'characters'} dropped from its text "
                "(RFC 5545 forbids them, and pages and calendar feeds cannot carry them)",
                severity="warning"))
        slug = _free_slug(slug_for(data["title"], data["date"]), data.get("uid", ""), taken)
        text = "+++\n" + tomli_w.dumps(data) + "+++\n" + (body + "\n" if body else "")
        target = site_dir / TALKS_DIR / f"{slug}.md"
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
            _check_loads(target, slug, config, report)
        elif state == "same":
            report.unchanged.append(target)
        else:
            report.problems.append(Diagnostic(
                target, f"{where} not imported: this file exists with other content",
                hint="move it aside, or import into another site with -s"))
            report.failed.append(source)
    return report


def _read(source: Path, report: Any) -> tuple[icalendar.Calendar, list[Any]] | None:
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
    found = []
    for event in calendar.walk("VEVENT"):
        if "RECURRENCE-ID" in event:
            report.problems.append(Diagnostic(
                source, f"the change to one occurrence of {event.get('UID')} on "
                f"{event.get('RECURRENCE-ID').to_ical().decode()} is not imported; edit the "
                "series' `exdates` or add that date as its own talk", severity="warning"))
            continue
        found.append(event)
    return calendar, found


def _first_bytes(descriptor: int) -> bytes | None:
    """What a named pipe opened without blocking holds so far, or None when no writer
    comes within WRITER_WAIT seconds. `<(curl …)` hands over a pipe whose writer is there
    already (a read finds nothing yet, or some bytes); a program that opens a named pipe
    for writing may come a moment after the import opened it (a read finds the end). On
    Linux a pipe that never had a writer polls as not ready, so poll waits for a writer's
    first bytes or its close; a writer that came and is still silent is waited for."""
    try:
        first = os.read(descriptor, 65536)
    except BlockingIOError:  # a writer, with nothing written yet
        return b""
    if first:
        return first
    poller = select.poll()
    poller.register(descriptor, select.POLLIN | select.POLLHUP)
    events = poller.poll(int(WRITER_WAIT * 1000))
    try:
        data = os.read(descriptor, 65536)
    except BlockingIOError:  # a writer came, and has sent nothing yet
        return b""
    return data if data or events else None


def calendar_bytes(source: Path) -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of the calendar file named on the command line, else why not. A file,
    or a pipe something writes into (`talkpages import ics <(curl …)`); a folder, a
    device, a file larger than MAX_BYTES or a pipe that nothing writes into is an
    error naming the path: opened without blocking, the import never waits for ever."""
    try:
        descriptor = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, Diagnostic(source, "the calendar file to import does not exist")
    except OSError as exc:  # no right to read it, a file in the place of a folder
        return None, Diagnostic(source, f"cannot read the calendar file: "
                                f"{exc.strerror or exc}")
    try:
        kind = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(kind):
            return None, Diagnostic(
                source, "the path to import is a folder, not a calendar file",
                hint="give the .ics file itself; `talkpages import hugo` or `academicpages` "
                "read a site's folder")
        first = b""
        if stat.S_ISFIFO(kind):
            joined = _first_bytes(descriptor)
            if joined is None:
                return None, Diagnostic(
                    source, f"nothing writes into this pipe (waited {WRITER_WAIT:g} s): "
                    "import ics reads a calendar file")
            first = joined
            os.set_blocking(descriptor, True)
        elif not stat.S_ISREG(kind):
            return None, Diagnostic(source, "this is not a file (a device or a socket): "
                                    "import ics reads a calendar file")
        with os.fdopen(os.dup(descriptor), "rb") as file:
            data = first + file.read(MAX_BYTES + 1 - len(first))
    except OSError as exc:
        return None, Diagnostic(source, f"cannot read the calendar file: "
                                f"{exc.strerror or exc}")
    finally:
        os.close(descriptor)
    if len(data) > MAX_BYTES:
        return None, Diagnostic(source, f"the calendar file is too large (more than "
                                f"{MAX_BYTES // 1024 // 1024} MiB)")
    return data, None


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


def _check_loads(path: Path, slug: str, config: Config, report: Any) -> None:
    talk, problems = load_talk(path, slug, config)
    if talk is None:
        report.problems += problems
