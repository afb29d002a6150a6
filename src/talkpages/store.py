"""The lasting cache of `talkpages build`: `.talkpages-cache/` in the site folder.

What it keeps, so that the next build redoes only what changed (cache.py has the keys):

- the Talk (or the problems) of every talk file, with the file's modification time,
  size, inode and change time when it was read: a file with the same four is not read;
- the key of every output and the digest of its bytes: an output whose key is the same
  is not made again when the previous build's files still hold those bytes (the twin of
  the output, writer.py, keeps them even when the output folder is deleted);
- fragments (each talk's calendar event, list item, talks.json record, search row), in
  an append-only pack file read back piece by piece, never all at once.

It is written when a build has succeeded, never before: a failed or interrupted build
leaves the state of the last good one. Deleting the folder is always safe (the next
build is a cold one, with the same output). Its state is a pickle signed with the
user's key (signed.py): a cache folder that came with a repository is ignored. Builds of
one site take turns (cachedir.py).
"""

from __future__ import annotations

import gc
import hashlib
import os
from pathlib import Path
from typing import IO, Any

from . import signed
from .cache import BuildCache, TalkResult
from .cachedir import CacheFolder
from .writer import Output, Staging, digest_bytes

FORMAT = 1
COMPACT_BELOW = 0.5  # the pack is rewritten when less than this share of it is in use
SHARDS = 64  # files the talks are kept in
Signature = tuple[int, int, int, int]


class DiskCache(BuildCache):
    parallel = True

    def __init__(self, folder: CacheFolder):
        super().__init__()
        self.folder = folder.path
        self.staging: Staging | None = None  # what the writer can keep (build.py sets it)
        self._dir = folder
        self._owner = os.getpid()
        self._loaded = False
        self._talks: dict[str, tuple[Signature, str, TalkResult]] = {}
        self._changed_shards: set[str] = set()
        self._pages: dict[str, tuple[str, str]] = {}
        self._index: dict[str, tuple[int, int]] = {}
        self._pack_name = ""
        self._pack: IO[bytes] | None = None

    @classmethod
    def open(cls, site_dir: Path) -> DiskCache | None:
        """The site's cache, locked for this build; None where it cannot be made (a
        read-only site folder): the build then keeps nothing."""
        folder = CacheFolder.open(site_dir)
        return None if folder is None else cls(folder)

    def close(self) -> None:
        if self._pack is not None:
            self._pack.close()
            self._pack = None
        self._dir.close()

    def _load(self) -> None:
        """Read the state of the last build, with the garbage collector paused (see
        build._loading: unpickling ten thousand talks is three times faster)."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            self._read_state()
        finally:
            if enabled:
                gc.enable()

    def _read_state(self) -> None:
        self._loaded = True
        state = signed.read(self.folder / "state")
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            state = {}
        for shard in state.get("shards", ()):
            talks = signed.read(self.folder / "talks" / shard)
            if isinstance(talks, dict):
                self._talks.update(talks)
        self._pages = state.get("pages", {})
        self._pack_name = state.get("pack", "")
        self._open_pack(state)

    # -- talks

    def start(self) -> None:
        super().start()
        if not self._loaded:
            self._load()
        self._seen_talks: set[str] = set()
        self._seen_pages: set[str] = set()
        self._seen_fragments: set[str] = set()
        self._pending: dict[str, Signature | None] = {}
        self._streamed: dict[str, str] = {}  # path -> key of outputs written as chunks

    def known_talk(self, path: Path, inputs: str) -> TalkResult | None:
        name = str(path)
        self._seen_talks.add(name)
        signature = _signature(path)
        kept = self._talks.get(name)
        if signature is not None and kept is not None and kept[:2] == (signature, inputs):
            self.stats.talks_reused += 1
            return kept[2]
        self._pending[name] = signature  # taken before the file is read
        return None

    def remember_talk(self, path: Path, inputs: str, result: TalkResult) -> None:
        super().remember_talk(path, inputs, result)
        signature = self._pending.pop(str(path), None)
        if signature is not None:
            self._talks[str(path)] = (signature, inputs, result)
            self._changed_shards.add(_shard(str(path)))

    # -- pages

    def known_page(self, key: str | None, path: str, origin: str) -> Output | None:
        self._seen_pages.add(path)
        kept = self._pages.get(path)
        if key is None or kept is None or kept[0] != key or self.staging is None \
                or not self.staging.has(path, kept[1]):
            return None
        self.stats.pages_reused += 1
        return Output(path, digest=kept[1], origin=origin)

    def remember_page(self, key: str | None, output: Output) -> Output:
        output = super().remember_page(key, output)
        if key is None:
            self._pages.pop(output.path, None)
        elif output.chunks is not None:  # its digest is known once it is written
            self._streamed[output.path] = key
        else:
            digest = output.digest or digest_bytes(output.data or b"")
            self._pages[output.path] = (key, digest)
            output = Output(output.path, output.data, output.source, output.origin, digest)
        return output

    # -- fragments

    def _open_pack(self, state: dict[str, Any]) -> None:
        """The pack of the state, if it is the very file the state was saved with."""
        path = self.folder / self._pack_name if self._pack_name else None
        try:
            if path is not None and state.get("pack_inode") == path.stat().st_ino \
                    and path.stat().st_size >= state.get("pack_end", 0):
                self._index = state.get("fragments", {})
                self._pack = open(path, "r+b")  # noqa: SIM115 - kept for the build
        except OSError:
            pass
        if self._pack is None:
            self._new_pack()
        assert self._pack is not None
        self._end = self._written = self._pack.seek(0, os.SEEK_END)

    def _new_pack(self) -> None:
        self._pack_name = f"fragments-{os.urandom(4).hex()}.pack"
        self._pack = open(self.folder / self._pack_name, "w+b")  # noqa: SIM115
        self._index = {}

    def fragment(self, key: str) -> bytes | None:
        found = super().fragment(key)
        if found is not None:
            return found
        place = self._index.get(key)
        if place is None or self._pack is None:
            return None
        self._seen_fragments.add(key)
        if place[0] + place[1] > self._written:
            self.flush()
        return os.pread(self._pack.fileno(), place[1], place[0])

    def has_fragment(self, key: str) -> bool:
        if key in self._index:
            self._seen_fragments.add(key)
            return True
        return super().has_fragment(key)

    def remember_fragment(self, key: str, data: bytes) -> None:
        if os.getpid() != self._owner or self._pack is None:
            super().remember_fragment(key, data)  # a worker's own, for this job only
            return
        self._pack.write(data)
        self._index[key] = (self._end, len(data))
        self._end += len(data)
        self._seen_fragments.add(key)

    def flush(self) -> None:
        if self._pack is not None and os.getpid() == self._owner:
            self._pack.flush()
            self._written = self._end

    # -- the end of a build

    def finish(self) -> None:
        """Save what this build used, once its output is in place."""
        if self.staging is not None:
            for path, key in self._streamed.items():
                self._pages[path] = (key, self.staging.digest(path))
        gone = self._talks.keys() - self._seen_talks
        self._changed_shards.update(_shard(path) for path in gone)
        for path in gone:
            del self._talks[path]
        self._pages = {k: v for k, v in self._pages.items() if k in self._seen_pages}
        self._index = {k: v for k, v in self._index.items() if k in self._seen_fragments}
        self.flush()
        self._compact()
        assert self._pack is not None
        self._save_talks()
        signed.write(self.folder / "state", {
            "format": FORMAT, "shards": sorted({_shard(path) for path in self._talks}),
            "pages": self._pages, "fragments": self._index, "pack": self._pack_name,
            "pack_inode": os.fstat(self._pack.fileno()).st_ino, "pack_end": self._end})
        for other in self.folder.glob("fragments-*.pack"):  # replaced, or of failed builds
            if other.name != self._pack_name:
                other.unlink(missing_ok=True)

    def _save_talks(self) -> None:
        """The talks, in shards by path: an edit writes one shard, not every talk."""
        shards: dict[str, dict[str, tuple[Signature, str, TalkResult]]] = {
            name: {} for name in self._changed_shards}
        for path, kept in self._talks.items():
            shard = shards.get(_shard(path))
            if shard is not None:
                shard[path] = kept
        (self.folder / "talks").mkdir(exist_ok=True)
        for name, talks in shards.items():
            if talks:
                signed.write(self.folder / "talks" / name, talks)
            else:
                (self.folder / "talks" / name).unlink(missing_ok=True)
        self._changed_shards = set()

    def _compact(self) -> None:
        """A new pack of the fragments in use, when most of the old one is not."""
        assert self._pack is not None
        live = sum(length for _, length in self._index.values())
        if self._end == 0 or live >= self._end * COMPACT_BELOW:
            return
        old, index = self._pack, self._index
        self._new_pack()
        assert self._pack is not None
        position = 0
        for key, (offset, length) in sorted(index.items(), key=lambda item: item[1][0]):
            self._pack.write(os.pread(old.fileno(), length, offset))
            self._index[key] = (position, length)
            position += length
        self._pack.flush()
        self._end = self._written = position
        old.close()


def _shard(path: str) -> str:
    hashed = hashlib.blake2b(path.encode("utf-8", "surrogateescape"), digest_size=1)
    return f"{hashed.digest()[0] % SHARDS:02x}"


def _signature(path: Path) -> Signature | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns)
