"""A build after a few talk files changed makes again only the outputs that show them.

Taken only when the result is the result of a full build:

- the last build was asked for the same (the same time, `--drafts`, `--future`,
  `--base-url`), and nothing but talk files changed since: talkpages.toml,
  speakers.toml, the theme, talkpages itself, bundle files and the set of talk files are
  as they were (fingerprint.Inputs);
- every changed file still gives a talk, with no error, and of the same shape
  (plan.shape: its address, order, upcoming or past, tags, speakers, year, publishing,
  zone): then the plan of this build is the plan of the last one (plan.py), with the
  changed talks' other fields in it.

The outputs whose recipes show a changed talk are made again from their recipes, by the
same code as a full build, and written by the same sink, which keeps every other file
of the output as the last build left it (writer.Kept). In any other case, and if
anything goes wrong on the way, the full build does the work: this is only a shorter
way to the same bytes, and the tests compare the two after many random edits.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..content.config import load_config
from ..content.loader import LoadOptions, load_talk
from ..content.model import Site, Talk
from ..content.speakers import load_speakers
from ..diagnostics import Diagnostic
from ..digests import config_key as digest_of_config
from ..output.keys import Keys
from ..output.kinds import KINDS
from ..output.outputs import Output
from ..output.plan import Recipe, shape
from ..output.render import Maker
from .fingerprint import Inputs
from .store import DiskCache
from .writer import Kept

MAX_CHANGED = 50  # more changed talks than this: the full build is as quick


class _NotAvailable(Exception):
    """A delta build has no list of all talks: code that asks for it needs a full build."""


class _NoTalks(tuple):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise _NotAvailable

    def __len__(self) -> int:
        raise _NotAvailable

    def __getitem__(self, index: Any) -> Any:
        raise _NotAvailable


def options_of(options: LoadOptions) -> tuple[Any, ...]:
    return (options.now.isoformat(), options.drafts, options.future,
            sorted((options.overrides or {}).items()))


@dataclass
class Shortcut:
    """A build after a few talks changed: the outputs it makes again (a stream for the
    sink, made as they are written), those it keeps as the output has them (every
    other), the build whose output it changes, its warnings and the number of upcoming
    and past talks."""
    outputs: Iterator[Output]
    kept: Kept
    warnings: list[Diagnostic]
    counts: tuple[int, int]


def plan(site_dir: Path, options: LoadOptions, store: DiskCache, inputs: Inputs,
         ) -> Shortcut | None:
    """The shorter way to this build's output; None: a full build is needed."""
    previous = store.build
    if not previous or previous.get("rest") != inputs.rest \
            or previous.get("options") != options_of(options):
        return None
    old_files: dict[str, Any] = previous["talk_files"]
    if old_files.keys() != inputs.talks.keys():
        return None
    changed = [path for path, stat in inputs.talks.items() if old_files[path] != stat]
    if not changed or len(changed) > MAX_CHANGED:
        return None
    site, talks, warnings = _changed_talks(site_dir, options, store, changed)
    if site is None:
        return None
    theme = store.theme(site_dir)
    if theme.reads_site_state:
        return None
    try:
        keys = Keys(site, theme)
        if [keys.content, keys.pages] != list(previous["keys"]):
            return None
        return _plan(Maker(site, theme, store, keys), store, talks, warnings, previous)
    except _NotAvailable:
        store.delta = False
        return None


def _changed_talks(site_dir: Path, options: LoadOptions, store: DiskCache, changed: list[str],
                   ) -> tuple[Site | None, dict[str, Talk], list[Diagnostic]]:
    """The changed talks, read again, if each has the shape it had; and the warnings."""
    config, problems = load_config(site_dir, options.overrides)
    speakers, found = load_speakers(site_dir)
    config_key = digest_of_config(config)
    site = Site(root=site_dir, config=config, talks=_NoTalks(), now=options.now,
                speakers=speakers)
    talks: dict[str, Talk] = {}
    kept = store.build.get("warnings")
    warnings = [d for d in (pickle.loads(kept) if kept else [])  # noqa: S301 - signed state
                if str(d.path) not in changed]
    for path in changed:
        given = store.stored_inputs(path)
        if given is None or given[2] != config_key or not path.endswith(".md"):
            return None, {}, []  # not a talk file the last build read, or read otherwise
        source = Path(path)
        store.known_talk(source, given)  # the file's times, taken before it is read
        talk, found_here = load_talk(source, given[0], config, given[1], config_key)
        old = store.stored_talk(path)
        if talk is None or old is None or any(d.is_error for d in found_here) \
                or shape(talk, options.now) != shape(old, options.now):
            return None, {}, []
        store.remember_talk(source, given, (talk, found_here))
        talks[path] = talk
        warnings += found_here
    if any(d.is_error for d in problems + found):
        return None, {}, []
    return site, talks, warnings


def _plan(maker: Maker, store: DiskCache, changed: dict[str, Talk],
          warnings: list[Diagnostic], previous: dict[str, Any]) -> Shortcut:
    talks: dict[str, Talk] = dict(changed)

    def talk(path: str) -> Talk:
        if path not in talks:
            found = store.stored_talk(path)
            if found is None:
                raise _NotAvailable
            talks[path] = found
        return talks[path]

    store.delta = True
    for new in changed.values():
        maker.fragments(new)
    affected = store.showing(changed.keys())
    recipes = []  # each with the recipe of the last build
    for path in affected:
        old = store.recipe(path, talk)
        if old is None:
            raise _NotAvailable
        recipe = old
        if old.pieces:  # feeds and site files name their talks' fragments by key
            kind = KINDS[old.kind].piece
            recipe = replace(old, pieces=tuple(
                (source, maker.keys.fragment(kind, changed[source]) if source in changed
                 else key) for source, key in old.pieces))
        recipes.append((recipe, old))
    kept = Kept(set(affected), previous.get("fingerprint", ""))
    return Shortcut(_made(maker, store, recipes), kept, warnings,
                    tuple(previous["counts"]))  # type: ignore[arg-type]


def _made(maker: Maker, store: DiskCache, recipes: list[tuple[Recipe, Recipe]],
          ) -> Iterator[Output]:
    """The outputs that show a changed talk, made again by the same code as a full
    build's; a large one as changes of the last build's file where it can be."""
    outputs = store.outputs()
    for recipe, old in recipes:
        key = maker.key(recipe)
        store.planned(recipe, key, outputs[recipe.path][3])  # it shows the same talks
        kept = store.known_page(key, recipe.path, recipe.origin)
        if kept is None:
            base = outputs[recipe.path][1]
            spliced = maker.splice(recipe, old, base) if store.staging is not None \
                and store.staging.has(recipe.path, base) else None
            kept = store.remember_page(key, spliced or maker.make(recipe))
        yield kept
