"""The iCalendar feed: pure, Site -> bytes, built with the icalendar library.

- UID: `<slug>@<site host>`, so it survives rebuilds, edits and a new title.
- Timed talks with a zone: DTSTART/DTEND with TZID and a VTIMEZONE for that zone.
  Talks written with a fixed offset and no zone: DTSTART/DTEND in UTC.
- All-day talks: VALUE=DATE, DTEND the day after the last day (RFC 5545: exclusive).
- DTSTAMP: the build's "now" in UTC, so `--now` makes the feed reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta, timezone

from icalendar import Calendar, Event, vDuration

from . import __version__
from .model import Site, Talk
from .vtimezone import vtimezone

UTC = timezone.utc
PRODID = f"-//talkpages//talkpages {__version__}//EN"
REFRESH = timedelta(hours=12)


def uid(site: Site, talk: Talk) -> str:
    return f"{talk.slug}@{site.config.host}"


def calendar(site: Site, talks: Iterable[Talk], name: str, feed_path: str) -> bytes:
    talks = list(talks)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("name", name)
    cal.add("x-wr-calname", name)
    if site.config.description:
        cal.add("description", site.config.description)
        cal.add("x-wr-caldesc", site.config.description)
    cal.add("url", site.config.base_url)
    cal.add("source", site.config.absolute_url(feed_path), parameters={"VALUE": "URI"})
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", vDuration(REFRESH))
    for zone, (first, last) in sorted(_zone_years(talks).items()):
        cal.add_component(vtimezone(zone, first, last))
    for talk in talks:
        cal.add_component(event(site, talk))
    return bytes(cal.to_ical())


def _zone_years(talks: list[Talk]) -> dict[str, tuple[int, int]]:
    years: dict[str, tuple[int, int]] = {}
    for talk in talks:
        s = talk.schedule
        if s.all_day or not s.zone or not isinstance(s.start, datetime):
            continue
        end = s.end if isinstance(s.end, datetime) else s.start
        first, last = years.get(s.zone, (s.start.year, end.year))
        years[s.zone] = (min(first, s.start.year), max(last, end.year))
    return years


def event(site: Site, talk: Talk) -> Event:
    s = talk.schedule
    item = Event()
    item.add("uid", uid(site, talk))
    item.add("dtstamp", site.now.astimezone(UTC))
    if s.all_day:
        item.add("dtstart", _day(s.start))
        item.add("dtend", _day(s.end) + timedelta(days=1))
    else:
        item.add("dtstart", _timed(s.start, bool(s.zone)))
        item.add("dtend", _timed(s.end, bool(s.zone)))
    item.add("summary", talk.title)
    location = ", ".join(p for p in [talk.location, *(talk.address.lines() if talk.address
                                                      else [])] if p)
    if location:
        item.add("location", location)
    item.add("description", description(site, talk))
    item.add("url", site.config.absolute_url(talk.url))
    if talk.tags:
        item.add("categories", list(talk.tags))
    if talk.lastmod:
        item.add("last-modified", talk.lastmod.astimezone(UTC))
    return item


def _timed(value: date, has_zone: bool) -> datetime:
    assert isinstance(value, datetime)
    return value if has_zone else value.astimezone(UTC)


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def description(site: Site, talk: Talk) -> str:
    """Plain text: what the talk is about, who speaks, where, and its links."""
    parts = []
    if talk.abstract or talk.summary:
        parts.append(talk.abstract or talk.summary)
    if talk.authors:
        parts.append("Speakers: " + ", ".join(talk.authors))
    if talk.event:
        parts.append("Event: " + talk.event + (f" ({talk.event_url})" if talk.event_url else ""))
    for link in talk.links:
        parts.append(f"{link.name}: {_absolute(site, talk, link.url)}")
    parts.append(site.config.absolute_url(talk.url))
    return "\n\n".join(parts)


def _absolute(site: Site, talk: Talk, url: str) -> str:
    if "://" in url or url.startswith("mailto:"):
        return url
    if url.startswith("//"):
        return "https:" + url
    if url.startswith("/"):
        return site.config.absolute_url(url)
    return site.config.absolute_url(talk.url + url)
