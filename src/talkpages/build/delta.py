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
same code as a full build, and every other output is the last build's. In any other
case, and if anything goes wrong on the way, the full build does the work: this is
only a shorter way to the same bytes, and the tests compare the two after many random
edits.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
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
from ..output.plan import shape
from ..output.render import Maker
from .fingerprint import Inputs
from .store import DiskCache
from .writer import Staging, Unavailable, WriteStats

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


def build(site_dir: Path, out_dir: Path, options: LoadOptions, store: DiskCache,
          inputs: Inputs, fingerprint: str,
          ) -> tuple[WriteStats, list[Diagnostic], tuple[int, int]] | None:
    """What the writer did, the build's warnings and the number of upcoming and past
    talks; None: a full build is needed."""
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
        return _make(site_dir, out_dir, site, Maker(site, theme, store, keys), store, talks,
                     fingerprint, warnings, previous)
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


def _make(site_dir: Path, out_dir: Path, site: Site, maker: Maker, store: DiskCache,
          changed: dict[str, Talk], fingerprint: str, warnings: list[Diagnostic],
          previous: dict[str, Any]) -> tuple[WriteStats, list[Diagnostic], tuple[int, int]]:
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
    outputs = store.outputs()
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
    staging = Staging(out_dir, site_dir, store.folder)
    if not staging.last_build() or staging.last_build() != previous.get("fingerprint"):
        staging.close()  # the output is not the last build's (or it was deleted)
        raise _NotAvailable
    store.staging = staging
    try:
        for recipe, old in recipes:
            key = maker.key(recipe)
            store.planned(recipe, key, outputs[recipe.path][3])  # it shows the same talks
            kept = store.known_page(key, recipe.path, recipe.origin)
            if kept is None:  # the large ones changed where their talks are, if they can be
                base = outputs[recipe.path][1]
                spliced = maker.splice(recipe, old, base) if staging.has(recipe.path, base) \
                    else None
                kept = store.remember_page(key, spliced or maker.make(recipe))
            staging.add(kept)
        staging.keep_the_rest(set(affected))
    except Unavailable:  # a file it would keep is gone or replaced: a full build
        staging.close()
        raise _NotAvailable from None
    except BaseException:
        staging.close()
        raise
    written = staging.commit(fingerprint)
    return written, warnings, tuple(previous["counts"])  # type: ignore[return-value]
