"""The caches of a build, all with the same questions (`known_…`) and answers
(`remember_…`), so that the work found missing can be done in worker processes and
handed back; what they are asked by is in output/keys.py.

- `BuildCache`: keeps nothing beyond one build (its fragments), counts the work;
- `MemoryCache`: `talkpages serve`, everything in memory between rebuilds;
- `store.DiskCache`: `talkpages build`, kept in the site's `.talkpages-cache/`.

The cache is passed to the loader and the renderer by the pipeline.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.loader import TalkInputs, TalkResult
from ..output.outputs import Output, whole
from ..output.theme import Theme
from ..stamps import stamp

if TYPE_CHECKING:
    from ..output.plan import Recipe



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
        signature = stamp(path)
        with self._lock:
            kept = self._talks.get(path)
        if signature is not None and kept is not None and kept[0] == (signature, inputs):
            self.stats.talks_reused += 1
            return kept[1]
        return None

    def remember_talk(self, path: Path, inputs: TalkInputs, result: TalkResult,
                      blob: bytes | None = None) -> None:
        super().remember_talk(path, inputs, result, blob)
        signature = stamp(path)
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


def _theme_fingerprint(site_dir: Path) -> tuple[Any, ...]:
    from ..output.theme import theme_files

    return tuple((str(path), stamp(path)) for path in theme_files(site_dir))
