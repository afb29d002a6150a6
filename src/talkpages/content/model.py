"""The typed model of a talk and of a site: immutable values, no I/O here. fields.py
makes a Talk from front matter."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import times
from .config import Config
from .messages import Messages, english
from .recurrence import MAX_OCCURRENCES, Recurrence, occurrences
from .times import once

if TYPE_CHECKING:
    from .speakers import Speaker

@dataclass(frozen=True)
class Link:
    name: str
    url: str
    kind: str  # slides, video, code, pdf, … or "custom"


@dataclass(frozen=True)
class Address:
    street: str = ""
    city: str = ""
    region: str = ""
    postcode: str = ""
    country: str = ""

    def lines(self) -> list[str]:
        city_line = " ".join(p for p in (self.postcode, self.city) if p)
        return [p for p in (self.street, city_line, self.region, self.country) if p]


@dataclass(frozen=True)
class Image:
    file: str | None  # a file of the talk's bundle, such as "featured.jpg"
    caption: str = ""
    alt_text: str = ""
    focal_point: str = ""
    preview_only: bool = False  # shown in lists and link previews, not on the talk's page
    width: int = 0  # in pixels, as shown (0: not known: not an image Pillow reads)
    height: int = 0
    digest: str = ""  # of the file's bytes: names its resized copies (imagefiles.py)


@dataclass(frozen=True, eq=False)
class Talk:
    source: Path
    slug: str
    title: str
    schedule: times.Schedule
    publish_date: datetime | None = None
    lastmod: datetime | None = None
    draft: bool = False
    authors: tuple[str, ...] = ()
    location: str = ""
    address: Address | None = None
    event: str = ""
    event_url: str = ""
    abstract: str = ""
    summary: str = ""
    featured: bool = False
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    image: Image | None = None
    math: bool = False
    body: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    bundle_files: tuple[str, ...] = ()
    uid: str = ""  # the feed's UID when the author fixes it; else slug@host
    status: str = ""  # "", "confirmed", "tentative", "postponed" or "cancelled"
    sequence: int = 0
    recurrence: Recurrence | None = None
    geo: tuple[float, float] | None = None  # latitude, longitude
    aliases: tuple[str, ...] = ()  # old addresses that send visitors on: "event/joker/"
    modified: datetime | None = None  # the file's last change, when there is no lastmod
    written_in: str = "en"  # the language of the page: the site's, or its file name's
    given_in: str = ""  # the language the talk is given in (`language`), when it says
    series: str = ""  # the key of the series it is a session of (slots.py)
    registration_url: str = ""  # its life (lifecycle.py): where people register
    registration_closes: datetime | None = None  # else registration closes at the start
    price: str = ""  # as written ("€10"), "free", or "" when the talk does not say
    join_url: str = ""  # the online meeting
    livestream_url: str = ""
    recording: str = ""  # "coming": a recording is announced

    @property
    def url(self) -> str:
        """The page's path from the site root."""
        return f"{self.slug}/"

    @once
    def file(self) -> str:
        """The talk's file, as text (how a build names the talk's fragments)."""
        return str(self.source)

    @property
    def sort_key(self) -> tuple[datetime, str]:
        return (self.schedule.start_utc, self.slug)

    @property
    def cancelled(self) -> bool:
        return self.status == "cancelled"

    @once
    def occurrences(self) -> tuple[times.Schedule, ...]:
        """Every occurrence (one, unless the talk recurs; a long series is cut short)."""
        if self.recurrence is None:
            return (self.schedule,)
        return tuple(occurrences(self.schedule, self.recurrence)) or (self.schedule,)

    def next_schedule(self, now: datetime) -> times.Schedule:
        """The occurrence to list: the first not over at `now`, else the last one."""
        return next((s for s in self.occurrences if s.end_utc > now), self.occurrences[-1])

    def ended(self, now: datetime) -> int:
        """How many occurrences are over at `now`: all that pages show of time."""
        return sum(1 for s in self.occurrences if s.end_utc <= now)

    def is_upcoming(self, now: datetime) -> bool:
        """Not over yet: a talk under way still counts as upcoming. A series with no end
        is, while its dates were cut short at MAX_OCCURRENCES; when they ran out first
        (the calendar ends with the year 9999), it is over once its last date is."""
        if self.recurrence is not None and not self.recurrence.bounded \
                and len(self.occurrences) >= MAX_OCCURRENCES:
            return True
        return self.occurrences[-1].end_utc > now


@dataclass(frozen=True)
class SiteView:
    """What of a site the template filters and the makers of a talk's own outputs read:
    its settings, its speakers and the time of the build, never its talks: a talk's own
    outputs depend on that talk alone, which keeps them cheap to make on any core."""

    config: Config
    speakers: Mapping[str, Speaker]
    now: datetime
    messages: Messages = field(default_factory=english)


@dataclass(frozen=True)
class Site:
    root: Path
    config: Config
    talks: tuple[Talk, ...]  # by start time
    now: datetime
    speakers: Mapping[str, Speaker] = field(default_factory=dict)  # speakers.toml, by key
    messages: Messages = field(default_factory=english)  # what it says, in its language
    locked: Mapping[str, tuple[int, str]] = field(default_factory=dict)  # sequencelock.py
    sequences: Mapping[str, tuple[int, str]] = field(default_factory=dict)  # as loaded

    @once
    def view(self) -> SiteView:
        return SiteView(self.config, self.speakers, self.now, self.messages)

    @property
    def upcoming(self) -> list[Talk]:
        """Soonest first, by the next occurrence of recurring talks."""
        return list(self._upcoming)

    @property
    def past(self) -> list[Talk]:
        return list(self._past)

    @once
    def _upcoming(self) -> tuple[Talk, ...]:
        talks = [t for t in self.talks if t.is_upcoming(self.now)]
        return tuple(sorted(talks, key=lambda t: (t.next_schedule(self.now).start_utc, t.slug)))

    @once
    def coming(self) -> frozenset[int]:
        """The ids of the upcoming talks (asked for every talk of every list page)."""
        return frozenset(map(id, self._upcoming))

    @once
    def _past(self) -> tuple[Talk, ...]:
        return tuple(t for t in reversed(self.talks) if not t.is_upcoming(self.now))


# Whatever reads only a site's settings, speakers and time takes either.
Settings = Site | SiteView


@lru_cache(maxsize=65536)
def slugify(text: str) -> str:
    """A URL-safe slug; accented letters lose their accents, other scripts stay."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return re.sub(r"[^\w]+", "-", text).strip("-_")


SLUG = re.compile(r"^[\w][\w.-]*$")
