"""How large a subscribed feed grows: the past talks it keeps (`feed_window`), and a
warning when one passes what Google Calendar reads.

Google Calendar stops reading a subscribed feed of more than about 1 MB (some 1,100
events), without a word to the subscriber: the calendar just stops changing. A site
that adds talks for years passes that, so `feed_window = 12` keeps the talks of the
last twelve months, and every talk to come, in calendar.ics and the feeds of tags and
speakers; `archive.ics`, beside calendar.ics, keeps them all, for whoever wants the
history. A series stays while any of its dates is in the window. The window is counted
back from the build's "now", in calendar months, as the site's lists are.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from ..content.config import CONFIG_NAME
from ..content.model import Site, Talk
from ..diagnostics import Diagnostic
from .ical import STAMP_MARK

if TYPE_CHECKING:
    from .plan import Recipe
    from .render import Maker

ARCHIVE_PATH = "archive.ics"
FEED_BYTES = 1_000_000  # where Google Calendar stops reading a subscribed feed
END = b"END:VCALENDAR\r\n"


def window_start(now: datetime, months: int) -> datetime | None:
    """The first instant a feed's window keeps: `months` calendar months before `now`
    (the day kept, or the month's last one: 31 March less a month is 28 or 29 February);
    None when the window keeps everything (0)."""
    if months <= 0:
        return None
    month = now.year * 12 + now.month - 1 - months
    year, month = divmod(month, 12)
    if year < 1:
        return None  # before the calendar begins: everything is in it
    day = now.day
    while True:
        try:
            return now.replace(year=year, month=month + 1, day=day)
        except ValueError:
            day -= 1


def in_window(site: Site, talks: Iterable[Talk]) -> list[Talk]:
    """The talks a subscribed feed keeps: every talk to come, and the past talks of the
    window, a series while its last date ends within it."""
    start = window_start(site.now, site.config.feed_window)
    if start is None:
        return list(talks)
    return [talk for talk in talks
            if talk.occurrences[-1].end_utc > start or talk.is_upcoming(site.now)]


def size_warnings(maker: Maker, recipes: list[Recipe], folder: str = "") -> list[Diagnostic]:
    """A warning for each subscribed feed of more than FEED_BYTES (archive.ics is not
    one to subscribe to), naming it, its size and its events. Its size is counted from
    its events' fragments, made with the talks' pages, without making the feed again."""
    from .plan import FEED  # plan.py imports this module

    problems = []
    stamp = len(maker.feeds.stamped(STAMP_MARK))
    for recipe in recipes:
        if recipe.kind != FEED or recipe.path == ARCHIVE_PATH:
            continue
        events = sum(len(maker.piece(key)) - len(STAMP_MARK) + stamp
                     for _, key in recipe.pieces)
        if events <= FEED_BYTES // 2:  # the head and time zones are a few KiB each
            continue
        name, description = recipe.text
        size = events + len(END) + len(maker.feeds.prefix(
            maker.feeds.head(name, recipe.path, description), recipe.zones))
        if size > FEED_BYTES:
            problems.append(_too_large(maker.site, folder + recipe.path, size,
                                       len(recipe.pieces)))
    return problems


def _too_large(site: Site, path: str, size: int, events: int) -> Diagnostic:
    window = site.config.feed_window
    hint = (f"a smaller feed_window in {CONFIG_NAME} keeps fewer months of past talks in "
            "it" if window else f"set feed_window = 12 in {CONFIG_NAME}: the subscribed "
            f"feeds keep the past talks of the last 12 months, and {ARCHIVE_PATH} every talk")
    return Diagnostic(None, f"{path} is {size / 1e6:.1f} MB ({size:,} bytes, {events:,} "
                      f"event{'s' * (events != 1)}): Google Calendar stops reading a "
                      f"subscribed feed over about 1 MB", severity="warning", hint=hint)

