"""Turn one talk file of another site into a talk file of ours, and write it safely.

The conversion is checked, not trusted: the file is read through the model as the
importer understands it (renamed fields, the old site's zone), then the TOML we would
write is read back through the model with the new site's config, and the two talks
must agree on every field (title, times to the offset, links, …). A file that fails
either reading is reported with its own path and line and not written.

Writing never goes through a link (writing.py); a file that exists with the same bytes
counts as already imported (so an import can run twice), one that differs is left alone
and reported, or replaced when the import is asked to (`--replace`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from ...content import links, times
from ...content.config import Config
from ...content.embedcheck import raw_html
from ...content.fields import make_talk
from ...content.frontmatter import FrontMatter, split
from ...content.loader import TALKS_DIR
from ...content.model import Image, Talk, slugify
from ...diagnostics import Diagnostic
from ..scaffold import toml
from .remarks import remarks
from .sources import bundle_files, raw_body, read_source
from .writing import write_talk

DATE_KEYS = frozenset({"date", "date_end", "publishdate", "lastmod", "expirydate", "page_date"})


@dataclass(frozen=True)
class Candidate:
    """A file the importer found."""

    path: Path
    name: str  # becomes talks/<name>.md, or talks/<name>/index.md with a bundle
    bundle: Path | None = None  # the folder whose other files go with it
    language: str | None = None  # the old site's name of its language, if it has one
    rank: tuple[Any, ...] = ()  # among files with the same name, the lowest wins
    place: str = ""  # its address in its language on the old site: "event/2019/joker"
    tag: str = ""  # its language, when not the site's default: talks/<name>.<tag>.md

    @property
    def target(self) -> Path:
        ending = f".{self.tag}.md" if self.tag else ".md"
        return Path(TALKS_DIR) / self.name / f"index{ending}" if self.bundle else \
            Path(TALKS_DIR) / f"{self.name}{ending}"


@dataclass
class Adapted:
    """Front matter in our names, with the source line of each key."""

    data: dict[str, Any]
    lines: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # remarks for the report
    changes: list[str] = field(default_factory=list)  # what the importer changed, for it
    # rewrites of the body, each line by line (a line ending stays as it was)
    rewrites: list[Callable[[str], str]] = field(default_factory=list)
    extra_files: dict[str, bytes] = field(default_factory=dict)  # for its folder: name, bytes


Adapter = Callable[[FrontMatter, Candidate], Adapted]
# The importer's own changes to a talk, made once its fields are known to be read as the
# old site read them: the bundle's PDF as `url_pdf`, a zone for its times (returns
# remarks for the report, changes `Adapted.data` in place).
Adjuster = Callable[[Candidate, Adapted, tuple[str, ...]], list[str]]


@dataclass(frozen=True)
class Renamed(FrontMatter):
    """Front matter in our names whose keys keep the lines they had in the source."""

    lines: Mapping[str, int] = field(default_factory=dict)

    @property
    def key_lines(self) -> dict[str, int]:  # type: ignore[override]
        return dict(self.lines)


@dataclass
class Outcome:
    written: Path | None = None
    unchanged: Path | None = None
    replaced: bool = False  # `written` stood there before, from an earlier import
    copied: int = 0
    problems: list[Diagnostic] = field(default_factory=list)
    zoned: bool = False  # its times were read in the old site's zone: naive, timed
    authors: tuple[str, ...] = ()  # as the talk names them
    changes: list[str] = field(default_factory=list)  # what the importer changed
    html: list[str] = field(default_factory=list)  # raw HTML elements of its text
    skipped: str | None = None  # why the file is no talk, and was left out
    slug: str = ""  # of the talk imported (written, or there already)

    @property
    def failed(self) -> bool:
        return any(p.is_error for p in self.problems)


class Converter:
    """Converts files of one source site into one talkpages site."""

    def __init__(self, site_dir: Path, adapt: Adapter, source_config: Config,
                 target_config: Config, *, source: Path, direct: bool,
                 static_dir: Path | None = None,
                 taken: Mapping[tuple[str, str], Path] | None = None,
                 adjusters: Iterable[Adjuster] = (),
                 skip: Callable[[FrontMatter], str | None] | None = None,
                 replace: bool = False) -> None:
        self.site_dir = site_dir
        self.source = source  # the site imported from: links are followed inside it
        self.root = links.real(self.source)
        self.adapt = adapt
        self.source_config = source_config
        self.target_config = target_config
        self.direct = direct  # the loader reads these files as they are (Hugo's)
        self.static_dir = static_dir
        self.taken = dict(taken or {})  # (slug, tag) -> the file that has it
        self.adjusters = tuple(adjusters)
        self.skip = skip  # why a file is no talk (a Hugo widget page), if it is not
        self.replace = replace  # a file of an earlier import that differs is replaced

    def convert(self, candidate: Candidate, translation: bool = False) -> Outcome:
        """`translation`: the file is a version of a talk whose other language is
        imported first; the folder's files are that version's, and stay so."""
        outcome = Outcome()
        outside = links.on_the_way(candidate.path, self.source, self.root)
        if outside is not None:
            outcome.problems.append(outside)
            return outcome
        files = bundle_files(candidate.bundle, self.root, outcome.problems)
        if outcome.failed:
            return outcome
        read = read_source(candidate.path)
        if isinstance(read, list):
            outcome.problems += read
            return outcome
        text, fm = read
        if self.skip is not None:
            outcome.skipped = self.skip(fm)
            if outcome.skipped:
                return outcome
        slug = slugify(candidate.name)
        written_in = candidate.tag or self.target_config.language  # as its name says
        adapted = self.adapt(fm, candidate)
        values = {f.name: getattr(fm, f.name) for f in dataclasses.fields(fm)}
        source_fm = Renamed(**{**values, "data": adapted.data}, lines=adapted.lines)
        talk, problems = make_talk(source_fm, candidate.path, slug, self.source_config, files,
                                   written_in=written_in)
        dropped = _droppable(problems, fm) if talk is None else {}
        if dropped:  # broken page dates, an end before the start: imported without them
            adapted.data = {k: v for k, v in adapted.data.items() if k.lower() not in dropped}
            fm = dataclasses.replace(fm, data={k: v for k, v in fm.data.items()
                                               if k.lower() not in dropped})
            source_fm = Renamed(**{**values, "data": adapted.data}, lines=adapted.lines)
            talk, problems = make_talk(source_fm, candidate.path, slug, self.source_config,
                                       files, written_in=written_in)
            problems += list({id(d): d for d in dropped.values()}.values())
        outcome.problems += problems
        if talk is None:
            return outcome
        if self.direct:
            as_is, _ = make_talk(fm, candidate.path, slug, self.source_config, files,
                                 written_in=written_in)
            changed = differences(as_is, talk, skip={"aliases"}) if as_is else [
                "the whole talk"]
            if changed:
                return self._internal(outcome, candidate, changed)
        adapted.notes += [note for adjust in self.adjusters
                          for note in adjust(candidate, adapted, files)]
        body = rewritten(fm.body, adapted.rewrites)
        if self.adjusters:  # read again, with what the importer changed
            values["body"] = body
            source_fm = Renamed(**{**values, "data": adapted.data}, lines=adapted.lines)
            talk, _ = make_talk(source_fm, candidate.path, slug, self.source_config, files,
                                written_in=written_in)
            if talk is None:
                return self._internal(outcome, candidate, ["the whole talk"])
        outcome.zoned = (isinstance(talk.schedule.start, datetime) and talk.schedule.zone
                         is not None and not _own(adapted.data, "timezone"))
        document = self._document(adapted, fm, talk, text)
        if isinstance(document, Diagnostic):
            outcome.problems.append(document)
            return outcome
        target = self.site_dir / candidate.target
        converted, _ = make_talk(split(document), target, slug, self.target_config, files,
                                 written_in=written_in)
        changed = differences(talk, converted) if converted else ["the whole talk"]
        if changed:
            return self._internal(outcome, candidate, changed)
        taken = (talk.slug.lower(), candidate.tag.lower())
        owner = self.taken.get(taken)
        if owner is not None and owner.resolve() != target.resolve():
            outcome.problems.append(Diagnostic(
                candidate.path, f"not imported: the slug {talk.slug!r} belongs to {owner}"
                + (f" in {candidate.tag}" if candidate.tag else ""),
                1, 1, hint="give one of them another `slug = \"…\"`"))
            return outcome
        outcome.authors = talk.authors
        outcome.changes = adapted.changes
        outcome.html = list(dict.fromkeys(
            tag for text in (talk.abstract, talk.summary, talk.body) for tag in raw_html(text)[0]))
        outcome.problems += remarks(candidate, fm, body, adapted, files,
                                   self.target_config.unsafe_html, self.static_dir)
        self._write(candidate, target, document.encode("utf-8"), files, outcome,
                    adapted.extra_files, translation)
        if not outcome.failed:
            self.taken[taken] = target
        if outcome.written or outcome.unchanged:
            outcome.slug = talk.slug
        return outcome

    def _internal(self, outcome: Outcome, candidate: Candidate,
                  changed: list[str]) -> Outcome:
        outcome.problems.append(Diagnostic(
            candidate.path, "not imported: the converted talk would differ in "
            + ", ".join(changed), 1, 1, hint="this is a bug in talkpages import; please "
            "report it with the file"))
        return outcome

    def _document(self, adapted: Adapted, fm: FrontMatter, talk: Talk,
                  text: str) -> str | Diagnostic:
        """The new file: TOML front matter, then the body exactly as it was, but for
        what the adjusters rewrote in it (Hugo's shortcodes), its line endings kept."""
        data = {key: to_toml(key, value) for key, value in adapted.data.items()}
        data = {key: value for key, value in data.items() if value is not None}
        if (talk.schedule.zone and not _own(data, "timezone")
                and self.target_config.timezone != self.source_config.timezone):
            data = _insert_after(data, ("date_end", "date"), "timezone",
                                 self.source_config.timezone)
        try:
            head = toml(data)
        except (TypeError, ValueError) as exc:
            return Diagnostic(talk.source, f"cannot be written as TOML: {exc}", 1, 1)
        body = raw_body(text, fm.body_line)
        newline = "\r\n" if "\r\n" in text[: len(text) - len(body)] else "\n"
        return f"+++\n{head}+++\n".replace("\n", newline) + rewritten(body, adapted.rewrites)

    def _write(self, candidate: Candidate, target: Path, document: bytes,
               files: tuple[str, ...], outcome: Outcome, extra: dict[str, bytes],
               translation: bool) -> None:
        written = write_talk(self.site_dir, candidate.path, candidate.bundle, target,
                             document, files, self.replace, extra, candidate.tag,
                             shared=translation)
        outcome.problems += written.problems
        outcome.copied += written.copied
        if written.state in ("created", "replaced"):
            outcome.written = target
            outcome.replaced = written.state == "replaced"
        elif written.state == "same":
            outcome.unchanged = target


PAGE_DATES = ("publishdate", "lastmod", "expirydate")
END_KEYS = ("event_end", "time_end", "date_end")  # the names the loader reads an end by
_END_BEFORE = re.compile(r"^`date_end` \(([^)]{1,60})\) is before (?:`\w+`|the first day) "
                         r"\(([^)]{1,60})\)")


def _droppable(problems: list[Diagnostic], fm: FrontMatter) -> dict[str, Diagnostic]:
    """When the only errors of a file are in fields the old site published the talk
    without minding: the dates of its page (`publishDate`, `lastmod`), which say
    nothing of the talk, or an end before its start (Hugo shows the start alone).
    Those fields (every name of the end), each with its error turned into a warning
    that it is left out."""
    errors = [p for p in problems if p.is_error]
    found: dict[str, Diagnostic] = {}
    for problem in errors:
        key = next((k for k in PAGE_DATES if f"`{k}`" in problem.message.lower()), None)
        end = _END_BEFORE.match(problem.message)
        if end is not None:
            written = next((k for k in fm.data if k.lower() in END_KEYS
                            and fm.line_of(k) == problem.line), "date_end")
            warning = dataclasses.replace(
                problem, severity="warning", message=f"`{written}` ({end[1]}) is before the "
                f"start ({end[2]}): the talk is imported without its end, as the old site "
                "showed it", hint="give it the end it had, if you know it")
            found.update({name: warning for name in END_KEYS})
            continue
        if key is None:
            return {}
        found[key] = dataclasses.replace(
            problem, severity="warning", message=problem.message + "; the talk is imported "
            "without it", hint=problem.hint or "write the date as 2019-05-22 or "
            "2019-05-22T14:50:00 and add it again")
    return found


def rewritten(body: str, rewrites: Iterable[Callable[[str], str]]) -> str:
    for rewrite in rewrites:
        body = rewrite(body)
    return body


def _own(data: Mapping[str, Any], key: str) -> bool:
    return any(k.lower() == key and v not in (None, "") for k, v in data.items())


def _insert_after(data: dict[str, Any], anchors: Iterable[str], key: str,
                  value: Any) -> dict[str, Any]:
    keys = [k.lower() for k in data]
    position = next((keys.index(a) + 1 for a in anchors if a in keys), len(keys))
    items = list(data.items())
    items.insert(position, (key, value))
    return dict(items)


def to_toml(key: str, value: Any) -> Any:
    """A YAML or TOML value in a form tomli-w writes, meaning the same to the model.

    Dates written as text become TOML dates when the text reads as one (naive stays
    naive; an offset stays that offset); nulls, which TOML has not, are dropped (the
    model counts them as absent anyway).
    """
    if key.lower() in DATE_KEYS and isinstance(value, str):
        try:
            moment = times.parse_moment(value)
        except ValueError:
            moment = None
        if isinstance(moment, (datetime, date)) or (
                isinstance(moment, time) and moment.tzinfo is None):
            return moment
        return value
    if value is None:
        return None
    if isinstance(value, dict):
        return {str(k): v for k, v in ((k, to_toml(str(k), v)) for k, v in value.items())
                if v is not None}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [v for v in (to_toml("", item) for item in items) if v is not None]
    if isinstance(value, time) and value.tzinfo is not None:
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def differences(a: Talk, b: Talk, skip: Iterable[str] = ()) -> list[str]:
    """The fields in which two readings of a talk differ (params and the file aside)."""
    skip = {"source", "params", "modified", "bundle_files", *skip}
    return [f.name for f in dataclasses.fields(Talk) if f.name not in skip
            and _comparable(getattr(a, f.name)) != _comparable(getattr(b, f.name))]


def _comparable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, times.Schedule):
        return (_comparable(value.start), _comparable(value.end), value.all_day, value.zone)
    if isinstance(value, Image):  # its size and digest are the file's, read where it lies:
        return dataclasses.replace(value, width=0, height=0, digest="")  # copied as it is
    return value
