"""The writer: the only code that writes into the output folder. It is given every
output in turn and decides nothing about their bytes.

The new site is assembled in a folder of its own and put in place only when every file
is written, so a failed or interrupted build leaves the previous site as it was. Every
output path is checked: relative, no `..`, nothing written twice (outputs.py).

Writing only what changed: the previous site is kept as a twin of the output, sharing
every unchanged file with it by a hard link (outfolder.py has where, and the modes).
The twin is brought to the new site (a file with the right bytes stays, one the output
has is hard-linked from there, any other is written, files no output names are
removed), then the two folders are exchanged in one step. A file is reused only as
the signed record has it; one is never opened for writing if it exists: it is removed
and created (O_EXCL), so a change never reaches the other folder through a hard link;
every folder is looked at (lstat) before anything is written into or removed from it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import BuildError, Diagnostic
from ..output.outputs import Output, OutputChecker
from .outfolder import (
    DIRTY,
    MARKER,
    Entry,
    check_out_dir,
    choose_folders,
    digest_bytes,
    digest_file,
    exchange_or_rename,
    link_copy,
    save_record,
    write_manifest,
)
from .owned import (
    Range,
    folder_stamps,
    folders_of,
    make_folders,
    open_folder,
    prune,
    real_folders,
    replace_marker,
    spliced,
)
from .trash import LARGE, Trash


class Unavailable(Exception):
    """A file to be kept from the previous build is not in either folder as recorded."""


@dataclass(frozen=True)
class Kept:
    """A build that makes a few outputs again (delta.py) keeps every other file of the
    output folder, which must hold the build of fingerprint `previous`."""
    made: set[str]
    previous: str


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
        places = choose_folders(self.out, cache_dir)
        self.mode, self.target, self.twin = places.mode, places.target, places.twin
        self._in_place, self._lendable = places.in_place, places.lendable
        self._places = places  # what is recorded of the twin after this build: next_twin…
        self._trash = Trash(cache_dir)
        if self.target == self.twin and not self._in_place:  # files it holds are unknown
            self._trash.discard(self.twin)
        os.close(open_folder(self.target))  # a folder of ours, whatever stood there
        self._recorded = set(self._in_place)  # before prune, which may empty folders
        if self._in_place:  # the twin holds what the record says, and nothing else
            found, unchanged = prune(self.target, {p: e[3] for p, e in self._in_place.items()},
                                     frozenset({MARKER}), places.in_place_folders)
            self._in_place = {p: e for p, e in self._in_place.items() if p in found}
            places.in_place_folders = {f: places.in_place_folders[f] for f in unchanged}
        self._dirty = False  # nothing in the target changed yet (see _touch)
        self._held: dict[tuple[int, str], bool] = {}
        self._target_fd = os.open(self.target, os.O_RDONLY | os.O_DIRECTORY)
        self._source_fd = os.open(self._places.source, os.O_RDONLY | os.O_DIRECTORY) \
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

    def keep_the_rest(self, made: set[str]) -> None:
        """Every file of the output but `made` stays as it is (delta.py): kept in the
        twin where it is the output's own file or one with the same bytes (the twin's
        files were found as recorded: see prune), else hard-linked from the output;
        Unavailable if neither folder has it as recorded."""
        assert self.mode == "exchange"
        same = {path: entry for path, entry in self._lendable.items()
                if path not in made and self._in_place.get(path) == entry}
        self._entries.update(same)
        self._files.update((path, entry[0]) for path, entry in same.items())
        self.stats.paths += same
        self.stats.kept += len(same)
        for path, (digest, *_) in self._lendable.items():
            if path in made or path in same:
                continue
            self.stats.paths.append(path)
            self._files[path] = digest
            kept = self._in_place.get(path)
            if kept is not None and kept[0] == digest:
                self._entries[path] = kept
                self.stats.kept += 1
                continue
            try:
                if not self._reuse(path, digest):
                    raise Unavailable(path)
            except OSError as exc:
                raise BuildError([Diagnostic(self.out, f"cannot write {path}: {exc}")]) \
                    from None

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
            entry = self._create(path, digest, spliced(old, edits))
        finally:
            os.close(old)
        self._files[path] = digest
        self._entries[path] = entry
        self.stats.written += 1

    def _holds(self, folder: int, path: str, entry: Entry) -> bool:
        """Is the file still as recorded (neither replaced nor edited)? Looked at once."""
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
            if old is not None and old[1] >= LARGE:
                self._trash.put(self._target_fd, path)
                return
            self._remove(path)

    def _remove(self, path: str) -> None:
        try:
            os.unlink(path, dir_fd=self._target_fd)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            shutil.rmtree(self.target / path)

    def _create(self, path: str, digest: str, chunks: Iterable[bytes | Range]) -> Entry:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644,
                             dir_fd=self._target_fd)
        try:
            for chunk in chunks:
                if isinstance(chunk, Range):
                    chunk.copy_to(descriptor)
                    continue
                view = memoryview(chunk)
                while view:
                    view = view[os.write(descriptor, view):]
            stat = os.fstat(descriptor)
        finally:
            os.close(descriptor)
        return (digest, stat.st_size, stat.st_mtime_ns, stat.st_ino)

    def write(self, outputs: Iterable[Output], fingerprint: str = "",
              kept: Kept | None = None) -> WriteStats:
        """Add every output (and with `kept`, keep every other file of the output), then
        commit: the output folder changes only when all are written, and not at all
        when one fails. Unavailable: what is to be kept is not there as recorded."""
        try:
            last = self._places.fingerprints.get("output") if self.mode == "exchange" else None
            if kept is not None and (not kept.previous or last != kept.previous):
                raise Unavailable("the output is not the last build's (or it was deleted)")
            for output in outputs:
                self.add(output)
            if kept is not None:
                self.keep_the_rest(kept.made)
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
            gone = self._recorded - self._files.keys()
            for path in sorted(gone):
                self._clear_stale(path)
            self.stats.removed += len(gone)
            # Folders the new site has no file in go too (emptied above, or by prune): one
            # left standing, in no record, would be vouched for by its parent's stamp.
            for folder in sorted(folders_of(gone) - folders_of(self._files) if gone else (),
                                 reverse=True):  # deepest first
                self._clear_stale(folder)
            write_manifest(self._target_fd, fingerprint)
            os.unlink(DIRTY, dir_fd=self._target_fd)
            if self.mode == "copy":  # the twin is this build's site
                places = self._places
                places.next_twin, places.next_twin_fingerprint = self._entries, fingerprint
                places.next_twin_folders = folder_stamps(self._target_fd,
                                                         folders_of(self._entries))
                copy = link_copy(self.target, self._entries, self.out, fingerprint)
                copy.rename(self.out)
            elif self.mode == "beside" or (self.mode == "replace" and not self.out.exists()):
                self.target.rename(self.out)
            else:
                exchange_or_rename(self.target, self.out)
                if self.mode == "replace":
                    self._trash.discard(self.target)
            self._save_record(fingerprint)
        except OSError as exc:
            raise BuildError([Diagnostic(self.out, f"cannot write the site: {exc}")]) from None
        finally:
            self.close()
        return self.stats

    def close(self) -> None:
        """Let go of the folders; an uncommitted target is removed (a folder beside the
        output) or, if it changed, left dirty for the next build to clear (the twin)."""
        for descriptor in (self._target_fd, self._source_fd):
            if descriptor >= 0:
                os.close(descriptor)
        self._target_fd = self._source_fd = -1
        if self.target != self.twin and self.target.exists():  # not committed
            self._trash.discard(self.target)
        self._trash.close()

    def _clear_stale(self, path: str) -> None:
        """A file or folder no output names goes; the folders above it are marked
        changed (their stamps are taken again)."""
        if real_folders(path, self._made, self._target_fd):  # else nothing of ours there
            self._remove(path)

    def _save_record(self, fingerprint: str) -> None:
        """A record that cannot be saved (a full disk) costs the next build its speed only."""
        places = self._places
        if places.record_path is None:
            return
        try:
            save_record(places.record_path, self.out, self.twin, self._entries, places.next_twin,
                        {"output": fingerprint, "twin": places.next_twin_fingerprint},
                        places.next_twin_folders, {folder: stamp for folder, stamp in
                        places.in_place_folders.items() if folder not in self._made})
        except OSError as exc:
            self.stats.unsaved = str(exc)
