"""load -> validate -> render -> write, one way for every command: `run(request, sink)`.
Read everything first, then write anything."""

from __future__ import annotations

import gc
import pickle
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.loader import LoadOptions, load_site
from ..content.model import Site
from ..diagnostics import BuildError, Diagnostic, has_errors
from ..output.keys import Keys
from ..output.outputs import Output, whole
from ..output.render import iter_outputs
from ..parallel import collector_paused
from . import delta
from .cache import BuildCache
from .cachedir import CACHE_DIR
from .fingerprint import Inputs
from .media import MediaCache
from .signed import Damaged
from .store import DiskCache
from .writer import Kept, Staging, Unavailable, WriteStats


@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    site: Site | None = None
    outputs: list[Output] = field(default_factory=list)
    seconds: float = 0.0
    written: WriteStats | None = None
    counts: tuple[int, int] = (0, 0)  # upcoming and past talks
    delta: bool = False  # only the outputs showing changed talks were made (delta.py)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@dataclass(frozen=True)
class BuildRequest:
    """What a build is asked for. `cache`: what is kept between builds (cache.py);
    None: the site's lasting cache (store.py) when the sink writes to disk, else
    nothing kept. `fingerprint`: of the inputs, recorded with the output (see
    fingerprint.py); with `inputs`, a build after a few talk files changed makes only
    what shows them (delta.py)."""

    site_dir: Path
    options: LoadOptions
    cache: BuildCache | None = None
    fingerprint: str = ""
    inputs: Inputs | None = None
    media: MediaCache | None = None  # resized images and social cards kept (media.py)


class MemorySink:
    """Outputs kept in memory, whole (check, serve, tests)."""

    lasting = False  # no cache kept between builds unless the request brings one

    def __init__(self) -> None:
        self.outputs: list[Output] = []

    def write(self, outputs: Iterable[Output], site_dir: Path, cache: BuildCache,
              fingerprint: str, kept: Kept | None = None) -> WriteStats | None:
        self.outputs = [whole(output) for output in outputs]
        return None


class DiskSink:
    """Outputs written to `out_dir` as they are made (writer.py): the folder changes only
    when everything is written, so an error met while rendering leaves the previous
    site as it was."""

    lasting = True

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.outputs: list[Output] = []  # none kept: they are on disk

    def write(self, outputs: Iterable[Output], site_dir: Path, cache: BuildCache,
              fingerprint: str, kept: Kept | None = None) -> WriteStats | None:
        """`kept`: every file of the output but these outputs stays (delta.py)."""
        folder = cache.folder if isinstance(cache, DiskCache) else None
        staging = Staging(self.out_dir, site_dir, folder)
        if isinstance(cache, DiskCache):
            cache.staging = staging  # pages the output keeps need not be rendered
        return staging.write(outputs, fingerprint, kept)


def run(request: BuildRequest, sink: MemorySink | DiskSink) -> BuildResult:
    """The one way a site is built: load, then render into `sink` in one stream, then
    let the cache keep what the build learnt (only once the sink holds the whole site).
    What the cache has is not made again; something kept that does not verify makes the
    build start again with nothing kept."""
    started = time.perf_counter()
    lasting = DiskCache.open(request.site_dir) \
        if request.cache is None and sink.lasting else None
    active = request.cache or lasting or BuildCache()
    try:
        try:
            result = _run(request, sink, active, request.inputs)
        except Damaged:  # something kept did not verify: nothing kept is used
            assert isinstance(active, DiskCache)
            active.forget()
            result = _run(request, sink, active, None)
    except BuildError as exc:  # met before the site could be written (the cache's disk)
        result = BuildResult(diagnostics=exc.diagnostics)
    finally:
        gc.unfreeze()
        if lasting is not None:
            lasting.close()
    result.seconds = time.perf_counter() - started
    return result


def _run(request: BuildRequest, sink: MemorySink | DiskSink, active: BuildCache,
         inputs: Inputs | None) -> BuildResult:
    started = time.perf_counter()
    site_dir, options, fingerprint = request.site_dir, request.options, request.fingerprint
    active.start()
    try:
        if isinstance(active, DiskCache) and isinstance(sink, DiskSink) and inputs is not None:
            try:  # a few talks changed: only what shows them is made, the rest kept
                with collector_paused():
                    shortcut = delta.plan(site_dir, options, active, inputs)
                    written = None if shortcut is None else sink.write(
                        shortcut.outputs, site_dir, active, fingerprint, shortcut.kept)
            except BuildError as exc:  # the output could not be written
                return BuildResult(diagnostics=exc.diagnostics)
            except Unavailable:  # a file to keep is not as recorded: the full build
                active.delta = False
            else:
                if shortcut is not None:
                    active.build.update(talk_files=inputs.talks,
                                        warnings=_kept(shortcut.warnings),
                                        fingerprint=fingerprint)
                    return BuildResult(
                        diagnostics=shortcut.warnings + _finish(active, site_dir, written),
                        written=written, counts=shortcut.counts,
                        seconds=time.perf_counter() - started, delta=True)
        with collector_paused():
            site, diagnostics = load_site(site_dir, options, active)
        result = BuildResult(diagnostics=diagnostics, site=site)
        if site is not None:
            result.counts = (len(site.upcoming), len(site.past))
            try:
                theme = active.theme(site_dir)
                keys = Keys(site, theme)
                result.written = sink.write(
                    iter_outputs(site, theme, active, keys, request.media),
                    site_dir, active, fingerprint)
                result.outputs = sink.outputs
                if result.written is not None and request.media is not None:
                    request.media.prune()  # what this build did not use goes
                if isinstance(active, DiskCache):
                    active.build = _asked(keys, options, inputs, result, fingerprint)
            except BuildError as exc:
                result.diagnostics += exc.diagnostics
            else:
                if result.written is not None:
                    result.diagnostics += _finish(active, site_dir, result.written)
    finally:
        gc.unfreeze()
    return result


def _finish(active: BuildCache, site_dir: Path, written: WriteStats | None) -> list[Diagnostic]:
    """The site is in place: the cache keeps what the build learnt. A cache that cannot
    be saved (a full disk) costs the next build its speed, not this build its site."""
    try:
        if written is not None and written.unsaved:
            raise OSError(written.unsaved)
        active.finish()
    except (OSError, Damaged, BuildError) as exc:
        if isinstance(active, DiskCache):
            active.drop()
        reason = exc.diagnostics[0].message if isinstance(exc, BuildError) else str(exc)
        return [Diagnostic(site_dir / CACHE_DIR, f"the build cache could not be "
                           f"saved ({reason}): the next build starts from nothing",
                           severity="warning")]
    return []


def _asked(keys: Keys, options: LoadOptions, inputs: Inputs | None, result: BuildResult,
           fingerprint: str) -> dict[str, Any]:
    """What a build was asked for and found, kept for the next one (delta.py)."""
    if inputs is None:
        return {}
    return {"rest": inputs.rest, "talk_files": inputs.talks,
            "options": delta.options_of(options), "keys": [keys.content, keys.pages],
            "warnings": _kept([d for d in result.diagnostics if not d.is_error]),
            "counts": result.counts, "fingerprint": fingerprint}


def _kept(warnings: list[Diagnostic]) -> bytes:
    """Warnings as the state of the cache keeps them (it holds plain values only)."""
    return pickle.dumps(warnings, protocol=pickle.HIGHEST_PROTOCOL)
