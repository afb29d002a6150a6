"""Tags, speakers and years: their slugs and the talks of each, in one place.

The pages (`tags/<slug>/`, `speakers/<slug>/`, `years/<year>/`) and the per-tag and
per-speaker calendar feeds both come from these functions, so a page and its feed
can never disagree about which talks belong together.

- Tags are grouped by slug: `Kubernetes` and `kubernetes` are one tag, shown with
  the spelling used first (by date).
- A speaker is what a talk's `authors` names, resolved through `speakers.toml`
  (`admin` -> "Klaus Ma"); the slug comes from the name shown.
- Slugs keep letters of every script (`华为` stays `华为`); a name of symbols only
  gets a short stable hash, so no group is ever left without an address.
- Symbols that tell names apart are spelled out first, so that `C++`, `C#` and `C`
  are three tags (`c-plus-plus`, `c-sharp`, `c`) and `.NET` is `dotnet`; other
  symbols separate words. Only names with these symbols got new slugs by this rule:
  every other address stays as it was. Names that still share a slug (`R&D`, `R D`)
  are one group, and `check` warns about them (addresses.py).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from .model import Settings, Site, Talk, slugify
from .speakers import Speaker


@dataclass(frozen=True)
class Group:
    slug: str
    name: str
    talks: tuple[Talk, ...]  # by start time, as in the site
    speaker: Speaker | None = None  # speaker groups: the speakers.toml entry, if any


# `+` anywhere, `#` right after a letter or digit (`C#`, `F#`; a hashtag's `#` is
# punctuation), `♯`, and a `.` that starts a word (`.NET`, not `Node.js`).
_SPELLED = ((re.compile(r"\+"), " plus "), (re.compile(r"(?<=\w)#|♯"), " sharp "),
            (re.compile(r"(?<![\w.])\.(?=[^\W\d_])"), " dot"))


@lru_cache(maxsize=65536)
def tag_slug(tag: str) -> str:
    spelled = tag
    for pattern, word in _SPELLED:
        spelled = pattern.sub(word, spelled)
    return slugify(spelled) or _hashed(tag)


def speaker_slug(name: str) -> str:
    """The slug of a speaker's display name (see `speaker_name`)."""
    return tag_slug(name)


def _hashed(text: str) -> str:
    return "x" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def speaker_name(site: Settings, author: str) -> str:
    """The name to show for an entry of `authors`."""
    entry = _speakers(site).get(author)
    return entry.name if entry else author


def speaker_entry(site: Settings, author: str) -> Speaker | None:
    """The speakers.toml entry of an entry of `authors`: its own, or that of the name it
    is shown as (the speaker's page is the page of that name: `by_speaker`)."""
    speakers = _speakers(site)
    entry = speakers.get(author)
    if entry is None:
        slug = speaker_slug(author)
        entry = next((s for s in speakers.values() if speaker_slug(s.name) == slug), None)
    return entry


@lru_cache(maxsize=65536)
def tag_path(tag: str) -> str:
    """The tag page's path from the site root, ready for an href: `tags/sig-scheduling/`."""
    return f"tags/{quote(tag_slug(tag))}/"


def speaker_path(site: Settings, author: str) -> str:
    return _speaker_path(speaker_name(site, author))


@lru_cache(maxsize=65536)
def _speaker_path(name: str) -> str:
    return f"speakers/{quote(speaker_slug(name))}/"


def year_of(talk: Talk) -> int:
    return talk.schedule.start.year


def by_tag(site: Site) -> list[Group]:
    """Every tag with its talks, by name regardless of case."""
    return _group(site.talks, lambda talk: [(tag_slug(t), t) for t in talk.tags])


def by_speaker(site: Site) -> list[Group]:
    """Every speaker with their talks, by name regardless of case."""
    speakers = _speakers(site)
    entries = {speaker_slug(s.name): s for s in speakers.values()}
    groups = _group(site.talks, lambda talk: [
        (speaker_slug(name), name) for name in (speaker_name(site, a) for a in talk.authors)])
    return [Group(g.slug, g.name, g.talks, entries.get(g.slug)) for g in groups]


ALSO_SPEAKING = 3  # how many other talks a speaker's card on a talk page names


def also_speaking(site: Site, speakers: list[Group]) -> dict[Talk, dict[str, tuple[Talk, ...]]]:
    """For each talk, for each of its authors with other talks: up to ALSO_SPEAKING of
    those, the upcoming ones first (soonest first), then the past (latest first)."""
    upcoming = {talk for talk in site.talks if talk.is_upcoming(site.now)}
    # Each speaker's first talks in that order, one more than shown: a talk's card leaves
    # out the talk itself. Made once a speaker, not once a talk (a speaker of a large
    # site may have thousands).
    firsts: dict[str, list[Talk]] = {}
    for group in speakers:
        if len(group.talks) >= 2:
            soon = [t for t in group.talks if t in upcoming][:ALSO_SPEAKING + 1]
            late = [t for t in reversed(group.talks) if t not in upcoming][:ALSO_SPEAKING + 1]
            firsts[group.slug] = soon + late
    found: dict[Talk, dict[str, tuple[Talk, ...]]] = {}
    for talk in site.talks:
        for author in talk.authors:
            first = firsts.get(speaker_slug(speaker_name(site, author)))
            if first is not None:
                others = [t for t in first if t is not talk][:ALSO_SPEAKING]
                found.setdefault(talk, {})[author] = tuple(others)
    return found


def by_year(talks: Iterable[Talk]) -> list[tuple[int, list[Talk]]]:
    """Consecutive runs of talks of one year, in the order given."""
    runs: list[tuple[int, list[Talk]]] = []
    for talk in talks:
        year = year_of(talk)
        if runs and runs[-1][0] == year:
            runs[-1][1].append(talk)
        else:
            runs.append((year, [talk]))
    return runs


def years(site: Site) -> list[Group]:
    """Every year with talks, newest first."""
    found: dict[int, list[Talk]] = {}
    for talk in site.talks:
        found.setdefault(year_of(talk), []).append(talk)
    return [Group(str(year), str(year), tuple(found[year])) for year in sorted(found, reverse=True)]


def status(talk: Talk) -> str:
    """"cancelled", "postponed", "tentative", "confirmed" or "" (fields.STATUSES)."""
    return talk.status


def _speakers(site: Settings) -> dict[str, Speaker]:
    return getattr(site, "speakers", None) or {}


def _group(talks: Iterable[Talk], keys: Callable[[Talk], list[tuple[str, str]]],
           ) -> list[Group]:
    names: dict[str, str] = {}
    members: dict[str, list[Talk]] = {}
    for talk in talks:
        for slug, name in keys(talk):
            names.setdefault(slug, name)
            bucket = members.setdefault(slug, [])
            if not bucket or bucket[-1] is not talk:
                bucket.append(talk)
    order = sorted(names, key=lambda s: (names[s].casefold(), s))
    return [Group(slug, names[slug], tuple(members[slug])) for slug in order]
