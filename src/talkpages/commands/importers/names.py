"""One name per talk: which files are one talk in several languages, which file of
several for one page is imported, and new names for talks that only share a folder name.

A talk is a page of the old site in each of its languages. Hugo knows its versions by
their place in the language's content (`talk/x/` of `content/en/` and of `content/de/`,
or `index.md` and `index.de.md` in one folder), or by a `translationKey` their front
matter shares (`key`); each version is imported, in its language, under the talk's one
name (its default language's, else that of the language first in rank), so that they
are translations of one talk on the new site. A rendered copy (`index.html` beside
`index.Rmd`) or a second file for the same page and language (`index.en.md` beside
`index.md` on an English site) is skipped (`twins`: the report lists them once, and says
so truly when the file they are a copy of could not be imported either). Talks in
different folders (`event/2018/joker/`, `event/2019/joker/`) are different talks that
Hugo kept apart by their folders: each gets a name of its own made of what tells
their folders apart (`joker-2018`, `joker-2019`: a year alone when one of those folders
is a year), or else the year of its date, or else a number (`joker-2`); the old address
stays reachable through the alias the importer writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from ...content import times
from ...content.model import slugify
from ...diagnostics import Diagnostic
from .convert import Candidate
from .sources import read_source

_YEAR = re.compile(r"^(1[0-9]|20)\d\d$")


@dataclass
class Choice:
    chosen: list[Candidate] = field(default_factory=list)  # each talk's first version first
    renamed: list[tuple[Candidate, str]] = field(default_factory=list)  # and its old name
    twins: list[tuple[Candidate, Candidate]] = field(default_factory=list)  # and its source
    # the path of each version imported after its talk's first one -> that one, which
    # names the talk, and whose slug becomes the others' (translations.py)
    first: dict[Path, Candidate] = field(default_factory=dict)
    linked: list[tuple[Candidate, str]] = field(default_factory=list)  # by translationKey


def choose(candidates: list[Candidate],
           key: Callable[[Candidate], str | None] | None = None) -> Choice:
    """One file per talk and language, each talk with a name no other talk has. `key`:
    the `translationKey` of a file, if it has one."""
    groups: dict[str, list[Candidate]] = {}
    for candidate in candidates:
        own = key(candidate) if key else None
        name = f"key:{own}" if own else (candidate.place or candidate.name).lower()
        groups.setdefault(name, []).append(candidate)
    choice = Choice()
    talks: list[list[Candidate]] = []  # each a talk's versions, the first in rank first
    for group in groups.values():
        group.sort(key=lambda c: c.rank)
        versions: dict[str, Candidate] = {}
        for candidate in group:
            winner = versions.setdefault(candidate.tag.lower(), candidate)
            if winner is candidate:
                continue
            if _same_page(candidate, winner):
                choice.twins.append((candidate, winner))
            else:  # another page with the same key: a talk of its own
                talks.append([candidate])
        talks.append(list(versions.values()))
    by_name: dict[str, list[list[Candidate]]] = {}
    for talk in talks:
        by_name.setdefault(talk[0].name.lower(), []).append(talk)
    taken = {name for name, same in by_name.items() if len(same) == 1}
    named: list[list[Candidate]] = []
    for same in by_name.values():
        same.sort(key=lambda talk: talk[0].rank)
        names = [same[0][0].name] if len(same) == 1 else \
            _new_names([talk[0] for talk in same], taken)
        for talk, name in zip(same, names, strict=True):
            taken.add(name.lower())
            renamed = [replace(c, name=name) for c in talk]
            for old, new in zip(talk, renamed, strict=True):
                if len(same) > 1:
                    choice.renamed.append((new, old.name))
                elif old.name != name:
                    choice.linked.append((new, old.name))
            named.append(renamed)
    firsts = sorted((talk[0] for talk in named), key=lambda c: str(c.path))
    others = sorted(((c, talk[0]) for talk in named for c in talk[1:]),
                    key=lambda pair: str(pair[0].path))
    choice.chosen = firsts + [c for c, _ in others]
    choice.first = {c.path: first for c, first in others}
    return choice


def _same_page(other: Candidate, winner: Candidate) -> bool:
    """Two files of one language for one page: side by side, of one name."""
    return (other.path.parent == winner.path.parent
            and other.name.lower() == winner.name.lower())


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
    """Why `other`, a rendered copy of `winner` or a second file for its page, was not
    imported, for the report; and a warning when `winner` was not imported either."""
    if _rendered(other, winner):
        what = f"the rendered copy of {winner.path.name}"
    else:
        what = f"a second file for the page of {winner.path}"
    if imported:
        return f"{what}, which is imported", None
    return f"{what}, which was not imported either", Diagnostic(
        other.path, f"not imported: {what}, which was not imported either (see its "
        "messages)", severity="warning", hint="fix that file and import again")
