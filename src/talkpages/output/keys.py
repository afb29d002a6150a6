"""The keys of what a build makes, and the cache a renderer asks by them.

Every result of a build has a key, a digest of everything it was made from:

- a talk: its file (bytes and modification time), slug, bundle files and the site's
  config (the loader computes it, `Talk.key`);
- a page: its template, path and context, where a talk stands for its key and for how
  many of its occurrences are over at the build's time (all that pages show of time:
  upcoming or past, the next date of a series); plus the site-wide inputs: the config,
  speakers.toml, every file of the theme and talkpages' own code;
- a fragment, a piece of many outputs made once per talk (its calendar event, its list
  item, its talks.json record, its search row): the talk and the same site-wide inputs.

The time of the build enters a page's key only through its talks, so a build without
`--now` still reuses every page whose talks did not start or end since the last one.
A theme whose templates read `site.now`, `site.talks`, `site.upcoming` or `site.past`
(or use `site` whole) makes every page depend on the time and on every talk: such a
site's pages are all rendered each time, correct and slower (theme.py finds out).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..content.model import Site, Talk
from ..digests import code_digest, digest
from .outputs import Output
from .theme import Theme

if TYPE_CHECKING:
    from .plan import Recipe


class OutputCache(Protocol):
    """What the renderer asks of the build's cache (build/cache.py), passed to it: by a
    key, an output or fragment it keeps; the outputs and fragments made, to keep."""

    parallel: bool  # work may go to forked workers

    def planned(self, recipe: Recipe, key: str | None,
                sources: tuple[int, ...] | None = None) -> None: ...

    def known_page(self, key: str | None, path: str, origin: str) -> Output | None: ...

    def remember_page(self, key: str | None, output: Output) -> Output: ...

    def fragment(self, key: str) -> bytes | None: ...

    def has_fragment(self, key: str) -> bool: ...

    def fragment_lengths(self, keys: list[str]) -> list[int | None]: ...

    def remember_fragment(self, key: str, data: bytes) -> None: ...

    def flush(self) -> None: ...


class Keys:
    """The keys of one build's pages and fragments."""

    def __init__(self, site: Site, theme: Theme):
        self.now = site.now
        # Asked for again and again (every list and feed a talk is in): worked out once.
        self._states: dict[int, tuple[Talk, str]] = {}
        self._fragments: dict[int, tuple[Talk, str, str]] = {}  # a talk's base and item keys
        common = (repr(site.config), repr(sorted(site.speakers.items())), code_digest())
        self.content = digest("content", *common)
        changing: tuple[str, ...] = ()
        if theme.reads_site_state:
            changing = (site.now.isoformat(), *(self.state(talk) for talk in site.talks))
        self.pages = digest("pages", *common, theme.digest, *changing)
        # Tuples and frozen dataclasses (a group's talks) recur on many pages: frozen once.
        self._frozen: dict[int, tuple[Any, Any]] = {}

    def state(self, talk: Talk) -> str:
        """A talk as pages see it: its key, and how many of its occurrences are over."""
        known = self._states.get(id(talk))
        if known is None or known[0] is not talk:
            known = self._states[id(talk)] = (talk, f"{talk.key}:{talk.ended(self.now)}")
        return known[1]

    def page(self, template: str, url: str, context: Mapping[str, Any]) -> str | None:
        """None: the context holds a value that cannot be compared; always render."""
        try:
            frozen = repr(self._freeze(context))
        except _Unhashable:
            return None
        return digest(self.pages, template, url, frozen)

    def fragment(self, kind: str, talk: Talk) -> str:
        # Two digests a talk, kept for the build (at 100,000 talks, one entry per talk
        # and kind took 100 MB): the list item shows the talk as pages do; the other
        # fragments are one digest, told apart by their kind.
        known = self._fragments.get(id(talk))
        if known is None or known[0] is not talk:
            known = self._fragments[id(talk)] = (talk, digest(self.content, talk.key),
                                                 digest(self.pages, "item", self.state(talk)))
        if kind == "item":
            return known[2]
        if kind == "event":  # LAST-MODIFIED is never later than the build
            changed = talk.lastmod or talk.modified
            if changed is not None and changed > self.now:
                return digest(known[1], kind, self.now.isoformat())
        return f"{known[1]}.{kind}"

    def of(self, *parts: str) -> str:
        """A key of other outputs: the feeds and the site's files."""
        return digest(self.pages, *parts)

    def _freeze(self, value: Any) -> Any:
        """A stand-in for a context value whose repr is equal only when a page would be
        rendered the same; a talk stands for its state."""
        if isinstance(value, Talk):
            return ("talk", self.state(value))
        if value is None or isinstance(value, (str, int, float, bool, bytes, datetime)):
            return value
        if isinstance(value, list):
            return tuple(self._freeze(item) for item in value)
        if isinstance(value, Mapping):
            return tuple((key, self._freeze(item)) for key, item in value.items())
        immutable = isinstance(value, tuple) or (
            dataclasses.is_dataclass(value) and not isinstance(value, type)
            and type(value).__dataclass_params__.frozen)  # type: ignore[attr-defined]
        if immutable:
            known = self._frozen.get(id(value))
            if known is not None and known[0] is value:
                return known[1]
        if isinstance(value, tuple):
            frozen: Any = tuple(self._freeze(item) for item in value)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            frozen = (type(value).__name__,) + tuple(self._freeze(getattr(value, f.name))
                                                     for f in dataclasses.fields(value))
        else:
            raise _Unhashable(type(value).__name__)
        if immutable:
            if len(value) > 16 if isinstance(value, tuple) else False:
                frozen = digest(repr(frozen))
            self._frozen[id(value)] = (value, frozen)  # the value kept: its id stays its own
        return frozen


class _Unhashable(Exception):
    """A context value that cannot be compared safely: render the page."""
