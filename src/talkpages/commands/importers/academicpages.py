"""The academicpages Jekyll template: `_talks/*.md` with YAML front matter.

Its talks read `title`, `date` (usually a day), `venue`, `location`, `type` and a
`permalink`; some sites add `excerpt`, `slidesurl`, `paperurl` or `videourl`. They
become `event`, `summary`, `url_slides`, `url_pdf` and `url_video`; a file without a
`date` takes the day its name starts with, as Jekyll does (`2012-03-01-talk-1.md`);
a `permalink` whose last part differs from the file name becomes the `slug`, so the
talk keeps its address. `timezone` in `_config.yml` is the zone of naive times.

Old addresses are kept as `aliases`: the talk's `permalink`, or, for a talk without
one, the address the collection's `permalink` pattern in `_config.yml` gave it
(`/:collection/:path/`, or Jekyll's default `/:collection/:path:output_ext`), so links
to the old site lead on to the talk. A pattern with a placeholder the importer cannot
fill is left alone rather than guessed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ...content import links
from ...content.frontmatter import FrontMatter, FrontMatterError, load_yaml
from ...content.loader import MAX_FILE_BYTES
from ...content.model import slugify
from ...diagnostics import Diagnostic
from .convert import Adapted, Candidate

CONTENT = {".md": 0, ".markdown": 1, ".html": 2, ".htm": 3}
RENAMES = {"venue": "event", "excerpt": "summary", "slidesurl": "url_slides",
           "paperurl": "url_pdf", "videourl": "url_video"}
_DATED = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-")
_SLUG = re.compile(r"^[\w][\w.-]*$")
_PLACEHOLDER = re.compile(r":([a-z_]{1,20})")
DEFAULT_PERMALINK = "/:collection/:path:output_ext"  # Jekyll's, for a collection's pages


def config_here(folder: Path) -> bool:
    return os.path.lexists(folder / "_config.yml")  # a pipe too: read_config names it


def content_dirs(site: Path, config: dict[str, Any]) -> list[Path]:
    """Every file of a Jekyll site is read with its `_config.yml`."""
    return [site]


def read_config(site: Path, origins: dict[str, Path] | None = None,
                ) -> tuple[dict[str, Any], list[Diagnostic]]:
    path = site / "_config.yml"
    if not os.path.lexists(path):  # anything else there is named in a warning
        return {}, []
    raw, refused = links.read(path, site, MAX_FILE_BYTES)  # not a link out, nor a pipe
    if raw is None:
        assert refused is not None
        return {}, [replace(refused, message=f"cannot read the Jekyll config: "
                            f"{refused.message}", severity="warning")]
    try:
        value = load_yaml(raw.decode("utf-8-sig"), "YAML") or {}
    except FrontMatterError as exc:  # read as talk files are: an alias bomb is refused
        return {}, [Diagnostic(path, f"cannot read the Jekyll config: {exc.message}",
                               exc.line, exc.column, severity="warning")]
    except UnicodeDecodeError as exc:
        return {}, [Diagnostic(path, f"cannot read the Jekyll config: {exc}",
                               severity="warning")]
    if not isinstance(value, dict):
        return {}, []
    if origins is not None:
        origins.update({str(k).lower(): path for k in value})
    return {str(k).lower(): v for k, v in value.items()}, []


def timezone(config: dict[str, Any]) -> str | None:
    value = config.get("timezone")
    return value.strip() if isinstance(value, str) and value.strip() else None


def find(site: Path) -> list[Candidate]:
    folder = site / "_talks" if (site / "_talks").is_dir() else site
    found = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith((".", "_")) or not path.is_file():
            continue
        if path.suffix.lower() in CONTENT:
            found.append(Candidate(path, path.stem, rank=(CONTENT[path.suffix.lower()],
                                                          str(path))))
    return found


def adapter(config: dict[str, Any]) -> Callable[[FrontMatter, Candidate], Adapted]:
    """`adapt`, with the collection's permalink pattern of the site's config."""
    collections = config.get("collections")

    def adapt_with_pattern(fm: FrontMatter, candidate: Candidate) -> Adapted:
        name = candidate.path.parent.name.lstrip("_") or "talks"
        entry = collections.get(name) if isinstance(collections, dict) else None
        pattern = entry.get("permalink") if isinstance(entry, dict) else None
        return adapt(fm, candidate, pattern if isinstance(pattern, str) else DEFAULT_PERMALINK)

    return adapt_with_pattern


def adapt(fm: FrontMatter, candidate: Candidate, pattern: str = DEFAULT_PERMALINK) -> Adapted:
    data: dict[str, Any] = {}
    lines: dict[str, int] = {}
    present = {k.lower() for k, v in fm.data.items() if v not in (None, "", [])}
    for key, value in fm.data.items():
        ours = RENAMES.get(key.lower())
        target = ours if ours and ours not in present else key
        data[target] = value
        line = fm.line_of(key)
        if line is not None:
            lines[target.lower()] = line
    notes = []
    if "date" not in present:
        match = _DATED.match(candidate.path.name)
        if match:
            data["date"] = date(*(int(part) for part in match.groups()))
            notes.append(f"no `date`: the talk takes the day of its file name, "
                         f"{data['date'].isoformat()}")
    permalink = fm.data.get("permalink")
    if isinstance(permalink, str) and "slug" not in present:
        parts = urlsplit(permalink.strip())
        last = parts.path.rstrip("/").rsplit("/", 1)[-1]
        if (not parts.scheme and not parts.netloc and last and _SLUG.match(last)
                and ".." not in last and slugify(last) != slugify(candidate.name)):
            data["slug"] = last
    # a page's own permalink is its address; else the collection's pattern gives it
    old = [(_address(permalink) if isinstance(permalink, str) else None)
           or _address(_expand(pattern, data, candidate))]
    aliases = data.get("aliases")
    aliases = [aliases] if isinstance(aliases, str) else aliases
    aliases = list(aliases) if isinstance(aliases, list) else []
    for address in old:
        if address and address.lower() not in (str(a).strip().lower() for a in aliases):
            aliases.append(address)
    if aliases:
        data["aliases"] = aliases
    return Adapted(data, lines, notes)


def _expand(pattern: str, data: dict[str, Any], candidate: Candidate) -> str | None:
    """The address Jekyll gave the talk by the collection's permalink `pattern`; None
    for a placeholder it would fill from what the importer does not know."""
    stem = candidate.path.stem
    dated = _DATED.match(stem)
    slug = data.get("slug") if isinstance(data.get("slug"), str) else None
    when = data.get("date")
    if isinstance(when, str):
        try:
            when = date.fromisoformat(when[:10])
        except ValueError:
            when = None
    if not isinstance(when, date) and dated:
        when = date(*(int(part) for part in dated.groups()))
    values = {"collection": candidate.path.parent.name.lstrip("_"), "path": stem,
              "name": slugify(stem), "title": slugify(slug or stem[dated.end():] if dated
                                                      else slug or stem),
              "output_ext": ".html", "slug": slugify(slug or stem)}
    if isinstance(when, (date, datetime)):
        values.update(year=f"{when.year:04d}", month=f"{when.month:02d}",
                      day=f"{when.day:02d}", i_month=str(when.month), i_day=str(when.day),
                      short_year=f"{when.year % 100:02d}")
    missing = [m for m in _PLACEHOLDER.findall(pattern) if m not in values]
    if missing or "://" in pattern:
        return None
    return _PLACEHOLDER.sub(lambda m: values[m[1]], pattern)


def _address(path: str | None) -> str | None:
    """An address of the old site as an alias: a path of the site (no host, no
    query), ending in `/` unless it names an .html file."""
    if not path:
        return None
    parts = urlsplit(path.strip())
    if parts.scheme or parts.netloc or parts.query or ".." in parts.path:
        return None
    inner = "/".join(p for p in parts.path.split("/") if p)
    if not inner:
        return None
    return f"/{inner}" if inner.lower().endswith((".html", ".htm")) else f"/{inner}/"
