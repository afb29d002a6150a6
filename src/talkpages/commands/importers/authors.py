"""Hugo Academic / Wowchemy / Hugo Blox author profiles -> `speakers.toml`.

Those themes keep a profile per person in `content/authors/<id>/_index.md` (on a site
of several languages, in a language's folder: `content/en/authors/<id>/_index.md`, or
the folder its `contentDir` names; the default language's profile wins) and talks
name people by that id (`authors: [admin]`), or by a name whose slug is the id
(`Jane Doe` for `jane-doe/`). Each person the imported talks name gets a table in
`speakers.toml`, keyed by what the talks write, so the talk files keep their `authors`
as they were and the pages show the name:

- `title` (or the older `name`) -> `name`;
- the body, the profile's biography, -> `bio` (else the short `bio` field);
- `role` and the names of `organizations` -> `affiliation` ("Professor, Example U");
- `social` (`link`) and `profiles` (`url`) -> `links`, named after their icon;
  links that are not http(s) or mailto (`#contact`, `/media/cv.pdf`) are left out,
  with a remark; a `website`, or a social link with a globe/home icon, -> `url`.

- the photo beside the profile (`avatar.jpg`, `.png`, `.webp`) is copied to
  `speakers/<slug of the id>.<ext>` and becomes `photo` (never over another file, and
  never through a link: safefile.py).

An existing `speakers.toml` is never changed: the report names the people it lacks.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...content.links import on_the_way, read, real
from ...content.model import slugify
from ...content.speakers import PHOTO_SUFFIXES, SPEAKERS_NAME, load_speakers, parse_speakers
from ...diagnostics import Diagnostic
from ..safefile import Refused, create_new, create_or_match, read_existing
from ..scaffold import toml
from .sources import read_source

PROFILE_NAMES = ("_index.md", "index.md", "_index.markdown", "index.markdown")
ICONS = {"github": "GitHub", "gitlab": "GitLab", "twitter": "Twitter", "x-twitter": "X",
         "linkedin": "LinkedIn", "mastodon": "Mastodon", "envelope": "E-mail",
         "google-scholar": "Google Scholar", "orcid": "ORCID", "youtube": "YouTube",
         "researchgate": "ResearchGate", "bluesky": "Bluesky", "stack-overflow":
         "Stack Overflow", "cv": "CV", "ai": "Google Scholar"}
HOME_ICONS = ("globe", "home", "house", "link", "website")
MAX_PHOTO = 32 * 1024 * 1024


def find_profiles(contents: Iterable[Path]) -> dict[str, Path]:
    """The profile file of each author id under `<content>/authors/`, the first of
    `contents` that has one winning."""
    profiles: dict[str, Path] = {}
    for content in contents:
        folder = content / "authors"
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if entry.is_dir() and not entry.name.startswith(".") and entry.name not in profiles:
                found = next((entry / n for n in PROFILE_NAMES if (entry / n).is_file()),
                             None)
                if found is not None:
                    profiles[entry.name] = found
    return profiles


def speaker_table(path: Path, problems: list[Diagnostic]) -> dict[str, Any] | None:
    """One speakers.toml table from a profile file (None if it cannot be read)."""
    read = read_source(path)
    if isinstance(read, list):
        problems += [Diagnostic(p.path, f"author profile not carried over: {p.message}",
                                p.line, p.column, severity="warning") for p in read]
        return None
    data = {str(k).lower(): v for k, v in read[1].data.items()}
    table: dict[str, Any] = {}
    name = _text(data.get("title")) or _text(data.get("name"))
    if name:
        table["name"] = name
    bio = read[1].body.strip() or _text(data.get("bio"))
    if bio:
        table["bio"] = bio
    organizations = data.get("organizations")
    names = [_text(o.get("name")) for o in organizations if isinstance(o, dict)] \
        if isinstance(organizations, list) else []
    affiliation = ", ".join(p for p in [_text(data.get("role")), *names] if p)
    if affiliation:
        table["affiliation"] = affiliation
    url = _text(data.get("website"))
    links, dropped = [], []
    for entry in _list(data.get("social")) + _list(data.get("profiles")):
        icon = _text(entry.get("icon")).lower()
        link = _text(entry.get("link")) or _text(entry.get("url"))
        if not link:
            continue
        if not link.startswith(("https://", "http://", "mailto:")):
            dropped.append(link)
        elif icon in HOME_ICONS and not url:
            url = link
        else:
            label = _text(entry.get("label")) or ICONS.get(icon) or icon.title() or link
            links.append({"name": label, "url": link})
    if url.startswith(("https://", "http://")):
        table["url"] = url
    if links:
        table["links"] = links
    if dropped:
        problems.append(Diagnostic(
            path, "links of the profile left out of speakers.toml (not http(s) or mailto): "
            + ", ".join(dropped), severity="warning",
            hint="give their full address in speakers.toml"))
    return table


def import_speakers(contents: list[Path], root: Path, named: Iterable[str], site_dir: Path,
                    problems: list[Diagnostic]) -> dict[str, str]:
    """Write `speakers.toml` for the people the talks name (`named`) who have a
    profile in one of the content folders `contents`; returns what each of them is
    called now (id -> name). Nothing is read through a link out of `root`."""
    profiles = find_profiles(contents)
    if not profiles:
        return {}
    by_slug = {slugify(key): path for key, path in profiles.items()}
    tables: dict[str, dict[str, Any]] = {}
    for key in sorted(set(named)):
        path = profiles.get(key) or by_slug.get(slugify(key))
        outside = on_the_way(path, root, real(root)) if path is not None else None
        if outside is not None:
            problems.append(replace(outside, severity="warning", message="author profile "
                                    f"not carried over: {outside.message}"))
        elif path is not None:
            table = speaker_table(path, problems)
            if table:
                tables[key] = table
    if not tables:
        return {}
    target = site_dir / SPEAKERS_NAME
    if not os.path.lexists(target):
        for key, table in tables.items():
            photo = _copy_avatar(profiles.get(key) or by_slug[slugify(key)], key, root,
                                 site_dir, problems)
            if photo:
                table["photo"] = photo
    _, found = parse_speakers(tables, site_dir / SPEAKERS_NAME, {})
    if found:  # what would be written must read back cleanly
        problems += found
        return {}
    text = ("# Written by `talkpages import` from the old site's author profiles\n"
            "# (authors/ of its content): keys are what talks write in `authors`.\n\n"
            + toml(tables))
    try:
        create_new(site_dir, target, text.encode("utf-8"))
    except Refused as exc:
        problems.append(exc.diagnostic())
        return {}
    except FileExistsError:
        existing, _ = load_speakers(site_dir)
        missing = sorted(set(tables) - set(existing))
        if read_existing(site_dir, target, len(text.encode())) != text.encode() and missing:
            problems.append(Diagnostic(
                target, f"left as it is: it has no entry for {', '.join(missing)}, whose "
                "profiles the old site has", severity="warning",
                hint="add them from " + ", ".join(
                    str(profiles.get(k) or by_slug[slugify(k)]) for k in missing[:3])))
            return {k: existing[k].name for k in tables if k in existing}
    except OSError as exc:
        problems.append(Diagnostic(target, f"cannot write the speakers: {exc}"))
        return {}
    return {key: table.get("name", key) for key, table in tables.items()}


def _copy_avatar(profile: Path, key: str, root: Path, site_dir: Path,
                 problems: list[Diagnostic]) -> str:
    """The avatar beside a profile, copied into the site's `speakers/`: its path there,
    or "" (none, unreadable, or a different file already there)."""
    avatar = next((entry for entry in sorted(profile.parent.iterdir())
                   if entry.stem.lower() == "avatar"
                   and entry.suffix.lower() in PHOTO_SUFFIXES), None)
    if avatar is None:
        return ""
    data, problem = read(avatar, root, MAX_PHOTO)  # never through a link out
    if data is None:
        if problem is not None:
            problems.append(Diagnostic(problem.path, f"photo not carried over: "
                                       f"{problem.message}", severity="warning"))
        return ""
    name = f"speakers/{slugify(key)}{avatar.suffix.lower()}"
    try:
        if create_or_match(site_dir, site_dir / name, data) == "differs":
            problems.append(Diagnostic(site_dir / name, "left as it is: the photo of "
                                       f"{key} was not copied over it", severity="warning"))
            return ""
    except Refused as exc:  # a link where the photo goes: nothing through it
        problems.append(exc.diagnostic())
        return ""
    except OSError as exc:
        problems.append(Diagnostic(site_dir / name, f"cannot copy the photo: {exc}",
                                   severity="warning"))
        return ""
    return name


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _list(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [{str(k).lower(): v for k, v in e.items()} for e in value if isinstance(e, dict)]
