"""load -> plan -> render -> write, whole, every time, one way for every command:
`run(request, sink)`. Read everything first, then write: each output where it is made.

Nothing rendered is kept between builds (Hugo, Zola and MkDocs keep none either):
every build makes every page, so none can be out of date. What is kept is what costs
real time and depends on one file's bytes: resized images and social cards, in the
media cache (media.py), and compiled templates (bytecode.py)."""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..content.languages import Tree, trees
from ..content.loader import LoadOptions, load_site
from ..content.model import Site
from ..diagnostics import BuildError, Diagnostic, has_errors
from ..output.feedlimits import size_warnings
from ..output.kinds import card_warnings
from ..output.outputs import Output, Store, whole
from ..output.plan import Recipe
from ..output.render import Maker
from ..output.switcher import Versions, root_files, tree_plan
from ..output.theme import Theme
from ..parallel import collector_paused, flushed
from .bytecode import compiled_templates
from .media import MediaCache
from .writer import NewSite, WriteStats, new_site


@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    site: Site | None = None
    outputs: list[Output] = field(default_factory=list)
    seconds: float = 0.0
    written: WriteStats | None = None
    counts: tuple[int, int] = (0, 0)  # upcoming and past talks
    maker: Maker | None = None  # what made the outputs, and from which recipes: what
    recipes: list[Recipe] = field(default_factory=list)  # serve keeps (live.py)

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@dataclass(frozen=True)
class BuildRequest:
    """What a build is asked for. `media`: where resized images and social cards are
    kept between builds (None: made each time)."""

    site_dir: Path
    options: LoadOptions
    media: MediaCache | None = None


class MemorySink:
    """Outputs kept in memory, whole (check, serve, tests). `workers`: work may go to
    forked processes (`check`, serve's first build); not from a process with threads of
    its own (serve's rebuilds): forking one is not safe."""

    def __init__(self, workers: bool = False) -> None:
        self.outputs: list[Output] = []
        self.workers = workers
        self.made = 0

    @contextmanager
    def session(self, site_dir: Path) -> Iterator[MemorySink]:
        self.outputs = []
        yield self

    def store(self, output: Output) -> Output:
        return whole(output)

    def receive(self, output: Output) -> None:
        self.outputs.append(output)
        self.made += 1

    @property
    def written(self) -> WriteStats | None:
        return None


class DiskSink:
    """Outputs written where they are made, by the process that made them, into a new
    folder that takes the place of `out_dir` once every file is written (writer.py): an
    error met while rendering leaves the previous site as it was."""

    workers = True

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.outputs: list[Output] = []  # none kept: they are on disk
        self.made = 0  # outputs made so far, for the progress line
        self.written: WriteStats | None = None
        self._site: NewSite | None = None

    @contextmanager
    def session(self, site_dir: Path) -> Iterator[DiskSink]:
        with new_site(self.out_dir, site_dir) as writer, flushed(writer.flush):
            self._site = writer
            try:
                yield self
            finally:
                self._site = None
        self.written = writer.stats

    def store(self, output: Output) -> Output:
        assert self._site is not None
        return self._site.store(output)

    def receive(self, receipt: Output) -> None:
        assert self._site is not None
        self._site.receive(receipt)
        self.made += 1


def _makers(request: BuildRequest, languages: list[Tree], sink: MemorySink | DiskSink,
            ) -> list[tuple[Tree, Maker, list[Recipe]]]:
    """The maker and the recipes of each language's tree (one, for most sites): every
    tree planned before any is made, for each page's versions in the other languages."""
    made = []
    for tree in languages:
        theme = Theme.for_site(request.site_dir, compiled_templates, tree.site.messages)
        maker = Maker(tree.site, theme, _stored_in(tree.folder, sink.store), request.media,
                      sink.workers)
        made.append((tree, maker, maker.plan()))
    versions = Versions(languages, [recipes for _, _, recipes in made])
    for at, (tree, maker, recipes) in enumerate(made):
        maker.theme.env.globals["alternates"] = versions.of(at)
        if len(made) > 1:
            made[at] = (tree, maker, tree_plan(recipes, versions, at))
    return made


def prepare(request: BuildRequest) -> tuple[list[Diagnostic],
                                            list[tuple[Tree, Maker, list[Recipe]]]]:
    """The site loaded and planned as a build does it, each tree's maker ready, nothing
    made: for a command that makes a few outputs of its own from them (`announce`)."""
    try:
        site, diagnostics = load_site(request.site_dir, request.options, False)
        if site is None or has_errors(diagnostics):
            return diagnostics, []
        return diagnostics, _makers(request, trees(site), MemorySink())
    except BuildError as exc:
        return exc.diagnostics, []


def _stored_in(folder: str, store: Store) -> Store:
    """`store` for a tree's outputs: each under the tree's folder."""
    if not folder:
        return store
    return lambda output: store(dataclasses.replace(output, path=folder + output.path))


def run(request: BuildRequest, sink: MemorySink | DiskSink) -> BuildResult:
    """The one way a site is built: load, then render into `sink` in one stream; the
    media the build did not use leave the media cache once the site is in place."""
    started = time.perf_counter()
    result = BuildResult()
    try:
        with collector_paused():
            site, result.diagnostics = load_site(request.site_dir, request.options,
                                                 sink.workers)
        result.site = site
        if site is not None:
            made = _makers(request, trees(site), sink)
            result.diagnostics += card_warnings((maker, recipes) for _, maker, recipes in made)
            result.counts = (len(made[0][0].site.upcoming), len(made[0][0].site.past))
            with sink.session(request.site_dir):
                for _, maker, recipes in made:
                    # closing(): on an error, the workers stop before the new site is removed
                    with closing(maker.run(recipes)) as outputs:
                        for output in outputs:
                            sink.receive(output)
                if len(made) > 1:
                    for output in root_files([tree for tree, _, _ in made]):
                        sink.receive(sink.store(output))
            for tree, maker, recipes in made:  # the feeds' events are made by now
                result.diagnostics += size_warnings(maker, recipes, tree.folder)
            if len(made) == 1:  # serve edits a site of one language in place (live.py)
                result.maker, result.recipes = made[0][1], made[0][2]
            result.written = sink.written
            result.outputs = sink.outputs
            if result.written is not None and request.media is not None:
                request.media.prune()
    except BuildError as exc:
        result.diagnostics += exc.diagnostics
    finally:
        gc.unfreeze()
    result.seconds = time.perf_counter() - started
    return result
