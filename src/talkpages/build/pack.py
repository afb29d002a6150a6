"""The cache's blobs: one append-only file, `fragments-<random>.pack`, of blobs each sealed
with a MAC of the user's key (signed.seal) and read back one by one, never all at once,
verified as they are read. Where a blob is (a `Place`) is kept in the signed state
(store.py), with the pack's inode: a pack that is not the very file that state was saved
with is not read. A pack mostly of blobs no longer in use is written again, smaller.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from ..diagnostics import BuildError, Diagnostic
from . import signed
from .owned import mine

Place = tuple[int, int]  # offset and length of a blob in the pack
COMPACT_BELOW = 0.5  # the pack is written again when less than this share is in use


class Pack:
    def __init__(self, folder: Path, name: str = "", inode: int = 0, end: int = 0):
        """The pack `name` if it is the file with this inode, at least `end` bytes long
        (`found` tells), else a new, empty one."""
        self.folder = folder
        self.found = False
        self.name = ""
        self.end = self._written = self._opened_at = 0
        self._file: IO[bytes] | None = None
        if name:
            self._open(name, inode, end)
        if self._file is None:
            self._new()
        assert self._file is not None
        self.end = self._written = self._opened_at = self._file.seek(0, os.SEEK_END)

    def _open(self, name: str, inode: int, end: int) -> None:
        try:
            descriptor = os.open(self.folder / name, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK
                                 | os.O_CLOEXEC)
            status = os.fstat(descriptor)
            if mine(status, stat.S_IFREG) and status.st_nlink == 1 \
                    and status.st_ino == inode and status.st_size >= end:
                self.name, self.found = name, True
                self._file = open(descriptor, "r+b")  # noqa: SIM115 - kept for the build
            else:
                os.close(descriptor)
        except OSError:
            pass

    def _new(self) -> None:
        self.name = f"fragments-{os.urandom(8).hex()}.pack"
        self._file = open(os.open(  # noqa: SIM115 - kept for the build
            self.folder / self.name,
            os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644), "w+b")

    @property
    def inode(self) -> int:
        assert self._file is not None
        return os.fstat(self._file.fileno()).st_ino

    def append(self, data: bytes) -> Place:
        assert self._file is not None
        data = signed.seal(data)
        try:
            self._file.write(data)
        except OSError as exc:
            raise self._failed(exc) from None
        place = (self.end, len(data))
        self.end += len(data)
        return place

    def read(self, place: Place) -> bytes:
        """The data of a blob, verified (signed.Damaged if it is not what was sealed)."""
        assert self._file is not None
        if place[0] + place[1] > self._written:
            self.flush()
        return signed.unseal(os.pread(self._file.fileno(), place[1], place[0]))

    def flush(self) -> None:
        if self._file is not None:
            try:
                self._file.flush()
            except OSError as exc:
                raise self._failed(exc) from None
            self._written = self.end

    def _failed(self, exc: OSError) -> BuildError:
        """The pack cannot be written (a full disk): the build stops, and what it added
        to the pack is cut off again, so that the disk is no fuller than it was."""
        if self._file is not None:
            file, self._file = self._file, None
            with contextlib.suppress(OSError):
                file.close()
            with contextlib.suppress(OSError):
                os.truncate(self.folder / self.name, self._opened_at)
        return BuildError([Diagnostic(self.folder, f"cannot write the build cache: {exc}",
                                      hint="make room on the disk; the cache may be deleted "
                                      "at any time")])

    def compacted(self, places: Iterable[Place]) -> dict[Place, Place] | None:
        """When most of the pack is not in use: a new pack of the blobs at `places`
        (each verified again, never sealed twice unread), and where each went; the old
        pack goes once the state names the new one (remove_others). None when the pack
        stays as it is."""
        assert self._file is not None
        used = sorted(set(places))
        if self.end == 0 or sum(length for _, length in used) >= self.end * COMPACT_BELOW:
            return None
        self.flush()
        old = self._file
        self._new()
        self.end = self._written = self._opened_at = 0
        moved = {place: self.append(signed.unseal(os.pread(old.fileno(), place[1], place[0])))
                 for place in used}
        self.flush()
        old.close()
        return moved

    def remove_others(self) -> None:
        """Packs of earlier or failed builds go."""
        for other in self.folder.glob("fragments-*.pack"):
            if other.name != self.name:
                other.unlink(missing_ok=True)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
