"""What an import did, and the short migration report `talkpages import` prints: the
talks imported (counted by language, when they are in several), renamed and skipped
(with why), how times without a zone were read (and the zones widgets state), players
and widgets of the text made Markdown, bodies with raw HTML, authors that became
speakers, and the settings carried over."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Diagnostic, display_path
from ..console import plural
from .zones import ZoneNote


@dataclass(frozen=True)
class ImportOptions:
    """What `talkpages import` was asked for beyond the paths."""

    timezone: str | None = None  # --timezone: the zone of naive times
    assume_local_z: bool = False  # --assume-local-z: Z times may be local times too
    unsafe_html: bool = False  # --unsafe-html: the site's bodies may keep their HTML
    replace: bool = False  # --replace: files of an earlier import are written again
    apply_suggested_zones: bool = False  # --apply-suggested-zones: each talk gets its hint


@dataclass
class ImportReport:
    source: Path
    found: int = 0  # talk files found
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)  # imported by an earlier run
    replaced: list[Path] = field(default_factory=list)  # in `written` too: written again
    copied: int = 0  # bundle files
    failed: list[Path] = field(default_factory=list)  # not converted: see problems
    problems: list[Diagnostic] = field(default_factory=list)
    config_note: str = ""  # what became of the zone
    renamed: list[tuple[Path, str, str]] = field(default_factory=list)  # file, old, new name
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # file, why
    twins: list[tuple[Path, str]] = field(default_factory=list)  # copies of a page; why
    authors: dict[str, str] = field(default_factory=dict)  # id in talks -> speaker's name
    changes: list[tuple[Path, str]] = field(default_factory=list)  # file, what changed
    zones: list[ZoneNote] = field(default_factory=list)  # times written with no zone
    zone_origin: str = ""  # where the zone of naive times came from
    settings: dict[str, Any] = field(default_factory=dict)  # written to talkpages.toml
    settings_lacking: dict[str, Any] = field(default_factory=dict)  # not in the existing one
    html: list[tuple[Path, list[str]]] = field(default_factory=list)  # bodies with raw HTML
    embedded: list[tuple[Path, str]] = field(default_factory=list)  # players made Markdown
    stated: list[tuple[Path, str]] = field(default_factory=list)  # zones widgets state
    stated_otherwise: list[tuple[Path, str]] = field(default_factory=list)  # other times
    unsafe_html: bool = False  # the site lets it through
    languages: dict[Path, str] = field(default_factory=dict)  # talk file -> its tag ("": default)
    default_language: str = ""  # the tag of the old site's default language
    disabled: dict[str, int] = field(default_factory=dict)  # disableLanguages: files left
    languages_left: list[str] = field(default_factory=list)  # the old site's, without talks

    @property
    def ok(self) -> bool:
        return not any(p.is_error for p in self.problems)


def summary(report: ImportReport) -> list[str]:
    """The migration report: a few lines after the messages of each file."""
    lines = _languages(report)
    if report.replaced:
        lines.append(f"Replaced {plural(len(report.replaced), 'talk file')} of an earlier "
                     "import, with these options (--replace)")
    lines += _times(report)
    if report.renamed:
        lines.append(f"Renamed {plural(len(report.renamed), 'talk')} whose folder name "
                     "another talk has too (the old address is kept as an alias):")
        lines += [f"  {display_path(path)} -> {new}" for path, _, new in report.renamed]
    if report.twins:
        lines.append(f"Rendered copies and second files of a page not imported "
                     f"({len(report.twins)}):")
        lines += [f"  {display_path(path)}: {why}" for path, why in report.twins]
    if report.skipped:
        lines.append(f"Skipped {plural(len(report.skipped), 'file')}:")
        lines += [f"  {display_path(path)}: {why}" for path, why in report.skipped]
    if report.changes:
        lines.append(f"Added from the old site's conventions ({len(report.changes)}):")
        lines += [f"  {display_path(path)}: {what}" for path, what in report.changes]
    if report.embedded:
        lines.append(f"Players, maps and widgets of the talks' text, made what a site "
                     f"without unsafe_html shows ({len(report.embedded)}):")
        lines += [f"  {display_path(path)}: {what}" for path, what in report.embedded]
    lines += _html(report)
    if report.authors:
        lines.append(f"{plural(len(report.authors), 'author')} of the old site in "
                     "speakers.toml, with the name, bio and links of their profile: "
                     + ", ".join(f"{key} = {name}" if key != name else key
                                 for key, name in sorted(report.authors.items())))
    if report.settings:
        lines.append("Settings carried over into talkpages.toml: " + ", ".join(
            _setting(key, value, False) for key, value in report.settings.items()))
    if report.settings_lacking:
        lines.append("talkpages.toml exists and is left as it is; the old site's settings it "
                     "does not have: " + ", ".join(
                         _setting(key, value, True)
                         for key, value in report.settings_lacking.items()))
    return lines


def _setting(key: str, value: Any, whole: bool) -> str:
    """A setting as talkpages.toml has it; `[languages.de]` tables by their names, or
    `whole`, with what they hold, for a config to which they are to be added."""
    if key != "languages":
        return f"{key} = {_toml(value)}"
    return ", ".join(f"[languages.{tag}]" + (" (" + ", ".join(
        f"{name} = {_toml(item)}" for name, item in table.items()) + ")"
        if whole and table else "") for tag, table in value.items())


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return str(value) if isinstance(value, int) else f'"{value}"'


def _languages(report: ImportReport) -> list[str]:
    """The talks written in each language, when there are several; the old site's
    languages left out, and why."""
    lines = []
    written = [report.languages.get(path, "") for path in report.written]
    if any(written):
        counts = {tag: written.count(tag) for tag in sorted(set(written), key=str.lower)}
        lines.append("By language: " + ", ".join(
            f"{count} {tag or report.default_language}" for tag, count in counts.items())
            + " (a talk's translations share its name and slug)")
    if report.disabled:
        lines.append("Not imported, in languages the old site disables (disableLanguages): "
                     + ", ".join(f"{plural(count, 'file')} in {key}"
                                 for key, count in sorted(report.disabled.items())))
    if report.languages_left:
        lines.append("Languages of the old site without talks, not in talkpages.toml: "
                     + ", ".join(report.languages_left))
    return lines


def _html(report: ImportReport) -> list[str]:
    if not report.html:
        return []
    tags = list(dict.fromkeys(tag for _, found in report.html for tag in found))
    listed = ", ".join(tags[:6]) + (", …" if len(tags) > 6 else "")
    if report.unsafe_html:
        head = (f"Raw HTML in {plural(len(report.html), 'talk')} ({listed}): let through, "
                "as unsafe_html = true says (only while every author of a talk file is "
                "trusted)")
    else:
        head = (f"Raw HTML in {plural(len(report.html), 'talk')} ({listed}): shown as text, "
                "as the old site did not; if the site is your own, import with "
                "--unsafe-html, or write it as Markdown")
    files = [f"  {display_path(path)}" for path, _ in report.html[:10]]
    more = [f"  … and {len(report.html) - 10} more"] if len(report.html) > 10 else []
    return [head, *files, *more]


def _times(report: ImportReport) -> list[str]:
    naive = [n for n in report.zones if n.kind == "naive"]
    z_times = [n for n in report.zones if n.kind == "Z"]
    lines = []
    if naive:
        zone = naive[0].read_as
        lines.append(f"Times with no zone: {plural(len(naive), 'talk')} naive, read in "
                     f"{zone} ({report.zone_origin})")
    if z_times:
        local = [n for n in z_times if n.read_as != "UTC"]
        kept = len(z_times) - len(local)
        parts = []
        if local:
            parts.append(f"{len(local)} read as local times of {local[0].read_as} "
                         "(--assume-local-z)")
        if kept:
            parts.append(f"{kept} kept as UTC" + ("" if local else
                         ": if they are local times, import with --timezone ZONE "
                         "--assume-local-z"))
        lines.append(f"Times written with Z: {plural(len(z_times), 'talk')}; "
                     + "; ".join(parts))
    hinted = [n for n in report.zones if n.hint and not n.applied]
    if hinted:
        lines.append(f"Zones the files suggest ({len(hinted)}, not applied: add "
                     "`timezone = \"…\"` to the talk if right, or import again with "
                     "--apply-suggested-zones):")
        lines += [f"  {display_path(n.path)}: {n.hint[0]}, as {n.hint[1]}; read as "
                  f"{n.read_as}" + (" (written with Z: drop the Z too)" if n.kind == "Z"
                                    else "") for n in hinted if n.hint]
    if report.stated:
        lines.append(f"Zones the talks' add-to-calendar widgets state, applied "
                     f"({len(report.stated)}):")
        lines += [f"  {display_path(path)}: {what}" for path, what in report.stated]
    if report.stated_otherwise:
        lines.append(f"Times the talks' widgets state otherwise ({len(report.stated_otherwise)}"
                     ", the front matter's kept: correct the one that is wrong):")
        lines += [f"  {display_path(path)}: {what}" for path, what in report.stated_otherwise]
    applied = [n for n in report.zones if n.hint and n.applied]
    if applied:
        lines.append(f"Zones the files suggest, applied ({len(applied)}, "
                     "--apply-suggested-zones: each talk names its zone, Z times read as "
                     "local times of it):")
        lines += [f"  {display_path(n.path)}: {n.hint[0]}, as {n.hint[1]}"
                  for n in applied if n.hint]
    return lines
