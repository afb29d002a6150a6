"""Front matter -> `Talk` (`make_talk`), with every problem at the line of its field.

The field names that Hugo Academic, Wowchemy and Hugo Blox have used over the years
(`time_start`, `event_start`, `event_name`, `url_custom`, …) are resolved here. Keys
it does not know are kept in `Talk.params` for templates. Keys are matched without
regard to case, as Hugo does (`publishDate`, `publishdate`). No I/O here.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic
from . import characters, lifecycle, slots, times
from .config import Config, check_timezone
from .frontmatter import FrontMatter
from .imagefiles import measure
from .languagetags import Invalid, language_tag
from .messages import N_, language_named, messages_of
from .model import SLUG, Address, Image, Link, Talk
from .recurrence import Recurrence
from .recurrence import parse as parse_recurrence
from .rulecheck import RecurrenceError

if TYPE_CHECKING:
    pass

# The names of the links of Hugo's `url_<kind>` fields, in the site's language once read.
LINK_LABELS = {"slides": N_("Slides"), "video": N_("Video"), "code": N_("Code"),
               "pdf": N_("PDF"), "dataset": N_("Dataset"), "poster": N_("Poster"),
               "project": N_("Project"), "source": N_("Source"), "preprint": N_("Preprint")}
SAFE_SCHEMES = ("http", "https", "mailto")
SLUG_PATH = re.compile(r"^/?[\w.~%+-]+(?:/[\w.~%+-]+)*/?$")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif", ".svg")

# Front matter keys the model reads, lower-cased; every other key goes to `params`.
KNOWN_KEYS = frozenset("""
title date date_end all_day publishdate lastmod draft authors location address event
event_url abstract summary featured tags categories projects links url_custom image math
slug timezone time_start time_end event_start event_end event_all_day event_name
uid status sequence recurrence exdates coordinates aliases language
registration_url registration_closes price join_url livestream_url recording
""".split())


class _Fields:
    """Case-insensitive access to front matter, recording problems with their lines."""

    def __init__(self, fm: FrontMatter, path: Path):
        self.fm = fm
        self.path = path
        self.data = {k.lower(): v for k, v in fm.data.items()}
        self.problems: list[Diagnostic] = []

    def error(self, key: str, message: str, hint: str | None = None,
              severity: str = "error", line: int | None = None) -> None:
        line = line or self.fm.line_of(key) or self.fm.line_of(key.split(".")[0])
        self.problems.append(Diagnostic(self.path, message, line, None if line is None else 1,
                                        severity=severity, hint=hint))  # type: ignore[arg-type]

    def first(self, *keys: str) -> tuple[str, Any]:
        """The first of `keys` that has a non-empty value, and its value."""
        for key in keys:
            value = self.data.get(key)
            if value not in (None, "", []):
                return key, value
        return keys[0], None

    def text(self, key: str, *aliases: str) -> str:
        name, value = self.first(key, *aliases)
        if value is None:
            return ""
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value).strip()
        self.error(name, f"`{name}` must be text, got {type(value).__name__}")
        return ""

    def flag(self, key: str, *aliases: str) -> bool:
        name, value = self.first(key, *aliases)
        if value is None or isinstance(value, bool):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        self.error(name, f"`{name}` must be true or false, got {value!r}")
        return False

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key)
        if value in (None, ""):
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.error(key, f"`{key}` must be a list of text, such as [\"a\", \"b\"]")
            return ()
        items = [str(v).strip() for v in value if isinstance(v, (str, int, float))]
        return tuple(dict.fromkeys(v for v in items if v))

    def moment(self, key: str) -> times.Moment | None:
        try:
            return times.parse_moment(self.data.get(key))
        except ValueError as exc:
            self.error(key, f"invalid `{key}`: {exc}")
            return None

    def url(self, key: str, value: Any, line: int | None = None) -> str | None:
        if value is None or value == [] or value == {}:  # Hugo files write [] for "none"
            return None
        if not isinstance(value, str):
            self.error(key, f"`{key}` must be a URL written as text", line=line)
            return None
        url = value.strip()
        if not url:
            return None
        if not is_safe_url(url):
            self.error(key, f"`{key}` is not an http(s), mailto or relative link: {url!r}",
                       "links must start with https://, http://, mailto: or be a path",
                       line=line)
            return None
        return url


# What a browser drops from a URL before it reads its scheme: "java\tscript:" is
# "javascript:"
_DROPPED = dict.fromkeys([*range(33), 0x7F])


def is_safe_url(url: str) -> bool:
    cleaned = url.translate(_DROPPED)
    try:
        scheme = urlsplit(cleaned).scheme.lower()
    except ValueError:
        return False
    if ":" in cleaned.split("/")[0] and not scheme:
        return False
    return scheme in SAFE_SCHEMES or scheme == ""


def make_talk(fm: FrontMatter, path: Path, default_slug: str, config: Config,
              bundle_files: tuple[str, ...] = (), modified: datetime | None = None,
              written_in: str = "") -> tuple[Talk | None, list[Diagnostic]]:
    """A Talk, or None and every problem of the file (all fields are read first).
    `written_in`: the language of the file (its name's, `my-talk.de.md`), else the site's."""
    f = _Fields(fm, path)
    f.problems += characters.in_front_matter(path, fm) + characters.in_body(path, fm)
    title = f.text("title")
    raw_title = f.data.get("title")
    if not title and (raw_title is None or isinstance(raw_title, str)):
        f.problems.append(Diagnostic(path, "the talk has no title", f.fm.line_of("title") or 1,
                                     1, hint='add a line `title = "…"` to the front matter'))
    series, timing = slots.take_slot(f.data, config, f.error)  # the slot's time, zone
    schedule = _schedule(f, timing)
    zone = (schedule.zone if schedule else None) or config.timezone
    values = dict(
        slug=_slug(f, default_slug), publish_date=lifecycle.instant(f, "publishdate", zone),
        lastmod=lifecycle.instant(f, "lastmod", zone), draft=f.flag("draft"),
        authors=f.strings("authors"), location=f.text("location"), address=_address(f),
        event=f.text("event", "event_name"),
        event_url=f.url("event_url", f.data.get("event_url")) or "",
        abstract=f.text("abstract"), summary=f.text("summary"), featured=f.flag("featured"),
        tags=f.strings("tags"), categories=f.strings("categories"),
        projects=f.strings("projects"), links=_links(f, config), image=_image(f, bundle_files),
        math=f.flag("math"), uid=_uid(f), status=_status(f), sequence=_sequence(f),
        recurrence=_recurrence(f, schedule), geo=_geo(f), modified=modified,
        aliases=_aliases(f), written_in=written_in or config.language,
        given_in=_language(f), series=series, **lifecycle.values(f, zone),
    )
    if any(p.is_error for p in f.problems) or schedule is None:
        return None, f.problems
    params = {k: v for k, v in fm.data.items()
              if k.lower() not in KNOWN_KEYS and not k.lower().startswith("url_")}
    talk = Talk(source=path, title=title, schedule=schedule, body=fm.body, params=params,
                bundle_files=bundle_files, **values)  # type: ignore[arg-type]
    return talk, f.problems


STATUSES = {"confirmed": "confirmed", "tentative": "tentative", "postponed": "postponed",
            "cancelled": "cancelled", "canceled": "cancelled"}


def _language(f: _Fields) -> str:
    """The language the talk is given in, a BCP 47 tag (`language = "es"`)."""
    value = f.text("language")
    named = value and language_named(value)  # `language = "Spanish"`, as people write it
    if not value or named:
        return named
    try:
        tag = language_tag(value)
    except Invalid as exc:
        problem, hint = str(exc), exc.hint
    else:
        if len(tag.split("-")[0]) <= 3:
            return tag
        problem, hint = f"{value!r} is not a language tag or name", None
    f.error("language", f"`language`: {problem}; the talk's language is not shown",
            hint=hint or "a tag such as \"en\", \"es\" or \"pt-BR\"", severity="warning")
    return ""


def _uid(f: _Fields) -> str:
    value = f.text("uid")
    if value and (any(c.isspace() for c in value) or len(value) > 255):
        f.error("uid", "`uid` must be one word without spaces, such as "
                "\"kubecon-2019-batch@example.org\"")
        return ""
    return value


def _status(f: _Fields) -> str:
    value = f.text("status").lower()
    if value and value not in STATUSES:
        f.error("status", f"`status` {value!r} is not one of confirmed, tentative, postponed, "
                "cancelled")
        return ""
    return STATUSES.get(value, "")


def _sequence(f: _Fields) -> int:
    value = f.data.get("sequence")
    if value in (None, ""):
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        f.error("sequence", "`sequence` must be a whole number from 0 up (each build "
                "raises the feed's SEQUENCE when the time, place or status changes)")
        return 0
    return value


def _recurrence(f: _Fields, schedule: times.Schedule | None) -> Recurrence | None:
    value = f.data.get("recurrence")
    if value in (None, "") or schedule is None:
        if f.data.get("exdates") not in (None, "", []) and value in (None, ""):
            f.error("exdates", "`exdates` needs a `recurrence`", severity="warning")
        return None
    try:
        return parse_recurrence(value, f.data.get("exdates"), schedule)
    except RecurrenceError as exc:
        f.error(exc.field, str(exc), exc.hint)
        return None


def _geo(f: _Fields) -> tuple[float, float] | None:
    value = f.data.get("coordinates")
    if value in (None, "", {}):
        return None
    table = {str(k).lower(): v for k, v in value.items()} if isinstance(value, dict) else {}
    lat = table.get("latitude", table.get("lat"))
    lon = table.get("longitude", table.get("lng", table.get("lon")))
    try:
        latitude, longitude = float(lat), float(lon)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        latitude = longitude = float("nan")
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        f.error("coordinates", "`coordinates` must be a table with latitude (-90 to 90) and "
                "longitude (-180 to 180)", "coordinates = {latitude = 41.37, longitude = 2.15}")
        return None
    return (latitude, longitude)


def _aliases(f: _Fields) -> tuple[str, ...]:
    """Hugo's `aliases`: paths of the site (`/talk/joker/`, `/old.html`) where a page
    sends visitors to the talk. Each is kept as the path of a folder (`talk/joker/`) or
    of an .html file; one that is no such path is left out, with a warning."""
    value = f.data.get("aliases")
    if value in (None, "", []):
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        f.error("aliases", "`aliases` must be a list of paths, such as [\"/talk/joker/\"]",
                severity="warning")
        return ()
    found = []
    for item in items:
        path = item.strip() if isinstance(item, str) else ""
        parts = [p for p in path.split("/") if p]
        if (not parts or any(p in (".", "..") or len(p.encode()) > 200 for p in parts)
                or not SLUG_PATH.match(path) or ":" in path):
            f.error("aliases", f"`aliases`: {item!r} is not a path of the site, such as "
                    "\"/talk/joker/\"; it is left out", severity="warning")
            continue
        joined = "/".join(parts)
        found.append(joined if joined.lower().endswith((".html", ".htm")) else joined + "/")
    return tuple(dict.fromkeys(found))


def _slug(f: _Fields, default: str) -> str:
    value = f.text("slug")
    if not value:
        return default
    if not SLUG.match(value) or ".." in value:
        f.error("slug", f"`slug` {value!r} is not usable in a URL",
                "use letters, digits and dashes, such as \"kubecon-2019-batch\"")
        return default
    return value


def _schedule(f: _Fields, config: Config) -> times.Schedule | None:
    zone = f.text("timezone") or None
    if zone:
        try:
            check_timezone(zone)
        except ValueError as exc:
            f.error("timezone", str(exc))
            return None
    start_key, _ = f.first("event_start", "time_start", "date")
    end_key, _ = f.first("event_end", "time_end", "date_end")
    if f.data.get(start_key) in (None, ""):
        start_key = next((k for k in ("event_start", "time_start", "date") if k in f.data),
                         "date")
        line = f.fm.line_of(start_key) or 1
        f.problems.append(Diagnostic(f.path, "the talk has no date", line, 1,
                                     hint="add `date = 2019-05-22T14:50:00` (local time of "
                                          "the venue) and `timezone = \"Europe/Madrid\"`"))
        return None
    start = f.moment(start_key)
    end = f.moment(end_key)
    if start is None:
        return None
    try:
        schedule = times.resolve(
            start, end, all_day=f.flag("all_day", "event_all_day"), zone=zone,
            default_zone=config.timezone, default_length=timedelta(minutes=config.default_length),
            start_field=start_key, end_field=end_key)
        schedule.start_utc, schedule.end_utc  # noqa: B018 - both must exist as instants
        return schedule
    except times.ScheduleError as exc:
        f.error(exc.field, str(exc), exc.hint)
    except (OverflowError, ValueError):
        f.error(start_key, f"`{start_key}` is too close to the end of time: talkpages handles "
                "dates from year 1 to 9999", "check the year")
    return None


def _links(f: _Fields, config: Config) -> tuple[Link, ...]:
    links: list[Link] = []
    say = messages_of(config).gettext
    for key, value in f.fm.data.items():
        lower = key.lower()
        if lower.startswith("url_") and lower != "url_custom" and value not in (None, ""):
            url = f.url(key, value)
            kind = lower[4:]
            if url:
                label = LINK_LABELS.get(kind)
                links.append(Link(say(label) if label else kind.replace("_", " ").title(),
                                  url, kind))
    for key in ("links", "url_custom"):
        value = f.data.get(key)
        if value in (None, "", []):
            continue
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            f.error(key, f"`{key}` must be a list of tables with `name` and `url`",
                    '[[links]] name = "Slides" url = "https://…"')
            continue
        tables = f.fm.table_lines.get(key, [])
        for number, entry in enumerate(value):
            entry = {str(k).lower(): v for k, v in entry.items()}
            line = tables[number] if number < len(tables) else None
            url = f.url(key, entry.get("url"), line)
            if url:
                links.append(Link(str(entry.get("name") or url), url, "custom"))
    return tuple(links)


def _image(f: _Fields, bundle_files: tuple[str, ...]) -> Image | None:
    value = f.data.get("image")
    table = {str(k).lower(): v for k, v in value.items()} if isinstance(value, dict) else {}
    wanted = str(table.get("filename") or "")
    file = wanted if wanted in bundle_files else next(
        (name for name in bundle_files
         if name.lower().startswith("featured.") and name.lower().endswith(IMAGE_SUFFIXES)),
        None)
    if file is None:
        return None
    facts = measure(f.path.parent / file, file)
    return Image(file=file, width=facts.width if facts else 0,
                 height=facts.height if facts else 0, digest=facts.digest if facts else "",
                 caption=str(table.get("caption") or ""),
                 alt_text=str(table.get("alt_text") or ""),
                 focal_point=str(table.get("focal_point") or ""),
                 preview_only=table.get("preview_only") is True)


def _address(f: _Fields) -> Address | None:
    value = f.data.get("address")
    if value in (None, "", {}):
        return None
    if not isinstance(value, dict):
        f.error("address", "`address` must be a table with street, city, region, postcode, "
                "country", severity="warning")
        return None
    table = {str(k).lower(): ("" if v is None or v == [] or v == {} else str(v).strip())
             for k, v in value.items()}
    address = Address(**{k: table.get(k, "") for k in ("street", "city", "region", "postcode",
                                                        "country")})
    return address if address.lines() else None
