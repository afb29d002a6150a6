"""`speakers.toml`: optional names, bios and links of the people in `authors`.

One table per speaker, keyed by what talk files write in `authors`: a name, or an id
such as Hugo Academic's `admin`, which `name` then spells out.

    ["Klaus Ma"]
    bio = "Founder of Volcano and kube-batch."   # Markdown
    affiliation = "Huawei"
    pronouns = "he/him"
    photo = "speakers/klaus-ma.jpg"              # a file of the site
    url = "https://github.com/k82cn"
    links = [{ name = "Twitter", url = "https://twitter.com/…" }]

    [admin]
    name = "Kevin Wang"

A site without the file still gets a page per speaker, with the name as written.
Problems come back as diagnostics with their line, like the rest of the site.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic
from .characters import in_toml_file
from .fields import is_safe_url
from .frontmatter import FrontMatterError, parse_toml, toml_key_lines
from .imagefiles import ImageFile, examine
from .links import inside_path, on_the_way, read_settings, real

SPEAKERS_NAME = "speakers.toml"
KEYS = ("name", "bio", "affiliation", "pronouns", "photo", "url", "links")
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")  # what images.py resizes
PRONOUNS_LENGTH = 40


@dataclass(frozen=True)
class SpeakerLink:
    name: str
    url: str


@dataclass(frozen=True)
class Speaker:
    key: str  # as written in `authors`
    name: str
    bio: str = ""
    affiliation: str = ""
    url: str = ""
    links: tuple[SpeakerLink, ...] = ()
    pronouns: str = ""
    photo: ImageFile | None = None  # a file of the site: "speakers/klaus-ma.jpg"


def load_speakers(site_dir: Path) -> tuple[dict[str, Speaker], list[Diagnostic]]:
    """The speakers of `speakers.toml` by key; an absent file is no speakers and no problem."""
    path = site_dir / SPEAKERS_NAME
    text, problem = read_settings(path, site_dir)  # never through a link out of the site
    if text is None:
        return {}, [problem] if problem is not None else []
    try:
        raw = parse_toml(text)
    except FrontMatterError as exc:
        message = exc.message.replace("TOML front matter", "TOML")
        return {}, [Diagnostic(path, message, exc.line, exc.column, hint=exc.hint)]
    lines = toml_key_lines(text.split("\n"))
    speakers, problems = parse_speakers(raw, path, lines)
    return speakers, problems + in_toml_file(path, raw, text)


def parse_speakers(raw: dict[str, Any], path: Path, lines: dict[str, int],
                   ) -> tuple[dict[str, Speaker], list[Diagnostic]]:
    speakers: dict[str, Speaker] = {}
    problems: list[Diagnostic] = []

    def problem(key: str, message: str, hint: str | None = None,
                severity: str = "error") -> None:
        problems.append(Diagnostic(path, message, lines.get(key.lower()),
                                   severity=severity, hint=hint))  # type: ignore[arg-type]

    def url(key: str, name: str, value: Any) -> str:
        if value in (None, ""):
            return ""
        text = str(value).strip() if isinstance(value, str) else ""
        if not text or not is_safe_url(text) or not text.startswith(("http", "mailto:")):
            problem(f"{key}.{name}", f"`{name}` of {key!r} is not an http(s) or mailto link: "
                    f"{value!r}", "links must start with https://, http:// or mailto:")
            return ""
        return text

    for key, table in raw.items():
        if not isinstance(table, dict):
            problem(key, f"{key!r} must be a table of name, bio, affiliation, url, links",
                    f'write it as ["{key}"] followed by lines such as bio = "…"')
            continue
        fields = {str(k).lower(): v for k, v in table.items()}
        for unknown in sorted(set(fields) - set(KEYS)):
            close = difflib.get_close_matches(unknown, KEYS, n=1)
            problem(f"{key}.{unknown}", f"unknown speaker key {unknown!r} for {key!r}",
                    f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(KEYS)}",
                    severity="warning")
        texts = {}
        for name in ("name", "bio", "affiliation", "pronouns", "photo"):
            value = fields.get(name, "")
            if not isinstance(value, str):
                problem(f"{key}.{name}", f"`{name}` of {key!r} must be text")
                value = ""
            texts[name] = value.strip()
        if len(texts["pronouns"]) > PRONOUNS_LENGTH:
            problem(f"{key}.pronouns", f"`pronouns` of {key!r} is longer than "
                    f"{PRONOUNS_LENGTH} characters", 'write them as "she/her", "they/them"…')
            texts["pronouns"] = ""
        photo, why, warned = read_photo(path.parent, texts["photo"])
        if why is not None:
            problem(f"{key}.photo", f"`photo` of {key!r}: {why}",
                    "a path in the site folder, such as speakers/ann-lee.jpg (JPEG, "
                    "PNG or WebP)")
        for said in warned:
            problem(f"{key}.photo", f"`photo` of {key!r} ({texts['photo']!r}): {said}",
                    severity="warning")
        links = []
        entries = fields.get("links") or []
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            problem(f"{key}.links", f"`links` of {key!r} must be a list of tables with "
                    "name and url", 'links = [{ name = "GitHub", url = "https://…" }]')
            entries = []
        for entry in entries:
            entry = {str(k).lower(): v for k, v in entry.items()}
            link = url(key, "links", entry.get("url"))
            if link:
                links.append(SpeakerLink(str(entry.get("name") or link), link))
        speakers[key] = Speaker(key=key, name=texts["name"] or key.strip(), bio=texts["bio"],
                                affiliation=texts["affiliation"],
                                pronouns=texts["pronouns"], photo=photo,
                                url=url(key, "url", fields.get("url")), links=tuple(links))
    return speakers, problems


def read_photo(site_dir: Path, photo: str,
               ) -> tuple[ImageFile | None, str | None, tuple[str, ...]]:
    """The speaker's photo `photo` read through (imagefiles.examine): its facts, or why
    it cannot be one; and what Pillow warned of."""
    if not photo:
        return None, None, ()
    why = photo_problem(site_dir, photo)
    if why is not None:
        return None, why, ()
    found = examine(site_dir.joinpath(*photo.split("/")), photo)
    if found.problem:
        return None, f"{photo!r}: {found.problem}", found.warnings
    if found.facts is None:
        return None, f"{photo!r} is not an image talkpages can read", found.warnings
    return found.facts, None, found.warnings


def photo_problem(site_dir: Path, photo: str) -> str | None:
    """Why `photo` cannot be a speaker's photo, or None: it must name an image file of
    the site by a relative path, outside hidden folders and not through a link that
    leads out of the site (links.py). Its name is checked before it is looked for: a
    NUL, or a name longer than the system takes, is an error here, not a crash."""
    if "\x00" in photo or not inside_path(photo):
        return f"{photo!r} is not a relative path inside the site"
    if not photo.lower().endswith(PHOTO_SUFFIXES):
        return f"{photo!r} is not a JPEG, PNG or WebP image"
    file = site_dir.joinpath(*photo.split("/"))
    try:
        link = on_the_way(file, site_dir, real(site_dir))
        if link is not None:
            return link.message
        if not file.is_file():
            return f"there is no file {photo!r} in the site folder"
    except (OSError, ValueError) as exc:
        return f"{photo!r} cannot be looked for ({getattr(exc, 'strerror', None) or exc})"
    return None
