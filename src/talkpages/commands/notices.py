"""Linux's notices of changed files (inotify), read through the C library (stdlib only):
the watcher (watch.py) learns at once which paths changed, where a scan of a large
site's files takes tens of milliseconds a round. Folders are watched, each for what
happens to the names in it; anywhere else, or when the system refuses (no inotify,
its limit of watches reached, its queue overflowed), `Notices.open` gives None or
`read` raises Lost, and the watcher scans as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import struct
import sys
from collections.abc import Iterable

# inotify(7): what happens to a folder's names, and to the folder itself
_MASK = (0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800)
# IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE,
# IN_DELETE, IN_DELETE_SELF, IN_MOVE_SELF
_OVERFLOW = 0x4000  # IN_Q_OVERFLOW: notices were lost
_IGNORED = 0x8000  # IN_IGNORED: a watch ended (its folder is gone)
_NONBLOCK, _CLOEXEC = os.O_NONBLOCK, os.O_CLOEXEC
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, padded


class Lost(Exception):
    """Notices were lost: the caller must look at every file again."""


class Notices:
    """The folders watched, and the paths whose notices came since the last `read`."""

    def __init__(self, fd: int, libc: ctypes.CDLL) -> None:
        self.fd = fd
        self.libc = libc
        self.folders: dict[int, str] = {}  # watch descriptor -> folder
        self.watched: set[str] = set()

    @classmethod
    def open(cls) -> Notices | None:
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(_NONBLOCK | _CLOEXEC)
        except (OSError, AttributeError):
            return None
        return cls(fd, libc) if fd >= 0 else None

    def watch(self, folders: Iterable[str]) -> None:
        """Watch these folders (not below them: pass each); raises Lost when the system
        refuses one that exists."""
        for folder in folders:
            if folder in self.watched or not os.path.isdir(folder):
                continue
            wd = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), _MASK)
            if wd < 0:
                if os.path.isdir(folder):  # not gone meanwhile: the limit, most likely
                    raise Lost(os.strerror(ctypes.get_errno()))
                continue
            self.folders[wd] = folder
            self.watched.add(folder)

    def read(self) -> set[str]:
        """The paths with a notice since the last call (a folder's own path when the
        folder itself went); empty when there were none."""
        paths: set[str] = set()
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return paths
            except OSError as exc:
                raise Lost(str(exc)) from None
            offset = 0
            while offset + _EVENT.size <= len(data):
                wd, mask, _, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if mask & _OVERFLOW:
                    raise Lost("the system's queue of notices overflowed")
                folder = self.folders.get(wd)
                if folder is None:
                    continue
                if mask & _IGNORED:
                    del self.folders[wd]
                    self.watched.discard(folder)
                paths.add(os.path.join(folder, os.fsdecode(name)) if name else folder)

    def __del__(self) -> None:  # a system allows some hundred of these a user
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1
