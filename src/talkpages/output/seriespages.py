"""The page of each series (`series/<key>/`): its title and description, its slot in
words, in the site's language ("Fridays, 15:30–16:30 CET, Room 101"), its upcoming
sessions (the talks, and the term's dates without one as "To be announced"), and its
past talks, a page of `paginate` talks at a time as every list is.

The dates without a talk are on the page only, not in the series' feed: a feed's event
keeps its UID as it changes, and a talk's is its own (`slug@host`), not its date's,
so the "To be announced" event of a date would not become the talk once announced:
it would be removed and the talk added, and a calendar that reads the feed hours
after another would show both, or the placeholder alone. A subscriber's calendar
shows what is announced; the page shows what is still to come.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..content import slots, times
from ..content.messages import N_
from ..content.model import Site
from ..content.series import Series
from . import formatting
from .pages import PageSpec, Term, paginated

FEED_NAME = "calendar.ics"
WEEKLY = (N_("Mondays"), N_("Tuesdays"), N_("Wednesdays"), N_("Thursdays"), N_("Fridays"),
          N_("Saturdays"), N_("Sundays"))
MONTHLY = {1: N_("the first %(weekday)s of each month"),
           2: N_("the second %(weekday)s of each month"),
           3: N_("the third %(weekday)s of each month"),
           4: N_("the fourth %(weekday)s of each month"),
           -1: N_("the last %(weekday)s of each month")}


def feed_path(series: Series) -> str:
    """The series' feed, named as a tag's or a speaker's: `series/<key>/calendar.ics`."""
    return f"{series.url}{FEED_NAME}"


def series_pages(site: Site, existing: set[str]) -> list[PageSpec]:
    """The pages of every series, and the overview of them all (`series/`, as `tags/`
    is the tags'), in the order they are declared; `existing`: the outputs planned (a
    series' feed, when it has talks to put in one)."""
    specs: list[PageSpec] = []
    terms: list[Term] = []
    for series in site.config.series.values():
        talks = slots.talks_of(site, series)
        slot = slot_words(site, series)
        terms.append(Term(series.title, series.url, len(talks), note=slot))
        coming = site.coming
        order = sorted((t for t in talks if id(t) in coming),
                       key=lambda t: (t.next_schedule(site.now).start_utc, t.slug))
        order += [t for t in reversed(talks) if id(t) not in coming]
        feed = feed_path(series)
        pages = paginated(site, "series.html", series.url, f"the page of the series "
                           f"{series.key!r}", order, {
                               "kind": "series", "series": series,
                               "heading": series.title, "slot": slot,
                               "feed": feed if feed in existing else None})
        pages[0].context["agenda"] = agenda(site, series, pages[0].context["upcoming"])
        specs += pages
    if terms:
        specs.append(PageSpec("terms.html", "series/", "the series overview", {
            "heading": site.messages.gettext(N_("All series")), "kind": "series",
            "terms": terms}))
    return specs


def agenda(site: Site, series: Series, upcoming: list[Any]) -> list[tuple[Any, Any]]:
    """The upcoming talks and the dates still to be announced, soonest first: each a
    (talk, None) or (None, its schedule)."""
    rows: list[tuple[Any, Any, Any]] = [
        (talk.next_schedule(site.now).start_utc, talk, None) for talk in upcoming]
    for session in slots.sessions(site, series):
        if session.start is not None and session.end is not None:
            schedule = times.Schedule(session.start, session.end, False,
                                      series.zone(site.config.timezone))
        else:
            schedule = times.Schedule(session.day, session.day, True,
                                      series.zone(site.config.timezone))
        if schedule.end_utc > site.now:
            rows.append((schedule.start_utc, None, schedule))
    rows.sort(key=lambda row: (row[0], row[1] is None))
    return [(talk, schedule) for _, talk, schedule in rows]


def slot_words(site: Site, series: Series) -> str:
    """The slot as people say it, in the site's language: "Fridays, 15:30–16:30 CET,
    Room 101"; the zone as at the next session (its summer or winter name)."""
    say, locale = site.messages.gettext, site.messages.locale
    parts = []
    if series.weekday is not None:
        if series.frequency == "monthly":
            day = str(locale.days["stand-alone"]["wide"][series.weekday])
            parts.append(say(MONTHLY[series.week]) % {"weekday": day})
        else:
            parts.append(say(WEEKLY[series.weekday]))
    if series.time is not None:
        dates = formatting.dates_for(locale)
        start = _next_start(site, series)
        length = timedelta(minutes=series.duration or site.config.default_length)
        end = (start.astimezone(times.UTC) + length).astimezone(start.tzinfo)
        parts.append(f"{dates.clocks(start, end)} {dates.zone(start)}")
    if series.location:
        parts.append(series.location)
    text = parts[0] if parts else ""
    for part in parts[1:]:
        text = say(N_("%(slot)s, %(more)s")) % {"slot": text, "more": part}
    return text


def _next_start(site: Site, series: Series) -> datetime:
    """The start of the next session (of the term's first, or of today's slot time)."""
    assert series.time is not None
    zone = ZoneInfo(series.zone(site.config.timezone))
    today = site.now.astimezone(zone).date()
    days = list(series.dates()) or [today]
    day = next((d for d in days if d >= today), days[-1])
    return datetime.combine(day, series.time, zone)
