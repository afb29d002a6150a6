"""A site kept in memory while `serve` runs, and an edit to talk files made in it at
once, as Hugo's and Eleventy's servers do: the talks read again, and only the outputs
that read them made again.

What an output reads is known from its recipe (plan.py): the talks in its context (a
talk's page, its neighbours' pages, the lists and pages that show it), the fragments in
its pieces (feeds, talks.json, search.json, the talk's own .ics) and the talk it comes
from (its card, its images, its files and old addresses). That is the dependency map,
`readers`, made once per whole build.

An edit is made in place only while the plan stays what it was, which is so when the
edited talks keep what decides where a talk is shown (`placing`: its address, its dates,
its tags, its speakers, its picture and files…), no talk started or ended since the
site was built (`next_change`), and the theme is the built-in one: a site's own
templates may show any talk on any page, so such a site is built whole at each change.
Anything else is built whole, as `build` builds it. tests/test_serve_live.py holds the
edits made in place to the outputs of a whole build of the same files, byte for byte.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from ..content.changes import next_change as _next_change
from ..content.loader import BUNDLE_INDEX, TALKS_DIR, LoadOptions, load_talk, published
from ..content.model import Site, Talk, slugify
from ..content.sequencelock import sequenced
from ..diagnostics import BuildError, Diagnostic, has_errors
from ..output.outputs import Output, fragment_key, whole
from ..output.plan import PAGE, TALK, Recipe
from ..output.render import FRAGMENTS, Maker
from ..output.theme import Sandbox, Theme
from .bytecode import compiled_templates


@dataclasses.dataclass
class LiveSite:
    site: Site
    maker: Maker
    recipes: list[Recipe]
    outputs: dict[str, Output]
    readers: dict[str, list[int]]  # a talk's file -> the numbers of the recipes that read it
    next_change: datetime | None  # when a talk next starts or ends: the pages change then

    @classmethod
    def of(cls, site: Site, maker: Maker, recipes: list[Recipe],
           outputs: Iterable[Output]) -> LiveSite:
        """The site as a whole build made it."""
        return cls(site, maker, recipes, {output.path: output for output in outputs},
                   _readers(site, recipes), _next_change(site.talks, site.now))

    def edited(self, changed: list[Path], options: LoadOptions,
               pages_made: Callable[[dict[str, Output]], None] | None = None,
               ) -> tuple[LiveSite, list[Diagnostic], int] | None:
        """The site with the talk files `changed` read again and what reads them made
        again, with the files' warnings and the number of outputs made; None when the
        edit takes a whole build (see the module's docstring). The pages are made first:
        `pages_made` is given the site's outputs once they are (the feeds and other
        files as they were), so that a server shows them before the rest is made."""
        site = self.site
        if isinstance(self.maker.theme.env, Sandbox):
            return None
        if self.next_change is not None and options.now >= self.next_change:
            return None
        by_file = {talk.source: talk for talk in site.talks}
        talks_dir = site.root / TALKS_DIR
        swaps: dict[int, Talk] = {}
        problems: list[Diagnostic] = []
        for path in changed:
            old = by_file.get(path)
            if old is None or not os.path.isfile(path):
                return None  # a new file, a file gone, or not a talk at all
            new, found = load_talk(path, _default_slug(path, talks_dir), site.config,
                                   old.bundle_files)
            if new is None or has_errors(found) or not published(new, options) \
                    or placing(new, site.now) != placing(old, site.now):
                return None
            swaps[id(old)] = sequenced(site.config, [new], site.locked)[0]
            problems += found
        try:
            return self._remade(swaps, pages_made), problems, len(self._touched(swaps))
        except BuildError:
            return None  # a whole build reports it where it belongs

    def _touched(self, swaps: Mapping[int, Talk]) -> list[int]:
        files = {talk.file for talk in swaps.values()}
        return sorted({number for file in files for number in self.readers.get(file, ())})

    def _remade(self, swaps: dict[int, Talk],
                pages_made: Callable[[dict[str, Output]], None] | None) -> LiveSite:
        old = self.site
        site = dataclasses.replace(old, talks=tuple(swaps.get(id(t), t) for t in old.talks))
        # A theme of its own: the old one's templates hold the filters of the old site.
        theme = Theme.for_site(site.root, compiled_templates,
                               site.messages)
        maker = Maker(site, theme, whole, self.maker.media, workers=False)
        maker.fragments.update(self.maker.fragments)
        maker.zones.update(self.maker.zones)
        for talk in swaps.values():
            for kind in FRAGMENTS:
                maker.fragments[fragment_key(kind, talk)] = maker.makers[kind](talk)
        recipes = list(self.recipes)
        outputs = dict(self.outputs)
        touched = self._touched(swaps)
        pages = [n for n in touched if recipes[n].kind in (TALK, PAGE)]
        rest = [n for n in touched if recipes[n].kind not in (TALK, PAGE)]
        for batch in (pages, rest):
            for number in batch:
                recipe = recipes[number] = dataclasses.replace(
                    recipes[number], context=_swapped(recipes[number].context, swaps))
                outputs[recipe.path] = whole(maker.make(recipe))
            if batch is pages and pages_made is not None:
                pages_made(dict(outputs))
        return LiveSite(site, maker, recipes, outputs, self.readers, self.next_change)


def placing(talk: Talk, now: datetime) -> tuple[Any, ...]:
    """What decides where a talk is shown and what is made for it: its address and old
    ones, its dates, whether it is over, its tags and speakers, its picture, files and
    dates of publishing and change, its series. Two versions of a talk that agree here are listed on
    the same pages in the same places, and have the same files made for them."""
    return (talk.slug, talk.aliases, talk.schedule, talk.recurrence, talk.is_upcoming(now),
            talk.tags, talk.authors, talk.draft, talk.publish_date, talk.lastmod, talk.image,
            talk.bundle_files, talk.series)


def _readers(site: Site, recipes: list[Recipe]) -> dict[str, list[int]]:
    """For each talk's file, the recipes whose outputs show something of the talk."""
    files = {talk.file for talk in site.talks}
    readers: dict[str, list[int]] = {}
    for number, recipe in enumerate(recipes):
        found: set[str] = set()
        _talks_in(recipe.context, found)
        found.update(file for file, _ in recipe.pieces)
        if recipe.origin in files:
            found.add(recipe.origin)
        for file in found:
            readers.setdefault(file, []).append(number)
    return readers


def _talks_in(value: Any, found: set[str]) -> None:
    if isinstance(value, Talk):
        found.add(value.file)
    elif isinstance(value, Mapping):
        for item in value.values():
            _talks_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _talks_in(item, found)


def _swapped(value: Any, swaps: Mapping[int, Talk]) -> Any:
    """`value` with each talk of `swaps` (by its id) replaced by its new version."""
    if isinstance(value, Talk):
        return swaps.get(id(value), value)
    if isinstance(value, Mapping):
        return {key: _swapped(item, swaps) for key, item in value.items()}
    if isinstance(value, list):
        return [_swapped(item, swaps) for item in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_swapped(item, swaps) for item in value)
    return value


def _default_slug(path: Path, talks_dir: Path) -> str:
    """The slug a talk file has by its name, as the loader gives it."""
    if path.name == BUNDLE_INDEX and path.parent.parent == talks_dir:
        return slugify(path.parent.name)
    return slugify(path.stem)
