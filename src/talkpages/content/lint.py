"""Warnings for `talkpages check`: what a careful editor would point out.

None of these stops a build; `check --strict` makes them fail. Each names the file and
the line of the field concerned:

- an unknown key that looks like a typo of a known one (`date_ned` for `date_end`):
  within one edit (two for keys of six letters or more), a swap of two neighbouring
  letters counting as one. Real Hugo files carry dozens of keys talkpages does not
  read (`header`, `weight`, `publication_types`…); only near misses are reported.
  The known keys are `fields.KNOWN_KEYS`, read when the check runs, and the `url_*`
  link kinds;
- a past talk with no slides, no PDF and no video (Wowchemy's talks show their slides
  as a PDF: `url_pdf`, or the bundle's PDF that the importer names there);
- an upcoming talk with no link to its event; one held online (its location or text
  says "online" or links a meeting host) with no `join_url`; one whose text speaks of
  registering with no `registration_url` (lifecycle.py);
- a `location` with no `timezone` on a site whose talks are in several zones;
- a site whose timed talks all start at whole hours of UTC in several places: local
  times of each venue, most likely, read as UTC (sites moved from Hugo often are);
- a relative `url_*` link that points at no file of the talk's bundle;
- a talk longer than a month (31 days) that is not marked `multi_day = true`: most
  likely a `date_end` with the wrong year or month;
- raw HTML in a body, abstract or summary, shown as text on a site without
  `unsafe_html` (an `<iframe>` of the old site, `<p align="center">`);
- and those of unfinished.py: placeholder text, "TBA" within 48 hours, series' dates.

And a note (information, never a failure) for each talk a language of the site lacks,
and one when talks changed since sequence.lock was written (sequencelock.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ..diagnostics import Diagnostic
from . import fields
from .config import CONFIG_NAME
from .embedcheck import embed_warnings, escaped_html
from .frontmatter import FrontMatter, FrontMatterError, split
from .languages import untranslated_notes
from .lifecycle import life_warnings
from .loader import BUNDLE_INDEX
from .model import Site, Talk
from .sequencelock import stale_note
from .unfinished import warnings as unfinished

# Keys that Hugo or its Academic themes use and talkpages keeps for templates: never
# reported as typos even when they are one letter away from a key we read.
HUGO_KEYS = frozenset("""
aliases weight type layout url expirydate keywords description series headless cascade
outputs markup build _build resources translationkey linktitle images videos audio
sitemap menu menus iscjklanguage header slides subtitle selected highlight
publication publication_short publication_types abstract_short event_short
location_short profile show_date show_related summary_short
""".split())
MEDIA_KINDS = ("slides", "video", "pdf")


def lint_site(site: Site) -> list[Diagnostic]:
    """Every warning of every talk of `site` (a site that loaded without errors)."""
    matters = {talk: _front_matter(talk.source) for talk in site.talks}
    zones = site_zones(site, matters)
    warnings: list[Diagnostic] = utc_round_hours(site, matters)
    for talk, fm in matters.items():
        if fm is None:
            continue
        warnings += typo_keys(talk, fm)
        warnings += missing_media(talk, fm, site)
        warnings += missing_timezone(talk, fm, site, zones)
        warnings += missing_bundle_files(talk, fm)
        warnings += too_long(talk, fm)
        if not site.config.unsafe_html:
            warnings += escaped_html(talk, fm)
        warnings += embed_warnings(site, talk, fm)
        warnings += life_warnings(site, talk, fm)
    warnings += unfinished(site, matters)  # placeholders, "TBA" soon, series' sessions
    return [*local_base_url(site), *warnings, *untranslated_notes(site), *stale_note(site)]


LOOPBACK = re.compile(r"^(localhost|.*\.localhost|127(\.\d+){3}|0\.0\.0\.0|\[?::1\]?)$")


def local_base_url(site: Site) -> list[Diagnostic]:
    """A site whose `base_url` is this machine's (the default, `localhost`, 127.0.0.1)
    builds for a preview, but published so, its feed's UIDs (`…@localhost`), canonical
    links and subscribe links would all be wrong: a warning, which `check --strict`
    fails on, so a CI never publishes it."""
    host = site.config.host.lower()
    if not LOOPBACK.match(host):
        return []
    return [Diagnostic(site.root / CONFIG_NAME, f"base_url is {site.config.base_url!r}, this "
                       "machine's address: published so, the feed's UIDs (…@{host}) and "
                       "the canonical and subscribe links would be wrong".replace(
                           "{host}", host), severity="warning",
                       hint="set base_url = \"https://…/\" to where the site is published "
                       "(or build with --base-url)")]


def _front_matter(path: Path) -> FrontMatter | None:
    """The talk's front matter again, for its raw keys and their lines."""
    try:
        return split(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, FrontMatterError):
        return None  # changed since it loaded: the next check will say


def _warning(talk: Talk, fm: FrontMatter, key: str | None, message: str,
             hint: str | None = None) -> Diagnostic:
    line = (fm.line_of(key) if key else None) or 1
    return Diagnostic(talk.source, message, line, 1, severity="warning", hint=hint)


# Typos ------------------------------------------------------------------------------

def known_keys() -> frozenset[str]:
    """The keys talkpages reads, as of now (other modules add to fields.KNOWN_KEYS)."""
    return fields.KNOWN_KEYS | {f"url_{kind}" for kind in fields.LINK_LABELS}


def suggest(key: str, known: Iterable[str]) -> str | None:
    """The known key `key` is most likely a typo of, if any."""
    lower = key.lower()
    if lower in HUGO_KEYS:
        return None
    limit = 1 if len(lower) <= 5 else 2
    best: tuple[int, str] | None = None
    for candidate in known:
        if candidate == lower or abs(len(candidate) - len(lower)) > limit:
            continue
        distance = edit_distance(lower, candidate)
        if distance <= limit and (best is None or (distance, candidate) < best):
            best = (distance, candidate)
    return best[1] if best else None


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance where swapping two neighbouring letters is one edit."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def typo_keys(talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    known = known_keys()
    warnings = []
    for key in fm.data:
        if key.lower() in known:
            continue
        guess = suggest(key, known)
        if guess:
            warnings.append(_warning(
                talk, fm, key, f"unknown key `{key}`: did you mean `{guess}`?",
                f"talkpages does not read `{key}`; rename it to `{guess}` if that was meant"))
    return warnings


# Slides, video and the event link -------------------------------------------------

def _has_media(talk: Talk) -> bool:
    for link in talk.links:
        name = link.name.lower()
        if link.kind in MEDIA_KINDS or any(word in name for word in
                                           ("slide", "video", "recording", "youtube")):
            return True
    return _body_media(talk.body)


# A link of a talk's text: `[text](address` of Markdown, or an address written out. No
# `[` in a link's text, so that each `[` of a text of many fails at once (linear time).
_BODY_LINK = re.compile(r"\[([^\[\]\n]{0,300})\]\(\s{0,20}<?([^\s)>]{1,2000})"
                        r"|(https?://[^\s)<>\"']{1,2000})")
_MEDIA_HINTS = ("slide", "video", "recording", "youtube", "youtu.be", "vimeo.com",
                "speakerdeck.com", "slideshare.net", ".pdf", "docs.google.com/presentation")


def _body_media(body: str) -> bool:
    """Slides or a recording linked in the talk's text (academicpages and many Hugo
    sites put them there, not in fields): a link whose text or address says so."""
    for match in _BODY_LINK.finditer(body):
        said = " ".join(part for part in match.groups() if part).lower()
        if any(hint in said for hint in _MEDIA_HINTS):
            return True
    return False


def missing_media(talk: Talk, fm: FrontMatter, site: Site) -> list[Diagnostic]:
    if talk.is_upcoming(site.now):
        if talk.event_url or talk.series:  # a series' page is its event's
            return []
        key = "event" if talk.event else None
        return [_warning(talk, fm, key, "upcoming talk with no link to its event",
                         'add `event_url = "https://…"`, the event\'s own page (its '
                         "programme); where people register is `registration_url`")]
    if _has_media(talk):
        return []
    key = next((k for k in ("event_start", "time_start", "date") if fm.line_of(k)), None)
    return [_warning(talk, fm, key, "past talk with no slides or video",
                     'add `url_slides = "…"` or `url_video = "…"` (a full URL, or a file '
                     "beside a bundle's index.md)")]


# Time zones -------------------------------------------------------------------------

def _own_zone(fm: FrontMatter) -> str | None:
    value = next((v for k, v in fm.data.items() if k.lower() == "timezone"), None)
    return value.strip() if isinstance(value, str) and value.strip() else None


def site_zones(site: Site, matters: dict[Talk, FrontMatter | None]) -> set[str]:
    """The zones the site's talks are in: their own, or the site's for those without."""
    zones = set()
    for fm in matters.values():
        zones.add((_own_zone(fm) if fm else None) or site.config.timezone)
    return zones


def missing_timezone(talk: Talk, fm: FrontMatter, site: Site,
                     zones: set[str]) -> list[Diagnostic]:
    if len(zones) < 2 or not talk.location or _own_zone(fm) or \
            (talk.series and not any(key.lower() == "location" for key in fm.data)):
        return []  # the room of its series, whose slot is in a zone of its own
    listed = ", ".join(sorted(zones)[:4]) + (", …" if len(zones) > 4 else "")
    if talk.schedule.zone is None:
        how = "its times carry a UTC offset and are shown with it, not the venue's zone"
    else:
        how = f"its times are read in the site's zone, {site.config.timezone}"
    return [_warning(talk, fm, "location",
                     f"`location` without `timezone` on a site with talks in {len(zones)} "
                     f"zones ({listed}): {how}",
                     'add `timezone = "…"`, the IANA name of the venue\'s zone, such as '
                     '"Europe/Madrid"')]


def utc_round_hours(site: Site, matters: dict[Talk, FrontMatter | None]) -> list[Diagnostic]:
    """One warning for a site whose times look local but are read as UTC."""
    timed = [t for t in site.talks if isinstance(t.schedule.start, datetime)
             and not t.schedule.all_day]
    places = {t.location.strip().lower(): t.location.strip() for t in timed
              if t.location.strip() and "online" not in t.location.lower()}
    if len(timed) < 2 or len(places) < 2:
        return []
    for talk in timed:
        start = talk.schedule.start
        assert isinstance(start, datetime)
        if (talk.schedule.zone not in (None, "UTC", "Etc/UTC")
                or start.utcoffset() != timedelta(0) or start.minute or start.second):
            return []
    first = timed[0]
    fm = matters.get(first)
    named = ", ".join(sorted(places.values())[:3]) + (", …" if len(places) > 3 else "")
    message = (f"all {len(timed)} timed talks start at whole hours of UTC, in "
               f"{len(places)} places ({named}): they are most likely each venue's local "
               "time, read as UTC")
    hint = ('give each talk its venue\'s `timezone = "…"` and write its time without `Z`, '
            'or set `timezone` in talkpages.toml if all are in one zone')
    if fm is None:
        return [Diagnostic(first.source, message, severity="warning", hint=hint)]
    key = next((k for k in ("event_start", "time_start", "date") if fm.line_of(k)), None)
    return [_warning(first, fm, key, message, hint)]


# Links into the bundle ---------------------------------------------------------------

def _relative_target(value: Any) -> str | None:
    """The bundle file a relative link names, or None for other links."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parts = urlsplit(value.strip())
    except ValueError:
        return None
    if parts.scheme or parts.netloc or value.strip().startswith(("/", "#", "?")):
        return None
    target = unquote(parts.path)
    while target.startswith("./"):
        target = target[2:]
    return target or None


def missing_bundle_files(talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    warnings = []
    bundle = talk.source.name == BUNDLE_INDEX
    for key, value in fm.data.items():
        lower = key.lower()
        if not lower.startswith("url_") or lower == "url_custom":
            continue
        target = _relative_target(value)
        if target is None or target in talk.bundle_files:
            continue
        if bundle:
            warnings.append(_warning(
                talk, fm, key, f"`{key}` points at `{target}`, which is not in the talk's "
                "folder", f"put {target} in {talk.source.parent.name}/ beside index.md, or "
                "use a full URL"))
        else:
            warnings.append(_warning(
                talk, fm, key, f"`{key}` is a relative link (`{target}`), but the talk is a "
                "single file: it points at nothing",
                f"make it a page bundle, {talk.source.stem}/index.md with {target} beside "
                "it, or use a full URL"))
    return warnings


# Length ------------------------------------------------------------------------------

MONTH = 31  # days: a summer school or an exhibition may last that long, and be marked


def too_long(talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    start, end = talk.schedule.start, talk.schedule.end
    first = start.date() if isinstance(start, datetime) else start
    last = end.date() if isinstance(end, datetime) else end
    days = (last - first).days + 1
    marked = next((v for k, v in fm.data.items() if k.lower() == "multi_day"), None)
    if days <= MONTH or marked is True:
        return []
    key = next((k for k in ("event_end", "time_end", "date_end") if fm.line_of(k)), None)
    return [_warning(talk, fm, key, f"the talk lasts {days} days ({first.isoformat()} to "
                     f"{last.isoformat()}): is its end right?",
                     "correct the end, or add `multi_day = true` if it does last that long")]
