"""The site's cache folder, `.talkpages-cache/`: made on first use, and locked so that
builds of one site take turns. It holds the media cache (media.py) and nothing else:
no rendered page is kept between builds.

The folder carries its own `.gitignore` (it is never committed by accident) and a
`CACHEDIR.TAG` (https://bford.info/cachedir/: backup tools skip it). Deleting it is
always safe: the next build makes its images and cards again, with the same output.

The folder may have come with the site, from a stranger's repository: it is never
trusted to be what it seems. Every entry talkpages uses is looked at without following
links before it is used, and anything else (a link, a pipe, another user's file, what
an older talkpages kept there) is removed where it stands, never followed and never
deleted through.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .owned import mine, open_folder, tidy

CACHE_DIR = ".talkpages-cache"
_FILES = ((".gitignore", "# made by talkpages: safe to delete\n*\n"),
          ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
           "# a cache of talkpages: safe to delete\n"))
# What the entries the cache uses must be, by name; anything else at the top goes.
_KINDS = {"media": stat.S_IFDIR, "lock": stat.S_IFREG, ".gitignore": stat.S_IFREG,
          "CACHEDIR.TAG": stat.S_IFREG}
_ANYTHING_ELSE = -1  # a kind no entry has: tidy() removes it


def _kind_at_top(name: str) -> int:
    return _KINDS.get(name, _ANYTHING_ELSE)


class CacheFolder:
    def __init__(self, path: Path, lock: int):
        self.path = path
        self._lock = lock

    @classmethod
    def open(cls, site_dir: Path) -> CacheFolder | None:
        """The site's cache folder, locked until `close()`; None where it cannot be made
        (a read-only site folder): the build then keeps nothing for the next one."""
        import fcntl

        path = site_dir / CACHE_DIR
        lock = -1
        try:
            folder = open_folder(path)
            try:
                tidy(path, folder, _kind_at_top)
                lock = _open_file(folder, "lock", os.O_RDWR)
                fcntl.flock(lock, fcntl.LOCK_EX)
                os.close(open_folder(path / "media"))
                for name, text in _FILES:
                    _create_once(folder, name, text.encode())
            finally:
                os.close(folder)
        except OSError:
            if lock >= 0:
                os.close(lock)
            return None
        return cls(path, lock)

    def close(self) -> None:
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1


def media_folder(site_dir: Path) -> Path | None:
    """The media cache's folder (media.py), for `check` and `serve`, which keep no other
    cache and need no lock: the cache folder made if missing, with its .gitignore and
    tag; None where it cannot be made."""
    path = site_dir / CACHE_DIR
    try:
        folder = open_folder(path)
        try:
            for name, text in _FILES:
                _create_once(folder, name, text.encode())
        finally:
            os.close(folder)
    except OSError:
        return None
    return path / "media"


def _open_file(folder: int, name: str, flags: int) -> int:
    """The file `name` of the open `folder`, made if missing (tidy() has removed
    anything but a plain file of this user's there)."""
    descriptor = os.open(name, flags | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o600, dir_fd=folder)
    if not mine(os.fstat(descriptor), stat.S_IFREG):  # replaced meanwhile
        os.close(descriptor)
        raise OSError(errno.EPERM, "not a file of this user's", name)
    return descriptor


def _create_once(folder: int, name: str, data: bytes) -> None:
    try:
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                             | os.O_CLOEXEC, 0o644, dir_fd=folder)
    except FileExistsError:  # a plain file of ours: tidy() removed anything else
        return
    try:
        os.write(descriptor, data)
    finally:
        os.close(descriptor)
