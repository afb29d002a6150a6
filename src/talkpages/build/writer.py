"""The only code that touches the output folder.

The new site is assembled in a folder of its own and put in place only when every file
is written, so a failed or interrupted build leaves the previous site as it was. Every
output path is checked: relative, no `..`, nothing written twice. The output folder is
talkpages' own: it carries a marker file listing its files, and a folder without one is
replaced only when it is empty.

Writing only what changed: the previous site is kept as a twin of the output, in the
site's cache folder (`.talkpages-cache/outputs/<id>/`, or beside the output when that is
on another file system), sharing every unchanged file with the output by a hard link.

- The output folder exists: the twin is brought to the new site (a file with the right
  bytes stays, one the output has is hard-linked from there, any other is written, and
  files no output names are removed), then the two folders are exchanged in one step
  (Linux's renameat2 RENAME_EXCHANGE; three renames elsewhere). The twin now holds the
  previous site, ready for the next build.
- The output folder is gone (deleted by hand, a fresh checkout with a restored cache):
  the new site is assembled beside it from hard links to the twin and new files, then
  renamed into place; the twin stays as it was.

What may be reused is decided by a record signed with the user's key (signed.py), never
by what happens to be on disk: it lists every file of both folders with its digest,
size, modification time and inode, and a file is reused only while all four still hold.
A twin that came from elsewhere is not trusted, and a file of the output edited in place
or checked out again by git is written anew. A file is never opened for writing if it
exists: it is removed first and created (O_EXCL), so a change can never reach the other
folder through a shared hard link.

Nothing found in these folders is followed: a twin, a marker or a folder inside the twin
that is a link (one that came with a cloned repository, say) is removed where it stands.
A file is reused only by its identity (the record's inode, size and time), so a link
can never lend another file's bytes; every folder is looked at (lstat) before anything
is written into it or removed from it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import stat
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..diagnostics import BuildError, Diagnostic
from ..output.outputs import Output, OutputChecker
from . import signed
from .owned import (
    discard,
    exists,
    is_file,
    is_folder,
    make_folders,
    mine,
    open_folder,
    prune,
    read_file,
    real_folders,
    replace_marker,
)

MARKER = ".talkpages-output"
DIRTY = ".talkpages-dirty"
NEW_SUFFIX = ".talkpages-new"
TWIN_SUFFIX = ".talkpages-previous"
RECORD_FORMAT = 2

Entry = tuple[str, int, int, int]  # digest, size, mtime_ns, inode


class Unavailable(Exception):
    """A file to be kept from the previous build is not in either folder as recorded."""


def digest_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def digest_file(path: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_out_dir(out_dir: Path, site_dir: Path) -> list[Diagnostic]:
    """Refuse output folders whose contents are not ours to replace, and a link: the
    folder is replaced by renaming, which would replace the link, never what it points
    to (and a link that leads nowhere would fail every build)."""
    if os.path.islink(out_dir):
        return [Diagnostic(out_dir, f"the output folder is a symbolic link (to "
                           f"{os.readlink(out_dir)}): talkpages replaces the folder itself",
                           hint="pass the folder the link points to with -o, or remove the "
                           "link")]
    out = out_dir.resolve()
    site = site_dir.resolve()
    forbidden = {site: "the site folder itself", site / "talks": "the talks folder",
                 Path.home().resolve(): "your home folder", Path(out.anchor): "the root folder"}
    if out in forbidden:
        return [Diagnostic(out_dir, f"refusing to use {forbidden[out]} as the output folder",
                           hint="pass another folder with -o, such as public/")]
    if site.is_relative_to(out):
        return [Diagnostic(out_dir, "refusing to use a parent of the site as the output folder",
                           hint="pass another folder with -o, such as public/")]
    if out_dir.exists() and not out_dir.is_dir():
        return [Diagnostic(out_dir, "the output path exists and is not a folder")]
    if out_dir.is_dir() and not is_file(out_dir / MARKER) and any(out_dir.iterdir()):
        return [Diagnostic(out_dir, "refusing to replace a folder that talkpages did not "
                           "create (it has files and no marker)",
                           hint=f"empty it or pass another folder with -o; talkpages marks "
                           f"its own output folders with a {MARKER} file")]
    return []


@dataclass
class WriteStats:
    written: int = 0  # files whose bytes were written
    kept: int = 0  # files that were already right, or hard-linked from the other folder
    removed: int = 0  # files of the previous build no output names any more
    paths: list[str] = field(default_factory=list)  # every file of the site
    unsaved: str = ""  # why the record of this site could not be kept for the next build


class Staging:
    """One build's new site, assembled beside the output: `has` tells the renderer what
    it need not render, `add` takes each output, `commit` puts the site in place.

    `cache_dir`: the site's cache folder, for the twin and the record; None: every file
    is written and nothing is kept for the next build."""

    def __init__(self, out_dir: Path, site_dir: Path, cache_dir: Path | None = None):
        problems = check_out_dir(out_dir, site_dir)
        if problems:
            raise BuildError(problems)
        self.out = Path(os.path.abspath(out_dir))
        self.stats = WriteStats()
        self._checker = OutputChecker()
        self._files: dict[str, str] = {}  # the new site: path -> digest
        self._entries: dict[str, Entry] = {}  # the new site's files, for the record
        self._made: set[str] = {""}
        try:
            self._open(cache_dir)
        except OSError as exc:
            raise BuildError([Diagnostic(out_dir, f"cannot write the site: {exc}")]) from None

    def _open(self, cache_dir: Path | None) -> None:
        parent = self.out.parent
        parent.mkdir(parents=True, exist_ok=True)
        for leftover in parent.glob(f".{self.out.name}{NEW_SUFFIX}*"):  # of a killed build
            with contextlib.suppress(OSError):
                discard(leftover, os.lstat(leftover))
        self._record_path, self.twin, record = _record(self.out, cache_dir)
        twin_files = record.get("twin") if is_folder(self.twin) \
            and not exists(self.twin / DIRTY) else None
        out_files = record.get("output", {}) if is_file(self.out / MARKER) else {}
        self._in_place: dict[str, Entry] = {}
        self._lendable: dict[str, Entry] = {}
        self._fingerprints = record.get("fingerprints", {})
        self._next_twin: dict[str, Entry] = {}  # the record of the twin after this build
        self._next_twin_fingerprint = ""
        beside = parent / f".{self.out.name}{NEW_SUFFIX}-{secrets.token_hex(4)}"
        if self._record_path is None:  # no cache: assembled beside, nothing kept
            self.mode, self.target, self._source = "replace", beside, self.out
        elif self.out.is_dir():  # the twin becomes the new site; the output lends its files
            self.mode, self.target, self._source = "exchange", self.twin, self.out
            self._in_place, self._lendable = twin_files or {}, out_files
            self._next_twin = out_files
            self._next_twin_fingerprint = self._fingerprints.get("output", "")
        elif twin_files:  # assembled beside from the twin's files; the twin stays
            self.mode, self.target, self._source = "beside", beside, self.twin
            self._lendable = self._next_twin = twin_files
            self._next_twin_fingerprint = self._fingerprints.get("twin", "")
        else:  # assembled as the twin, then the output made of links to it
            self.mode, self.target, self._source = "copy", self.twin, self.twin
        self._trash = None if cache_dir is None else \
            cache_dir / "trash" / f"{os.getpid()}-{secrets.token_hex(4)}"
        self._put: list[str] = []
        self._trash_folder = -1
        if self.target == self.twin and not self._in_place:  # files it holds are unknown
            self._discard(self.twin)
        os.close(open_folder(self.target))  # a folder of ours, whatever stood there
        if self._in_place:  # the twin holds what the record says, and nothing else
            found = prune(self.target, {p: e[3] for p, e in self._in_place.items()},
                          frozenset({MARKER}))
            self._in_place = {p: e for p, e in self._in_place.items() if p in found}
        self._dirty = False  # nothing in the target changed yet (see _touch)
        self._held: dict[tuple[int, str], bool] = {}
        self._target_fd = os.open(self.target, os.O_RDONLY | os.O_DIRECTORY)
        self._source_fd = os.open(self._source, os.O_RDONLY | os.O_DIRECTORY) \
            if self._lendable else -1

    def digest(self, path: str) -> str:
        """The digest of a file of the new site ("" if it has none such)."""
        return self._files.get(path, "")

    def has(self, path: str, digest: str, look: bool = True) -> bool:
        """Can the new site have this file with these bytes without being given them?
        `look`: the file is looked at (size, time, inode), as it is when it is taken;
        else the record is believed (delta.py, for the files it leaves alone)."""
        for folder, entries in ((self._target_fd, self._in_place),
                                (self._source_fd, self._lendable)):
            entry = entries.get(path)
            if entry is not None and entry[0] == digest \
                    and (not look or self._holds(folder, path, entry)):
                return True
        return False

    def add(self, output: Output) -> None:
        if not self._checker.check(output):
            return
        try:
            self._add(output)
        except OSError as exc:
            raise BuildError([Diagnostic(self.out, f"cannot write {output.path} (from "
                                         f"{output.origin}): {exc}")]) from None

    def _add(self, output: Output) -> None:
        path = output.path
        self.stats.paths.append(path)
        if output.splice is not None:
            self._write_splice(path, output.digest, *output.splice)
            return
        if output.chunks is not None:
            self._write_chunks(path, output.chunks, output.digest)
            return
        digest = output.digest
        if not digest:
            digest = digest_bytes(output.data) if output.data is not None \
                else digest_file(output.source)  # type: ignore[arg-type]
        self._files[path] = digest
        if self._reuse(path, digest):
            return
        if output.data is not None:
            self._entries[path] = self._create(path, digest, (output.data,))
        elif output.source is not None:
            with open(output.source, "rb") as handle:
                self._entries[path] = self._create(
                    path, digest, iter(lambda: handle.read(1 << 20), b""))
        else:
            raise BuildError([Diagnostic(None, f"internal error: {path} was to be kept from "
                                         "the previous build, which no longer has it",
                                         hint="run the build again")])
        self.stats.written += 1

    def last_build(self) -> str:
        """The fingerprint of the build the output folder holds, when this staging will
        exchange it with its twin ("" otherwise): see keep_the_rest."""
        return self._fingerprints.get("output", "") if self.mode == "exchange" else ""

    def keep_the_rest(self, made: set[str]) -> None:
        """Every file of the output but `made` stays as it is (delta.py, after a build
        that changed a few talks): kept in the twin where it is the output's own file,
        hard-linked from the output where the build before the last changed it. The
        twin's files were checked against the record when it was opened (see prune)."""
        assert self.mode == "exchange"
        same = {path: entry for path, entry in self._lendable.items()
                if path not in made and self._in_place.get(path) == entry}
        self._entries.update(same)
        self._files.update((path, entry[0]) for path, entry in same.items())
        self.stats.paths += same
        self.stats.kept += len(same)
        for path, entry in self._lendable.items():
            if path not in made and path not in same:
                self.keep(path, entry[0])

    def keep(self, path: str, digest: str) -> None:
        """A file of the previous build, the same in this one (delta.py: the paths of
        the previous build were checked when it wrote them). A file of the twin found
        as recorded when it was opened is kept as it is, unlike `add`, which looks at its
        size and time too: a build that changes a few talks leaves tens of thousands of
        files alone, and a file edited in place is put right by the next other build.
        Unavailable: neither folder has it as recorded (the build must make it)."""
        self.stats.paths.append(path)
        self._files[path] = digest
        kept = self._in_place.get(path)
        if kept is not None and kept[0] == digest:
            self._entries[path] = kept
            self.stats.kept += 1
            return
        try:
            if self._reuse(path, digest):
                return
        except OSError as exc:
            raise BuildError([Diagnostic(self.out, f"cannot write {path}: {exc}")]) from None
        raise Unavailable(path)

    def _reuse(self, path: str, digest: str) -> bool:
        """Has the target the file, or is it hard-linked from the source? (Else it is
        cleared for the caller to write.)"""
        kept = self._in_place.get(path)
        if kept is not None and kept[0] == digest and self._holds(self._target_fd, path, kept):
            self._entries[path] = kept
            self.stats.kept += 1
            return True
        self._clear(path)
        lent = self._lendable.get(path)
        if lent is not None and lent[0] == digest and self._holds(self._source_fd, path, lent):
            os.link(path, path, src_dir_fd=self._source_fd, dst_dir_fd=self._target_fd,
                    follow_symlinks=False)
            self._entries[path] = lent
            self.stats.kept += 1
            return True
        return False

    def _write_chunks(self, path: str, chunks: Iterable[bytes], known: str) -> None:
        """A file written as it is made; `known`: its digest, else worked out on the way."""
        self._clear(path)
        digest = hashlib.blake2b(digest_size=16)

        def hashed() -> Iterator[bytes]:
            for chunk in chunks:
                digest.update(chunk)
                yield chunk

        entry = self._create(path, "", chunks if known else hashed())
        self._files[path] = known or digest.hexdigest()
        self._entries[path] = (self._files[path], *entry[1:])
        self.stats.written += 1

    def _write_splice(self, path: str, digest: str, base: str,
                      edits: tuple[tuple[int, int, bytes], ...]) -> None:
        """A large file (a feed, talks.json) that differs from the one the last build
        wrote by a few ranges: the rest is copied by the kernel from the old file."""
        for folder, entries in ((self._target_fd, self._in_place),
                                (self._source_fd, self._lendable)):
            entry = entries.get(path)
            if entry is not None and entry[0] == base and self._holds(folder, path, entry):
                old = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
                break
        else:
            raise BuildError([Diagnostic(None, f"internal error: {path} was to be changed "
                                         "from the previous build, which no longer has it",
                                         hint="run the build again")])
        try:
            self._clear(path)  # the old file stays readable through `old`
            entry = self._create(path, digest, _spliced(old, edits))
        finally:
            os.close(old)
        self._files[path] = digest
        self._entries[path] = entry
        self.stats.written += 1

    def _holds(self, folder: int, path: str, entry: Entry) -> bool:
        """Is the file as the record has it: not replaced, not edited in place? (Asked
        by `has` and again when the file is taken: looked at once.)"""
        known = self._held.get((folder, path))
        if known is not None:
            return known
        try:
            stat = os.stat(path, dir_fd=folder, follow_symlinks=False)
            holds = (stat.st_size, stat.st_mtime_ns, stat.st_ino) == entry[1:]
        except OSError:
            holds = False
        self._held[folder, path] = holds
        return holds

    def _touch(self) -> None:
        """The target is about to change: until the commit, it is marked dirty (a twin
        left so by a killed build is not trusted: see _open)."""
        if not self._dirty:
            try:
                replace_marker(self._target_fd, DIRTY, b"")
            except OSError as exc:
                raise BuildError([Diagnostic(self.out, f"cannot write the site: {exc}")]) \
                    from None
            self._dirty = True

    def _clear(self, path: str) -> None:
        """No file at `path` in the target, and its folder made."""
        self._touch()
        make_folders(path, self._made, self._target_fd)
        if self._in_place:
            old = self._in_place.get(path)
            if old is not None and old[1] >= LARGE and self._trash is not None:
                self._put_aside(path)
                return
            self._remove(path)

    def _remove(self, path: str) -> None:
        try:
            os.unlink(path, dir_fd=self._target_fd)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            shutil.rmtree(self.target / path)

    def _put_aside(self, path: str) -> None:
        """A large file replaced in the twin goes to the cache's trash, emptied after
        the build (freeing megabytes takes a while on some disks)."""
        assert self._trash is not None
        try:
            os.rename(path, f"{len(self._put)}", src_dir_fd=self._target_fd,
                      dst_dir_fd=self._trash_fd())
            self._put.append(path)
        except FileNotFoundError:
            pass
        except OSError:  # another file system, a folder where a file was
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path, dir_fd=self._target_fd)

    def _trash_fd(self) -> int:
        """The build's own folder in the cache's trash, open (made on first use)."""
        assert self._trash is not None
        if self._trash_folder < 0:
            os.close(open_folder(self._trash.parent))
            self._trash_folder = open_folder(self._trash)
        return self._trash_folder

    def _create(self, path: str, digest: str, chunks: Iterable[bytes | _Range]) -> Entry:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644,
                             dir_fd=self._target_fd)
        try:
            for chunk in chunks:
                if isinstance(chunk, _Range):
                    chunk.copy_to(descriptor)
                    continue
                view = memoryview(chunk)
                while view:
                    view = view[os.write(descriptor, view):]
            stat = os.fstat(descriptor)
        finally:
            os.close(descriptor)
        return (digest, stat.st_size, stat.st_mtime_ns, stat.st_ino)

    def write(self, outputs: Iterable[Output], fingerprint: str = "") -> WriteStats:
        """Add every output, then commit: the output folder changes only when all are
        written, and not at all when one fails."""
        try:
            for output in outputs:
                self.add(output)
        except BaseException:
            self.close()
            raise
        return self.commit(fingerprint)

    def commit(self, fingerprint: str = "") -> WriteStats:
        """Put the new site in place, whole; raise BuildError (and change nothing) if an
        output was refused."""
        try:
            if self._checker.problems:
                raise BuildError(self._checker.problems)
            self._touch()
            for gone in sorted(self._in_place.keys() - self._files.keys()):
                self._clear_stale(gone)
                self.stats.removed += 1
            _write_manifest(self._target_fd, fingerprint)
            os.unlink(DIRTY, dir_fd=self._target_fd)
            if self.mode == "copy":
                self._next_twin, self._next_twin_fingerprint = self._entries, fingerprint
                copy = _link_copy(self.target, self._entries, self.out, fingerprint)
                copy.rename(self.out)
            elif self.mode == "beside" or (self.mode == "replace" and not self.out.exists()):
                self.target.rename(self.out)
            else:
                _exchange_or_rename(self.target, self.out)
                if self.mode == "replace":
                    self._discard(self.target)
            self._save_record(fingerprint)
        except OSError as exc:
            raise BuildError([Diagnostic(self.out, f"cannot write the site: {exc}")]) from None
        finally:
            self.close()
        return self.stats

    def close(self) -> None:
        """Let go of the folders; an uncommitted target is removed (a folder beside the
        output) or, if anything in it changed, left dirty for the next build to clear
        (the twin)."""
        for descriptor in (self._target_fd, self._source_fd, self._trash_folder):
            if descriptor >= 0:
                os.close(descriptor)
        self._target_fd = self._source_fd = self._trash_folder = -1
        if self.target != self.twin and self.target.exists():  # not committed
            self._discard(self.target)
        if self._trash is not None:
            _empty_later(self._trash.parent)
            self._trash = None

    def _clear_stale(self, path: str) -> None:
        if not real_folders(path, self._made, self._target_fd):
            return  # a folder of it is not the target's own: nothing of ours is there
        self._remove(path)
        folder = PurePosixPath(path).parent
        while folder.parts:  # folders left empty go too
            try:
                os.rmdir(str(folder), dir_fd=self._target_fd)
            except OSError:
                break
            folder = folder.parent

    def _save_record(self, fingerprint: str) -> None:
        """The site is in place: a record that cannot be saved (a full disk) costs the
        next build its speed, not this one its site. The old record goes then."""
        if self._record_path is None:
            return
        twin, output = self._next_twin, self._entries
        try:
            signed.write(self._record_path, {  # the twin as it differs from the output
                "format": RECORD_FORMAT, "out": str(self.out), "twin_path": str(self.twin),
                "output": output, "fingerprints": {"output": fingerprint,
                                                   "twin": self._next_twin_fingerprint},
                "twin_differs": {p: e for p, e in twin.items() if output.get(p) != e},
                "twin_lacks": [p for p in output if p not in twin]}, plain=True)
        except OSError as exc:
            self.stats.unsaved = str(exc)
            with contextlib.suppress(OSError):
                os.unlink(self._record_path)

    def _discard(self, folder: Path) -> None:
        """A folder of thousands of files takes seconds to delete: it goes to the
        trash, emptied after the build (deleted at once where it cannot: no cache, or
        another file system)."""
        if self._trash is not None and exists(folder):
            try:
                os.rename(folder, f"{folder.name}-{secrets.token_hex(4)}",
                          dst_dir_fd=self._trash_fd())
                return
            except OSError:
                pass
        _discard(folder)


@dataclass(frozen=True)
class _Range:
    """Bytes of another file, copied by the kernel (copy_file_range) where it can."""
    source: int
    start: int
    count: int

    def copy_to(self, target: int) -> None:
        position, left = self.start, self.count
        while left > 0:
            try:
                done = os.copy_file_range(self.source, target, left, position)
            except (AttributeError, OSError):  # not Linux, or across file systems
                done = os.write(target, os.pread(self.source, min(left, 1 << 20), position))
            if done <= 0:
                raise OSError(f"the file to copy from ended {left} bytes early")
            position, left = position + done, left - done


def _spliced(old: int, edits: tuple[tuple[int, int, bytes], ...]) -> Iterator[bytes | _Range]:
    position = 0
    for start, end, data in edits:
        yield _Range(old, position, start - position)
        yield data
        position = end
    yield _Range(old, position, os.fstat(old).st_size - position)


def _record(out: Path, cache_dir: Path | None) -> tuple[Path | None, Path, dict[str, Any]]:
    """Where the record of an output folder and its twin are kept, and the record if it
    is this user's and about this very output and twin ({} if not)."""
    twin = out.parent / f".{out.name}{TWIN_SUFFIX}"
    if cache_dir is None:
        return None, twin, {}
    outputs = cache_dir / "outputs"
    os.close(open_folder(cache_dir))
    os.close(open_folder(outputs))
    name = hashlib.blake2b(str(out).encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    if os.lstat(outputs).st_dev == out.parent.stat().st_dev:
        twin = outputs / name
    with contextlib.suppress(OSError):  # a link or a file where the twin goes: not ours
        there = os.lstat(twin)
        if not mine(there, stat.S_IFDIR):
            discard(twin, there)
    path = outputs / f"{name}.record"
    found = signed.read(path)
    if isinstance(found, dict) and found.get("format") == RECORD_FORMAT \
            and found.get("out") == str(out) and found.get("twin_path") == str(twin):
        files = dict(found["output"])
        for lacking in found["twin_lacks"]:
            del files[lacking]
        files.update(found["twin_differs"])
        found["twin"] = files
        return path, twin, found
    return path, twin, {}


def _link_copy(folder: Path, entries: dict[str, Entry], out: Path, fingerprint: str) -> Path:
    """A new folder beside `out` of hard links to the files of `folder` (with its marker):
    raise OSError if one of them is not as `entries` has it."""
    copy = out.parent / f".{out.name}{NEW_SUFFIX}-{secrets.token_hex(4)}"
    copy.mkdir()
    try:
        source = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        target = os.open(copy, os.O_RDONLY | os.O_DIRECTORY)
        try:
            made = {""}
            for path, entry in entries.items():
                make_folders(path, made, target)
                stat = os.stat(path, dir_fd=source, follow_symlinks=False)
                if (stat.st_size, stat.st_mtime_ns, stat.st_ino) != entry[1:]:
                    raise OSError(f"{path} changed in {folder}")
                os.link(path, path, src_dir_fd=source, dst_dir_fd=target, follow_symlinks=False)
            _write_manifest(target, fingerprint)
        finally:
            os.close(source)
            os.close(target)
    except OSError:
        _discard(copy)
        raise
    return copy


def up_to_date(out_dir: Path, cache_dir: Path, fingerprint: str) -> int | None:
    """The output folder holds what a build of inputs with this fingerprint writes, every
    file as that build left it: the number of files; None if a build is needed."""
    out = Path(os.path.abspath(out_dir))
    if not fingerprint or read_fingerprint(out) != fingerprint:
        return None  # known from the marker, before the record is read
    try:
        _, _, record = _record(out, cache_dir)
        files = record.get("output")
        if not files or record["fingerprints"].get("output") != fingerprint:
            return None
        folder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except (OSError, KeyError, AttributeError):
        return None
    try:
        for path, entry in files.items():
            stat = os.stat(path, dir_fd=folder, follow_symlinks=False)
            if (stat.st_size, stat.st_mtime_ns, stat.st_ino) != entry[1:]:
                return None
    except OSError:
        return None
    finally:
        os.close(folder)
    return len(files)


def restore(out_dir: Path, site_dir: Path, cache_dir: Path, fingerprint: str) -> int | None:
    """The output folder is gone, and its twin was built from inputs with this very
    fingerprint: make the output again of hard links to the twin, with no build at all.
    The number of files, or None when that cannot be (a build is needed)."""
    out = Path(os.path.abspath(out_dir))
    if not fingerprint or out.exists() or check_out_dir(out_dir, site_dir):
        return None
    try:
        _, twin, record = _record(out, cache_dir)
        files = record.get("twin")
        if not files or record["fingerprints"].get("twin") != fingerprint \
                or exists(twin / DIRTY) or not is_folder(twin):
            return None
        _link_copy(twin, files, out, fingerprint).rename(out)
    except (OSError, KeyError, AttributeError):
        return None
    return len(files)


LARGE = 1 << 20  # bytes: see Staging._put_aside


def _empty_later(trash: Path) -> None:
    """Delete what builds put in the trash, once this one is done, by a process of its
    own that outlives the command: freeing a large folder or file takes seconds on
    some disks, and the build does not wait for it. Where there is no `sh` to start
    it, a thread of this process deletes what it can before the command ends."""
    try:
        if not is_folder(trash):
            return
        folders = [str(folder) for folder in trash.iterdir()]
    except OSError:
        return
    if not folders:
        return
    shell = shutil.which("sh") if hasattr(os, "posix_spawn") else None
    if shell is not None:
        try:  # sh starts rm in the background and ends: nothing of it is left to wait for
            os.waitpid(os.posix_spawn(shell, ["sh", "-c", 'rm -rf -- "$@" </dev/null '
                                             '>/dev/null 2>&1 &', "sh", *folders],
                                      os.environ), 0)
            return
        except OSError:
            pass

    def delete() -> None:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)

    threading.Thread(target=delete, daemon=True).start()


def _discard(folder: Path) -> None:
    """Remove a folder: renamed aside at once, deleted after (a link: itself, at once)."""
    try:
        found = os.lstat(folder)
    except OSError:
        return
    if not stat.S_ISDIR(found.st_mode):
        os.unlink(folder)
        return
    aside = folder.with_name(f"{folder.name}.discarded-{secrets.token_hex(4)}")
    try:
        folder.rename(aside)
    except OSError:
        aside = folder
    shutil.rmtree(aside, ignore_errors=True)


def read_fingerprint(folder: Path) -> str:
    """The inputs' fingerprint the build that wrote `folder` recorded ("" if none)."""
    try:
        head = read_file(folder / MARKER, 4096).decode("utf-8", "replace")
        start = head.index('"fingerprint": "') + len('"fingerprint": "')
        return head[start:head.index('"', start)]
    except (OSError, ValueError):
        return ""


def _write_manifest(folder: int, fingerprint: str) -> None:
    """The marker of an output folder: whose it is, and the fingerprint of the inputs it
    was built from (the list of its files is in the signed record, in the cache)."""
    text = json.dumps({"talkpages": "This folder is written by talkpages; each build "
                       "makes it match the site exactly.", "fingerprint": fingerprint},
                      indent=0)
    replace_marker(folder, MARKER, (text + "\n").encode())


def _exchange_or_rename(twin: Path, out_dir: Path) -> None:
    """Swap the two folders: atomically where the system can, else by three renames."""
    if _exchange(twin, out_dir):
        return
    aside = twin.with_name(twin.name + ".swap")
    out_dir.rename(aside)
    try:
        twin.rename(out_dir)
    except OSError:
        aside.rename(out_dir)
        raise
    aside.rename(twin)


def _exchange(first: Path, second: Path) -> bool:
    if sys.platform != "linux":
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second),
                       rename_exchange)
    return bool(result == 0)
