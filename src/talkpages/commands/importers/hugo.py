"""Hugo sites (Academic, Wowchemy, Hugo Blox): `content/talk/` and `content/event/`.

Found: page bundles (`talk/x/index.md` and its files) and flat files (`talk/x.md`),
nested sections, TOML, YAML and JSON front matter, R Markdown (`index.Rmd`, whose
rendered `index.html` twin is skipped), and languages, both as folders (`content/de/…`,
or `contentDir` in the config) and as file names (`index.de.md`): every language's
talks are imported, each version of a talk under one name (names.py, translations.py).

Field names are normalised as the loader reads them: `event_start`/`time_start` ->
`date` (the old `date`, the page's date, is kept as `page_date`), `event_end`/
`time_end` -> `date_end`, `event_all_day` -> `all_day`, `event_name` -> `event`,
`url_custom` -> `links`. The config's `timeZone` is the zone naive times were read in.

PATH may also be a folder of talk files itself, such as `content/talk/`.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...content import links
from ...content.frontmatter import FrontMatter, FrontMatterError, load_yaml, parse_toml
from ...content.loader import MAX_FILE_BYTES
from ...diagnostics import Diagnostic
from .convert import Adapted, Candidate
from .languages import declared, is_language, site_languages

SECTIONS = ("talk", "talks", "event", "events")
CONTENT = {".md": 0, ".markdown": 1, ".rmd": 2, ".rmarkdown": 3, ".html": 4, ".htm": 5}
CONFIG_NAMES = ("hugo", "config")
CONFIG_SUFFIXES = (".toml", ".yaml", ".yml", ".json")

# Groups of names for one field, in the loader's order of precedence.
ALIASES = (("date", ("event_start", "time_start", "date")),
           ("date_end", ("event_end", "time_end", "date_end")),
           ("all_day", ("all_day", "event_all_day")),
           ("event", ("event", "event_name")))


def config_here(folder: Path) -> bool:
    """`folder` holds a Hugo configuration: hugo.*, config.* or config/_default/."""
    return (any(os.path.lexists(folder / f"{name}{suffix}")  # a pipe too: named later
                for name in CONFIG_NAMES for suffix in CONFIG_SUFFIXES)
            or (folder / "config" / "_default").is_dir())


def content_dirs(site: Path, config: dict[str, Any]) -> list[Path]:
    """The folders whose talk files the config of `site` applies to: its content
    folder and those of its languages."""
    folders = [site / str(config.get("contentdir") or "content")]
    languages = config.get("languages")
    for settings in languages.values() if isinstance(languages, dict) else ():
        if isinstance(settings, dict):
            folder = settings.get("contentDir") or settings.get("contentdir")
            if isinstance(folder, str) and folder:
                folders.append(site / folder)
    return folders


def profile_dirs(site: Path, config: dict[str, Any]) -> list[Path]:
    """The content folders whose `authors/` may hold the profiles of the talks' people,
    the default language's first: its `contentDir` (`content/en`), the content folder,
    its language folders (`content/en/`), then the other languages' folders."""
    default = str(config.get("defaultcontentlanguage") or "en").lower()
    content = site / str(config.get("contentdir") or "content")
    languages = declared(config)
    folders: list[tuple[int, Path]] = [(1, content)]
    table = config.get("languages")
    for name, settings in table.items() if isinstance(table, dict) else ():
        folder = (settings.get("contentDir") or settings.get("contentdir")
                  if isinstance(settings, dict) else None)
        if isinstance(folder, str) and folder.strip():
            folders.append((0 if str(name).lower() == default else 3, site / folder.strip()))
    if content.is_dir():
        for child in sorted(content.iterdir()):
            if child.is_dir() and is_language(child.name, languages) \
                    and child.name.lower() not in SECTIONS:
                folders.append((2 if child.name.lower() == default else 3, child))
    ordered: list[Path] = []
    for _, folder in sorted(folders, key=lambda pair: pair[0]):
        if folder not in ordered:
            ordered.append(folder)
    return ordered


def read_config(site: Path, origins: dict[str, Path] | None = None,
                ) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Hugo's configuration, keys lower-cased at the top: hugo.* or config.* at the
    root, and config/_default/*.* (a file's name is its key, but config.* and hugo.*).
    `origins`, when given, learns the file each top-level key came from, so that the
    report can say where the zone was found."""
    data: dict[str, Any] = {}
    problems: list[Diagnostic] = []
    files = [site / f"{name}{suffix}" for name in CONFIG_NAMES for suffix in CONFIG_SUFFIXES]
    root = next((f for f in files if os.path.lexists(f)), None)  # a pipe is named too
    parts = [root] if root else []
    default = site / "config" / "_default"
    if default.is_dir():
        parts += sorted(p for p in default.iterdir() if p.suffix in CONFIG_SUFFIXES)
    for path in parts:
        raw, refused = links.read(path, site, MAX_FILE_BYTES)
        if raw is None:
            assert refused is not None
            problems.append(replace(refused, message=f"cannot read the Hugo config: "
                                    f"{refused.message}", severity="warning"))
            continue
        try:
            text = raw.decode("utf-8-sig")
            if path.suffix == ".toml":
                value: Any = parse_toml(text)
            elif path.suffix == ".json":
                value = json.loads(text)
            else:  # read as talk files are: an alias bomb is refused here too
                value = load_yaml(text, "YAML") or {}
        except FrontMatterError as exc:
            problems.append(Diagnostic(
                path, f"cannot read the Hugo config: {exc.message.replace(' front matter', '')}",
                exc.line, exc.column, severity="warning"))
            continue
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            problems.append(Diagnostic(path, f"cannot read the Hugo config: {exc}",
                                       severity="warning"))
            continue
        if not isinstance(value, dict):
            continue
        if path.parent == site or path.stem in CONFIG_NAMES:
            data.update({str(k).lower(): v for k, v in value.items()})
            if origins is not None:
                origins.update({str(k).lower(): path for k in value})
        else:
            data[path.stem.lower()] = value
    return data, problems


def timezone(config: dict[str, Any]) -> str | None:
    value = config.get("timezone")
    return value.strip() if isinstance(value, str) and value.strip() else None


def find(site: Path, config: dict[str, Any]) -> list[Candidate]:
    """Every talk file of the site, with a rank among files of the same name."""
    default_language = str(config.get("defaultcontentlanguage") or "en").lower()
    languages = declared(config)
    tables = site_languages(config).tables
    roots = _section_roots(site, config, languages)
    if not roots:  # a folder of talk files
        roots = [(site, None, 0)]
    found: list[Candidate] = []
    for folder, language, order in roots:
        for candidate in _walk(folder, language, languages):
            language = candidate.language or default_language
            weight = tables.get(language, {}).get("weight", 0)  # the languages' order
            rank = (language != default_language, weight, language, order,
                    CONTENT[candidate.path.suffix.lower()], len(candidate.path.parts),
                    str(candidate.path))
            found.append(Candidate(candidate.path, candidate.name, candidate.bundle,
                                   candidate.language, rank, _place(folder, candidate)))
    return found


def _section_roots(site: Path, config: dict[str, Any], languages: frozenset[str] | None,
                   ) -> list[tuple[Path, str | None, int]]:
    content = site / str(config.get("contentdir") or "content")
    # PATH is the site, or its content folder itself
    bases: list[tuple[Path, str | None]] = [(content, None) if content.is_dir() else (site, None)]
    languages = config.get("languages")
    if isinstance(languages, dict):
        for name, settings in languages.items():
            folder = settings.get("contentDir") or settings.get("contentdir") \
                if isinstance(settings, dict) else None
            if folder:
                bases.append((site / str(folder), str(name).lower()))
    root = bases[0][0]
    if root.is_dir():
        for child in sorted(root.iterdir()):
            if (child.is_dir() and is_language(child.name, languages)
                    and child.name.lower() not in SECTIONS):
                bases.append((child, child.name.lower()))
    roots: list[tuple[Path, str | None, int]] = []
    seen: set[Path] = set()
    for base, language in bases:
        for order, section in enumerate(SECTIONS):
            folder = base / section
            if folder.is_dir() and folder.resolve() not in seen:
                seen.add(folder.resolve())
                roots.append((folder, language, order))
    return roots


def _place(section: Path, candidate: Candidate) -> str:
    """The talk's address in its language on the old site, as Hugo makes it: the
    section, the folders below it and the bundle's or file's name (`event/2019/joker`).
    Another language's pages were under its folder (`/de/talk/x/`), as they are on the
    new site, whose aliases of a language are read in its folder too."""
    inner = (candidate.bundle or candidate.path.parent / candidate.name).relative_to(section)
    return "/".join([section.name, *inner.parts])


def split_language(stem: str, languages: frozenset[str] | None = None,
                   ) -> tuple[str, str | None]:
    """`index.de` -> (`index`, `de`); `intro.iot` stays whole (languages.py)."""
    name, dot, suffix = stem.rpartition(".")
    if dot and name and is_language(suffix, languages):
        return name, suffix.lower()
    return stem, None


def _walk(folder: Path, language: str | None, languages: frozenset[str] | None,
          ) -> list[Candidate]:
    found: list[Candidate] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return found
    for entry in entries:
        if entry.name.startswith((".", "_")):
            continue  # hidden files, editor locks, section pages (_index.md)
        if entry.is_dir():
            indexes = [p for p in sorted(entry.iterdir()) if p.is_file()
                       and p.suffix.lower() in CONTENT
                       and split_language(p.stem, languages)[0].lower() == "index"]
            if indexes:
                for index in indexes:
                    own = split_language(index.stem, languages)[1]
                    found.append(Candidate(index, entry.name, entry, own or language))
            else:
                found += _walk(entry, language, languages)
        elif entry.suffix.lower() in CONTENT and entry.is_file():
            stem, own = split_language(entry.stem, languages)
            found.append(Candidate(entry, stem, None, own or language))
    return found


def adapt(fm: FrontMatter, candidate: Candidate) -> Adapted:
    """Hugo's field names -> ours, keeping the source line of each key."""
    data = fm.data
    lower = {k.lower(): k for k in data}
    out: dict[str, Any] = {}
    lines: dict[str, int] = {}
    placed: set[str] = set()
    chosen: dict[str, str] = {}  # our name -> the source key that gives its value
    for ours, names in ALIASES:
        present = [lower[n] for n in names if n in lower]
        filled = [k for k in present if data[k] not in (None, "", [])]
        if present:
            chosen[ours] = (filled or present)[0]
    for key, value in data.items():
        name = key.lower()
        group = next((ours for ours, names in ALIASES if name in names), None)
        if group is not None:
            if chosen.get(group) == key and group not in placed:
                out[group] = value
                placed.add(group)
                _line(fm, key, group, lines)
            elif name == "date" and data[key] not in (None, ""):
                out["page_date"] = value  # the page's date; the talk's is event_start
                _line(fm, key, "page_date", lines)
            continue
        if name in ("links", "url_custom"):
            if "links" not in placed:
                out["links"] = _links(data, lower)
                placed.add("links")
                _line(fm, lower.get("links", key), "links", lines)
            continue
        out[key] = value
        _line(fm, key, name, lines)
    _alias(out, candidate)
    for key, line in fm.key_lines.items():  # nested keys (image.caption) keep their lines
        if "." in key:
            head, rest = key.split(".", 1)
            for ours, names in ALIASES:
                if head in names and chosen.get(ours, "").lower() == head:
                    head = ours
            lines.setdefault(f"{head}.{rest}", line)
    return Adapted(out, lines)


def _alias(out: dict[str, Any], candidate: Candidate) -> None:
    """The talk's address on the old site joins its `aliases`, so that the built site
    sends visitors of the old address on: `url` if the page set one, else the section
    and folders with the page's `slug` or name (`/event/2019/joker/`)."""
    if not candidate.place:
        return
    lower = {k.lower(): k for k in out}
    url = out.get(lower.get("url", ""))
    if isinstance(url, str) and url.strip():
        old = "/" + url.strip().strip("/") + "/"
    else:
        slug = out.get(lower.get("slug", ""))
        parts = candidate.place.split("/")
        if isinstance(slug, str) and slug.strip():
            parts[-1] = slug.strip()
        old = "/" + "/".join(parts) + "/"
    key = lower.get("aliases", "aliases")
    aliases = out.get(key)
    if isinstance(aliases, str):
        aliases = [aliases]
    if not isinstance(aliases, list):
        aliases = []
    if old.lower() not in (str(a).strip().lower() for a in aliases):
        out[key] = [*aliases, old]


def bundle_pdf(candidate: Candidate, adapted: Adapted, files: tuple[str, ...]) -> list[str]:
    """Wowchemy shows a PDF button for a bundle's `<folder>.pdf`: it becomes `url_pdf`
    (or `url_slides` when the page has a `url_pdf` of its own already)."""
    if candidate.bundle is None:
        return []
    wanted = f"{candidate.bundle.name}.pdf".lower()
    pdf = next((name for name in files if name.lower() == wanted), None)
    if pdf is None:
        return []
    data = adapted.data
    present = {k.lower(): v for k, v in data.items() if v not in (None, "", [])}
    if any(str(v).strip().lstrip("./") == pdf for k, v in present.items()
           if k.startswith("url_")):
        return []
    key = next((k for k in ("url_pdf", "url_slides") if k not in present), None)
    if key is None:
        return []
    data.pop(next((k for k in data if k.lower() == key), key), None)
    data[key] = pdf
    adapted.changes.append(f"{key} = {pdf!r}, the PDF the old site showed a button for")
    return []


def not_a_talk(fm: FrontMatter) -> str | None:
    """Why a page of a talk section is no talk: a headless page, or a widget page of
    Wowchemy (the section's landing page made of widgets)."""
    data = {k.lower(): v for k, v in fm.data.items()}
    if data.get("headless") is True or str(data.get("headless")).lower() == "true":
        return "a headless page (`headless: true`): the old site published no page for it"
    if str(data.get("type") or "").strip().lower() == "widget_page":
        return "a widget page (`type: widget_page`), which lays out a section, not a talk"
    return None


def _line(fm: FrontMatter, source_key: str, key: str, lines: dict[str, int]) -> None:
    line = fm.line_of(source_key)
    if line is not None:
        lines[key.lower()] = line


def _links(data: dict[str, Any], lower: dict[str, str]) -> Any:
    """`links` then `url_custom`, as the loader reads them, in one list."""
    values = [data[lower[k]] for k in ("links", "url_custom")
              if k in lower and data[lower[k]] not in (None, "", [])]
    if len(values) == 2 and all(isinstance(v, list) for v in values):
        return values[0] + values[1]
    return values[0] if values else []
