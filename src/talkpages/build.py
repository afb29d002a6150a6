"""load -> validate -> render -> write. Read everything first, then write anything."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .cache import BuildCache, use
from .diagnostics import BuildError, Diagnostic, has_errors
from .loader import LoadOptions, load_site
from .model import Site
from .render import iter_outputs, render_site
from .writer import Output, WriteStats, write_site


@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    site: Site | None = None
    outputs: list[Output] = field(default_factory=list)
    seconds: float = 0.0
    written: WriteStats | None = None

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def render(site_dir: Path, options: LoadOptions, cache: BuildCache | None = None,
           ) -> BuildResult:
    """Everything but the writing: the site's outputs in memory, or the problems.

    `cache` keeps work between builds (`serve`) or counts it (progress); see cache.py.
    """
    started = time.perf_counter()
    with use(cache or BuildCache()) as active:
        site, diagnostics = load_site(site_dir, options)
        result = BuildResult(diagnostics=diagnostics, site=site)
        if site is not None:
            try:
                result.outputs = render_site(site, active.theme(site_dir))
            except BuildError as exc:
                result.diagnostics += exc.diagnostics
    result.seconds = time.perf_counter() - started
    return result


def build(site_dir: Path, out_dir: Path, options: LoadOptions,
          cache: BuildCache | None = None, fingerprint: str = "") -> BuildResult:
    """Load, then render and write in one stream: pages go to disk as they are made.

    `fingerprint`: of the inputs, recorded with the output (see fingerprint.py). The
    output changes only when everything is written (writer.py), so an error met while
    rendering leaves the previous site as it was."""
    started = time.perf_counter()
    with use(cache or BuildCache()) as active:
        site, diagnostics = load_site(site_dir, options)
        result = BuildResult(diagnostics=diagnostics, site=site)
        if site is not None:
            try:
                stream = iter_outputs(site, active.theme(site_dir))
                result.written = write_site(stream, out_dir, site_dir, fingerprint)
                active.finish()
            except BuildError as exc:
                result.diagnostics += exc.diagnostics
    result.seconds = time.perf_counter() - started
    return result
