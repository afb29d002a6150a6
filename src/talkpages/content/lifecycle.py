"""A talk's life: registration, its price, the meeting and stream to join, the recording
to come; and the stage a talk is at, at an instant.

The stage decides the page's one primary action, at build time here and in the browser
by site.js with the same rules (`stage_at`):

- "register" while registration is open: until `registration_closes`, else until the
  start of the next occurrence;
- "live" from LIVE_EARLY before the next occurrence starts until it ends, for a talk
  with a `join_url` or a `livestream_url` (before registration: a talk under way is
  joined, not registered for);
- "calendar" otherwise while the talk is to come (a recurring talk is read by its next
  occurrence);
- once the last occurrence is over: "recording" when the talk has one (a video link),
  "coming" when it says `recording = "coming"`, else "over".

A cancelled or postponed talk is never open for registration nor live.

The fields are read here, for fields.py, each problem at its line. The three links are
absolute http(s) URLs: calendars and search engines are given them as they are. And
`check` suggests them here (`life_warnings`) where a talk's text says it needs them.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from ..diagnostics import Diagnostic
from .frontmatter import FrontMatter
from .model import Site, Talk

if TYPE_CHECKING:
    from .fields import _Fields

LIVE_EARLY = timedelta(minutes=15)  # a meeting opens before the talk starts
PRICE_LENGTH = 40  # characters: "€10, students €5" fits; a paragraph does not
FREE_WORDS = frozenset({"free", "0", "0.00", "0,00"})
RECORDING_COMING = "coming"
KEYS = ("registration_url", "registration_closes", "price", "join_url", "livestream_url",
        "recording")
STAGES = ("register", "calendar", "live", "recording", "coming", "over")


_KEYS = ("registration_url", "registration_closes", "price", "join_url", "livestream_url",
         "recording")


def values(f: _Fields, zone: str) -> dict[str, Any]:
    """The fields of a talk's life, as `Talk`'s keyword arguments; `zone`: the talk's,
    in which a `registration_closes` without an offset is read."""
    if not any(key in f.data for key in _KEYS):  # most talks: the defaults, at once
        return {}
    closes = instant(f, "registration_closes", zone)
    registration = web_url(f, "registration_url")
    if closes is not None and not registration:
        f.error("registration_closes", "`registration_closes` without a `registration_url`: "
                "the page shows no registration", severity="warning")
    return dict(registration_url=registration, registration_closes=closes,
                price=_price(f), join_url=web_url(f, "join_url"),
                livestream_url=web_url(f, "livestream_url"), recording=_recording(f))


def web_url(f: _Fields, key: str) -> str:
    """An absolute http(s) URL, or "" (an error at the field's line when it is not)."""
    value = f.data.get(key)
    if value is None or value in ("", [], {}):
        return ""
    text = value.strip() if isinstance(value, str) else ""
    try:
        parts = urlsplit(text)
    except ValueError:
        parts = urlsplit("")
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc \
            or any(c.isspace() or ord(c) < 32 for c in text) or len(text) > 2000:
        f.error(key, f"`{key}` must be a full http(s) address, got {value!r}",
                'such as "https://example.org/…"')
        return ""
    return text


def instant(f: _Fields, key: str, zone: str) -> datetime | None:
    """A day or a date-time of the front matter as an instant: naive values are in the
    talk's zone, like its times (publishDate, lastmod, registration_closes)."""
    value = f.moment(key)
    if value is None:
        return None
    if isinstance(value, time):
        f.error(key, f"`{key}` needs a day, such as 2019-06-06")
        return None
    if not isinstance(value, datetime):
        value = datetime.combine(value, time())
    return value if value.tzinfo is not None else value.replace(tzinfo=ZoneInfo(zone))


def _price(f: _Fields) -> str:
    """The price as written ("€10", "10 EUR", "pay what you can"), "free" for a free
    talk (`price = "free"`, `"Free"`, `0`); "" when the talk does not say."""
    value = f.data.get("price")
    if value is None or value == "":
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) \
            or (not isinstance(value, str) and not 0 <= value < 10**9):
        f.error("price", f"`price` must be text such as \"€10\", or \"free\"; got {value!r}")
        return ""
    text = " ".join(str(value).split())
    if len(text) > PRICE_LENGTH:
        f.error("price", f"`price` is longer than {PRICE_LENGTH} characters",
                "say the price in a few words (\"€10, students €5\"); details go in the text")
        return ""
    return "free" if text.lower() in FREE_WORDS or value == 0 else text


def _recording(f: _Fields) -> str:
    value = f.data.get("recording")
    if value is None or value == "":
        return ""
    if isinstance(value, str) and value.strip().lower() == RECORDING_COMING:
        return RECORDING_COMING
    f.error("recording", f"`recording` can only be \"coming\" (a recording is announced), "
            f"got {value!r}", 'give the recording itself as `url_video = "https://…"`')
    return ""


# The stage at an instant ----------------------------------------------------------------

def active(talk: Talk) -> bool:
    """Open for registration and joining: neither cancelled nor postponed."""
    return talk.status not in ("cancelled", "postponed")


def online(talk: Talk) -> str:
    """Where to follow the talk live: its meeting, else its stream; "" for none."""
    return talk.join_url or talk.livestream_url


def registration_closes(talk: Talk, now: datetime) -> datetime:
    """When registration closes: as the talk says, else at the next start."""
    return talk.registration_closes or talk.next_schedule(now).start_utc


def stage_at(talk: Talk, now: datetime, recorded: bool) -> str:
    """The stage of `talk` at `now` (see the module's docstring); `recorded`: the talk
    has a recording (a video link)."""
    if not talk.is_upcoming(now):
        return after(talk, recorded)
    schedule = talk.next_schedule(now)
    if active(talk) and online(talk) \
            and schedule.start_utc - LIVE_EARLY <= now < schedule.end_utc:
        return "live"
    if active(talk) and talk.registration_url and now < registration_closes(talk, now):
        return "register"
    return "calendar"


def after(talk: Talk, recorded: bool) -> str:
    """The stage of `talk` once it is over."""
    return "recording" if recorded else RECORDING_COMING if \
        talk.recording == RECORDING_COMING else "over"


def live_from(talk: Talk) -> list[tuple[datetime, datetime]]:
    """The live windows of a talk's occurrences (from LIVE_EARLY before each start to
    its end): the instants its page and its rows change at by themselves."""
    if not online(talk) or not active(talk):
        return []
    return [(s.start_utc - LIVE_EARLY, s.end_utc) for s in talk.occurrences]


# What `check` suggests ---------------------------------------------------------------------

MEETING_HOSTS = ("zoom.us", "meet.google.com", "teams.microsoft.com", "teams.live.com",
                 "meet.jit.si", "whereby.com", "webex.com")
_MEETING = re.compile(r"https?://(?:[\w-]{1,63}\.){0,4}(?:"
                      + "|".join(re.escape(h) for h in MEETING_HOSTS) + r")(?:/[^\s)<>\"']{0,500})?"
                      r"|\bonline\b", re.IGNORECASE)
_REGISTRATION = re.compile(r"\b(?:register|registration|sign[ -]?up|rsvp|tickets?)\b"
                           r"|\b(?:eventbrite\.[a-z.]{2,6}|ti\.to|lu\.ma|pretix\.eu)/",
                           re.IGNORECASE)


def life_warnings(site: Site, talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    """A talk to come held online (its location or text says "online" or links a
    meeting host) with no `join_url`; one whose text speaks of registering with no
    `registration_url`."""
    if not talk.is_upcoming(site.now) or not active(talk):
        return []
    found = []
    if not talk.join_url:
        match = _MEETING.search(talk.location) or _MEETING.search(talk.body)
        if match:
            link = match.group(0) if match.group(0).lower().startswith("http") else "https://…"
            found.append(_said(talk, fm, match, "location", "upcoming talk held online with "
                               "no `join_url`", f'add `join_url = "{link}"`, the meeting\'s '
                               "link: the page offers it as Join from 15 minutes before the "
                               "start, and the feeds carry it"))
    if not talk.registration_url:
        match = _REGISTRATION.search(talk.location) or _REGISTRATION.search(talk.body)
        if match:
            found.append(_said(talk, fm, match, "location", "upcoming talk that speaks of "
                               "registering, with no `registration_url`",
                               'add `registration_url = "https://…"` (and `price`, '
                               "`registration_closes`): the page leads with Register until "
                               "registration closes"))
    return found


def _said(talk: Talk, fm: FrontMatter, match: re.Match[str], key: str, message: str,
          hint: str) -> Diagnostic:
    """A warning at the line of `match`: in the field `key`, else in the body."""
    if match.string is talk.location:
        line = fm.line_of(key) or 1
    else:
        line = fm.body_line + match.string.count("\n", 0, match.start())
    return Diagnostic(talk.source, message, line, 1, severity="warning", hint=hint)
