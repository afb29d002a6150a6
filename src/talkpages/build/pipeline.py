"""load -> validate -> render -> write. Read everything first, then write anything."""

from __future__ import annotations

import gc
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.loader import LoadOptions, load_site
from ..content.model import Site
from ..diagnostics import BuildError, Diagnostic, has_errors
from ..output.keys import Keys
from ..output.outputs import Output
from ..output.render import iter_outputs, render_site
from ..output.theme import Theme
from ..parallel import collector_paused
from . import delta
from .cache import BuildCache
from .cachedir import CACHE_DIR
from .fingerprint import Inputs
from .signed import Damaged
from .store import DiskCache
from .writer import Staging, WriteStats


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


def render(site_dir: Path, options: LoadOptions, cache: BuildCache | None = None,
           ) -> BuildResult:
    """Everything but the writing: the site's outputs in memory, or the problems.

    `cache` keeps work between builds (`serve`) or counts it (progress); see cache.py.
    """
    started = time.perf_counter()
    try:
        active = cache or BuildCache()
        active.start()
        with collector_paused():
            site, diagnostics = load_site(site_dir, options, active)
        result = BuildResult(diagnostics=diagnostics, site=site)
        if site is not None:
            try:
                result.outputs = render_site(site, active.theme(site_dir), active)
            except BuildError as exc:
                result.diagnostics += exc.diagnostics
    finally:
        gc.unfreeze()
    result.seconds = time.perf_counter() - started
    return result


def build(site_dir: Path, out_dir: Path, options: LoadOptions,
          cache: BuildCache | None = None, fingerprint: str = "",
          inputs: Inputs | None = None) -> BuildResult:
    """Load, then render and write in one stream: pages go to disk as they are made.

    `cache`: the site's lasting cache (store.py) unless another is given; what it has
    is not made again. `fingerprint`: of the inputs, recorded with the output (see
    fingerprint.py); with `inputs`, a build after a few talk files changed makes only
    what shows them (delta.py). The output changes only when everything is written
    (writer.py), and the cache only after that, so an error met while rendering leaves
    the previous site, and what the cache knew, as they were."""
    started = time.perf_counter()
    lasting = DiskCache.open(site_dir) if cache is None else None
    try:
        try:
            result = _build(site_dir, out_dir, options, cache or lasting or BuildCache(),
                            fingerprint, inputs)
        except Damaged:  # something kept did not verify: nothing kept is used
            active = cache or lasting
            assert isinstance(active, DiskCache)
            active.forget()
            result = _build(site_dir, out_dir, options, active, fingerprint, None)
    except BuildError as exc:  # met before the site could be written (the cache's disk)
        result = BuildResult(diagnostics=exc.diagnostics)
    finally:
        gc.unfreeze()
        if lasting is not None:
            lasting.close()
    result.seconds = time.perf_counter() - started
    return result


def _build(site_dir: Path, out_dir: Path, options: LoadOptions, cache: BuildCache,
           fingerprint: str, inputs: Inputs | None) -> BuildResult:
    started = time.perf_counter()
    try:
        active = cache
        active.start()
        if isinstance(active, DiskCache) and inputs is not None:
            try:
                with collector_paused():
                    done = delta.build(site_dir, out_dir, options, active, inputs,
                                       fingerprint)
            except BuildError as exc:  # the output could not be written
                return BuildResult(diagnostics=exc.diagnostics)
            if done is not None:
                written, warnings, counts = done
                active.build.update(talk_files=inputs.talks, warnings=_kept(warnings),
                                    fingerprint=fingerprint)
                return BuildResult(diagnostics=warnings + _finish(active, site_dir, written),
                                   written=written, counts=counts,
                                   seconds=time.perf_counter() - started, delta=True)
        with collector_paused():
            site, diagnostics = load_site(site_dir, options, active)
        result = BuildResult(diagnostics=diagnostics, site=site)
        if site is not None:
            result.counts = (len(site.upcoming), len(site.past))
            try:
                theme = active.theme(site_dir)
                keys = Keys(site, theme)
                result.written = _write(site, theme, keys, site_dir, out_dir, active,
                                        fingerprint)
                if isinstance(active, DiskCache):
                    active.build = _asked(keys, options, inputs, result, fingerprint)
            except BuildError as exc:
                result.diagnostics += exc.diagnostics
            else:
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


def _write(site: Site, theme: Theme, keys: Keys, site_dir: Path, out_dir: Path, active: BuildCache,
           fingerprint: str) -> WriteStats:
    folder = active.folder if isinstance(active, DiskCache) else None
    staging = Staging(out_dir, site_dir, folder)
    if isinstance(active, DiskCache):
        active.staging = staging  # pages the output keeps need not be rendered
    try:
        for output in iter_outputs(site, theme, active, keys):
            staging.add(output)
    except BaseException:
        staging.close()
        raise
    return staging.commit(fingerprint)
