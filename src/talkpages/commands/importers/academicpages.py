"""The academicpages Jekyll template: `_talks/*.md` with YAML front matter.

Its talks read `title`, `date` (usually a day), `venue`, `location`, `type` and a
`permalink`; some sites add `excerpt`, `slidesurl`, `paperurl` or `videourl`. They
become `event`, `summary`, `url_slides`, `url_pdf` and `url_video`; a file without a
`date` takes the day its name starts with, as Jekyll does (`2012-03-01-talk-1.md`);
a `permalink` whose last part differs from the file name becomes the `slug`, so the
talk keeps its address. `timezone` in `_config.yml` is the zone of naive times.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from datetime import date
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


def adapt(fm: FrontMatter, candidate: Candidate) -> Adapted:
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
    return Adapted(data, lines, notes)
