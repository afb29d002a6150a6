"""What a build may reuse: the keys that say what each result was made from, and the
caches that keep results between builds.

Every result of a build has a key, a digest of everything it was made from:

- a talk: its file (bytes and modification time), slug, bundle files and the site's
  config (loader.py computes it, `Talk.key`);
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

The caches, all with the same questions (`known_…`) and answers (`remember_…`), so
that the work found missing can be done in worker processes and handed back:

- `BuildCache`: keeps nothing beyond one build (its fragments), counts the work;
- `MemoryCache`: `talkpages serve`, everything in memory between rebuilds;
- `store.DiskCache`: `talkpages build`, kept in the site's `.talkpages-cache/`.

The stages reach the cache through a context variable that `use()` sets, so the loader
and the renderer keep their signatures.
"""

from __future__ import annotations

import dataclasses
import gc
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.loader import TalkInputs, TalkResult
from ..content.model import Site, Talk
from ..digests import code_digest, digest
from ..output.theme import Theme
from .writer import Output, whole

if TYPE_CHECKING:
    from ..output.plan import Recipe



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


@dataclass
class Stats:
    """The work of one build, for progress lines and for tests that rebuild."""

    talks_read: int = 0
    talks_reused: int = 0
    pages_rendered: int = 0
    pages_reused: int = 0

    @property
    def talks(self) -> int:
        return self.talks_read + self.talks_reused

    @property
    def pages(self) -> int:
        return self.pages_rendered + self.pages_reused


class BuildCache:
    """Keeps nothing between builds: every talk read, every page rendered, each counted.
    Fragments are kept for the build that makes them."""

    # Work may go to forked worker processes (not from serve's threads: see MemoryCache).
    parallel = True

    def __init__(self) -> None:
        self.stats = Stats()
        self._fragments: dict[str, bytes] = {}

    def start(self) -> None:
        """A build begins: counting starts again."""
        self.stats = Stats()
        self._fragments = {}

    def known_talk(self, path: Path, inputs: TalkInputs) -> TalkResult | None:
        return None

    def remember_talk(self, path: Path, inputs: TalkInputs, result: TalkResult,
                      blob: bytes | None = None) -> None:
        self.stats.talks_read += 1

    def known_page(self, key: str | None, path: str, origin: str) -> Output | None:
        return None

    def remember_page(self, key: str | None, output: Output) -> Output:
        self.stats.pages_rendered += 1
        return output

    def fragment(self, key: str) -> bytes | None:
        return self._fragments.get(key)

    def has_fragment(self, key: str) -> bool:
        return key in self._fragments

    def fragment_lengths(self, keys: list[str]) -> list[int | None]:
        """The lengths of fragments by their keys (None for those the cache lacks)."""
        found = [self.fragment(key) for key in keys]
        return [None if data is None else len(data) for data in found]

    def remember_fragment(self, key: str, data: bytes) -> None:
        self._fragments[key] = data

    def planned(self, recipe: Recipe, key: str | None,
                sources: tuple[int, ...] | None = None) -> None:
        """An output the build makes or keeps, and its key (a lasting cache keeps the
        plan, so that a later build can make outputs again one by one: delta.py)."""

    def flush(self) -> None:
        """Make what was remembered so far readable to worker processes forked next."""

    def theme(self, site_dir: Path) -> Theme:
        return Theme.for_site(site_dir)

    def finish(self) -> None:
        """The build's output is written: a lasting cache saves what it learnt."""


_PASS_THROUGH = BuildCache()
_active: ContextVar[BuildCache] = ContextVar("talkpages_cache", default=_PASS_THROUGH)


def active() -> BuildCache:
    """The cache of the build running in this thread (the pass-through if none)."""
    return _active.get()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a site is read or planned: that makes millions
    of objects that live for the build and no garbage, and Python's collector would
    scan them again and again as they grow (two thirds of the time of reading a large
    site, half of planning it). What was made is then frozen: never scanned again, and
    the pages of memory that forked workers share stay shared. The build unfreezes all
    at its end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def use(cache: BuildCache) -> Iterator[BuildCache]:
    cache.start()
    token = _active.set(cache)
    try:
        yield cache
    finally:
        _active.reset(token)


class MemoryCache(BuildCache):
    """Talks, pages and fragments kept in memory between the rebuilds of `serve`.

    A talk is reused while its file has the same modification time, size, inode and
    change time and the other inputs are equal; a page or fragment while its key is."""

    parallel = False  # serve builds in a thread beside its server's: no fork there

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._talks: dict[Path, tuple[tuple[Any, ...], TalkResult]] = {}
        self._pages: dict[str, tuple[str, Output]] = {}
        self._kept: dict[str, bytes] = {}
        self._theme: tuple[tuple[Any, ...], Theme] | None = None
        self._used: set[str] = set()

    def start(self) -> None:
        super().start()
        self._used = set()

    def known_talk(self, path: Path, inputs: TalkInputs) -> TalkResult | None:
        signature = file_signature(path)
        with self._lock:
            kept = self._talks.get(path)
        if signature is not None and kept is not None and kept[0] == (signature, inputs):
            self.stats.talks_reused += 1
            return kept[1]
        return None

    def remember_talk(self, path: Path, inputs: TalkInputs, result: TalkResult,
                      blob: bytes | None = None) -> None:
        super().remember_talk(path, inputs, result, blob)
        signature = file_signature(path)
        if signature is not None:
            with self._lock:
                self._talks[path] = ((signature, inputs), result)

    def known_page(self, key: str | None, path: str, origin: str) -> Output | None:
        with self._lock:
            self._used.add(path)
            kept = self._pages.get(path)
        if key is not None and kept is not None and kept[0] == key:
            self.stats.pages_reused += 1
            return kept[1]
        return None

    def remember_page(self, key: str | None, output: Output) -> Output:
        output = whole(super().remember_page(key, output))
        if key is not None:
            with self._lock:
                self._pages[output.path] = (key, output)
        return output

    def fragment(self, key: str) -> bytes | None:
        found = self._fragments.get(key)
        if found is None:
            found = self._kept.get(key)
            if found is not None:
                self._fragments[key] = found
        return found

    def has_fragment(self, key: str) -> bool:
        return key in self._fragments or key in self._kept

    def theme(self, site_dir: Path) -> Theme:
        fingerprint = _theme_fingerprint(site_dir)
        if self._theme is None or self._theme[0] != fingerprint:
            self._theme = (fingerprint, Theme.for_site(site_dir))
        return self._theme[1]

    def finish(self) -> None:
        self._kept = self._fragments  # the fragments this build used, for the next

    def prune(self) -> None:
        """After a build: forget pages it did not ask for, and talks whose file is gone."""
        with self._lock:
            self._pages = {url: kept for url, kept in self._pages.items() if url in self._used}
            self._talks = {path: kept for path, kept in self._talks.items() if path.exists()}
        self.finish()


def file_signature(path: Path) -> tuple[int, int, int, int] | None:
    """What tells that a file changed: its modification and change times, size, inode."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns)


def _theme_fingerprint(site_dir: Path) -> tuple[Any, ...]:
    from ..output.theme import theme_files

    return tuple((str(path), file_signature(path)) for path in theme_files(site_dir))
