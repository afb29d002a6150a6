"""`talkpages new`: a talk file that loads and builds as it is written.

The front matter is written by tomli-w, so every value is valid TOML whatever the
title holds (quotes, backslashes, emoji). Before anything is written the new file is
read back through the model, exactly as `build` will read it: a time that does not
exist in the zone, or an end before the start, is reported and nothing is written.
A file is never overwritten, and never written through a link: safefile.py.

Slugs are ASCII: accents are dropped (é -> e), a few letters are spelled out (ß -> ss,
ø -> o), Greek and Cyrillic are transliterated letter by letter. Other scripts (CJK,
Arabic, …) have no transliteration that stays short and right: Unidecode reads every
Han character in Mandarin, Japanese titles included, and runs the syllables together,
and it is GPL-licensed; a slug of "华为云原生之路" as "hua-wei-yun-yuan-sheng-zhi-lu" helps
nobody. Such a title keeps its ASCII words, if it has any, and otherwise falls back to
`talk-<date>`, readable and never empty; `--slug` gives another.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import tomli_w

from ..content import times
from ..content.addresses import slug_problem
from ..content.config import Config, check_timezone
from ..content.fields import make_talk
from ..content.frontmatter import FrontMatterError, split
from ..content.loader import BUNDLE_INDEX, RESERVED_SLUGS, TALKS_DIR, find_talk_files
from ..content.messages import Messages, english, messages_of
from ..content.unfinished import outline
from ..diagnostics import Diagnostic
from .safefile import Refused, check_folders, create_new

MAX_SLUG = 60

_SPELLED = {"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe",
            "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D",
            "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h", "Ħ": "H", "ŋ": "ng", "Ŋ": "Ng",
            "ĸ": "k", "ſ": "s", "&": " and ", "@": " at "}
_GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψω",
                  "a b g d e z i th i k l m n x o p r s s t y f ch ps o".split(), strict=True))
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяєіїґ",
                     "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch - y - e "
                     "yu ya ye i yi g".split(), strict=True))
_TABLE = str.maketrans({**_SPELLED, **_GREEK,
                        **{k.upper(): v for k, v in _GREEK.items()},
                        **{k: v.strip("-") for k, v in _CYRILLIC.items()},
                        **{k.upper(): v.strip("-") for k, v in _CYRILLIC.items()}})


def ascii_slug(text: str) -> str:
    """`text` as a lower-case ASCII slug; "" when nothing in it has an ASCII spelling."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_TABLE)
    words = re.findall(r"[a-z0-9]+", text.encode("ascii", "ignore").decode().lower())
    slug = ""
    for word in words:
        if slug and len(slug) + 1 + len(word) > MAX_SLUG:
            break
        slug = f"{slug}-{word}" if slug else word[:MAX_SLUG]
    return slug


def slug_for(title: str, start: date | None) -> str:
    """The slug of a new talk: its title in ASCII, else `talk-<date>`."""
    slug = ascii_slug(title)
    if not slug:
        slug = f"talk-{_day(start).isoformat()}" if start else "talk"
    if slug in RESERVED_SLUGS:
        slug = f"{slug}-talk"
    return slug


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


# Values from the command line or the prompts ------------------------------------------

def parse_start(text: str) -> date:
    """--date: a date-time (local time at the venue) or a date."""
    value = times.parse_moment(text)
    if value is None or isinstance(value, time):
        raise ValueError(f"{text!r} has no day: write 2019-05-22T14:50 or 2019-05-22")
    return value


def parse_end(text: str) -> date | time:
    """--end: a time of day (the same day), a date-time, or a last day."""
    value = times.parse_moment(text)
    if value is None:
        raise ValueError("an empty end")
    return value


def parse_zone(text: str) -> str:
    check_timezone(text.strip())
    return text.strip()


def parse_slug(text: str) -> str:
    """--slug: checked as the loader checks a talk's slug, which also keeps the new file
    in talks/ (no `/`, no `..`, not an absolute path)."""
    problem = slug_problem(text.strip())
    if problem is not None:
        raise ValueError(f"{problem[0]}; {problem[1]}")
    return text.strip()


@dataclass
class NewTalk:
    title: str
    start: date
    end: date | time | None = None
    timezone: str = ""
    event: str = ""
    event_url: str = ""
    location: str = ""
    authors: list[str] = field(default_factory=list)
    slug: str = ""
    bundle: bool = False
    draft: bool = True  # with the outline below; `init`'s sample talk is published as it is

    def front_matter(self) -> dict[str, Any]:
        # A draft until its author says otherwise: the outline below is never published
        # by a build run before the talk is written (`check` names what is left of it).
        data: dict[str, Any] = {"title": self.title, "date": self.start}
        if self.draft:
            data["draft"] = True
        end = self.end
        if isinstance(end, time):
            if not isinstance(self.start, datetime):
                raise ValueError("an end time needs a start time: give --date as "
                                 "2019-05-22T14:50")
            end = datetime.combine(self.start.date(), end, self.start.tzinfo)
        if end is not None:
            data["date_end"] = end
        if self.timezone:
            data["timezone"] = self.timezone
        data.update(authors=self.authors, event=self.event, event_url=self.event_url,
                    location=self.location, abstract="", tags=[], url_slides="",
                    url_video="")
        return data


def body(messages: Messages) -> str:
    """The outline of a new talk's page, in the language of `messages` (`check` warns
    about what of it is left: content/unfinished.py)."""
    return outline(messages)


def render(talk: NewTalk, messages: Messages | None = None) -> str:
    text = body(messages or english()) if talk.draft else ""
    return f"+++\n{toml(talk.front_matter())}+++\n{text}"


_SPACED_DATETIME = re.compile(r"(?m)^([A-Za-z0-9_-]+ = \d{4}-\d{2}-\d{2}) (?=\d{2}:\d{2})")


def toml(data: dict[str, Any]) -> str:
    """tomli-w's TOML, with date-times written 2019-05-22T14:50:00 as people write them
    (tomli-w puts a space there, which is valid TOML too)."""
    return _SPACED_DATETIME.sub(r"\1T", tomli_w.dumps(data))


# Writing -----------------------------------------------------------------------------

class NewTalkError(Exception):
    def __init__(self, message: str, hint: str | None = None,
                 diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.diagnostics = diagnostics or []


def target_path(site_dir: Path, slug: str, bundle: bool) -> Path:
    talks = site_dir / TALKS_DIR
    return talks / slug / BUNDLE_INDEX if bundle else talks / f"{slug}.md"


def taken_by(site_dir: Path, slug: str) -> Path | None:
    """A talk file that already has `slug`, by its name or its `slug` key."""
    talks = site_dir / TALKS_DIR
    for candidate in (talks / f"{slug}.md", talks / slug / BUNDLE_INDEX, talks / slug):
        if os.path.lexists(candidate):  # a link to nothing takes the name too
            return candidate
    if not talks.is_dir():
        return None
    for path, default, _ in find_talk_files(talks, []):
        if default == slug:
            return path
        try:
            text = path.read_text(encoding="utf-8")
            if "slug" not in text.lower():
                continue
            data = split(text).data
        except (OSError, UnicodeDecodeError, FrontMatterError):
            continue
        own = next((v for k, v in data.items() if k.lower() == "slug"), None)
        if isinstance(own, str) and own.strip().lower() == slug.lower():
            return path
    return None


def create(site_dir: Path, talk: NewTalk, config: Config) -> Path:
    """Write the talk; raise NewTalkError (nothing written) when it cannot be."""
    slug = talk.slug or slug_for(talk.title, talk.start)
    problem = slug_problem(slug)
    if problem is not None:
        raise NewTalkError(*problem)
    try:  # the talks already there are read first: never through a link out of the site
        check_folders(site_dir, site_dir / TALKS_DIR)
    except Refused as exc:
        raise _refused(exc) from None
    other = taken_by(site_dir, slug)
    if other is not None:
        raise NewTalkError(f"a talk with the slug {slug!r} exists already: {other}",
                           'choose another with --slug, such as --slug "' + slug + '-2"')
    path = target_path(site_dir, slug, talk.bundle)
    try:
        text = render(talk, messages_of(config))
    except ValueError as exc:
        raise NewTalkError(str(exc)) from None
    problems = _check(text, path, slug, config)
    if problems:
        raise NewTalkError("the new talk would not build; nothing was written",
                           diagnostics=problems)
    try:
        create_new(site_dir, path, text.encode("utf-8"))
    except Refused as exc:
        raise _refused(exc) from None
    except FileExistsError:
        raise NewTalkError(f"{path} exists already; it was left as it is",
                           "choose another slug with --slug") from None
    return path


def _refused(exc: Refused) -> NewTalkError:
    return NewTalkError("nothing was written", diagnostics=[exc.diagnostic()])


def _check(text: str, path: Path, slug: str, config: Config) -> list[Diagnostic]:
    """Read the text back the way the build will; its errors, without a place."""
    fm = split(text)
    _, problems = make_talk(fm, path, slug, config)
    return [Diagnostic(None, p.message, hint=p.hint) for p in problems if p.is_error]


# Prompts -----------------------------------------------------------------------------

Ask = Callable[[str], str]


def prompt(talk: dict[str, Any], config: Config, ask: Ask,
           say: Callable[[str], None]) -> None:
    """Fill the fields missing from `talk` by asking; an empty answer keeps the default.
    Raises EOFError when the input ends."""
    def field_(key: str, question: str, parse: Callable[[str], Any] | None = None,
               default: str = "", required: bool = False) -> None:
        if talk.get(key) not in (None, ""):
            return
        while True:
            shown = f" [{default}]" if default else ""
            answer = ask(f"{question}{shown}: ").strip() or default
            if not answer:
                if required:
                    say("  a value is needed")
                    continue
                return
            try:
                talk[key] = parse(answer) if parse else answer
                return
            except ValueError as exc:
                say(f"  {exc}")

    field_("title", "Title", required=True)
    field_("start", "Date (local time at the venue, such as 2019-05-22T14:50)", parse_start,
           default=date.today().isoformat())
    field_("end", "End (a time such as 15:25, or a date; optional)", parse_end)
    field_("timezone", "Time zone (an IANA name such as Europe/Madrid)", parse_zone,
           default=config.timezone)
    field_("event", "Event (optional)")
    field_("location", "Location (optional)")


def interactive() -> bool:
    """Prompts only when a person is at a terminal, never in scripts or CI."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty() and not os.environ.get("CI")
    except (AttributeError, ValueError):
        return False
