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
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
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


def make_folders(path: str, made: set[str], folder: int) -> None:
    """The folders of `path` in the folder open as `folder`, each a real folder of ours
    (a link or a file where one should be is removed first); `made`: those there are."""
    parent = path.rpartition("/")[0]
    if parent not in made:
        parts = parent.split("/")
        for end in range(1, len(parts) + 1):
            sub = "/".join(parts[:end])
            if sub not in made:
                try:
                    os.mkdir(sub, dir_fd=folder)
                except FileExistsError:  # its parents are checked: it is what it says
                    found = os.stat(sub, dir_fd=folder, follow_symlinks=False)
                    if not mine(found, stat.S_IFDIR):
                        discard_at(folder, sub, found)
                        os.mkdir(sub, dir_fd=folder)
                made.add(sub)


def real_folders(path: str, made: set[str], folder: int) -> bool:
    """Are the folders of `path` real folders of ours (not links), as far as they go?"""
    parent = path.rpartition("/")[0]
    if parent in made:
        return True
    parts = parent.split("/")
    for end in range(1, len(parts) + 1):
        sub = "/".join(parts[:end])
        if sub not in made:
            try:
                if not mine(os.stat(sub, dir_fd=folder, follow_symlinks=False), stat.S_IFDIR):
                    return False
            except FileNotFoundError:
                return True  # nothing there to remove
            made.add(sub)
    return True


def discard_at(folder: int, path: str, found: os.stat_result) -> None:
    """Remove the entry `path` of the open `folder` itself (a link, not what it points to);
    the folders above it are known to be real."""
    if stat.S_ISDIR(found.st_mode):  # another user's folder
        if sys.version_info >= (3, 11):
            shutil.rmtree(path, dir_fd=folder)
        else:
            shutil.rmtree(f"/proc/self/fd/{folder}/{path}")
    else:
        os.unlink(path, dir_fd=folder)


def is_file(path: Path) -> bool:
    """A plain file of ours at `path` itself (a link to one is not)."""
    try:
        return mine(os.lstat(path), stat.S_IFREG)
    except OSError:
        return False


def is_folder(path: Path) -> bool:
    try:
        return mine(os.lstat(path), stat.S_IFDIR)
    except OSError:
        return False


def exists(path: Path) -> bool:
    """Anything at `path`, a dangling link too."""
    try:
        os.lstat(path)
    except OSError:
        return False
    return True


def replace_marker(folder: int, name: str, data: bytes) -> None:
    """A marker file of the open `folder`, made anew: never written through a link."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=folder)
    descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o644, dir_fd=folder)
    try:
        os.write(descriptor, data)
    finally:
        os.close(descriptor)


FolderStamp = tuple[int, int]  # inode, change time (ns): any entry added, removed or
# renamed in a folder changes its change time


def folders_of(files: Iterable[str]) -> set[str]:
    """Every folder the files of these relative paths are in, "" (the top) included."""
    folders = {""}
    for name in files:
        parent = name.rpartition("/")[0]
        while parent not in folders:
            folders.add(parent)
            parent = parent.rpartition("/")[0]
    return folders


def folder_stamps(folder: int, folders: Iterable[str]) -> dict[str, FolderStamp]:
    """The stamps of these folders (relative paths) below the open `folder`; one that
    cannot be looked at, or is not a folder, has none."""
    stamps = {}
    for name in folders:
        try:
            found = os.stat(name or ".", dir_fd=folder, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(found.st_mode):
            stamps[name] = (found.st_ino, found.st_ctime_ns)
    return stamps


def prune(path: Path, files: dict[str, int], keep: frozenset[str] = frozenset(),
          stamps: dict[str, FolderStamp] | None = None) -> tuple[set[str], set[str]]:
    """Make the folder at `path` hold nothing but `files` (relative path -> inode), the
    folders they are in, and the plain files `keep` at its top: anything else (a link, a
    pipe, a file put there by another program or replaced since) is removed where it
    stands, each folder opened without following links. The paths of `files` found, each
    the very file (inode) recorded, and the folders found unchanged (below).

    `stamps`: the folders as they were when they held exactly `files`. A folder whose
    stamp still holds, below folders whose stamps hold (looked at top down, never
    through a link: each name is looked up in a folder known unchanged), has the same
    entries, and is not listed again: a site of 10,000 talks has 11,000 folders."""
    folders = folders_of(files)
    unchanged = _unchanged(path, folders, stamps or {})
    found = {name for name in files if name.rpartition("/")[0] in unchanged}
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    top = os.open(path, flags)
    stack = [("", top)]
    try:
        for name in folders - unchanged:  # changed below unchanged ones: listed, from there
            if name and name.rpartition("/")[0] in unchanged:
                with contextlib.suppress(FileNotFoundError):  # gone: none of its files found
                    stack.append((name + "/", os.open(name, flags, dir_fd=top)))
    except OSError:
        for _, folder in stack:
            os.close(folder)
        raise
    while stack:
        prefix, folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
            for entry in listed:
                name = prefix + entry.name
                if entry.is_dir(follow_symlinks=False) and name in folders:
                    if name not in unchanged:
                        stack.append((name + "/", os.open(entry.name, flags, dir_fd=folder)))
                elif entry.is_file(follow_symlinks=False) and (
                        files.get(name) == entry.inode() or (not prefix and name in keep)):
                    found.add(name)
                else:
                    discard_at(folder, entry.name, entry.stat(follow_symlinks=False))
        finally:
            os.close(folder)
    return found, unchanged


def _unchanged(path: Path, folders: set[str], stamps: dict[str, FolderStamp]) -> set[str]:
    """The folders (but the top, renamed by every build) whose stamps, and whose parents',
    still hold."""
    if not stamps:
        return set()
    unchanged: set[str] = {""}
    top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        for name in sorted(folders - {""}, key=lambda name: name.count("/")):
            stamp = stamps.get(name)
            if stamp is None or name.rpartition("/")[0] not in unchanged:
                continue
            try:
                found = os.stat(name, dir_fd=top, follow_symlinks=False)
            except OSError:
                continue
            if (found.st_ino, found.st_ctime_ns) == stamp and stat.S_ISDIR(found.st_mode):
                unchanged.add(name)
    finally:
        os.close(top)
    unchanged.discard("")
    return unchanged


@dataclass(frozen=True)
class Range:
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


def spliced(old: int, edits: tuple[tuple[int, int, bytes], ...]) -> Iterator[bytes | Range]:
    """The bytes of the file open as `old` with `edits` (start, end, new bytes) made."""
    position = 0
    for start, end, data in edits:
        yield Range(old, position, start - position)
        yield data
        position = end
    yield Range(old, position, os.fstat(old).st_size - position)


