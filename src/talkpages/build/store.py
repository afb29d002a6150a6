"""The lasting cache of `talkpages build`: `.talkpages-cache/` in the site folder.

What it keeps, so that the next build redoes only what changed (cache.py has the keys):

- every talk file's Talk (or problems), with the file's modification time, size, inode
  and change time when it was read: a file with the same four is not read again;
- every output's key, the digest of its bytes, its recipe (plan.py, with talks named
  by their file) and the talk files it shows: an output whose key is unchanged is not
  made again while the previous build's files still hold those bytes (the twin of the
  output keeps them even when the output folder is deleted: writer.py), and a build
  that changes a few talks makes again only the outputs that show them (delta.py);
- fragments: each talk's calendar event, list item, talks.json record and search row.

Talks, recipes and fragments are blobs of the pack (pack.py), each verified when it is
read (one that does not verify starts the build again from nothing: see pipeline.py).
Where they are is the state, signed with the same key (signed.py): a cache folder that
came with a repository is ignored. The state is written whole when a build has
succeeded, never before: a failed or interrupted build leaves the state of the last
good one. (At 10,000 talks the state is 7.5 MB, written in a tenth of a second: a
journal of changes beside it would save that much after an edit, at the price of a
second format.) Builds of one site take turns (cachedir.py).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..content.loader import TalkInputs, TalkResult
from ..content.model import Talk
from ..output.outputs import Output
from ..output.plan import Recipe
from ..output.theme import Theme
from ..stamps import Stamp, stamp
from . import signed
from .bytecode import compiled_templates
from .cache import BuildCache
from .cachedir import CacheFolder
from .outfolder import digest_bytes
from .pack import Pack, Place
from .recipes import recipe_bytes, recipe_from
from .writer import Staging

FORMAT = 5  # 5: the state written whole after every build
Kept = tuple[str | None, str, Place | None, tuple[int, ...]]  # key, digest, recipe, talks


class DiskCache(BuildCache):
    parallel = True

    def __init__(self, folder: CacheFolder):
        super().__init__()
        self.folder = folder.path
        self.staging: Staging | None = None  # what the writer can keep (pipeline.py sets it)
        self.build: dict[str, Any] = {}  # what the last build was asked for (delta.py)
        self._dir = folder
        self._owner = os.getpid()
        self._theme: Theme | None = None
        self._pack: Pack | None = None
        self._talks: dict[str, tuple[Stamp, TalkInputs, Place]] = {}
        self._outputs: dict[str, Kept] = {}
        self._paths: list[str] = []  # talk files, by the numbers outputs name them with
        self._index: dict[str, Place] = {}  # fragments
        self.delta = False  # a build that makes a few outputs again keeps all the rest

    @classmethod
    def open(cls, site_dir: Path) -> DiskCache | None:
        """The site's cache, locked for this build; None where it cannot be made (a
        read-only site folder): the build then keeps nothing."""
        folder = CacheFolder.open(site_dir)
        return None if folder is None else cls(folder)

    def theme(self, site_dir: Path) -> Theme:
        """The site's theme, read once a build (a delta build that gives up asks again)."""
        if self._theme is None:
            self._theme = Theme.for_site(site_dir, compiled_templates)
        return self._theme

    @property
    def _blobs(self) -> Pack:
        assert self._pack is not None, "start() reads the state and opens the pack"
        return self._pack

    def close(self) -> None:
        if self._pack is not None:
            self._pack.close()
        self._dir.close()

    def start(self) -> None:
        super().start()
        if self._pack is None:
            self._load()
        self._seen_talks: set[str] = set()
        self._seen_outputs: dict[str, Kept] = {}
        self._seen_fragments: set[str] = set()
        self._pending: dict[str, Stamp | None] = {}
        self._plans: dict[str, tuple[str | None, Place | None, tuple[int, ...]]] = {}

    def _load(self) -> None:
        """Read the state of the last build, with the garbage collector paused (see
        build._loading: unpickling is three times faster)."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            state = signed.read(self.folder / "state")
        finally:
            if enabled:
                gc.enable()
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            state = {}
        self._pack = Pack(self.folder, state.get("pack", ""), state.get("pack_inode", 0),
                          state.get("pack_end", 0))
        if not self._pack.found:
            state = {}
        self._talks = state.get("talks", {})
        self._outputs = state.get("outputs", {})
        self._paths = state.get("paths", [])
        self._index = state.get("fragments", {})
        self._ids = {path: number for number, path in enumerate(self._paths)}
        self.build = state.get("build", {})

    def forget(self) -> None:
        """Start again from nothing: something the cache held did not verify."""
        if self._pack is not None:
            self._pack.close()
        self._pack = Pack(self.folder)
        self._talks, self._outputs, self._paths, self._ids, self._index = {}, {}, [], {}, {}
        self.build, self.staging, self.delta = {}, None, False

    def drop(self) -> None:
        """Keep nothing for the next build (this one's state could not be saved)."""
        with contextlib.suppress(OSError):
            os.unlink(self.folder / "state")

    # -- talks

    def known_talk(self, path: Path, inputs: TalkInputs) -> TalkResult | None:
        name = str(path)
        self._seen_talks.add(name)
        signature = stamp(path)
        kept = self._talks.get(name)
        if signature is not None and kept is not None and kept[:2] == (signature, inputs):
            result = self._talk(kept[2])
            if result is not None:
                self.stats.talks_reused += 1
                return result
        self._pending[name] = signature  # taken before the file is read
        return None

    def remember_talk(self, path: Path, inputs: TalkInputs, result: TalkResult,
                      blob: bytes | None = None) -> None:
        super().remember_talk(path, inputs, result, blob)
        signature = self._pending.pop(str(path), None)
        if signature is not None:
            self._talks[str(path)] = (signature, inputs, self._blobs.append(
                blob or pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)))

    def stored_inputs(self, path: str) -> TalkInputs | None:
        """What besides its file the stored Talk of a file was made from (delta.py)."""
        kept = self._talks.get(path)
        return None if kept is None else kept[1]

    def stored_talk(self, path: str) -> Talk | None:
        """The Talk of a file as the last build read it (delta.py)."""
        kept = self._talks.get(path)
        result = self._talk(kept[2]) if kept is not None else None
        return result[0] if result is not None else None

    def _talk(self, place: Place) -> TalkResult | None:
        try:
            result = pickle.loads(self._blobs.read(place))
        except Exception:  # noqa: BLE001 - damaged, or of an older version: read the file
            return None
        return result  # type: ignore[no-any-return]

    # -- outputs

    def planned(self, recipe: Recipe, key: str | None,
                sources: tuple[int, ...] | None = None) -> None:
        """Keep the recipe of an output whose key is new (an old one is still right);
        `sources`: the talk files it shows, by number, when known already."""
        if key is None:
            self._plans[recipe.path] = (None, None, ())
            return
        kept = self._outputs.get(recipe.path)
        if kept is not None and kept[0] == key and kept[2] is not None:
            self._plans[recipe.path] = (key, kept[2], kept[3])
            return
        data = recipe_bytes(recipe)
        if sources is None:
            sources = tuple(sorted(map(self._id, recipe.sources())))
        self._plans[recipe.path] = (key, self._blobs.append(data), sources)

    def _id(self, path: str) -> int:
        number = self._ids.get(path)
        if number is None:
            number = self._ids[path] = len(self._paths)
            self._paths.append(path)
        return number

    def showing(self, sources: Iterable[str]) -> list[str]:
        """The outputs of the last build that show one of these talk files."""
        numbers = {self._ids[path] for path in sources if path in self._ids}
        return [path for path, kept in self._outputs.items() if not numbers.isdisjoint(kept[3])]

    def recipe(self, path: str, talk: Callable[[str], Talk]) -> Recipe | None:
        """The recipe of an output of the last build, its talks given by `talk(file)`."""
        kept = self._outputs.get(path)
        if kept is None or kept[2] is None:
            return None
        return recipe_from(self._blobs.read(kept[2]), talk)

    def outputs(self) -> dict[str, tuple[str | None, str, Place | None, tuple[int, ...]]]:
        """Every output of the last build: key, digest, recipe and the talk files shown."""
        return self._outputs

    def known_page(self, key: str | None, path: str, origin: str) -> Output | None:
        kept = self._outputs.get(path)
        if key is None or kept is None or kept[0] != key or self.staging is None \
                or not self.staging.has(path, kept[1]):
            return None
        self._seen_outputs[path] = kept
        self.stats.pages_reused += 1
        return Output(path, digest=kept[1], origin=origin)

    def remember_page(self, key: str | None, output: Output) -> Output:
        """Its digest: of its bytes; of its key for large ones made as a stream or as
        changes of the last build's (equal keys make equal bytes: see cache.py)."""
        output = super().remember_page(key, output)
        if output.data is not None:
            digest = output.digest or digest_bytes(output.data)
        elif key is not None and (output.chunks is not None or output.splice is not None):
            digest = digest_of_key(key)
        else:
            digest = output.digest  # a copied file: the writer works it out
        self._remember(output.path, key, digest)
        return replace(output, digest=digest) if digest != output.digest else output

    def _remember(self, path: str, key: str | None, digest: str) -> None:
        plan = self._plans.get(path, (key, None, ()))
        self._seen_outputs[path] = (key, digest, plan[1] if plan[0] == key else None, plan[2])

    # -- fragments

    def fragment(self, key: str) -> bytes | None:
        found = super().fragment(key)
        if found is not None:
            return found
        place = self._index.get(key)
        if place is None:
            return None
        self._seen_fragments.add(key)
        return self._blobs.read(place)

    def fragment_lengths(self, keys: list[str]) -> list[int | None]:
        places = [self._index.get(key) for key in keys]
        if None in places:
            return super().fragment_lengths(keys)
        return [place[1] - signed.SEAL for place in places]  # type: ignore[index]

    def has_fragment(self, key: str) -> bool:
        if key in self._index:
            self._seen_fragments.add(key)
            return True
        return super().has_fragment(key)

    def remember_fragment(self, key: str, data: bytes) -> None:
        if os.getpid() != self._owner:
            super().remember_fragment(key, data)  # a worker's own, for this job only
            return
        self._index[key] = self._blobs.append(data)
        self._seen_fragments.add(key)

    def flush(self) -> None:
        if self._pack is not None and os.getpid() == self._owner:
            self._pack.flush()

    # -- the end of a build

    def finish(self) -> None:
        """Save what this build used, once its output is in place."""
        if self.staging is not None:  # digests the writer worked out (copied files)
            for path, kept in self._seen_outputs.items():
                if not kept[1]:
                    self._seen_outputs[path] = (kept[0], self.staging.digest(path), *kept[2:])
        pack = self._pack
        assert pack is not None
        pack.flush()
        if self.delta:  # a few outputs made again: the rest stays
            self._outputs.update(self._seen_outputs)
        else:
            self._talks = {k: v for k, v in self._talks.items() if k in self._seen_talks}
            self._outputs = self._seen_outputs
            self._index = {k: v for k, v in self._index.items() if k in self._seen_fragments}
            self._compact(pack)
        signed.write(self.folder / "state", {
            "format": FORMAT, "talks": self._talks, "outputs": self._outputs,
            "paths": self._paths, "fragments": self._index, "build": self.build,
            "pack": pack.name, "pack_inode": pack.inode, "pack_end": pack.end}, plain=True)
        pack.remove_others()

    def _compact(self, pack: Pack) -> None:
        """The pack written again when most of it is no longer in use."""
        moved = pack.compacted([*self._index.values(),
                                *(kept[2] for kept in self._talks.values()),
                                *(kept[2] for kept in self._outputs.values() if kept[2])])
        if moved is None:
            return
        self._index = {key: moved[place] for key, place in self._index.items()}
        self._talks = {path: (*kept[:2], moved[kept[2]]) for path, kept in self._talks.items()}
        self._outputs = {path: (kept[0], kept[1], None if kept[2] is None else moved[kept[2]],
                                kept[3]) for path, kept in self._outputs.items()}


def digest_of_key(key: str) -> str:
    return hashlib.blake2b(f"output\0{key}".encode(), digest_size=16).hexdigest()
