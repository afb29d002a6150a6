"""The site configuration, `talkpages.toml`: typed, with a default for every key.

Each option is one entry of `OPTIONS`: a default and a small validator that returns
the clean value or raises `ValueError` with what would be right. The file is
optional; a site of nothing but `talks/` builds with the defaults.
"""

from __future__ import annotations

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
from .links import read_settings
from .siteimages import SiteImage, site_image, site_image_path

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
    embed_videos: bool = False
    embed_slides: bool = False
    paginate: int = 50
    social_cards: str = "upcoming"  # "all", "upcoming" or "none": output/social.py
    accent_color: str = ""  # "#rrggbb"; "": the theme's own (colours.py)
    logo: SiteImage | None = None  # a file of the site, checked and measured (siteimages.py)
    favicon: SiteImage | None = None
    params: dict[str, Any] = field(default_factory=dict)

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


def _social_cards(value: Any) -> str:
    if value not in SOCIAL_CARDS:
        raise ValueError(f"expected one of {', '.join(repr(v) for v in SOCIAL_CARDS)}")
    return str(value)


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


class _Invalid(ValueError):
    def __init__(self, message: str, hint: str | None = None) -> None:  # hint: the value meant
        super().__init__(message)
        self.hint = hint


MAX_LANGUAGE = 100
_SUBTAG = re.compile(r"[a-z0-9]{1,8}")
_VARIANT = re.compile(r"[a-z0-9]{5,8}|[0-9][a-z0-9]{3}")


def _language(value: Any) -> str:
    """A BCP 47 language tag (RFC 5646) as browsers read it (UTS #35: no extended language
    subtag like `zh-yue`, no private use alone, no irregular `i-klingon`): the pages'
    `lang`, and the locale site.js gives `Intl`, which throws on every page for `en_US`."""
    text = _text(value).strip()
    if (why := _language_problem(text)) is None:
        return text
    better, shown = _language_suggestion(text), text if len(text) <= 40 else text[:40] + "…"
    raise _Invalid(f"{shown!r} is not a BCP 47 language tag" + (f": {why}" if why else ""),
                   f"did you mean {better!r}?" if better else
                   "a tag such as \"en\", \"en-US\", \"pt-BR\" or \"zh-Hant-TW\"")


def _language_problem(tag: str) -> str | None:
    """None for a tag browsers read; else why not ("": the syntax says it all). Read
    subtag by subtag: language[-script][-region][-variant]*[-extension]*[-x-private]."""
    if len(tag) > MAX_LANGUAGE:
        return f"it is longer than {MAX_LANGUAGE} characters"
    tags = tag.lower().split("-")
    if not tag.isascii() or not all(_SUBTAG.fullmatch(t) for t in tags) \
            or not tags[0].isalpha() or len(tags[0]) in (1, 4):
        return ""
    tags.append("")  # the end, which no subtag matches
    if len(tags[1]) == 3 and tags[1].isalpha():
        return (f"{tags[1]!r} after {tags[0]!r} is an extended language subtag, which "
                "browsers do not read")
    at = 2 if len(tags[1]) == 4 and tags[1].isalpha() else 1  # a script
    if len(tags[at]) == 2 and tags[at].isalpha() or len(tags[at]) == 3 and tags[at].isdigit():
        at += 1  # a region
    seen: set[str] = set()  # variants, then the singletons of extensions
    while _VARIANT.fullmatch(tags[at]) or len(tags[at]) == 1 and tags[at] != "x":
        end = at + 1
        while len(tags[at]) == 1 and len(tags[end]) > 1:
            end += 1
        if tags[at] in seen:
            return f"{tags[at]!r} is given twice"
        seen.add(tags[at])
        if len(tags[at]) == 1 and (end == at + 1 or not _extension_fits(tags[at],
                                                                       tags[at + 1:end])):
            return ""
        at = end
    if tags[at] == "x" and tags[at + 1]:
        at = len(tags) - 1  # private use: any subtags
    return None if at == len(tags) - 1 else ""


def _extension_fits(singleton: str, tags: list[str]) -> bool:
    """`u` (attributes, then keys of two characters, the second a letter, with values) and
    `t` (a language, then fields: a letter and a digit, and values) as UTS #35 has them."""
    if singleton == "u":
        return all(len(t) > 2 or t[1].isalpha() for t in tags)
    at = 0
    if singleton == "t" and tags[0].isalpha():  # its language, up to the first field
        while at < len(tags) and not (len(tags[at]) == 2 and tags[at][1].isdigit()):
            at += 1
        if _language_problem("-".join(tags[:at])) is not None:
            return False
    while singleton == "t" and at < len(tags):
        if not (len(tags[at]) == 2 and tags[at][0].isalpha() and tags[at][1].isdigit()):
            return False
        end = at + 1
        while end < len(tags) and len(tags[end]) > 2:
            end += 1
        if end == at + 1:
            return False
        at = end
    return True


def _language_suggestion(text: str) -> str | None:
    """`en_US` -> `en-US`, `EN-us.UTF-8` (a POSIX locale) -> `en-US`, `zh-yue` -> `yue`,
    in the usual case, when that gives a tag browsers read."""
    parts = re.sub(r"[.@].*", "", text[:MAX_LANGUAGE]).replace("_", "-").split("-")
    if len(parts) > 1 and len(parts[0]) in (2, 3) and len(parts[1]) == 3 and \
            (parts[0] + parts[1]).isalpha():
        parts = parts[1:]  # an extended language subtag is the language itself
    if _language_problem("-".join(parts)) is not None:
        return None
    cased = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 1 or len(cased) > 2:
            cased += [p.lower() for p in parts[len(cased):]]
            break
        cased.append(part.title() if len(cased) == 1 and len(part) == 4 and part.isalpha()
                     else part.upper() if len(part) == 2 else part.lower())  # script, region
    return "-".join(cased) if "-".join(cased) != text else None


def _table(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"expected a table, got {_kind(value)}")
    return value


OPTIONS: dict[str, Callable[[Any], Any]] = {
    "title": _text,
    "base_url": _base_url,
    "timezone": _timezone,
    "language": _language,
    "description": _text,
    "author": _text,
    "calendar_name": _text,
    "default_length": _minutes,
    "unsafe_html": _bool,
    "refresh_hours": _hours,
    "calendar_color": _color,
    "calendar_organizer": _email,
    "embed_videos": _bool,
    "embed_slides": _bool,
    "paginate": _page_size,
    "social_cards": _social_cards,
    "accent_color": _accent,
    "logo": site_image_path,  # a path here; a SiteImage once load_config finds the file
    "favicon": site_image_path,
    "params": _table,
}
assert set(OPTIONS) == {f.name for f in fields(Config)}


MAX_NESTING = 64  # tables and lists inside one another: more is an error, not a site


def nesting(value: Any) -> int:
    """How deep tables and lists lie in `value` (0: neither), without recursion (TOML's
    `a.a.a…a = 1` is as deep as it is long), each once however shared (YAML's aliases)."""
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
        except ValueError as exc:
            problems.append(Diagnostic(path, f"config value {key!r}: {exc}",
                                       lines.get(key.lower()), hint=getattr(exc, "hint", None)))
    problems += _site_files(site_dir, clean, str(raw.get("accent_color", "")), path, lines)
    return Config(**clean), problems


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
