"""One talk per name: which file of several with one name is imported, and new names
for talks that only share a folder name.

Files share a name for three reasons. A translation (`index.de.md`, `content/de/…`)
and a rendered copy (`index.html` beside `index.Rmd`) are the same talk: the default
language's source is imported and the others are skipped (`twins`: the report lists
them once, and says so truly when the file they are a copy of could not be imported
either). Talks in
different folders (`event/2018/joker/`, `event/2019/joker/`) are different talks that
Hugo kept apart by their folders: each gets a name of its own made of what tells
their folders apart (`joker-2018`, `joker-2019`: a year alone when one of those folders
is a year), or else the year of its date, or else a number (`joker-2`); the old address
stays reachable through the alias the importer writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from ...content import times
from ...content.model import slugify
from ...diagnostics import Diagnostic
from .convert import Candidate
from .sources import read_source

_YEAR = re.compile(r"^(1[0-9]|20)\d\d$")


@dataclass
class Choice:
    chosen: list[Candidate] = field(default_factory=list)
    renamed: list[tuple[Candidate, str]] = field(default_factory=list)  # and its old name
    twins: list[tuple[Candidate, Candidate]] = field(default_factory=list)  # and its source


def choose(candidates: list[Candidate]) -> Choice:
    """One file per talk, each with a name no other talk has."""
    groups: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        groups.setdefault(candidate.name.lower(), []).append(candidate)
    choice = Choice()
    clashes: list[list[Candidate]] = []
    for group in groups.values():
        group.sort(key=lambda c: c.rank)
        winner, others = group[0], []
        for other in group[1:]:
            if other.language != winner.language or _rendered(other, winner):
                choice.twins.append((other, winner))
            else:
                others.append(other)
        if others:
            clashes.append([winner, *others])
        else:
            choice.chosen.append(winner)
    taken = {c.name.lower() for c in choice.chosen}
    for clash in clashes:
        for candidate, name in zip(clash, _new_names(clash, taken), strict=True):
            taken.add(name.lower())
            choice.chosen.append(replace(candidate, name=name))
            choice.renamed.append((replace(candidate, name=name), candidate.name))
    choice.chosen.sort(key=lambda c: str(c.path))
    return choice


def _rendered(other: Candidate, winner: Candidate) -> bool:
    return (other.path.parent == winner.path.parent
            and other.path.stem.lower() == winner.path.stem.lower())


def _new_names(clash: list[Candidate], taken: set[str]) -> list[str]:
    """A name for each talk of `clash` (one name, different folders)."""
    places = [c.place.split("/")[:-1] for c in clash]
    shared = set.intersection(*(set(p) for p in places))
    suffixes = []
    for parts in places:
        own = [slugify(p) for p in parts if p not in shared and slugify(p)]
        years = [p for p in own if _YEAR.match(p)]
        suffixes.append(years[-1] if years else "-".join(own))
    for n, candidate in enumerate(clash):
        if not suffixes[n] or suffixes.count(suffixes[n]) > 1:
            year = _date_year(candidate)
            suffixes[n] = str(year) if year else ""
    names: list[str] = []
    for candidate, suffix in zip(clash, suffixes, strict=True):
        base = f"{candidate.name}-{suffix}" if suffix else candidate.name
        name, number = base, 2
        while name.lower() in taken or name.lower() in (n.lower() for n in names):
            name, number = f"{base}-{number}", number + 1
        names.append(name)
    return names


def _date_year(candidate: Candidate) -> int | None:
    """The year of the talk's date, as the file writes it, if it can be read."""
    read = read_source(candidate.path)
    if isinstance(read, list):
        return None
    data = {k.lower(): v for k, v in read[1].data.items()}
    value = next((data[k] for k in ("event_start", "time_start", "date")
                  if data.get(k) not in (None, "")), None)
    try:
        moment = times.parse_moment(value)
    except ValueError:
        return None
    return moment.year if isinstance(moment, date) else None


def twin(other: Candidate, winner: Candidate, imported: bool) -> tuple[str, Diagnostic | None]:
    """Why `other`, a translation or a rendered copy of `winner`, was not imported,
    for the report; and a warning when `winner` was not imported either."""
    if other.language != winner.language:
        what = f"the {other.language or 'default'}-language version of {winner.path}"
    else:
        what = f"the rendered copy of {winner.path.name}"
    if imported:
        return f"{what}, which is imported", None
    return f"{what}, which was not imported either", Diagnostic(
        other.path, f"not imported: {what}, which was not imported either (see its "
        "messages)", severity="warning", hint="fix that file and import again")
