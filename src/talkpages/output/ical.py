"""The calendar feeds: pure, talks -> iCalendar bytes that every client reads alike.

- UID: the talk's `uid` field, else `<slug>@<site host>`: it survives rebuilds, edits
  and a new title, so subscribers see a changed event change instead of doubling.
- Timed talks with a zone: DTSTART/DTEND with TZID and a VTIMEZONE for the zone (see
  vtimezone.py). Talks written with a fixed offset and no zone: UTC (`…Z`), as is a
  single talk at a time that happens twice. A feed carries the VTIMEZONEs of the zones
  its events name, and no other.
- All-day talks: VALUE=DATE, DTEND the day after the last day (exclusive, RFC 5545).
- Recurring talks: RRULE with UNTIL in UTC when DTSTART has a TZID; one EXDATE a line.
- STATUS: CANCELLED for cancelled talks (kept in the feed so that subscribers see the
  cancellation), TENTATIVE for postponed or tentative ones. Google Calendar hides an
  event with STATUS:CANCELLED, so `cancelled_in_feeds = "title"` leaves that STATUS
  out and says it in the title instead ("Cancelled: …"; "Postponed: …" before a
  postponed talk's, whose TENTATIVE no client hides). SEQUENCE: the talk's, raised by
  the build when its time, place or status changes (content/sequencelock.py).
- DTSTAMP: the build's "now" in UTC; LAST-MODIFIED: `lastmod`, else the file's last
  change, never later than "now". With `--now` or SOURCE_DATE_EPOCH two builds of the
  same input give the same bytes.
- URL: the talk's page. CONFERENCE (RFC 7986): the meeting to join (`join_url`) and
  the live stream; the DESCRIPTION says them too, with the registration, in the site's
  language ("Join: …"), for the clients that show no CONFERENCE.
- ORGANIZER only when the site sets `calendar_organizer`: clients treat an event with
  an organizer as a meeting invitation.

Each event is written once, with its talk's page, and reused by every feed that lists
it (render.py keeps it for the build).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache, partial
from urllib.parse import quote

from .. import __version__
from ..content import lifecycle
from ..content.config import Config
from ..content.messages import N_
from ..content.model import Settings, Site, Talk
from ..content.sequencelock import event_uid
from ..content.times import Schedule
from . import formatting, ics, markup
from .percent import form_encoded
from .vtimezone import vtimezone

UTC = timezone.utc
PRODID = f"-//talkpages//talkpages {__version__}//EN"
FEED_STATUS = {"cancelled": "CANCELLED", "postponed": "TENTATIVE", "tentative": "TENTATIVE",
               "confirmed": "CONFIRMED"}
UNBOUNDED_YEARS = 10  # VTIMEZONE coverage past "now" for series with no end
TITLED = {"cancelled": N_("Cancelled: %(title)s"), "postponed": N_("Postponed: %(title)s")}


# DTSTAMP is the one line of an event that changes with the time of the build: events
# are made once with this in its place (control characters never reach a value).
STAMP_MARK = b"DTSTAMP:\x00now\x00"


class Feeds:
    """Writes the feeds of one build from their talks' events (fragments made with the
    talks' pages, with STAMP_MARK for DTSTAMP), each VTIMEZONE once."""

    def __init__(self, site: Site, event: Callable[[str], bytes],
                 kept: Callable[[tuple[str, int, int], Callable[[], bytes]], bytes]
                 = lambda zone, make: make()):
        self.site = site
        self._event = event  # an event by its fragment key
        self._kept = kept  # a VTIMEZONE made once a build, else made here
        self._stamp = f"DTSTAMP:{ics.utc_stamp(site.now)}".encode()
        self._zones: dict[tuple[str, int, int], bytes] = {}

    def calendar(self, events: Iterable[str], zones: Iterable[tuple[str, int, int]], *,
                 name: str, path: str, description: str = "") -> Iterator[bytes]:
        """A feed to subscribe to, served at `path` (relative to the site root)."""
        return self._assemble(self.head(name, path, description), events, zones)

    def head(self, name: str, path: str, description: str = "") -> list[str]:
        """The calendar's own properties, before its time zones and events."""
        config = self.site.config
        head = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN",
                f"NAME:{ics.text(name)}", f"X-WR-CALNAME:{ics.text(name)}"]
        if description:
            head += [f"DESCRIPTION:{ics.text(description)}",
                     f"X-WR-CALDESC:{ics.text(description)}"]
        refresh = ics.duration(timedelta(hours=config.refresh_hours))
        head += [f"URL:{config.base_url}", f"SOURCE;VALUE=URI:{page_url(self.site, path)}",
                 f"REFRESH-INTERVAL;VALUE=DURATION:{refresh}", f"X-PUBLISHED-TTL:{refresh}"]
        if config.calendar_color:
            head.append(f"COLOR:{config.calendar_color}")
        return head

    def single(self, event: str, zones: Iterable[tuple[str, int, int]]) -> bytes:
        """The one-event file behind "Add to calendar": no calendar name, no refresh,
        so that clients import the event instead of creating a calendar for it."""
        head = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN"]
        return b"".join(self._assemble(head, [event], zones))

    def prefix(self, head: list[str], zones: Iterable[tuple[str, int, int]]) -> bytes:
        """What comes before the events: the head and the VTIMEZONEs."""
        parts = [ics.lines(head)]
        for zone in zones:
            if zone not in self._zones:
                self._zones[zone] = self._kept(zone, partial(_vtimezone, zone))
            parts.append(self._zones[zone])
        return b"".join(parts)

    def stamped(self, event: bytes) -> bytes:
        """An event as a feed has it: with the DTSTAMP of this build."""
        return event.replace(STAMP_MARK, self._stamp)

    def _assemble(self, head: list[str], events: Iterable[str],
                  zones: Iterable[tuple[str, int, int]]) -> Iterator[bytes]:
        yield self.prefix(head, zones)
        batch: list[bytes] = []
        for key in events:
            batch.append(self.stamped(self._event(key)))
            if len(batch) == 256:
                yield b"".join(batch)
                batch = []
        batch.append(b"END:VCALENDAR\r\n")
        yield b"".join(batch)


def _vtimezone(zone: tuple[str, int, int]) -> bytes:
    return ics.lines(vtimezone(*zone))


def event_zone(talk: Talk) -> str | None:
    """The zone the talk's event names (TZID), if any: a feed carries the VTIMEZONE of
    these zones only, as RFC 5545 asks, and no client is sent a zone nothing uses."""
    s = talk.schedule
    if s.all_day or not s.zone or _in_utc(talk):
        return None
    return s.zone


def _in_utc(talk: Talk) -> bool:
    return talk.recurrence is None and _ambiguous(talk.schedule)


def zone_years(talks: Iterable[Talk], now: datetime,
               zone_of: Callable[[Talk], str | None] = event_zone,
               ) -> dict[str, tuple[int, int]]:
    """The first and last year of the events in each zone they name (a series with no
    end runs UNBOUNDED_YEARS past `now`); `zone_of`: event_zone, or its results kept."""
    years: dict[str, tuple[int, int]] = {}
    for talk in talks:
        s, zone = talk.schedule, zone_of(talk)
        if zone is None or not isinstance(s.start, datetime):
            continue
        last_schedule = talk.occurrences[-1]
        last = last_schedule.end if isinstance(last_schedule.end, datetime) else s.end
        last_year = last.year if isinstance(last, date) else s.start.year
        if talk.recurrence is not None and not talk.recurrence.bounded:
            last_year = max(last_year, now.year + UNBOUNDED_YEARS)
        first, latest = years.get(zone, (s.start.year, last_year))
        years[zone] = (min(first, s.start.year), max(latest, last_year))
    return years


def event_bytes(site: Site, talk: Talk) -> bytes:
    """A talk's VEVENT, with STAMP_MARK where its DTSTAMP goes."""
    return ics.lines(event_lines(site, talk))


def uid(site: Site, talk: Talk) -> str:
    return event_uid(site.config, talk)


def event_lines(site: Site, talk: Talk) -> list[str]:
    s = talk.schedule
    out = ["BEGIN:VEVENT", f"UID:{ics.text(uid(site, talk))}", STAMP_MARK.decode()]
    out += _times(s, utc=_in_utc(talk))
    if talk.recurrence is not None:
        out.append(f"RRULE:{talk.recurrence.rule()}")
        for excluded in talk.recurrence.exdates:
            out.append(_exdate(s, excluded))
    several = bool(site.config.languages)  # a feed per language: each text says its own
    spoken, written = talk.given_in or (talk.written_in if several else ""), \
        f";LANGUAGE={talk.written_in}" if several else ""
    title, status = talk.title, talk.status
    if site.config.cancelled_in_feeds == "title" and status in TITLED:
        title = site.messages.gettext(TITLED[status]) % {"title": title}
        status = "" if talk.cancelled else status  # shown, where CANCELLED is hidden
    out.append(f"SUMMARY{';LANGUAGE=' + spoken if spoken else ''}:{ics.text(title)}")
    out.append(f"DESCRIPTION{written}:{ics.text(description(site, talk))}")
    location = _place(talk)
    if location:
        out.append(f"LOCATION:{ics.text(location)}")
    if talk.geo:
        out.append(f"GEO:{talk.geo[0]:.6f};{talk.geo[1]:.6f}")
    out.append(f"URL:{page_url(site, talk.url)}")
    out += conferences(site, talk)
    if talk.tags:
        out.append("CATEGORIES:" + ",".join(ics.text(tag) for tag in talk.tags))
    if status:
        out.append(f"STATUS:{FEED_STATUS[status]}")
    out.append(f"SEQUENCE:{talk.sequence}")
    changed = talk.lastmod or talk.modified
    if changed is not None:
        out.append(f"LAST-MODIFIED:{ics.utc_stamp(min(changed, site.now))}")
    if site.config.calendar_organizer:
        name = site.config.author or site.config.title
        out.append(f"ORGANIZER;CN={ics.param(name)}:mailto:{site.config.calendar_organizer}")
    out.append("END:VEVENT")
    return out


def _ambiguous(s: Schedule) -> bool:
    """Is the start or end a wall-clock time that happens twice (clocks going back)?"""
    return not s.all_day and any(
        isinstance(t, datetime) and t.replace(fold=0).utcoffset() != t.replace(fold=1).utcoffset()
        for t in (s.start, s.end))


def _times(s: Schedule, utc: bool = False) -> list[str]:
    """DTSTART and DTEND. `utc`: write them in UTC even when the talk has a zone.

    RFC 5545 says an ambiguous local time is the first of the two, but libical
    (Evolution) and node-ical take the second: a talk at 01:30 on the night the
    clocks go back would be an hour late there. In UTC it is the same instant
    everywhere, so a single talk at such a time is written in UTC.
    """
    if s.all_day:
        return [f"DTSTART;VALUE=DATE:{ics.day_stamp(_day(s.start))}",
                f"DTEND;VALUE=DATE:{ics.day_stamp(_day(s.end) + timedelta(days=1))}"]
    assert isinstance(s.start, datetime) and isinstance(s.end, datetime)
    if s.zone and not utc:
        return [f"DTSTART;TZID={s.zone}:{ics.local_stamp(s.start)}",
                f"DTEND;TZID={s.zone}:{ics.local_stamp(s.end.astimezone(s.start.tzinfo))}"]
    return [f"DTSTART:{ics.utc_stamp(s.start)}", f"DTEND:{ics.utc_stamp(s.end)}"]


def _exdate(s: Schedule, excluded: datetime | date) -> str:
    if s.all_day:
        return f"EXDATE;VALUE=DATE:{ics.day_stamp(_day(excluded))}"
    assert isinstance(s.start, datetime)
    if not isinstance(excluded, datetime):  # a day: the occurrence on that day
        moment = datetime.combine(excluded, s.start.timetz()).replace(tzinfo=s.start.tzinfo)
    else:
        moment = excluded
    if s.zone:
        return f"EXDATE;TZID={s.zone}:{ics.local_stamp(moment.astimezone(s.start.tzinfo))}"
    return f"EXDATE:{ics.utc_stamp(moment)}"


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


_DESCRIPTIONS: weakref.WeakKeyDictionary[Talk, tuple[Config, str]] = weakref.WeakKeyDictionary()


def description(site: Settings, talk: Talk) -> str:
    """Plain text: what the talk is about, who speaks, where, and its links.

    The feed, the talk's own .ics and the Google and Outlook links all carry it, so
    it is worked out once per talk and build."""
    known = _DESCRIPTIONS.get(talk)
    if known is not None and known[0] is site.config:  # a site and its view alike
        return known[1]
    text = _description(site, talk)
    _DESCRIPTIONS[talk] = (site.config, text)  # the config held: its id is never reused
    return text


def _description(site: Settings, talk: Talk) -> str:
    parts, _ = [], site.messages.gettext
    if talk.cancelled:
        parts.append(_("CANCELLED."))
    elif talk.status == "postponed":
        parts.append(_("POSTPONED: the new date is not fixed yet."))
    if talk.abstract or talk.summary:  # the words, not the Markdown (`**18:30**`)
        parts.append(markup.plain_text(talk.abstract or talk.summary, paragraphs=True))
    if talk.authors:
        parts.append(_("Speakers: %(names)s") % {"names": ", ".join(talk.authors)})
    if talk.event:
        event = talk.event + (f" ({talk.event_url})" if talk.event_url else "")
        parts.append(_("Event: %(event)s") % {"event": event})
    parts += life_lines(site, talk)
    for link in talk.links:
        parts.append(f"{link.name}: {absolute(site, talk, link.url)}")
    parts.append(page_url(site, talk.url))
    return "\n\n".join(parts)


def conferences(site: Settings, talk: Talk) -> list[str]:
    """RFC 7986's CONFERENCE: the meeting to join (audio and video), the stream to watch
    (video). Clients that show none have the same links in the DESCRIPTION."""
    if not lifecycle.active(talk):
        return []
    _ = site.messages.gettext
    found = [(talk.join_url, "AUDIO,VIDEO", _("Join")),
             (talk.livestream_url, "VIDEO", _("Live stream"))]
    return [f"CONFERENCE;VALUE=URI;FEATURE={feature};LABEL={ics.param(label)}:{url}"
            for url, feature, label in found if url]


def life_lines(site: Settings, talk: Talk) -> list[str]:
    """The description's lines of the meeting, the stream and the registration."""
    if not lifecycle.active(talk):
        return []
    _, lines = site.messages.gettext, []
    if talk.join_url:
        lines.append(_("Join: %(url)s") % {"url": talk.join_url})
    if talk.livestream_url:
        lines.append(_("Live stream: %(url)s") % {"url": talk.livestream_url})
    if talk.registration_url and talk.registration_closes is not None:
        start, closes = talk.schedule.start, talk.registration_closes
        if isinstance(start, datetime) and start.tzinfo is not None:  # the talk's zone
            closes = closes.astimezone(start.tzinfo)
        when = formatting.dates_for(site.messages.locale).moment(closes)
        lines.append(_("Register: %(url)s (closes %(when)s)")
                     % {"url": talk.registration_url, "when": when})
    elif talk.registration_url:
        lines.append(_("Register: %(url)s") % {"url": talk.registration_url})
    return lines


def page_url(site: Settings, path: str) -> str:
    """The absolute URL of a path of the site, percent-encoded (`tags/中文/` too)."""
    return site.config.absolute_url(quote(path, safe="/%"))


def absolute(site: Settings, talk: Talk, url: str) -> str:
    """A link of a talk as an absolute URL (relative ones point into its folder)."""
    if "://" in url or url.startswith("mailto:"):
        return url
    if url.startswith("//"):
        return "https:" + url
    if url.startswith("/"):
        return page_url(site, url)
    return page_url(site, talk.url + url)


def google_url(site: Settings, talk: Talk) -> str:
    """"Add to Google Calendar": the same times, text and place as the feed."""
    s = talk.schedule
    if s.all_day:
        dates = f"{ics.day_stamp(_day(s.start))}/{ics.day_stamp(_day(s.end) + timedelta(1))}"
    else:
        assert isinstance(s.start, datetime) and isinstance(s.end, datetime)
        dates = f"{ics.utc_stamp(s.start)}/{ics.utc_stamp(s.end)}"
    query = {"action": "TEMPLATE", "text": talk.title, "dates": dates,
             "details": description(site, talk), "location": _place(talk)}
    if s.zone and not s.all_day:
        query["ctz"] = s.zone
    if talk.recurrence is not None:
        query["recur"] = f"RRULE:{talk.recurrence.rule()}"
    return "https://calendar.google.com/calendar/render?" + _form(query)


def outlook_url(site: Settings, talk: Talk) -> str:
    """"Add to Outlook" (Outlook on the web); a series shows its first occurrence."""
    s = talk.schedule
    if s.all_day:
        start, end = _day(s.start).isoformat(), (_day(s.end) + timedelta(days=1)).isoformat()
    else:
        assert isinstance(s.start, datetime) and isinstance(s.end, datetime)
        start, end = (t.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds")
                      + "Z" for t in (s.start, s.end))
    query = {"path": "/calendar/action/compose", "rru": "addevent", "subject": talk.title,
             "startdt": start, "enddt": end, "allday": str(s.all_day).lower(),
             "body": description(site, talk), "location": _place(talk)}
    return "https://outlook.live.com/calendar/0/deeplink/compose?" + _form(query)


def _form(query: dict[str, str]) -> str:
    """`urllib.parse.urlencode(query)`, the same bytes at twice its speed, each value
    encoded once for both links of a talk: a talk's description is a kilobyte or more."""
    return "&".join(f"{_form_value(key)}={_form_value(value)}" for key, value in query.items())


@lru_cache(maxsize=64)
def _form_value(value: str) -> str:
    return form_encoded(value)


def _place(talk: Talk) -> str:
    return ", ".join(p for p in [talk.location, *(talk.address.lines() if talk.address
                                                  else [])] if p)
