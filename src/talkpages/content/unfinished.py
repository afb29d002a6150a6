"""`check`'s warnings about talks not ready to be seen: the outline `talkpages new`
writes still in a talk ("placeholder text"), a talk within the next 48 hours whose
title or speaker is still to be announced, a date of a series without its talk in
those hours, and a talk of a series on a day that is no session of it.

The outline is here, not in `new` (commands/scaffold.py writes it), so that `check`
knows it in every language of the site as `new` writes it; `new` also writes
`draft = true`, so that a file just made is never published before it is written.
"""

from __future__ import annotations

import re
from datetime import timedelta
from textwrap import fill

from ..diagnostics import Diagnostic
from . import slots
from .config import CONFIG_NAME
from .frontmatter import FrontMatter, toml_key_lines
from .links import read_settings
from .messages import N_, Messages, english, messages_for
from .model import Site, Talk

# The outline `new` writes below the front matter, in the site's language.
OUTLINE = (N_("Write the page of the talk here, in Markdown: what it covers, for whom, and "
              "what people take away. The `abstract` above is shown first."),
           N_("Outline"), N_("The problem"), N_("What we did"), N_("What we learned"),
           N_("Resources"),
           N_("Slides and the recording appear as buttons once `url_slides` and `url_video` "
              "are set."))
WIDTH = 88  # the outline's paragraphs are wrapped at this width
SOON = timedelta(hours=48)
TBA = re.compile(r"^\W*$|\b(tba|tbd|tbc)\b|\bto be (announced|determined|confirmed)\b",
                 re.IGNORECASE)
TO_BE_ANNOUNCED = N_("To be announced")


def outline(messages: Messages) -> str:
    """The outline of a new talk's page, in the language of `messages`."""
    lead, heading, problem, did, learned, resources, buttons = map(messages.gettext, OUTLINE)
    return (f"\n{fill(lead, WIDTH)}\n\n## {heading}\n\n1. {problem}\n2. {did}\n3. {learned}"
            f"\n\n## {resources}\n\n{fill(buttons, WIDTH)}\n")


def _placeholders(site: Site) -> frozenset[str]:
    """The lines of the outline that are nothing but placeholders, in each language of
    the site and in English (a file written before the site changed its language)."""
    found = set()
    for messages in [english(), site.messages, *(messages_for(lang.tag)
                                                for lang in site.config.languages)]:
        lead, _, problem, did, learned, _, buttons = map(messages.gettext, OUTLINE)
        found |= {fill(lead, WIDTH).split("\n")[0], fill(buttons, WIDTH).split("\n")[0],
                  f"1. {problem}", f"2. {did}", f"3. {learned}"}
    return frozenset(line.strip() for line in found)


def warnings(site: Site, matters: dict[Talk, FrontMatter | None]) -> list[Diagnostic]:
    """Every warning of this module for the talks of `site` (their front matter read
    again, `matters`)."""
    placeholders = _placeholders(site)
    found: list[Diagnostic] = []
    for talk, fm in matters.items():
        if fm is None:
            continue
        found += placeholder_text(talk, fm, placeholders)
        found += still_to_announce(site, talk, fm)
        found += off_slot(site, talk, fm)
    return found + sessions_soon(site)


def placeholder_text(talk: Talk, fm: FrontMatter,
                     placeholders: frozenset[str]) -> list[Diagnostic]:
    return [Diagnostic(talk.source, f"placeholder text of `talkpages new` is still in the "
                       f"talk: “{line.strip()}”", fm.body_line + number, 1,
                       severity="warning", hint="write the talk's own text in its place")
            for number, line in enumerate(fm.body.split("\n"))
            if line.strip() in placeholders]


def _soon(site: Site, talk: Talk) -> bool:
    start = talk.next_schedule(site.now).start_utc
    return site.now <= start <= site.now + SOON


def _still(text: str, site: Site) -> bool:
    said = site.messages.gettext(TO_BE_ANNOUNCED).casefold()
    return bool(TBA.search(text)) or text.strip().casefold() == said


def still_to_announce(site: Site, talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    """A talk within SOON of `--now` whose title or speaker is still "TBA"."""
    if talk.cancelled or not _soon(site, talk):
        return []
    found = []
    when = talk.next_schedule(site.now).start_utc.strftime("%Y-%m-%d %H:%M UTC")
    if _still(talk.title, site):
        found.append(Diagnostic(talk.source, f"the talk starts within 48 hours ({when}) "
                                f"and its title is still {talk.title!r}",
                                fm.line_of("title") or 1, 1, severity="warning",
                                hint="announce its title, or mark it `status = "
                                "\"tentative\"`"))
    if not talk.authors or all(_still(author, site) for author in talk.authors):
        said = "it has no speaker" if not talk.authors else \
            f"its speaker is still {', '.join(talk.authors)!r}"
        found.append(Diagnostic(talk.source, f"the talk starts within 48 hours ({when}) "
                                f"and {said}", fm.line_of("authors") or fm.line_of("title")
                                or 1, 1, severity="warning",
                                hint="name its speaker: authors = [\"…\"]"))
    return found


def off_slot(site: Site, talk: Talk, fm: FrontMatter) -> list[Diagnostic]:
    """A talk of a series on a day that is no session of it."""
    series = site.config.series.get(talk.series) if talk.series else None
    why = slots.off_slot(talk, series) if series is not None else None
    if series is None or why is None:
        return []
    key = next((k for k in slots.START_KEYS if fm.line_of(k)), "date")
    day = slots.local_day(talk, series).isoformat()
    return [Diagnostic(talk.source, f"the talk is a session of the series {series.key!r}, "
                       f"but {day} is {why}", fm.line_of(key) or 1, 1, severity="warning",
                       hint="check its date; it is published as written")]


def sessions_soon(site: Site) -> list[Diagnostic]:
    """A date of a series within SOON of `--now` that has no talk yet."""
    path = site.root / CONFIG_NAME
    found = []
    for series in site.config.series.values():
        for session in slots.sessions(site, series):
            if session.start is not None and site.now <= session.start <= site.now + SOON:
                found.append(Diagnostic(
                    path, f"the session of the series {series.key!r} on "
                    f"{session.day.isoformat()} starts within 48 hours and has no talk yet: "
                    "its page shows it as “To be announced”", _line(site, series.key), 1,
                    severity="warning", hint=f"add its talk: series = \"{series.key}\", "
                    f"date = {session.day.isoformat()}"))
    return found


def _line(site: Site, key: str) -> int | None:
    text, _ = read_settings(site.root / CONFIG_NAME, site.root)
    lines = toml_key_lines(text.split("\n")) if text else {}
    return lines.get(f"series.{key}")
