"""The lasting cache of `talkpages build`: `.talkpages-cache/` in the site folder.

What it keeps, so that the next build redoes only what changed (cache.py has the keys):

- every talk file's Talk (or problems), with the file's modification time, size, inode
  and change time when it was read: a file with the same four is not read again;
- every output's key, the digest of its bytes, its recipe (plan.py, with talks named
  by their file) and the talk files it shows: an output whose key is unchanged is not
  made again while the previous build's files still hold those bytes (the twin of the
  output, writer.py, keeps them even when the output folder is deleted), and a build
  that changes a few talks makes again only the outputs that show them (delta.py);
- fragments: each talk's calendar event, list item, talks.json record and search row.

Talks, recipes and fragments are blobs in one append-only pack file, read back one by
one, never all at once, each sealed with a MAC of the user's key and verified when it
is read (a blob that does not verify starts the build again from nothing: see
pipeline.py); an index of them is the state, signed with the same key (signed.py): a
cache folder that came with a repository is ignored. The state is
written when a build has succeeded, never before: a failed or interrupted build leaves
the state of the last good one. Builds of one site take turns (cachedir.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import io
import marshal
import os
import pickle
import stat
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from ..content.loader import TalkInputs, TalkResult
from ..content.model import Talk
from ..diagnostics import BuildError, Diagnostic
from ..output.outputs import Output
from ..output.plan import TALK, Recipe
from ..output.theme import Theme
from ..stamps import Stamp, stamp
from . import signed
from .cache import BuildCache
from .cachedir import CacheFolder
from .outfolder import digest_bytes
from .owned import mine, read_file
from .writer import Staging

FORMAT = 4  # 4: every blob of the pack sealed
JOURNAL = "journal"
JOURNAL_SHARE = 0.25  # the state is written again when its notes have grown to this share
_NOTE = {"talks", "outputs", "fragments", "paths", "pack_end", "build", "talk_files",
         "generation"}
COMPACT_BELOW = 0.5  # the pack is rewritten when less than this share of it is in use
Place = tuple[int, int]  # offset and length of a blob in the pack


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
        self._loaded = False
        self._talks: dict[str, tuple[Stamp, TalkInputs, Place]] = {}
        self._outputs: dict[str, tuple[str | None, str, Place | None, tuple[int, ...]]] = {}
        self._paths: list[str] = []  # talk files, by the numbers outputs name them with
        self._index: dict[str, Place] = {}
        self._pack_name = ""
        self._pack: IO[bytes] | None = None
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
            self._theme = Theme.for_site(site_dir, signed.compiled_templates)
        return self._theme

    def close(self) -> None:
        if self._pack is not None:
            self._pack.close()
            self._pack = None
        self._dir.close()

    def start(self) -> None:
        super().start()
        if not self._loaded:
            self._load()
        self._seen_talks: set[str] = set()
        self._seen_outputs: dict[str, tuple[str | None, str, Place | None, tuple[int, ...]]] = {}
        self._seen_fragments: set[str] = set()
        self._pending: dict[str, Stamp | None] = {}
        self._changed_talks: set[str] = set()
        self._new_fragments: set[str] = set()
        self._plans: dict[str, tuple[str | None, Place | None, tuple[int, ...]]] = {}

    def _load(self) -> None:
        """Read the state of the last build, with the garbage collector paused (see
        build._loading: unpickling is three times faster)."""
        self._loaded = True
        enabled = gc.isenabled()
        gc.disable()
        try:
            state = signed.read(self.folder / "state")
        finally:
            if enabled:
                gc.enable()
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            state = {}
        self._talks = state.get("talks", {})
        self._outputs = state.get("outputs", {})
        self._paths = state.get("paths", [])
        if state:
            self._read_journal(state)
        self._saved_paths = len(self._paths)
        self._generation = state.get("generation", "")
        self._ids = {path: number for number, path in enumerate(self._paths)}
        self.build = state.get("build", {})
        self._pack_name = state.get("pack", "")
        self._open_pack(state)

    def _read_journal(self, state: dict[str, Any]) -> None:
        """The notes of the builds since the state was written, in order (see _journal);
        reading stops at one that is not whole or not signed by this user."""
        try:
            data = read_file(self.folder / JOURNAL)
        except OSError:
            return
        position = 0
        while position + 8 <= len(data):
            length = int.from_bytes(data[position:position + 8], "big")
            note = signed.loads(data[position + 8:position + 8 + length])
            if not isinstance(note, dict) or note.get("generation") != state.get("generation") \
                    or note.keys() != _NOTE:
                break  # not whole, not this user's, or notes on an older state
            self._talks.update(note["talks"])
            for output, kept in note["outputs"].items():
                self._outputs[output] = (*kept, self._outputs.get(output, (0, 0, 0, ()))[3])
            state.setdefault("fragments", {}).update(note["fragments"])
            self._paths += note["paths"]
            files = state.get("build", {}).get("talk_files", {})
            files.update(note["talk_files"])
            state["build"] = {**note["build"], "talk_files": files}
            state["pack_end"] = note["pack_end"]
            position += 8 + length

    def forget(self) -> None:
        """Start again from nothing: something the cache held did not verify."""
        if self._pack is not None:
            self._pack.close()
        self._new_pack()
        self._talks, self._outputs, self._paths, self._ids = {}, {}, [], {}
        self._saved_paths, self._generation, self.build = 0, "", {}
        self.staging, self.delta = None, False

    def drop(self) -> None:
        """Keep nothing for the next build (this one's state could not be saved)."""
        for name in ("state", JOURNAL):
            with contextlib.suppress(OSError):
                os.unlink(self.folder / name)

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
            self._talks[str(path)] = (signature, inputs, self._append(
                blob or pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)))
            self._changed_talks.add(str(path))

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
            result = pickle.loads(self._read(place))
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
        data = _recipe_bytes(recipe)
        if sources is None:
            sources = tuple(sorted(map(self._id, recipe.sources())))
        self._plans[recipe.path] = (key, self._append(data), sources)

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
        return _recipe(self._read(kept[2]), talk)

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

    def _open_pack(self, state: dict[str, Any]) -> None:
        """The pack of the state, if it is the very file the state was saved with."""
        path = self.folder / self._pack_name if self._pack_name else None
        try:
            if path is not None:
                descriptor = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK
                                     | os.O_CLOEXEC)
                status = os.fstat(descriptor)
                if mine(status, stat.S_IFREG) and status.st_nlink == 1 \
                        and state.get("pack_inode") == status.st_ino \
                        and status.st_size >= state.get("pack_end", 0):
                    self._index = state.get("fragments", {})
                    self._pack = open(descriptor, "r+b")  # noqa: SIM115 - kept for the build
                else:
                    os.close(descriptor)
        except OSError:
            pass
        if self._pack is None:
            self._new_pack()
            self._talks, self._outputs = {}, {}
        assert self._pack is not None
        self._end = self._written = self._opened_at = self._pack.seek(0, os.SEEK_END)

    def _new_pack(self) -> None:
        self._pack_name = f"fragments-{os.urandom(8).hex()}.pack"
        self._pack = open(os.open(  # noqa: SIM115 - kept for the build
            self.folder / self._pack_name,
            os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644), "w+b")
        self._index = {}
        self._end = self._written = self._opened_at = 0

    def _append(self, data: bytes) -> Place:
        assert self._pack is not None
        data = signed.seal(data)
        try:
            self._pack.write(data)
        except OSError as exc:
            raise self._failed(exc) from None
        place = (self._end, len(data))
        self._end += len(data)
        return place

    def _read(self, place: Place) -> bytes:
        """The data of a blob, verified (signed.Damaged if it is not what was sealed)."""
        assert self._pack is not None
        if place[0] + place[1] > self._written:
            self.flush()
        return signed.unseal(os.pread(self._pack.fileno(), place[1], place[0]))

    def fragment(self, key: str) -> bytes | None:
        found = super().fragment(key)
        if found is not None:
            return found
        place = self._index.get(key)
        if place is None or self._pack is None:
            return None
        self._seen_fragments.add(key)
        return self._read(place)

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
        if os.getpid() != self._owner or self._pack is None:
            super().remember_fragment(key, data)  # a worker's own, for this job only
            return
        self._index[key] = self._append(data)
        self._seen_fragments.add(key)
        self._new_fragments.add(key)

    def flush(self) -> None:
        if self._pack is not None and os.getpid() == self._owner:
            try:
                self._pack.flush()
            except OSError as exc:
                raise self._failed(exc) from None
            self._written = self._end

    def _failed(self, exc: OSError) -> BuildError:
        """The pack cannot be written (a full disk): the build stops, and what it added
        to the pack is cut off again, so that the disk is no fuller than it was."""
        if self._pack is not None:
            pack, self._pack = self._pack, None
            with contextlib.suppress(OSError):
                pack.close()
            with contextlib.suppress(OSError):
                os.truncate(self.folder / self._pack_name, self._opened_at)
        return BuildError([Diagnostic(self.folder, f"cannot write the build cache: {exc}",
                                      hint="make room on the disk; the cache may be deleted "
                                      "at any time")])

    # -- the end of a build

    def finish(self) -> None:
        """Save what this build used, once its output is in place."""
        if self.staging is not None:  # digests the writer worked out (copied files)
            for path, kept in self._seen_outputs.items():
                if not kept[1]:
                    self._seen_outputs[path] = (kept[0], self.staging.digest(path), *kept[2:])
        self.flush()
        assert self._pack is not None
        if self.delta:  # a few outputs made again: the rest stays, the changes are noted
            self._outputs.update(self._seen_outputs)
            if self._journal(self._seen_outputs):
                return
        else:
            self._talks = {k: v for k, v in self._talks.items() if k in self._seen_talks}
            self._outputs = self._seen_outputs
            self._index = {k: v for k, v in self._index.items() if k in self._seen_fragments}
            self._compact()
        self._generation = os.urandom(8).hex()
        signed.write(self.folder / "state", {
            "format": FORMAT, "generation": self._generation,
            "talks": self._talks, "outputs": self._outputs, "paths": self._paths,
            "fragments": self._index, "build": self.build, "pack": self._pack_name,
            "pack_inode": os.fstat(self._pack.fileno()).st_ino, "pack_end": self._end},
            plain=True)
        (self.folder / JOURNAL).unlink(missing_ok=True)
        for other in self.folder.glob("fragments-*.pack"):  # replaced, or of failed builds
            if other.name != self._pack_name:
                other.unlink(missing_ok=True)

    def _journal(self, outputs: dict[str, Any]) -> bool:
        """Note what a build that changed a few talks changed, after the state: writing
        the whole state again would take longer than the build. False when the notes
        have grown to a quarter of the state (it is then written again, whole)."""
        path = self.folder / JOURNAL
        files = self.build.get("talk_files", {})
        note = signed.dumps({  # an output shows the same talks as before: no sources
            "talks": {k: self._talks[k] for k in self._changed_talks if k in self._talks},
            "outputs": {k: v[:3] for k, v in outputs.items()},
            "fragments": {k: self._index[k] for k in self._new_fragments},
            "paths": self._paths[self._saved_paths:], "pack_end": self._end,
            "build": {k: v for k, v in self.build.items() if k != "talk_files"},
            "talk_files": {k: files[k] for k in self._changed_talks if k in files},
            "generation": self._generation}, plain=True)
        try:
            size = path.stat().st_size if path.exists() else 0
            if size + len(note) > (self.folder / "state").stat().st_size * JOURNAL_SHARE:
                return False
            journal = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
                              | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
            try:
                status = os.fstat(journal)  # appended to: never another's file, linked
                if not mine(status, stat.S_IFREG) or status.st_nlink != 1:
                    return False
                os.write(journal, len(note).to_bytes(8, "big") + note)
            finally:
                os.close(journal)
        except OSError:
            return False
        return True

    def _compact(self) -> None:
        """A new pack of the blobs in use, when most of the old one is not."""
        assert self._pack is not None
        live = sum(length for _, length in self._index.values())
        live += sum(kept[2][1] for kept in self._talks.values())
        live += sum(kept[2][1] for kept in self._outputs.values() if kept[2] is not None)
        if self._end == 0 or live >= self._end * COMPACT_BELOW:
            return
        old, fragments = self._pack, self._index
        self._new_pack()

        def moved(place: Place) -> Place:  # verified again: never sealed twice unread
            return self._append(signed.unseal(os.pread(old.fileno(), place[1], place[0])))

        index = {key: moved(place) for key, place in sorted(
            fragments.items(), key=lambda item: item[1][0])}
        self._talks = {path: (*kept[:2], moved(kept[2])) for path, kept in self._talks.items()}
        self._outputs = {path: (kept[0], kept[1], None if kept[2] is None else moved(kept[2]),
                                kept[3]) for path, kept in self._outputs.items()}
        self._index = index
        self.flush()
        old.close()


def _recipe_bytes(recipe: Recipe) -> bytes:
    """A recipe as the cache keeps it, talks by their file: a talk page's as its talk
    and neighbours, one of plain values (feeds, site files) with marshal, other pages
    pickled; the fastest way for each of a large site's tens of thousands."""
    if recipe.kind == TALK:
        context = recipe.context
        return b"t" + marshal.dumps(tuple(
            None if t is None else str(t.source)
            for t in (context["talk"], context["previous"], context["next"])))
    if not recipe.context and recipe.source is None:
        return b"m" + marshal.dumps(tuple(getattr(recipe, f.name)
                                          for f in dataclasses.fields(Recipe)))
    blob = io.BytesIO()
    _RecipePickler(blob).dump(recipe)
    return b"p" + blob.getvalue()


def _recipe(data: bytes, talk: Callable[[str], Talk]) -> Recipe:
    if data[:1] == b"t":
        found = [None if path is None else talk(path) for path in marshal.loads(data[1:])]
        page = found[0]
        assert page is not None
        return Recipe(f"{page.url}index.html", TALK, str(page.source), "talk.html", page.url,
                      {"talk": page, "previous": found[1], "next": found[2]})
    if data[:1] == b"m":
        return Recipe(*marshal.loads(data[1:]))
    unpickler = _RecipeUnpickler(io.BytesIO(data[1:]))
    unpickler.talk = talk
    return unpickler.load()  # type: ignore[no-any-return]


class _RecipePickler(pickle.Pickler):
    """Recipes with their talks by file, not whole: the plan of a large site stays small."""

    def persistent_id(self, obj: Any) -> str | None:
        return str(obj.source) if isinstance(obj, Talk) else None


class _RecipeUnpickler(pickle.Unpickler):
    talk: Callable[[str], Talk]

    def persistent_load(self, pid: Any) -> Talk:
        return self.talk(str(pid))


def digest_of_key(key: str) -> str:
    return hashlib.blake2b(f"output\0{key}".encode(), digest_size=16).hexdigest()

