"""The site configuration, `talkpages.toml`: typed, with a default for every key.

Each option is one entry of `OPTIONS`: a default and a small validator that returns
the clean value or raises `ValueError` with what would be right. The file is
optional; a site of nothing but `talks/` builds with the defaults.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..diagnostics import Diagnostic
from .characters import in_toml_file
from .colournames import NAMED_COLOURS
from .colours import AA, accent_shades, parse_colour
from .frontmatter import FrontMatterError, parse_toml, toml_key_lines
from .languages import Language, languages_table, untranslated_choice, with_default
from .languagetags import language_tag
from .links import read_settings
from .series import Series, SeriesError, series_table
from .siteimages import SiteImage, site_image, site_image_path
from .sitetexts import read_site_texts, untranslated

CONFIG_NAME = "talkpages.toml"


@dataclass(frozen=True)
class Config:
    title: str = "Talks"
    base_url: str = "http://localhost:1313/"
    timezone: str = "UTC"
    language: str = "en"
    description: str = ""
    author: str = ""
    calendar_name: str = ""
    default_length: int = 60
    unsafe_html: bool = False
    refresh_hours: int = 12
    calendar_color: str = ""
    calendar_organizer: str = ""
    cancelled_in_feeds: str = "status"  # or "title": how feeds show cancelled talks (ical.py)
    feed_window: int = 0  # months of past talks in the subscribed feeds; 0: all
    embed_videos: bool = False
    embed_slides: bool = False
    paginate: int = 50
    social_cards: str = "upcoming"  # "all", "upcoming" or "none": output/social.py
    share: bool = True  # a talk page's share row (output/share.py)
    accent_color: str = ""  # "#rrggbb"; "": the theme's own (colours.py)
    logo: SiteImage | None = None  # a file of the site, checked and measured (siteimages.py)
    favicon: SiteImage | None = None
    params: dict[str, Any] = field(default_factory=dict)
    i18n: dict[str, Any] = field(default_factory=dict)  # the site's own texts (sitetexts.py)
    languages: tuple[Language, ...] = ()  # a site in several languages: languages.py
    untranslated: str = "list"  # or "omit": a talk in the trees of languages it lacks
    default_language_in_subdir: bool = False  # the default language's tree in its folder
    series: dict[str, Series] = field(default_factory=dict)  # [series.<key>]: series.py

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or "localhost"

    @property
    def feed_name(self) -> str:
        return self.calendar_name or self.title

    def absolute_url(self, path: str) -> str:
        """`path` is relative to the site root, like `my-talk/`."""
        return self.base_url + path.lstrip("/")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {_kind(value)}")
    return value


def _base_url(value: Any) -> str:
    text = _text(value).strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("expected an absolute http(s) URL such as \"https://example.org/talks/\"")
    return text if text.endswith("/") else text + "/"


def _timezone(value: Any) -> str:
    name = _text(value)
    check_timezone(name)
    return name


def _minutes(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("expected a whole number of minutes greater than 0, such as 60")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {_kind(value)}")
    return value


def _hours(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 24 * 30:
        raise ValueError("expected a whole number of hours from 1 to 720, such as 12")
    return value


def _color(value: Any) -> str:
    name = _text(value).strip().lower()
    if name and not re.fullmatch(r"[a-z]{3,30}", name):
        raise ValueError("expected a CSS colour name such as \"steelblue\" (RFC 7986 COLOR)")
    return name


def _email(value: Any) -> str:
    address = _text(value).strip().removeprefix("mailto:")
    if address and not re.fullmatch(r"[^@\s;:,<>\"]+@[^@\s;:,<>\"]+", address):
        raise ValueError("expected an e-mail address such as \"talks@example.org\"")
    return address


def _page_size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("expected the number of talks per list page, such as 50")
    return value


SOCIAL_CARDS = ("upcoming", "all", "none")
CANCELLED_IN_FEEDS = ("status", "title")


def _social_cards(value: Any) -> str:
    if value not in SOCIAL_CARDS:
        raise ValueError(f"expected one of {', '.join(repr(v) for v in SOCIAL_CARDS)}")
    return str(value)


def _cancelled_in_feeds(value: Any) -> str:
    if value not in CANCELLED_IN_FEEDS:
        raise ValueError(f"expected one of {', '.join(repr(v) for v in CANCELLED_IN_FEEDS)}")
    return str(value)


def _months(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1200:
        raise ValueError("expected a number of months from 0 (every talk) to 1200, such as 12")
    return value


def _accent(value: Any) -> str:
    text = _text(value)
    if not text.strip():
        return ""
    colour = parse_colour(text)
    if colour is None:
        close = difflib.get_close_matches(text.strip().lower(), list(NAMED_COLOURS), n=1)
        raise ValueError(f"{text!r} is not a colour: expected \"#rrggbb\", \"#rgb\" or a "
                         "CSS colour name such as \"steelblue\""
                         + (f"; did you mean {close[0]!r}?" if close else ""))
    return colour


def _table(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table, got {_kind(value)}")
    return value


OPTIONS: dict[str, Callable[[Any], Any]] = {
    "title": _text,
    "base_url": _base_url,
    "timezone": _timezone,
    "language": language_tag,
    "description": _text,
    "author": _text,
    "calendar_name": _text,
    "default_length": _minutes,
    "unsafe_html": _bool,
    "refresh_hours": _hours,
    "calendar_color": _color,
    "calendar_organizer": _email,
    "cancelled_in_feeds": _cancelled_in_feeds,
    "feed_window": _months,
    "embed_videos": _bool,
    "embed_slides": _bool,
    "paginate": _page_size,
    "social_cards": _social_cards,
    "share": _bool,
    "accent_color": _accent,
    "logo": site_image_path,  # a path here; a SiteImage once load_config finds the file
    "favicon": site_image_path,
    "params": _table,
    "languages": languages_table,
    "untranslated": untranslated_choice,
    "default_language_in_subdir": _bool,
    "series": series_table,
}
# Every setting has its validator; `i18n` is read from the site's own files, not set here.
assert set(OPTIONS) == {f.name for f in fields(Config)} - {"i18n"}


MAX_NESTING = 64  # tables and lists inside one another: more is an error, not a site


def nesting(value: Any) -> int:
    """How deep tables and lists lie in `value` (0: neither), without recursion (TOML's
    `a.a.a…a = 1` is as deep as it is long), each once however shared (YAML's aliases)."""
    if not isinstance(value, (dict, list)):  # most values of a file: text, a date
        return 0
    heights: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, closing = stack.pop()
        if not isinstance(node, (dict, list)) or (id(node) in heights and not closing):
            continue
        kids = [k for k in (node.values() if isinstance(node, dict) else node)
                if isinstance(k, (dict, list))]
        if closing:
            heights[id(node)] = 1 + max((heights[id(k)] for k in kids), default=0)
        else:
            heights[id(node)] = MAX_NESTING + 1  # open: met again below it, a loop
            stack += [(node, True), *((k, False) for k in kids)]
    return heights.get(id(value), 0)


def check_timezone(name: str) -> None:
    """Raise ValueError naming the closest IANA names when `name` is not a zone."""
    try:
        if name and "\x00" not in name and not name.startswith(("/", ".")):
            zoneinfo.ZoneInfo(name)
            return
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        pass
    close = difflib.get_close_matches(name, sorted(zoneinfo.available_timezones()), n=3)
    suggestion = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown time zone {name!r}: expected an IANA name such as "
                     f"\"Europe/Madrid\"{suggestion}")


def load_config(site_dir: Path, overrides: dict[str, Any] | None = None,
                ) -> tuple[Config, list[Diagnostic]]:
    """Read `talkpages.toml` if there is one; problems come back as diagnostics."""
    path = site_dir / CONFIG_NAME
    raw: dict[str, Any] = {}
    lines: dict[str, int] = {}
    problems: list[Diagnostic] = []
    text, problem = read_settings(path, site_dir)  # never through a link out of the site
    if problem is not None:
        return Config(), [problem]
    if text is not None:
        try:
            raw = parse_toml(text)
        except FrontMatterError as exc:
            message = exc.message.replace("TOML front matter", "TOML")
            return Config(), [Diagnostic(path, message, exc.line, exc.column, hint=exc.hint)]
        lines = toml_key_lines(text.split("\n"))
        problems += in_toml_file(path, raw, text)
    raw.update(overrides or {})
    clean: dict[str, Any] = {}
    for key, value in raw.items():
        if overrides and key in overrides and key in OPTIONS:  # given by the command
            try:
                clean[key] = OPTIONS[key](value)
            except ValueError as exc:
                problems.append(Diagnostic(None, f"the value given for {key!r}: {exc}",
                                           hint=getattr(exc, "hint", None)))
            continue
        validator = OPTIONS.get(key)
        if nesting(value) > MAX_NESTING:
            problems.append(Diagnostic(path, f"config value {key!r}: tables or lists nest "
                                       f"more than {MAX_NESTING} deep", lines.get(key.lower())))
            continue
        if validator is None:
            close = difflib.get_close_matches(key, list(OPTIONS), n=1)
            problems.append(Diagnostic(
                path, f"unknown config key {key!r}", lines.get(key.lower()), severity="warning",
                hint=f"did you mean {close[0]!r}?" if close else
                "site-specific values belong in the [params] table"))
            continue
        try:
            clean[key] = validator(value)
        except SeriesError as exc:  # each problem at the line of its own key
            problems += [Diagnostic(path, f"config value {where!r}: {message}",
                                    _line(lines, where), hint=hint)
                         for where, message, hint in exc.problems]
        except ValueError as exc:  # at the line of the key it names, else of `key`
            problems.append(Diagnostic(path, f"config value {key!r}: {exc}",
                                       _line(lines, getattr(exc, "at", key)),
                                       hint=getattr(exc, "hint", None)))
    problems += _site_files(site_dir, clean, str(raw.get("accent_color", "")), path, lines)
    language = clean.get("language", Config.language)
    clean["i18n"], found = read_site_texts(site_dir, language)
    problems += found + untranslated(path, language, clean["i18n"], lines.get("language"))
    if clean.get("languages"):
        clean["languages"] = _languages(site_dir, with_default(clean["languages"], language),
                                        language, clean["i18n"],
                                        clean.get("series", None if "series" in raw else {}),
                                        path, lines, problems)
    return Config(**clean), problems


def _languages(site_dir: Path, languages: tuple[Language, ...], default: str,
               texts: dict[str, Any], clean_series: dict[str, Any] | None, path: Path,
               lines: dict[str, int], problems: list[Diagnostic]) -> tuple[Language, ...]:
    """Each language with the site's own texts for it (`i18n/<tag>.toml`), a warning
    for each that talkpages has no catalogue for, and an error for a series' title in
    a language that names no series of the site."""
    read = []
    for lang in languages:
        if clean_series is not None:  # None: [series] is in error itself
            problems += [Diagnostic(path, f"config value 'languages.{lang.tag}.series.{key}': "
                                    f"no [series.{key}] to translate (the series are: "
                                    f"{', '.join(sorted(clean_series)) or 'none'})",
                                    _line(lines, f"languages.{lang.tag}.series.{key}"))
                         for key in lang.series if key not in clean_series]
        if lang.tag.lower() == default.lower():
            read.append(dataclasses.replace(lang, texts=texts))
            continue
        own, found = read_site_texts(site_dir, lang.tag)
        problems += found + untranslated(path, lang.tag, own,
                                         lines.get(f"languages.{lang.tag.lower()}"))
        read.append(dataclasses.replace(lang, texts=own))
    return tuple(read)


def _line(lines: dict[str, int], key: str) -> int | None:
    """The line of `key`, or of the first table below it (`[languages.de]`)."""
    below = (line for name, line in lines.items() if name.startswith(key.lower() + "."))
    return lines.get(key.lower()) or next(below, None)


def _site_files(site_dir: Path, clean: dict[str, Any], accent: str, path: Path,
                lines: dict[str, int]) -> list[Diagnostic]:
    """The checks that need the site folder: the logo and favicon files found and
    measured, and a warning when the accent colour is too light to be used as given."""
    problems = []
    for key in ("logo", "favicon"):
        if key in clean and not clean[key]:
            clean[key] = None  # `logo = ""`: none, as without the key
        elif key in clean:
            clean[key], why = site_image(site_dir, clean[key], key)
            if why is not None:
                problems.append(Diagnostic(path, f"config value {key!r}: {why}",
                                           lines.get(key), hint=SITE_IMAGE_HINT[key]))
            for said in clean[key].warnings if clean[key] is not None else ():
                problems.append(Diagnostic(path, f"config value {key!r} ({clean[key].path!r}): "
                                           f"{said}", lines.get(key), severity="warning"))
    if clean.get("accent_color"):
        shades = accent_shades(clean["accent_color"])
        if shades.adjusted:
            problems.append(Diagnostic(
                path, f"config value 'accent_color': {_written(accent, shades.given)} has a "
                f"contrast of "
                f"{shades.given_contrast:.2f}:1 on the light pages, under the {AA}:1 text "
                f"needs; links and buttons use {shades.light}, a darker shade of it",
                lines.get("accent_color"),
                severity="warning", hint="choose a darker colour to have it used as it is"))
    return problems


def _written(text: str, colour: str) -> str:
    """A colour as written, and as read when that is another spelling."""
    text = text.strip()
    return colour if text.lower() == colour else f"{text!r} ({colour})"


SITE_IMAGE_HINT = {
    "logo": "a path in the site folder, such as \"images/logo.svg\" (SVG, PNG, JPEG or WebP)",
    "favicon": "a path in the site folder, such as \"images/icon.png\" (SVG, PNG or ICO)"}


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list",
            dict: "a table", str: "a string"}.get(type(value), type(value).__name__)
