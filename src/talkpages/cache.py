"""Reuse of per-talk work between builds: what a build asks of a cache.

A build asks its cache for three things, at the three places where most of the work is:

- `talk(path, inputs, load)`: the Talk of one file (loader.load_site). `inputs` are
  the values besides the file that the result depends on (slug, config, bundle files).
- `page(site, template, url, context, render)`: one rendered page (render._page).
  `context` is what the template is given besides the site-wide globals.
- `theme(site_dir)`: the site's Theme (templates and assets).

`BuildCache` is the pass-through every command but `serve` uses: it does all the work
every time and counts it, which is what the progress line of `talkpages build` shows.
`MemoryCache` keeps results between the rebuilds of `talkpages serve`:

- a talk is reused while its file has the same mtime, size and inode and the other
  inputs are equal; a file changed on disk is parsed again, and nothing else is;
- a page is reused while its template, path, context, the site's config, speakers and
  build time, and every file of the theme are the same. Talks in a context are
  compared by identity: an unchanged file gives the very same Talk object, so a
  talk's page is rendered again only when it or a neighbour it links to changed.
  A page whose context holds a value this module cannot compare is always rendered.
  Templates are assumed to read other talks only through their context, as the
  built-in ones do.

The stages reach the cache through a context variable that `use()` sets (build.render
does), so the loader and the renderer keep their signatures, and code that calls them
without a cache gets the pass-through.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic
from .model import Site, Talk
from .theme import Theme, builtin_dir
from .writer import Output

TalkResult = tuple[Talk | None, list[Diagnostic]]


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
    """The pass-through: every talk read, every page rendered, each counted."""

    # A cache that keeps results must see every talk and page itself; one that does not
    # lets large sites be read and rendered in worker processes (parallel.py).
    keeps_results = False

    def __init__(self) -> None:
        self.stats = Stats()

    def start(self) -> None:
        """A build begins: counting starts again."""
        self.stats = Stats()

    def talk(self, path: Path, inputs: tuple[Any, ...],
             load: Callable[[], TalkResult]) -> TalkResult:
        self.stats.talks_read += 1
        return load()

    def page(self, site: Site, template: str, url: str, context: Mapping[str, Any],
             render: Callable[[], Output]) -> Output:
        self.stats.pages_rendered += 1
        return render()

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
def use(cache: BuildCache) -> Iterator[BuildCache]:
    cache.start()
    token = _active.set(cache)
    try:
        yield cache
    finally:
        _active.reset(token)


class _Unhashable(Exception):
    """A context value that cannot be compared safely: render the page."""


class MemoryCache(BuildCache):
    """Talks and pages kept in memory between the rebuilds of one `serve` session."""

    keeps_results = True

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._talks: dict[Path, tuple[tuple[Any, ...], TalkResult]] = {}
        self._pages: dict[str, tuple[tuple[Any, ...], Output]] = {}
        self._theme: tuple[tuple[Any, ...], Theme] | None = None
        self._site_keys: tuple[int, tuple[Any, ...]] | None = None
        self._used: set[str] = set()

    def start(self) -> None:
        super().start()
        self._used = set()
        self._site_keys = None

    def talk(self, path: Path, inputs: tuple[Any, ...],
             load: Callable[[], TalkResult]) -> TalkResult:
        signature = _file_signature(path)
        key = (signature, repr(inputs))
        with self._lock:
            kept = self._talks.get(path)
        if signature is not None and kept is not None and kept[0] == key:
            self.stats.talks_reused += 1
            return kept[1]
        result = load()
        self.stats.talks_read += 1
        if signature is not None:
            with self._lock:
                self._talks[path] = (key, result)
        return result

    def page(self, site: Site, template: str, url: str, context: Mapping[str, Any],
             render: Callable[[], Output]) -> Output:
        try:
            key = (self._site_key(site), template, url, _freeze(context))
        except _Unhashable:
            self.stats.pages_rendered += 1
            return render()
        with self._lock:
            self._used.add(url)
            kept = self._pages.get(url)
        if kept is not None and kept[0] == key:
            self.stats.pages_reused += 1
            return kept[1]
        output = render()
        self.stats.pages_rendered += 1
        with self._lock:
            self._pages[url] = (key, output)
        return output

    def theme(self, site_dir: Path) -> Theme:
        fingerprint = _theme_fingerprint(site_dir)
        if self._theme is None or self._theme[0] != fingerprint:
            self._theme = (fingerprint, Theme.for_site(site_dir))
            with self._lock:
                self._pages.clear()
        return self._theme[1]

    def prune(self) -> None:
        """After a build that rendered everything: forget pages it did not ask for, and
        talks whose file is gone."""
        with self._lock:
            self._pages = {url: kept for url, kept in self._pages.items() if url in self._used}
            self._talks = {path: kept for path, kept in self._talks.items() if path.exists()}

    def _site_key(self, site: Site) -> tuple[Any, ...]:
        """What every page may read besides its context: computed once per build."""
        if self._site_keys is None or self._site_keys[0] != id(site):
            speakers = getattr(site, "speakers", None)
            self._site_keys = (id(site), (repr(site.config), repr(speakers), site.now))
        return self._site_keys[1]


def _file_signature(path: Path) -> tuple[int, int, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns)


def _theme_fingerprint(site_dir: Path) -> tuple[Any, ...]:
    files: list[tuple[str, tuple[int, int, int, int] | None]] = []
    for folder in (site_dir / "layouts", site_dir / "assets", builtin_dir("layouts"),
                   builtin_dir("assets")):
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = Path(root) / name
                files.append((str(path), _file_signature(path)))
    return tuple(files)


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a template context value, equal only when the page
    would be rendered the same; Talks stand for themselves (compared by identity)."""
    if value is None or isinstance(value, (str, int, float, bool, bytes, datetime, Talk)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, Mapping):
        return tuple((key, _freeze(item)) for key, item in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value),) + tuple(_freeze(getattr(value, f.name))
                                      for f in dataclasses.fields(value))
    raise _Unhashable(type(value).__name__)
