"""The site's cache folder, `.talkpages-cache/`: made on first use, and locked so that
builds of one site take turns. Standard library only: a build that has nothing to do,
or only an output folder to restore, answers before it imports its renderer.

The folder carries its own `.gitignore` (it is never committed by accident) and a
`CACHEDIR.TAG` (https://bford.info/cachedir/: backup tools skip it). Deleting it is
always safe: the next build is a cold one, with the same output.

The folder may have come with the site, from a stranger's repository: it is never
trusted to be what it seems. Every entry talkpages uses is looked at without following
links before it is used, and anything that is not a plain file or folder of this user's
(a link, a pipe, another user's file) is removed where it stands, never followed and
never deleted through. What the files hold is authenticated before it is used
(signed.py). Inside the twins of the output (`outputs/<id>/`), too large to look over
at every build, the writer checks each folder before it writes into it (writer.py).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

CACHE_DIR = ".talkpages-cache"
_FILES = ((".gitignore", "# made by talkpages: safe to delete\n*\n"),
          ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
           "# a cache of talkpages: safe to delete\n"))
# What the entries the cache uses must be (others are looked at as they are used).
_KINDS = {"outputs": stat.S_IFDIR, "trash": stat.S_IFDIR, "lock": stat.S_IFREG,
          "state": stat.S_IFREG, "journal": stat.S_IFREG, ".gitignore": stat.S_IFREG,
          "CACHEDIR.TAG": stat.S_IFREG}


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
                tidy(path, folder, _KINDS)
                lock = _open_file(folder, "lock", os.O_RDWR)
                fcntl.flock(lock, fcntl.LOCK_EX)
                for name, kind in _KINDS.items():
                    if kind == stat.S_IFDIR:
                        os.close(open_folder(path / name))
                        tidy(path / name, path / name)
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


def mine(status: os.stat_result, kind: int) -> bool:
    """A plain file (`stat.S_IFREG`) or folder (`stat.S_IFDIR`) of this user's?"""
    return stat.S_IFMT(status.st_mode) == kind and status.st_uid == os.geteuid()


def open_folder(path: Path) -> int:
    """`path` open as a folder of this user's, made if missing; whatever else stood there
    (a link, a file, another user's folder) is removed first, not followed."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None and not mine(found, stat.S_IFDIR):
        discard(path, found)
        found = None
    if found is None:
        os.mkdir(path, 0o755)
    folder = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    if not mine(os.fstat(folder), stat.S_IFDIR):  # replaced meanwhile
        os.close(folder)
        raise OSError(errno.EPERM, "not a folder of this user's", str(path))
    return folder


def tidy(path: Path, folder: int | Path, kinds: dict[str, int] | None = None) -> None:
    """Remove every entry of `folder` (at `path`; open, or a path already checked) that
    is not a plain file or folder of this user's, or not of its kind in `kinds`."""
    with os.scandir(folder) as entries:  # type: ignore[type-var]
        found = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, status in found:
        kind = (kinds or {}).get(name, stat.S_IFMT(status.st_mode))
        if kind not in (stat.S_IFREG, stat.S_IFDIR) or not mine(status, kind):
            discard(path / name, status)


def discard(path: Path, status: os.stat_result) -> None:
    """Remove what stands at `path` itself: a link goes, what it points to stays."""
    if stat.S_ISDIR(status.st_mode):
        shutil.rmtree(path)  # never follows links (shutil.rmtree.avoids_symlink_attacks)
    else:
        os.unlink(path)


def read_file(path: Path, limit: int = 1 << 40) -> bytes:
    """The bytes of a plain file of this user's at `path`, not through a link (OSError
    otherwise): a pipe would block, a link could read anything."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not mine(os.fstat(descriptor), stat.S_IFREG):
            raise OSError(errno.EPERM, "not a file of this user's", str(path))
        chunks = []
        while limit > 0:
            chunk = os.read(descriptor, min(limit, 1 << 24))
            if not chunk:
                break
            chunks.append(chunk)
            limit -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def write_new(path: Path, data: bytes) -> None:
    """Create `path` with `data`; never through a link or over another file."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def replace_file(path: Path, data: bytes) -> None:
    """Whole or not at all: a new file of a name no one can guess, renamed over `path`
    (a rename replaces a link at `path` itself, never what it points to)."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    write_new(temporary, data)
    try:
        os.replace(temporary, path)
    except OSError:
        os.unlink(temporary)
        raise


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
