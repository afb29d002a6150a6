"""What talkpages makes and keeps on disk, kept its own: files and folders are made,
read and removed without ever following a link.

A site folder, its cache folder and its output folder may have come from a stranger's
repository, with links and pipes where talkpages expects its files. Each function here
looks at what stands at a path (lstat, O_NOFOLLOW) before it uses it; what is not a
plain file or folder of this user's is removed where it stands, never followed and never
deleted through; new files are created, never opened over another (O_EXCL).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path


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


def tidy(path: Path, folder: int | Path,
         kind_of: Callable[[str], int | None] = lambda name: None) -> None:
    """Remove every entry of `folder` (at `path`; open, or a path already checked) that
    is not a plain file or folder of this user's, or not of the kind `kind_of` its name
    (`stat.S_IFREG`, `stat.S_IFDIR`; None: either)."""
    with os.scandir(folder) as entries:  # type: ignore[type-var]
        found = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, status in found:
        kind = kind_of(name) or stat.S_IFMT(status.st_mode)
        if kind not in (stat.S_IFREG, stat.S_IFDIR) or not mine(status, kind):
            discard(path / name, status)


def discard(path: Path, status: os.stat_result) -> None:
    """Remove what stands at `path` itself: a link goes, what it points to stays."""
    if stat.S_ISDIR(status.st_mode):
        shutil.rmtree(path)  # never follows links (shutil.rmtree.avoids_symlink_attacks)
    else:
        os.unlink(path)


def read_file(path: Path, limit: int = 1 << 30, start: bytes = b"") -> bytes:
    """The bytes of a plain file of this user's at `path`, not through a link, of at most
    `limit` bytes and beginning with `start` (OSError otherwise): a pipe would block, a
    link could read anything, and a file of gigabytes of zeros (a few bytes in a git
    repository) would take the memory of the machine before it could be refused."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        status = os.fstat(descriptor)
        if not mine(status, stat.S_IFREG):
            raise OSError(errno.EPERM, "not a file of this user's", str(path))
        if status.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
        if start and os.pread(descriptor, len(start), 0) != start:
            raise OSError(errno.EINVAL, "not a file of talkpages", str(path))
        data = bytearray(status.st_size)  # read into its place: never held twice
        view, done = memoryview(data), 0
        while done < len(data):
            count = os.readv(descriptor, [view[done:]])
            if count == 0:  # shorter than it was a moment ago
                break
            done += count
        return bytes(data[:done]) if done < len(data) else bytes(data)
    finally:
        os.close(descriptor)


def write_new(path: Path | str, data: bytes, folder: int | None = None) -> None:
    """Create `path` (in the open `folder`, if given) with `data`; never through a link
    or over another file."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o644, dir_fd=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


def replace_file(path: Path | str, data: bytes, folder: int | None = None) -> None:
    """Whole or not at all: a new file of a name no one can guess, renamed over `path`
    (in the open `folder`, if given; a rename replaces a link at `path` itself, never
    what it points to)."""
    name = os.fspath(path)
    head, _, tail = name.rpartition("/")
    temporary = f"{head}/" * bool(head) + f".{tail}.{os.urandom(6).hex()}.tmp"
    write_new(temporary, data, folder)
    try:
        os.rename(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise


def is_file(path: Path) -> bool:
    """A plain file of ours at `path` itself (a link to one is not)."""
    try:
        return mine(os.lstat(path), stat.S_IFREG)
    except OSError:
        return False
