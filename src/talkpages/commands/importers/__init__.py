"""`talkpages import hugo|academicpages PATH`: move the talks of another site over.
(`talkpages import ics FEED.ics` reads a calendar file instead: see ics.py.)

Each source module finds the site's talk files (`find`), reads its config for the
zone naive times were written in (`read_config`, `timezone`) and renames fields
(`adapt`); convert.py does the rest the same way for both. Every language of a Hugo
site is imported, a talk's versions as its translations (translations.py). Nothing is
ever replaced: an import can run twice, and it reports every file it did not
convert, and why.

The zone: naive times keep their meaning. It is the old site's, from the config of
PATH or, when PATH is a folder inside the site (`content/talk/`), of the site above it
(`site_root`); the report says which file gave it. A new site gets a `talkpages.toml`
with that zone; when the site has a config with another zone, each imported talk that
relied on the old zone gets its own `timezone` line instead. With no config found at
all, naive times are read as UTC, and a warning says so.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from types import ModuleType
from typing import Any

from ...content.config import CONFIG_NAME, OPTIONS, Config, check_timezone, load_config
from ...content.languages import Language, file_language
from ...content.loader import TALKS_DIR, find_talk_files, load_talk
from ...diagnostics import Diagnostic, display_path
from ..console import plural
from ..safefile import Refused, check_folders
from . import academicpages, hugo
from .authors import import_speakers
from .convert import Adjuster, Converter
from .embedded import Embeds
from .hugotext import HugoText, enable_emoji
from .languages import SiteLanguages, site_languages
from .names import choose, twin
from .report import ImportOptions, ImportReport
from .settings import ORDER, carried, lacking, stated, write_new
from .translations import SharedSlug, language_settings, left_out, tagged, translation_key
from .widgetzones import WidgetZones
from .zones import ZoneReading

SOURCES: dict[str, ModuleType] = {"hugo": hugo, "academicpages": academicpages}
ANCESTORS = "the folder or the folders above it"
ZONE_KEYS = {"hugo": ("timeZone", "Hugo config"), "academicpages": ("timezone", "_config.yml")}


def import_site(kind: str, source: Path, site_dir: Path,
                options: ImportOptions | None = None) -> ImportReport:
    report = ImportReport(source=source)
    options = options or ImportOptions()
    if kind == "ics":
        from .ics import import_calendar

        return import_calendar(source, site_dir, report)  # type: ignore[no-any-return]
    module = SOURCES[kind]
    if not source.is_dir():
        report.problems.append(_not_a_folder(kind, source))
        return report
    root = site_root(module, source)
    origins: dict[str, Path] = {}
    config, found = module.read_config(root, origins) if root is not None else ({}, [])
    report.problems += found
    zone = options.timezone or _source_zone(module, config, source, report)
    origin = ("--timezone" if options.timezone else
              _zone_origin(kind, root, origins.get("timezone")))
    report.zone_origin = origin
    if options.assume_local_z and zone == "UTC":
        report.problems.append(Diagnostic(
            source, "--assume-local-z needs the zone the Z times are local times of",
            hint="give it with --timezone, such as --timezone America/Santiago"))
        return report
    target_config, write_config = _target_config(site_dir, zone, origin, report,
                                                 options.replace)
    if target_config is None:
        return report
    if write_config:
        target_config = dataclasses.replace(target_config, unsafe_html=options.unsafe_html)
    settings = carried(kind, config, origins.get("title") or root, report.problems)
    if options.unsafe_html:
        settings["unsafe_html"] = True
    candidates = module.find(source) if kind == "academicpages" else module.find(source, config)
    report.found = len(candidates)
    if not candidates:
        report.problems.append(Diagnostic(
            source, "no talk files found", hint="give the site's folder (holding content/talk/ "
            "or content/event/; _talks/ for academicpages) or a folder of talk files"))
        return report
    languages = site_languages(config) if kind == "hugo" else None
    if languages is not None:
        sorted_out = tagged(candidates, languages)
        candidates = sorted_out.kept
        report.disabled, report.skipped = sorted_out.disabled, sorted_out.untagged
        report.default_language = languages.default_tag()
    try:  # the talks there are read for their slugs: never through a link out of the site
        check_folders(site_dir, site_dir / TALKS_DIR)
    except Refused as exc:
        report.problems.append(exc.diagnostic())
        return report
    zones = ZoneReading(zone, options.assume_local_z, options.apply_suggested_zones)
    widgets = WidgetZones(zone)  # before `zones`, which leaves a talk with its own zone
    embeds = None if target_config.unsafe_html else Embeds()  # else the HTML loads as it is
    several = len({c.tag for c in candidates}) > 1  # only then is a translationKey read
    choice = choose(candidates, translation_key(source) if several else None)
    shared = SharedSlug(choice.first, report.default_language)
    adapt = academicpages.adapter(config) if kind == "academicpages" else module.adapt
    hugo_adjusters: list[Adjuster] = ([hugo.bundle_pdf, HugoText(enable_emoji(config), root)]
                                      if kind == "hugo" else [])
    converter = Converter(site_dir, adapt, Config(timezone=zone), target_config,
                          source=source, direct=kind == "hugo",
                          static_dir=_static_dir(kind, root or source),
                          taken=_existing_slugs(site_dir, target_config, {
                              c.tag for c in candidates if c.tag}),
                          adjusters=[*hugo_adjusters, shared, widgets, zones,
                                     *([embeds] if embeds else [])],
                          skip=hugo.not_a_talk if kind == "hugo" else None,
                          replace=options.replace)
    zoned = 0  # talks whose naive times were read in the old site's zone
    named: set[str] = set()  # the authors of the talks imported
    imported: set[Path] = set()
    report.renamed += [(c.path, old, c.name) for c, old in choice.renamed]
    report.changes += [(c.path, f"named {c.name!r}, as the talk whose translation its "
                        f"translationKey makes it (it was {old!r}; the old address stays "
                        "an alias)") for c, old in choice.linked]
    for candidate in choice.chosen:
        first = choice.first.get(candidate.path)
        try:
            outcome = converter.convert(candidate, translation=first is not None and bool(
                first.bundle and candidate.bundle))
        except OSError as exc:  # a read-only or full disk, an unreadable bundle file
            where = f": {exc.filename}" if exc.filename else ""
            report.problems.append(Diagnostic(
                candidate.path, f"not imported: {exc.strerror or exc}{where}"))
            report.failed.append(candidate.path)
            continue
        report.problems += outcome.problems
        report.copied += outcome.copied
        if outcome.skipped:
            report.skipped.append((candidate.path, outcome.skipped))
        if outcome.written:
            report.written.append(outcome.written)
            if outcome.replaced:
                report.replaced.append(outcome.written)
        elif outcome.unchanged:
            report.unchanged.append(outcome.unchanged)
        if outcome.failed:
            report.failed.append(candidate.path)
        zoned += outcome.zoned
        target = outcome.written or outcome.unchanged
        if target is not None:
            imported.add(candidate.path)
            report.languages[target] = candidate.tag
            if first is None:
                shared.slugs[candidate.path] = outcome.slug
            named.update(outcome.authors)
            report.changes += [(candidate.path, change) for change in outcome.changes]
            if outcome.html:
                report.html.append((candidate.path, outcome.html))
    for other, winner in choice.twins:
        why, problem = twin(other, winner, winner.path in imported)
        report.twins.append((other.path, why))
        report.problems += [problem] if problem else []
    report.unsafe_html = target_config.unsafe_html
    report.zones = [note for note in zones.notes if note.path in imported]
    report.stated = [line for line in widgets.applied if line[0] in imported]
    report.stated_otherwise = [line for line in widgets.differing if line[0] in imported]
    if embeds is not None:
        report.embedded = [line for line in embeds.lines if line[0] in imported]
        for field_name, setting in (("url_video", "embed_videos"), ("url_slides", "embed_slides")):
            if any(line[1].endswith(f"-> {field_name}") for line in report.embedded):
                settings[setting] = True  # the old site showed them in the page too
    if not zoned and not (write_config and zone != "UTC"):
        report.config_note = ""  # no time was read in a zone: nothing to say of it
    if root is None and zoned and not options.timezone:
        report.problems.append(_unknown_zone(kind, source, zoned))
    if kind == "hugo" and named:
        folders = hugo.profile_dirs(root, config) if root else [source / "content"]
        report.authors = import_speakers(folders, root or source, named, site_dir,
                                         report.problems)
    if languages is not None:
        _languages(languages, set(report.languages.values()), settings, report)
    if report.written or report.unchanged:
        _settings(site_dir, settings, zone if write_config else None, target_config, report,
                  options.replace)
    return report


def _languages(languages: SiteLanguages, used: set[str], settings: dict[str, Any],
               report: ImportReport) -> None:
    """`[languages]` into the settings, when the talks imported have several."""
    report.languages_left = left_out(languages, used)
    found = language_settings(languages, used)
    try:
        OPTIONS["languages"](found.get("languages", {}))
    except ValueError as exc:  # a table talkpages would not read: none is written
        report.problems.append(Diagnostic(report.source, f"the old site's languages are not "
                                          f"carried over: {exc}", severity="warning"))
        return
    settings.update(found)


def _not_a_folder(kind: str, source: Path) -> Diagnostic:
    if not source.exists():
        return Diagnostic(source, "the folder to import does not exist")
    where = "content/talk/" if kind == "hugo" else "_talks/"
    hint = (f"`talkpages import ics {source}` reads a calendar file"
            if source.suffix.lower() in (".ics", ".ical", ".ifb") else
            f"give the site's folder (holding {where}) or a folder of its talk files")
    return Diagnostic(source, f"the path to import is a file, not a folder: import {kind} "
                      "reads a site's folder", hint=hint)


def site_root(module: ModuleType, source: Path) -> Path | None:
    """The site whose config applies to `source`: `source` itself, or the nearest
    folder above it with a config whose content folders hold it (PATH may be
    `content/talk/`). The walk ends at a repository's root and at the home folder:
    nothing outside the site is read, and a config above that is not this site's (its
    content is elsewhere) is not taken."""
    if module.config_here(source):
        return source
    start = Path(os.path.abspath(source))
    try:
        home: Path | None = Path.home()
    except (RuntimeError, KeyError):
        home = None
    for folder in start.parents:
        if module.config_here(folder):
            config, _ = module.read_config(folder)
            inside = any(start.is_relative_to(os.path.abspath(content))
                         for content in module.content_dirs(folder, config))
            return folder if inside else None
        if (folder / ".git").exists() or folder == home:
            return None
    return None


def _zone_origin(kind: str, root: Path | None, file: Path | None) -> str:
    """Where the zone of naive times came from, for the report."""
    key, config = ZONE_KEYS[kind]
    if root is None:
        return f"no {config} in {ANCESTORS}"
    if file is None:
        return f"no {key} in the config of {display_path(root)}"
    return f"{key} in {display_path(file)}"


def _unknown_zone(kind: str, source: Path, zoned: int) -> Diagnostic:
    key, config = ZONE_KEYS[kind]
    where = "config.toml" if kind == "hugo" else "_config.yml"
    return Diagnostic(
        source, f"naive times of {plural(zoned, 'talk')} were read as UTC: no {config} in "
        f"{ANCESTORS}, so the old site's zone is unknown", severity="warning",
        hint=f"if they are local times of another zone, give the site's folder, or write "
        f"{key} = \"Europe/Berlin\" into a {where} in {source}, and import again into a "
        "new folder")


def _source_zone(module: ModuleType, config: dict[str, Any], source: Path,
                 report: ImportReport) -> str:
    zone: str | None = module.timezone(config)
    if zone is None:
        return "UTC"
    try:
        check_timezone(zone)
    except ValueError as exc:
        report.problems.append(Diagnostic(source, f"the site's time zone cannot be carried "
                                          f"over: {exc}; naive times are read as UTC",
                                          severity="warning"))
        return "UTC"
    return zone


def _target_config(site_dir: Path, zone: str, origin: str, report: ImportReport,
                   replace: bool = False) -> tuple[Config | None, bool]:
    """The config of the site imported into, and whether to write one with `zone`
    (there is none, or, with `replace`, the one there is an earlier import's); the
    report says what became of the zone and where it came from (`origin`)."""
    exists = os.path.lexists(site_dir / CONFIG_NAME)  # a link is the loader's to judge
    keys, ours = (stated(site_dir) or (set(), False)) if exists else (set(), False)
    if not exists or (replace and ours):
        report.config_note = (f"{CONFIG_NAME}: timezone = {zone!r}, the old site's zone "
                              f"({origin})" if zone != "UTC" else
                              f"Naive times are read as UTC ({origin})")
        return Config(timezone=zone), True
    config, problems = load_config(site_dir)
    if any(p.is_error for p in problems):
        report.problems += problems
        return None, False
    says = (f"{CONFIG_NAME} says timezone = {config.timezone!r}" if "timezone" in keys
            else f"{CONFIG_NAME} sets no timezone (so UTC)")
    report.config_note = (f"{says}; talks written in the old site's zone, {zone!r} "
                          f"({origin}), name it themselves" if config.timezone != zone else
                          f"Naive times are read in {zone!r} ({origin}), as {says}")
    return config, False


def _settings(site_dir: Path, settings: dict[str, Any], zone: str | None,
              existing: Config, report: ImportReport, replace: bool) -> None:
    """A new talkpages.toml with the old site's settings (`zone` given: none exists),
    or, when one exists, what it lacks named in the report."""
    if zone is not None:
        if zone != "UTC":
            settings["timezone"] = zone
        present = os.path.lexists(site_dir / CONFIG_NAME)  # an import's, to write again
        if (settings or present) and write_new(site_dir, settings, report.problems, replace):
            report.settings = {key: settings[key] for key in ORDER if key in settings}
        return
    report.settings_lacking = lacking(existing, settings)


def _static_dir(kind: str, source: Path) -> Path | None:
    folder = source / "static" if kind == "hugo" else source
    return folder if folder.is_dir() else None


def _existing_slugs(site_dir: Path, config: Config,
                    tags: set[str]) -> dict[tuple[str, str], Path]:
    """(slug, tag of its language, "" the default's) of each talk of the site, its
    files' names read with the languages of the import (`tags`) too."""
    talks = site_dir / TALKS_DIR
    if not talks.is_dir():
        return {}
    have = {lang.tag.lower() for lang in config.languages}
    config = dataclasses.replace(config, languages=(*config.languages, *(
        Language(tag) for tag in sorted(tags) if tag.lower() not in have)))
    taken = {}
    for path, slug, files in find_talk_files(talks, [], languages=tuple(
            lang.tag.lower() for lang in config.languages)):
        talk, _ = load_talk(path, slug, config, files, through_links=True)
        base, tag = file_language(path.name[:-3], config)
        taken[((talk.slug if talk else slug).lower(),
               tag.lower() if base != path.name[:-3] else "")] = path
    return taken
