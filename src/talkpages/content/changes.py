"""When a built site changes by itself: the instants at which the same files build into
another site, with nobody editing them.

A build is a picture of the site at its build time (`now`). A talk moves from the
upcoming list to the past one when its last occurrence ends; a talk under way is shown
so from its start; a recurring talk lists its next occurrence, which is another one once
an occurrence ends; a talk with a `publishDate` to come appears when that date passes.
A talk's page leads with Register until its registration closes, and with Join from
a quarter of an hour before each start of a talk with a meeting or a stream
(lifecycle.py). So the site changes at every start, every end and every publishing
date, when a registration closes and when a talk goes live, and at no other instant.
`serve` asks for the first of them to know how long the site it keeps in memory stays
true (engine/live.py), and `talkpages next-change` to tell a scheduled
job whether a rebuild is due.

A talk not yet published is not on the site before its publishing date: its starts and
ends before that date change nothing, its publishing date does. With `--future` every
talk is on the site and publishing dates change nothing. Drafts are left out unless the
build takes them (the loader's `published`, with the same options).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from . import lifecycle
from .model import Talk

STARTS, ENDS, PUBLISHED = "starts", "ends", "is published"
CLOSES, LIVE = "closes its registration", "goes live"


@dataclass(frozen=True)
class Change:
    """An instant (UTC) at which `talk` changes the built site, and how."""

    at: datetime
    talk: Talk
    what: str  # STARTS, ENDS, PUBLISHED, CLOSES or LIVE
    occurrence: int = 0  # which occurrence of a recurring talk (0: the first)


def talk_changes(talk: Talk, future: bool = False) -> Iterator[Change]:
    """Every instant at which `talk` changes the site. `future`: the build shows talks
    whose publishing date is still to come (`--future`)."""
    published = None if future else talk.publish_date
    if published is not None:
        yield Change(published, talk, PUBLISHED)
    for number, schedule in enumerate(talk.occurrences):
        for at, what in ((schedule.start_utc, STARTS), (schedule.end_utc, ENDS)):
            if published is None or at > published:
                yield Change(at, talk, what, number)
    for at, what, number in _life(talk):
        if published is None or at > published:
            yield Change(at, talk, what, number)


def _life(talk: Talk) -> Iterator[tuple[datetime, str, int]]:
    """When registration closes, when each occurrence goes live (lifecycle.py)."""
    closes = talk.registration_closes
    if talk.registration_url and closes is not None and lifecycle.active(talk):
        yield closes, CLOSES, 0
    for number, (opens, _) in enumerate(lifecycle.live_from(talk)):
        yield opens, LIVE, number


def changes_between(talks: Iterable[Talk], after: datetime, until: datetime,
                    future: bool = False) -> list[Change]:
    """The changes at instants in (`after`, `until`], by time: what a site built at
    `after` lacks at `until`."""
    found = [change for talk in talks for change in talk_changes(talk, future)
             if after < change.at <= until]
    return sorted(found, key=_order)


def first_change(talks: Iterable[Talk], now: datetime,
                 future: bool = False) -> Change | None:
    """The first change after `now`, or None when the site never changes by itself."""
    later = (change for talk in talks for change in talk_changes(talk, future)
             if change.at > now)
    return min(later, key=_order, default=None)


def next_change(talks: Sequence[Talk], now: datetime) -> datetime | None:
    """The first moment after `now` at which one of `talks` starts, ends, is
    published, closes its registration or goes live: `serve`'s site is true until
    then."""
    moments = [moment for talk in talks for schedule in talk.occurrences
               for moment in (schedule.start_utc, schedule.end_utc) if moment > now]
    moments += [talk.publish_date for talk in talks
                if talk.publish_date is not None and talk.publish_date > now]
    moments += [at for talk in talks for at, _, _ in _life(talk) if at > now]
    return min(moments, default=None)


def _order(change: Change) -> tuple[datetime, str, str]:
    return (change.at, change.talk.slug, change.what)
